// Issue 50, card data in the shapes earlier rounds left open (fixer dfix23):
// 1. A card number of a registry's own length right after that registry's word (a 13-digit Visa
//    after `ОГРН`, a 15-digit American Express after `ОГРНИП`) was shown: the registry's length
//    alone shielded it. A registry's number is now told from a card by the registry's own check
//    (sign, year and check digit of an OGRN or OGRNIP, the OK classifiers' control number of an
//    OKPO, an INN's checksums): only a valid registry number is kept.
// 2. A payment code's `PersAcc` kept any number, a card's too.
// 3. A 13- or 14-digit card sent as a JSON number was shown (only 15 digits on were read).
// 4. Magnetic stripe data (`track2: ";PAN=YYMM…?"`) kept its expiry, service code and
//    discretionary data once the PAN was masked: the whole track is hidden.
import fc from 'fast-check';

import { gateJson } from '../../nodes/shared/gate';
import { maskPatterns, schemeCard } from '../../nodes/shared/gate/patterns';
import { digitsOf, luhnDigit, luhnNumber, range } from './helpers/cards';

const TEXT = { strong: false, inText: true, identifiers: new Set<string>() };

/** `digits` read as one number, modulo `divisor` (digit by digit: no precision lost). */
function modulo(digits: string, divisor: number): number {
	let rest = 0;
	for (const digit of digits) rest = (rest * 10 + Number(digit)) % divisor;
	return rest;
}
/** An OGRN's check digit: the first 12 digits modulo 11, modulo 10. */
const ogrnDigit = (body: string) => String(modulo(body, 11) % 10);
/** An OGRNIP's check digit: the first 14 digits modulo 13, modulo 10. */
const ogrnipDigit = (body: string) => String(modulo(body, 13) % 10);
/** The OK classifiers' control number (an OKPO's last digit). */
function okpoDigit(body: string): string {
	const weighted = (shift: number) =>
		[...body].reduce((sum, digit, index) => sum + Number(digit) * (((index + shift) % 10) + 1), 0) %
		11;
	let rest = weighted(0);
	if (rest === 10) rest = weighted(2);
	return String(rest === 10 ? 0 : rest);
}
const luhnOk = (digits: string) => luhnDigit(digits.slice(0, -1)) === digits.slice(-1);

/** A real OGRN: sign 1 or 5, a year 02–26, a region 01–99, a record number, its check digit. */
const OGRN = fc
	.tuple(fc.constantFrom('1', '5'), range(2, 26), range(1, 99), digitsOf(7))
	.map(([sign, year, region, record]) => {
		const body = `${sign}${year.padStart(2, '0')}${region.padStart(2, '0')}${record}`;
		return body + ogrnDigit(body);
	});
/** A real OGRNIP: sign 3, a year 04–26, a region, a record number, its check digit. */
const OGRNIP = fc.tuple(range(4, 26), range(1, 99), digitsOf(9)).map(([year, region, record]) => {
	const body = `3${year.padStart(2, '0')}${region.padStart(2, '0')}${record}`;
	return body + ogrnipDigit(body);
});

const VISA_13 = '4276380012346';
const AMEX_15 = '378282246310005';
const DINERS_14 = '30569309025904';
/** Sberbank's OGRN, an OGRNIP and an OKPO with their check digits. */
const REAL_OGRN = '1027700132195';
const REAL_OGRNIP = '304500116000157';

