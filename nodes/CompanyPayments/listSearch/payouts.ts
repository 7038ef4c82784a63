import type { IDataObject } from 'n8n-workflow';

import { ASSUMED_ENDPOINTS, LIST_ITEMS_KEYS } from '../../shared/contract/assumptions';
import type { SearchSource } from './search';
import { joinParts, lastFour, searchMethod, shortDate, text } from './search';

/** The only payout state in which a payout can be cancelled (document). */
export const CANCELABLE = 'waiting_trader';

/**
 * A payout as a person recognises it: amount, the recipient's card or phone masked to its last
 * four digits, status and date.
 */
export function payoutEntry(record: IDataObject, id: string) {
	const rub = text(record, 'amountRub');
	return {
		name: joinParts([
			rub ? `${rub} RUB` : undefined,
			lastFour(record.requisite),
			text(record, 'status'),
			shortDate(record.createdAt),
		]),
		value: id,
	};
}

function payouts(status?: string): SearchSource {
	return {
		path: ASSUMED_ENDPOINTS.payoutList.path,
		itemsKey: LIST_ITEMS_KEYS.payouts,
		// Sent as Get Many sends it, and checked on every record (searchList) in case the service
		// ignores it.
		qs: status ? { status } : undefined,
		entry: payoutEntry,
		searchText: (record) =>
			joinParts([
				text(record, 'externalId'),
				text(record, 'recipientFirstName'),
				text(record, 'recipientLastName'),
				text(record, 'bank'),
			]),
	};
}

/** Every payout of the company (Payout → Get). */
export const getPayouts = searchMethod(payouts());

/** Only payouts waiting for an executor: the only ones Cancel accepts. */
export const getCancelablePayouts = searchMethod(payouts(CANCELABLE));
