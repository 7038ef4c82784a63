import type { IDataObject, IExecuteFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { CARD_REQUEST_PENDING_STATUS } from '../assumptions';
import { idempotencyKeyField } from '../common/fields';
import { apiRequest, idempotencyKey } from '../transport';
import type { OperationDefinition } from '../types';
import { readCardExternalId } from './fields';

const PENDING_NOTE =
	'No card was in stock, so the request is pending and the amount for the card stays reserved. The card arrives later with the card.assigned webhook event (use the Company Payments Trigger), which carries the external ID of this request.';

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Turns the answer of POST /cards/request into an output that says plainly which of the two
 * documented outcomes happened: a card assigned now, or a request pending until one is in stock.
 */
function describeOutcome(ctx: IExecuteFunctions, itemIndex: number, answer: unknown): IDataObject {
	const body = isObject(answer) ? answer : {};
	const card = isObject(body.card) ? body.card : null;
	const request = isObject(body.request) ? body.request : null;
	const status = typeof body.status === 'string' ? body.status : null;
	if (card || status === 'assigned') {
		return { outcome: 'assigned', status: status ?? 'assigned', card, request };
	}
	const requestStatus = typeof request?.status === 'string' ? request.status : null;
	const pending = CARD_REQUEST_PENDING_STATUS;
	if (status === pending || requestStatus === pending || (!status && !requestStatus)) {
		return {
			outcome: 'pending',
			status: status ?? pending,
			card: null,
			request,
			note: PENDING_NOTE,
		};
	}
	throw new NodeApiError(ctx.getNode(), body as JsonObject, {
		message: `The service issued no card: the card request is ${requestStatus ?? status}`,
		description: `POST /cards/request answered without a card and with status "${status}" (request status "${requestStatus}"). Check the company's card settings and balance, then request again with a new Idempotency Key.`,
		itemIndex,
	});
}

export const request: OperationDefinition = {
	value: 'request',
	name: 'Request',
	action: 'Request a card',
	description:
		'Request a new card: it is assigned at once when one is in stock, otherwise the request stays pending until the card.assigned event. The opening fee and minimum initial deposit are reserved on the company balance.',
	properties: [
		{
			displayName: 'External ID',
			name: 'externalId',
			type: 'string',
			default: '',
			placeholder: 'e.g. employee-42',
			description:
				'Optional. Your identifier for the card: printable ASCII without spaces, unique within the company. The card.assigned event carries it, so use it to match a pending request to its card.',
		},
		idempotencyKeyField,
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const externalId = readCardExternalId(
			this,
			itemIndex,
			this.getNodeParameter('externalId', itemIndex, ''),
		);
		const key = idempotencyKey(
			this,
			itemIndex,
			this.getNodeParameter('idempotencyKey', itemIndex, ''),
		);
		const answer = await apiRequest.call(this, {
			method: 'POST',
			path: '/cards/request',
			body: externalId === undefined ? undefined : { externalId },
			headers: { 'Idempotency-Key': key },
			itemIndex,
			explain:
				externalId === undefined
					? undefined
					: {
							CARD_EXTERNAL_ID_TAKEN: `The external ID "${externalId}" is already used by another card or card request of this company; choose another one, or find the existing card with Card > Get Many filtered by this external ID`,
						},
		});
		return describeOutcome(this, itemIndex, answer);
	},
};
