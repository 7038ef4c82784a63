// Outside read r16-data, findings 1, 8 and 9, and a PIN named after a phrase: a field's name is
// read by its words, one rule for PIN, CVV, card number, key and secret names alike.
import fc from 'fast-check';
import nock from 'nock';

import { gateJson, gateText } from '../../nodes/shared/gate';
import { forgetLearnedSecrets, PAIR_NAME_KEYS } from '../../nodes/shared/gate/learned';
import { unknownFieldKind } from '../../nodes/shared/contract/records';
import { BASE_URL, runNode } from './helpers/n8n';
import { deliver } from './helpers/trigger';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const RUNS = 200;
/** Random-looking key material of 20 letters and digits (made up for these tests). */
const KEY_MATERIAL = ['Zk3vQ9xW2m', 'Lp7RtY4bNc'].join('');
const AUDIENCES = ['user', 'model'] as const;
const AUDIENCE = fc.constantFrom(...AUDIENCES);

/** Words that name a secret's value (any one of them makes a name a secret's). */
const SECRET_WORDS = [
	['pin'],
	['card', 'pin'],
	['cvv'],
	['cvc'],
	['card', 'number'],
	['api', 'key'],
	['secret', 'key'],
	['private', 'key'],
	['access', 'key'],
	['signing', 'key'],
	['webhook', 'secret'],
	['password'],
	['session', 'token'],
];
/** Words that say a name counts or flags something about the secret. */
const COUNTER_WORDS = [
	'tries',
	'attempts',
	'retries',
	'count',
	'left',
	'remaining',
	'failed',
	'set',
	'enabled',
	'status',
	'length',
	'max',
	'limit',
	'locked',
];

/** Words joined as camelCase, snake_case or kebab-case. */
function joinWords(words: string[], style: 'camel' | 'snake' | 'pascal'): string {
	if (style === 'snake') return words.join('_');
	const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
	const [first, ...rest] = words;
	return (style === 'pascal' ? capital(first) : first) + rest.map(capital).join('');
}
const STYLE = fc.constantFrom('camel' as const, 'snake' as const, 'pascal' as const);

describe('finding 1: a field that counts or flags something about a PIN is not the PIN', () => {
	const card = {
		id: 'crd_1',
		externalId: null,
		status: 'assigned',
		maskedPan: '553691******1234',
		expiry: '12/29',
		createdAt: '2026-01-01T00:00:00Z',
		pinTriesLeft: 3,
		remainingPinAttempts: 2,
		failedPinAttempts: 0,
		pinAttemptsLeft: 3,
		pinRetries: 1,
		pinTryCount: 2,
		pinSet: true,
	};

	it('Card Get: each counter comes out as the service sent it, for the user and the model', async () => {
		for (const audience of AUDIENCES) {
			expect(gateJson(undefined, card, audience)).toEqual(card);
		}
		nock(BASE_URL).get('/cards/crd_1').reply(200, card);
		const { output } = await runNode({
			parameters: {
				resource: 'card',
				operation: 'get',
				cardId: { __rl: true, mode: 'id', value: 'crd_1' },
			},
		});
		for (const name of Object.keys(card).filter((key) => /pin/i.test(key))) {
			expect(output[0].json[name]).toBe(card[name as keyof typeof card]);
		}
	});

	it.each([
		['hasPin', 'yes'],
		['isPinSet', 'true'],
		['pinChanged', '2026-11-20T10:00:00Z'],
		['cvvChecked', 'pass'],
		['hasWebhookSecret', 'true'],
		['apiKeyRotated', 'no'],
		['secretary', 'Anna Petrova'],
	])('%s: a flag or a plain name, shown as sent (%j)', (name, value) => {
		expect(unknownFieldKind(name).kind).not.toBe('secret');
		for (const audience of AUDIENCES) {
			expect(gateJson(undefined, { id: 'c', [name]: value }, audience)).toEqual({
				id: 'c',
				[name]: value,
			});
		}
	});

	it('generated: a secret word with a counter or flag word anywhere in the name: kept to the digit', () => {
		fc.assert(
			fc.property(
				fc.constantFrom(...SECRET_WORDS),
				fc.constantFrom(...COUNTER_WORDS),
				fc.boolean(),
				STYLE,
				fc.oneof(fc.integer({ min: 0, max: 9999 }), fc.boolean()),
				AUDIENCE,
				(secret, counter, before, style, value, audience) => {
					// `set` says so as the last word only (`pinSet`; `setPin` may be the PIN to set).
					const words = before && counter !== 'set' ? [counter, ...secret] : [...secret, counter];
					const name = joinWords(words, style);
					const record = { id: 'crd_1', [name]: value };
					return (
						unknownFieldKind(name).kind !== 'secret' &&
						JSON.stringify(gateJson(undefined, record, audience)) === JSON.stringify(record)
					);
				},
			),
			{ numRuns: RUNS },
		);
	});

	it('generated: a name of the secret value itself (with a card, new, current word) is masked', () => {
		fc.assert(
			fc.property(
				fc.constantFrom(...SECRET_WORDS),
				fc.constantFrom([], ['new'], ['current'], ['card'], ['atm']),
				fc.constantFrom([], ['value'], ['plain']),
				STYLE,
				fc.stringMatching(/^[1-9]\d{3,5}$/),
				AUDIENCE,
				(secret, before, after, style, digits, audience) => {
					const name = joinWords([...before, ...secret, ...after], style);
					const value = secret.includes('number') ? `220070${digits}123456`.slice(0, 16) : digits;
					const shown = JSON.stringify(gateJson(undefined, { id: 'c', [name]: value }, audience));
					return unknownFieldKind(name).kind === 'secret' && !shown.includes(value);
				},
			),
			{ numRuns: RUNS },
		);
	});
});

