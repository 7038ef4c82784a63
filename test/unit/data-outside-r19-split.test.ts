// Outside reads r19-data (F8, F11, F13) and r20-data (F3) on issue 50, fixer dfix27.
// F8:  a card number split over adjacent fields (`part1..part4`, `{bin, middle, last4}`) or two
//      array entries (`["card 2200 1500", "1234 5671"]`) was shown, readable once joined.
// F11: the credential's API key split in two (two fields, two entries, a text naming part 2) was
//      shown: each half alone is no whole value.
// F13: the API key as UTF-16 (LE, BE) in base64 or hex, or quoted-printable, in an error's details
//      was shown.
// F3:  the CVVs of one output's items were known to all its items: card a's CVV `2027` hid card
//      b's expiry year `03/2027`; F3b: a delivery's CVV `250` hid `Лимит 250 USD` in its note.
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { gateItems, gateJson, gateText, rememberCredential } from '../../nodes/shared/gate';
import { forgetLearnedSecrets, learnFromAnswer, openRun } from '../../nodes/shared/gate/learned';

// The outside reader's key (r19-data lib/h.js), written in parts as the other tests write theirs.
const KEY = ['mk', 'live', 'Q7hT2pLx9ZsV4nRb8WcK3yFd'].join('_');
const WHSEC = `whsec_${'a1b2c3d4e5f6'.repeat(4)}`;

function credential(): void {
	rememberCredential({ apiKey: KEY, webhookSecret: WHSEC, baseUrl: 'http://127.0.0.1:1/api' });
}

/** The key is readable from a JSON text once every character that is not a key's is dropped. */
function keyReadable(value: unknown): boolean {
	const text = JSON.stringify(value);
	const joined = text.replace(/[^A-Za-z0-9_]/g, '');
	return (
		joined.includes(KEY) ||
		joined.toLowerCase().includes(KEY.toLowerCase()) ||
		(text.includes(KEY.slice(0, 14)) && text.includes(KEY.slice(14)))
	);
}

describe('F8: a card number split over adjacent fields or entries of one record is masked', () => {
	const doors = (value: Record<string, unknown>) => [
		gateJson(undefined, value, 'user'),
		gateJson(undefined, value, 'model'),
		gateItems(undefined, [[{ json: value as IDataObject }]])[0][0].json,
	];
	it.each([
		[{ card: { part1: '2200', part2: '1500', part3: '1234', part4: '5671' } }, /2200|1500|1234/],
		[{ card: { bin: '220015', middle: '001234', last4: '5671' } }, /001234|220015/],
		[{ lines: ['card 2200 1500', '1234 5671'] }, /2200 1500|1234 5671/],
		[{ pan1: '4111 1111', pan2: '1111 1111' }, /4111 1111|1111 1111/],
		[{ card: { a: 2200, b: 1500, c: 1234, d: 5671 } }, /2200|1500|1234/],
		[{ pan: ['4111-1111-1111', '1111'] }, /4111-1111-1111/],
		[{ a: '4111 11', b: '11 1111 1111' }, /4111 11|11 1111 1111/],
	])('%j', (value, readable) => {
		for (const out of doors(value)) {
			const text = JSON.stringify(out);
			expect(text).not.toMatch(readable);
			// The last four stay, to tell the card.
			expect(text).toMatch(/5671|1111/);
		}
	});

	it('any scheme card split at any place over two or three adjacent fields', () => {
		fc.assert(
			fc.property(
				fc.constantFrom('4', '51', '2200', '2221', '6200'),
				fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 14, maxLength: 14 }),
				fc.integer({ min: 2, max: 14 }),
				fc.constantFrom(' ', '', '-'),
				(lead, body, cut, gap) => {
					const partial = (lead + body.join('')).slice(0, 15);
					let pan = '';
					for (let check = 0; check < 10; check++) {
						const candidate = partial + String(check);
						if (luhnOk(candidate)) pan = candidate;
					}
					const first = pan.slice(0, cut);
					const second = pan.slice(cut);
					const shown = JSON.stringify(
						gateJson(undefined, { note: 'x', p1: first + gap, p2: second, after: 'ok' }),
					);
					expect(shown.replace(/[^0-9]/g, '')).not.toContain(pan.slice(0, 12));
					expect(shown).toContain('"after":"ok"');
				},
			),
			{ numRuns: 200 },
		);
	});

	it('a row with a group of one or two digits inside (a day, a month) never joins into a card', () => {
		// A Visa of 16 digits only through the short groups: year + month + day + count, the count
		// of 8 to 10 digits so that no row without a short group inside reaches 13 digits.
		fc.assert(
			fc.property(
				fc.stringMatching(/^4\d{3}$/),
				fc.stringMatching(/^\d{1,2}$/),
				fc.stringMatching(/^\d{1,2}$/),
				fc.stringMatching(/^\d{10}$/),
				(year, month, day, digits) => {
					const head = digits.slice(0, 16 - 4 - month.length - day.length - 1);
					let count = '';
					for (let check = 0; check < 10; check++) {
						if (luhnOk(`${year}${month}${day}${head}${check}`)) count = `${head}${check}`;
					}
					const record = { a: year, b: month, c: day, d: count };
					expect(gateJson(undefined, record)).toEqual(record);
				},
			),
			{ numRuns: 200 },
		);
	});

	it('ordinary adjacent numbers, identifiers and amounts are kept as they are', () => {
		const records = [
			{ amountRub: 2200, chargedUsdt: 1500, rate: 1234, fee: 5671 },
			{ id: '2200', externalId: '1500123456', payoutId: '71' },
			{ a: '2024', b: '11', c: '29', d: 'ok' },
			{ phone: '+7 900 123 45 67', other: '+7 900 765 43 21' },
			{ values: ['12', '15', '2200', '3', '400'] },
			{ lines: ['Итого 2200 руб', 'Комиссия 15 руб'] },
		];
		for (const record of records) expect(gateJson(undefined, record)).toEqual(record);
	});
});

