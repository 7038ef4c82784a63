import type { IExecuteFunctions } from 'n8n-workflow';

import { listFields, readListFields } from '../common/fields';
import { listRecords } from '../transport';
import type { OperationDefinition } from '../types';

export const getMany: OperationDefinition = {
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many user wallets',
	description: 'List the user wallets of the company, one output item per wallet',
	readOnly: true,
	properties: [...listFields],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		return await listRecords.call(this, {
			path: '/user-wallets',
			itemsKey: 'wallets',
			...readListFields(this, itemIndex),
			itemIndex,
		});
	},
};
