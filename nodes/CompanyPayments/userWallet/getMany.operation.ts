import { listOperation } from '../common/listOperation';
import { ENDPOINTS } from '../../shared/contract/endpoints';
import { WALLET_FIELDS } from '../common/words';

export const getMany = listOperation({
	action: 'Get many user wallets',
	description: 'List the user wallets of the company, one output item per wallet',
	kind: 'read',
	tool: {
		text: 'List the user wallets of the company. Needs nothing. Returns one short record per wallet: id, externalId, address, status, dates.',
		compact: WALLET_FIELDS,
	},
	docs: {
		endpoint: '`GET /user-wallets`',
		notes: 'Return All / Limit.',
	},
	path: ENDPOINTS.userWallets,
	itemsKey: 'wallets',
});
