import type { IExecuteFunctions } from 'n8n-workflow';

import { readRecordId } from '../common/locator';
import { segment } from '../common/validation';
import { apiRequest } from '../../shared/transport';
import type { OperationDefinition, OperationResult } from '../types';
import { orderIdFields } from './fields';

export const get: OperationDefinition = {
	value: 'get',
	name: 'Get',
	action: 'Get an order',
	description: 'Get one order by its ID',
	readOnly: true,
	properties: orderIdFields,
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const orderId = readRecordId(this, itemIndex, 'orderId', 'Order ID', 'uuid');
		return (await apiRequest.call(this, {
			method: 'GET',
			path: `/orders/${segment(orderId)}`,
			itemIndex,
		})) as OperationResult;
	},
};
