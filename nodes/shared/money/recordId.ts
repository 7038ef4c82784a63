import type { IDataObject } from 'n8n-workflow';

import { keepWrittenKind, writtenAsNumber } from '../transport/json';

/*
 * A money record's ID as the interface document types it (issue 49, outside r19-money t2
 * `decimalId`): the Payout's, the Card request's and the Card's `id` are strings, the Order's a
 * uuid; the recharge record's fields are not shown (choice `rechargeRecord`). A record is bound to
 * one write by its ID (proofs.ts: one record, one write), so an ID that is no ID binds nothing.
 *
 * Read (choice `bigNumbers`, contract/choices.ts):
 * - a text holding at least one printable ASCII character (U+0021–U+007E) and no control
 *   character is the ID (outside r24-money F3, r25-money F2). The rule names what an ID must show
 *   rather than what to strip: `"\u200b"`, `"\u0000"`, `"\u3000"`, `"\u3164"` (Hangul filler),
 *   `"\u034f"`, `"\ufe0f"`, `"\u2800"` (braille blank), `"p-1\u0000"` are no IDs, and so is a
 *   text of other letters only (`"заявка"`): the node cannot tell a visible one from an invisible
 *   one, and calling such a write unknown is conservative and true;
 * - a JSON number written as a whole number of digits (`12`, a 19-digit ID) is taken as its text,
 *   read to the digit by the transport: an ID a service numbers;
 * - anything else shown is not an ID: a number with a fraction, a sign, a decimal point or an
 *   exponent (`12.5`, `-3`, `-0`, `12.0`, `1e3`), true or false, an object, a list, an empty,
 *   text without a printable ASCII character, a text holding a control character. A write answered with such a record is unknown (the service acted or not; the node
 *   cannot prove which), never paid naming it, and Resolve Outcome gives it to no write.
 *
 * The transport gives every identifier as text, so whether it was a JSON number is asked of the
 * reader's side-table (transport/json.ts writtenAsNumber), by the object that holds it.
 */

/** What a record shows under its ID field. */
export type RecordIdReading =
	| { kind: 'id'; id: string }
	| { kind: 'none' }
	| { kind: 'notAnId'; shown: string; why: string };

/** A whole number of digits as JSON writes one: no sign, no fraction, no exponent, no leading 0. */
const WHOLE = /^(?:0|[1-9]\d*)$/;

/** A control character (Unicode Cc: C0, DEL, C1). */
const CONTROL = /\p{Cc}/u;
/** A printable ASCII character other than the space: what anyone can see, type and look up. */
const ASCII_GRAPHIC = /[\x21-\x7e]/;

/**
 * Why a text is no ID (empty, no printable ASCII character, a control character), or '' when it
 * is one. The rule is positive (outside r25-money F2): invisible characters are many and grow
 * with Unicode (Hangul fillers, U+034F, variation selectors, the braille blank), so an ID must
 * show at least one character of U+0021–U+007E; one made only of other characters is no ID.
 */
export function textNotAnId(text: string): string {
	if (text === '') return 'an empty text';
	if (CONTROL.test(text)) return 'a text holding a control character';
	return ASCII_GRAPHIC.test(text)
		? ''
		: 'a text without a printable ASCII character (U+0021–U+007E)';
}

/** How a value that is not an ID is shown in a message (short, as JSON). */
function shownValue(value: unknown): string {
	const text = JSON.stringify(value) ?? String(value);
	return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** A record's ID under `field` (`id` unless said), read by the rule above. */
export function readRecordId(record: object, field = 'id'): RecordIdReading {
	const value: unknown = (record as IDataObject)[field];
	if (value === undefined || value === null) return { kind: 'none' };
	if (typeof value === 'string') {
		if (writtenAsNumber(record, field)) {
			return WHOLE.test(value)
				? { kind: 'id', id: value }
				: {
						kind: 'notAnId',
						shown: value,
						why: 'a JSON number that is not a whole number of digits (a fraction, a sign, a decimal point or an exponent)',
					};
		}
		const why = textNotAnId(value);
		return why ? { kind: 'notAnId', shown: shownValue(value), why } : { kind: 'id', id: value };
	}
	if (typeof value === 'number') {
		// A body not read by the transport's reader (already parsed): a whole number a double holds.
		return Number.isSafeInteger(value) && value >= 0 && !Object.is(value, -0)
			? { kind: 'id', id: String(value) }
			: {
					kind: 'notAnId',
					shown: String(value),
					why: 'a number that is not a whole number of digits a double holds exactly',
				};
	}
	if (typeof value === 'bigint') {
		return value >= BigInt(0)
			? { kind: 'id', id: value.toString() }
			: { kind: 'notAnId', shown: value.toString(), why: 'a negative number' };
	}
	const what =
		typeof value === 'boolean'
			? 'true or false'
			: Array.isArray(value)
				? 'a list'
				: typeof value === 'object'
					? 'an object'
					: `a ${typeof value}`;
	return { kind: 'notAnId', shown: shownValue(value), why: what };
}

/** A record's ID when it shows one the rule takes, else undefined (none, or not an ID). */
export function recordIdOf(record: object, field = 'id'): string | undefined {
	const reading = readRecordId(record, field);
	return reading.kind === 'id' ? reading.id : undefined;
}

/**
 * A record made of some fields of an answer (`{ id: answer.id, createdAt: answer.createdAt }`),
 * with the written type of each kept, so its ID is read as the answer wrote it.
 */
export function pickedRecord(answer: IDataObject, fields: Record<string, string>): IDataObject {
	const out: IDataObject = {};
	for (const [to, from] of Object.entries(fields)) {
		out[to] = answer[from];
		keepWrittenKind(answer, from, out, to);
	}
	return out;
}

/**
 * `{ ...first, ...then }` with the written type of each field kept from the record it came from
 * (a listed record completed by its read: the read's fields win), so the ID is read as written.
 */
export function mergedRecord(first: IDataObject, then: IDataObject): IDataObject {
	const out: IDataObject = { ...first, ...then };
	for (const key of Object.keys(out)) keepWrittenKind(key in then ? then : first, key, out, key);
	return out;
}
