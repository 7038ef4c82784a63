// Outside read r18-data (issue 50), findings 1–4 on free texts: a secret is never shown, however
// the text is encoded, and what is not a secret comes out exactly as sent.
// F1: a PIN in a URL-encoded (`Your%20PIN%20is%204829`), form-encoded (`PIN+4829`) or HTML-entity
//     (`PIN&#32;4829`) text was shown. Texts are read also decoded.
// F2: a PIN wrapped in HTML tags (`PIN: <b>4829</b>`, `<td>PIN</td><td>4829</td>`) was shown.
// F3: a token's name (`token USDT-TRC20`) and a record's number (`заявка ZX-2026-0001`, `ticket
//     INC0012345`) after a password or secret word were hidden.
// F4: where a text held a masked secret, the rest of it came out normalised (dashes, full-width
//     digits, zero-width characters, the `20` of `%20` lost).
import fc from 'fast-check';

import { gateJson } from '../../nodes/shared/gate';
import { maskPatterns } from '../../nodes/shared/gate/patterns';

const TEXT = { strong: false, inText: true, identifiers: new Set<string>() };
const MODEL = { strong: true, inText: true, identifiers: new Set<string>() };

function shown(text: string): string {
	return String(gateJson(undefined, { comment: text }, 'user').comment);
}
function shownToModel(text: string): string {
	return String(gateJson(undefined, { comment: text }, 'model').comment);
}

describe('F1/F2: a PIN encoded or wrapped in markup is hidden', () => {
	it.each([
		'Your%20PIN%20is%204829',
		'PIN%204829',
		'PIN+4829',
		'pin=4829&x=1',
		'PIN&#32;4829',
		'PIN&#x20;4829',
		'PIN&nbsp;is&nbsp;4829',
		'PIN: <b>4829</b>',
		'<td>PIN</td><td>4829</td>',
		'<p>Your <i>PIN</i> is <strong>4829</strong></p>',
		'Ваш%20ПИН%3A%204829',
		'%D0%9F%D0%98%D0%9D%204829',
	])('%s', (text) => {
		expect(shown(text)).not.toContain('4829');
		expect(shownToModel(text)).not.toContain('4829');
	});

	it('CVV encoded or in markup', () => {
		for (const text of ['CVV%20739', 'CVV+739', '<td>CVV</td><td>739</td>', 'CVV&#58;&#32;739']) {
			expect(shown(text)).not.toContain('739');
		}
	});

	const word = fc.constantFrom('PIN', 'pin', 'PIN code', 'ПИН', 'ПИН-код', 'card PIN');
	const pin = fc.integer({ min: 1000, max: 99999999 }).map(String);
	const encode = fc.constantFrom<(s: string) => string>(
		(s) => encodeURIComponent(s),
		(s) => s.replace(/ /g, '+'),
		(s) => s.replace(/ /g, '&#32;'),
		(s) => s.replace(/ /g, '&nbsp;'),
		(s) => s.replace(/ /g, '%20'),
		(s) => s.replace(/(\d+)/g, '<b>$1</b>'),
		(s) => s.replace(/^(.*?)(\d+)(.*)$/s, '<td>$1</td><td>$2</td>$3'),
	);
	const form = fc.constantFrom(
		(w: string, p: string) => `${w} ${p}`,
		(w: string, p: string) => `${w}: ${p}`,
		(w: string, p: string) => `Your ${w} is ${p}`,
		(w: string, p: string) => `New ${w} ${p} issued`,
	);
	it('generated: a PIN in a guarded form, encoded or wrapped in tags, is never shown', () => {
		fc.assert(
			fc.property(word, pin, form, encode, (w, p, f, e) => {
				const text = e(f(w, p));
				return !shown(text).includes(p) && !shownToModel(text).includes(p);
			}),
			{ numRuns: 300 },
		);
	});
});

describe('F3: names and record numbers after a secret word stay', () => {
	it.each([
		['Deposit via token USDT-TRC20 credited', 'USDT-TRC20'],
		['Paid in token TRC20, fee 1 USDT', 'TRC20'],
		['token ERC20 is not supported', 'ERC20'],
		['Пароль не требуется, заявка ZX-2026-0001', 'ZX-2026-0001'],
		['secret question reset requested, ticket INC0012345', 'INC0012345'],
		['password reset, case CS-20261142', 'CS-20261142'],
		['пароль сброшен, обращение RQ-00012345', 'RQ-00012345'],
		['secret rotated, invoice INV-2026-0042', 'INV-2026-0042'],
		['Оплата в токене USDT-TRC20 получена', 'USDT-TRC20'],
		['Withdrawal token USDT_ERC20 confirmed', 'USDT_ERC20'],
	])('%s', (text, kept) => {
		expect(shown(text)).toContain(kept);
		expect(shown(text)).toBe(text);
	});

	it('a real token after the word token still goes', () => {
		expect(shown('token Qw3rty12345abcXYZ issued')).not.toContain('Qw3rty12345abcXYZ');
		expect(shown('password: Qwerty12345')).not.toContain('Qwerty12345');
	});
});

describe('F4: the rest of a text with a masked secret comes out as written', () => {
	it.each([
		['Ваш ПИН — 4829, заказ — 55', '4829', 'заказ — 55'],
		['cvv 739; получатель: ООО «Ромашка» №５, ИП Иванов – склад', '739', '№５, ИП Иванов – склад'],
		['PIN%204829', '4829', 'PIN%20'],
		['PIN 4829 soft\u00adhyphen zero\u200bwidth', '4829', 'soft\u00adhyphen zero\u200bwidth'],
	])('%s', (text, hidden, kept) => {
		const out = shown(text);
		expect(out).not.toContain(hidden);
		expect(out).toContain(kept);
	});

	const odd = fc.constantFrom(
		'—',
		'–',
		'５',
		'\u200b',
		'\u00ad',
		'‐',
		'٣',
		'x',
		' ',
		'-',
		'%20',
		'&amp;',
	);
	const filler = fc
		.array(fc.oneof(odd, fc.constantFrom('заказ', 'order', 'a', 'Б', '55', ',')), { maxLength: 8 })
		.map((parts) => parts.join(' '));
	it('generated: texts with dashes, full-width and zero-width characters keep every other character', () => {
		fc.assert(
			fc.property(filler, fc.integer({ min: 1000, max: 9999 }), filler, (before, p, after) => {
				const text = `${before} | PIN ${p} | ${after}`;
				const out = maskPatterns(text, TEXT);
				const model = maskPatterns(text, MODEL);
				return (
					out === `${before} | PIN •••• | ${after}` &&
					!model.includes(String(p)) &&
					model.endsWith(` | ${after}`)
				);
			}),
			{ numRuns: 300 },
		);
	});
});
