import type { IDataObject } from 'n8n-workflow';

import { gateJson, maskForModel } from '../../nodes/shared/gate';

/*
 * Outside read r7-data, findings 3, 4 and 6: free text that shows part of a card number, PINs and
 * keys named in Russian (the document says `message` is Russian), and a card number written as a
 * list of its groups.
 * 3. a run of 12 or more digits grouped as a card is written (or one run), cut short or not, is
 *    (part of) a card number: 15 of 16 digits give the card back by its check digit;
 * 4. ПИН, ПИН-код, пин-код, ключ, API-ключ, пароль, секрет and CVV/CVC in Cyrillic text;
 * 6. `[4276,3800,1234,5679]` in a free field.
 */

const AUDIENCES = ['user', 'model'] as const;
const CARD = '4276380012345679';
const gate = (value: IDataObject, audience: (typeof AUDIENCES)[number] = 'user') =>
	JSON.stringify(gateJson(undefined, value, audience));

describe('finding 3: a card number cut short in free text', () => {
	const cuts = [
		'4276 3800 1234 567…',
		'4276 3800 1234 567...',
		'4276 3800 1234 567',
		'4276-3800-1234-56',
		'427638001234567',
		'427638001234567…',
		'4276 3800 1234 5…',
		'4276 3800 1234',
		'4276 3800 1234 567*',
		'427638001234',
	];
	it.each(AUDIENCES)('every cut form is masked in a comment and a message (%s)', (audience) => {
		for (const cut of cuts) {
			const text = `Payout rejected: card ${cut} is blocked by the issuer`;
			const shown = gate({ comment: text, message: text }, audience);
			expect(shown).not.toMatch(/4276.?3800.?1234/);
			expect(shown).toContain('Payout rejected: card ');
			expect(shown).toContain(' is blocked by the issuer');
		}
	});

	it('the model view hides it too', () => {
		const shown = JSON.stringify(maskForModel({ comment: 'card 4276 3800 1234 567… blocked' }));
		expect(shown).not.toMatch(/4276.?3800.?1234/);
	});

	it('amounts, dates, times, phones and short numbers in a text stay', () => {
		const texts = [
			'Paid 1 000 000.00 RUB on 2026-01-01 12:30:45',
			'amount 123456.78 at 2026-01-01T00:00:00.000Z',
			'phone +79001234567 called',
			'order 20261142 done',
			'tx 0x9f8e7d6c5b4a39281706f5e4d3c2b1a0 confirmed',
			'uuid 3f2a1b4c-1234-5678-9abc-def012345678',
			'rate 92.123456789012',
			'at 1767225600000 ms',
			'deposit 9007199254740993 of USDT-TRC20',
			'card issued at 1767225600000',
		];
		for (const text of texts)
			expect(gateJson(undefined, { comment: text })).toEqual({ comment: text });
	});

	it('an identifier the run knows by its field name stays, also in a text', () => {
		const id = '790123400012345';
		const out = gateJson(undefined, { id, comment: `deposit ${id} failed` });
		expect(out).toEqual({ id, comment: `deposit ${id} failed` });
	});
});

describe('finding 4: secrets named in Russian', () => {
	const MEMBER = ['4f9c2a7be81d4c0f', '9a3e6b1d2c7f8e90aa11bb22'].join('');
	const cases: Array<[string, RegExp]> = [
		['Для карты установлен ПИН-код 4321', /4321/],
		['пин-код: 4321', /4321/],
		['ПИН 4321 неверный', /4321/],
		['ПИН карты: 4321', /4321/],
		[`API-ключ участника: ${MEMBER} отозван`, /4f9c2a7be81d4c0f/],
		[`ключ ${MEMBER} отозван`, /4f9c2a7be81d4c0f/],
		['пароль: Secr3tPass! сменён', /Secr3tPass/],
		['Пароль qwerty123 неверный', /qwerty123/],
		['секрет: s3cr3tvalue99', /s3cr3tvalue99/],
		['CVV-код карты: 123', /: 123/],
		['код CVC 987 неверен', /987/],
		['СVV 123', /123/],
	];
	it.each(AUDIENCES)('each is masked in a message (%s)', (audience) => {
		for (const [text, leak] of cases) {
			const shown = gate({ message: text }, audience);
			expect([text, shown]).not.toEqual([text, expect.stringMatching(leak)]);
		}
	});

	it('Russian words that only look alike stay', () => {
		for (const text of ['Ключевой клиент', 'ПИН не задан', 'ключ не найден', 'Пароль изменён']) {
			expect(gateJson(undefined, { message: text })).toEqual({ message: text });
		}
	});
});

describe('finding 6: a card number as a list of its groups', () => {
	it.each(AUDIENCES)('in a free field, as numbers or texts (%s)', (audience) => {
		for (const groups of [
			[4276, 3800, 1234, 5679],
			['4276', '3800', '1234', '5679'],
			[4276, 3800, 1234, 567],
		]) {
			const shown = gate({ comment: groups as unknown as IDataObject['comment'] }, audience);
			expect(shown).not.toMatch(/4276.{0,3}3800.{0,3}1234/);
		}
	});

	it('a list of amounts or of short numbers stays', () => {
		for (const list of [
			[100, 200, 300],
			[2026, 1, 1],
			[1, 2, 3, 4, 5],
		]) {
			expect(gateJson(undefined, { comment: list })).toEqual({ comment: list });
		}
	});

	it('the full number is still masked', () => {
		expect(gate({ comment: CARD })).not.toContain(CARD);
	});
});
