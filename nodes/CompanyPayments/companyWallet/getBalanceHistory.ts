import type { IExecuteFunctions } from 'n8n-workflow';

import { listFields, readListFields } from '../common/fields';
import { listRecords } from '../transport';
import type { OperationDefinition } from '../types';

export const getBalanceHistory: OperationDefinition = {
	value: 'getBalanceHistory',
	name: 'Get Balance History',
	action: 'Get company balance history',
	description:
		'List balance movements, one output item per movement; referenceId is the order ID for order movements',
	readOnly: true,
	properties: [...listFields],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		return await listRecords.call(this, {
			path: '/wallets/balance-history',
			...readListFields(this, itemIndex),
			itemIndex,
		});
	},
};
