import type { IExecuteFunctions } from 'n8n-workflow';

import { listFields, readListFields } from '../common/fields';
import { listRecords } from '../transport';
import type { OperationDefinition } from '../types';

export const getBlocked: OperationDefinition = {
	value: 'getBlocked',
	name: 'Get Blocked',
	action: 'Get blocked user wallets',
	description: 'List blocked user wallets, one output item per wallet',
	readOnly: true,
	properties: [...listFields],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		return await listRecords.call(this, {
			path: '/user-wallets/blocked',
			itemsKey: 'wallets',
			...readListFields(this, itemIndex),
			itemIndex,
		});
	},
};
