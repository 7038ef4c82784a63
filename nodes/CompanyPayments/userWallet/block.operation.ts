import type { IExecuteFunctions } from 'n8n-workflow';

import { segment } from '../common/validation';
import { apiRequest } from '../../shared/transport';
import type { OperationDefinition, OperationResult } from '../types';
import { readWalletId, walletIdFields } from './fields';

export const block: OperationDefinition = {
	value: 'block',
	name: 'Block',
	action: 'Block a user wallet',
	description: 'Block a user wallet',
	kind: 'write',
	tool: {
		text: 'Block a user wallet. Needs: Wallet ID. Returns the blocked wallet.',
	},
	docs: {
		endpoint: "`POST /user-wallets/{walletId}/block`",
		permission: "not named",
		notes: "",
	},
	properties: walletIdFields,
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const walletId = readWalletId(this, itemIndex);
		return (await apiRequest.call(this, {
			method: 'POST',
			path: `/user-wallets/${segment(walletId)}/block`,
			itemIndex,
		})) as OperationResult;
	},
};
