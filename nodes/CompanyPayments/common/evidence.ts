import type { IDataObject, IExecuteFunctions, NodeApiError } from 'n8n-workflow';

import { outcomeUnknownError } from '../../shared/transport';
import { UUID } from '../../shared/transport/idempotency';
import type { MoneyContract, MoneyDetail } from './money';

/*
 * Evidence of a payment: whether an answer (or a record found later) is the payment this call
 * asks for, detail by detail as the operation's money contract declares them. Read by the router
 * (an answer in normal mode) and by tool mode (an answer, and a record found by lookup).
 */

const PLAIN_DECIMAL = /^[+-]?\d+(\.\d+)?$/;
const SEPARATED_NUMBER = /^\+?[\d\s().-]+$/;

/**
 * One value as the service would understand it, so the same request written two ways compares
 * equal: text trimmed, "1500.50" and 1500.5 alike, a card or phone number without its spaces,
 * dashes and brackets, a UUID in lower case, empty values and their absence alike, object keys
 * in order.
 */
export function normaliseArgument(value: unknown): unknown {
	if (value === null || value === undefined) return undefined;
	if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
	if (typeof value === 'boolean') return value;
	if (typeof value === 'string') {
		const text = value.trim().replace(/\s+/g, ' ');
		if (text === '') return undefined;
		if (PLAIN_DECIMAL.test(text)) {
			const [whole, fraction = ''] = text.replace(/^\+/, '').split('.');
			const kept = fraction.replace(/0+$/, '');
			return kept === '' ? whole : `${whole}.${kept}`;
		}
		if (SEPARATED_NUMBER.test(text) && text.replace(/\D/g, '').length >= 7) {
			return `${text.startsWith('+') ? '+' : ''}${text.replace(/\D/g, '')}`;
		}
		return UUID.test(text) ? text.toLowerCase() : text;
	}
	if (Array.isArray(value)) return value.map(normaliseArgument);
	if (typeof value === 'object') {
		const out: Record<string, unknown> = {};
		for (const key of Object.keys(value as object).sort()) {
			const normal = normaliseArgument((value as Record<string, unknown>)[key]);
			if (normal !== undefined) out[key] = normal;
		}
		return Object.keys(out).length === 0 ? undefined : out;
	}
	return String(value);
}

function sameValue(
	detail: MoneyDetail,
	asked: unknown,
	answered: unknown,
	evidence: boolean,
): boolean {
	if (detail.same) return detail.same(asked, answered, evidence);
	return JSON.stringify(normaliseArgument(asked)) === JSON.stringify(normaliseArgument(answered));
}

export interface Difference extends IDataObject {
	field: string;
	asked: string;
	paid: string;
}

/**
 * How an answer (or a found record) differs from what this call asks, one entry per declared
 * detail that both name; empty when they agree.
 */
export function differences(
	ctx: IExecuteFunctions,
	contract: MoneyContract,
	itemIndex: number,
	answer: IDataObject,
	/** Whether the answer is a record found later, which must prove each detail. */
	evidence = false,
): Difference[] {
	const out: Difference[] = [];
	for (const detail of contract.details) {
		const asked = detail.asked(ctx, itemIndex, answer);
		const answered = detail.answered(answer);
		if (asked === undefined || asked === null || answered === undefined || answered === null) {
			continue;
		}
		if (sameValue(detail, asked, answered, evidence)) continue;
		const show = detail.show ?? ((value: unknown) => String(value));
		out.push({ field: detail.name, asked: show(asked), paid: show(answered) });
	}
	return out;
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
