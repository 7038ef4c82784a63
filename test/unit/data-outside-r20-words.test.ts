// Outside read r20-data (issue 50), the PIN/CVV words of free texts (fixer dfix26).
// F1: an Indian postal code (`PIN code 560001`, `PIN: 560001` in an address, a CSV's `pincode`
//     column beside a city) was masked as a card PIN. A postal code is ordinary data.
// F2: PIN/CVV words and layouts that were not read: `PIN-Nummer`, `PIN-Nr.`, `NIP` (the French
//     and Spanish PIN), `código de verificación`, `卡验证码`, the traditional `密碼`/`安全碼`,
//     `CVV#123`, a value one or two blank lines below its word, a form part named `name=cvv`
//     without quotes.
// F4: an amount after a PIN/CVV word with a unit the gate did not know (`р.`, `шт.`, `pcs`,
//     `unidades`, `年`) was masked.
import fc from 'fast-check';

import { gateJson, gateText } from '../../nodes/shared/gate';

const RUNS = 200;

function shown(text: string): string {
	return String(gateJson(undefined, { comment: text }, 'user').comment);
}
function shownToModel(text: string): string {
	return String(gateJson(undefined, { comment: text }, 'model').comment);
}
/** Every door a free text passes: an item's field for the user and the model, an error's text. */
function everywhere(text: string): string[] {
	return [
		shown(text),
		shownToModel(text),
		gateText(undefined, text, 'user'),
		gateText(undefined, text, 'model'),
	];
}

describe('F1: a postal PIN code in an address is ordinary data', () => {
	it.each([
		'Deliver to: 12 MG Road, Bengaluru, Karnataka, PIN code 560001',
		'Ship to: 4 Park Street, Kolkata, West Bengal. PIN: 700016',
		'Address: Flat 3, Sector 5, Noida, Uttar Pradesh, Pincode - 201301',
		'Delivery address: 221 Baker Lane, Pune 411001 (PIN code: 411001)',
		'Адрес доставки: MG Road, Bengaluru, PIN 560001',
		'Shipping address\n12 MG Road\nBengaluru\nPIN code 560001\nIndia',
		'order,city,pincode,qty\n12345,Bengaluru,560001,2',
		'name;address;pin_code\nA. Rao;12 MG Road, Bengaluru;560001',
	])('%j comes out exact for the user and the model', (text) => {
		for (const out of everywhere(text)) expect(out).toBe(text);
	});

	it.each([
		// No address around it: a PIN word and six digits are a card's PIN (closed by default).
		['PIN code 560001', '560001'],
		['PIN: 560001', '560001'],
		// A card named right before the word, or between the word and the digits.
		['Deliver to: 12 MG Road, Bengaluru. Card PIN: 560001', '560001'],
		['Address: 12 MG Road, Bengaluru, ATM PIN 560001', '560001'],
		['Deliver to: 12 MG Road, Bengaluru. The PIN for your card is 560001', '560001'],
		['Deliver to: 12 MG Road, Bengaluru; your new PIN is 560001', '560001'],
		// A word that makes the PIN a secret right before it.
		['Deliver to: 12 MG Road, Bengaluru. Your PIN: 560001', '560001'],
		['Address: 12 MG Road, Bengaluru, new PIN 560001', '560001'],
		['Ship to 12 MG Road. Enter PIN code: 560001', '560001'],
		// Words between the PIN word and the digits: a sentence naming a PIN, not an address's code.
		['Deliver to: 12 MG Road, Bengaluru. The PIN is 560001', '560001'],
		['Deliver to: 12 MG Road, Bengaluru. PIN to use: 560001', '560001'],
		// Not a postal code's six digits.
		['Deliver to: 12 MG Road, Bengaluru, PIN: 4821', '4821'],
		['Deliver to: 12 MG Road, Bengaluru, PIN: 48213917', '48213917'],
		['Deliver to: 12 MG Road, Bengaluru, PIN: 056001', '056001'],
		// A table with a card column: its pin column is the card's.
		['card_number,city,pin\n•••• 5671,Bengaluru,560001', '560001'],
		['city,pin\nBengaluru,4821', '4821'],
	])('%j still hides %s', (text, secret) => {
		for (const out of everywhere(text)) expect(out).not.toContain(secret);
	});

	const ADDRESS = fc.constantFrom(
		'Deliver to: 12 MG Road, Bengaluru, Karnataka, ',
		'Shipping address: 7 Nehru Nagar, Jaipur, ',
		'Address: Flat 3, Sector 5, Noida, ',
		'Ship to 221 Station Street, Chennai, Tamil Nadu, ',
		'Адрес: ул. Ленина 5, ',
		'Billing address - 14 Lake View Colony, Hyderabad\n',
	);
	const POSTAL_WORD = fc.constantFrom(
		'PIN code',
		'PIN',
		'Pin',
		'Pincode',
		'PIN-code',
		'PIN Code No.',
	);
	const POSTAL_GAP = fc.constantFrom(' ', ': ', ' - ', ':', ' # ', '=');
	const POSTAL_DIGITS = fc.integer({ min: 100000, max: 999999 }).map(String);
	const AFTER = fc.constantFrom('', ', India', '.', '\nIndia');
	/** A number sign before the digits is left out: `PIN # 4821` at a text's end is r17's rule. */
	const CARD_GAP = fc.constantFrom(' ', ': ', ' - ', ':', '=');

	it('generated: an address, a postal word and six digits come out exact', () => {
		fc.assert(
			fc.property(
				ADDRESS,
				POSTAL_WORD,
				POSTAL_GAP,
				POSTAL_DIGITS,
				AFTER,
				(address, word, gap, digits, after) => {
					const text = `${address}${word}${gap}${digits}${after}`;
					return everywhere(text).every((out) => out === text);
				},
			),
			{ numRuns: RUNS },
		);
	});

	const CARD_BEFORE = fc.constantFrom(
		'card ',
		'Card ',
		'ATM ',
		'debit card ',
		'credit card ',
		'bank card ',
		'UPI ',
		'карты ',
	);
	it('generated: the same with a card named before the word: the digits are hidden', () => {
		fc.assert(
			fc.property(
				ADDRESS,
				CARD_BEFORE,
				POSTAL_WORD,
				CARD_GAP,
				POSTAL_DIGITS,
				AFTER,
				(address, card, word, gap, digits, after) => {
					const text = `${address}${card}${word}${gap}${digits}${after}`;
					return everywhere(text).every((out) => !out.includes(digits));
				},
			),
			{ numRuns: RUNS },
		);
	});

	it('generated: six digits after a PIN word with no address around are hidden', () => {
		fc.assert(
			fc.property(
				fc.constantFrom('', 'Order ORD-1234 amount 1500.50 USDT: ', 'Hello, ', 'Note: '),
				POSTAL_WORD,
				fc.constantFrom(' ', ': ', '='),
				POSTAL_DIGITS,
				(before, word, gap, digits) => {
					const text = `${before}${word}${gap}${digits}`;
					return everywhere(text).every((out) => !out.includes(digits));
				},
			),
			{ numRuns: RUNS },
		);
	});
});

