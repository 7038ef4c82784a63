import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { listFields, readListFields } from '../common/fields';
import { listRecords } from '../transport';
import type { OperationDefinition } from '../types';

export const getMany: OperationDefinition = {
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many orders',
	description: 'List the company orders, one output item per order',
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
					displayName: 'Status',
					name: 'status',
					type: 'options',
					default: 'success',
					description: 'Only orders in this status (sent as the query parameter status)',
					options: [
						{ name: 'Created', value: 'created' },
						{ name: 'Disputed', value: 'disputed' },
						{ name: 'Expired by System', value: 'expired_by_system' },
						{ name: 'Expired No Taker', value: 'expired_no_taker' },
						{ name: 'Failed', value: 'failed' },
						{ name: 'In Progress', value: 'in_progress' },
						{ name: 'Success', value: 'success' },
					],
				},
			],
		},
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
		return await listRecords.call(this, {
			path: '/orders',
			qs: filters,
			itemsKey: 'orders',
			...readListFields(this, itemIndex),
			itemIndex,
		});
	},
};
