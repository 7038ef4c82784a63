import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { acceptIdempotencyKeyField } from '../common/fields';
import { requireUuid, segment } from '../common/validation';
import { apiRequest } from '../../shared/transport';
import { paymentKey } from '../tool/mode';
import type { OperationDefinition } from '../types';
import { MONEY } from '../tool/words';

/** POST /orders/accept/{id}: reserves the funds and returns the Order. */
export async function acceptQuote(
	ctx: IExecuteFunctions,
	itemIndex: number,
	quoteId: string,
	key: string,
	explain?: Record<string, string>,
	pays?: string,
): Promise<IDataObject> {
	return (await apiRequest.call(ctx, {
		method: 'POST',
		path: `/orders/accept/${segment(quoteId)}`,
		headers: { 'Idempotency-Key': key },
		itemIndex,
		explain,
		pays,
	})) as IDataObject;
}

export const accept: OperationDefinition = {
	value: 'accept',
	name: 'Accept Quote',
	action: 'Accept a quote',
	description:
		'Accept a prepared quote within its 30 seconds; the amount is reserved on the company balance',
	kind: 'money',
	tool: {
		text: `Accept a prepared quote, paying it from the company balance. ${MONEY} A reference already used for another quote answers with that earlier order (the order does not name its quote): give each quote its own reference. Needs: Quote ID (from Prepare Quote, under 30 seconds old). Returns the order: id, status, amountRub, amountUsdt, merchantName.`,
	},
	docs: {
		endpoint: '`POST /orders/accept/{id}`',
		permission: '`orders.create`',
		notes:
			'Quote ID must be a UUID. Sends `Idempotency-Key`, derived from the quote ID unless set. Outputs the order; the amount is reserved (`frozenBalance`).',
	},
	properties: [
		{
			displayName: 'Quote ID',
			name: 'quoteId',
			type: 'string',
			default: '',
			required: true,
			placeholder: '3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b',
			description: 'The ID (UUID) of the quote returned by Prepare Quote',
		},
		acceptIdempotencyKeyField,
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const quoteId = requireUuid(this, itemIndex, 'quoteId', 'Quote ID');
		// A quote can be accepted once: the derived key follows the quote, not the execution.
		const key = paymentKey(
			this,
			itemIndex,
			this.getNodeParameter('idempotencyKey', itemIndex, ''),
			'Idempotency Key',
			{ action: 'accept', id: quoteId },
		);
		return await acceptQuote(this, itemIndex, quoteId, key);
	},
};
