import type { IDataObject } from 'n8n-workflow';

/**
 * Whether the money of a payout is back on the company balance.
 *
 * The document makes one field the only reliable sign: `refundedAt` on a Payout record (set,
 * i.e. not null, once the funds are returned), and `refunded` (boolean) in the
 * payout.status_changed and payout.recharged webhook payloads. It must never be inferred from
 * status `fail`: a failed payout is not necessarily refunded yet. The trigger does not import
 * this (it never imports from the action node's folder): its payout events carry only
 * `refunded`, which it reads the same way in `CompanyPaymentsTrigger/events.ts`
 * (payoutFundsReturned). Keep the two in step.
 */
export function fundsReturned(payout: IDataObject): boolean {
	if ('refundedAt' in payout) {
		const refundedAt = payout.refundedAt;
		return refundedAt !== null && refundedAt !== undefined && refundedAt !== '';
	}
	return payout.refunded === true;
}

/** A payout record with `fundsReturned` added beside its own fields. */
export function withFundsReturned(payout: IDataObject): IDataObject {
	return { ...payout, fundsReturned: fundsReturned(payout) };
}
