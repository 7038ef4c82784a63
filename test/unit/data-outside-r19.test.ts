// Outside read r19-data (issue 50): PIN/CVV words and the card number's boundary in free texts.
// F1:  a card number followed by `,digit` or `.digit` (`2200150012345671,12/27,123`, `[…,123]`,
//      `card ….5`) was shown whole: read as a decimal's whole part.
// F2:  a CVV or PIN on the line after its word, without a colon (`CVV\n123`, `PIN\n4821`), was shown.
// F12: PIN/CVV words in full-width letters (`ＰＩＮ: 4821`, `ＣＶＶ: 123`) were not read.
// F4:  PIN/CVV named in Ukrainian, German, Spanish, French, Chinese were not read.
// F3:  a CVV or PIN in a multipart form part (`name="cvv"` then the value) or a CSV column
//      (`card_number;cvc;pin_code` then rows) was shown.
// F10: a webhook secret reached the model as `whsec_…4b5a`: the model gets its prefix only.
// F9 (Get Card Number and CVV) is in data-outside-r19-answer.test.ts.
import fc from 'fast-check';

import { gateJson, gateText } from '../../nodes/shared/gate';
import { luhnNumber, range } from './helpers/cards';

const PAN = '2200150012345671';

function shown(text: string): string {
	return String(gateJson(undefined, { comment: text }, 'user').comment);
}
function shownToModel(text: string): string {
	return String(gateJson(undefined, { comment: text }, 'model').comment);
}
/** Every door a free text passes: an item's field for the user and the model, an error's text. */
function everywhere(text: string): string[] {
	return [shown(text), shownToModel(text), gateText(undefined, text, 'user')];
}

describe('F1: a card number followed by a comma or a point and digits is masked', () => {
	it.each([
		[`${PAN},12/27,123`, PAN],
		[`Карта ${PAN},123 отклонена`, PAN],
		[`[${PAN},123]`, PAN],
		[`card ${PAN}.5`, PAN],
		[`Некорректная строка: ${PAN},12/27,123`, PAN],
		[`Service Unavailable; card ${PAN},123`, PAN],
		['2200 1500 1234 5671,123', '2200 1500 1234 5671'],
		['4111111111111111.50', '4111111111111111'],
	])('%s', (text, card) => {
		for (const out of everywhere(text)) {
			expect(out).not.toContain(card);
			expect(out.replace(/\D/g, '')).not.toContain(card.replace(/\D/g, ''));
		}
	});

	it('what follows the card stays as written', () => {
		expect(shown(`${PAN},12/27,123`)).toBe('•••• 5671,12/27,123');
		expect(shown(`card ${PAN}.5`)).toBe('card •••• 5671.5');
	});

	it.each([
		// Amounts and times with a decimal part whose whole part fails the checksum or no scheme issues.
		'amount 123456789012345.67 exceeds the limit',
		'balance 9007199254740993.01',
		'updatedAt 1767225600000.000123',
		'rate 47508211.51758356590',
		'0.4111111111111111',
		'price 12,4111111111111111',
		'total 1000000000000.00 RUB',
	])('ordinary numbers stay: %s', (text) => {
		expect(shown(text)).toBe(text);
		expect(gateText(undefined, text, 'user')).toBe(text);
	});

	const card = fc.oneof(
		luhnNumber(range(2200, 2204), 16),
		luhnNumber(fc.constant('4'), 16),
		luhnNumber(range(51, 55), 16),
	);
	const tail = fc.tuple(fc.constantFrom(',', '.'), fc.integer({ min: 0, max: 9999 }));
	const frame = fc.constantFrom(
		(c: string) => c,
		(c: string) => `card ${c}`,
		(c: string) => `[${c}]`,
		(c: string) => `Карта ${c} отклонена`,
		(c: string) => `"${c}"`,
	);
	it('generated: a scheme card before `,digits` or `.digits` is never shown', () => {
		fc.assert(
			fc.property(card, tail, frame, (c, [mark, n], f) => {
				const text = f(`${c}${mark}${n}`);
				return everywhere(text).every((out) => !out.includes(c));
			}),
			{ numRuns: 200 },
		);
	});
});

describe('F2: a CVV or PIN on the line after its word is masked', () => {
	it.each([
		['CVV\n123', '123'],
		['CVV\r\n456', '456'],
		['CVC\n456', '456'],
		['CVV2\n456', '456'],
		['CVV \n 456', '456'],
		['PIN\n4821', '4821'],
		['ПИН\n4821', '4821'],
		['Код безопасности\n789', '789'],
		['CVV\n123 неверен', '123'],
		['Your PIN\n4821\nDo not share it', '4821'],
	])('%j', (text, secret) => {
		for (const out of everywhere(text)) expect(out).not.toContain(secret);
	});

	it('the line break and the word stay as written', () => {
		expect(shown('CVV\r\n456')).toBe('CVV\r\n•••');
		expect(shown('PIN\n4821')).toBe('PIN\n••••');
	});

	it.each([
		'PIN\n2026-11-20 10:00',
		'CVV\n1500 RUB',
		'PIN\n3 attempts left',
		'PIN reset\n4821 requests today',
		'PIN\n123456789',
		'Change PIN\nOrder 12345 created',
		'CVV\n12:30',
		// A header's last column is no label: the row's first cell is the order's.
		'order_id,pin\n4821',
	])('ordinary data after a line break stays: %j', (text) => {
		for (const out of everywhere(text)) expect(out).toBe(text);
	});
});

