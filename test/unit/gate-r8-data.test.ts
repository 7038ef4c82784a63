import type { IDataObject } from 'n8n-workflow';

import { gateJson } from '../../nodes/shared/gate';

/*
 * Outside read r8-data, findings 1, 2, 3, 6, 7, 8: secrets in free text written in words, not in
 * one of the fixed shapes the masks knew. A PIN or CVV named by a word within the same sentence,
 * a card number with any short separator or glued to a word, a key or password named in words.
 * Read for the user and for the model alike (the webhook and error doors use the same gate).
 */

const AUDIENCES = ['user', 'model'] as const;
const gate = (text: string, audience: (typeof AUDIENCES)[number]) =>
	String((gateJson(undefined, { comment: text } as IDataObject, audience) as IDataObject).comment);

const PIN_CVV: Array<[string, string]> = [
	['PIN number is 4829', '4829'],
	['PIN for the card: 4829', '4829'],
	['the PIN you need is 4829', '4829'],
	['PIN-код карты: 4829', '4829'],
	['ПИН-код вашей карты: 4829', '4829'],
	['пин код от карты 4829', '4829'],
	['CVV code is 739', '739'],
	['CVV of the card: 739', '739'],
	['Код CVV2 вашей карты: 739', '739'],
	['security code of the card is 739', '739'],
	['Карта заблокирована: ПИН-код вашей карты 4829 введён неверно', '4829'],
];
const CARDS = [
	'card 4111—1111—1111—1111',
	'card 4111–1111–1111–1111',
	'card 4111·1111·1111·1111',
	'card 4111 11 11 1111 1111',
	'card 411111 111111 1111',
	'card 41 11 11 11 11 11 11 11',
	'card4111111111111111',
	'карта4111111111111111',
	'card 4111,1111,1111,1111',
	'card 4111|1111|1111|1111',
	'card 4111/1111/1111/1111',
	'card4111111111111111 is blocked',
];
const K = '9f8e7d6c5b4a39281706f5e4d3c2b1a0';
const KEYS: Array<[string, string]> = [
	[`Your new API key is ${K}`, K],
	[`member key is ${K}`, K],
	[`key=${K}`, K],
	[`Authorization: Token ${K}`, K],
	[`sessionToken ${K}`, K],
	[`session token: ${K}`, K],
	['password for login is Qwerty12345', 'Qwerty12345'],
	['пароль от кабинета Qwerty12345', 'Qwerty12345'],
	['секрет доступа: Zx9Yw8Vu7T', 'Zx9Yw8Vu7T'],
];
const ORDINARY = [
	'PIN changed on 2026-11-20 at 10:00',
	'Paid 1500.50 RUB on 20.11.2026 10:00:00',
	'Session token expired at 2026-11-20T10:00:00Z',
	'USDT token sent, tx a3f1c2e4b5d6978812345678901234567890abcdefabcdefabcdef0123456789',
	'Amount 12 345 678 901 234 RUB',
	'The key point: payout of 1500 RUB failed',
	'Deposit 9007199254740993 credited',
];

describe.each(AUDIENCES)('free-text secrets in words (%s)', (audience) => {
	it.each(PIN_CVV)('a PIN or CVV named by a word: %s', (text, secret) => {
		const shown = gate(text, audience);
		expect(shown).not.toContain(secret);
		expect(shown.replace(/[•\d]/g, '')).toBe(text.replace(/\d/g, ''));
	});
	it.each(CARDS)('a card number with any separator or glued: %s', (text) => {
		const shown = gate(text, audience);
		expect(shown.replace(/\D/g, '')).toBe('1111');
		expect(shown).toMatch(/^(?:card|карта)/);
	});
	it.each(KEYS)('a key or password named in words: %s', (text, secret) => {
		const shown = gate(text, audience);
		expect(shown).not.toContain(secret);
		expect(shown).toContain(text.slice(0, 3));
	});
});

describe('ordinary texts stay readable for the user', () => {
	it.each(ORDINARY)('%s', (text) => {
		expect(gate(text, 'user')).toBe(text);
	});
});
