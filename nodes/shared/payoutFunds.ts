import type { IDataObject } from 'n8n-workflow';

import { serviceTime } from './money/binding';

/** Before this, a "time" is a zero value of some language (0001-01-01, 1970-01-01), not a refund. */
const EARLIEST_REFUND = Date.parse('2000-01-01T00:00:00Z');

/**
 * A time a payout shows, in ms, or NaN: the money module's one reading of a record's time
 * (serviceTime: an ISO time with Z or an offset in any of the forms it takes, PostgreSQL's "+00"
 * among them; one without an offset read as UTC for this display of the refund).
 */
function timeOf(value: unknown): number {
	return typeof value === 'string' ? serviceTime(value) : NaN;
}

/**
 * Whether a payout's money is back on the company balance: one rule for the action node, the
 * webhook trigger and the poll trigger. `true`, `false`, or `null` when the payout's sign cannot
 * be read (then `payoutFundsNote` says why).
 *
 * The document gives one sign per shape: `refundedAt` on a Payout record ("the only reliable
 * sign"), `refunded` in the payout.status_changed and payout.recharged bodies, and it counts
 * `refunded: true` *with status fail*. A payout can also return to `success` after a refund and
 * be charged again (payout.recharged); whether the service then clears `refundedAt` is not
 * shown. So the sign counts only while the payout is not `success`: a recharged payout is never
 * reported as funds returned, whichever way the service answers. Status fail alone is not a sign.
 *
 * `refundedAt` counts only as a real time (r4-money-resolve F5): a text the node reads as a time,
 * not before the payout's `createdAt` (and, where that is not shown, not before 2000: the zero
 * time "0001-01-01T00:00:00Z" means never). `null`, absent or empty is not refunded; anything
 * else (`false`, `"null"`, a zero time) is no reading: `null`.
 */
export function payoutFundsReturned(payout: IDataObject, event?: string | null): boolean | null {
	if (event === 'payout.recharged') return false;
	if (payout.status === 'success') return false;
	if ('refundedAt' in payout) {
		const refundedAt = payout.refundedAt;
		if (refundedAt === null || refundedAt === undefined || refundedAt === '') return false;
		return refundTime(payout) ? true : null;
	}
	return payout.refunded === true;
}

/** Whether a payout's `refundedAt` is a real time (see payoutFundsReturned). */
function refundTime(payout: IDataObject): boolean {
	const at = timeOf(payout.refundedAt);
	if (!Number.isFinite(at)) return false;
	const created = timeOf(payout.createdAt);
	return at >= (Number.isFinite(created) ? created : EARLIEST_REFUND);
}

/** Why `payoutFundsReturned` is null for a payout, or undefined when it is not. */
export function payoutFundsNote(payout: IDataObject, event?: string | null): string | undefined {
	if (payoutFundsReturned(payout, event) !== null) return undefined;
	return `refundedAt is ${JSON.stringify(payout.refundedAt)}, not a time after the payout was created (${String(payout.createdAt ?? 'createdAt not shown')}): whether its money is back on the balance is unknown. Check the payout in the cabinet, or read it again with Payout > Get.`;
}

/**
 * A `refunded` flag the document shows as a JSON boolean, written another way (`1`, `"true"`,
 * `"yes"`): what it means is not shown, so it is not read as either answer (outside read 2,
 * finding 10). Null when the body has `refundedAt` (the rule above reads that) or a boolean or
 * null `refunded`.
 */
export function unreadRefundedFlag(payout: IDataObject): IDataObject[string] | null {
	if ('refundedAt' in payout) return null;
	const flag = payout.refunded;
	return flag === undefined || flag === null || typeof flag === 'boolean' ? null : flag;
}

/**
 * payoutFundsReturned, or null (unknown) when the body's `refunded` is neither a boolean nor null
 * and the status does not already decide (a recharge, a success): never false for a flag the
 * service may have meant as true.
 */
export function payoutFundsReturnedOrUnknown(
	payout: IDataObject,
	event?: string | null,
): boolean | null {
	if (event === 'payout.recharged' || payout.status === 'success') return false;
	if (unreadRefundedFlag(payout) !== null) return null;
	return payoutFundsReturned(payout, event);
}