describe('1. a registry word shields only a valid registry number, not a card of its length', () => {
	it('the fixed cases: each is a card by its scheme and checksum, and no registry number', () => {
		expect([VISA_13, AMEX_15, DINERS_14].map(schemeCard)).toEqual([true, true, true]);
		expect(ogrnDigit(VISA_13.slice(0, 12)) === VISA_13[12] && '14'.includes(VISA_13[0])).toBe(
			false,
		);
		expect(okpoDigit(DINERS_14.slice(0, 13))).not.toBe(DINERS_14[13]);
		for (const text of [
			`ОГРН ${VISA_13}`,
			`OGRN: ${VISA_13}`,
			`ОГРНИП ${AMEX_15}`,
			`ОКПО ${DINERS_14}`,
		]) {
			const out = maskPatterns(text, TEXT);
			expect([text, out.replace(/\D/g, '').includes(text.replace(/\D/g, ''))]).toEqual([
				text,
				false,
			]);
		}
		const record = {
			payeeOgrn: VISA_13,
			ogrnip: AMEX_15,
			okpo: DINERS_14,
			qr: `ST00012|Name=ООО|OGRN=${VISA_13}|Sum=100`,
		};
		const numbers = { payeeOgrn: Number(VISA_13), okpo: Number(DINERS_14) };
		const out = JSON.stringify([record, numbers].map((one) => gateJson(undefined, one, 'user')));
		for (const card of [VISA_13, AMEX_15, DINERS_14]) expect(out).not.toContain(card);
	});

	it('real registry numbers after their words and under their names stay exact', () => {
		expect(ogrnDigit(REAL_OGRN.slice(0, 12))).toBe(REAL_OGRN[12]);
		expect(ogrnipDigit(REAL_OGRNIP.slice(0, 14))).toBe(REAL_OGRNIP[14]);
		const text = `ООО Ромашка, ОГРН ${REAL_OGRN}; ИП Иванов, ОГРНИП ${REAL_OGRNIP}`;
		expect(maskPatterns(text, TEXT)).toBe(text);
		const record = { payeeOgrn: REAL_OGRN, ogrnip: REAL_OGRNIP, note: text };
		expect(gateJson(undefined, record, 'user')).toEqual(record);
	});

	it('generated: an OGRN or OGRNIP that is also a card by its look is the registry’s after its word', () => {
		fc.assert(
			fc.property(fc.oneof(OGRN, OGRNIP), fc.constantFrom(' ', ': ', ' № '), (number, gap) => {
				const word = number.length === 13 ? 'ОГРН' : 'ОГРНИП';
				const name = number.length === 13 ? 'payeeOgrn' : 'ogrnip';
				const text = `Получатель ООО, ${word}${gap}${number}.`;
				const record = { note: text, [name]: number };
				return (
					maskPatterns(text, TEXT) === text &&
					JSON.stringify(gateJson(undefined, record, 'user')) === JSON.stringify(record)
				);
			}),
			{ numRuns: 300 },
		);
	});

	it('generated: a card of a registry’s length that is no valid registry number is masked after its word and under its name', () => {
		const cases = fc.oneof(
			luhnNumber(fc.constant('4'), 13).map((card) => ['ОГРН', 'payeeOgrn', card] as const),
			luhnNumber(fc.constantFrom('50', '56', '63', '67'), 13).map(
				(card) => ['OGRN', 'ogrn', card] as const,
			),
			luhnNumber(fc.constantFrom('34', '37'), 15).map(
				(card) => ['ОГРНИП', 'ogrnip', card] as const,
			),
			luhnNumber(fc.constantFrom('36', '300', '38'), 14).map(
				(card) => ['ОКПО', 'okpo', card] as const,
			),
		);
		fc.assert(
			fc.property(cases, ([word, name, card]) => {
				const valid =
					(card.length === 13 &&
						'15'.includes(card[0]) &&
						Number(card.slice(1, 3)) >= 2 &&
						Number(card.slice(1, 3)) <= 39 &&
						ogrnDigit(card.slice(0, 12)) === card[12]) ||
					(card.length === 14 && okpoDigit(card.slice(0, 13)) === card[13]);
				fc.pre(!valid && schemeCard(card) && luhnOk(card));
				const text = `${word} ${card}`;
				const out = JSON.stringify(
					[{ note: text, [name]: card }, { [name]: Number(card) }].map((one) =>
						gateJson(undefined, one, 'user'),
					),
				);
				return !maskPatterns(text, TEXT).includes(card) && !out.includes(card);
			}),
			{ numRuns: 300 },
		);
	});
});

describe('2. a card number in a payment code’s PersAcc is masked', () => {
	it('a card there is masked; an account or a short payer number stays', () => {
		const card = '4276380012345679';
		const leak = `ST00012|Name=ООО|PersonalAcc=40702810938000012345|PersAcc=${card}|Sum=100`;
		const out = String(gateJson(undefined, { qrCode: leak }, 'user').qrCode);
		expect(out).not.toContain(card);
		expect(out).toContain('PersonalAcc=40702810938000012345');
		for (const account of ['1234567', '40817810099910004312', '000123456789']) {
			const kept = `ST00012|Name=ООО|PersAcc=${account}|Sum=100`;
			expect(String(gateJson(undefined, { qrCode: kept }, 'user').qrCode)).toBe(kept);
		}
	});
});