describe('F11: the credential key split in two is masked', () => {
	beforeEach(credential);
	afterEach(() => forgetLearnedSecrets());

	it.each([
		[{ keyStart: KEY.slice(0, 14), keyEnd: KEY.slice(14) }],
		[{ parts: [KEY.slice(0, 14), KEY.slice(14)] }],
		[{ comment: `key part 1: ${KEY.slice(0, 14)}, part 2: ${KEY.slice(14)}` }],
		[{ a: KEY.slice(0, 20), b: KEY.slice(20) }],
		[{ a: KEY.slice(0, 10), b: KEY.slice(10) }],
		[{ text: `first ${KEY.slice(0, 16).toUpperCase()} then ${KEY.slice(16).toUpperCase()}` }],
	])('%j', (value) => {
		for (const audience of ['user', 'model'] as const) {
			expect(keyReadable(gateJson(undefined, value, audience))).toBe(false);
		}
		expect(keyReadable(gateItems(undefined, [[{ json: value }]]))).toBe(false);
		expect(keyReadable(gateText(undefined, JSON.stringify(value)))).toBe(false);
	});

	it('any cut of the key or the webhook secret in two: no 12 characters of its random part stay', () => {
		fc.assert(
			fc.property(
				fc.constantFrom(KEY, WHSEC),
				fc.integer({ min: 1, max: 100 }),
				fc.constantFrom('field', 'list', 'text'),
				(value, at, shape) => {
					const cut = 1 + (at % (value.length - 1));
					const [a, b] = [value.slice(0, cut), value.slice(cut)];
					const record =
						shape === 'field' ? { a, b } : shape === 'list' ? { l: [a, b] } : { t: `${a} / ${b}` };
					const shown = JSON.stringify(gateJson(undefined, record)).toLowerCase();
					const body = value.replace(/^(?:mk_live_|whsec_)/, '').toLowerCase();
					for (let start = 0; start + 12 <= body.length; start++) {
						expect(shown).not.toContain(body.slice(start, start + 12));
					}
				},
			),
			{ numRuns: 200 },
		);
	});

	it("the key's public prefix, short pieces and other words stay", () => {
		const record = {
			shown: 'mk_live_Q7hT',
			note: 'mk_live_ keys start so',
			word: 'Q7hT2pLx9Z',
			other: 'order 2pLx9ZsV4nR shipped, batch 0000000000000000',
		};
		expect(gateJson(undefined, record)).toEqual(record);
	});

	it('12 characters of the value inside another word (an ID, a hash) are no piece of it', () => {
		// r19-data F14's customer ID holds 18 characters of the key; a hash holds the secret's
		// `a1b2c3d4e5f6`: each glued to other characters, so no piece written on its own.
		const record = {
			externalId: `cus_${KEY.slice(8, 26)}`,
			comment: `Wallet for cus_${KEY.slice(8, 26)} created`,
			hash: `sweep tx 3b1f8c2d4e5a69788a9b0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f60718293a4b5`,
		};
		expect(gateJson(undefined, record)).toEqual(record);
	});
});

