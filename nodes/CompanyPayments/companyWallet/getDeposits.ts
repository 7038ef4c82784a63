import { listOperation } from '../common/listOperation';
import { ENDPOINTS } from '../../shared/contract/endpoints';

export const getDeposits = listOperation({
	value: 'getDeposits',
	name: 'Get Deposits',
	action: 'Get company deposits',
	description: 'List deposits to the company wallet, one output item per deposit',
	path: ENDPOINTS.walletDeposits,
	itemsKey: 'deposits',
	filters: [
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
});
