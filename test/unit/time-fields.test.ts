/**
 * The record time fields the change keys read are declared by the contract: each field that
 * `CHANGE_TIMES` (nodes/shared/changeKey.ts) reads to tell one entry into a state from another is
 * a time field of that record in `nodes/shared/contract/records.ts` (a record's own field, or the
 * field its webhook payloads carry). A field renamed or dropped in the contract fails here.
 */
import { CHANGE_TIMES } from '../../nodes/shared/changeKey';
import { EVENT_PAYLOADS, fieldSpec, RECORDS } from '../../nodes/shared/contract/records';
import type { FieldSpec } from '../../nodes/shared/contract/records';
import { EVENTS } from '../../nodes/shared/contract/events';
import { UNSHOWN_TIMES } from '../../nodes/shared/contract/visits';

/** The fields of a record, and of the payloads of its events. */
function fieldsOf(record: string): Record<string, FieldSpec> {
	const fields: Record<string, FieldSpec> = {
		...((RECORDS as Record<string, Record<string, FieldSpec>>)[record] ?? {}),
	};
	for (const [event, contract] of Object.entries(EVENTS)) {
		if (contract.record !== record) continue;
		Object.assign(fields, (EVENT_PAYLOADS as Record<string, Record<string, FieldSpec>>)[event]);
	}
	return fields;
}

describe('record time fields come from the contract', () => {
	it.each(Object.entries(CHANGE_TIMES))('%s reads time fields of its record', (state, names) => {
		const record = state.split(':')[0];
		const fields = fieldsOf(record);
		// A time the document does not show on this record, read when the service shows it
		// (contract/visits.ts UNSHOWN_TIMES), is a time field of the model's vocabulary.
		const unshown = (UNSHOWN_TIMES as Record<string, readonly string[]>)[record] ?? [];
		for (const name of unshown) fields[name] ??= fieldSpec(name);
		for (const name of names) {
			expect({ state, name, kind: fields[name]?.kind }).toEqual({ state, name, kind: 'time' });
		}
	});
});
