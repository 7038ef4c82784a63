import { listOperation } from '../common/listOperation';

export const getBalanceHistory = listOperation({
	value: 'getBalanceHistory',
	name: 'Get Balance History',
	action: 'Get company balance history',
	description:
		'List balance movements, one output item per movement; referenceId is the order ID for order movements',
	path: '/wallets/balance-history',
});
