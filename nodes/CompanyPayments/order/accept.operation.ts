import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { acceptIdempotencyKeyField } from '../common/fields';
import { requireUuid, segment } from '../common/validation';
import { checkReplayedOrder, moneyWrite, readMeasured, withSentWrite } from '../../shared/money';
import type { MoneyCall, MoneyContract, OnceFor, Settled } from '../../shared/money';
import { ENDPOINTS } from '../../shared/contract/endpoints';
import type { OperationDefinition } from '../types';
import { ORDER_MONEY } from '../common/words';

/**
 * What accepting a quote is as money, for Accept Quote and Pay QR Code alike. The document
 * promises replay by key for this one write ("a repeated request with the same key for the same
 * company returns the stored response"). The Order names no quote and carries no identity of the
 * node's, so an answer can only be checked against details read from the quote (Pay QR Code).
 */
/** The order statuses in which an accepted order stands as paid or on its way (the document's). */
const STANDING = ['created', 'in_progress', 'success'];

/**
 * The document's order statuses in which an order does not stand: an accept answered with one is
 * unknown (r9-money F1). A status the document does not list (cancelled, rejected, refunded …) is
 * unknown too (outside r23-money, observation): the node does not guess what it means, and a
 * workflow reads it as the tool and Resolve Outcome do (orderStanding).
 */

/**
 * What an order's current state says of the payment under a reference (tool mode): the accept's
 * answer may be the order stored for the reference long ago, since failed, expired or disputed
 * (a dispute resolved by a refund). Only a standing order is handed back as the payment.
 */
export function orderStanding(order: IDataObject): Settled {
	const status = String(order.status);
	if (STANDING.includes(status)) {
		return { outcome: 'paid', why: `The order stands: status ${status}.` };
	}
	const reason = order.failureReason ? `, failureReason ${String(order.failureReason)}` : '';
	const words: Record<string, string> = {
		failed: `The order is now status failed${reason}: it does not stand as a payment (a dispute resolved by a refund ends here too); whether its money came back shows in Company Wallet > Get Balance History.`,
		expired_no_taker: `The order expired without a taker (status expired_no_taker${reason}): it was not paid out.`,
		expired_by_system: `The order was expired by the service (status expired_by_system${reason}): it was not paid out.`,
		disputed: 'The order is under a dispute (status disputed): it may be reversed.',
	};
	return {
		outcome: 'unknown',
		why: words[status] ?? `The order is in status "${status}", which the document does not list.`,
	};
}

export const ACCEPT_WRITE = {
	current: {
		read: (ctx: IExecuteFunctions, itemIndex: number, record: IDataObject) =>
			readMeasured(ctx, itemIndex, `${ENDPOINTS.orders}/${segment(String(record.id))}`),
		state: orderStanding,
	},
	what: 'the quote may have been accepted and the order paid',
	lookUp:
		'Order > Get Many (newest first) for an order of this amount created just now; or run it again with the same Idempotency Key and Quote ID (Retry On Fail keeps both)',
	replayByKey: true,
	// An order answered in a status that does not stand (failed, expired, disputed) is unknown
	// with its sent write, never a plain success (outside r9-money F1): the document does not show
	// an accept that fails at once, nor whether its reserved funds come back. So is one in a status
	// the document does not list (outside r23-money): only a listed standing status is a success.
	// An order that shows no status at all is read by its details, as before.
	answerState: (order: IDataObject) =>
		order.status === undefined || STANDING.includes(String(order.status))
			? undefined
			: orderStanding(order),
	// The order answered is what the accept made: one already answered to another write, or (Pay
	// QR Code under its derived key) one made before the send, is unknown (r15-money F7: the money
	// module's one rule). Under a key that names the payment the stored order is its own, whenever
	// it was made (write.ts storedAnswerIsOwn).
	made: (order: IDataObject) => order,
} as const;

/**
 * The quote a first accept used is spent: a re-send of it (Retry On Fail after a lost answer, a
 * re-run under the Idempotency Key the user set) answered QUOTE_NOT_FOUND or QUOTE_EXPIRED by a
 * service that kept no replay may be this item's own payment, so it is unknown, never not paid
 * (r1-money-resend F1). A first send's QUOTE_EXPIRED stays not paid.
 */
export const SPENT_QUOTE = ['QUOTE_NOT_FOUND', 'QUOTE_EXPIRED'] as const;

const money: MoneyContract = {
	...ACCEPT_WRITE,
	key: 'once',
	details: [],
	resentRefusals: SPENT_QUOTE,
};

/** POST /orders/accept/{id}: reserves the funds and returns the Order. */
export async function acceptQuote(
	ctx: IExecuteFunctions,
	itemIndex: number,
	quoteId: string,
	contract: MoneyContract,
	how: {
		key?: string;
		once?: OnceFor;
		explain?: Record<string, string>;
		pays?: string;
		/** The quote prepared for this call, where the contract's details read it. */
		quote?: IDataObject;
		/** What the first send asked for, kept with the key (Pay QR Code: the quote and its time). */
		first?: IDataObject;
	},
): Promise<IDataObject> {
	const history: { sentBefore: boolean; skewMs?: number | null } = { sentBefore: false };
	const call: MoneyCall = {
		contract,
		itemIndex,
		key: how.key,
		once: how.once,
		pays: how.pays,
		history,
		first: how.first,
		request: { method: 'POST', path: `/orders/accept/${segment(quoteId)}`, explain: how.explain },
	};
	const order = (await moneyWrite(ctx, call)) as IDataObject;
	// A key set by the user or a reference may name an earlier payment the service replays; one
	// this process sent before for this same payment (Retry On Fail) replays this payment's own.
	if (history.sentBefore) return order;
	try {
		checkReplayedOrder(
			ctx,
			contract,
			itemIndex,
			how.quote ? { ...order, quote: how.quote } : order,
		);
	} catch (error) {
		throw withSentWrite(call, error);
	}
	return order;
}

export const accept: OperationDefinition = {
	value: 'accept',
	name: 'Accept Quote',
	action: 'Accept a quote',
	description:
		'Accept a prepared quote within its 30 seconds; the amount is reserved on the company balance',
	kind: 'money',
	money,
	tool: {
		text: `Accept a prepared quote, paying it from the company balance. ${ORDER_MONEY} A reference already used for another quote is answered with that earlier order: in this n8n process as PAYMENT_REFERENCE_CONFLICT naming it (existingPaymentId; nothing new was paid); elsewhere the service answers with that order itself, and the order does not name its quote, so it cannot be told apart from this quote's: give each quote its own reference. Needs: Quote ID (from Prepare Quote, under 30 seconds old). Returns the order: id, status, amountRub, amountUsdt, merchantName.`,
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
			placeholder: 'e.g. 3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b',
			description: 'The ID (UUID) of the quote returned by Prepare Quote',
		},
		acceptIdempotencyKeyField,
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const quoteId = requireUuid(this, itemIndex, 'quoteId', 'Quote ID');
		// A quote can be accepted once: the derived key follows the quote, not the execution.
		return await acceptQuote(this, itemIndex, quoteId, money, {
			once: { action: 'accept', id: quoteId },
		});
	},
};
