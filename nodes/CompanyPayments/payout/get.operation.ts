import { idCall } from '../common/calls';
import { PAYOUT_SIMPLE_FIELDS, payoutIdFields, readPayoutId } from './fields';
import { withFundsReturned } from './fundsReturned';

export const get = idCall({
	value: 'get',
	name: 'Get',
	action: 'Get a payout',
	description:
		'Get one payout by its ID; fundsReturned tells whether its money is back on the company balance',
	kind: 'read',
	tool: {
		text: "Look up one payout by its ID. Needs: Payout ID. Returns status (pending, waiting_trader, in_progress, success, fail), amountRub, chargedUsdt, failReason, the recipient's number masked (requisite), and fundsReturned: true when the money is back on the company balance (rely on it, not on status fail).",
		compact: PAYOUT_SIMPLE_FIELDS,
	},
	docs: { endpoint: '`GET /payouts/{id}`' },
	properties: payoutIdFields,
	method: 'GET',
	readId: readPayoutId,
	path: (id) => `/payouts/${id}`,
	output: withFundsReturned,
});
