import { statusOptions } from '../../shared/contract/statuses';
import { listOperation } from '../common/listOperation';
import { ENDPOINTS } from '../../shared/contract/endpoints';

export const getDeposits = listOperation({
	value: 'getDeposits',
	name: 'Get Deposits',
	action: 'Get user wallet deposits',
	description: 'List deposits to user wallets, one output item per deposit',
	path: ENDPOINTS.userWalletDeposits,
	itemsKey: 'deposits',
	statusList: 'userDeposit',
	filters: [
		{
			displayName: 'External ID',
			name: 'externalId',
			type: 'string',
			default: '',
			placeholder: 'e.g. user-42',
			description: 'Only deposits to the wallet of this end user',
		},
		{
			displayName: 'Status',
			name: 'status',
			type: 'options',
			default: 'completed',
			description:
				'Only deposits in this status. The service reports both legacy (aml_pass, aml_fail) and current (aml_passed, aml_failed) values; either choice finds both spellings.',
			options: statusOptions('userDeposit'),
		},
	],
});
