import type { IDataObject } from 'n8n-workflow';

/**
 * Whether a payout's money is back on the company balance: one rule for the action node, the
 * webhook trigger and the poll trigger.
 *
 * The document gives one sign per shape: `refundedAt` on a Payout record ("the only reliable
 * sign"), `refunded` in the payout.status_changed and payout.recharged bodies, and it counts
 * `refunded: true` *with status fail*. A payout can also return to `success` after a refund and
 * be charged again (payout.recharged); whether the service then clears `refundedAt` is not
 * shown. So the sign counts only while the payout is not `success`: a recharged payout is never
 * reported as funds returned, whichever way the service answers. Status fail alone is not a sign.
 */
export function payoutFundsReturned(payout: IDataObject, event?: string | null): boolean {
	if (event === 'payout.recharged') return false;
	if (payout.status === 'success') return false;
	if ('refundedAt' in payout) {
		const refundedAt = payout.refundedAt;
		return refundedAt !== null && refundedAt !== undefined && refundedAt !== '';
	}
	return payout.refunded === true;
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
