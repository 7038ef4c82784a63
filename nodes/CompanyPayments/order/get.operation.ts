import type { IExecuteFunctions } from 'n8n-workflow';

import { readRecordId } from '../common/locator';
import { segment } from '../common/validation';
import { apiRequest } from '../../shared/transport';
import type { OperationDefinition, OperationResult } from '../types';
import { ORDER_SIMPLE_FIELDS, orderIdFields } from './fields';

export const get: OperationDefinition = {
	value: 'get',
	name: 'Get',
	action: 'Get an order',
	description: 'Get one order by its ID',
	concurrent: true,
	kind: 'read',
	tool: {
		text: 'Look up one QR-code order by its ID. Needs: Order ID (a UUID). Returns status (created, in_progress, success, failed, expired_no_taker, expired_by_system, disputed), amountRub, amountUsdt, merchantName, externalOrderId, failureReason and its dates.',
		compact: ORDER_SIMPLE_FIELDS,
	},
	docs: {
		endpoint: '`GET /orders/{id}`',
		permission: '`orders.read`',
		notes: 'Order ID must be a UUID.',
	},
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
