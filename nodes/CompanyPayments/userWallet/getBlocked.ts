import { listOperation } from '../common/listOperation';
import { ENDPOINTS } from '../../shared/contract/endpoints';

export const getBlocked = listOperation({
	value: 'getBlocked',
	name: 'Get Blocked',
	action: 'Get blocked user wallets',
	description: 'List blocked user wallets, one output item per wallet',
	path: ENDPOINTS.userWalletsBlocked,
	itemsKey: 'wallets',
});
