import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { ASSUMED_ENDPOINTS, LIST_ITEMS_KEYS } from '../../shared/contract/assumptions';
import { listRecords } from '../../shared/pager';
import { canonicalReference } from '../../shared/transport/idempotency';
import { normaliseArgument, paymentReference, runsAsAgentTool } from './mode';
import { readCardExternalId, readCardId, readTargetAmount } from '../card/fields';
import { optionalText, requireAmount } from '../common/validation';
import { readPayoutId } from '../payout/fields';
import { withFundsReturned } from '../payout/fundsReturned';
import { maskRequisite } from '../../shared/gate';
import { readRequisite } from '../payout/requisite';

/**
 * The payment reference rule of money-moving tools (AI Agent and MCP Server Trigger alike): the
 * Idempotency-Key is derived from the reference (transport/idempotency.ts, `referenceKey`), so
 * the same reference asked again never pays twice, and this module makes sure it is never
 * answered with an earlier payment as if it were the one asked for:
 *
 * - after the call, what the answer says (amount, recipient, card, payout) is compared with what
 *   was asked; a difference means the service answered with the payment stored under the
 *   reference, and the call is reported as a conflict;
 * - Payout Create, whose endpoint the document does not show (so no replay by key is promised),
 *   first looks the payout up by its External ID (the reference, unless the user set one) and
 *   returns the one it finds instead of creating another (docs/assumptions.md).
 */

/** One detail of a money-moving call: what was asked, and where the answer says it. */
interface Detail {
	name: string;
	asked: (ctx: IExecuteFunctions, itemIndex: number, answer: IDataObject) => unknown;
	answered: (answer: IDataObject) => unknown;
	/** How a value is shown in the conflict message (a recipient's number masked). */
	show?: (value: unknown) => string;
}

function field(record: unknown, ...path: string[]): unknown {
	let value: unknown = record;
	for (const key of path) {
		if (typeof value !== 'object' || value === null) return undefined;
		value = (value as IDataObject)[key];
	}
	return value;
}

const showRequisite = (value: unknown) => maskRequisite(String(value));

/**
 * The payment reference as it names the payment (canonicalReference: "INV-1042" and "inv-1042 "
 * alike), when the node runs as a tool and has one.
 */
function toolReference(ctx: IExecuteFunctions, itemIndex: number): string | undefined {
	if (!runsAsAgentTool(ctx)) return undefined;
	const reference = paymentReference(ctx, itemIndex);
	return reference === '' ? undefined : canonicalReference(reference);
}

/**
 * The External ID a payout created by a tool carries: the one the user (or the model) set, else
 * the payment reference as it names the payment, so that the payout can be found by it before it
 * is ever created again, however the reference is written next time (a service may filter
 * External ID exactly).
 */
export function payoutExternalId(
	ctx: IExecuteFunctions,
	itemIndex: number,
	additional: IDataObject,
): string | undefined {
	const set = optionalText(ctx, itemIndex, additional.externalId, 'External ID');
	return set ?? toolReference(ctx, itemIndex);
}

function additionalFields(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	return (ctx.getNodeParameter('additionalFields', itemIndex, {}) ?? {}) as IDataObject;
}

function requisiteOf(ctx: IExecuteFunctions, itemIndex: number) {
	return readRequisite(
		ctx,
		itemIndex,
		ctx.getNodeParameter('requisiteType', itemIndex, 'card') as string,
		ctx.getNodeParameter('requisite', itemIndex, ''),
	);
}

/**
 * What each money-moving operation's answer can be checked against. Accept Quote is missing on
 * purpose: the Order it answers with does not name its quote, so nothing in it shows whether it
 * is the quote asked for (docs/ai-agents.md says so).
 */
const DETAILS: Record<string, Detail[]> = {
	'payout.create': [
		{
			name: 'amountRub',
			asked: (ctx, i) => requireAmount(ctx, i, 'amountRub', 'Amount (RUB)'),
			answered: (a) => a.amountRub,
		},
		{
			name: 'requisiteType',
			asked: (ctx, i) => requisiteOf(ctx, i).requisiteType,
			answered: (a) => a.requisiteType,
		},
		{
			name: 'requisite',
			asked: (ctx, i) => requisiteOf(ctx, i).requisite,
			answered: (a) => a.requisite,
			show: showRequisite,
		},
		{
			name: 'externalId',
			asked: (ctx, i) => payoutExternalId(ctx, i, additionalFields(ctx, i)),
			answered: (a) => a.externalId,
		},
	],
	'payout.cancel': [
		{ name: 'payoutId', asked: (ctx, i) => readPayoutId(ctx, i), answered: (a) => a.id },
	],
	'card.recharge': [
		{ name: 'cardId', asked: (ctx, i) => readCardId(ctx, i), answered: (a) => a.cardId },
		{
			name: 'targetAmount',
			asked: (ctx, i) => readTargetAmount(ctx, i),
			answered: (a) => a.targetAmount,
		},
	],
	'card.request': [
		{
			name: 'externalId',
			asked: (ctx, i) => readCardExternalId(ctx, i, ctx.getNodeParameter('externalId', i, '')),
			answered: (a) => field(a, 'request', 'externalId') ?? field(a, 'card', 'externalId'),
		},
	],
	// Pay QR Code prepares a new quote on every call: a stored order for another QR code shows
	// in an amount or merchant other than the new quote's.
	'order.pay': [
		{
			name: 'amountRub',
			asked: (_c, _i, a) => field(a, 'quote', 'amountRub'),
			answered: (a) => a.amountRub,
		},
		{
			name: 'merchantName',
			asked: (_c, _i, a) => field(a, 'quote', 'merchantName'),
			answered: (a) => a.merchantName,
		},
	],
};

