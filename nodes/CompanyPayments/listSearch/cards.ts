import type { IDataObject } from 'n8n-workflow';

import { LIST_ITEMS_KEYS } from '../../shared/contract/assumptions';
import { ENDPOINTS } from '../../shared/contract/endpoints';
import { normaliseStatus } from '../../shared/contract/statuses';
import type { SearchSource } from './search';
import { joinParts, lastFour, searchMethod, text } from './search';

/** The card state in which a card has a balance, sensitive data and can be recharged. */
export const ASSIGNED = 'assigned';

/**
 * A card as a person recognises it: external ID, masked number (last four digits only, even if
 * the service sent more) and status. The full number is never part of a list entry.
 */
export function cardEntry(record: IDataObject, id: string) {
	const status = text(record, 'status');
	return {
		name: joinParts([
			text(record, 'externalId') ?? 'No external ID',
			lastFour(record.maskedPan) ?? 'no number yet',
			status ? normaliseStatus('card', status) : undefined,
		]),
		value: id,
	};
}

function cards(accept?: (record: IDataObject) => boolean): SearchSource {
	return {
		path: ENDPOINTS.cards,
		itemsKey: LIST_ITEMS_KEYS.cards,
		accept,
		entry: cardEntry,
		searchText: (record) => joinParts([text(record, 'status'), text(record, 'expiry')]),
	};
}

/** Every card of the company (Get, Get Recharge Quote). */
export const getCards = searchMethod(cards());

/**
 * Only assigned cards: the document allows Get Balance and Get Sensitive Data only for them, and
 * only an assigned card can be recharged. Other cards stay reachable By ID.
 */
export const getAssignedCards = searchMethod(cards((record) => record.status === ASSIGNED));
