import type { IDataObject } from 'n8n-workflow';

import { copyWrittenKinds } from './transport/json';

/**
 * The name under which an item keeps the service's own values of fields the node sets itself:
 * the webhook trigger, the poll trigger and the action node alike (outside read r6-data-b,
 * finding 6, and r11-data, finding 4).
 */
export const SERVICE_FIELDS_KEY = 'serviceFields';

/**
 * A service's record with fields the node adds (`fundsReturned` on a payout, `existingDispute`
 * on a dispute, `quote` on a paid order): the node's values stand under their names, as saved
 * workflows read them; where the record had a field of the same name with another value, that
 * value is kept under `serviceFields` (with the record's own `serviceFields`, if it had one), never
 * lost. A record without such a field comes back with the node's fields added, nothing else.
 * `ownedUnset`: names the node owns also where it sets no value this time (`fundsReturnedNote`,
 * set only when the answer is unknown): the service's value under one moves all the same.
 */
export function withNodeFields(
	record: IDataObject,
	own: IDataObject,
	ownedUnset: readonly string[] = [],
): IDataObject {
	const out: IDataObject = { ...record };
	const replaced: IDataObject = {};
	let any = false;
	for (const name of [...Object.keys(own), ...ownedUnset, SERVICE_FIELDS_KEY]) {
		if (!Object.prototype.hasOwnProperty.call(record, name)) continue;
		const theirs = record[name];
		if (name !== SERVICE_FIELDS_KEY && JSON.stringify(own[name]) === JSON.stringify(theirs)) {
			continue;
		}
		Object.defineProperty(replaced, name, {
			value: theirs,
			enumerable: true,
			writable: true,
			configurable: true,
		});
		if (!Object.prototype.hasOwnProperty.call(own, name)) delete out[name];
		any = true;
	}
	for (const [name, value] of Object.entries(own)) out[name] = value;
	if (any) out[SERVICE_FIELDS_KEY] = replaced;
	// The written JSON type of the fields kept (an identifier written as a number: transport/json.ts).
	copyWrittenKinds(record, out);
	return out;
}
