import { listOperation } from '../common/listOperation';

export const getMany = listOperation({
	action: 'Get many user wallets',
	description: 'List the user wallets of the company, one output item per wallet',
	path: '/user-wallets',
	itemsKey: 'wallets',
});
