import { fieldSpec } from '../contract/records';
import { sameDecimal } from '../decimal';
import { cutDeep, DEPTH_CUT_MARKER, MAX_GATE_DEPTH } from '../gate/depth';

/*
 * The service's JSON read to the digit (issue 50).
 *
 * JSON.parse turns every number into a double: an integer beyond 2^53 (a 19-digit deposit ID)
 * loses its last digits, and two different IDs can come out as one. This reader keeps what the
 * service wrote:
 * - a field the record model names an identifier (`id`, `depositId`, `*Id`, `txHash`…) comes out
 *   as text, the digits exactly as written, whatever its JSON type (a number there is an ID, not
 *   a quantity);
 * - any other number is a number when a double gives back its written value exactly (its
 *   shortest decimal, `String(Number(text))`, has the same value as the text): trailing zeros are
 *   no part of a value, so `100.50` is the number 100.5 and `1e-7` the number 1e-7 (the open
 *   choice `numberForms`, contract/choices.ts);
 * - a number no double gives back (an integer beyond 2^53, a decimal such as
 *   `99.99999999999999999`) comes out as its text exactly as written, never rounded. An amount
 *   written that way is therefore a text, which the checks of the answer read as written
 *   (shared/decimal.ts compares such texts without a double).
 *
 * Depth (outside read r14-data, findings 4 and 11): the reader reads at most MAX_GATE_DEPTH levels
 * of objects and lists, as the gate does (gate/depth.ts); an object or list deeper than that is
 * checked to be JSON (without recursion) and stands as DEPTH_CUT_MARKER, so a body nested
 * thousands of levels deep is read, never a stack overflow (and never handed to a parse that
 * rounds). `readJsonLossless` says whether anything was cut.
 *
 * Which JSON type an identifier had (outside read r19, t2): an identifier written as a
 * JSON number comes out as text, so its holder (the object or list that holds it) is noted in a
 * side-table, `writtenAsNumber(holder, key)`, and a reader of the answer that must know the
 * written type (a reader to which an `id` written `12.5` is no identifier) can ask.
 * The value itself stays the exact text; a copy of the holder is not noted (`keepWrittenKind`).
 *
 * No reviver `context.source` (Node 20 has none): a fast path uses JSON.parse when no number of
 * the text could lose a digit and no identifier field holds a number; any other text is read by
 * the small parser below, which takes identifiers from the written characters. Both give the same
 * result for the same text.
 */

/**
 * Texts the fast path does not read: 16 or more digits in one number-like run (a number a double
 * may not hold), an exponent, or a decimal ending in zeros (an identifier written `12.0` or `1e3`
 * would not come back as written from a double).
 */
const NOT_FAST =
	/(?:^|[:,[])\s*(?:-?(?:\d[.eE+-]?){16,}|-?\d+(?:\.\d+)?[eE]|-?\d+\.\d*0\s*[,}\]]|-0(?:\.0+)?\s*[,}\]])/;

/** Whether a field name holds an identifier (its numbers come out as text). */
const identifierNames = new Map<string, boolean>();
function isIdentifierField(name: string): boolean {
	let known = identifierNames.get(name);
	if (known === undefined) {
		known = fieldSpec(name).kind === 'identifier';
		if (identifierNames.size < 10_000) identifierNames.set(name, known);
	}
	return known;
}

/**
 * Whether a written number keeps its value as a double: the double's shortest decimal has the
 * same value as the text (trailing zeros and the spelling of the exponent are no part of it).
 */
export function exactAsDouble(text: string): boolean {
	const value = Number(text);
	if (!Number.isFinite(value)) return false;
	return sameDecimal(String(value), text);
}

/** A number as written, for a field of this name: text for an identifier or a number no double holds. */
function numberFor(text: string, field: string | undefined): number | string {
	if (field !== undefined && isIdentifierField(field)) return text;
	return exactAsDouble(text) ? Number(text) : text;
}

/**
 * Whether an already parsed value (fast path) holds a number under an identifier field: its
 * written characters are then read again by the parser below, never rebuilt from the double
 * (`String(1.2e-7)` is not the `0.00000012` the service wrote).
 */
