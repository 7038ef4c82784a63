// Issue 50, outside read r11-data: each finding as it was found, at the door it was found at (the
// node's output and the AI tool's, an error, the webhook trigger's item, a closed record).
import type { IDataObject } from 'n8n-workflow';
import nock from 'nock';

import { unknownFieldKind } from '../../nodes/shared/contract/records';
import {
	forgetLearnedSecrets,
	gateJson,
	gateText,
	maskForModel,
	rememberCredential,
} from '../../nodes/shared/gate';
import { withNodeFields } from '../../nodes/shared/serviceFields';
import { API_KEY, BASE_URL, runNode, runNodeError, runTool } from './helpers/n8n';
import { deliver } from './helpers/trigger';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const PAN = ['5500', '0000', '0000', '0004'].join('');
const VISA = ['4111', '1111', '1111', '1111'].join('');
const CARD = {
	id: 'c1',
	externalId: null,
	status: 'assigned',
	maskedPan: '550000******0004',
	expiry: '01/29',
	assignedAt: null,
	createdAt: '2026-01-01T00:00:00Z',
};
const cardGet = {
	resource: 'card',
	operation: 'get',
	cardId: { __rl: true, mode: 'id', value: 'c1' },
};

describe('finding 1: a card number under a card abbreviation (ccNumber, cc_number, ccNo)', () => {
	const NAMES = ['ccNumber', 'cc_number', 'ccNo', 'ccNum', 'cc-no', 'panNumber', 'cardNo'];

	it('such a name is a card number, never a record number', () => {
		for (const name of NAMES) {
			expect([name, unknownFieldKind(name)]).toEqual([
				name,
				{ kind: 'secret', secret: 'cardNumber' },
			]);
		}
		// A record's number stays an identifier.
		expect(unknownFieldKind('orderNumber').kind).toBe('identifier');
		expect(unknownFieldKind('invoice_no').kind).toBe('identifier');
	});

	it('masked in the output, the AI tool output and the error details', async () => {
		const extra = { ccNumber: PAN, cc_number: PAN, ccNo: PAN };
		nock(BASE_URL)
			.get('/cards/c1')
			.reply(200, { ...CARD, ...extra });
		const { output } = await runNode({ parameters: cardGet });
		expect(JSON.stringify(output)).not.toContain(PAN);
		expect(output[0].json.ccNumber).toBe('•••• •••• •••• 0004');
		nock(BASE_URL)
			.get('/cards/c1')
			.reply(200, { ...CARD, ...extra });
		expect(JSON.stringify((await runTool({ parameters: cardGet })).output)).not.toContain(PAN);
		expect(JSON.stringify(maskForModel({ ...extra }))).not.toContain(PAN);
		nock(BASE_URL).get('/cards/c1').reply(400, {
			statusCode: 400,
			errorCode: 'VALIDATION_ERROR',
			message: 'bad card',
			details: extra,
		});
		const error = await runNodeError({ parameters: cardGet });
		const shown = `${error.message} ${String(error.description)} ${JSON.stringify(error.context)}`;
		expect(shown).not.toContain(PAN);
	});

	it('masked in the webhook item and its raw body', async () => {
		const body = JSON.stringify({
			event: 'card.assigned',
			externalId: 'x1',
			cardId: 'c1',
			ccNumber: PAN,
			cc_no: PAN,
		});
		const { item } = await deliver({ body, parameters: { options: { includeRawBody: true } } });
		expect(JSON.stringify(item)).not.toContain(PAN);
	});
});

describe('finding 2: a CVV or a PIN under its other names', () => {
	const CVV = ['cardVerificationValue', 'card_verification_value', 'csc', 'cvn', 'cvd'];
	const PIN = ['passcode', 'personalIdentificationNumber'];

	it('each name holds a secret, and its value is masked in the output', async () => {
		for (const name of [...CVV, ...PIN]) {
			expect([name, unknownFieldKind(name).kind]).toEqual([name, 'secret']);
			const value = CVV.includes(name) ? '739' : '4821';
			nock(BASE_URL)
				.get('/cards/c1')
				.reply(200, { ...CARD, [name]: value });
			const { output } = await runNode({ parameters: cardGet });
			expect([name, output[0].json[name]]).not.toEqual([name, value]);
		}
	});

	it("the broad scan's other names: securityNumber, hmac, mnemonic, seedPhrase, keyValue, cardRef", async () => {
		const random = ['Zq8xV2mN5pR7', 'tY3wK9bL4cH6'].join('');
		const cases: Record<string, string> = { securityNumber: '739', cardRef: VISA, panHash: VISA };
		for (const name of ['hmac', 'mnemonic', 'seedPhrase', 'keyValue']) cases[name] = random;
		for (const [name, value] of Object.entries(cases)) {
			nock(BASE_URL)
				.get('/cards/c1')
				.reply(200, { ...CARD, [name]: value });
			const { output } = await runNode({ parameters: cardGet });
			expect([name, JSON.stringify(output[0].json).includes(value)]).toEqual([name, false]);
		}
		// A card's reference that is no card number, and a record's reference, are shown.
		expect(gateJson(undefined, { cardRef: 'ref-77', orderRef: VISA })).toEqual({
			cardRef: 'ref-77',
			orderRef: VISA,
		});
	});

	it('a name about them still holds none', () => {
		expect(unknownFieldKind('cscType').kind).toBe('state');
		expect(unknownFieldKind('passcodeSet').kind).toBe('state');
	});
});

