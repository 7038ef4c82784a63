/*
 * How deep the gate reads a value. Every walk of the gate (the field rules, what a record names,
 * the raw body's comparison) is recursive; a JSON nested some thousands of levels (a webhook body,
 * a service answer) would overflow the stack in the middle of masking (issue 50, outside read
 * r12-data: a delivery answered 200 and recorded, then lost). A value is cut at MAX_GATE_DEPTH
 * levels first: what lies deeper is replaced by DEPTH_CUT_MARKER, never shown unread.
 */

/** Levels of objects and lists the gate reads; deeper ones are cut. */
export const MAX_GATE_DEPTH = 100;

/** What stands in place of an object or list nested deeper than MAX_GATE_DEPTH. */
export const DEPTH_CUT_MARKER = `[cut: nested deeper than ${MAX_GATE_DEPTH} levels]`;

/**
 * What an item says of its `rawBody` when the body was cut at MAX_GATE_DEPTH (outside read
 * r14-data, finding 10): the text is withheld because the gate did not read what lay deeper (a
 * secret there would stand whole in it), not because a secret was found.
 */
export const RAW_BODY_DEPTH_NOTE = `rawBody is withheld: the body nests objects or lists deeper than ${MAX_GATE_DEPTH} levels, which the gate does not read (the fields of this item show "${DEPTH_CUT_MARKER}" there), so the text was not checked for secrets whole and is not given. The trigger verified the signature over the exact bytes.`;

/** Whether `value` has objects or lists nested deeper than `max` levels (reads at most that deep). */
export function tooDeep(value: unknown, max: number = MAX_GATE_DEPTH): boolean {
	if (isLeaf(value)) return false;
	if (max <= 0) return true;
	for (const child of Object.values(value as object)) {
		if (tooDeep(child, max - 1)) return true;
	}
	return false;
}

/** A value the walk does not enter: not an object, or a Buffer or a Date. */
function isLeaf(value: unknown): boolean {
	return (
		typeof value !== 'object' || value === null || Buffer.isBuffer(value) || value instanceof Date
	);
}

function cut(value: unknown, left: number): unknown {
	if (isLeaf(value)) return value;
	if (left <= 0) return DEPTH_CUT_MARKER;
	if (Array.isArray(value)) return value.map((child) => cut(child, left - 1));
	const out: Record<string, unknown> = {};
	for (const [key, child] of Object.entries(value as object)) {
		Object.defineProperty(out, key, {
			value: cut(child, left - 1),
			enumerable: true,
			writable: true,
			configurable: true,
		});
	}
	return out;
}

/**
 * `value` with every object or list deeper than `max` levels replaced by DEPTH_CUT_MARKER; the
 * same value (not a copy) when nothing is that deep.
 */
export function cutDeep<T>(value: T, max: number = MAX_GATE_DEPTH): T {
	return tooDeep(value, max) ? (cut(value, max) as T) : value;
}