/** A requisite in an answer may be masked: then only its last four digits can be compared. */
/** How many trailing digits name a phone line whatever its country prefix (8 999… is +7 999…). */
const PHONE_DIGITS = 10;

function same(name: string, asked: unknown, answered: unknown): boolean {
	if (name === 'externalId' && typeof asked === 'string' && typeof answered === 'string') {
		return canonicalReference(asked) === canonicalReference(answered);
	}
	if (name === 'requisite' && typeof answered === 'string') {
		const askedDigits = String(asked).replace(/\D/g, '');
		const answeredDigits = answered.replace(/\D/g, '');
		// Masked by the service (•••• 9012): only the last four digits can be compared.
		if (/\D/.test(answered.replace(/^\+/, '').replace(/[\s()-]/g, ''))) {
			return askedDigits.slice(-4) === answeredDigits.slice(-4);
		}
		// A phone number comes back in the service's own form (+7…, 8…): the line is the same
		// when its national digits are. A card number (16 to 19 digits) must match whole.
		if (askedDigits.length <= 15 && answeredDigits.length <= 15) {
			return askedDigits.slice(-PHONE_DIGITS) === answeredDigits.slice(-PHONE_DIGITS);
		}
		return askedDigits === answeredDigits;
	}
	return JSON.stringify(normaliseArgument(asked)) === JSON.stringify(normaliseArgument(answered));
}

export interface Difference extends IDataObject {
	field: string;
	asked: string;
	paid: string;
}

/**
 * How the answer to a money-moving call differs from what was asked, one entry per detail that
 * both name; empty when they agree (or nothing can be compared).
 */
export function differences(
	ctx: IExecuteFunctions,
	resource: string,
	operation: string,
	itemIndex: number,
	answer: IDataObject,
): Difference[] {
	const out: Difference[] = [];
	for (const detail of DETAILS[`${resource}.${operation}`] ?? []) {
		const asked = detail.asked(ctx, itemIndex, answer);
		const answered = detail.answered(answer);
		if (asked === undefined || asked === null || answered === undefined || answered === null) {
			continue;
		}
		if (same(detail.name, asked, answered)) continue;
		const show = detail.show ?? ((value: unknown) => String(value));
		out.push({ field: detail.name, asked: show(asked), paid: show(answered) });
	}
	return out;
}

/**
 * Reads every detail that can be compared, so that a value that breaks its rule is refused
 * (with the field, the rule and the value) before any request, the payout lookup included.
 */
export function checkDetails(
	ctx: IExecuteFunctions,
	resource: string,
	operation: string,
	itemIndex: number,
): void {
	differences(ctx, resource, operation, itemIndex, {});
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

/**
 * Payout Create as a tool: the payout already created under this External ID, or under the
 * payment reference (a call that sets an External ID of its own for a reference already paid
 * finds that payment, and is then reported as a conflict), if any. The list filter is sent and
 * checked here as well, in case the service ignores it.
 */
export async function existingPayout(
	ctx: IExecuteFunctions,
	itemIndex: number,
): Promise<IDataObject | undefined> {
	const externalIds = new Set(
		[
			payoutExternalId(ctx, itemIndex, additionalFields(ctx, itemIndex)),
			toolReference(ctx, itemIndex),
		].filter((id): id is string => id !== undefined),
	);
	for (const externalId of externalIds) {
		const records = await listRecords.call(ctx, {
			path: ASSUMED_ENDPOINTS.payoutList.path,
			qs: { externalId },
			itemsKey: LIST_ITEMS_KEYS.payouts,
			itemIndex,
			returnAll: true,
		});
		// One payment however the reference was written ("INV-1042", "inv-1042 "): compared as it
		// names the payment (canonicalReference), like the key.
		const wanted = canonicalReference(externalId);
		const found = records.find(
			(record) =>
				typeof record.externalId === 'string' && canonicalReference(record.externalId) === wanted,
		);
		if (found) return withFundsReturned(found);
	}
	return undefined;
}
