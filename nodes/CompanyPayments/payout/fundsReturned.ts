import type { IDataObject } from 'n8n-workflow';

import { payoutFundsReturned } from '../../shared/payoutFunds';

/** Whether the money of a payout is back on the company balance (rule in shared/payoutFunds). */
export function fundsReturned(payout: IDataObject): boolean {
	return payoutFundsReturned(payout);
}

/** A payout record with `fundsReturned` added beside its own fields. */
export function withFundsReturned(payout: IDataObject): IDataObject {
	return { ...payout, fundsReturned: fundsReturned(payout) };
}
