import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isObject } from '../../shared/contract/guards';
import {
	bindingProblem,
	companyFingerprint,
	readSentWrite,
	resolveSentWrite,
	sealOf,
} from '../../shared/money';
import type { OperationDefinition } from '../types';
import { show } from '../common/validation';
import { MONEY_WRITES } from './writes';

const FIELD = 'Unknown Item';

/** An example of the field's value: an item from Payout Cancel's error output, unsealed. */
const UNKNOWN_ITEM = {
	paymentOutcome: 'unknown',
	errorCode: 'OUTCOME_UNKNOWN',
	sentWrite: {
		operation: 'payout.cancel',
		sentAt: '2026-11-28T10:00:00.000Z',
		identity: null,
		details: { payoutId: 'po_typed_1' },
	},
};

/**
 * The example as JSON text, sealed for one credential (binding.ts): what Payout Cancel's error
 * output would carry had it run with that API key at that Base URL (tests, docs).
 */
export function unknownItemExample(apiKey: string, baseUrl: string): string {
	const sent: IDataObject = {
		...UNKNOWN_ITEM.sentWrite,
		company: companyFingerprint(apiKey, baseUrl),
		skewMs: 0,
	};
	sent.seal = sealOf(apiKey, sent);
	return JSON.stringify({ ...UNKNOWN_ITEM, sentWrite: sent });
}

function refuse(ctx: IExecuteFunctions, itemIndex: number, rule: string, got: string) {
	return new NodeOperationError(ctx.getNode(), `${FIELD} ${rule}, got ${got}`, {
		itemIndex,
		description: `Nothing was sent to the service. Set "${FIELD}" on item ${itemIndex} to the whole item that came out of a money operation with paymentOutcome "unknown" (its error output, or its output with Continue On Fail): {{ $json }}.`,
	});
}

const RULE =
	"must be an item of a money operation's error output (with paymentOutcome; unknown ones with sentWrite)";

/** The outcomes a money operation's failed item carries. */
const KNOWN = ['paid', 'not_paid', 'unknown'];

/** The unknown item the field holds: an object, or its JSON text. */
function readItem(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const value = ctx.getNodeParameter('unknownItem', itemIndex, undefined) as unknown;
	if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
		throw refuse(ctx, itemIndex, 'must not be empty', show(value));
	}
	let item: unknown = value;
	if (typeof value === 'string') {
		try {
			item = JSON.parse(value);
		} catch {
			throw refuse(ctx, itemIndex, RULE, show(value));
		}
	}
	if (!isObject(item)) {
		const what = Array.isArray(item) ? `a list ${show(value)}` : show(value);
		throw refuse(ctx, itemIndex, RULE, what);
	}
	// From the error output the fields travel inside `error`, beside the input item (router.ts).
	const fields = item.paymentOutcome === undefined && isObject(item.error) ? item.error : item;
	const outcome = fields.paymentOutcome;
	if (!KNOWN.includes(String(outcome)) && fields.sentWrite === undefined) {
		const shown = outcome === undefined ? 'none' : show(outcome);
		throw refuse(
			ctx,
			itemIndex,
			RULE,
			`an object with paymentOutcome ${shown} and no sentWrite: ${show(value)}`,
		);
	}
	return fields;
}