describe('finding 8: a `…Key` that names a record or a lookup is no secret, and nothing poisons dates', () => {
	const ORDER = 'c0b1a2f3-0000-4000-8000-000000000001';
	beforeEach(() => forgetLearnedSecrets());

	it('Balance History then Order Get with the same credential: the dates, the ID, the time stay', async () => {
		nock(BASE_URL)
			.get('/wallets/balance-history')
			.query(true)
			.reply(200, {
				items: [
					{
						id: 'h1',
						type: 'order_payment',
						key: '2026-11-29',
						amount: -5,
						referenceId: ORDER,
						createdAt: '2026-11-29T08:00:00Z',
					},
					{
						id: 'h2',
						type: 'order_payment',
						orderKey: ORDER,
						amount: -1,
						referenceId: ORDER,
						createdAt: '2026-11-28T08:00:00Z',
					},
					{
						id: 'h3',
						type: 'fee',
						periodKey: 1795939200,
						amount: -0.1,
						referenceId: null,
						createdAt: '2026-11-28T09:00:00Z',
					},
				],
				total: 3,
			});
		const first = await runNode({
			parameters: { resource: 'companyWallet', operation: 'getBalanceHistory', returnAll: true },
		});
		expect(first.output.map((item) => item.json.createdAt)).toEqual([
			'2026-11-29T08:00:00Z',
			'2026-11-28T08:00:00Z',
			'2026-11-28T09:00:00Z',
		]);
		expect(first.output[0].json.key).toBe('2026-11-29');
		expect(first.output[1].json.orderKey).toBe(ORDER);
		expect(first.output[2].json.periodKey).toBe(1795939200);
		const order = {
			id: ORDER,
			status: 'failed',
			amountUsdt: 1,
			amountRub: 90,
			merchantName: 'Shop',
			externalOrderId: null,
			createdAt: '2026-11-29T08:00:00Z',
			failureReason: `заказ ${ORDER} истёк`,
			expiresAtUnix: 1795939200,
		};
		nock(BASE_URL).get(`/orders/${ORDER}`).reply(200, order);
		const second = await runNode({
			parameters: {
				resource: 'order',
				operation: 'get',
				orderId: { __rl: true, mode: 'id', value: ORDER },
			},
		});
		expect(second.output[0].json).toMatchObject({
			createdAt: order.createdAt,
			failureReason: order.failureReason,
			expiresAtUnix: order.expiresAtUnix,
		});
	});

	it.each([
		'orderKey',
		'periodKey',
		'paymentKey',
		'invoiceKey',
		'referenceKey',
		'statusKey',
		'typeKey',
		'categoryKey',
		'order_key',
		'PaymentKey',
	])('%s: a record or lookup key, kept exactly for every reader', (name) => {
		expect(unknownFieldKind(name).kind).not.toBe('secret');
		for (const value of [ORDER, '2026-11-29', 1795939200, 'INV-2026-0042']) {
			// The model never gets a long number in a free text (a phone's look): the note is the user's.
			const record = { id: 'r1', [name]: value, note: `see ${String(value)}` };
			expect(gateJson(undefined, record, 'user')).toEqual(record);
			const bare = { id: 'r1', [name]: value };
			expect(gateJson(undefined, bare, 'model')).toEqual(bare);
		}
	});

	it.each([
		'apiKey',
		'secretKey',
		'privateKey',
		'accessKey',
		'signingKey',
		'memberKey',
		'sessionKey',
		'authKey',
		'hmacKey',
		'userKey',
		'webhookSecret',
		'password',
		'sessionToken',
	])('%s: a credential, masked and found again in a text of the same answer', (name) => {
		const material = KEY_MATERIAL;
		for (const audience of AUDIENCES) {
			const shown = JSON.stringify(
				gateJson(
					undefined,
					{ id: 'm1', [name]: material, message: `use ${material} now` },
					audience,
				),
			);
			expect(shown).not.toContain(material);
		}
	});

	it('generated: a date, a time number or a record UUID under a secret name is never learned', () => {
		const dates = fc
			.date({ min: new Date('2001-01-01T00:00:00Z'), max: new Date('2037-12-31T00:00:00Z') })
			.filter((date) => !Number.isNaN(date.getTime()));
		fc.assert(
			fc.property(
				dates,
				fc.constantFrom('key', 'apiKey', 'privateKey', 'secretKey', 'memberKey', 'fooKey'),
				fc.constantFrom('date', 'seconds', 'ms', 'uuid'),
				AUDIENCE,
				(date, name, form, audience) => {
					const iso = date.toISOString().replace(/\.\d{3}Z$/, 'Z');
					const uuid = `${date.getTime().toString(16).padStart(8, '0').slice(-8)}-0000-4000-8000-000000000001`;
					const value =
						form === 'date'
							? iso.slice(0, 10)
							: form === 'seconds'
								? Math.floor(date.getTime() / 1000)
								: form === 'ms'
									? date.getTime()
									: uuid;
					const record = {
						id: 'r1',
						[name]: value,
						referenceId: uuid,
						createdAt: iso,
						expiresAtUnix: Math.floor(date.getTime() / 1000),
						expiresAtMs: date.getTime(),
						note: `due ${iso} for ${uuid}`,
					};
					const shown = gateJson(undefined, record, audience) as Record<string, unknown>;
					return (
						shown.createdAt === record.createdAt &&
						shown.expiresAtUnix === record.expiresAtUnix &&
						shown.expiresAtMs === record.expiresAtMs &&
						shown.note === record.note &&
						shown.referenceId === uuid
					);
				},
			),
			{ numRuns: RUNS },
		);
	});

	it('a bare `key` or an unknown `…Key` holding key material is still masked', () => {
		for (const name of ['key', 'fooKey', 'widgetKey', 'newKey']) {
			for (const audience of AUDIENCES) {
				const shown = JSON.stringify(
					gateJson(undefined, { id: 'r', [name]: KEY_MATERIAL }, audience),
				);
				expect(shown).not.toContain(KEY_MATERIAL);
			}
		}
	});
});

