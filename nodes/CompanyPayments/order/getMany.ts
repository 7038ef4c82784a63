import { statusOptions } from '../../shared/contract/statuses';
import { listOperation } from '../common/listOperation';
import { ENDPOINTS } from '../../shared/contract/endpoints';

export const getMany = listOperation({
	action: 'Get many orders',
	description: 'List the company orders, one output item per order',
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
