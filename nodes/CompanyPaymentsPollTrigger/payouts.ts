import type { IDataObject } from 'n8n-workflow';

import {
	changeKey,
	COMPANY_SCOPE,
	payoutParts,
	pollSeen,
	payoutState,
	rechargeParts,
} from '../shared/changeKey';
import { payoutFundsNote, payoutFundsReturned } from '../shared/payoutFunds';
import type { Change, Visit, WatchedList } from './types';
import { recordText } from '../shared/contract/guards';
import { field } from './types';
import { ENDPOINTS } from '../shared/contract/endpoints';

/**
 * Funds are back only when `refundedAt` is set and the payout was not charged again (rule in
 * shared/payoutFunds): never inferred from status fail.
 */
export function payoutRefunded(record: IDataObject): boolean {
	const { status, createdAt } = record;
	return payoutFundsReturned({ status, createdAt, refundedAt: record.refundedAt ?? null }) === true;
}

function dispute(record: IDataObject): IDataObject | null {
	const value = record.dispute;
	return typeof value === 'object' && value !== null && !Array.isArray(value)
		? (value as IDataObject)
		: null;
}

/**
 * The payout.status_changed body the webhook would carry, built from the Payout record.
 * `fundsReturned` and `refunded` by the action node's rule (shared/payoutFunds): null, with a
 * `fundsReturnedNote` saying why, for a `refundedAt` that is no time after `createdAt` (a zero
 * time, a time before it), never false (outside read r23-data, finding 6).
 */
function webhookFields(record: IDataObject): IDataObject {
	const funds = {
		status: record.status,
		createdAt: record.createdAt,
		refundedAt: record.refundedAt ?? null,
	};
	const refunded = payoutFundsReturned(funds);
	const note = payoutFundsNote(funds);
	const disputeObject = dispute(record);
	return {
		payoutId: recordText(record.id),
		externalId: field(record, 'externalId'),
		status: field(record, 'status'),
		amountRub: field(record, 'amountRub'),
		chargedUsdt: field(record, 'chargedUsdt'),
		rate: field(record, 'rate'),
		requisiteType: field(record, 'requisiteType'),
		requisite: field(record, 'requisite'),
		bankId: field(record, 'bankId'),
		bank: field(record, 'bank'),
		failReason: field(record, 'failReason'),
		comment: field(record, 'comment'),
		refunded,
		disputeStatus: disputeObject ? field(disputeObject, 'status') : null,
		disputeResolution: disputeObject ? field(disputeObject, 'resolution') : null,
		completedAt: field(record, 'completedAt'),
		createdAt: field(record, 'createdAt'),
		updatedAt: field(record, 'updatedAt'),
		refundedAt: field(record, 'refundedAt'),
		fundsReturned: refunded,
		...(note ? { fundsReturnedNote: note } : {}),
	};
}

/**
 * Whether a payout now in success was refunded and charged again since the last poll: the
 * repeated charge the webhook announces as payout.recharged, invisible in status alone. Seen
 * either as a refund the last poll saw (`+refunded`), or, when refund and recharge both fell
 * between two polls, as a `refundedAt` set or moved since (outside read 2, finding 2; a service
 * that clears `refundedAt` on a recharge shows nothing of it but `updatedAt`, emitted as a new
 * visit to success).
 */
function recharged(record: IDataObject, previous: string, visit: Visit | undefined): boolean {
	if (previous.endsWith('+refunded')) return true;
	return visit?.moved.has('refundedAt') === true && recordText(record.refundedAt) !== null;
}

export const payouts: WatchedList = {
	kind: 'payouts',
	statusList: 'payout',
	label: 'payouts',
	path: ENDPOINTS.payouts,
	itemsKey: 'payouts',
	query: (filters) => ({ externalId: recordText(filters.externalId) ?? undefined }),
	status: (record) => recordText(record.status),
	state(record) {
		const status = recordText(record.status);
		return status === null ? null : payoutState(status, payoutRefunded(record));
	},
	changes(record, previous, polledAt, visit) {
		const id = recordText(record.id) as string;
		const status = recordText(record.status) as string;
		const refunded = payoutRefunded(record);
		const seen = pollSeen(polledAt);
		const fields = webhookFields(record);
		const unmoved = visit?.unmoved;
		const out: Change[] = [
			{
				event: 'payout.status_changed',
				changeKey: changeKey(
					'payout',
					COMPANY_SCOPE,
					payoutParts(id, status, refunded, record, seen, previous === undefined, unmoved),
				),
				fields,
			},
		];
		if (
			previous !== undefined &&
			status === 'success' &&
			!refunded &&
			recharged(record, previous, visit)
		) {
			out.push({
				event: 'payout.recharged',
				changeKey: changeKey('payout', COMPANY_SCOPE, rechargeParts(id, record, seen, unmoved)),
				fields,
			});
		}
		return out;
	},
};
