import type { IExecuteFunctions } from 'n8n-workflow';

import { segment } from '../common/validation';
import { apiRequest } from '../../shared/transport';
import type { OperationDefinition, OperationResult } from '../types';
import { readWalletId, walletIdFields } from './fields';

export const replace: OperationDefinition = {
	value: 'replace',
	name: 'Replace',
	action: 'Replace a user wallet',
	description: 'Block the wallet and create a new one for the same end user',
	kind: 'write',
	tool: {
		text: 'Block a user wallet and create a new one for the same end user. Needs: Wallet ID. Returns the new wallet with its address.',
	},
	docs: {
		endpoint: "`POST /user-wallets/{walletId}/replace`",
		permission: "not named",
		notes: "Blocks the wallet and creates a new one for the same external user.",
	},
	properties: walletIdFields,
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const walletId = readWalletId(this, itemIndex);
		return (await apiRequest.call(this, {
			method: 'POST',
			path: `/user-wallets/${segment(walletId)}/replace`,
			itemIndex,
		})) as OperationResult;
	},
};
