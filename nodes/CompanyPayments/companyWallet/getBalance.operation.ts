import { fixedCall } from '../common/calls';
import { ENDPOINTS } from '../../shared/contract/endpoints';

export const getBalance = fixedCall({
	value: 'getBalance',
	name: 'Get Balance',
	action: 'Get company balance',
	description: 'Get the company balance view: usdtBalance and the reserved frozenBalance',
	kind: 'read',
	tool: {
		text: 'Get the company balance. Needs nothing. Returns usdtBalance and frozenBalance (the part reserved for open orders, cards and payouts), in USDT.',
	},
	docs: {
		endpoint: '`GET /wallets/balance`',
		notes: '`usdtBalance` and the reserved `frozenBalance`.',
	},
	method: 'GET',
	path: ENDPOINTS.walletBalance,
});
