import type { IDataObject } from 'n8n-workflow';

import { cardKeyParts, cardParts, changeKey, COMPANY_SCOPE, pollSeen } from '../shared/changeKey';
import { normaliseStatus } from '../shared/contract/statuses';
import type { PollOnlyEvent, WatchedList } from './types';
import { recordText } from '../shared/contract/guards';
import { field } from './types';
import { ENDPOINTS } from '../shared/contract/endpoints';

/** Event of card states no webhook announces (poll only). */
export const CARD_STATUS_CHANGED: PollOnlyEvent = 'card.status_changed';

/** A card's status in its current form: legacy `retired` is `closed`. */
function normalised(record: IDataObject): string | null {
	const status = recordText(record.status);
	return status === null ? null : normaliseStatus('card', status);
}

export const cards: WatchedList = {
	kind: 'cards',
	statusList: 'card',
	label: 'cards',
	path: ENDPOINTS.cards,
	itemsKey: 'cards',
	query: (filters) => ({ externalId: recordText(filters.externalId) ?? undefined }),
	status: normalised,
	// Remembered in the current form, so retired → closed is no change.
	state: normalised,
	changes(record, _previous, polledAt, visit) {
		const status = normalised(record) as string;
		const parts = cardKeyParts(record.externalId, record.id) as string[];
		return [
			{
				event: status === 'assigned' ? 'card.assigned' : CARD_STATUS_CHANGED,
				changeKey: changeKey(
					'card',
					COMPANY_SCOPE,
					cardParts(parts, status, record, pollSeen(polledAt), visit?.unmoved),
				),
				fields: {
					cardId: recordText(record.id),
					externalId: field(record, 'externalId'),
					status: recordText(record.status),
					normalisedStatus: status,
					maskedPan: field(record, 'maskedPan'),
					expiry: field(record, 'expiry'),
					assignedAt: field(record, 'assignedAt'),
					createdAt: field(record, 'createdAt'),
				},
			},
		];
	},
};
