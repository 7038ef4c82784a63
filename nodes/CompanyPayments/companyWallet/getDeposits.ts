import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { listFields, readListFields } from '../common/fields';
import { listRecords } from '../transport';
import type { OperationDefinition } from '../types';

export const getDeposits: OperationDefinition = {
	value: 'getDeposits',
	name: 'Get Deposits',
	action: 'Get company deposits',
	description: 'List deposits to the company wallet, one output item per deposit',
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
					default: 'completed',
					description: 'Only deposits in this status (sent as the query parameter status)',
					options: [
						{ name: 'AML Failed', value: 'aml_failed' },
						{ name: 'AML Passed', value: 'aml_passed' },
						{ name: 'AML Pending', value: 'aml_pending' },
						{ name: 'Completed', value: 'completed' },
						{ name: 'Failed', value: 'failed' },
						{ name: 'Fee Charged', value: 'fee_charged' },
						{ name: 'Forwarding', value: 'forwarding' },
						{ name: 'New', value: 'new' },
					],
				},
			],
		},
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		return await listRecords.call(this, {
			path: '/wallets/deposits',
			qs: this.getNodeParameter('filters', itemIndex, {}) as IDataObject,
			itemsKey: 'deposits',
			...readListFields(this, itemIndex),
			itemIndex,
		});
	},
};
