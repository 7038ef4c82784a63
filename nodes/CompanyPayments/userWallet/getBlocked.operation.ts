import { listOperation } from '../common/listOperation';
import { ENDPOINTS } from '../../shared/contract/endpoints';
import { WALLET_FIELDS } from '../common/words';

export const getBlocked = listOperation({
	value: 'getBlocked',
	name: 'Get Blocked',
	action: 'Get blocked user wallets',
	description: 'List blocked user wallets, one output item per wallet',
	kind: 'read',
	tool: {
		text: 'List the blocked user wallets. Needs nothing. Returns one short record per wallet: id, externalId, address, status, blockedAt.',
		compact: WALLET_FIELDS,
	},
	docs: {
		endpoint: '`GET /user-wallets/blocked`',
		notes: 'Return All / Limit.',
	},
	path: ENDPOINTS.userWalletsBlocked,
	itemsKey: 'wallets',
});
