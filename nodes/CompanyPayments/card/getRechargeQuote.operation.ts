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
	concurrent: true,
	kind: 'read',
	tool: {
		text: 'Quote what recharging a card would cost; nothing is paid. Needs: Card ID and Target Amount (USD). Returns totalDebitUsdt (what the balance would be charged) and the fees.',
	},
	docs: {
		endpoint: '`POST /cards/recharge/quote`',
		permission: '`cards.recharge`',
		notes: 'Card ID and Target Amount (USD, plain decimal > 0). No funds move.',
	},
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
