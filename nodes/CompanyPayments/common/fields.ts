import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { IDEMPOTENCY_KEY_MAX_LENGTH } from '../../shared/money';
import { checkInteger, readBoolean } from './validation';

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
	const returnAll = readBoolean(ctx, itemIndex, 'returnAll', 'Return All', false);
	const limit = returnAll
		? 0
		: checkInteger(ctx, itemIndex, ctx.getNodeParameter('limit', itemIndex, 50), 'Limit', 1);
	return { returnAll, limit };
}

const KEY_RULE = `Optional, at most ${IDEMPOTENCY_KEY_MAX_LENGTH} printable characters. The service answers a repeated request with the same key with the stored result instead of moving money again.`;

/**
 * Payout Create, Payout Cancel, Card Recharge and Card Request. The interface document promises
 * replay by key only for Accept Quote (its money contract's replayByKey), so
 * this text says what a key does and does not do for the others.
 */
const KEY_SENT = `Optional, at most ${IDEMPOTENCY_KEY_MAX_LENGTH} printable characters, sent as the Idempotency-Key header. The service's document promises that a repeated key returns the stored result only for Accept Quote; for Card Request, Payout Create, Payout Cancel and Card Recharge it does not, so the node never re-sends these on its own: when the answer is lost (errorCode OUTCOME_UNKNOWN, paymentOutcome "unknown") look the payment up (e.g. Payout > Get Many by External ID, Card > Get Many by External ID) before running again.`;

/** The optional Idempotency Key field of money-moving operations. */
export const idempotencyKeyField: INodeProperties = {
	displayName: 'Idempotency Key',
	name: 'idempotencyKey',
	type: 'string',
	default: '',
	placeholder: 'e.g. {{ $json.paymentId }}',
	description: `${KEY_SENT} Leave empty to use a key derived from this execution, node and item, which stays the same when n8n retries the item (Retry On Fail)`,
	hint: 'Retry On Fail never sends this payment again: a paid item gives back its first answer, an unknown one stays unknown. Empty, a Retry of the execution from the Executions list gets a new execution ID, so a new key: a paid or unknown item may be paid again. After an unknown outcome (paymentOutcome "unknown") look the payment up before running the workflow again',
	// As a tool the key is derived from the tool's Payment Reference instead (tool/properties.ts).
	displayOptions: { show: { '@tool': [false] } },
};

/** The Idempotency Key of Accept Quote, whose derived key follows the quote. */
export const acceptIdempotencyKeyField: INodeProperties = {
	...idempotencyKeyField,
	description: `${KEY_RULE} Leave empty to use a key derived from the quote ID: a quote can be accepted once, so a retry, a re-run of a failed execution or a second workflow accepting the same quote all send the same key`,
	hint: 'Empty is safe: the key follows the quote',
};

/** The Idempotency Key of Pay QR Code, which prepares a new quote on every run. */
export const payIdempotencyKeyField: INodeProperties = {
	...idempotencyKeyField,
	placeholder: 'e.g. {{ $json.invoiceId }}',
	description: `${KEY_RULE} Leave empty to use a key derived from this execution, node and item: safe for Retry On Fail, but a re-run of a failed execution prepares a new quote under a new key and can pay the QR code again. Set a reference of this payment from your input (e.g. an invoice ID) to make re-runs and duplicate triggers safe`,
	hint: 'Set a payment reference from your input if executions of this workflow may be re-run',
};
