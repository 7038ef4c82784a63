import { ASSUMED_ENDPOINTS, LIST_ITEMS_KEYS } from '../../shared/contract/assumptions';
import { statusOptions } from '../../shared/contract/statuses';
import { listOperation } from '../common/listOperation';
import { PAYOUT_SIMPLE_FIELDS } from './fields';
import { withFundsReturned } from './fundsReturned';

export const getMany = listOperation({
	action: 'Get many payouts',
	description: 'List the company payouts, one output item per payout, each with fundsReturned',
	kind: 'read',
	tool: {
		text: 'List the company payouts, optionally only those in one Status or with an External ID. Needs nothing. Returns one short record per payout: id, externalId, status, amountRub, chargedUsdt, masked recipient, failReason, fundsReturned, dates.',
		compact: PAYOUT_SIMPLE_FIELDS,
	},
	docs: {
		endpoint: '`GET /payouts` (assumed)',
		notes: 'Return All / Limit, filters Status and External ID.',
	},
	path: ASSUMED_ENDPOINTS.payoutList.path,
	itemsKey: LIST_ITEMS_KEYS.payouts,
	map: withFundsReturned,
	statusList: 'payout',
	filters: [
		{
			displayName: 'External ID',
			name: 'externalId',
			type: 'string',
			default: '',
			placeholder: 'e.g. salary-2026-11-42',
			description: 'Only payouts with this external ID (sent as the query parameter externalId)',
		},
		{
			displayName: 'Status',
			name: 'status',
			type: 'options',
			default: 'waiting_trader',
			description:
				'Only payouts in this status (sent as the query parameter status). To find refunded payouts, check fundsReturned rather than status Fail.',
			options: statusOptions('payout'),
		},
	],
});
