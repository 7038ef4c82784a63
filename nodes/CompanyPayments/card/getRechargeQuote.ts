import type { IExecuteFunctions } from 'n8n-workflow';

import { apiRequest } from '../../shared/transport';
import type { OperationDefinition, OperationResult } from '../types';
import { cardIdFields, readCardId, readTargetAmount, targetAmountField } from './fields';
import { ENDPOINTS } from '../../shared/contract/endpoints';

export const getRechargeQuote: OperationDefinition = {
	value: 'getRechargeQuote',
	name: 'Get Recharge Quote',
	action: 'Get card recharge quote',
	description:
		'Get what a recharge would cost: the service commission, the processor fee and the total USDT debited. No funds move.',
	// A POST, but the document states that no funds move: items may run concurrently.
	readOnly: true,
	properties: [...cardIdFields, targetAmountField],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const cardId = readCardId(this, itemIndex);
		const targetAmount = readTargetAmount(this, itemIndex);
		return (await apiRequest.call(this, {
			method: 'POST',
			path: ENDPOINTS.cardRechargeQuote,
			body: { cardId, targetAmount },
			itemIndex,
		})) as OperationResult;
	},
};
