import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A value as an error shows it: text in quotes, numbers as JavaScript prints them (NaN too). */
export function show(value: unknown): string {
	if (typeof value === 'string') return `"${value}"`;
	if (typeof value === 'number' || typeof value === 'bigint') return String(value);
	if (value === undefined) return 'nothing';
	return JSON.stringify(value) ?? String(value);
}

/** How an error shows a value that must not appear in it (a secret, a card number). */
export type Shown = (value: unknown) => string;

/** For secrets: only what kind of value it was, never the value. */
export const showKindOnly: Shown = (value) => {
	if (value === null || value === undefined) return 'nothing';
	if (typeof value === 'string') return value.trim() === '' ? 'an empty value' : 'a hidden text';
	if (typeof value === 'number') return 'a number';
	if (typeof value === 'boolean') return `the boolean ${String(value)}`;
	return Array.isArray(value) ? 'a list' : 'an object';
};

function invalid(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	rule: string,
	value: unknown,
	shown: Shown = show,
): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), `${field} ${rule}, got ${shown(value)}`, {
		itemIndex,
		description: `Nothing was sent to the service. Fix "${field}" on item ${itemIndex} and run again.`,
	});
}

/*
 * THE RULES FOR VALUES FROM EXPRESSIONS. n8n hands an expression's result over as its own type,
 * so every field is read by one of the readers below, and each accepts or refuses every type
 * the same way:
 *
 * - Text (IDs, names, references): text is trimmed and kept otherwise exactly (leading zeros,
 *   non-ASCII digits, inner spaces). A number becomes its digits (1042 → "1042") when it is
 *   exact: an integer above 2^53 - 1 was already rounded when n8n read it (a 19-digit card
 *   number, a 20-digit UIN) and is refused, as are NaN and Infinity. true/false, lists and
 *   objects are refused. null, undefined and empty text are "empty".
 * - Amounts: plain decimal text or a number, sent as a JSON number only when that number is
 *   exactly the decimal the user wrote (requireAmount); a number only below 10^13 for 2
 *   decimal places, where a number cannot have lost digits of its source (numberAmountLimit).
 * - Whole numbers (Limit): an integer or integer text, within the field's range.
 * - Booleans: true/false, or the text "true"/"false".
 * - Choices: exactly one of the field's values.
 * - Lists: a list of text, or text separated by commas or new lines.
 */

const TEXT_RULE = 'must be text';

/** The rule of a record ID given as a number (checkPathId, outside r18-money F4). */
const ID_NUMBER_RULE = `names a record, so a number here must be a whole number no larger than ${Number.MAX_SAFE_INTEGER} (a fraction such as 1042.50 has no one exact text: it would be sent as "1042.5", another ID; -0 as "0"); pass it as text, e.g. {{ String($json.id) }}`;

/** A number that JavaScript holds exactly as the user wrote it: finite, and an exact integer if whole. */
function exactNumberRule(value: number): string | undefined {
	if (!Number.isFinite(value)) return 'must be text or a finite number';
	if (Number.isInteger(value) && !Number.isSafeInteger(value)) {
		return `must be given as text when it is a number above 2^53 - 1 (${Number.MAX_SAFE_INTEGER}): n8n already rounded it when it read the JSON, so another value would be sent. Map the field as text (e.g. keep the source value a string)`;
	}
	return undefined;
}

/**
 * Reads a value as text by the rules above: trimmed text, or the digits of an exact number;
 * '' for empty. Anything else is refused before any request with the field, the rule and the
 * value (or, for secrets, `shown` says only what kind of value it was).
 */
export function readTextValue(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	field: string,
	shown: Shown = show,
): string {
	if (value === null || value === undefined) return '';
	if (typeof value === 'string') return value.trim();
	if (typeof value === 'number') {
		const rule = exactNumberRule(value);
		if (rule) throw invalid(ctx, itemIndex, field, rule, value, shown);
		return String(value);
	}
	const kind =
		typeof value === 'boolean'
			? 'not true or false'
			: Array.isArray(value)
				? 'not a list'
				: 'not an object';
	throw invalid(ctx, itemIndex, field, `${TEXT_RULE}, ${kind}`, value, shown);
}

/** Checks a value is text (or an exact number) that is not empty; returns it trimmed. */
export function checkText(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	field: string,
	shown: Shown = show,
): string {
	const trimmed = readTextValue(ctx, itemIndex, value, field, shown);
	if (trimmed === '') throw invalid(ctx, itemIndex, field, 'must not be empty', value ?? '', shown);
	return trimmed;
}

/** An optional text value: trimmed, or undefined when empty (read by the rules above). */
export function optionalText(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	field: string,
): string | undefined {
	const trimmed = readTextValue(ctx, itemIndex, value, field);
	return trimmed === '' ? undefined : trimmed;
}

/** A boolean: true or false, or the text "true" / "false" (any case, trimmed). */
export function checkBoolean(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	field: string,
): boolean {
	if (typeof value === 'boolean') return value;
	const text = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
	if (text === 'true' || text === 'false') return text === 'true';
	throw invalid(ctx, itemIndex, field, 'must be true or false', value ?? null);
}

/** Reads a boolean parameter (see checkBoolean). */
export function readBoolean(
	ctx: IExecuteFunctions,
	itemIndex: number,
	name: string,
	field: string,
	fallback: boolean,
): boolean {
	return checkBoolean(ctx, itemIndex, ctx.getNodeParameter(name, itemIndex, fallback), field);
}

