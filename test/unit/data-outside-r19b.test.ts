// Outside read r19-data (issue 50), findings 5, 6, 7 and 14: secrets closed, ordinary data exact.
// F6: grouped ordinary numbers (IBANs, phones, accounts, УИН, a passport, a policy, order numbers)
//     were masked as parts of cards though none passes the card checksum; a Luhn-valid card in
//     any grouping, and a card cut short, stay masked.
// F14: a crypto token's name after `token:`, record IDs with a record's prefix (`pi_`, `evt_`,
//     `cus_`), and words after secret/password/ключ that are no secret were hidden; real keys
//     with a key's prefix (`sk_`, `rk_`, `whsec_`, `pk_live_`…) stay hidden.
// F7: a card number in Mathematical digits (Unicode Nd) was shown.
// F5: the Base URL password echoed in NFD or as UTF-8 read as Latin-1 was shown.
import fc from 'fast-check';

import { gateJson, gateText, rememberCredential } from '../../nodes/shared/gate';
import { forgetLearnedSecrets } from '../../nodes/shared/gate/learned';
import { luhn, plainForm } from '../../nodes/shared/gate/patterns';

function shown(text: string): string {
	return String(gateJson(undefined, { comment: text }, 'user').comment);
}

/** A card number of `length` digits starting `prefix`, with the card checksum. */
function card(prefix: string, body: string, length: number): string {
	const head = (prefix + body).slice(0, length - 1).padEnd(length - 1, '0');
	for (let check = 0; check < 10; check++) {
		if (luhn(head + check)) return head + check;
	}
	throw new Error('no check digit');
}

function grouped(digits: string, sizes: readonly number[], sep: string): string {
	const parts: string[] = [];
	let at = 0;
	for (const size of sizes) {
		if (at >= digits.length) break;
		parts.push(digits.slice(at, at + size));
		at += size;
	}
	if (at < digits.length) parts.push(digits.slice(at));
	return parts.join(sep);
}

describe('F6: grouped ordinary numbers are kept', () => {
	it.each([
		'IBAN DE89 3704 0044 0532 0130 00',
		'IBAN GB82 WEST 1234 5698 7654 32',
		'IBAN FR14 2004 1010 0505 0001 3M02 606',
		'Tel +49 1512 3456 7890',
		'Tel +44 7911 123456',
		'Tel. 0151 2345 6789',
		'р/с 4070 2810 9380 0000 0001',
		'БИК 044525225, к/с 3010 1810 4000 0000 0225',
		'Лицевой счёт 1234 5678 9012 3456',
		'УИН 1881 0177 2300 1234 5678',
		'Паспорт 4510 123456',
		'Полис ОМС 7751 2345 6789 0123',
		'Order 2024-1129-0001-2345 shipped',
		'Order 4111 1111 1111 1112 is due',
	])('%s', (text) => {
		expect(shown(text)).toBe(text);
	});

	it('a phone in an error text is kept', () => {
		const text = 'Recipient +49 1512 3456 7890 unreachable';
		expect(gateText(undefined, text, 'user')).toBe(text);
	});

	it('a card that passes the checksum stays masked in any grouping, after any word', () => {
		const prefix = fc.constantFrom('4', '51', '2200', '2221', '34', '6011', '62', '9860');
		const before = fc.constantFrom('', 'IBAN ', 'Order ', 'Tel ', 'р/с ', 'Полис ', 'DE89 ');
		const sizes = fc.constantFrom([4, 4, 4, 4], [4, 6, 5], [4, 4, 4, 4, 3], [8, 8], [4, 4, 4, 3]);
		const sep = fc.constantFrom(' ', '-', '.', '\u00a0');
		fc.assert(
			fc.property(
				prefix,
				fc.stringMatching(/^\d{18}$/),
				before,
				sizes,
				sep,
				(lead, body, word, groups, separator) => {
					const length = groups.reduce((sum, size) => sum + size, 0);
					// Two runs of eight joined by a point or a comma read as a decimal (r14-data, finding 9).
					if (groups.length === 2 && separator === '.') return;
					if (lead === '34' && length !== 15) return;
					if (length === 15 && lead !== '34') return;
					if (length === 19 && !['4', '2200', '6011', '62'].includes(lead)) return;
					const number = card(lead, body, length);
					const written = grouped(number, groups, separator);
					const out = shown(`${word}${written} end`);
					expect(out).not.toContain(written);
					expect(out.replace(/\D/g, '')).not.toContain(number.slice(0, 12));
				},
			),
			{ numRuns: 300 },
		);
	});

	it('a card written with points after a number that ends in digits is masked', () => {
		const number = card('4', '000000000000000000', 19);
		const written = grouped(number, [4, 4, 4, 4, 3], '.');
		for (const word of ['DE89 ', 'Tel +49 ', 'No 12 ']) {
			expect(shown(`${word}${written} end`)).not.toContain(written);
		}
	});

	it.each([
		'4276 3800 1234 567',
		'4276 3800 1234 567…',
		'2200 1500 1234 56',
		'card 1234 5678 9012 345',
		'5469 3800 1234',
		'4276-3800-1234-5…',
		'2026-11-29 4276 3800 1234 567',
		'10:00:01 4276 3800 1234 567',
	])('a card cut short stays masked: %s', (text) => {
		expect(shown(text)).not.toBe(text);
		const cut = text.slice(text.search(/\d{4}[ -]\d{4}[ -]\d{4}/)).replace(/\D/g, '');
		// At most four of the cut card's digits are shown.
		expect(shown(text).replace(/\D/g, '')).not.toContain(cut.slice(0, 5));
		expect(shown(text).replace(/\D/g, '')).not.toContain(cut.slice(-5));
	});
});

