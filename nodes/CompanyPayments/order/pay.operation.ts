import type { IDataObject, IExecuteFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { QUOTE_ID_FIELDS } from '../../shared/contract/assumptions';
import { payIdempotencyKeyField } from '../common/fields';
import { requireText } from '../common/validation';
import { isObject } from '../../shared/contract/guards';
import {
	firstSend,
	moneyKey,
	onePaymentAtATime,
	refusedAfterEarlierSend,
	senderOf,
} from '../../shared/money';
import { runAccount } from '../../shared/transport';
import type { MoneyContract } from '../../shared/money';
import type { OperationDefinition } from '../types';
import { ACCEPT_WRITE, acceptQuote } from './accept.operation';
import { prepareQuote, qrCodeField } from './prepare.operation';
import { withNodeFields } from '../../shared/serviceFields';
import { CONFLICT, ORDER_MONEY } from '../common/words';

const EXPIRED =
	'The quote expired before it could be accepted (quotes live 30 seconds). Nothing was paid; run the node again to pay with a new quote';

function quoteField(answer: IDataObject, name: string): unknown {
	const quote = answer.quote;
	return typeof quote === 'object' && quote !== null ? (quote as IDataObject)[name] : undefined;
}

/**
 * Pay QR Code accepts a quote it has just prepared, under a key per item of the execution (a new
 * quote every run). A stored order for another QR code shows in an amount or merchant other than
 * the new quote's: those are the details a repeat must match.
 */
const money: MoneyContract = {
	...ACCEPT_WRITE,
	// Another process prepares a new quote: not the repeated request the replay promise covers.
	newRequestElsewhere: true,
	lookUp:
		'Order > Get Many (newest first) for an order of this amount created just now; or let Retry On Fail run it again in this n8n process (it re-sends the identical request: the same quote under the same Idempotency Key)',
	key: 'perItem',
	details: [
		{
			name: 'amountRub',
			asked: (_c, _i, a) => quoteField(a, 'amountRub'),
			answered: (a) => a.amountRub,
		},
		{
			name: 'merchantName',
			asked: (_c, _i, a) => quoteField(a, 'merchantName'),
			answered: (a) => a.merchantName,
		},
	],
};

/**
 * The same write sent again for the quote the first send accepted: the quote may be gone because
 * that first accept used it (quotes are used once), so QUOTE_NOT_FOUND or QUOTE_EXPIRED is no
 * proof that nothing was paid (outcome.ts ownRefusals).
 */
const RESENT: MoneyContract = { ...money, ownRefusals: ['QUOTE_NOT_FOUND', 'QUOTE_EXPIRED'] };

/**
 * Refusals of the prepare that this item's own earlier payment causes (r1-money-resend F6): a traffic
 * fine its first attempt paid is refused FINE_ALREADY_PAID. Unknown when the item may have been
 * sent before (write.ts refusedAfterEarlierSend), never not paid.
 */
export const PAID_BEFORE = ['FINE_ALREADY_PAID'] as const;

/** The accept a Pay QR Code sends, as send-once knows it (by what it pays, not its quote). */
const ACCEPTS = { method: 'POST', path: '/orders/accept' } as const;

function serviceCode(error: unknown): string | undefined {
	const info = (error as { context?: { serviceError?: { errorCode?: unknown } } }).context
		?.serviceError;
	return typeof info?.errorCode === 'string' ? info.errorCode : undefined;
}

export const pay: OperationDefinition = {
	value: 'pay',
	name: 'Pay QR Code',
	action: 'Pay a QR code',
	description: 'Prepare a quote from the QR code and accept it at once; outputs the order',
	kind: 'money',
	money,
	tool: {
		text: `Pay a QR code from the company balance (prepares a quote and accepts it at once). ${ORDER_MONEY} ${CONFLICT} A reference already used answers with its stored order: one whose amount or merchant differ from this call's quote answers PAYMENT_REFERENCE_CONFLICT naming it (nothing new was paid); one that matches is this payment (the order does not show its QR code, so another QR code of the same amount and merchant cannot be told apart). Needs: QR Code. Returns the order (id, status, amountRub, amountUsdt, merchantName) and its quote.`,
	},
	docs: {
		endpoint: '`POST /orders/prepare` then `POST /orders/accept/{id}`',
		permission: '`orders.create`',
		notes:
			'One step for "pay this QR" flows. Outputs the order with the quote under `quote`. Set *Idempotency Key* to a payment reference when executions may be re-run (see above). If the quote expires before it is accepted the error says so and that nothing was paid.',
	},
	properties: [qrCodeField, payIdempotencyKeyField],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const qrCode = requireText(this, itemIndex, 'qrCode', 'QR Code');
		// Not derived from the quote: every run prepares a new quote, so a quote-derived key would
		// let Retry On Fail pay twice. The execution-derived key covers Retry On Fail; a payment
		// reference set by the user covers re-runs of the execution.
		const key = moneyKey(this, itemIndex, money);
		// One run of this key at a time in this process, from before its quote is prepared (outside
		// r23-money F1): a second run of the key starts from what the first left (its quote kept
		// with the key, its order, its unknown outcome), never from a quote of its own prepared while
		// the first was still under way. Claimed by sender and key, as the send-once memory keeps it.
		const { baseUrl, account } = await runAccount(this, itemIndex);
		const claimed = `${senderOf(this, baseUrl, account)} ${key}`;
		return await onePaymentAtATime(
			claimed,
			async () => await payOnce(this, itemIndex, qrCode, key),
			this,
		);
	},
};