describe('F12: PIN and CVV words in full-width letters are read', () => {
	it.each([
		['ＰＩＮ: 4821', '4821', 'ＰＩＮ: ••••'],
		['ＣＶＶ: 123', '123', 'ＣＶＶ: •••'],
		['ＰＩＮ-код: 4821', '4821', 'ＰＩＮ-код: ••••'],
		['ＣＶＣ２: 123', '123', 'ＣＶＣ２: •••'],
	])('%s', (text, secret, expected) => {
		for (const out of everywhere(text)) expect(out).not.toContain(secret);
		expect(shown(text)).toBe(expected);
	});

	it.each(['ＯＲＤＥＲ: 4821', 'Ｎｏ. 4821 ＰＡＩＤ', 'ﬁle 4821'])(
		'other words in full-width letters stay as written: %s',
		(text) => {
			for (const out of everywhere(text)) expect(out).toBe(text);
		},
	);
});

describe('F4: PIN and CVV words of other languages', () => {
	it.each([
		['ПІН-код: 4821', '4821'],
		['ПІН 4821', '4821'],
		['Ваш ПІН-код 4821', '4821'],
		['Код безпеки: 321', '321'],
		['Geheimzahl: 4821', '4821'],
		['Ihre Geheimzahl lautet 4821', '4821'],
		['Kartenprüfnummer: 123', '123'],
		['Sicherheitscode 321', '321'],
		['código de seguridad: 321', '321'],
		['Su código de seguridad es 321', '321'],
		['cryptogramme visuel: 123', '123'],
		['code confidentiel: 4821', '4821'],
		['Votre code confidentiel est 4821', '4821'],
		['密码: 4821', '4821'],
		['您的密码：4821', '4821'],
		['安全码 321', '321'],
	])('%s', (text, secret) => {
		for (const out of everywhere(text)) expect(out).not.toContain(secret);
	});

	it.each([
		'código postal 28001',
		'code postal 75001',
		'Bestellnummer 4821',
		'订单号: 4821',
		'Geheimzahl falsch, Versuche 3',
		'código de seguridad inválido, pedido 12345',
		'Kartenprüfnummer fehlt, Betrag 1500 EUR',
		'ПІН-код 1000 грн',
	])('ordinary numbers after ordinary words stay: %s', (text) => {
		expect(shown(text)).toBe(text);
		expect(gateText(undefined, text, 'user')).toBe(text);
	});
});

describe('F3: a CVV or PIN in a form part or a CSV column', () => {
	const MULTI =
		'--x\r\nContent-Disposition: form-data; name="cvv"\r\n\r\n123\r\n--x\r\nContent-Disposition: form-data; name="pin"\r\n\r\n4821\r\n--x--';
	const CSV = 'card_number;cvc;pin_code\r\n2200 1500 1234 5671;321;9876';

	it('multipart: the parts named cvv and pin are masked, the rest as written', () => {
		for (const out of everywhere(MULTI)) {
			expect(out).not.toMatch(/\r\n\r\n123\r\n/);
			expect(out).not.toContain('4821');
		}
		expect(shown(MULTI)).toBe(MULTI.replace('\r\n123\r\n', '\r\n•••\r\n').replace('4821', '••••'));
	});

	it('multipart: a part with a content type line before its value', () => {
		const text =
			'--b\r\nContent-Disposition: form-data; name="card_pin"\r\nContent-Type: text/plain\r\n\r\n4821\r\n--b--';
		expect(shown(text)).not.toContain('4821');
	});

	it('CSV: the cvc and pin_code columns are masked, the header and other columns stay', () => {
		for (const out of everywhere(CSV)) {
			expect(out).not.toContain(';321;');
			expect(out).not.toContain('9876');
		}
		expect(shown(CSV)).toBe('card_number;cvc;pin_code\r\n•••• 5671;•••;••••');
	});

	it('CSV with commas, quotes and several rows', () => {
		const text = 'id,"CVV",amount\n1,123,100\n2,456,200';
		expect(shown(text)).toBe('id,"CVV",amount\n1,•••,100\n2,•••,200');
	});

	it.each([
		'--x\r\nContent-Disposition: form-data; name="amount"\r\n\r\n1500\r\n--x--',
		'--x\r\nContent-Disposition: form-data; name="pin_attempts"\r\n\r\n3\r\n--x--',
		'order_id;amount;status\r\n4821;100;paid',
		'pin_tries;cvv_checked;amount\r\n3;1;4821',
		'pinpad_id;cvv_result;amount\r\n4821;100;5',
		'cvv;note\r\n***;masked',
		'pin;comment\r\n1;short',
	])('ordinary parts and columns stay: %j', (text) => {
		for (const out of everywhere(text)) expect(out).toBe(text);
	});
});

describe('F10: the model gets a webhook secret’s prefix only', () => {
	const W = `whsec_${'0f1e2d3c4b5a'.repeat(4)}`;

	it('a webhookSecret field (and one deeper): `whsec_…` for the model', () => {
		const out = gateJson(undefined, { webhookSecret: W, signing: { secret: W } }, 'model');
		expect(JSON.stringify(out)).not.toContain('4b5a');
		expect(out.webhookSecret).toBe('whsec_…');
		expect(out.signing).toEqual({ secret: 'whsec_…' });
	});

	it('a webhook secret in a text: `whsec_…` for the model', () => {
		expect(shownToModel(`rotated to ${W}`)).toBe('rotated to whsec_…');
		expect(gateText(undefined, `rotated to ${W}`, 'model')).toBe('rotated to whsec_…');
	});

	it('the user still sees the last four to tell secrets apart', () => {
		expect(gateJson(undefined, { webhookSecret: W }, 'user').webhookSecret).toBe('whsec_…4b5a');
		expect(shown(`rotated to ${W}`)).toBe('rotated to whsec_…4b5a');
	});
});