describe('F14: ordinary text kept, real keys hidden', () => {
	it.each([
		'token: USDT-TRC20',
		'Token: USDT',
		'token=TRX',
		'Deposit rejected: token: USDT-TRC20 on a wrong network',
		'Payment pi_3MtwBwLkdIwHu7ix28a3tqPa settled',
		'event evt_1NG8Du2eZvKYlo2CUI79vXWy delivered',
		'Wallet for cus_Q7hT2pLx9ZsV4nRb8W created',
		'charge ch_3MtwBwLkdIwHu7ix0Zx1Yq2W refunded',
		'txn_1Mtw8xLkdIwHu7ixQ4bC5dE6 posted, ord_9Zk2LmN4pQ7rS1tU3vW5 shipped',
		'Top secret project Apollo2024 launched',
		'password policy v2024.11 applied',
		'Ключ API перевыпущен пользователем admin2024',
	])('%s', (text) => {
		expect(shown(text)).toBe(text);
	});

	it.each([
		['token: Qw3rty12345abcdEF', 'Qw3rty12345abcdEF'],
		['token=ABCdef123456', 'ABCdef123456'],
		['key sk_live_4eC39HqLyjWDarjtT1zdp7dc', 'sk_live_4eC39HqLyjWDarjtT1zdp7dc'],
		['restricted rk_4eC39HqLyjWDarjtT1zdp7dc', 'rk_4eC39HqLyjWDarjtT1zdp7dc'],
		['pk_live_51HqLyjWDarjtT1zdp7dc4eC39', 'pk_live_51HqLyjWDarjtT1zdp7dc4eC39'],
		['signing whsec_a1b2c3d4e5f6a1b2c3d4e5f6', 'a1b2c3d4e5f6a1b2c3d4e5f6'],
		['member mbr_Q1w2E3r4T5y6U7i8O9p0', 'Q1w2E3r4T5y6U7i8O9p0'],
		[
			'confirm pi_3MtwBwLkdIwHu7ix28a3tqPa_secret_YrKJUKribcBjcG8HVhfZluoGH',
			'YrKJUKribcBjcG8HVhfZluoGH',
		],
		['client_secret=pi_3MtwBwLkdIwHu7ix28a3tqPa_secret_YrKJUKribcB', 'YrKJUKribcB'],
		['password: Apollo2024', 'Apollo2024'],
		['пароль пользователя: admin2024', 'admin2024'],
	])('hidden: %s', (text, secret) => {
		expect(shown(text)).not.toContain(secret);
	});
});

describe('F7: a card number in any decimal digits is masked', () => {
	const PAN = '2200150012345671';
	/** The zero of every run of ten Unicode decimal digits (Nd). */
	function ndZeros(): number[] {
		const zeros: number[] = [];
		for (let code = 0x80; code <= 0x10ffff; code++) {
			if (
				/\p{Nd}/u.test(String.fromCodePoint(code)) &&
				!/\p{Nd}/u.test(String.fromCodePoint(code - 1))
			) {
				for (let run = code; /\p{Nd}/u.test(String.fromCodePoint(run)); run += 10) zeros.push(run);
			}
		}
		return zeros;
	}
	const zeros = ndZeros();

	it.each([
		['Mathematical Bold', 0x1d7ce],
		['Mathematical Double-Struck', 0x1d7d8],
		['Mathematical Sans-Serif', 0x1d7e2],
		['Mathematical Monospace', 0x1d7f6],
	])('%s', (_name, zero) => {
		const written = [...PAN].map((d) => String.fromCodePoint(zero + Number(d))).join('');
		expect(shown(`Card ${written}`)).not.toContain(written);
		expect(shown(`Card ${written}`)).toContain('Card ');
	});

	it('every Nd digit reads as its value', () => {
		expect(zeros.length).toBeGreaterThan(60);
		for (const zero of zeros) {
			const written = [...PAN].map((d) => String.fromCodePoint(zero + Number(d))).join('');
			expect(plainForm(written)).toBe(PAN);
			expect(shown(`Card ${written}`)).not.toContain(written);
		}
	});

	it('an ordinary text in other digits is kept as written', () => {
		const written = [...'2024'].map((d) => String.fromCodePoint(0x1d7ce + Number(d))).join('');
		expect(shown(`Year ${written}`)).toBe(`Year ${written}`);
	});
});

describe('F5: the Base URL password in another normalisation or encoding', () => {
	const PASS = 'pässwört-Geheim9';
	afterEach(() => forgetLearnedSecrets());

	it.each([
		['NFC', PASS.normalize('NFC')],
		['NFD', PASS.normalize('NFD')],
		['UTF-8 read as Latin-1', Buffer.from(PASS, 'utf8').toString('latin1')],
	])('%s hidden', (_name, echoed) => {
		const ctx = {};
		rememberCredential(
			{
				apiKey: ['mk', 'live', 'Q7hT2pLx9ZsV4nRb8WcK3yFd'].join('_'),
				baseUrl: `http://svc:${encodeURIComponent(PASS)}@127.0.0.1/api`,
			},
			ctx,
		);
		expect(gateText(ctx, `auth failed for svc:${echoed}`, 'user')).not.toContain(echoed);
		expect(
			JSON.stringify(gateJson(ctx, { message: `auth failed: ${echoed}` }, 'user')),
		).not.toContain(echoed);
	});
});
