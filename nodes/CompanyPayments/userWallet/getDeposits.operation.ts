import { statusOptions } from '../../shared/contract/statuses';
import { listOperation } from '../common/listOperation';
import { ENDPOINTS } from '../../shared/contract/endpoints';
import { DEPOSIT_FIELDS } from '../common/words';

export const getDeposits = listOperation({
	value: 'getDeposits',
	name: 'Get Deposits',
	action: 'Get user wallet deposits',
	description: 'List deposits to user wallets, one output item per deposit',
	kind: 'read',
	tool: {
		text: 'List deposits to user wallets, optionally only those of one External ID or Status. Needs nothing. Returns one short record per deposit: id, externalId, walletId, amount, status, txHash, createdAt.',
		compact: DEPOSIT_FIELDS,
	},
	docs: {
		endpoint: '`GET /user-wallets/deposits`',
		notes: 'Query `externalId`, `status`, `limit`, `offset`; one item per deposit.',
	},
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
