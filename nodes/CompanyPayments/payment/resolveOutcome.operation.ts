import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { isObject } from '../../shared/contract/guards';
import {
	bindingProblem,
	companyFingerprint,
	readSentWrite,
	resolveSentWrite,
	runsAsAgentTool,
	sealOf,
} from '../../shared/money';
import type { OperationDefinition } from '../types';
import { show } from '../common/validation';
import { MONEY_WRITES } from './writes';

const FIELD = 'Unknown Item';

/** The argument the model fills as a tool, and what it reads about it (n8n's tool schema). */
const ITEM_FOR_MODEL_KEY = 'unknownItem';
const ITEM_FOR_MODEL =
	'The whole answer of the money call whose paymentOutcome was unknown, exactly as it came back (an object with paymentOutcome, errorCode and sentWrite). Never edit it or write one yourself: only its sealed sentWrite can be looked up';

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
	// As a tool the model passes the item; in a workflow the field takes it from the input.
	const fix = runsAsAgentTool(ctx)
		? `Call this tool again with "${FIELD}" set to the whole answer of the money call that came out with paymentOutcome "unknown", exactly as it came back (never edited or written by you).`
		: `Set "${FIELD}" on item ${itemIndex} to the whole item that came out of a money operation with paymentOutcome "unknown" (its error output, or its output with Continue On Fail): {{ $json }}.`;
	return new NodeOperationError(ctx.getNode(), `${FIELD} ${rule}, got ${got}`, {
		itemIndex,
		description: `Nothing was sent to the service. ${fix}`,
	});
}

/**
 * A refusal of an item that carries a sent write (r16-money F4): the node could not check it, so
 * the payment it names stays unknown. The error keeps paymentOutcome "unknown", the sent write as
 * the item gave it and the refusal as `reason`, as a failed look-up does (keepSentWrite): with
 * Continue On Fail a Switch on paymentOutcome keeps the payment in its unknown branch, and the
 * item can be resolved again with the credential it was sent with.
 */
function refuseUnknown(
	ctx: IExecuteFunctions,
	itemIndex: number,
	rule: string,
	got: string,
	sentWrite: unknown,
	fix: string,
) {
	const error = new NodeOperationError(ctx.getNode(), `${FIELD} ${rule}, got ${got}`, {
		itemIndex,
		description: `The payment's outcome stays unknown (paymentOutcome "unknown", with the sentWrite the item carries): the node could not check this item, so it looked nothing up and sent nothing to the service. ${fix}`,
	});
	error.context.paymentOutcome = 'unknown';
	if (isObject(sentWrite)) error.context.sentWrite = sentWrite;
	error.context.reason = `${FIELD} ${rule}: ${got}`;
	return error;
}

