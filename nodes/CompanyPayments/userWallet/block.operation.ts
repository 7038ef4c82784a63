import { idCall } from '../common/calls';
import { readWalletId, walletIdFields } from './fields';

export const block = idCall({
	value: 'block',
	name: 'Block',
	action: 'Block a user wallet',
	description: 'Block a user wallet',
	kind: 'write',
	tool: {
		text: 'Block a user wallet. Needs: Wallet ID. Returns the blocked wallet.',
	},
	docs: { endpoint: '`POST /user-wallets/{walletId}/block`' },
	properties: walletIdFields,
	method: 'POST',
	readId: readWalletId,
	path: (id) => `/user-wallets/${id}/block`,
});
