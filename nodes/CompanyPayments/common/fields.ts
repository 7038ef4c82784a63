import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { IDEMPOTENCY_KEY_MAX_LENGTH } from '../transport';

/** Return All / Limit for list operations. */
export const listFields: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
];

/** Reads Return All / Limit for one item. */
export function readListFields(
	ctx: IExecuteFunctions,
	itemIndex: number,
): { returnAll: boolean; limit: number } {
	const returnAll = ctx.getNodeParameter('returnAll', itemIndex, false) as boolean;
	const limit = returnAll ? 0 : (ctx.getNodeParameter('limit', itemIndex, 50) as number);
	return { returnAll, limit };
}

/** The optional Idempotency Key field of money-moving operations. */
export const idempotencyKeyField: INodeProperties = {
	displayName: 'Idempotency Key',
	name: 'idempotencyKey',
	type: 'string',
	default: '',
	placeholder: 'e.g. {{ $json.paymentId }}',
	description: `Optional, at most ${IDEMPOTENCY_KEY_MAX_LENGTH} printable characters. The service answers a repeated request with the same key with the stored result instead of moving money again. Leave empty to use a key derived from this execution, node and item, which stays the same when n8n retries the item (Retry On Fail).`,
	hint: 'Set your own key (e.g. an ID from your system) to stay safe across separate executions too',
};
