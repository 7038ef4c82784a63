import { statusOptions } from '../../shared/contract/statuses';
import { listOperation } from '../common/listOperation';
import { ENDPOINTS } from '../../shared/contract/endpoints';

export const getDeposits = listOperation({
	value: 'getDeposits',
	name: 'Get Deposits',
	action: 'Get company deposits',
	description: 'List deposits to the company wallet, one output item per deposit',
	kind: 'read',
	tool: {
		text: 'List deposits to the company wallet, optionally only those in one Status. Needs nothing. Returns one short record per deposit: id, status, amount, creditedAmount, txHash, dates.',
		compact: ['id', 'status', 'amount', 'creditedAmount', 'txHash', 'createdAt', 'updatedAt'],
	},
	docs: {
		endpoint: '`GET /wallets/deposits`',
		notes: 'Return All / Limit, filter Status. One item per deposit.',
	},
	path: ENDPOINTS.walletDeposits,
	itemsKey: 'deposits',
	statusList: 'companyDeposit',
	filters: [
		{
			displayName: 'Status',
			name: 'status',
			type: 'options',
			default: 'completed',
			description: 'Only deposits in this status (sent as the query parameter status)',
			options: statusOptions('companyDeposit'),
		},
	],
});