/** A whole number within [min, max]: an integer, or text of ASCII digits. */
export function checkInteger(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	field: string,
	min = 1,
	max = Number.MAX_SAFE_INTEGER,
): number {
	const text = typeof value === 'string' ? value.trim() : undefined;
	const number =
		typeof value === 'number'
			? value
			: text !== undefined && /^\d+$/.test(text)
				? Number(text)
				: NaN;
	if (!Number.isSafeInteger(number) || number < min || number > max) {
		const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`;
		throw invalid(ctx, itemIndex, field, `must be a whole number ${range}`, value ?? null);
	}
	return number;
}

/** One of the field's choices, given as its exact value (surrounding spaces ignored). */
export function checkOption<T extends string>(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	field: string,
	choices: readonly T[],
): T {
	const text = typeof value === 'string' ? value.trim() : undefined;
	const choice = choices.find((option) => option === text);
	if (choice === undefined) {
		throw invalid(ctx, itemIndex, field, `must be one of ${choices.join(', ')}`, value ?? null);
	}
	return choice;
}

/**
 * A list of text values: a list from an expression, or text separated by commas or new lines.
 * Each entry is read as text (see readTextValue); empty entries of text are skipped. Returns
 * undefined when the field is empty; an expression giving an empty list returns [] on purpose.
 */
export function readTextList(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	field: string,
	rule: string,
): string[] | undefined {
	if (value === undefined || value === null) return undefined;
	let parts: unknown[];
	if (Array.isArray(value)) {
		parts = value;
	} else if (typeof value === 'string') {
		if (value.trim() === '') return undefined;
		parts = value.split(/[,\n]/).filter((part) => part.trim() !== '');
		if (parts.length === 0) return undefined;
	} else {
		throw invalid(ctx, itemIndex, field, rule, value);
	}
	const entries: string[] = [];
	for (const part of parts) {
		const entry = typeof part === 'string' ? part.trim() : part;
		if (typeof entry !== 'string' || entry === '')
			throw invalid(ctx, itemIndex, field, rule, entry);
		if (!entries.includes(entry)) entries.push(entry);
	}
	return entries;
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
	// A record ID given as a number is its digits only when it is a whole number with one exact
	// text (outside r18-money F4), the rule External ID keeps (money/key.ts exactText): a fraction
	// such as 1042.50 would be sent as "1042.5", -0 as "0", another record's ID.
	if (typeof value === 'number' && (!Number.isSafeInteger(value) || Object.is(value, -0))) {
		throw invalid(ctx, itemIndex, field, ID_NUMBER_RULE, value, (v) =>
			Object.is(v, -0) ? '-0' : show(v),
		);
	}
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
	const trimmed = readTextValue(ctx, itemIndex, value, field);
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
 * How many significant decimal digits a number (a double) holds exactly: every decimal written
 * with at most 15 significant digits reads back from its double as the same decimal (DBL_DIG).
 */
export const EXACT_NUMBER_DIGITS = 15;

/**
 * The smallest number-typed amount refused for a field with `decimals` places: 10^(15 - decimals)
 * (10 000 000 000 000 for 2). Below it every amount of at most `decimals` places has at most 15
 * significant digits, so the number an expression hands over is the amount its source wrote. At
 * or above it the source may have had more digits than the number holds, which n8n rounded away
 * when it read the JSON (99999999999999.994 → 100000000000000, r16-money F3): the node cannot see
 * them, so it refuses the number instead of sending another amount.
 */
export function numberAmountLimit(decimals: number): number {
	return 10 ** (EXACT_NUMBER_DIGITS - decimals);
}

function numberAmountRule(decimals: number): string {
	return `must be given as text when it is a number of ${String(numberAmountLimit(decimals))} or more: a number holds ${EXACT_NUMBER_DIGITS} significant digits exactly, and an amount this large with ${decimals} decimal places needs more, so n8n may already have rounded it when it read the JSON (99999999999999.994 becomes 100000000000000) and another amount would be sent. Converting it in the expression cannot bring the digits back: keep the amount a string in the source (a JSON string such as "123456789012345.67") and map that`;
}

/** "1500.50" → "1500.5", "100.00" → "100": the decimal as JavaScript prints the same number. */
function canonicalDecimal(text: string): string {
	const [whole, fraction = ''] = text.split('.');
	const kept = fraction.replace(/0+$/, '');
	return kept === '' ? whole : `${whole}.${kept}`;
}

/**
 * Checks a money amount: a number, or text in plain decimal notation, greater than 0 and with at
 * most `decimals` decimal places. It is sent as a JSON number, so it is refused unless that
 * number prints as exactly the decimal given (a number like 0.30000000000000004 from an
 * expression, or text with more digits than a number holds, would otherwise be sent rounded). A
 * number-typed value is refused from numberAmountLimit(decimals) up (1e21 among them): n8n may
 * have rounded it before the node saw it. Anything else is refused before any
 * request with the field, the rule and the value.
 */
export function checkAmount(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	field: string,
	decimals = 2,
): number {
	if (typeof value === 'number' && Number.isFinite(value) && value <= 0) {
		throw invalid(ctx, itemIndex, field, 'must be a number greater than 0', value);
	}
	// A number is what n8n parsed: taken only where it cannot have lost digits (r16-money F3).
	if (typeof value === 'number' && Number.isFinite(value) && value >= numberAmountLimit(decimals)) {
		throw invalid(ctx, itemIndex, field, numberAmountRule(decimals), value);
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
	if (String(amount) !== canonicalDecimal(text)) {
		throw invalid(
			ctx,
			itemIndex,
			field,
			`has more digits than the number sent to the service can hold exactly (it would be sent as ${String(amount)})`,
			value,
		);
	}
	return amount;
}

/** Reads a money amount parameter (see checkAmount). */
export function requireAmount(
	ctx: IExecuteFunctions,
	itemIndex: number,
	name: string,
	field: string,
	decimals = 2,
): number {
	return checkAmount(ctx, itemIndex, ctx.getNodeParameter(name, itemIndex, ''), field, decimals);
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
