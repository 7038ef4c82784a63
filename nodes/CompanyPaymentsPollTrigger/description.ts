import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { StatusList } from '../shared/contract/statuses';
import { LEGACY_STATUSES, STATUSES, statusOptions } from '../shared/contract/statuses';

import type { WatchKind } from './types';

/** Window default: a month and a few days, what a monthly reconciliation looks back over. */
export const DEFAULT_WINDOW_DAYS = 35;

/** Cost bound of one poll per list: at most this many records, i.e. 100 requests of 100. */
export const DEFAULT_MAX_RECORDS = 10_000;

/** Current values of a status list (legacy spellings are matched as the current ones). */
function current(list: StatusList): string[] {
	const legacy = LEGACY_STATUSES[list] ?? {};
	return STATUSES[list].filter((value) => !(value in legacy));
}

function statuses(
	kind: WatchKind,
	list: StatusList,
	values: readonly string[],
	what: string,
): INodeProperties {
	return {
		displayName: 'Statuses',
		name: 'statuses',
		type: 'multiOptions',
		options: statusOptions(list, values),
		default: [],
		description: `Emit only changes into these statuses (${what}); none chosen means every change`,
	};
}

function externalId(what: string): INodeProperties {
	return {
		displayName: 'External ID',
		name: 'externalId',
		type: 'string',
		default: '',
		description: `Watch only the ${what} with this external ID (sent as the query parameter externalId)`,
	};
}

function filters(
	kind: WatchKind,
	name: string,
	displayName: string,
	fields: INodeProperties[],
): INodeProperties {
	return {
		displayName,
		name,
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { show: { watch: [kind] } },
		options: fields,
	};
}

/** Filter collection parameter of each watched list. */
export const FILTER_PARAMETERS: Record<Exclude<WatchKind, 'balance'>, string> = {
	payouts: 'payoutFilters',
	orders: 'orderFilters',
	companyDeposits: 'companyDepositFilters',
	userDeposits: 'userDepositFilters',
	cards: 'cardFilters',
	disputes: 'disputeFilters',
};

export const WATCH_OPTIONS: INodePropertyOptions[] = [
	{
		name: 'Cards',
		value: 'cards',
		description: 'Card status changes, e.g. a pending request that became assigned (card.assigned)',
	},
	{
		name: 'Company Balance Below Threshold',
		value: 'balance',
		description: 'The company usdtBalance fell below a threshold (once per crossing)',
	},
	{
		name: 'Company Deposits',
		value: 'companyDeposits',
		description: 'Status changes of deposits to the company wallet',
	},
	{
		name: 'Disputes',
		value: 'disputes',
		description: 'Dispute status and resolution changes (no webhook exists for these)',
	},
	{ name: 'Orders', value: 'orders', description: 'Order status changes' },
	{
		name: 'Payouts',
		value: 'payouts',
		description: 'Payout status changes, and funds returned (refundedAt newly set)',
	},
	{
		name: 'User-Wallet Deposits',
		value: 'userDeposits',
		description: 'Status changes of deposits to user wallets',
	},
];

export const PROPERTIES: INodeProperties[] = [
	{
		displayName: 'Watch',
		name: 'watch',
		type: 'multiOptions',
		options: WATCH_OPTIONS,
		default: ['payouts'],
		required: true,
		description: 'What to check on every poll; each change becomes one item',
	},
	{
		displayName: 'Balance Threshold (USDT)',
		name: 'balanceThreshold',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 2 },
		default: 100,
		required: true,
		displayOptions: { show: { watch: ['balance'] } },
		description:
			'Emit once when usdtBalance falls below this amount; again only after it has risen to it or above',
	},
	filters('payouts', FILTER_PARAMETERS.payouts, 'Payout Filters', [
		externalId('payout'),
		statuses('payouts', 'payout', current('payout'), 'a refund is a change into fail'),
	]),
	filters('orders', FILTER_PARAMETERS.orders, 'Order Filters', [
		statuses('orders', 'order', current('order'), 'order status'),
	]),
	filters('companyDeposits', FILTER_PARAMETERS.companyDeposits, 'Company Deposit Filters', [
		statuses('companyDeposits', 'companyDeposit', current('companyDeposit'), 'deposit status'),
	]),
	filters('userDeposits', FILTER_PARAMETERS.userDeposits, 'User-Wallet Deposit Filters', [
		externalId('user-wallet deposits'),
		statuses(
			'userDeposits',
			'userDeposit',
			current('userDeposit'),
			'legacy aml_pass and aml_fail count as AML Passed and AML Failed',
		),
	]),
	filters('cards', FILTER_PARAMETERS.cards, 'Card Filters', [
		externalId('card'),
		statuses('cards', 'card', [...STATUSES.card], 'card status'),
	]),
	filters('disputes', FILTER_PARAMETERS.disputes, 'Dispute Filters', [
		statuses('disputes', 'dispute', current('dispute'), 'dispute status'),
	]),
	{
		displayName: 'Window (Days)',
		name: 'windowDays',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: DEFAULT_WINDOW_DAYS,
		description:
			'Watch records created in the last this many days. Each remembered record costs about 35 to 55 bytes of workflow static data.',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Emit Existing Records on First Poll',
				name: 'emitExisting',
				type: 'boolean',
				default: false,
				description:
					'Whether the first poll after activation emits every record of the window (and a balance already below the threshold) instead of only remembering them',
			},
			{
				displayName: 'Max Records per List and Poll',
				name: 'maxRecords',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: DEFAULT_MAX_RECORDS,
				description:
					'Upper bound of what one poll reads from each list. A list that holds more fails the poll with an error naming it: most lists have no documented order, so the records not read could be the newest.',
			},
		],
	},
];
