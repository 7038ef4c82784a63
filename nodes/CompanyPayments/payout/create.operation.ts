import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	ASSUMED_ENDPOINTS,
	EXTERNAL_ID_MAX_LENGTH,
	LIST_ITEMS_KEYS,
} from '../../shared/contract/assumptions';
import { ENDPOINTS } from '../../shared/contract/endpoints';
import { listRecords } from '../../shared/pager';
import { idempotencyKeyField } from '../common/fields';
import {
	carriedIdentity,
	identityText,
	moneyWrite,
	readMeasured,
	statusNotShown,
} from '../../shared/money';
import type { MoneyContract, Settled } from '../../shared/money';
import { optionalText, requireAmount, segment } from '../common/validation';
import type { OperationDefinition } from '../types';
import { fundsReturned, withFundsReturned } from './fundsReturned';
import { readRequisite } from './requisite';
import { maskRequisite } from '../../shared/gate';
import { CONFLICT, MONEY } from '../common/words';

/** The optional text fields of a payout, each sent under its own name when not empty. */
const optionalFields: INodeProperties[] = [
	{
		displayName: 'Bank ID',
		name: 'bankId',
		type: 'string',
		default: '',
		placeholder: 'e.g. tbank',
		description:
			"The ID of the recipient's bank. The service answers PAYOUT_BANK_REQUIRED when the requisite needs one.",
	},
	{
		displayName: 'External ID',
		name: 'externalId',
		type: 'string',
		default: '',
		placeholder: 'e.g. salary-2026-11-42',
		description: 'Your identifier for the payout; the payout webhook events carry it',
	},
	{
		displayName: 'Recipient First Name',
		name: 'recipientFirstName',
		type: 'string',
		default: '',
	},
	{
		displayName: 'Recipient Last Name',
		name: 'recipientLastName',
		type: 'string',
		default: '',
	},
];

function requisiteOf(ctx: IExecuteFunctions, itemIndex: number) {
	return readRequisite(
		ctx,
		itemIndex,
		ctx.getNodeParameter('requisiteType', itemIndex, 'card'),
		ctx.getNodeParameter('requisite', itemIndex, ''),
	);
}

function additionalOf(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	return (ctx.getNodeParameter('additionalFields', itemIndex, {}) ?? {}) as IDataObject;
}

/** An optional detail of the payout (bank, recipient names): compared when both sides name it. */
function optionalDetail(name: string, label: string) {
	return {
		name,
		asked: (ctx: IExecuteFunctions, i: number) => optionalField(ctx, i, name, label),
		answered: (answer: IDataObject) => answer[name],
		// A name or bank comes back in the service's own spelling (IVAN for Ivan).
		kind: 'text' as const,
	};
}

/** The fields that name the payment or where it goes: a number only as a safe integer. */
const IDENTITY_FIELDS = ['externalId', 'bankId'];

/**
 * An optional field of the payout as text. The External ID and the Bank ID name the payment: a
 * number there is refused unless it is a safe integer (outside r10-money F6, shared/money/key.ts
 * identityText), as for the Idempotency Key.
 */
function optionalField(
	ctx: IExecuteFunctions,
	itemIndex: number,
	name: string,
	label: string,
): string | undefined {
	const value = additionalOf(ctx, itemIndex)[name];
	const read = (given: unknown) => optionalText(ctx, itemIndex, given, label);
	return IDENTITY_FIELDS.includes(name)
		? identityText(ctx, itemIndex, value, label, read)
		: read(value);
}

/** The External ID the payout is sent with (shared/money/key.ts carriedIdentity). */
function externalIdOf(ctx: IExecuteFunctions, itemIndex: number): string | undefined {
	const given = optionalField(ctx, itemIndex, 'externalId', 'External ID');
	return carriedIdentity(ctx, itemIndex, money, given, 'External ID');
}

/** The payout states in which it was created and charged, and may still be on its way. */
const CHARGED = ['pending', 'waiting_trader', 'in_progress', 'success'];

/**
 * What a payout found again proves of the Create that made it (Resolve Outcome). It exists, so it
 * was made; the document gives no state in which a created payout moved no money for good: a
 * failed payout's money comes back only with `refundedAt`, and even then a refunded payout may
 * return to success and be charged again (payout.recharged). So `fail` stays unknown.
 */