describe('3. a 13- or 14-digit card sent as a JSON number is masked', () => {
	it('fixed: a Diners Club number of 14 digits and a Visa of 13 under unknown names', () => {
		const record = { payer: Number(DINERS_14), extra: { value: Number(VISA_13) } };
		const out = JSON.stringify(gateJson(undefined, record, 'user'));
		expect(out).not.toContain(DINERS_14);
		expect(out).not.toContain(VISA_13);
	});

	it('generated: any scheme card of 13 or 14 digits as a number is masked; other numbers stay exact', () => {
		fc.assert(
			fc.property(
				fc.oneof(
					luhnNumber(fc.constant('4'), 13),
					luhnNumber(fc.constantFrom('36', '300', '305', '38', '39', '50', '56', '69'), 14),
				),
				fc.integer({ min: 1_000_000_000_000, max: 3_999_999_999_999 }),
				(card, millis) => {
					const out = JSON.stringify(
						gateJson(undefined, { payer: Number(card), at: millis }, 'user'),
					);
					return !out.includes(card) && out.includes(`"at":${millis}`);
				},
			),
			{ numRuns: 200 },
		);
	});
});

describe('4. magnetic stripe data is hidden whole', () => {
	const PAN = '5500000000000004';
	const AFTER = '27121010000012300000';

	it('under a track’s name, in any form', () => {
		const record = {
			track2: `;${PAN}=${AFTER}?`,
			trackData: `${PAN}D${AFTER}`,
			track1: `%B${PAN}^IVANOV/IVAN^${AFTER}?`,
			track_2_data: `${PAN}=${AFTER}`,
			track2Equivalent: `${PAN}D${AFTER}F`,
			magStripe: `;${PAN}=${AFTER}?`,
			// No card number a text's pattern reads: hidden by the name alone.
			track3: AFTER,
			track_2: `;5500000000000005=${AFTER}?`,
			hasTrack2: true,
			cardholderName: 'IVAN IVANOV',
			expiry: '12/27',
		};
		for (const audience of ['user', 'model'] as const) {
			const out = JSON.stringify(gateJson(undefined, record, audience));
			expect(out).not.toContain(PAN);
			expect(out).not.toContain(AFTER);
			expect(out).not.toContain(AFTER.slice(4, 12));
			expect(out).toContain('IVAN IVANOV');
			expect(out).toContain('12/27');
			expect(out).toContain('"hasTrack2":true');
		}
	});

	it('in a free text and under an unknown name: `;PAN=…?`, `%B…^…^…?`, `PAN=YYMM…`', () => {
		for (const text of [
			`Swipe read ;${PAN}=${AFTER}? ok`,
			`track: %B${PAN}^IVANOV/IVAN^${AFTER}?`,
			`raw ${PAN}=${AFTER}`,
		]) {
			const out = maskPatterns(text, TEXT);
			expect([text, out.includes(PAN), out.includes(AFTER.slice(4, 12))]).toEqual([
				text,
				false,
				false,
			]);
			const field = JSON.stringify(gateJson(undefined, { swipe: text }, 'user'));
			expect(field).not.toContain(AFTER.slice(4, 12));
		}
	});

	it('generated: a track 2 of any scheme card, expiry and discretionary data shows none of them', () => {
		fc.assert(
			fc.property(
				luhnNumber(fc.constantFrom('4', '51', '2200', '37'), 16),
				fc
					.tuple(range(25, 35), range(1, 12))
					.map(([year, month]) => `${year}${month.padStart(2, '0')}`),
				digitsOf(3),
				digitsOf(12),
				fc.constantFrom('=', 'D'),
				(pan, expiry, service, discretionary, separator) => {
					const track = `;${pan}${separator}${expiry}${service}${discretionary}?`;
					const out = JSON.stringify(gateJson(undefined, { note: `read ${track}` }, 'user'));
					return !out.includes(pan) && !out.includes(discretionary);
				},
			),
			{ numRuns: 200 },
		);
	});

	it('an ordinary text with `=` and digits stays', () => {
		for (const text of ['sum=1500 RUB', 'orderId=12345678901234=2712101', 'period=2712 code=101']) {
			expect(maskPatterns(text, TEXT)).toBe(text);
		}
	});
});