/** What to do about an item the node refused to look up. */
function refusedFix(ctx: IExecuteFunctions, itemIndex: number, bound: boolean): string {
	const byHand =
		'Until then treat the payment as possibly made: look it up by hand (its sentWrite names the operation, the time it was sent, its External ID and details) before paying it again.';
	if (bound) {
		return `Resolve the item exactly as the money operation put it out, with the credential it was sent with (the same API key and Base URL). ${byHand}`;
	}
	return runsAsAgentTool(ctx)
		? `Call this tool again with "${FIELD}" set to the whole answer of the money call exactly as it came back, never edited or written by you. ${byHand}`
		: `Set "${FIELD}" on item ${itemIndex} to the item exactly as the money operation put it out ({{ $json }}), never edited. ${byHand}`;
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
		text: 'Find out whether a money call whose outcome was unknown was made. Needs: Unknown Item, the whole answer the money call returned, passed exactly as it came (with paymentOutcome "unknown" and sentWrite; never edited or written by you: an item without a sealed sentWrite is answered unknown, never not_paid). Returns paymentOutcome (paid, not_paid or unknown), reason, record, missing, lookAgainAt, whatToDo. Reads only; never pays.',
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
			displayOptions: { show: { '@tool': [false] } },
		},
		{
			// As an agent's tool the incoming item is the agent's, not the money call's answer: the
			// model passes that answer (the outside reader of the tool, finding 3).
			displayName: FIELD,
			name: 'unknownItem',
			type: 'json',
			default: `={{ $fromAI('${ITEM_FOR_MODEL_KEY}', '${ITEM_FOR_MODEL}', 'json') }}`,
			required: true,
			description:
				'As a tool: filled by the model with the whole answer of the money call that came out unknown',
			hint: 'Filled by the model by default',
			displayOptions: { show: { '@tool': [true] } },
		},
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const item = readItem(this, itemIndex);
		// The failed item's message: `message` inside the error output's `error`, else `error`.
		const message = item.message ?? item.error;
		if (item.sentWrite === undefined) return claimed(item, message);
		const sent = readSentWrite(item.sentWrite);
		if (typeof sent === 'string') {
			throw refuseUnknown(
				this,
				itemIndex,
				'must carry the sentWrite this node sealed',
				sent,
				item.sentWrite,
				refusedFix(this, itemIndex, false),
			);
		}
		const operation = MONEY_WRITES[sent.operation];
		if (!operation?.money) {
			throw refuseUnknown(
				this,
				itemIndex,
				'must come from a money operation of this node',
				`sentWrite.operation ${show(sent.operation)}`,
				item.sentWrite,
				refusedFix(this, itemIndex, false),
			);
		}
		// The binding rule (issue 49.1): this company and Base URL, sealed by this node.
		const problem = await bindingProblem(this, itemIndex, item.sentWrite as IDataObject, sent);
		if (problem) {
			throw refuseUnknown(
				this,
				itemIndex,
				'must be bound to this credential',
				problem,
				item.sentWrite,
				refusedFix(this, itemIndex, true),
			);
		}
		try {
			return await resolveSentWrite(
				this,
				operation.money,
				itemIndex,
				sent,
				item.sentWrite as IDataObject,
				operation.action,
			);
		} catch (error) {
			throw keepSentWrite(error, item.sentWrite as IDataObject);
		}
	},
};

/**
 * A look-up that failed (the service down, a 503 after the retries): the error item keeps the
 * outcome unknown and the sealed sent write (the outside reader's finding 8), so with Continue On
 * Fail the loop Resolve → Wait → Resolve on `{{ $json }}` goes on. The service's own fields
 * (httpCode, serviceMessage, requestId) stay; `errorCode` is OUTCOME_UNKNOWN, as on every unknown.
 */
function keepSentWrite(error: unknown, sentWrite: IDataObject): unknown {
	if (!(error instanceof NodeApiError) && !(error instanceof NodeOperationError)) return error;
	error.context.paymentOutcome = 'unknown';
	error.context.sentWrite = sentWrite;
	return error;
}

/**
 * An item without a sent write (the outside readers' findings 2 and tool 5): nothing in it can be
 * looked up or checked, so what it claims is never repeated: not `paid`, and not `not_paid` either
 * (an item written by hand or by a model saying not_paid would otherwise release a payment the
 * service made). It is answered `unknown`, `verified: false`, with no lookAgainAt (looking again
 * cannot tell more). An item the node put out as a refusal (not_paid) needs no resolving: route
 * it by its paymentOutcome before Resolve Outcome.
 */
function claimed(item: IDataObject, message: unknown) {
	const said = typeof message === 'string' ? ` (${message})` : '';
	const says =
		item.paymentOutcome === 'paid' || item.paymentOutcome === 'not_paid'
			? `The item says ${String(item.paymentOutcome)}${said} but carries no sentWrite sealed by this node`
			: `The item came out unknown but carries no sentWrite${said}`;
	return {
		paymentOutcome: 'unknown',
		operation: null,
		reason: `${says}, so it proves nothing: nothing in it can be looked up, the node checked nothing with the service and repeats no outcome an item claims.`,
		record: null,
		missing: ['sentWrite'],
		differences: [],
		lookAgainAt: null,
		whatToDo:
			item.paymentOutcome === 'not_paid'
				? "If this item is a refusal that came out of this node's money operation, nothing was paid by it: route such items by paymentOutcome before Resolve Outcome, fix what its error says and run it again. An item written by hand or by a model proves nothing: look the payment up first."
				: `Look it up yourself: ${String(item.description ?? message ?? 'see the error of the money operation')}`,
		fundsReturned: false,
		verified: false,
	};
}
