import type { IDataObject } from 'n8n-workflow';

import { payoutFundsNote, payoutFundsReturned } from '../../shared/payoutFunds';
import { withNodeFields } from '../../shared/serviceFields';

/**
 * Whether the money of a payout is back on the company balance (rule in shared/payoutFunds):
 * null when its refundedAt is no time that can be read.
 */
export function fundsReturned(payout: IDataObject): boolean | null {
	return payoutFundsReturned(payout);
}

/**
 * A payout record with `fundsReturned` added beside its own fields, and `fundsReturnedNote` when
 * it is null (unknown); the service's own values under those names go under `serviceFields`.
 */
export function withFundsReturned(payout: IDataObject): IDataObject {
	const note = payoutFundsNote(payout);
	return withNodeFields(
		payout,
		{
			fundsReturned: fundsReturned(payout),
			...(note ? { fundsReturnedNote: note } : {}),
		},
		['fundsReturnedNote'],
	);
}