function payoutCreated(record: IDataObject): Settled {
	// No status, answered or read again: unknown, by the money module's one rule.
	const unshown = statusNotShown(record);
	if (unshown) return unshown;
	const status = String(record.status);
	if (CHARGED.includes(status)) {
		return {
			outcome: 'paid',
			why:
				status === 'success'
					? 'The payout was made: status success.'
					: `The payout was created and the company balance charged: status ${status}, on its way to the recipient.`,
		};
	}
	const reason = `failReason ${String(record.failReason ?? 'not given')}`;
	if (status === 'fail') {
		const returned = fundsReturned(record);
		return {
			outcome: 'unknown',
			refunded: returned,
			why: returned
				? `The payout was created and failed (${reason}), and its money came back (refundedAt). The document lets a refunded payout return to success and be charged again (payout.recharged), so whether it ends paid is not known.`
				: returned === null
					? `The payout was created and failed (${reason}), and its refundedAt is ${JSON.stringify(record.refundedAt)}, which is not a time after it was created: whether its money came back is unknown (fundsReturned null), so the balance may still be charged.`
					: `The payout was created and failed (${reason}), but refundedAt is ${'refundedAt' in record ? 'not set' : 'not shown, even on the payout itself'}: the document calls it the only reliable sign that money was returned, so the balance may still be charged.`,
		};
	}
	return {
		outcome: 'unknown',
		why: `The payout was found in status "${status}", which the document does not list.`,
	};
}

/**
 * Payout Create's money contract. The endpoint is not shown, so no replay by key is promised:
 * sent once per key by this process. A payout carries an External ID: as a tool it is the
 * payment's identity, so a payout found by it later (in any n8n process) is this payment when its
 * amount and recipient match too.
 */
const money: MoneyContract = {
	what: 'the payout may have been created and the company balance charged',
	lookUp:
		'Payout > Get Many with the External ID you gave this payout (set one on every payout so it can be found), or Company Wallet > Get Balance History',
	replayByKey: false,
	// Refusals its own earlier payout causes (r1-money-resend F7): a payout to the same requisite a moment
	// ago, the active payouts it adds to. Unknown when this item may have been sent before (this
	// process sent it, or an Idempotency Key / External ID a re-run carries). INSUFFICIENT_BALANCE
	// and a taken External ID are then unknown too, for every money write (money/resent.ts,
	// r5-money F2; docs/assumptions.md, "A refusal after an earlier attempt").
	resentRefusals: ['PAYOUT_REQUISITE_COOLDOWN', 'PAYOUT_ACTIVE_LIMIT'],
	// The rule turned round (outside r7-money-a F1): when it may have been sent before, a refusal is
	// not paid only when no earlier attempt can cause it: these documented refusals of this
	// request's own values, authentication and permission, or a validation of another field than
	// its External ID (money/resent.ts freshRefusal). Any other refusal is unknown, with its sent
	// write (docs/assumptions.md, "A refusal after an earlier attempt").
	freshRefusals: [
		'PAYOUT_REQUISITE_INVALID',
		'PAYOUT_BANK_REQUIRED',
		'PAYOUT_BANK_UNKNOWN',
		'PAYOUT_OUTSIDE_WORKING_HOURS',
	],
	// Its answer is the payout made: a 2xx that is no payout record is unknown (r7-money-a F8).
	answerIsRecord: true,
	// A payout answered in a state Resolve Outcome's table does not call paid (outside r10-money
	// F1: `fail`, refunded or not, or a status the document does not list) is unknown with its
	// sent write, never a plain success; the same table decides both. A payout answered with no
	// status is unknown too, as its read-again is (outside r12-money F2).
	answerState: payoutCreated,
	// The payout answered is the record this write made: bound to it by the money module's one
	// rule (one record, one write; made after the send: r14-money F2, F3, r15-money F1).
	made: (answer) => answer,
	key: 'perItem',
	identity: {
		field: 'externalId',
		answered: (answer) => answer.externalId,
		maxLength: EXTERNAL_ID_MAX_LENGTH,
	},
	details: [
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
			show: (value) => maskRequisite(String(value)),
			kind: 'requisite',
		},
		{
			// The External ID sent: as a tool the payment's identity, and one of the user's or the
			// model's own is refused there (before any request, the lookup included).
			name: 'externalId',
			asked: (ctx, i) => externalIdOf(ctx, i),
			answered: (a) => a.externalId,
		},
		optionalDetail('bankId', 'Bank ID'),
		optionalDetail('recipientFirstName', 'Recipient First Name'),
		optionalDetail('recipientLastName', 'Recipient Last Name'),
	],
	async lookup(ctx, itemIndex, identity) {
		const records = await listRecords.call(ctx, {
			path: ASSUMED_ENDPOINTS.payoutList.path,
			qs: { externalId: identity },
			itemsKey: LIST_ITEMS_KEYS.payouts,
			itemIndex,
			returnAll: true,
		});
		return records.map(withFundsReturned);
	},
	async read(ctx, itemIndex, record) {
		const path = `${ENDPOINTS.payouts}/${segment(String(record.id))}`;
		return withFundsReturned(await readMeasured(ctx, itemIndex, path));
	},
	// Whether it was made and whether its money came back (r1-money-tool F2).
	stateFields: (record) =>
		record.status === undefined || record.status === 'fail' ? ['status', 'refundedAt'] : ['status'],
	resolve: {
		find: 'identity',
		state: payoutCreated,
		notFound:
			"No payout carries this External ID. The payout listing is not in the interface document (its path and its externalId filter are the node's assumption), and a payout made a moment ago may not be listed yet, so its absence does not prove it was not made.",
	},
};

