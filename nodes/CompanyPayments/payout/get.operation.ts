import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { segment } from '../common/validation';
import { apiRequest } from '../../shared/transport';
import type { OperationDefinition } from '../types';
import { payoutIdFields, readPayoutId } from './fields';
import { withFundsReturned } from './fundsReturned';

export const get: OperationDefinition = {
	value: 'get',
	name: 'Get',
	action: 'Get a payout',
	description:
		'Get one payout by its ID; fundsReturned tells whether its money is back on the company balance',
	concurrent: true,
	kind: 'read',
	tool: {
		text: "Look up one payout by its ID. Needs: Payout ID. Returns status (pending, waiting_trader, in_progress, success, fail), amountRub, chargedUsdt, failReason, the recipient's number masked (requisite), and fundsReturned: true when the money is back on the company balance (rely on it, not on status fail).",
	},
	docs: {
		endpoint: "`GET /payouts/{id}`",
		permission: "not named",
		notes: "",
	},
	properties: payoutIdFields,
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const payoutId = readPayoutId(this, itemIndex);
		const payout = (await apiRequest.call(this, {
			method: 'GET',
			path: `/payouts/${segment(payoutId)}`,
			itemIndex,
		})) as IDataObject;
		return withFundsReturned(payout);
	},
};
