// Issue 43: the record model the gate reads (nodes/shared/contract/records.ts). A field name means
// one thing wherever the document shows it, every record a field points at exists, every event
// of the event table has its payload, and the rule for unknown fields reads names as stated.
import { EVENT_NAMES, EVENTS } from '../../nodes/shared/contract/events';
import {
	EVENT_PAYLOADS,
	PACKAGE_FIELDS,
	RECORDS,
	fieldSpec,
	unknownFieldKind,
} from '../../nodes/shared/contract/records';
import type { FieldSpec } from '../../nodes/shared/contract/records';

const ALL: Array<[string, Record<string, FieldSpec>]> = [
	...Object.entries(RECORDS),
	...Object.entries(EVENT_PAYLOADS),
	['package', PACKAGE_FIELDS],
];

describe('the record model', () => {
	it('gives one name one kind in every record and payload', () => {
		const kinds = new Map<string, Set<string>>();
		for (const [, fields] of ALL) {
			for (const [name, spec] of Object.entries(fields)) {
				kinds.set(name, new Set([...(kinds.get(name) ?? []), spec.kind]));
			}
		}
		const twice = [...kinds].filter(([, set]) => set.size > 1).map(([name]) => name);
		expect(twice).toEqual([]);
	});

	it('names only records it has, and a payload for every event of the document', () => {
		for (const [, fields] of ALL) {
			for (const spec of Object.values(fields)) {
				if (spec.record !== undefined) expect(Object.keys(RECORDS)).toContain(spec.record);
			}
		}
		expect(Object.keys(EVENT_PAYLOADS)).toEqual(EVENT_NAMES);
		for (const name of EVENT_NAMES) {
			for (const field of EVENTS[name].fields) {
				expect({ [name]: field, known: field in EVENT_PAYLOADS[name] }).toEqual({
					[name]: field,
					known: true,
				});
			}
			expect(EVENT_PAYLOADS[name]).toHaveProperty(EVENTS[name].idField);
		}
	});

	it('keeps the IDs, amounts and secrets the document names where they are', () => {
		expect(fieldSpec('payoutId').kind).toBe('identifier');
		expect(fieldSpec('externalId').kind).toBe('identifier');
		expect(fieldSpec('txHash').kind).toBe('identifier');
		expect(fieldSpec('changeKey').kind).toBe('identifier');
		expect(fieldSpec('chargedUsdt').kind).toBe('amount');
		expect(fieldSpec('cardNumberFull')).toEqual({ kind: 'secret', secret: 'cardNumber' });
		expect(fieldSpec('cardCvv')).toEqual({ kind: 'secret', secret: 'cvv' });
		expect(fieldSpec('webhookSecret')).toEqual({ kind: 'secret', secret: 'webhookSecret' });
		expect(fieldSpec('url')).toEqual({ kind: 'link', ownLink: true });
		expect(fieldSpec('maskedPan').kind).toBe('maskedRequisite');
		expect(fieldSpec('requisite').kind).toBe('requisite');
	});
});

describe('the rule for unknown fields', () => {
	it.each([
		['apiKeyType', 'state'],
		['tokenSymbol', 'state'],
		['webhookSecretSet', 'state'],
		['apiKey', 'secret'],
		['api_key', 'secret'],
		['X-Api-Key', 'secret'],
		['sessionToken', 'secret'],
		['sessionId', 'secret'],
		['password', 'secret'],
		['cvv2', 'secret'],
		['pan', 'secret'],
		['credentials', 'secret'],
		['id', 'identifier'],
		['invoiceId', 'identifier'],
		['partner_id', 'identifier'],
		['apiKeyId', 'identifier'],
		['reference', 'identifier'],
		['invoiceRef', 'identifier'],
		['blockHash', 'identifier'],
		['feeAmount', 'amount'],
		['availableBalance', 'amount'],
		['inviteLink', 'link'],
		['callbackUrl', 'link'],
		['recipientPhone', 'requisite'],
		['note', 'text'],
		['serviceMessage', 'text'],
		['email', 'unknown'],
		['zq', 'unknown'],
	])('%s is %s', (name, kind) => {
		expect(unknownFieldKind(name).kind).toBe(kind);
	});

	it('reads a secret form from the name', () => {
		expect(unknownFieldKind('inviteToken').secret).toBe('token');
		expect(unknownFieldKind('previousWebhookSecret').secret).toBe('webhookSecret');
		expect(unknownFieldKind('card_number').secret).toBe('cardNumber');
		expect(unknownFieldKind('securityCode').secret).toBe('cvv');
	});
});