export const create: OperationDefinition = {
	value: 'create',
	name: 'Create',
	action: 'Create a payout',
	description:
		'Pay an amount in RUB to a card or phone number, paid from the company USDT balance at the rate fixed at creation',
	kind: 'money',
	money,
	tool: {
		text: `Send a RUB payout to a card or phone number, paid from the company balance. ${MONEY} ${CONFLICT} Needs: Amount (RUB), Pay To (card or phone) and the recipient's number. Do not give an External ID: the node sets it from the paymentReference, so the payout is found again by any later call with the same reference. Returns the payout: id, status, amountRub, chargedUsdt, the masked recipient.`,
	},
	docs: {
		endpoint: '`POST /payouts` (assumed)',
		notes:
			'Amount (RUB, plain decimal > 0, no default), Pay To (Card Number or Phone Number: sent as `requisiteType`), Recipient Card Number or Recipient Phone Number (sent as `requisite`; spaces and dashes removed; card 16–19 digits, phone 10–15 digits with an optional `+`; checked before sending and shown only by its last 4 digits in errors), optional Bank ID, External ID, recipient first and last name (External ID and Bank ID: text, or a number only as a safe integer). Sends `Idempotency-Key`. An answer in `fail` (refunded or not) or a status the document does not list is `OUTCOME_UNKNOWN` with its `sentWrite`, never a success; a re-run answered without sending reads the payout again (`earlierAnswer`).',
	},
	properties: [
		{
			displayName: 'Amount (RUB)',
			name: 'amountRub',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. 1500.00',
			description:
				'The amount in RUB the recipient receives, as a plain decimal (e.g. 1500 or 1500.50)',
		},
		{
			displayName: 'Pay To',
			name: 'requisiteType',
			type: 'options',
			default: 'card',
			options: [
				{ name: 'Card Number', value: 'card', description: "The recipient's bank card" },
				{
					name: 'Phone Number',
					value: 'phone',
					description: "The phone number linked to the recipient's bank account",
				},
			],
			description: 'Whether the money goes to a card number or to a phone number',
		},
		{
			displayName: 'Recipient Card Number',
			name: 'requisite',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. 2200 1234 5678 9012',
			description: '16 to 19 digits; spaces and dashes are removed before it is checked and sent',
			displayOptions: { show: { requisiteType: ['card'] } },
		},
		{
			displayName: 'Recipient Phone Number',
			name: 'requisite',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. +7 999 123-45-67',
			description:
				'10 to 15 digits with an optional leading +; spaces and dashes are removed before it is checked and sent',
			displayOptions: { show: { requisiteType: ['phone'] } },
		},
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: optionalFields,
		},
		idempotencyKeyField,
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const amountRub = requireAmount(this, itemIndex, 'amountRub', 'Amount (RUB)');
		const { requisiteType, requisite } = requisiteOf(this, itemIndex);
		const body: IDataObject = { amountRub, requisiteType, requisite };
		for (const field of optionalFields) {
			const value = optionalField(this, itemIndex, field.name, field.displayName);
			if (value !== undefined) body[field.name] = value;
		}
		// As a tool the External ID is the payment's identity (shared/money/key.ts).
		const externalId = externalIdOf(this, itemIndex);
		if (externalId !== undefined) body.externalId = externalId;
		// The requisite sent is known to the gate (shared/gate.ts), which masks it in every message.
		const explain = {
			PAYOUT_REQUISITE_INVALID: `The service rejected the recipient's ${requisiteType === 'card' ? 'card number' : 'phone number'} ${requisite} as invalid`,
		};
		const { method, path } = ASSUMED_ENDPOINTS.payoutCreate;
		const payout = (await moneyWrite(this, {
			contract: money,
			itemIndex,
			request: { method, path, body, explain },
		})) as IDataObject;
		return withFundsReturned(payout);
	},
};
