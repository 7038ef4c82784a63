import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { ASSUMED_ENDPOINTS, LIST_ITEMS_KEYS } from '../assumptions';
import { listFields, readListFields } from '../common/fields';
import { listRecords } from '../transport';
import type { OperationDefinition } from '../types';
import { withFundsReturned } from './fundsReturned';

export const getMany: OperationDefinition = {
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many payouts',
	description: 'List the company payouts, one output item per payout, each with fundsReturned',
	readOnly: true,
	properties: [
		...listFields,
		{
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add Filter',
			default: {},
			options: [
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
					options: [
						{ name: 'Fail', value: 'fail' },
						{ name: 'In Progress', value: 'in_progress' },
						{ name: 'Pending', value: 'pending' },
						{ name: 'Success', value: 'success' },
						{ name: 'Waiting Trader', value: 'waiting_trader' },
					],
				},
			],
		},
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
		const externalId = typeof filters.externalId === 'string' ? filters.externalId.trim() : '';
		const records = await listRecords.call(this, {
			path: ASSUMED_ENDPOINTS.payoutList.path,
			qs: { status: filters.status, externalId },
			itemsKey: LIST_ITEMS_KEYS.payouts,
			...readListFields(this, itemIndex),
			itemIndex,
		});
		return records.map(withFundsReturned);
	},
};
