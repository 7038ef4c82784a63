import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function show(value: unknown): string {
	if (typeof value === 'string') return `"${value}"`;
	return JSON.stringify(value) ?? String(value);
}

function invalid(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	rule: string,
	value: unknown,
): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), `${field} ${rule}, got ${show(value)}`, {
		itemIndex,
		description: `Nothing was sent to the service. Fix "${field}" on item ${itemIndex} and run again.`,
	});
}

/** Checks a value is text (or a number) that is not empty; returns it trimmed. */
export function checkText(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	field: string,
): string {
	const trimmed =
		typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
	if (trimmed === '') throw invalid(ctx, itemIndex, field, 'must not be empty', value ?? '');
	return trimmed;
}

/** Reads a string parameter and checks it is not empty; returns it trimmed. */
export function requireText(
	ctx: IExecuteFunctions,
	itemIndex: number,
	name: string,
	field: string,
): string {
	return checkText(ctx, itemIndex, ctx.getNodeParameter(name, itemIndex, '') as unknown, field);
}

/**
 * A value that would not stay one path segment: "." and ".." pass encodeURIComponent unchanged
 * and are then collapsed by URL resolution (".." would address another endpoint, "." the
 * collection itself, e.g. DELETE /members/ instead of /members/{userId}).
 */
export function isDotSegment(value: string): boolean {
	return value === '.' || value === '..';
}

const DOT_SEGMENT_RULE =
	'must be an ID, not "." or ".." (those would address another endpoint of the service)';

/**
 * Reads the ID of an existing record that goes into a URL path: not empty after trimming and
 * not a dot segment. Returned trimmed; `segment()` encodes it.
 */
export function requirePathId(
	ctx: IExecuteFunctions,
	itemIndex: number,
	name: string,
	field: string,
): string {
	return checkPathId(ctx, itemIndex, ctx.getNodeParameter(name, itemIndex, '') as unknown, field);
}

/** The check of requirePathId, for a value already read (e.g. from a resource locator). */
export function checkPathId(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	field: string,
): string {
	const id = checkText(ctx, itemIndex, value, field);
	if (isDotSegment(id)) throw invalid(ctx, itemIndex, field, DOT_SEGMENT_RULE, id);
	return id;
}

/** Reads a string parameter that must be a UUID (order and quote ids). */
export function requireUuid(
	ctx: IExecuteFunctions,
	itemIndex: number,
	name: string,
	field: string,
): string {
	return checkUuid(ctx, itemIndex, ctx.getNodeParameter(name, itemIndex, '') as unknown, field);
}

/** The check of requireUuid, for a value already read (e.g. from a resource locator). */
export function checkUuid(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	field: string,
): string {
	const trimmed = typeof value === 'string' ? value.trim() : '';
	if (!UUID.test(trimmed)) throw invalid(ctx, itemIndex, field, 'must be a UUID', value ?? '');
	return trimmed;
}

/**
 * The rules above as patterns, for the "By ID" mode of a resource locator: n8n's editor shows
 * the message while the user types; execute() still checks with the functions above.
 */
export const PATH_ID_PATTERN = '^(?!\\s*\\.{1,2}\\s*$)\\s*\\S[\\s\\S]*$';
export const UUID_PATTERN =
	'^\\s*[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\\s*$';

/**
 * A money amount in plain decimal notation: digits, no leading zeros, an optional point with
 * digits after it. Nothing else that JavaScript's Number() would take: no spaces, signs,
 * exponents ("1e3"), hex ("0x10"), binary ("0b11"), octal, Infinity or thousands separators.
 */
const PLAIN_DECIMAL = /^(0|[1-9]\d{0,14})(\.(\d+))?$/;

const PLAIN_DECIMAL_RULE =
	'must be a plain decimal number such as 1500 or 1500.50 (digits and an optional decimal point only: no spaces, signs, exponents, hex or binary notation, at most 15 digits before the point)';

/**
 * Reads a money amount: a number, or text in plain decimal notation, greater than 0 and with
 * at most `decimals` decimal places. Anything else is refused before any request with the
 * field, the rule and the value. A number is held to the same notation as text (so 1e21 or
 * 0.30000000000000004 from an expression is refused rather than sent).
 */
export function requireAmount(
	ctx: IExecuteFunctions,
	itemIndex: number,
	name: string,
	field: string,
	decimals = 2,
): number {
	const value = ctx.getNodeParameter(name, itemIndex, '') as unknown;
	if (typeof value === 'number' && Number.isFinite(value) && value <= 0) {
		throw invalid(ctx, itemIndex, field, 'must be a number greater than 0', value);
	}
	const text =
		typeof value === 'number' && Number.isFinite(value)
			? String(value)
			: typeof value === 'string'
				? value
				: undefined;
	if (text === '' || value === null || value === undefined) {
		throw invalid(ctx, itemIndex, field, 'must not be empty', value ?? '');
	}
	const match = text === undefined ? null : PLAIN_DECIMAL.exec(text);
	if (text === undefined || !match) throw invalid(ctx, itemIndex, field, PLAIN_DECIMAL_RULE, value);
	if ((match[3] ?? '').length > decimals) {
		throw invalid(ctx, itemIndex, field, `must have at most ${decimals} decimal places`, value);
	}
	const amount = Number(text);
	if (amount <= 0) throw invalid(ctx, itemIndex, field, 'must be a number greater than 0', value);
	return amount;
}

/**
 * Encodes one path segment (ids come from user input). The readers above refuse empty and dot
 * segments with a message naming the field; this is the last guard, so no path built here can
 * be collapsed into another endpoint whatever reader a new operation uses.
 */
export function segment(value: string): string {
	if (value.trim() === '' || isDotSegment(value)) {
		throw new Error(
			`Refused to build a request path from the ID ${JSON.stringify(value)}: an ID must not be empty, "." or ".."`,
		);
	}
	return encodeURIComponent(value);
}

export { invalid as invalidInput };
