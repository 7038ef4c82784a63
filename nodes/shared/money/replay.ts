import type { IDataObject, IExecuteFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { QUOTE_TIME_FIELD } from '../contract/assumptions';
import { LINE_BREAK } from '../transport';
import { earliestCreated, marginWords } from './binding';
import type { MoneyContract } from './contract';
import { readDetails } from './evidence';
import type { Difference } from './evidence';
import { runsAsAgentTool } from './key';
import { IDEMPOTENCY_KEY_REUSED, markOutcome, outcomeUnknownError } from './outcome';

/*
 * A stored answer replayed for a key that names a payment (outside money test F4, F6). Where the
 * document promises replay by key (Accept Quote, Pay QR Code), a key the user set (an
 * Idempotency Key) or a tool's payment reference may have been used before for another quote: the
 * service then answers with that earlier order, which names no quote. The answer is this call's
 * payment only on evidence:
 *
 * - an order created before this call's quote was prepared is an earlier payment: by the quote's
 *   own time when it shows one (the service's clock on both sides, SERVICE_CLOCK_MARGIN_MS), else
 *   by this machine's clock just before the quote was asked for, moved onto the service's clock by
 *   the skew the accept's own answer measured (its Date header, clock.ts) less SKEW_MARGIN_MS, or
 *   less UNMEASURED_SKEW_MS when no answer carried a Date. This quote was not accepted by this call;
 * - an order whose details differ from the quote's may be an earlier payment or this one written
 *   the service's own way: unknown (evidence.ts answerDiffers);
 * - a detail the quote or the order does not show is no evidence: the outcome is unknown.
 *
 * A key the node derives for one item of one execution (Retry On Fail replays that item's first
 * order, of an earlier quote for the same QR code) or for one quote names this payment alone and is
 * not judged here, nor is a key this process already sent for the same payment (accept.operation.ts:
 * Retry On Fail under a key set by the user replays that payment's own order). docs/assumptions.md ("A replayed order") states the margins.
 */

/** How far an order may precede a quote's own time (both the service's clock). */
export const SERVICE_CLOCK_MARGIN_MS = 5_000;
/** When this call's quote was prepared, and by whose clock (local: with the measured skew). */
export interface Since {
	at: number;
	clock: 'service' | 'local';
	/** Local only: the service's clock minus this machine's, when measured (clock.ts). */
	skewMs?: number | null;
}

/** The quote's own time when it shows one (`createdAt`), else this machine's time `asked`. */
export function quotePreparedAt(quote: IDataObject, asked: number): Since {
	const time = quote[QUOTE_TIME_FIELD];
	const shown = typeof time === 'string' ? Date.parse(time) : Number.NaN;
	return Number.isFinite(shown) ? { at: shown, clock: 'service' } : { at: asked, clock: 'local' };
}

/** Whether a record was created before `since`, past the margin of its clock. */
export function createdBefore(record: IDataObject, since: Since): boolean {
	const created = typeof record.createdAt === 'string' ? Date.parse(record.createdAt) : Number.NaN;
	if (!Number.isFinite(created)) return false;
	if (since.clock === 'service') return created < since.at - SERVICE_CLOCK_MARGIN_MS;
	return created < earliestCreated({ sentAt: since.at, skewMs: since.skewMs ?? null });
}

/** Whether this call's key may have named another payment before: set by the user, or a reference. */
export function keyNamesPayment(ctx: IExecuteFunctions, itemIndex: number): boolean {
	if (runsAsAgentTool(ctx)) return true;
	const given = ctx.getNodeParameter('idempotencyKey', itemIndex, '');
	return typeof given === 'string' && given.trim() !== '';
}

function earlierPayment(
	ctx: IExecuteFunctions,
	itemIndex: number,
	order: IDataObject,
	why: string,
	differences: Difference[],
): NodeApiError {
	const tool = runsAsAgentTool(ctx);
	const code = tool ? 'PAYMENT_REFERENCE_CONFLICT' : IDEMPOTENCY_KEY_REUSED;
	const named = tool ? 'payment reference' : 'Idempotency Key';
	const id = typeof order.id === 'string' ? order.id : 'without an ID';
	const error = new NodeApiError(
		ctx.getNode(),
		{ errorCode: code, existingPaymentId: order.id ?? null, differences } as JsonObject,
		{
			message: `${code}: the service answered with an earlier order (${id}) stored under this ${named}, not with this quote: this payment was not made by this call`,
			description: [
				`The order ${id} ${why}. The service replays the answer it stored for a key, so this quote was not accepted and this QR code or quote was not paid by this call; order ${id} is the earlier payment the ${named} already names.`,
				`What to do: if that earlier order was this same payment, nothing more is needed. Otherwise give this payment its own ${named} (e.g. its own invoice or ticket number) and pay it with that; never reuse one ${named} for two payments.`,
			].join(LINE_BREAK),
			itemIndex,
		},
	);
	error.context.moneyErrorCode = code;
	if (typeof order.id === 'string') error.context.existingPaymentId = order.id;
	return markOutcome(error, 'not_paid');
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
	since: Since,
): void {
	if (!keyNamesPayment(ctx, itemIndex)) return;
	if (createdBefore(answer, since)) {
		const clock =
			since.clock === 'service'
				? "by the quote's own time"
				: `by this n8n machine's clock, allowing ${marginWords(since.skewMs ?? null)}`;
		throw earlierPayment(
			ctx,
			itemIndex,
			answer,
			`was created at ${String(answer.createdAt)}, before this quote was prepared (${new Date(since.at).toISOString()}, ${clock})`,
			[],
		);
	}
	const reading = readDetails(ctx, contract, itemIndex, answer);
	// Another amount or merchant may be this payment written the service's own way: the caller
	// reports it as unknown (evidence.ts answerDiffers, the tool's conflict 'sent').
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