/** Pays the QR code under `key`, holding the key's claim (see `pay`). */
async function payOnce(
	ctx: IExecuteFunctions,
	itemIndex: number,
	qrCode: string,
	key: string,
): Promise<IDataObject> {
	// A re-send is the same request (issue 49.2): Retry On Fail in this process accepts again
	// the quote the first send accepted, never a new quote under the old key. The quote output
	// is always the one accepted under the key (r23-money F2), never one prepared and not sent.
	const first = await firstSend(ctx, itemIndex, key);
	if (first && isObject(first.quote)) {
		const quote = first.quote;
		const idField = QUOTE_ID_FIELDS.find((field) => typeof quote[field] === 'string');
		if (idField) {
			// The quote stays with the key on every later try (r4-money-resend F2).
			const order = await acceptQuote(ctx, itemIndex, quote[idField] as string, RESENT, {
				key,
				first,
				quote,
				pays: `the QR code ${qrCode}`,
			});
			return withNodeFields(order, { quote });
		}
	}
	const pays = `the QR code ${qrCode}`;
	// A refusal its own earlier payment causes (a fine paid by its first attempt) is unknown
	// when this item may have been sent before (r1-money-resend F6).
	const quote = (await prepareQuote(ctx, itemIndex, qrCode).catch(async (error: Error) => {
		const code = serviceCode(error);
		if (code === undefined || !(PAID_BEFORE as readonly string[]).includes(code)) throw error;
		const call = { contract: money, itemIndex, key, pays, request: ACCEPTS };
		throw (await refusedAfterEarlierSend(ctx, call, code)) ?? error;
	})) as IDataObject;
	const idField = QUOTE_ID_FIELDS.find((field) => typeof quote[field] === 'string');
	if (!idField) {
		throw new NodeApiError(ctx.getNode(), quote as JsonObject, {
			message: 'The service prepared a quote without an ID, so it cannot be accepted',
			description: `Expected one of the fields ${QUOTE_ID_FIELDS.join(', ')} in the answer of POST /orders/prepare. Nothing was paid.`,
			itemIndex,
		});
	}
	// The key names the payment of this QR code, not the quote prepared for it just now.
	const order = await acceptQuote(ctx, itemIndex, quote[idField] as string, money, {
		key,
		first: { quote },
		quote,
		explain: { QUOTE_EXPIRED: EXPIRED, QUOTE_NOT_FOUND: EXPIRED },
		pays,
	});
	return withNodeFields(order, { quote });
}
