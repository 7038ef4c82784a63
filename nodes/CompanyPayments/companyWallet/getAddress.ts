import { fixedCall } from '../common/fixedCall';
import { ENDPOINTS } from '../../shared/contract/endpoints';

export const getAddress = fixedCall({
	value: 'getAddress',
	name: 'Get Deposit Address',
	action: 'Get company deposit address',
	description:
		'Get the company TRON address for incoming USDT (TRC-20); the service creates it on first request',
	method: 'GET',
	path: ENDPOINTS.wallet,
});
