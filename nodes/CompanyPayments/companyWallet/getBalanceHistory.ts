import { listOperation } from '../common/listOperation';
import { ENDPOINTS } from '../../shared/contract/endpoints';

export const getBalanceHistory = listOperation({
	value: 'getBalanceHistory',
	name: 'Get Balance History',
	action: 'Get company balance history',
	description:
		'List balance movements, one output item per movement; referenceId is the order ID for order movements',
	path: ENDPOINTS.walletBalanceHistory,
});
