// Issue 50, the PIN/CVV-in-words rule: the digits it hides are the value the word names
// (`PIN: 1234`, `pin code 12 34`, `pin=1234`, `the PIN of your card is 1234`), not any number
// that follows a PIN or CVV word in the same text. Seen in a real error description: a service
// body cut short that said `pin` and later `HTTP status: 400` showed `HTTP status: •••`.
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';
import nock from 'nock';

import { gateJson, gateText } from '../../nodes/shared/gate';
import { BASE_URL, runNodeError } from './helpers/n8n';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const RUNS = 300;
const AUDIENCE = fc.constantFrom('user' as const, 'model' as const);

/** Every way the tests of rounds r5, r7, r8 and r14 write a PIN's word. */
const PIN_WORD = fc.constantFrom(
	'PIN',
	'pin',
	'Pin',
	'PIN code',
	'pin-code',
	'pinCode',
	'card PIN',
	'card_pin',
	'ПИН',
	'ПИН-код',
	'пин код',
	'Пин-код',
);
const CVV_WORD = fc.constantFrom(
	'CVV',
	'cvv',
	'CVC',
	'CVV2',
	'код CVC',
	'CVV-код',
	'security code',
	'card verification code',
);
/** What may stand between the word and the value it names. */
const NAMING = fc.constantFrom(
	' ',
	': ',
	'=',
	' = ',
	' is ',
	' — ',
	' number is ',
	' for the card: ',
	' of your card is ',
	' you need is ',
	' for your new card will be ',
	' on the back of the card: ',
	' changed to ',
	' вашей карты: ',
	' от карты ',
	' карты: ',
	' code is ',
	' sent to you: ',
	' you requested is ',
	', which you requested, is ',
	' sent by SMS: ',
	' отправлен: ',
	', который вы запросили: ',
	' для входа ',
);
/** A PIN of 4–8 digits (a CVV of 3–4), as one run or with one separator between its digits. */
const written = (min: number, max: number) =>
	fc
		.tuple(
			fc.stringMatching(new RegExp(`^\\d{${min},${max}}$`)),
			fc.constantFrom('', ' ', '-', '\u00a0', '.'),
		)
		.map(([digits, gap]) => ({ digits, written: digits.split('').join(gap) }));
const SENTENCE = fc.constantFrom(
	(s: string) => s,
	(s: string) => `Your ${s}, thanks`,
	(s: string) => `Ваш ${s}, спасибо`,
	(s: string) => `Card blocked: ${s}.`,
	(s: string) => `"${s}"`,
	(s: string) => `${s} (do not share)`,
);

/** Whether the text shows the secret's digits in a row, whatever stands between them. */
const showsDigits = (text: string, digits: string) => text.replace(/\D/g, '').includes(digits);

describe('(a) a PIN or CVV in any guarded form is never shown', () => {
	it('generated: word, naming words, the value, in a sentence', () => {
		fc.assert(
			fc.property(
				fc.oneof(fc.tuple(PIN_WORD, written(4, 8)), fc.tuple(CVV_WORD, written(3, 4))),
				NAMING,
				SENTENCE,
				AUDIENCE,
				([word, value], naming, sentence, audience) => {
					const text = sentence(`${word}${naming}${value.written}`);
					return !showsDigits(gateText(undefined, text, audience), value.digits);
				},
			),
			{ numRuns: RUNS },
		);
	});

	it('generated: URL-encoded in a link, a name/value pair, the value of the answer in its texts', () => {
		fc.assert(
			fc.property(
				fc.constantFrom('pin', 'pinCode', 'cardPin', 'cvv', 'cvc'),
				fc.stringMatching(/^\d{4,6}$/),
				fc.integer({ min: 0, max: 2 }),
				AUDIENCE,
				(name, digits, times, audience) => {
					let inner = `/confirm?step=one&${name}=${digits}`;
					for (let n = 0; n < times; n++) inner = encodeURIComponent(inner);
					const shown = JSON.stringify(
						gateJson(
							undefined,
							{
								id: 'c1',
								status: 'assigned',
								activationUrl: `https://issuer.example/a?next=${inner}`,
								attributes: [{ name, value: digits }],
							},
							audience,
						),
					);
					const beside = JSON.stringify(
						gateJson(
							undefined,
							{ id: 'c1', [name]: digits, message: `Your code: ${digits} ok` },
							audience,
						),
					);
					// Read as the link's reader would: decoded as often as it was encoded (the escapes'
					// own digits, `%25`, `%3D`, are no PIN).
					const read = decodeURIComponent(decodeURIComponent(shown));
					return !read.includes(digits) && !beside.includes(digits);
				},
			),
			{ numRuns: RUNS },
		);
	});

	it.each([
		'PIN number is 4829',
		'the PIN you need is 4829',
		'ПИН-код вашей карты: 4829',
		'пин код от карты 4829',
		'Карта заблокирована: ПИН-код вашей карты 4829 введён неверно',
		'Your card PIN is 4-8-2-1',
		'Пин-код карты: 4 8 2 1',
		'PIN changed to 4829',
		'pin=4829 must not be sent',
		'{"cardPin":"4829"}',
		'PIN 4829 is not valid for this card',
		'Amex CID 4829',
	])('%j', (text) => {
		for (const audience of ['user', 'model'] as const) {
			expect(showsDigits(gateText(undefined, text, audience), '4829')).toBe(false);
			expect(showsDigits(gateText(undefined, text, audience), '4821')).toBe(false);
		}
	});
});