describe('finding 3: a card number joined by any dash, minus sign or invisible character', () => {
	const JOINERS = {
		minus: '\u2212',
		fullwidthHyphen: '\uff0d',
		smallHyphen: '\ufe63',
		figureDash: '\u2012',
		twoEmDash: '\u2e3a',
		combiningGraphemeJoiner: '\u034f',
		hangulFiller: '\u3164',
		variationSelector: '\ufe0f',
	};

	it('is masked in a text, for the user and the model', () => {
		for (const [name, joiner] of Object.entries(JOINERS)) {
			const text = `card ${['4111', '1111', '1111', '1111'].join(joiner)} refused`;
			for (const audience of ['user', 'model'] as const) {
				const shown = gateText(undefined, text, audience);
				expect([name, audience, shown.replace(/\D/g, '')]).toEqual([name, audience, '1111']);
			}
		}
	});

	it('is masked written in fullwidth digits and dashes', () => {
		const text = 'номер ４１１１－１１１１－１１１１－１１１１';
		expect(gateText(undefined, text)).not.toMatch(/１１１１－１１１１/);
		expect(JSON.stringify(gateJson(undefined, { note: text }))).not.toMatch(/１１１１－１１１１/);
	});

	it('is masked in the webhook item', async () => {
		const pan = ['4111', '1111', '1111', '1111'].join('\u2212');
		const body = JSON.stringify({
			event: 'card.assigned',
			externalId: 'x1',
			cardId: 'c1',
			memo: pan,
		});
		const { item } = await deliver({ body, parameters: { options: { includeRawBody: true } } });
		expect(JSON.stringify(item)).not.toContain(pan);
		expect(JSON.stringify(item)).not.toContain('\\u2212');
	});

	it('a text with a dash and no secret stays as written', () => {
		const text = 'Order 2026\u22121 \u2014 paid \uff0d ok';
		expect(gateText(undefined, text)).toBe(text);
	});
});

describe('finding 4: a service field under a name the node adds is kept under serviceFields', () => {
	const PAYOUT = {
		id: 'p1',
		externalId: null,
		status: 'fail',
		amountRub: 1,
		chargedUsdt: 1,
		rate: 1,
		requisiteType: 'phone',
		requisite: '+79161234567',
		failReason: 'other',
		refundedAt: null,
		createdAt: '2026-01-01T00:00:00Z',
		fundsReturned: 'pending_bank_confirmation',
		fundsReturnedNote: 'service note',
	};

	it('the helper: the node value under the name, the service value under serviceFields', () => {
		expect(withNodeFields({ a: 1, quote: 'q' }, { quote: { id: 'x' } })).toEqual({
			a: 1,
			quote: { id: 'x' },
			serviceFields: { quote: 'q' },
		});
		// The same value, or no such field: nothing added.
		expect(withNodeFields({ a: 1, flag: true }, { flag: true })).toEqual({ a: 1, flag: true });
		expect(withNodeFields({ a: 1 }, { flag: true })).toEqual({ a: 1, flag: true });
		// A name the node owns but does not set this time moves all the same.
		expect(withNodeFields({ note: 's' }, {}, ['note'])).toEqual({ serviceFields: { note: 's' } });
	});

	it('Payout Get', async () => {
		nock(BASE_URL).get('/payouts/p1').reply(200, PAYOUT);
		const { output } = await runNode({
			parameters: {
				resource: 'payout',
				operation: 'get',
				payoutId: { __rl: true, mode: 'id', value: 'p1' },
			},
		});
		const json = output[0].json;
		expect(json.fundsReturned).toBe(false);
		expect(json.serviceFields).toEqual({
			fundsReturned: 'pending_bank_confirmation',
			fundsReturnedNote: 'service note',
		});
		expect(json.fundsReturnedNote).toBeUndefined();
	});

	it('Dispute Create', async () => {
		const orderId = '11111111-2222-4333-8444-555555555555';
		const now = new Date().toISOString();
		nock(BASE_URL)
			.get('/disputes')
			.query(true)
			.reply(200, { disputes: [], total: 0 })
			.post(`/orders/${orderId}/disputes`)
			.reply(201, {
				id: 'd1',
				orderId,
				status: 'submitted',
				reason: 'r',
				createdAt: now,
				updatedAt: now,
				existingDispute: 'svc-flag',
			});
		const { output } = await runNode({
			parameters: { resource: 'dispute', operation: 'create', orderId, reason: 'r' },
		});
		expect(typeof output[0].json.existingDispute).toBe('boolean');
		expect(output[0].json.serviceFields).toEqual({ existingDispute: 'svc-flag' });
	});

	it('Order Pay', async () => {
		const quote = {
			id: '22222222-3333-4444-8555-666666666666',
			amountRub: 100,
			amountUsdt: 1.1,
			expiresAt: new Date(Date.now() + 30000).toISOString(),
		};
		nock(BASE_URL).post('/orders/prepare').reply(201, quote);
		nock(BASE_URL).post(`/orders/accept/${quote.id}`).reply(200, {
			id: 'o1',
			amountUsdt: 1.1,
			amountRub: 100,
			status: 'created',
			paymentType: 'nspk',
			merchantName: null,
			externalOrderId: null,
			createdAt: new Date().toISOString(),
			quote: 'svc-quote-ref-77',
		});
		const { output } = await runNode({
			parameters: { resource: 'order', operation: 'pay', qrCode: 'QR-B' },
		});
		expect((output[0].json.quote as IDataObject).id).toBe(quote.id);
		expect(output[0].json.serviceFields).toEqual({ quote: 'svc-quote-ref-77' });
	});
});

