import type { IExecuteFunctions } from 'n8n-workflow';

import { requireUuid, segment } from '../common/validation';
import { apiRequest } from '../../shared/transport';
import type { OperationDefinition, OperationResult } from '../types';

export const get: OperationDefinition = {
	value: 'get',
	name: 'Get',
	action: 'Get an order',
	description: 'Get one order by its ID',
	readOnly: true,
	properties: [
		{
			displayName: 'Order ID',
			name: 'orderId',
			type: 'string',
			default: '',
			required: true,
			description: 'The ID (UUID) of the order',
		},
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const orderId = requireUuid(this, itemIndex, 'orderId', 'Order ID');
		return (await apiRequest.call(this, {
			method: 'GET',
			path: `/orders/${segment(orderId)}`,
			itemIndex,
		})) as OperationResult;
	},
};