describe('finding 9: a PIN or CVV as a name/value pair under any usual naming key', () => {
	const attrs = [
		{ kind: 'PIN', value: '5930' },
		{ attribute: 'cvv', value: '812' },
	];

	it('webhook card.assigned and Card Get: the values hidden, the labels kept', async () => {
		const body = JSON.stringify({
			event: 'card.assigned',
			externalId: 'u-1',
			card: { id: 'crd_9', status: 'assigned' },
			attrs,
		});
		const { item } = await deliver({ body });
		const fromTrigger = JSON.stringify(item!.attrs);
		expect(fromTrigger).not.toMatch(/5930|812/);
		expect(item!.attrs).toEqual([
			{ kind: 'PIN', value: expect.any(String) },
			{ attribute: 'cvv', value: expect.any(String) },
		]);
		for (const audience of AUDIENCES) {
			const shown = gateJson(undefined, { id: 'crd_9', attrs }, audience);
			expect(JSON.stringify(shown)).not.toMatch(/5930|812/);
			expect((shown.attrs as Array<Record<string, unknown>>)[1].attribute).toBe('cvv');
		}
	});

	it('generated: every naming key of the one list, any PIN or CVV name, as object or in a list', () => {
		fc.assert(
			fc.property(
				fc.constantFrom(...PAIR_NAME_KEYS),
				fc.constantFrom('value', 'val', 'data', 'content'),
				fc.constantFrom('PIN', 'pin', 'cardPin', 'cvv', 'CVV2', 'cvc'),
				fc.stringMatching(/^[1-9]\d{3}$/),
				AUDIENCE,
				(nameKey, valueKey, label, digits, audience) => {
					const pair = { [nameKey]: label, [valueKey]: digits };
					const shown = gateJson(undefined, { id: 'c', attributes: [pair] }, audience);
					const out = (shown.attributes as Array<Record<string, unknown>>)[0];
					return !JSON.stringify(shown).includes(digits) && out[nameKey] === label;
				},
			),
			{ numRuns: RUNS },
		);
	});
});

