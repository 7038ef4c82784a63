// Issue 50, the rules beside the PIN-in-words rule: a key, token, secret or password word and the
// card word (`card`, `PAN`, `карта`, `номер`) hide the value they name, not a number that another
// word names after them in the same text (`API key rejected, request id 12345678` showed
// `request id [hidden]`; `card declined, request id 123456789012` showed `•••• 9012`).
import fc from 'fast-check';

import { gateText } from '../../nodes/shared/gate';
import { luhn } from '../../nodes/shared/gate/patterns';

const RUNS = 300;
const AUDIENCE = fc.constantFrom('user' as const, 'model' as const);
const K = '9f8e7d6c5b4a39281706f5e4d3c2b1a0';

/** Whether the text shows the value, or a run of 8 of its characters. */
const shows = (text: string, value: string) => {
	for (let from = 0; from + 8 <= value.length; from++) {
		if (text.includes(value.slice(from, from + 8))) return true;
	}
	return false;
};

const KEY_WORD = fc.constantFrom(
	'API key',
	'member key',
	'key',
	'token',
	'sessionToken',
	'session token',
	'secret',
	'password',
	'ключ',
	'токен',
	'пароль',
	'секрет',
);
/** What the tests of round r8 (and ordinary sentences) put between a key word and its value. */
const KEY_NAMING = fc.constantFrom(
	' ',
	': ',
	'=',
	' is ',
	' was ',
	' — ',
	' for login is ',
	' of member Ivan: ',
	' for company ACME is ',
	' (new): ',
	' от кабинета ',
	' доступа: ',
	' for the API is ',
	' you asked for: ',
	' for user: ',
	' for the account: ',
	' code: ',
);
const KEY_VALUE = fc.oneof(
	fc.constant(K),
	fc.constant('Qwerty12345'),
	fc.constant('Zx9Yw8Vu7T'),
	fc.stringMatching(/^[A-Za-z0-9]{6,30}$/).map((s) => `k${s}7Q`),
);

describe('key and password words: the value they name is never shown', () => {
	it('a key whose random part holds CV2 and digits is hidden whole, not read as a CVV (seed 63386807)', () => {
		const value = 'kAa00Cv2007Q';
		for (const audience of ['user', 'model'] as const) {
			const shown = gateText(undefined, `Your API key ${value} — keep it safe`, audience);
			expect(shows(shown, value)).toBe(false);
			expect(shown).not.toContain('kAa00Cv2');
		}
		// A CVV word of its own still names its digits.
		expect(gateText(undefined, 'CV2 739', 'user')).not.toContain('739');
	});

	it('generated: word, naming words, a key-shaped value, in a sentence', () => {
		fc.assert(
			fc.property(KEY_WORD, KEY_NAMING, KEY_VALUE, AUDIENCE, (word, naming, value, audience) => {
				const text = `Your ${word}${naming}${value} — keep it safe`;
				return !shows(gateText(undefined, text, audience), value);
			}),
			{ numRuns: RUNS },
		);
	});
});

/** A value of another kind, after the noun that names it (or before its unit). */
const OTHER_VALUE = fc.oneof(
	fc
		.tuple(
			fc.constantFrom(
				'request id ',
				'requestId ',
				'request ',
				'order ',
				'order #',
				'orderId=',
				'invoice ',
				'trace ',
				'ref ',
				'HTTP status: ',
				'status ',
				'amount ',
				'payout ',
				'transaction ',
				'заказ ',
				'запрос ',
				'номер заказа ',
			),
			fc.oneof(
				fc.stringMatching(/^[1-9]\d{7,11}$/),
				fc.stringMatching(/^[0-9a-f]{10,16}$/).filter((s) => /\d/.test(s)),
				fc.stringMatching(/^ORD-\d{8}$/),
			),
		)
		.map(([noun, value]) => `${noun}${value}`),
	fc
		.tuple(fc.constantFrom('at ', 'until ', 'since ', 'до '), fc.integer({ min: 1e9, max: 2e9 }))
		.map(([noun, value]) => `${noun}${value}`),
	fc
		.tuple(fc.stringMatching(/^[1-9]\d{7,9}$/), fc.constantFrom(' RUB', ' USDT', ' руб', '%'))
		.map(([value, unit]) => `${value}${unit}`),
);
const FILLER = fc
	.array(
		fc.constantFrom(
			' rejected,',
			' invalid;',
			' expired',
			' was rotated:',
			' not found,',
			' is',
			' for the',
			' не найден,',
			' истёк,',
		),
		{ minLength: 1, maxLength: 3 },
	)
	.map((parts) => `${parts.join('')} `);

