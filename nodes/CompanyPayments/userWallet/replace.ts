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
