import type { IExecuteFunctions } from 'n8n-workflow';

import { listFields, readListFields } from '../common/fields';
import { listRecords } from '../transport';
import type { OperationDefinition } from '../types';

export const getMany: OperationDefinition = {
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many disputes',
	description: 'List the company dispute history, newest first, one output item per dispute',
	readOnly: true,
	properties: [...listFields],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		return await listRecords.call(this, {
			path: '/disputes',
			itemsKey: 'disputes',
			...readListFields(this, itemIndex),
			itemIndex,
		});
	},
};
