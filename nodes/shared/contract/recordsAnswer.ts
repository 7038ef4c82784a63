import type { IDataObject } from 'n8n-workflow';

import { isObject } from './guards';

/*
 * The shape of an answer, as the package reads it before the gate (issue 50, outside read
 * r16-data, findings 3 to 6). The document shows few answers whole; these are the two rules
 * every operation shares for what it does not show:
 * - a JSON value where a record stands (a bare text, a number, true, null: a whole answer or
 *   an entry of a list) comes out as a record of one field, SCALAR_ANSWER_KEY, holding it as sent;
 * - a field the operation exists to give (a new API key, the new webhook secret, a card's number
 *   and CVV) is found by its names nearest the top, also inside an envelope (`{"data":{…}}`),
 *   and opened where it stands: fieldPath.
 */

/**
 * The field under which a JSON value that is no record comes out (contract/choices.ts
 * `valueAnswer`): GET /wallets answering the address as a bare text gives `{ "value": "T…" }`,
 * a block answered `true` gives `{ "value": true }`, a list of IDs one `{ "value": "w_1" }` per
 * entry. Never spread into one field per character, never dropped.
 */
export const SCALAR_ANSWER_KEY = 'value';

/** A record as it stands; any other JSON value as `{ value }` (SCALAR_ANSWER_KEY). */
export function asRecord(value: unknown): IDataObject {
	if (isObject(value)) return value;
	return { [SCALAR_ANSWER_KEY]: (value === undefined ? null : value) as IDataObject[string] };
}

/** How deep a field is looked for (`company.apiKey`, `data.member.apiKey.value`). */
export const FIELD_DEPTH = 4;

/** What a found field must hold: a text that is not empty, by default. */
export type FieldHolds = (value: unknown) => boolean;

const TEXT_HELD: FieldHolds = (value) => typeof value === 'string' && value !== '';

/**
 * Where a field named one of `names` stands in an answer whose envelope the document does not
 * show: the path of the first such field whose value `holds` accepts, nearest the top first,
 * then in the order of `names` (also such a field's `inner` field when it holds an object,
 * `apiKey: { value }`); null when there is none. One rule for every envelope: the new API key
 * (`data.apiKey`), the new webhook secret (`data.webhookSecret`), a card's number and CVV
 * (`data.cardNumberFull`).
 */
export function fieldPath(
	body: IDataObject,
	names: readonly string[],
	holds: FieldHolds = TEXT_HELD,
	inner: readonly string[] = [],
): string[] | null {
	let level: Array<{ path: string[]; record: IDataObject }> = [{ path: [], record: body }];
	for (let depth = 0; depth < FIELD_DEPTH && level.length > 0; depth++) {
		for (const { path, record } of level) {
			for (const name of names) {
				if (!Object.prototype.hasOwnProperty.call(record, name)) continue;
				const value = record[name];
				if (holds(value)) return [...path, name];
				if (isObject(value)) {
					const found = inner.find((field) => holds(value[field]));
					if (found !== undefined) return [...path, name, found];
				}
			}
		}
		const next: typeof level = [];
		for (const { path, record } of level) {
			for (const [name, value] of Object.entries(record)) {
				// A dot in a name would make the path ambiguous: such a field is not looked into.
				if (isObject(value) && !name.includes('.')) {
					next.push({ path: [...path, name], record: value });
				}
			}
		}
		level = next;
	}
	return null;
}

/** Every field path of an answer (names only, never values), for a notice that says where to look. */
export function fieldPaths(value: unknown, prefix = '', out: string[] = []): string[] {
	if (!isObject(value) || out.length >= 40) return out;
	for (const [name, field] of Object.entries(value)) {
		const path = prefix === '' ? name : `${prefix}.${name}`;
		if (isObject(field) && prefix.split('.').length < FIELD_DEPTH) fieldPaths(field, path, out);
		else out.push(path);
	}
	return out;
}
