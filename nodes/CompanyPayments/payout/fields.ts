import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readRecordId, recordIdFields } from '../common/locator';
import { simpleFields } from '../common/simple';
import { textNotAnId } from '../../shared/money/recordId';

/**
 * A payout simplified (Get and Get Many; the tool's Compact Output): the 10 fields a person reads
 * (n8n's limit). `requisiteType` and `bank` are left out: the masked `requisite` names the
 * recipient, `status` with `fundsReturned` says where the money is.
 */
export const PAYOUT_SIMPLE_FIELDS = simpleFields('payout', [
	'id',
	'externalId',
	'status',
	'amountRub',
	'chargedUsdt',
	'requisite',
	'failReason',
	'fundsReturned',
	'createdAt',
	'completedAt',
]);

const payoutId = {
	displayName: 'Payout',
	name: 'payoutId',
	description: 'The payout, picked from the list or given by its ID (as returned by Create)',
	placeholder: 'e.g. po_4b1d2e',
	listPlaceholder: 'Select a payout…',
	legacy: {
		displayName: 'Payout ID',
		description: 'The ID of the payout, as returned by Create and Get Many',
	},
};

/** Any payout of the company. */
export const payoutIdFields: INodeProperties[] = recordIdFields({
	...payoutId,
	searchListMethod: 'getPayouts',
});

/** Lists only payouts in waiting_trader: the only ones Cancel accepts. */
export const cancelablePayoutIdFields: INodeProperties[] = recordIdFields({
	...payoutId,
	description:
		'The payout: the list shows payouts still waiting for an executor (waiting_trader) only, the only ones that can be cancelled; give another payout by its ID',
	listPlaceholder: 'Select a payout waiting for an executor…',
	searchListMethod: 'getCancelablePayouts',
});

export function readPayoutId(ctx: IExecuteFunctions, itemIndex: number): string {
	return readRecordId(ctx, itemIndex, 'payoutId', 'Payout ID');
}

/**
 * The Payout ID of a cancel (a money write): also one the node could take as a record's ID in
 * the answer (money/recordId.ts: a printable ASCII character, no control character). Any other
 * (`"١٢٣"`, `"１２３"`) names no payout the node could bind the answer to, so the cancel would be
 * unknown after it was sent: it is refused before anything is sent (outside r25-money F2).
 */
export function readCancelPayoutId(ctx: IExecuteFunctions, itemIndex: number): string {
	const id = readPayoutId(ctx, itemIndex);
	const why = textNotAnId(id);
	if (why) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Payout ID must hold a printable ASCII character (U+0021–U+007E) and no control character, as the service's payout IDs do, got ${JSON.stringify(id)} (${why})`,
			{
				itemIndex,
				description: `Nothing was sent to the service. Fix "Payout ID" on item ${itemIndex} and run again (a payout ID as the service gives it, e.g. from Payout > Get Many).`,
			},
		);
	}
	return id;
}