function hasIdentifierNumber(value: unknown, field: string | undefined): boolean {
	if (typeof value === 'number') return field !== undefined && isIdentifierField(field);
	// Called on a value cut at MAX_GATE_DEPTH (cutDeep): its recursion is as deep, no deeper.
	if (Array.isArray(value)) return value.some((entry) => hasIdentifierNumber(entry, field));
	if (typeof value === 'object' && value !== null) {
		const record = value as Record<string, unknown>;
		for (const key of Object.keys(record)) {
			const entry = record[key];
			if (
				(typeof entry === 'object' || typeof entry === 'number') &&
				hasIdentifierNumber(entry, key)
			) {
				return true;
			}
		}
	}
	return false;
}

/** Holders (objects, lists) whose fields or entries under these keys were JSON numbers read as text. */
const numberTokens = new WeakMap<object, Set<string>>();

function noteNumberToken(holder: object, key: string | number): void {
	let keys = numberTokens.get(holder);
	if (!keys) numberTokens.set(holder, (keys = new Set()));
	keys.add(String(key));
}

/**
 * Whether the value under `key` of a holder this reader made was written as a JSON number and
 * comes out as text (an identifier, or a number no double holds). False for anything else: a JSON
 * string, a number that comes out as a number (its type says so), or a holder this reader did not
 * make.
 */
export function writtenAsNumber(holder: object, key: string | number): boolean {
	return numberTokens.get(holder)?.has(String(key)) ?? false;
}

/** Notes on a copy that its `toKey` was written as a JSON number when the original's `fromKey` was. */
export function keepWrittenKind(
	from: object,
	fromKey: string | number,
	to: object,
	toKey: string | number,
): void {
	if (writtenAsNumber(from, fromKey)) noteNumberToken(to, toKey);
}

/**
 * Notes on a copy of a holder (`{ ...record, more }`) every key the original had written as a JSON
 * number, where the copy still holds the same value under it.
 */
export function copyWrittenKinds(from: object, to: object): void {
	const keys = numberTokens.get(from);
	if (!keys) return;
	for (const key of keys) {
		if ((to as Record<string, unknown>)[key] === (from as Record<string, unknown>)[key]) {
			noteNumberToken(to, key);
		}
	}
}

/** A JSON number at a position (sticky). */
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

export class LosslessJsonError extends SyntaxError {}

/** The reader of one JSON text, character by character. */
class Reader {
	private at = 0;
	/** Levels of objects and lists open at `at`. */
	private depth = 0;
	/** Whether an object or list deeper than MAX_GATE_DEPTH was cut. */
	cut = false;

	constructor(private readonly text: string) {}

	read(): unknown {
		const value = this.value(undefined);
		this.space();
		if (this.at < this.text.length) this.fail('unexpected text after the value');
		return value;
	}

	private fail(what: string): never {
		throw new LosslessJsonError(`Invalid JSON at position ${this.at}: ${what}`);
	}

	private space(): void {
		const { text } = this;
		while (this.at < text.length) {
			const c = text.charCodeAt(this.at);
			if (c === 32 || c === 9 || c === 10 || c === 13) this.at++;
			else break;
		}
	}

	private value(field: string | undefined): unknown {
		this.space();
		const c = this.text[this.at];
		if ((c === '{' || c === '[') && this.depth >= MAX_GATE_DEPTH) return this.skip();
		if (c === '{') return this.nested(() => this.object());
		if (c === '[') return this.nested(() => this.array(field));
		if (c === '"') return this.string();
		if (c === '-' || (c >= '0' && c <= '9')) return this.number(field);
		if (this.text.startsWith('true', this.at)) return this.word(4, true);
		if (this.text.startsWith('false', this.at)) return this.word(5, false);
		if (this.text.startsWith('null', this.at)) return this.word(4, null);
		return this.fail(c === undefined ? 'the text ends' : `unexpected "${c}"`);
	}

	/** Whether the next value (after white space) is a JSON number. */
	private startsNumber(): boolean {
		this.space();
		const c = this.text[this.at];
		return c === '-' || (c >= '0' && c <= '9');
	}

	private nested<T>(read: () => T): T {
		this.depth++;
		const value = read();
		this.depth--;
		return value;
	}

