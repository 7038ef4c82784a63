import type { IDataObject } from 'n8n-workflow';

import { ENDPOINTS } from '../../shared/contract/endpoints';
import { joinParts, searchMethod, shortDate, text } from './search';

/** A user wallet as a person recognises it: the end user's external ID, status and date. */
export function userWalletEntry(record: IDataObject, id: string) {
	return {
		name: joinParts([
			text(record, 'externalId') ?? id,
			text(record, 'status'),
			shortDate(record.createdAt),
		]),
		value: id,
	};
}

/** The user wallets of the company (User Wallet → Block, Replace). */
export const getUserWallets = searchMethod({
	path: ENDPOINTS.userWallets,
	itemsKey: 'wallets',
	entry: userWalletEntry,
	searchText: (record) => joinParts([text(record, 'address')]),
});
