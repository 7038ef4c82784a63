import { listOperation } from '../common/listOperation';
import { ENDPOINTS } from '../../shared/contract/endpoints';

export const getMany = listOperation({
	action: 'Get many user wallets',
	description: 'List the user wallets of the company, one output item per wallet',
	path: ENDPOINTS.userWallets,
	itemsKey: 'wallets',
});
