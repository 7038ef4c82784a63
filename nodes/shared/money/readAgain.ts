import type { IDataObject } from 'n8n-workflow';

/*
 * A record read again by its ID (a re-run's earlier answer, the tool's current answer, a listed
 * record read in full) is judged on its own (outside r11-money F2, F3): it must be a record (an
 * object, not a list) carrying the very ID that was read. Its fields are never filled in from the
 * answer kept before, so a read that shows no status is a record without a status (unknown by
 * Resolve Outcome's table), never the old status shown as current; a record with another ID is
 * another payment's, never this one.
 */

/** The record read for `id`, or why what was read is not it. */
export function recordReadAgain(
	id: unknown,
	read: unknown,
): { record: IDataObject } | { why: string } {
	if (read === null || typeof read !== 'object' || Array.isArray(read)) {
		return {
			why: `reading record ${String(id)} again answered ${Array.isArray(read) ? 'a list' : 'no record'}, so its state now is not shown`,
		};
	}
	const record = read as IDataObject;
	const readId = record.id;
	if (readId === undefined || readId === null || readId === '') {
		return {
			why: `reading record ${String(id)} again answered a record without an ID, so it is not shown to be this payment`,
		};
	}
	if (String(readId) !== String(id)) {
		return {
			why: `reading record ${String(id)} again answered another record (ID ${String(readId)}), which is not this payment`,
		};
	}
	return { record };
}
