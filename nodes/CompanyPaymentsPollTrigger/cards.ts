import { cardKeyId, changeKey } from '../shared/changeKey';
import type { WatchedList } from './types';
import { field, str } from './types';
import { ENDPOINTS } from '../shared/contract/endpoints';

/** Event of card states no webhook announces (poll only). */
export const CARD_STATUS_CHANGED = 'card.status_changed';

export const cards: WatchedList = {
	kind: 'cards',
	label: 'cards',
	path: ENDPOINTS.cards,
	itemsKey: 'cards',
	query: (filters) => ({ externalId: str(filters.externalId) ?? undefined }),
	id: (record) => str(record.id),
	status: (record) => str(record.status),
	state: (record) => str(record.status),
	changes(record) {
		const status = str(record.status) as string;
		const keyId = cardKeyId(record.externalId, record.id) as string;
		return [
			{
				event: status === 'assigned' ? 'card.assigned' : CARD_STATUS_CHANGED,
				changeKey: changeKey('card', keyId, status),
				fields: {
					cardId: str(record.id),
					externalId: field(record, 'externalId'),
					status,
					maskedPan: field(record, 'maskedPan'),
					expiry: field(record, 'expiry'),
					assignedAt: field(record, 'assignedAt'),
					createdAt: field(record, 'createdAt'),
				},
			},
		];
	},
};
