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
	readOnly: true,
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
