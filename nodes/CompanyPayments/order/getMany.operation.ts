import { statusOptions } from '../../shared/contract/statuses';
import { listOperation } from '../common/listOperation';
import { ENDPOINTS } from '../../shared/contract/endpoints';
import { ORDER_SIMPLE_FIELDS } from './fields';

export const getMany = listOperation({
	action: 'Get many orders',
	description: 'List the company orders, one output item per order',
	kind: 'read',
	tool: {
		text: 'List the company QR-code orders, optionally only those in one Status. Needs nothing. Returns one short record per order: id, status, amounts in RUB and USDT, merchant, failureReason, dates.',
		compact: ORDER_SIMPLE_FIELDS,
	},
	docs: {
		endpoint: '`GET /orders`',
		permission: '`orders.read`',
		notes: 'Return All / Limit, filter Status.',
	},
	path: ENDPOINTS.orders,
	itemsKey: 'orders',
	statusList: 'order',
	filters: [
		{
			displayName: 'Status',
			name: 'status',
			type: 'options',
			default: 'success',
			description: 'Only orders in this status (sent as the query parameter status)',
			options: statusOptions('order'),
		},
	],
});