describe('F2: PIN and CVV words and layouts that were not read', () => {
	it.each([
		['PIN-Nummer 1234', '1234'],
		['Ihre PIN-Nummer lautet 4821', '4821'],
		['PIN-Nr. 1234', '1234'],
		['PIN-Nr.: 4821', '4821'],
		['NIP: 1234', '1234'],
		['Votre NIP est 4821', '4821'],
		['Tu NIP es 4821', '4821'],
		['código de verificación 123', '123'],
		['Código de verificación: 739', '739'],
		['code de vérification 739', '739'],
		['卡验证码 123', '123'],
		['信用卡验证码：739', '739'],
		['卡驗證碼 739', '739'],
		['密碼 1234', '1234'],
		['提款密碼：4821', '4821'],
		['安全碼 123', '123'],
		['CVV#123', '123'],
		['cvc#4567', '4567'],
		['PIN#4821', '4821'],
		['PIN\n\n1234', '1234'],
		['CVV\n  \n123', '123'],
		['Your PIN\r\n\r\n4821', '4821'],
		['CVV\n\n\n739', '739'],
		['--X\r\nContent-Disposition: form-data; name=cvv\r\n\r\n123\r\n--X--', '\r\n123\r\n'],
		["--X\r\nContent-Disposition: form-data; name='pin'\r\n\r\n4821\r\n--X--", '4821'],
		['--X\nContent-Disposition: form-data; name=card_cvv; x=1\n\n739\n--X--', '739'],
	])('%j hides %j everywhere', (text, secret) => {
		for (const out of everywhere(text)) expect(out).not.toContain(secret);
	});

	it('only the digits go: the word and the layout stay as written', () => {
		expect(shown('PIN-Nr. 1234')).toBe('PIN-Nr. ••••');
		expect(shown('NIP: 1234')).toBe('NIP: ••••');
		expect(shown('CVV#123')).toBe('CVV#•••');
		expect(shown('CVV\n  \n123')).toBe('CVV\n  \n•••');
		expect(shown('安全碼 123')).toBe('安全碼 •••');
		expect(shown('--X\r\nContent-Disposition: form-data; name=cvv\r\n\r\n123\r\n--X--')).toBe(
			'--X\r\nContent-Disposition: form-data; name=cvv\r\n\r\n•••\r\n--X--',
		);
	});

	it('a Polish NIP (a tax number of ten digits) is no PIN: kept for the user', () => {
		// The model hides any run of ten digits or more in a text (a phone's, a requisite's).
		for (const text of ['NIP 5261040828', 'NIP: 5261040828']) {
			expect(shown(text)).toBe(text);
			expect(gateText(undefined, text, 'user')).toBe(text);
		}
	});

	it.each([
		// A Polish NIP grouped.
		'NIP: 526-104-08-28',
		// `nip` in lower case is an English word.
		'nip 1234 of the bottle',
		// A number sign after a space is another number's (r17-data finding 2).
		'CVV #123 order failed',
		// Three blank lines and more: no longer the label's value.
		'CVV\n\n\n\n739',
		// A label over a quantity or a date.
		'PIN\n\n1000 RUB',
		'CVV\n\n2026-11-20',
		// A form part of another name, unquoted.
		'--X\r\nContent-Disposition: form-data; name=amount\r\n\r\n1500\r\n--X--',
		'--X\r\nContent-Disposition: form-data; name=pin_attempts\r\n\r\n3\r\n--X--',
		// Verification words with an amount.
		'código de verificación 150 EUR',
	])('%j stays as written', (text) => {
		for (const out of everywhere(text)) expect(out).toBe(text);
	});

	const WORD = fc.constantFrom(
		'PIN-Nummer',
		'PIN-Nr.',
		'NIP',
		'código de verificación',
		'卡验证码',
		'密碼',
		'安全碼',
		'CVV#',
		'PIN\n\n',
		'CVV\n  \n',
		'CVC\r\n\r\n',
	);
	it('generated: each word or layout then its digits: the digits never shown', () => {
		fc.assert(
			fc.property(
				fc.constantFrom('', 'Order ORD-1234:\n', 'Ответ банка:\n', 'Note\n'),
				WORD,
				fc.integer({ min: 4821, max: 9999 }).map(String),
				fc.constantFrom('', ' sent', '.', '\n--end'),
				(before, word, digits, after) => {
					const gap = /[\s#]$/u.test(word) ? '' : ' ';
					const text = `${before}${word}${gap}${digits}${after}`;
					return everywhere(text).every((out) => !out.includes(digits));
				},
			),
			{ numRuns: RUNS },
		);
	});
});

describe('F4: an amount, count or year with a unit after a PIN/CVV word stays', () => {
	it.each([
		'Смена PIN 1500 р.',
		'Выдано PIN-конвертов: 1500 шт.',
		'CVV 123 pcs',
		'Tarjetas con PIN 1500 unidades',
		'支付密码 2025年到期',
		'CVV\n150 р.',
		'PIN 2025 г.',
		'Заказано PIN-пакетов 1500 штук',
		'CVV 150 pieces',
		'PIN 1500 Stück',
		'安全码 300元',
	])('%j comes out exact', (text) => {
		for (const out of everywhere(text)) expect(out).toBe(text);
	});

	it.each([
		// The unit must be a word of its own: a PIN then a word that starts like one is no amount.
		['PIN 4821 pcsx', '4821'],
		['PIN 4821 режим', '4821'],
		['CVV 739 pc-terminal', '739'],
	])('%j still hides %s', (text, secret) => {
		for (const out of everywhere(text)) expect(out).not.toContain(secret);
	});

	const UNITS = fc.constantFrom(
		' р.',
		' р',
		' шт.',
		' шт',
		' штук',
		' pcs',
		' pcs.',
		' pieces',
		' units',
		' unidades',
		' Stück',
		' Stk.',
		'年',
		'元',
		'个',
		'张',
		' 年',
	);
	it('generated: word, digits and a unit come out exact', () => {
		fc.assert(
			fc.property(
				fc.constantFrom(
					'PIN',
					'PIN-code',
					'CVV',
					'CVC',
					'ПИН',
					'ПИН-код',
					'код CVC',
					'支付密码',
					'安全码',
					'PIN\n',
					'CVV\n',
				),
				fc.constantFrom(' ', ': '),
				fc.integer({ min: 1000, max: 99999 }).map(String),
				UNITS,
				(word, gap, digits, unit) => {
					const text = `${word}${word.endsWith('\n') ? '' : gap}${digits}${unit}`;
					return everywhere(text).every((out) => out === text);
				},
			),
			{ numRuns: RUNS },
		);
	});

	it('generated: a year of 19xx or 20xx with `г.` or `года` comes out exact; another number with them does not pass as a year', () => {
		fc.assert(
			fc.property(
				fc.constantFrom('PIN', 'ПИН', 'ПИН-код', 'CVV'),
				fc.integer({ min: 1900, max: 2099 }).map(String),
				fc.constantFrom(' г.', ' года', 'г.', ' г'),
				(word, year, unit) => {
					const text = `${word} ${year}${unit}`;
					return everywhere(text).every((out) => out === text);
				},
			),
			{ numRuns: RUNS },
		);
		for (const text of ['ПИН 4821 г. Москва', 'PIN 2100 г.', 'ПИН-код: 48213 года']) {
			for (const out of everywhere(text)) expect(out).not.toBe(text);
		}
	});
});
