import { listOperation } from '../common/listOperation';
import { ENDPOINTS } from '../../shared/contract/endpoints';

export const getMany = listOperation({
	action: 'Get many orders',
	description: 'List the company orders, one output item per order',
	path: ENDPOINTS.orders,
	itemsKey: 'orders',
	filters: [
		{
			displayName: 'Status',
			name: 'status',
			type: 'options',
			default: 'success',
			description: 'Only orders in this status (sent as the query parameter status)',
			options: [
				{ name: 'Created', value: 'created' },
				{ name: 'Disputed', value: 'disputed' },
				{ name: 'Expired by System', value: 'expired_by_system' },
				{ name: 'Expired No Taker', value: 'expired_no_taker' },
				{ name: 'Failed', value: 'failed' },
				{ name: 'In Progress', value: 'in_progress' },
				{ name: 'Success', value: 'success' },
			],
		},
	],
});
