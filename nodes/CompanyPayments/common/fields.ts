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

/** Where the README says what a key does for each money operation (panel texts stay short). */
const KEYS_DOCS =
	'<a href="https://www.npmjs.com/package/n8n-nodes-company-payments#operations">Keys</a>';

const KEY_RULE = `At most ${IDEMPOTENCY_KEY_MAX_LENGTH} printable characters; a repeated key gets the stored result.`;

/**
 * Payout Create, Payout Cancel, Card Recharge and Card Request. The interface document promises
 * replay by key only for Accept Quote (its money contract's replayByKey), so the node never
 * re-sends these on its own; the README's Operations section says what to do after an unknown.
 */
const KEY_SENT = `At most ${IDEMPOTENCY_KEY_MAX_LENGTH} printable characters. Never re-sent by the node (see the hint).`;

/** The optional Idempotency Key field of money-moving operations. */
export const idempotencyKeyField: INodeProperties = {
	displayName: 'Idempotency Key',
	name: 'idempotencyKey',
	type: 'string',
	default: '',
	placeholder: 'e.g. {{ $json.paymentId }}',
	description: `${KEY_SENT} Empty: derived from this execution, node and item. See ${KEYS_DOCS}.`,
	hint: 'Retry On Fail never sends this payment again: a paid item gives back its first answer, an unknown one stays unknown; in a sub-workflow the parent\'s Retry On Fail too (the same item handed to it twice in one parent execution is paid once). Empty, a Retry of the execution from the Executions list gets a new execution ID, so a new key: a paid or unknown item may be paid again. After an unknown outcome (paymentOutcome "unknown") look the payment up before running the workflow again',
	// As a tool the key is derived from the tool's Payment Reference instead (tool/properties.ts).
	displayOptions: { show: { '@tool': [false] } },
};

/** The Idempotency Key of Accept Quote, whose derived key follows the quote. */
export const acceptIdempotencyKeyField: INodeProperties = {
	...idempotencyKeyField,
	description: `${KEY_RULE} Empty: derived from the quote ID, the same for every run accepting it. See ${KEYS_DOCS}.`,
	hint: 'Empty is safe: the key follows the quote',
};

/** The Idempotency Key of Pay QR Code, which prepares a new quote on every run. */
export const payIdempotencyKeyField: INodeProperties = {
	...idempotencyKeyField,
	placeholder: 'e.g. {{ $json.invoiceId }}',
	description: `${KEY_RULE} Empty: derived from this execution and item, so a re-run may pay again. ${KEYS_DOCS}.`,
	hint: 'Set a payment reference from your input: a re-run in this n8n process re-sends the first quote under it; in another process (a restart, another worker) it accepts a new quote under it, which may pay again, and an order the service answers that was made before that send is unknown: look the order up first',
};
