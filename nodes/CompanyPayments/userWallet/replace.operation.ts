import { idCall } from '../common/calls';
import { readWalletId, walletIdFields } from './fields';

export const replace = idCall({
	value: 'replace',
	name: 'Replace',
	action: 'Replace a user wallet',
	description: 'Block the wallet and create a new one for the same end user',
	kind: 'write',
	tool: {
		text: 'Block a user wallet and create a new one for the same end user. Needs: Wallet ID. Returns the new wallet with its address.',
	},
	docs: {
		endpoint: '`POST /user-wallets/{walletId}/replace`',
		notes: 'Blocks the wallet and creates a new one for the same external user.',
	},
	properties: walletIdFields,
	method: 'POST',
	readId: readWalletId,
	path: (id) => `/user-wallets/${id}/replace`,
});