describe('F13: the credential key in UTF-16 (base64, hex) or quoted-printable is masked', () => {
	beforeEach(credential);
	afterEach(() => forgetLearnedSecrets());

	const qp = (text: string, all: boolean) =>
		[...text]
			.map((char) =>
				all || char === '_'
					? `=${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`
					: char,
			)
			.join('');
	const forms: Record<string, string> = {
		'UTF-16LE base64': Buffer.from(KEY, 'utf16le').toString('base64'),
		'UTF-16LE hex': Buffer.from(KEY, 'utf16le').toString('hex'),
		'UTF-16LE HEX': Buffer.from(KEY, 'utf16le').toString('hex').toUpperCase(),
		'UTF-16BE base64': Buffer.from(KEY, 'utf16le').swap16().toString('base64'),
		'UTF-16BE hex': Buffer.from(KEY, 'utf16le').swap16().toString('hex'),
		'quoted-printable, every character': qp(KEY, true),
		'quoted-printable, the underscores': qp(KEY, false),
		'webhook secret, UTF-16LE base64': Buffer.from(WHSEC, 'utf16le').toString('base64'),
	};
	it.each(Object.entries(forms))('%s', (_name, form) => {
		const error = { errorCode: 'INVALID_API_KEY', details: { receivedKeyEncoded: form } };
		for (const audience of ['user', 'model'] as const) {
			const shown = JSON.stringify(gateJson(undefined, error, audience));
			expect(shown).not.toContain(form);
			expect(shown).not.toContain(form.slice(4, 24));
		}
		expect(gateText(undefined, `Details: ${JSON.stringify(error)}`)).not.toContain(
			form.slice(4, 24),
		);
		// Within a base64 text of other bytes too (any alignment).
		const inside = Buffer.concat([Buffer.from('ab'), Buffer.from(KEY, 'utf16le')]).toString(
			'base64',
		);
		expect(JSON.stringify(gateJson(undefined, { blob: inside }))).not.toContain(
			inside.slice(8, 40),
		);
	});

	it('ordinary base64, hex and quoted-printable stay', () => {
		const record = {
			b: Buffer.from('hello world, nothing here', 'utf16le').toString('base64'),
			h: Buffer.from('hello world', 'utf16le').toString('hex'),
			q: 'Caf=C3=A9 =3D ok',
		};
		expect(gateJson(undefined, record)).toEqual(record);
	});
});

describe('F3: a short secret one item names is that item’s, and not an amount or a date', () => {
	const card = (cardId: string, pan: string, cvv: string, expiry: string) => ({
		cardId,
		cardNumberFull: pan,
		cardCvv: cvv,
		expiry,
	});

	it("card a's CVV keeps card b's expiry; each CVV is still masked in its own item", () => {
		const a = { ...card('a', '378282246310005', '2027', '12/2026'), note: 'code 2027' };
		const b = { ...card('b', '4111111111111111', '123', '03/2027'), note: 'limit 2027, code 123' };
		for (const audience of ['user', 'model'] as const) {
			const [[x, y]] = gateItems(undefined, [[{ json: a }, { json: b }]], audience);
			expect(y.json.expiry).toBe('03/2027');
			expect(x.json.expiry).toBe('12/2026');
			expect(String(x.json.note)).not.toContain('2027');
			expect(y.json.note).not.toMatch(/\b123\b/);
			expect(y.json.note).toContain('2027');
		}
	});

	it('also when the run learned both answers (the action node reads one answer per item)', () => {
		const ctx = {};
		openRun(ctx);
		const a = card('a', '378282246310005', '2027', '12/2026');
		const b = { ...card('b', '4111111111111111', '123', '03/2027'), quantity: '2027' };
		learnFromAnswer(ctx, a);
		learnFromAnswer(ctx, b);
		const [[x, y]] = gateItems(ctx, [[{ json: a }, { json: b }]]);
		expect(y.json.expiry).toBe('03/2027');
		expect(y.json.quantity).toBe('2027');
		expect(x.json.cardCvv).toBe('•••');
		// A lone answer still hides its learned CVV as a whole field value, as before.
		expect(gateJson(ctx, { echo: '123' }).echo).not.toBe('123');
	});

	it("another item's whole field equal to a CVV stays", () => {
		const a = card('a', '4111111111111111', '250', '12/27');
		const b = { orderId: 'o1', comment: '250', limit: '250' };
		const [[, y]] = gateItems(undefined, [[{ json: a }, { json: b }]]);
		expect(y.json).toEqual(b);
	});

	it.each([
		'Лимит 250 USD на месяц',
		'Limit $250 a month',
		'Списано 250 ₽',
		'Срок 03/250',
		'valid 250/12',
	])('F3b: %s beside the CVV 250 in the same item stays', (note) => {
		const body = {
			event: 'card.assigned',
			card: card('c1', '4111111111111111', '250', '12/27'),
			note,
		};
		const [[item]] = gateItems(undefined, [[{ json: body }]]);
		expect(item.json.note).toBe(note);
	});

	it.each(['check 250 on the back', 'код: 250', 'Ваш код 250.', 'код 250 USDX'])(
		'the CVV in its own item is still masked: %s',
		(note) => {
			const body = { card: card('c1', '4111111111111111', '250', '12/27'), note };
			const [[item]] = gateItems(undefined, [[{ json: body }]]);
			expect(item.json.note).not.toMatch(/(?<!\d)250(?!\d)/);
		},
	);
});

function luhnOk(digits: string): boolean {
	let sum = 0;
	for (let index = 0; index < digits.length; index++) {
		let digit = Number(digits[digits.length - 1 - index]);
		if (index % 2 === 1) {
			digit *= 2;
			if (digit > 9) digit -= 9;
		}
		sum += digit;
	}
	return sum % 10 === 0;
}
