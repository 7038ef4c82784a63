import {
	changeKey,
	COMPANY_SCOPE,
	disputeParts,
	disputeState,
	pollSeen,
} from '../shared/changeKey';
import type { PollOnlyEvent, WatchedList } from './types';
import { recordText } from '../shared/contract/guards';
import { field } from './types';
import { ENDPOINTS } from '../shared/contract/endpoints';

/** No webhook exists for disputes: this event is the poll trigger's own. */
export const DISPUTE_STATUS_CHANGED: PollOnlyEvent = 'dispute.status_changed';

export const disputes: WatchedList = {
	kind: 'disputes',
	statusList: 'dispute',
	label: 'disputes',
	path: ENDPOINTS.disputes,
	itemsKey: 'disputes',
	// "Returns the company dispute history, newest first": the one list whose order is shown.
	newestFirst: true,
	query: () => ({}),
	status: (record) => recordText(record.status),
	// Status says only whether the dispute was looked at; the resolution is what matters.
	state(record) {
		const status = recordText(record.status);
		return status === null ? null : disputeState(status, record.resolution);
	},
	changes(record, _previous, polledAt, visit) {
		const id = recordText(record.id) as string;
		const status = recordText(record.status) as string;
		return [
			{
				event: DISPUTE_STATUS_CHANGED,
				changeKey: changeKey(
					'dispute',
					COMPANY_SCOPE,
					disputeParts(id, status, record.resolution, record, pollSeen(polledAt), visit?.unmoved),
				),
				fields: {
					disputeId: id,
					orderId: field(record, 'orderId'),
					status,
					resolution: field(record, 'resolution'),
					refundAmount: field(record, 'refundAmount'),
					resolvedAt: field(record, 'resolvedAt'),
					resolvedBy: field(record, 'resolvedBy'),
					adminComment: field(record, 'adminComment'),
					reason: field(record, 'reason'),
					createdAt: field(record, 'createdAt'),
					updatedAt: field(record, 'updatedAt'),
					order: field(record, 'order'),
				},
			},
		];
	},
};