/** A number of another kind, written after the noun that names it (or before its unit). */
const OTHER_NUMBER = fc.oneof(
	fc
		.tuple(
			fc.constantFrom('HTTP status: ', 'status ', 'status code ', '(HTTP ', 'статус '),
			fc.integer({ min: 100, max: 599 }),
		)
		.map(([noun, n]) => `${noun}${n}${noun.startsWith('(') ? ')' : ''}`),
	fc
		.tuple(
			fc.constantFrom('request id ', 'requestId=', 'request ', 'trace ', 'Request-Id: '),
			fc.stringMatching(/^[1-9]\d{2,7}$/),
		)
		.map(([noun, n]) => `${noun}${n}`),
	fc
		.tuple(
			fc.constantFrom('amount ', 'amount: ', 'сумма ', ''),
			fc.stringMatching(/^[1-9]\d{2,7}$/),
			fc.constantFrom(' RUB', ' USDT', '.50 USDT', ' руб', ' ₽', '%'),
		)
		.map(([noun, n, unit]) => `${noun}${n}${unit}`),
	fc
		.tuple(fc.constantFrom('$', '€', '₽'), fc.stringMatching(/^[1-9]\d{2,6}$/))
		.map(([sign, n]) => `${sign}${n}`),
	fc
		.tuple(
			fc.stringMatching(/^[1-9]\d{2,5}$/),
			fc.constantFrom(' attempts', ' times', ' tries', ' cards', ' раз', ' попыток'),
		)
		.map(([n, unit]) => `${n}${unit}`),
	fc
		.tuple(
			fc.constantFrom('count ', 'attempts: ', 'попыток: '),
			fc.stringMatching(/^[1-9]\d{2,5}$/),
		)
		.map(([noun, n]) => `${noun}${n}`),
	fc
		.tuple(
			fc.integer({ min: 2000, max: 2099 }),
			fc.integer({ min: 1, max: 12 }),
			fc.integer({ min: 1, max: 28 }),
			fc.constantFrom('date ', 'on ', 'at ', ''),
			fc.constantFrom('-', '.', '/'),
		)
		.map(([y, m, d, noun, sep]) => {
			const [mm, dd] = [String(m).padStart(2, '0'), String(d).padStart(2, '0')];
			return sep === '.' ? `${noun}${dd}.${mm}.${y}` : `${noun}${y}${sep}${mm}${sep}${dd}`;
		}),
	fc
		.tuple(
			fc.constantFrom(
				'order ',
				'order #',
				'заказ №',
				'invoice ',
				'card ending ',
				'card ending in ',
			),
			fc.stringMatching(/^[1-9]\d{2,7}$/),
		)
		.map(([noun, n]) => `${noun}${n}`),
);
/** Words a text may put between the PIN word and the other number, linking words among them. */
const FILLER = fc
	.array(
		fc.constantFrom(
			' rejected',
			' was',
			' is',
			' for the card',
			' of your card',
			' blocked',
			',',
			';',
			' check failed',
			' —',
			':',
			' error',
			' неверный',
			' карты',
			' request failed',
			' (',
		),
		{ maxLength: 4 },
	)
	.map((parts) => `${parts.join('')} `);

describe('(b) a number of another kind after a PIN or CVV word is never altered', () => {
	it('generated: status codes, request ids, amounts, counts, dates, order numbers', () => {
		fc.assert(
			fc.property(
				fc.oneof(PIN_WORD, CVV_WORD),
				FILLER,
				OTHER_NUMBER,
				AUDIENCE,
				(word, filler, number, audience) => {
					const text = `${word}${filler}${number}`;
					return gateText(undefined, text, audience) === text;
				},
			),
			{ numRuns: RUNS },
		);
	});

	it.each([
		'pin rejected, HTTP status: 400',
		'The pin request failed (HTTP status: 400)',
		'pin change request 12345 failed',
		'PIN reset for order 5678 done',
		'pin check failed; request id 123456',
		'pin entered wrong, amount 1500 RUB',
		'CVV check failed with status 400',
		'security code check failed, request 4567',
		'PIN blocked after 1000 attempts',
		'PIN for card ending 4821 was reset',
		'PIN: 2026-11-20 changed',
		// A unit in capitals after a Russian PIN word (the generator's counterexample, seed -1039011428).
		'ПИН-код 1000 RUB',
		'ПИН 1500 USDT',
		// `cid` is also a correlation or client ID; as a card's ID (Amex) it has 4 digits.
		'cid=12345678',
		'request failed, cid: 98765432',
	])('%j', (text) => {
		for (const audience of ['user', 'model'] as const) {
			expect(gateText(undefined, text, audience)).toBe(text);
		}
	});

	it('the service error of the report: its HTTP status stays in the description', async () => {
		nock(BASE_URL).get('/cards/c1').reply(400, 'Card pin check failed, request 48213', {
			'Content-Type': 'text/plain',
		});
		const error = await runNodeError({
			parameters: { resource: 'card', operation: 'get', cardId: 'c1' },
		});
		const shown = `${error.message} ${String(error.description)}`;
		expect(shown).toContain('48213');
		expect(shown).not.toMatch(/•/);
		expect(gateJson(undefined, { note: shown } as IDataObject)).toEqual({ note: shown });
	});
});
