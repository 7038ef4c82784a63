import { listOperation } from '../common/listOperation';
import { ENDPOINTS } from '../../shared/contract/endpoints';

export const getBalanceHistory = listOperation({
	value: 'getBalanceHistory',
	name: 'Get Balance History',
	action: 'Get company balance history',
	description:
		'List balance movements, one output item per movement; referenceId is the order ID for order movements',
	kind: 'read',
	tool: {
		text: 'List the movements of the company balance. Needs nothing. Returns one short record per movement: id, type, amount, balanceAfter, referenceId (the order ID for order movements), createdAt.',
		compact: ['id', 'type', 'amount', 'balanceAfter', 'referenceId', 'createdAt'],
	},
	docs: {
		endpoint: '`GET /wallets/balance-history`',
		notes: 'Return All / Limit. `referenceId` is the order ID for order movements.',
	},
	path: ENDPOINTS.walletBalanceHistory,
});
