import { fixedCall } from '../common/fixedCall';
import { ENDPOINTS } from '../../shared/contract/endpoints';

export const getBalance = fixedCall({
	value: 'getBalance',
	name: 'Get Balance',
	action: 'Get company balance',
	description: 'Get the company balance view: usdtBalance and the reserved frozenBalance',
	method: 'GET',
	path: ENDPOINTS.walletBalance,
});
