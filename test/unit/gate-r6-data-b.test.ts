import type { IDataObject } from 'n8n-workflow';

import { gateError, gateJson } from '../../nodes/shared/gate';
import { fieldSpec, unknownFieldKind } from '../../nodes/shared/contract/records';
import { deliver } from './helpers/trigger';

/*
 * Outside read r6-data-b, findings 1–4 and 7: what the gate masks is decided by a field's name
 * and kind first, then by the value's look.
 * 1. a full card number in `maskedPan` (a field the document calls masked) keeps its last four;
 * 2. an identifier named like one (`orderNumber`, `sbpOperationNumber`) stays exact, even when
 *    its digits pass the card checksum;
 * 3. a requisite declared a card is masked in every string or number leaf, whatever its shape;
 * 4. a name ending in key / secret / token that is no known non-secret name holds a secret, at
 *    any depth and in an error's details given to the model;
 * 7. a card number in a link's path and a cvv/pin query value are masked.
 */

const PAN = '4111111111111111';
/** Luhn-valid numeric identifiers of 15–19 digits. */
const LUHN_IDS = ['4111111111111111', '79927398713000008', '123456789012345678'].filter(luhnValid);
const AUDIENCES = ['user', 'model'] as const;

function luhnValid(digits: string): boolean {
	let sum = 0;
	for (let i = 0; i < digits.length; i++) {
		let d = Number(digits[digits.length - 1 - i]);
		if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
		sum += d;
	}
	return sum % 10 === 0;
}

const gate = (value: IDataObject, audience: (typeof AUDIENCES)[number] = 'user') =>
	JSON.stringify(gateJson(undefined, value, audience));

describe('finding 1: a full number in maskedPan', () => {
	it.each(AUDIENCES)('keeps only the last four digits (%s)', (audience) => {
		for (const pan of [PAN, '4111 1111 1111 1111', '2200123456789012']) {
			const shown = gate({ id: 'k1', status: 'assigned', maskedPan: pan }, audience);
			expect(shown).not.toContain(pan);
			expect(shown).toContain('1111'.slice(0, 0) + pan.replace(/\D/g, '').slice(-4));
		}
		const numeric = JSON.parse(`{"maskedPan":${PAN}}`) as IDataObject;
		expect(gate(numeric, audience)).not.toContain(PAN);
	});

	it('a number the service masked itself stays as it was', () => {
		for (const masked of ['220070******1234', '•••• 1234', '**** **** **** 1234']) {
			expect(gateJson(undefined, { maskedPan: masked })).toEqual({ maskedPan: masked });
		}
	});

	it('in a card.assigned delivery', async () => {
		const result = await deliver({
			body: { event: 'card.assigned', externalId: 'e1', cardId: 'k1', maskedPan: PAN },
		});
		expect(JSON.stringify(result.item)).not.toContain(PAN);
	});
});

describe('finding 2: identifiers named like one stay exact', () => {
	it('the names are identifiers; card-like names are not', () => {
		for (const name of ['orderNumber', 'sbpOperationNumber', 'invoice_no', 'operationNum']) {
			expect([name, unknownFieldKind(name).kind]).toEqual([name, 'identifier']);
		}
		for (const name of ['cardNumber', 'number', 'phoneNumber', 'accountNumber', 'panNumber']) {
			expect([name, fieldSpec(name).kind]).not.toEqual([name, 'identifier']);
		}
	});

	it.each(AUDIENCES)('a Luhn-valid orderNumber / sbpOperationNumber is kept (%s)', (audience) => {
		expect(LUHN_IDS.length).toBeGreaterThan(0);
		for (const id of LUHN_IDS) {
			const out = gateJson(undefined, { orderNumber: id, sbpOperationNumber: id }, audience);
			expect(out).toEqual({ orderNumber: id, sbpOperationNumber: id });
		}
	});

	it('a card number under an unknown name, or `number`, is still masked', () => {
		expect(gate({ card: { number: PAN } })).not.toContain(PAN);
		expect(gate({ extra: PAN })).not.toContain(PAN);
	});
});

