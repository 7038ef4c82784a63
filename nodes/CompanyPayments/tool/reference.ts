import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { toolExternalId } from '../common/money';
import type { MoneyContract, MoneyDetail } from '../common/money';
import { UUID, canonicalReference } from '../../shared/transport/idempotency';

/*
 * The payment reference rule of money-moving tools (AI Agent and MCP Server Trigger alike), read
 * from each operation's money contract (common/money.ts): the Idempotency-Key, and the External
 * ID where the contract names an identity field, are the reference's identity, so the same
 * reference asked again never pays twice, and this module makes sure it is never answered with
 * an earlier payment as if it were the one asked for:
 *
 * - before the call, where the contract gives a lookup, the payment is looked up by its identity:
 *   a record found counts as this payment only when it carries the identity the node gave this
 *   payment and every declared detail matches (evidence); a record that carries it with other
 *   details is a conflict;
 * - after the call, what the answer says is compared with what was asked; a difference means the
 *   service answered with the payment stored under the reference, and the call is a conflict.
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

function sameValue(detail: MoneyDetail, asked: unknown, answered: unknown): boolean {
	if (detail.same) return detail.same(asked, answered);
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
): Difference[] {
	const out: Difference[] = [];
	for (const detail of contract.details) {
		const asked = detail.asked(ctx, itemIndex, answer);
		const answered = detail.answered(answer);
		if (asked === undefined || asked === null || answered === undefined || answered === null) {
			continue;
		}
		if (sameValue(detail, asked, answered)) continue;
		const show = detail.show ?? ((value: unknown) => String(value));
		out.push({ field: detail.name, asked: show(asked), paid: show(answered) });
	}
	return out;
}

/**
 * Reads every detail this call asks, so that a value that breaks its rule is refused (with the
 * field, the rule and the value) before any request, the lookup included.
 */
export function checkDetails(
	ctx: IExecuteFunctions,
	contract: MoneyContract,
	itemIndex: number,
): void {
	differences(ctx, contract, itemIndex, {});
}

/** What a lookup found of this payment. */
export type Found =
	| { kind: 'none' }
	/** A record that carries this payment's identity and matches every declared detail. */
	| { kind: 'this'; record: IDataObject }
	/** A record that carries this payment's identity with other details. */
	| { kind: 'conflict'; record: IDataObject; diff: Difference[] };

/**
 * The payment as the contract's lookup finds it by its identity. Only a record that carries the
 * identity exactly counts (a list that ignores its filter, or filters loosely, returns others),
 * and only with every declared detail matching is it this payment.
 */
export async function lookUpPayment(
	ctx: IExecuteFunctions,
	contract: MoneyContract,
	itemIndex: number,
): Promise<Found> {
	const { identity, lookup } = contract;
	if (!identity || !lookup) return { kind: 'none' };
	const wanted = toolExternalId(ctx, itemIndex, identity.maxLength);
	if (wanted === undefined) return { kind: 'none' };
	// Carried as sent, or as the service may write it back (letter case, spaces).
	const carrying = (await lookup(ctx, itemIndex, wanted)).filter((record) => {
		const carried = identity.answered(record);
		return typeof carried === 'string' && canonicalReference(carried) === wanted;
	});
	if (carrying.length === 0) return { kind: 'none' };
	for (const record of carrying) {
		if (differences(ctx, contract, itemIndex, record).length === 0) return { kind: 'this', record };
	}
	const record = carrying[0];
	return { kind: 'conflict', record, diff: differences(ctx, contract, itemIndex, record) };
}

/** The conflict the model reads when a reference already names another payment. */
export function conflictError(
	reference: string,
	found: IDataObject,
	diff: Difference[],
): IDataObject {
	const what = diff.map((d) => `${d.field} ${d.paid} (this call asked ${d.asked})`).join(', ');
	return {
		error: {
			message: `Conflict: payment reference "${reference}" already names another payment (${what}). Nothing new was paid by this call.`,
			errorCode: 'PAYMENT_REFERENCE_CONFLICT',
			paymentReference: reference,
			paid: 'not by this call',
			existingPaymentId: typeof found.id === 'string' ? found.id : null,
			differences: diff,
			whatToDo:
				'If this is the same payment, call again with exactly its earlier details. If it is a different payment, ask the user for the reference that names it (e.g. its own invoice or ticket ID) and call with that. Never invent a reference to get around this.',
		},
	};
}
