import { ASSUMED_ENDPOINTS, LIST_ITEMS_KEYS } from '../../shared/contract/assumptions';
import { statusOptions } from '../../shared/contract/statuses';
import { listOperation } from '../common/listOperation';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { ENDPOINTS } from '../../shared/contract/endpoints';
import { readMeasured } from '../../shared/money';
import { segment } from '../common/validation';
import { PAYOUT_SIMPLE_FIELDS } from './fields';
import { withFundsReturned } from './fundsReturned';

/**
 * fundsReturned as the payout shows it: a failed payout listed without `refundedAt` (the listing's
 * fields are not shown in the document) is read by its ID first, so a refunded payout is never
 * said to have kept its money because its listing left the field out (r1-money-tool F2).
 */
async function withFundsShown(
	record: IDataObject,
	ctx: IExecuteFunctions,
	itemIndex: number,
): Promise<IDataObject> {
	const unshown = record.status === 'fail' && !('refundedAt' in record) && 'id' in record;
	if (!unshown) return withFundsReturned(record);
	const path = `${ENDPOINTS.payouts}/${segment(String(record.id))}`;
	return withFundsReturned({ ...record, ...(await readMeasured(ctx, itemIndex, path)) });
}

export const getMany = listOperation({
	action: 'Get many payouts',
	description: 'List the company payouts, one output item per payout, each with fundsReturned',
	kind: 'read',
	tool: {
		text: 'List the company payouts, optionally only those in one Status or with an External ID. Needs nothing. Returns one short record per payout: id, externalId, status, amountRub, chargedUsdt, masked recipient, failReason, fundsReturned, dates.',
		compact: PAYOUT_SIMPLE_FIELDS,
	},
	docs: {
		endpoint: '`GET /payouts` (assumed)',
		notes:
			'Return All / Limit, filters Status and External ID. A failed payout listed without `refundedAt` is read by its ID (`GET /payouts/{id}`) before `fundsReturned` is said.',
	},
	path: ASSUMED_ENDPOINTS.payoutList.path,
	itemsKey: LIST_ITEMS_KEYS.payouts,
	map: withFundsShown,
	statusList: 'payout',
	filters: [
		{
			displayName: 'External ID',
			name: 'externalId',
			type: 'string',
			default: '',
			placeholder: 'e.g. salary-2026-11-42',
			description: 'Only payouts with this external ID (sent as the query parameter externalId)',
		},
		{
			displayName: 'Status',
			name: 'status',
			type: 'options',
			default: 'waiting_trader',
			description:
				'Only payouts in this status (sent as the query parameter status). To find refunded payouts, check fundsReturned rather than status Fail.',
			options: statusOptions('payout'),
		},
	],
});