describe('finding 3: a card requisite of any JSON shape', () => {
	const CARD = '2200123456789012'; // fails the checksum
	it.each(AUDIENCES)('array, object, number in array (%s)', (audience) => {
		for (const requisite of [
			[CARD],
			{ number: CARD },
			JSON.parse(`[${CARD}]`) as unknown,
			{ card: { number: [CARD] } },
		]) {
			const shown = gate({ requisiteType: 'card', requisite } as IDataObject, audience);
			expect(shown).not.toContain(CARD);
			expect(shown).toContain('9012');
		}
	});

	it('in a payout delivery', async () => {
		const result = await deliver({
			body: `{"event":"payout.status_changed","payoutId":"p1","status":"fail","requisiteType":"card","requisite":{"number":"${CARD}"},"refunded":false}`,
		});
		expect(JSON.stringify(result.item)).not.toContain(CARD);
	});
});

describe('finding 4: key names not on any list', () => {
	/** Dummy values, written in parts (no secret literal in the source). */
	const dummy = (...parts: string[]) => parts.join('');
	const VALUES: IDataObject = Object.fromEntries([
		['memberKey', dummy('mk_live_', '7f3a9c2e5b1d4f6a8c0e2b4d')],
		['sessionKey', dummy('sess_', '4b8d2f6a0c1e3a5c7e9b1d3f')],
		['authKey', dummy('6f1ed002ab559585', '9014ebf0951522d9')],
		['signingKey', dummy('a3f5c7e9b1d3f5a7c9e1b3d5f7a9c1e3', 'b5d7f9a1c3e5b7d9f1a3c5e7b9d1f3a5')],
		['hmacKey', dummy('e7b9d1f3a5c7e9b1', 'd3f5a7c9e1b3d5f7')],
		['userKey', dummy('uk_', '9c2e5b1d4f6a8c0e2b4d7f3a')],
		['clientSecrets', [dummy('cs_', '9c2e5b1d4f6a8c0e2b4d7f3a')]],
		['refreshTokens', dummy('rt_', '9c2e5b1d4f6a8c0e2b4d7f3a')],
	]) as IDataObject;

	it.each(AUDIENCES)('top level and nested (%s)', (audience) => {
		const shown = gate({ id: 'o1', ...VALUES, createdBy: { userId: 'u1', ...VALUES } }, audience);
		for (const value of Object.values(VALUES).flat() as string[]) {
			expect(shown).not.toContain(value);
		}
		expect(shown).toContain('"userId":"u1"');
	});

	it('known non-secret key names keep their value', () => {
		const kept = Object.fromEntries([
			['idempotencyKey', 'order-2026-11-28-0001'],
			['changeKey', 'payout:p1:success'],
			['sortKey', 'createdAt'],
			['partitionKey', 'tenant-42'],
			['keyType', 'member'],
		]);
		expect(gateJson(undefined, kept)).toEqual(kept);
	});

	it('an error given to the model: its details', () => {
		const error = Object.assign(new Error('refused'), {
			context: { details: { createdBy: { ...VALUES } } },
			description: JSON.stringify({ details: VALUES }),
		});
		const shown = JSON.stringify({
			...gateError(undefined, error, 'model'),
			message: error.message,
		});
		for (const value of Object.values(VALUES).flat() as string[]) {
			expect(shown).not.toContain(value);
		}
	});

	it('lower-case prefixed keys in free text', () => {
		const text = JSON.stringify(
			gateJson(undefined, {
				message: 'keys uk_9c2e5b1d4f6a8c0e2b4d7f3a and sess_4b8d2f6a0c1e3a5c7e9b1d3f',
			}),
		);
		expect(text).not.toContain('uk_9c2e5b1d4f6a8c0e2b4d7f3a');
		expect(text).not.toContain('sess_4b8d2f6a0c1e3a5c7e9b1d3f');
	});
});

describe('finding 7: a card number and a CVV in a link', () => {
	const LINK = `https://bridge.example/cards/${PAN}/details?cvv=123&pin=4321&lang=ru`;
	it.each(AUDIENCES)('detailsUrl (%s)', (audience) => {
		const shown = gate({ id: 'k1', detailsUrl: LINK, url: LINK }, audience);
		expect(shown).not.toContain(PAN);
		expect(shown).not.toContain('cvv=123');
		expect(shown).not.toContain('pin=4321');
		if (audience === 'user') expect(shown).toContain('lang=ru');
	});

	it('an ID in a link that is no card stays (user)', () => {
		const link = 'https://cabinet.example/orders/2200123456789012/view';
		expect(gateJson(undefined, { detailsUrl: link })).toEqual({ detailsUrl: link });
	});
});
