import { changeKey } from '../shared/changeKey';
import type { WatchedList } from './types';
import { field, str } from './types';
import { ENDPOINTS } from '../shared/contract/endpoints';

export const orders: WatchedList = {
	kind: 'orders',
	statusList: 'order',
	label: 'orders',
	path: ENDPOINTS.orders,
	itemsKey: 'orders',
	query: () => ({}),
	status: (record) => str(record.status),
	state: (record) => str(record.status),
	changes(record) {
		const id = str(record.id) as string;
		const status = str(record.status) as string;
		return [
			{
				event: 'order.status_changed',
				changeKey: changeKey('order', id, status),
				fields: {
					orderId: id,
					walletOrderId: field(record, 'walletOrderId'),
					status,
					amountUsdt: field(record, 'amountUsdt'),
					amountRub: field(record, 'amountRub'),
					completedAt: field(record, 'completedAt'),
					failureReason: field(record, 'failureReason'),
					createdAt: field(record, 'createdAt'),
				},
			},
		];
	},
};
