import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readRecordId, recordIdFields } from '../common/locator';

/** The user wallet: a text field before node version 1.2, a list by external ID from 1.2 on. */
export const walletIdFields: INodeProperties[] = recordIdFields({
	displayName: 'Wallet',
	name: 'walletId',
	description:
		"The user wallet, picked by the end user's external ID from the list or given by its ID (as returned by Create or Get)",
	placeholder: 'e.g. uw_9c2e71',
	listPlaceholder: 'Select a user wallet…',
	searchListMethod: 'getUserWallets',
	legacy: {
		displayName: 'Wallet ID',
		description: 'The ID of the user wallet, as returned by Create or Get and Get Many',
	},
});

export const externalIdField: INodeProperties = {
	displayName: 'External ID',
	name: 'externalId',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. user-42',
	description: 'Your identifier of the end user; one wallet per external ID within the company',
};

export function readWalletId(ctx: IExecuteFunctions, itemIndex: number): string {
	return readRecordId(ctx, itemIndex, 'walletId', 'Wallet ID');
}