describe('finding 5: a short Base URL user name named in Russian', () => {
	beforeEach(() => forgetLearnedSecrets());

	it('is hidden where a Russian text names it', () => {
		const user = ['op', 'sx'].join('');
		const password = ['pw', '1!'].join('');
		rememberCredential({
			baseUrl: `https://${user}:${encodeURIComponent(password)}@gw.short.test/api`,
			apiKey: API_KEY,
		});
		for (const text of [
			`Пользователь ${user}: неверный пароль ${password}`,
			`Неверный логин ${user}`,
			`пользователь: ${user}`,
			`имя пользователя ${user} не найдено`,
		]) {
			const shown = gateText(undefined, text);
			expect([text, new RegExp(`(?<![\\p{L}])${user}(?![\\p{L}])`, 'u').test(shown)]).toEqual([
				text,
				false,
			]);
			expect(shown).not.toContain(password);
		}
		// The same letters as a plain word of another text stay.
		expect(gateText(undefined, 'Раздел opsx-guide открыт')).toBe('Раздел opsx-guide открыт');
	});
});

describe('finding 6: a webhook secret echoed back in another case', () => {
	beforeEach(() => forgetLearnedSecrets());

	it('Update Profile: the upper-case echo in the error is hidden', async () => {
		const hex = '9c4f1e2a7b3d5f60918273645a5b6c7d8e9f0a1b2c3d4e5f';
		const secret = `whsec_${hex}`;
		nock(BASE_URL)
			.patch('/auth/company/profile')
			.reply(400, {
				statusCode: 400,
				errorCode: 'VALIDATION_ERROR',
				message: `webhookSecret ${secret.toUpperCase()} rejected`,
				details: { echo: hex.toUpperCase() },
			});
		const error = await runNodeError({
			parameters: {
				resource: 'company',
				operation: 'updateProfile',
				updateFields: { webhookSecret: secret },
			},
		});
		const shown =
			`${error.message} ${String(error.description)} ${JSON.stringify(error.context)}`.toLowerCase();
		expect(shown).not.toContain(hex.slice(0, 16));
		expect(shown).not.toContain(hex.slice(-16));
	});
});

describe('finding 7: an undeclared field of a closed record is hidden whole', () => {
	const EXTRA = {
		track2: `${VISA}=29011010000012345678`,
		pinNote: 'PIN 4821 issued to IVAN PETROV',
		cardholder: `IVAN PETROV ${VISA}`,
	};

	it('card sensitive data, the company profile, a member', async () => {
		const cases: Array<[IDataObject, string, IDataObject]> = [
			[
				{
					...cardGet,
					operation: 'getSensitiveData',
					maskSensitiveData: true,
				},
				'/cards/c1/sensitive',
				{ cardId: 'c1', cardNumberFull: VISA, cardCvv: '739', expiry: '01/29', ...EXTRA },
			],
			[
				{ resource: 'company', operation: 'getProfile' },
				'/auth/company/profile',
				{ webhookUrl: 'https://h.example.com/x', ...EXTRA },
			],
		];
		for (const [parameters, path, body] of cases) {
			nock(BASE_URL).get(path).query(true).reply(200, body);
			const { output } = await runNode({ parameters });
			for (const name of Object.keys(EXTRA)) {
				const shown = JSON.stringify(output[0].json[name]);
				expect([path, name, /2901101000001234|IVAN|PETROV|4821/.test(shown)]).toEqual([
					path,
					name,
					false,
				]);
			}
		}
	});
});
