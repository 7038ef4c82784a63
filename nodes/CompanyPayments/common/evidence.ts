import type { IDataObject, IExecuteFunctions, NodeApiError } from 'n8n-workflow';

import { compareDetail } from '../../shared/money/evidence';
import { outcomeUnknownError } from '../../shared/transport';
import type { MoneyContract } from './money';

export { normaliseArgument } from '../../shared/money/evidence';

/*
 * Evidence of a payment: whether an answer (or a record found later) is the payment this call
 * asks for, detail by detail as the operation's money contract declares them, each by the one
 * table of nodes/shared/money/evidence.ts. Read by the router (an answer in normal mode) and by
 * tool mode (an answer, and a record found by lookup).
 */

export interface Difference extends IDataObject {
	field: string;
	asked: string;
	paid: string;
}

/** What a record shows of the details this call asks. */
export interface Reading {
	/** Details it shows with another value (masked: a digit it shows is another). */
	differences: Difference[];
	/** Details this call asks that it does not show (absent, or masked past reading). */
	notShown: string[];
}

/** Every declared detail this call asks, read against what `record` shows. */
export function readDetails(
	ctx: IExecuteFunctions,
	contract: MoneyContract,
	itemIndex: number,
	record: IDataObject,
): Reading {
	const reading: Reading = { differences: [], notShown: [] };
	for (const detail of contract.details) {
		const asked = detail.asked(ctx, itemIndex, record);
		if (asked === undefined || asked === null) continue;
		const shown = detail.answered(record);
		const verdict = compareDetail(detail.kind ?? 'value', asked, shown);
		if (verdict === 'not_shown') reading.notShown.push(detail.name);
		if (verdict !== 'differs') continue;
		const show = detail.show ?? ((value: unknown) => String(value));
		reading.differences.push({ field: detail.name, asked: show(asked), paid: show(shown) });
	}
	return reading;
}

/**
 * How an answer to this call's write differs from what this call asks, one entry per declared
 * detail it shows with another value; empty when they agree. A detail the answer does not show is
 * no difference here (the answer to this write, not evidence of a payment found later: that is
 * `readDetails`).
 */
export function differences(
	ctx: IExecuteFunctions,
	contract: MoneyContract,
	itemIndex: number,
	answer: IDataObject,
): Difference[] {
	return readDetails(ctx, contract, itemIndex, answer).differences;
}

/**
 * The error of a money write whose answer is another payment than the one asked for: the service
 * answered with details other than this item's (an earlier payment stored under the same key, or
 * this one written the service's own way). The write was sent, so the outcome is unknown: never
 * "nothing was paid", and never this payment.
 */
export function answerDiffers(
	ctx: IExecuteFunctions,
	contract: MoneyContract,
	itemIndex: number,
	diff: Difference[],
): NodeApiError {
	const what = diff.map((d) => `${d.field} ${d.paid} (this item asked ${d.asked})`).join(', ');
	const given = ctx.getNodeParameter('idempotencyKey', itemIndex, '');
	const key = typeof given === 'string' && given.trim() !== '' ? ` "${given.trim()}"` : '';
	return outcomeUnknownError(ctx.getNode(), contract, {
		reason: `the service answered with a payment whose details differ from this item's (${what}): it may be an earlier payment the service stored under the same Idempotency-Key${key}, so this one may not have been made, or this one written the service's own way`,
		lines: [`Differences: ${what}`],
		itemIndex,
	});
}
