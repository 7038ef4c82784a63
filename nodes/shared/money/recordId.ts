import type { IDataObject } from 'n8n-workflow';

import { keepWrittenKind, writtenAsNumber } from '../transport/json';

/*
 * A money record's ID as the interface document types it (issue 49, outside r19-money t2
 * `decimalId`): the Payout's, the Card request's and the Card's `id` are strings, the Order's a
 * uuid; the recharge record's fields are not shown (choice `rechargeRecord`). A record is bound to
 * one write by its ID (proofs.ts: one record, one write), so an ID that is no ID binds nothing.
 *
 * Read (choice `bigNumbers`, contract/choices.ts):
 * - a text with something visible in it and no control character is the ID (outside r24-money F3):
 *   what is left after removing white space, format characters (zero-width space, word joiner,
 *   BOM: Unicode Cf) and control characters (Cc) is not empty, and there is no control character
 *   at all (`"\u200b"`, `"\u0000"`, `"\u2060"`, `"\u3000"`, `"p-1\u0000"` are no IDs);
 * - a JSON number written as a whole number of digits (`12`, a 19-digit ID) is taken as its text,
 *   read to the digit by the transport: an ID a service numbers;
 * - anything else shown is not an ID: a number with a fraction, a sign, a decimal point or an
 *   exponent (`12.5`, `-3`, `-0`, `12.0`, `1e3`), true or false, an object, a list, an empty,
 *   blank or invisible text, a text holding a control character. A write answered with such a record is unknown (the service acted or not; the node
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
/** What shows as nothing: white space and separators (Z), format characters (Cf), controls (Cc). */
const UNSEEN = /[\s\p{Z}\p{Cf}\p{Cc}]/gu;

/** Why a text is no ID (empty, nothing visible, a control character), or '' when it is one. */
export function textNotAnId(text: string): string {
	if (text.replace(UNSEEN, '') === '') {
		return text === '' ? 'an empty text' : 'a text with nothing visible in it';
	}
	return CONTROL.test(text) ? 'a text holding a control character' : '';
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
