import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isObject } from '../../shared/contract/guards';
import { readSentWrite, resolveSentWrite } from '../../shared/money';
import type { OperationDefinition } from '../types';
import { show } from '../common/validation';
import { MONEY_WRITES } from './writes';

const FIELD = 'Unknown Item';

/** An example of the field's value, as JSON text: an item from Payout Cancel's error output. */
export const UNKNOWN_ITEM_EXAMPLE = JSON.stringify({
	paymentOutcome: 'unknown',
	errorCode: 'OUTCOME_UNKNOWN',
	sentWrite: {
		operation: 'payout.cancel',
		sentAt: '2026-11-28T10:00:00.000Z',
		identity: null,
		details: { payoutId: 'po_typed_1' },
	},
});

function refuse(ctx: IExecuteFunctions, itemIndex: number, rule: string, got: string) {
	return new NodeOperationError(ctx.getNode(), `${FIELD} ${rule}, got ${got}`, {
		itemIndex,
		description: `Nothing was sent to the service. Set "${FIELD}" on item ${itemIndex} to the whole item that came out of a money operation with paymentOutcome "unknown" (its error output, or its output with Continue On Fail): {{ $json }}.`,
	});
}

const RULE =
	'must be an item of a money operation\'s error output (with paymentOutcome; unknown ones with sentWrite)';

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
		endpoint: 'what the sent write\'s operation reads: `GET /payouts?externalId=` (assumed) and `GET /payouts/{id}` (Payout Create), `GET /payouts/{id}` (Payout Cancel), `GET /cards?externalId=` and `GET /cards/{id}` (Card Request); none for the others',
		permission: 'those of the reads',
		notes:
			'Unknown Item (default `{{ $json }}`: the item from a money operation\'s error output, or its output with Continue On Fail, carrying `paymentOutcome` `unknown` and `sentWrite`). Output `paymentOutcome`: `paid` (with `record`), `not_paid` (only Payout Cancel, when the payout shows the cancel did not act) or `unknown` (with `missing`, `lookAgainAt`, `whatToDo`). See [Resolving an unknown outcome](errors.md#resolving-an-unknown-outcome).',
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
		if (item.paymentOutcome !== 'unknown' && item.sentWrite === undefined) {
			// Its outcome is known already (a refusal: not_paid), so one Switch takes every failed item.
			return {
				paymentOutcome: item.paymentOutcome as string,
				operation: null,
				reason: `The item's outcome was already known: ${String(item.paymentOutcome)}${typeof message === 'string' ? ` (${message})` : ''}.`,
				record: null,
				missing: [],
				differences: [],
				lookAgainAt: null,
				whatToDo:
					item.paymentOutcome === 'not_paid'
						? 'Nothing was paid: fix what the error says, then run it again.'
						: 'Nothing: it was made.',
			};
		}
		const sent = readSentWrite(item.sentWrite);
		if (typeof sent === 'string') {
			// Came out unknown without what is needed to find it (e.g. Card Request's "no card").
			return {
				paymentOutcome: 'unknown',
				operation: null,
				reason: `The item came out unknown but carries no usable sent write (${sent}): the node cannot look it up.`,
				record: null,
				missing: ['sentWrite'],
				differences: [],
				lookAgainAt: null,
				whatToDo: `Look it up yourself: ${String(item.description ?? message ?? 'see the error of the money operation')}`,
			};
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
		return await resolveSentWrite(this, operation.money, itemIndex, sent, operation.action);
	},
};
