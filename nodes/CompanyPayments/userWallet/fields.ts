import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { requirePathId } from '../common/validation';

export const walletIdField: INodeProperties = {
	displayName: 'Wallet ID',
	name: 'walletId',
	type: 'string',
	default: '',
	required: true,
	description: 'The ID of the user wallet, as returned by Create or Get and Get Many',
};

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
	return requirePathId(ctx, itemIndex, 'walletId', 'Wallet ID');
}