	/**
	 * An object or list below MAX_GATE_DEPTH: its end found by a loop (brackets counted outside
	 * strings), its text checked by JSON.parse (which does not recurse), and DEPTH_CUT_MARKER in
	 * its place.
	 */
	private skip(): string {
		const { text } = this;
		const start = this.at;
		const closers: string[] = [];
		let at = start;
		do {
			const c = text[at];
			if (c === undefined) this.fail('the text ends');
			if (c === '"') {
				at++;
				while (at < text.length && text[at] !== '"') at += text[at] === '\\' ? 2 : 1;
				if (at >= text.length) this.fail('a string does not end');
			} else if (c === '{') closers.push('}');
			else if (c === '[') closers.push(']');
			else if (c === '}' || c === ']') {
				if (closers.pop() !== c) {
					this.at = at;
					this.fail(`unexpected "${c}"`);
				}
			}
			at++;
		} while (closers.length > 0);
		try {
			JSON.parse(text.slice(start, at));
		} catch {
			return this.fail('invalid JSON below the depth read');
		}
		this.at = at;
		this.cut = true;
		return DEPTH_CUT_MARKER;
	}

	private word<T>(length: number, value: T): T {
		this.at += length;
		return value;
	}

	private object(): Record<string, unknown> {
		this.at++;
		const out: Record<string, unknown> = {};
		this.space();
		if (this.text[this.at] === '}') {
			this.at++;
			return out;
		}
		for (;;) {
			this.space();
			if (this.text[this.at] !== '"') this.fail('expected a field name');
			const key = this.string();
			this.space();
			if (this.text[this.at] !== ':') this.fail('expected ":"');
			this.at++;
			const numberAt = this.startsNumber();
			const entry = this.value(key);
			if (numberAt && typeof entry === 'string') noteNumberToken(out, key);
			// A field named `__proto__` is plain data, as JSON.parse makes it.
			Object.defineProperty(out, key, {
				value: entry,
				enumerable: true,
				writable: true,
				configurable: true,
			});
			this.space();
			const next = this.text[this.at++];
			if (next === '}') return out;
			if (next !== ',') this.fail('expected "," or "}"');
		}
	}

	private array(field: string | undefined): unknown[] {
		this.at++;
		const out: unknown[] = [];
		this.space();
		if (this.text[this.at] === ']') {
			this.at++;
			return out;
		}
		for (;;) {
			const numberAt = this.startsNumber();
			const entry = this.value(field);
			if (numberAt && typeof entry === 'string') noteNumberToken(out, out.length);
			out.push(entry);
			this.space();
			const next = this.text[this.at++];
			if (next === ']') return out;
			if (next !== ',') this.fail('expected "," or "]"');
		}
	}

	private string(): string {
		const { text } = this;
		const start = this.at;
		let end = start + 1;
		// Strings without escapes: JSON.parse of the slice, which also checks control characters.
		while (end < text.length && text[end] !== '"') {
			if (text[end] === '\\') end++;
			end++;
		}
		if (end >= text.length) this.fail('a string does not end');
		this.at = end + 1;
		try {
			return JSON.parse(text.slice(start, end + 1)) as string;
		} catch {
			return this.fail('invalid string');
		}
	}

	private number(field: string | undefined): number | string {
		NUMBER.lastIndex = this.at;
		const match = NUMBER.exec(this.text);
		if (!match) return this.fail('invalid number');
		this.at += match[0].length;
		return numberFor(match[0], field);
	}
}

/**
 * The service's JSON text read without losing a digit: identifiers as text, numbers a double
 * cannot hold as their written text, read at most MAX_GATE_DEPTH levels deep (deeper objects
 * and lists stand as DEPTH_CUT_MARKER). Throws a SyntaxError where JSON.parse would.
 */
export function parseJsonLossless(text: string): unknown {
	return readJsonLossless(text).value;
}

/**
 * parseJsonLossless, and whether an object or list deeper than MAX_GATE_DEPTH was cut (its place
 * holds DEPTH_CUT_MARKER). Never overflows the stack, however deep the text.
 */
export function readJsonLossless(text: string): { value: unknown; cut: boolean } {
	if (!NOT_FAST.test(text)) {
		const parsed: unknown = JSON.parse(text);
		const value = cutDeep(parsed);
		if (!hasIdentifierNumber(value, undefined)) return { value, cut: value !== parsed };
	}
	const reader = new Reader(text);
	const value = reader.read();
	return { value, cut: reader.cut };
}
