import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { LIST_ITEMS_KEYS } from '../assumptions';
import { listFields, readListFields } from '../common/fields';
import { listRecords } from '../transport';
import type { OperationDefinition } from '../types';

export const getMany: OperationDefinition = {
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many cards',
	description: 'List the company cards, one output item per card',
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
					placeholder: 'e.g. employee-42',
					description: 'Only the card with this external ID (sent as the query parameter externalId)',
				},
			],
		},
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
		const externalId = typeof filters.externalId === 'string' ? filters.externalId.trim() : '';
		return await listRecords.call(this, {
			path: '/cards',
			qs: { externalId },
			itemsKey: LIST_ITEMS_KEYS.cards,
			...readListFields(this, itemIndex),
			itemIndex,
		});
	},
};
