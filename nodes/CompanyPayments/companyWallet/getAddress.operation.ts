import { fixedCall } from '../common/calls';
import { ENDPOINTS } from '../../shared/contract/endpoints';

export const getAddress = fixedCall({
	value: 'getAddress',
	name: 'Get Deposit Address',
	action: 'Get company deposit address',
	description:
		'Get the company TRON address for incoming USDT (TRC-20); the service creates it on first request',
	kind: 'read',
	tool: {
		text: 'Get the company TRON address that receives USDT (TRC-20) deposits. Needs nothing. Returns the address and its network.',
	},
	docs: {
		endpoint: '`GET /wallets`',
		notes: 'TRON address for USDT (TRC-20); created on first request.',
	},
	method: 'GET',
	path: ENDPOINTS.wallet,
});
