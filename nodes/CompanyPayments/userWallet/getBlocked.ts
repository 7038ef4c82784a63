import { listOperation } from '../common/listOperation';

export const getBlocked = listOperation({
	value: 'getBlocked',
	name: 'Get Blocked',
	action: 'Get blocked user wallets',
	description: 'List blocked user wallets, one output item per wallet',
	path: '/user-wallets/blocked',
	itemsKey: 'wallets',
});