describe('key and password words: a value another word names stays as written', () => {
	it('generated: request ids, orders, statuses, times, amounts after a key word', () => {
		fc.assert(
			fc.property(KEY_WORD, FILLER, OTHER_VALUE, AUDIENCE, (word, filler, other, audience) => {
				const text = `${word}${filler}${other}`;
				// For the model any run of 10 digits or more in a text is hidden (a phone or card
				// requisite: LONG_NUMBER, documented), whatever word stands before it.
				if (audience === 'model' && /\d{10,}/.test(text)) return true;
				return gateText(undefined, text, audience) === text;
			}),
			{ numRuns: RUNS },
		);
	});

	it.each([
		'API key rejected, request id 12345678',
		'API key invalid; order 20261142 not paid',
		'token expired, requestId 98765432',
		'token expired at 1732871234',
		'password reset, request 123456789',
		'Your API key was rotated: trace 4f1c2e9a0b',
		'secret rotated for order ORD-20261142',
		'session token invalid, amount 12345678 RUB',
		'ключ не найден, запрос 12345678',
		'токен истёк, заказ 20261142',
		'API key for merchant 12345678 revoked',
		'password reset for account 12345678',
	])('%j', (text) => {
		expect(gateText(undefined, text, 'user')).toBe(text);
		if (!/\d{10,}/.test(text)) expect(gateText(undefined, text, 'model')).toBe(text);
	});
});

describe('a key word right before a date, an amount or a quantity: no key', () => {
	it.each([
		['Сумма в токене 1500.50 USDT', 'user'],
		['токен 2026-11-20T10:00:00Z', 'user'],
		['ключ 12345678 RUB', 'user'],
		['секрет 1500.50', 'user'],
		['Сумма в токене 1500.50 USDT', 'model'],
		['ключ 12345678 RUB', 'model'],
	] as const)('%j (%s)', (text, audience) => {
		expect(gateText(undefined, text, audience)).toBe(text);
	});

	it.each(['ключ 9f8e7d6c5b', 'ключ компании 12345678', 'токен: 12345678', 'пароль Qwerty12345'])(
		'%j: still hidden',
		(text) => {
			const value = text.slice(text.search(/\S+$/));
			for (const audience of ['user', 'model'] as const) {
				expect(gateText(undefined, text, audience)).not.toContain(value);
			}
		},
	);
});

/** 12–19 digits (a card's, or part of one), with a passing card checksum or not. */
const LONG_RUN = fc.stringMatching(/^[1-9]\d{11,18}$/);

describe('card words: a long number another word names stays for the user', () => {
	it('generated: a request id, an RRN, an order number after a card word', () => {
		fc.assert(
			fc.property(
				fc.constantFrom('card', 'Card', 'PAN', 'карта', 'карты', 'номер', 'company'),
				fc.constantFrom(' declined, ', ' payment ', ' blocked; ', ' ', ': ', ' отклонена, '),
				fc.constantFrom('request id ', 'RRN ', 'order ', 'заказа ', 'id ', 'reference ', 'amount '),
				// A run of 13–19 digits that passes the card checksum is a card number by its look
				// wherever it stands (BARE_CARD_RUN), and 13 digits from 1e12 a time in ms.
				LONG_RUN.filter((run) => run.length < 13 || !luhn(run)),
				(word, between, noun, run) => {
					const text = `${word}${between}${noun}${run}`;
					return gateText(undefined, text, 'user') === text;
				},
			),
			{ numRuns: RUNS },
		);
	});

	it('a card number written after the card word, whole or cut short, is still hidden', () => {
		fc.assert(
			fc.property(
				fc.constantFrom(
					'card ',
					'card number ',
					'card number is ',
					'карта ',
					'номер карты: ',
					'PAN ',
				),
				fc.constantFrom('427638001234567', '427638001234', '4276380012345679', '42763800123456'),
				AUDIENCE,
				(naming, run, audience) =>
					!gateText(undefined, `Payout rejected: ${naming}${run} blocked`, audience).includes(
						run.slice(0, 8),
					),
			),
			{ numRuns: 100 },
		);
	});
});
