import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { ASSUMED_ENDPOINTS } from '../../shared/contract/assumptions';
import { idempotencyKeyField } from '../common/fields';
import { optionalText, requireAmount } from '../common/validation';
import { apiRequest } from '../../shared/transport';
import { payoutExternalId } from '../tool/reference';
import { paymentKey } from '../tool/mode';
import type { OperationDefinition } from '../types';
import { withFundsReturned } from './fundsReturned';
import { readRequisite } from './requisite';
import { CONFLICT, MONEY } from '../tool/words';

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

export const create: OperationDefinition = {
	value: 'create',
	name: 'Create',
	action: 'Create a payout',
	description:
		'Pay an amount in RUB to a card or phone number, paid from the company USDT balance at the rate fixed at creation',
	kind: 'money',
	tool: {
		text: `Send a RUB payout to a card or phone number, paid from the company balance. ${MONEY} ${CONFLICT} Needs: Amount (RUB), Pay To (card or phone) and the recipient's number; optionally an External ID. The External ID is the paymentReference unless you give one. Returns the payout: id, status, amountRub, chargedUsdt, the masked recipient.`,
	},
	docs: {
		endpoint: "`POST /payouts` (assumed)",
		notes: "Amount (RUB, plain decimal > 0, no default), Pay To (Card Number or Phone Number: sent as `requisiteType`), Recipient Card Number or Recipient Phone Number (sent as `requisite`; spaces and dashes removed; card 16–19 digits, phone 10–15 digits with an optional `+`; checked before sending and shown only by its last 4 digits in errors), optional Bank ID, External ID, recipient first and last name. Sends `Idempotency-Key`.",
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
		const { requisiteType, requisite } = readRequisite(
			this,
			itemIndex,
			this.getNodeParameter('requisiteType', itemIndex, 'card'),
			this.getNodeParameter('requisite', itemIndex, ''),
		);
		const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
		const optional: IDataObject = {};
		for (const field of optionalFields) {
			const value = optionalText(this, itemIndex, additional[field.name], field.displayName);
			if (value !== undefined) optional[field.name] = value;
		}
		const key = paymentKey(
			this,
			itemIndex,
			this.getNodeParameter('idempotencyKey', itemIndex, ''),
		);
		const body: IDataObject = { amountRub, requisiteType, requisite, ...optional };
		// As a tool, the payment reference is the External ID unless one is set (tool/reference.ts).
		const externalId = payoutExternalId(this, itemIndex, additional);
		if (externalId !== undefined) body.externalId = externalId;
		// The requisite sent is known to the gate (shared/gate.ts), which masks it in every message.
		const explain = {
			PAYOUT_REQUISITE_INVALID: `The service rejected the recipient's ${requisiteType === 'card' ? 'card number' : 'phone number'} ${requisite} as invalid`,
		};
		const { method, path } = ASSUMED_ENDPOINTS.payoutCreate;
		const payout = (await apiRequest.call(this, {
			method,
			path,
			body,
			headers: { 'Idempotency-Key': key },
			itemIndex,
			explain,
		})) as IDataObject;
		return withFundsReturned(payout);
	},
};
