import type { IDataObject } from 'n8n-workflow';

import type { Settled } from './contract';

/*
 * A record read again by its ID (a re-run's earlier answer, the tool's current answer, a listed
 * record read in full) is judged on its own (outside r11-money F2, F3): it must be a record (an
 * object, not a list) carrying the very ID that was read. Its fields are never filled in from the
 * answer kept before, so a read that shows no status is a record without a status (unknown by
 * Resolve Outcome's table: statusNotShown), never the old status shown as current; a record with
 * another ID is another payment's, never this one.
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

/**
 * The one rule for a payout that shows no `status`, answered by its Create (outside r12-money F2)
 * or read again (outside r11-money F2): unknown, never made and never the status kept before.
 * Undefined when it shows a status, which the payout's own table then judges.
 */
export function statusNotShown(record: IDataObject): Settled | undefined {
	if (record.status !== undefined && record.status !== null) return undefined;
	return {
		outcome: 'unknown',
		why: 'The payout shows no status, so whether it failed at once after it was created is not shown.',
	};
}
