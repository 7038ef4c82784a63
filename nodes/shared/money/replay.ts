import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { MoneyContract } from './contract';
import { readDetails } from './evidence';
import { givenKey, runsAsAgentTool } from './key';
import { outcomeUnknownError } from './outcome';

/*
 * A stored answer replayed for a key that names a payment (outside money test F4, F6; r1-money-resend F4,
 * 50.5, 50.9). Where the document promises replay by key (Accept Quote, Pay QR Code), a key the
 * user set (an Idempotency Key) or a tool's payment reference may have been used before: for this
 * same payment (an earlier attempt of this item, a re-run in another process), or for another
 * one. The service then answers with the order stored for the key, which names no quote. It is
 * judged by what it shows, never by a clock (a service clock minutes behind, a front proxy's Date):
 *
 * - an order whose amount or merchant differ from this payment's quote may be another payment's
 *   or this one written the service's own way: unknown (router.ts answerDiffers);
 * - a detail the quote or the order does not show is no evidence: the outcome is unknown;
 * - an order whose details match is this payment, whatever its time.
 *
 * Accept Quote alone reads no quote: its order is compared with nothing, and is this payment's
 * (the document's promise for the key the user set for it). docs/assumptions.md ("A replayed
 * order") states the choice and its cost.
 */

/** Whether this call's key may have named another payment before: set by the user, or a reference. */
export function keyNamesPayment(ctx: IExecuteFunctions, itemIndex: number): boolean {
	if (runsAsAgentTool(ctx)) return true;
	return givenKey(ctx, itemIndex) !== '';
}

/**
 * Checks an accept's answer (`answer`: the order, with the quote under `quote` where the details
 * read it) against this call's quote; throws when it is an earlier payment, or cannot be shown to
 * be this one.
 */
export function checkReplayedOrder(
	ctx: IExecuteFunctions,
	contract: MoneyContract,
	itemIndex: number,
	answer: IDataObject,
): void {
	if (!keyNamesPayment(ctx, itemIndex)) return;
	// Never from a clock (r1-money-resend F9): an order of this key whose details match this payment's
	// quote is this payment, whenever it was made (an earlier attempt of this item, another
	// process's run, a service clock minutes behind). Only details that differ name another one.
	const reading = readDetails(ctx, contract, itemIndex, answer);
	// Another amount or merchant: another payment's stored order, or this payment written the
	// service's own way (a fresh order of this key); without a clock nothing tells them apart, so
	// the caller reports it as unknown (evidence.ts answerDiffers), never as paid or not paid.
	if (reading.differences.length > 0) return;
	// A detail the quote leaves out is not asked by readDetails; here it is no evidence either
	// (null is shown: an order's merchantName may be null, and then both say "none").
	const unasked = contract.details
		.filter((detail) => detail.asked(ctx, itemIndex, answer) === undefined)
		.map((detail) => detail.name);
	const notShown = [...unasked, ...reading.notShown];
	if (notShown.length > 0) {
		const what = notShown.join(', ');
		throw outcomeUnknownError(ctx.getNode(), contract, {
			reason: `the quote or the order does not show its ${what}, and this key may name an earlier payment whose stored order the service replays, so the order cannot be shown to be this quote's payment`,
			lines: [`Order: ${String(answer.id)}`, `Not shown: ${what}`],
			itemIndex,
		});
	}
}

/**
 * The fields a failed item carries when the node refused this payment for an earlier one:
 * `errorCode` (IDEMPOTENCY_KEY_REUSED, or PAYMENT_REFERENCE_CONFLICT as a tool) and
 * `existingPaymentId`, the earlier order. Empty for any other error.
 */
export function earlierPaymentFields(error: unknown): IDataObject {
	if (!(error instanceof NodeApiError)) return {};
	const { context } = error;
	const fields: IDataObject = {};
	if (typeof context.moneyErrorCode === 'string') fields.errorCode = context.moneyErrorCode;
	if (typeof context.existingPaymentId === 'string') {
		fields.existingPaymentId = context.existingPaymentId;
	}
	return fields;
}
