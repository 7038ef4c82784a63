import { changeKey, COMPANY_SCOPE, orderParts, pollSeen } from '../shared/changeKey';
import type { WatchedList } from './types';
import { recordText } from '../shared/contract/guards';
import { field } from './types';
import { ENDPOINTS } from '../shared/contract/endpoints';

export const orders: WatchedList = {
	kind: 'orders',
	statusList: 'order',
	label: 'orders',
	path: ENDPOINTS.orders,
	itemsKey: 'orders',
	query: () => ({}),
	status: (record) => recordText(record.status),
	state: (record) => recordText(record.status),
	changes(record, _previous, polledAt, visit) {
		const id = recordText(record.id) as string;
		const status = recordText(record.status) as string;
		return [
			{
				event: 'order.status_changed',
				changeKey: changeKey(
					'order',
					COMPANY_SCOPE,
					orderParts(id, status, record, pollSeen(polledAt), visit?.unmoved),
				),
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