describe('a PIN or CVV named, then a phrase, then `is`, `:` or `=` and its digits', () => {
	it.each([
		['PIN for your card ending 1234 is 4829', '4829'],
		['The PIN for the card ending in 1234 is: 4829', '4829'],
		['PIN for card •••• 1234 = 4829', '4829'],
		['CVV for your card ending 1234 is 739', '739'],
		['Your PIN for card ending with 5678: 4829. Do not share it.', '4829'],
	])('%j hides %s and keeps the last four', (text, secret) => {
		for (const audience of AUDIENCES) {
			const shown = gateText(undefined, text, audience);
			expect(shown).not.toContain(secret);
			if (audience === 'user') expect(shown).toMatch(/1234|5678/);
		}
	});

	const WORD = fc.constantFrom('PIN', 'pin', 'card PIN', 'PIN code', 'CVV', 'CVC', 'security code');
	const PHRASE = fc.constantFrom(
		' for your card',
		' for the card you requested yesterday',
		' of the new card',
		', which we sent by SMS,',
		' for card',
	);
	const LAST_FOUR = fc.constantFrom(
		'',
		' ending 1234',
		' ending in 1234',
		' •••• 1234',
		' last 4 digits 1234',
	);
	const SEPARATOR = fc.constantFrom(' is ', ' was ', ': ', ' = ', '=', ' is: ');

	it("generated: word, a phrase, the card's last four, then is / : / = and the value: the value hidden", () => {
		fc.assert(
			fc.property(
				WORD,
				PHRASE,
				LAST_FOUR,
				SEPARATOR,
				fc.stringMatching(/^[5-9]\d{3}$/),
				AUDIENCE,
				(word, phrase, lastFour, separator, digits, audience) => {
					const text = `${word}${phrase}${lastFour}${separator}${digits}. Thanks`;
					const shown = gateText(undefined, text, audience);
					return (
						!shown.includes(digits) &&
						(lastFour === '' || audience === 'model' || shown.includes('1234'))
					);
				},
			),
			{ numRuns: RUNS },
		);
	});

	it('generated: a word of another number before is / : / = keeps that number', () => {
		fc.assert(
			fc.property(
				WORD,
				PHRASE,
				fc.constantFrom(
					' rejected, HTTP status',
					', request id',
					', order',
					' failed, attempts left',
					', requestId',
					', amount',
				),
				SEPARATOR,
				fc.stringMatching(/^[5-9]\d{3}$/),
				(word, phrase, other, separator, digits) => {
					const text = `${word}${phrase}${other}${separator}${digits}`;
					return gateText(undefined, text, 'user') === text;
				},
			),
			{ numRuns: RUNS },
		);
	});

	it.each([
		'PIN for your card ending 1234',
		'PIN for card ending: 1234',
		'CVV for the card ending in 1234',
		'PIN reset failed, requestId=48291',
		'PIN attempts left: 3, order 12345678 is open',
		'pin rejected, HTTP status: 400',
		'PIN for card ending 1234 was blocked after 3 attempts',
		'PIN change for order 12345678 is pending',
	])('%j: no PIN value there, the numbers stay', (text) => {
		expect(gateText(undefined, text, 'user')).toBe(text);
	});
});