export const resolveOutcome: OperationDefinition = {
	value: 'resolveOutcome',
	name: 'Resolve Outcome',
	action: 'Resolve an unknown payment outcome',
	description:
		'Find out whether a money write that came out unknown was made: paid (with the record), not paid (only where the record proves it), or still unknown (what is missing, when to look again). Reads only.',
	kind: 'read',
	concurrent: true,
	tool: {
		text: 'Find out whether a money call whose outcome was unknown was made. Needs: Unknown Item, the whole error the money call returned (with paymentOutcome "unknown" and sentWrite). Returns paymentOutcome (paid, not_paid or unknown), reason, record, missing, lookAgainAt, whatToDo. Reads only; never pays.',
	},
	docs: {
		endpoint:
			"what the sent write's operation reads: `GET /payouts?externalId=` (assumed) and `GET /payouts/{id}` (Payout Create), `GET /payouts/{id}` (Payout Cancel), `GET /cards?externalId=` and `GET /cards/{id}` (Card Request); none for the others",
		permission: 'those of the reads',
		notes:
			"Unknown Item (default `{{ $json }}`: the item from a money operation's error output, or its output with Continue On Fail, carrying `paymentOutcome` `unknown` and `sentWrite`). Output `paymentOutcome`: `paid` (with `record`), `not_paid` (only Payout Cancel, when the payout shows the cancel did not act) or `unknown` (with `missing`, `lookAgainAt`, `whatToDo`). See [Resolving an unknown outcome](errors.md#resolving-an-unknown-outcome).",
	},
	properties: [
		{
			displayName: FIELD,
			name: 'unknownItem',
			type: 'json',
			default: '={{ $json }}',
			required: true,
			description:
				'The item that came out of a money operation with paymentOutcome "unknown": its error output, or its output with Continue On Fail. The default expression takes the incoming item as it is.',
			hint: 'The item carries sentWrite: the operation, when it was sent, its External ID and the details it asked',
		},
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const item = readItem(this, itemIndex);
		// The failed item's message: `message` inside the error output's `error`, else `error`.
		const message = item.message ?? item.error;
		if (item.sentWrite === undefined) return claimed(item, message);
		const sent = readSentWrite(item.sentWrite);
		if (typeof sent === 'string') {
			throw refuse(this, itemIndex, 'must carry the sentWrite this node sealed', sent);
		}
		const operation = MONEY_WRITES[sent.operation];
		if (!operation?.money) {
			throw refuse(
				this,
				itemIndex,
				'must come from a money operation of this node',
				`sentWrite.operation ${show(sent.operation)}`,
			);
		}
		// The binding rule (issue 49.1): this company and Base URL, sealed by this node.
		const problem = await bindingProblem(this, itemIndex, item.sentWrite as IDataObject, sent);
		if (problem) {
			throw refuse(this, itemIndex, 'must be bound to this credential', problem);
		}
		return await resolveSentWrite(
			this,
			operation.money,
			itemIndex,
			sent,
			item.sentWrite as IDataObject,
			operation.action,
		);
	},
};

/**
 * An item without a sent write: what it claims is repeated, checked against nothing. Only a
 * refusal (not_paid) comes out of the node that way, so one Switch takes every failed item; a
 * "paid" without a sealed sent write is not the node's (it never reports paid on a failed item)
 * and proves nothing (issue 49.1: an item a model made up is never confirmed).
 */
function claimed(item: IDataObject, message: unknown) {
	const said = typeof message === 'string' ? ` (${message})` : '';
	const base = {
		operation: null,
		record: null,
		differences: [],
		lookAgainAt: null,
		verified: false,
	};
	if (item.paymentOutcome === 'not_paid') {
		return {
			...base,
			paymentOutcome: 'not_paid',
			reason: `The item says not_paid${said}: a refusal carries no sent write, so this repeats the item and checked nothing with the service.`,
			missing: [],
			whatToDo:
				'If this item came out of this node, nothing was paid: fix what its error says, then run it again. An item written by hand or by a model proves nothing: look the payment up first.',
		};
	}
	return {
		...base,
		paymentOutcome: 'unknown',
		reason:
			item.paymentOutcome === 'paid'
				? 'The item says paid but carries no sent write sealed by this node (the node never puts out a failed item as paid), so it proves nothing and nothing was looked up.'
				: `The item came out unknown but carries no sent write${said}: the node cannot look it up.`,
		missing: ['sentWrite'],
		whatToDo: `Look it up yourself: ${String(item.description ?? message ?? 'see the error of the money operation')}`,
	};
}
