// Outside read r18-data (issue 50), findings 5, 6 and 7: secrets never shown, what cannot be one
// shown exactly.
// F7: a registry word (счёт, ИНН, КПП, BIC) or a registry's field name (`kpp`, `payeeInn`)
//     shielded any checksum number after it, so a 16-digit card after `Списано со счёта` came out
//     whole. A registry shields only numbers of its own length(s) (REGISTRY_LENGTHS).
// F5: a key under a glued name (`privkey`, `PRIVKEY`) or under `pk`/`sk`/`sid` was shown.
// F6: `signature: "ok"`, `apiKeyPrefix: "ak"` were hidden, though they cannot be secrets.
import fc from 'fast-check';
import nock from 'nock';

import { gateJson } from '../../nodes/shared/gate';
import { maskPatterns, schemeCard } from '../../nodes/shared/gate/patterns';
import { BASE_URL, runNode } from './helpers/n8n';
import { digitsOf, luhnDigit, luhnNumber, range } from './helpers/cards';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const TEXT = { strong: false, inText: true, identifiers: new Set<string>() };

/** Real schemes' card numbers, each of a length the scheme issues. */
const REAL_CARD = fc.oneof(
	luhnNumber(fc.constant('4'), 16),
	luhnNumber(fc.constant('4'), 19),
	luhnNumber(range(51, 55), 16),
	luhnNumber(range(2221, 2720), 16),
	luhnNumber(range(2200, 2204), 16),
	luhnNumber(range(2200, 2204), 18),
	luhnNumber(fc.constantFrom('34', '37'), 15),
	luhnNumber(fc.constant('36'), 14),
	luhnNumber(range(3528, 3589), 16),
	luhnNumber(fc.constantFrom('6011', '65'), 16),
	luhnNumber(fc.constantFrom('62', '81'), 17),
	luhnNumber(fc.constantFrom('50', '56', '63', '67'), 16),
	luhnNumber(fc.constantFrom('8600', '9860', '9792'), 16),
);

/** Registry words of texts, and the lengths of their numbers. */
const REGISTRY_WORDS: ReadonlyArray<[string, readonly number[]]> = [
	['ИНН', [10, 12]],
	['INN', [10, 12]],
	['КПП', [9]],
	['KPP', [9]],
	['БИК', [9]],
	['BIC', [9]],
	['ОГРН', [13]],
	['OGRN', [13]],
	['ОГРНИП', [15]],
	['OGRNIP', [15]],
	['СНИЛС', [11]],
	['р/с', [20]],
	['к/с', [20]],
	['счёт', [20]],
	['Списано со счёта', [20]],
	['PersonalAcc', [20]],
	['CorrespAcc', [20]],
	['ИНН/КПП', [9, 10, 12]],
];
/** Registry field names of a record the document does not show, and their lengths. */
const REGISTRY_NAMES: ReadonlyArray<[string, readonly number[]]> = [
	['inn', [10, 12]],
	['payeeInn', [10, 12]],
	['kpp', [9]],
	['payee_kpp', [9]],
	['bic', [9]],
	['ogrn', [13]],
	['payeeOgrn', [13]],
	['ogrnip', [15]],
	['snils', [11]],
];
/** `digits` read as one number, modulo `divisor`. */
function modulo(digits: string, divisor: number): number {
	let rest = 0;
	for (const digit of digits) rest = (rest * 10 + Number(digit)) % divisor;
	return rest;
}
/**
 * A number of `length` digits; of 13 a real OGRN and of 15 a real OGRNIP (sign, year, check
 * digit), the registries whose lengths a card may have (issue 50, fixer dfix23: a registry word
 * shields only its registry's valid number); a Maestro's look (50…) among them.
 */
function registryNumber(length: number): fc.Arbitrary<string> {
	if (length < 13) return digitsOf(length);
	const [signs, first, divisor] = length === 13 ? [['1', '5'], 2, 11] : [['3'], 4, 13];
	return fc
		.tuple(fc.constantFrom(...signs), range(first, 26), digitsOf(length - 4))
		.map(([sign, year, rest]) => {
			const body = `${sign}${year.padStart(2, '0')}${rest}`;
			return body + String(modulo(body, divisor) % 10);
		});
}

const VISA = '4276380012345679';
const MIR = '2202201234567890'.slice(0, 15);
const MIR_CARD = MIR + luhnDigit(MIR);

describe('finding 7: a registry word shields only its registry’s length', () => {
	it('the outside reader’s texts', () => {
		expect(schemeCard(VISA)).toBe(true);
		expect(schemeCard(MIR_CARD)).toBe(true);
		for (const text of [
			`Списано со счёта ${VISA}`,
			`Списано со счёта ${MIR_CARD}`,
			`ИНН ${VISA}`,
			`КПП ${MIR_CARD}`,
			`BIC ${VISA}`,
		]) {
			const out = maskPatterns(text, TEXT);
			expect(out.replace(/\D/g, '')).not.toContain(VISA);
			expect(out.replace(/\D/g, '')).not.toContain(MIR_CARD);
		}
		const kept = 'Получатель: ИНН 7707083893, КПП 770701001';
		expect(maskPatterns(kept, TEXT)).toBe(kept);
	});

	it('the outside reader’s order: kpp and payeeInn holding cards are masked', async () => {
		const id = '7b0c6c1e-3f7e-4c5e-9d8a-1a2b3c4d5e6f';
		nock(BASE_URL).get(`/orders/${id}`).reply(200, {
			id,
			status: 'success',
			kpp: VISA,
			payeeInn: MIR_CARD,
			createdAt: '2026-01-01T00:00:00Z',
		});
		const { output } = await runNode({
			parameters: { resource: 'order', operation: 'get', orderId: id },
		});
		expect(output[0].json.kpp).not.toBe(VISA);
		expect(output[0].json.payeeInn).not.toBe(MIR_CARD);
		expect(JSON.stringify(output[0].json)).not.toContain(VISA);
	});

	it('generated: a real scheme’s card of another length after any registry word or under any registry name is never shown', () => {
		fc.assert(
			fc.property(
				REAL_CARD,
				fc.constantFrom(...REGISTRY_WORDS),
				fc.constantFrom(...REGISTRY_NAMES),
				fc.constantFrom(' ', ': ', ' № ', '='),
				(card, [word, wordLengths], [name, nameLengths], gap) => {
					// A card of the registry's own length: test/unit/data-card-shapes.test.ts (told
					// from the registry's number by the registry's own check).
					fc.pre(!wordLengths.includes(card.length) && !nameLengths.includes(card.length));
					const text = `${word}${gap}${card}`;
					const inText = maskPatterns(text, TEXT);
					const qr = `ST00012|Name=ООО|${word === 'PersonalAcc' || word === 'CorrespAcc' ? word : 'KPP'}=${card}|Sum=100`;
					const out = gateJson(undefined, { note: text, [name]: card, qrCode: qr }, 'user');
					const numeric = gateJson(undefined, { [name]: Number(card) }, 'user');
					// A JSON number is read for a card from 13 digits on (gate/fields.ts maskNumber).
					const asNumber = Number.isSafeInteger(Number(card)) && card.length >= 13;
					return (
						!inText.replace(/\D/g, '').includes(card) &&
						!JSON.stringify(out).includes(card) &&
						(!asNumber || !JSON.stringify(numeric).includes(card))
					);
				},
			),
			{ numRuns: 400 },
		);
	});

	it('generated: a registry’s number of its own length after its word or under its name comes out exactly', () => {
		const wordCases = fc
			.constantFrom(...REGISTRY_WORDS)
			.chain(([word, lengths]) =>
				fc
					.constantFrom(...lengths)
					.chain((length) => registryNumber(length).map((n) => [word, n] as const)),
			);
		const nameCases = fc
			.constantFrom(...REGISTRY_NAMES)
			.chain(([name, lengths]) =>
				fc
					.constantFrom(...lengths)
					.chain((length) => registryNumber(length).map((n) => [name, n] as const)),
			);
		fc.assert(
			fc.property(
				wordCases,
				nameCases,
				fc.constantFrom(' ', ': ', ' № '),
				([word, number], [name, value], gap) => {
					const text = `Получатель ООО, ${word}${gap}${number}.`;
					const record = { note: text, [name]: value };
					return (
						maskPatterns(text, TEXT) === text &&
						JSON.stringify(gateJson(undefined, record, 'user')) === JSON.stringify(record)
					);
				},
			),
			{ numRuns: 400 },
		);
	});

	it('a QR code: KPP or PersonalAcc holding a card is masked, their own numbers kept', () => {
		const kept =
			'ST00012|Name=ООО|PersonalAcc=40702810938000012345|BIC=044525225|CorrespAcc=30101810400000000225|PayeeINN=7707083893|KPP=770701001|Sum=100';
		expect(String(gateJson(undefined, { qrCode: kept }, 'user').qrCode)).toBe(kept);
		const leak = `ST00012|Name=ООО|KPP=${VISA}|PersonalAcc=${MIR_CARD}|Sum=100`;
		const out = String(gateJson(undefined, { qrCode: leak }, 'user').qrCode);
		expect(out).not.toContain(VISA);
		expect(out).not.toContain(MIR_CARD);
	});
});

/* ------------------------------------------------------------------------ findings 5 and 6 */

const HEX = 'a3f1c9d2e4b5a6978877665544332211a3f1c9d2e4b5a6978877665544332211';

function both(record: Record<string, unknown>) {
	return [gateJson(undefined, record, 'user'), gateJson(undefined, record, 'model')];
}

describe('finding 5: a key under a glued or a short name is masked', () => {
	it.each([
		['privkey', HEX],
		['PRIVKEY', HEX.split('').reverse().join('')],
		['privKey', `f${HEX.slice(1)}`],
		['priv', HEX],
		['pk', HEX],
		['sk', HEX],
		['sid', HEX],
		['SK', 'Zk3QmT9xL2pV8rW4nB6yH1cJ5dF7'],
		['pk', 'Zk3QmT9xL2pV8rW4nB6yH1cJ5dF7Zk3QmT9x=='],
	])('%s', (name, value) => {
		for (const out of both({ id: 'o_1', [name]: value })) {
			expect(JSON.stringify(out)).not.toContain(value);
		}
	});

	it('a short value under sid/pk/sk is no key material and stays', () => {
		const record = { id: 'o_1', sid: 'S1', pk: 42, sk: 'default' };
		for (const out of both(record)) expect(out).toEqual(record);
	});
});

describe('finding 6: a value that cannot be a secret is shown', () => {
	it.each([
		['signature', 'ok'],
		['signature', 'valid'],
		['signature', 'invalid'],
		['signature', 'true'],
		['signature', 'none'],
		['apiKeyPrefix', 'ak'],
		['apiKeyPrefix', 'ak_'],
		['tokenLast4', '9x7Q'],
		['apiKeyLast4', 'Q9x7'],
		['secretHint', 'ab'],
		['cardMask', '1234'],
	])('%s: %s', (name, value) => {
		for (const out of both({ id: 'o_1', [name]: value })) {
			expect(out[name as keyof typeof out]).toBe(value);
		}
	});

	it.each([
		['signature', HEX],
		['signature', 'MEUCIQDx3k9Zp2Lm8Nv4Rt6Yw1Ks5Hd7Qa9Xb0Cc2Ee4Gg6Ii8K'],
		['apiKeyPrefix', 'ak_live_Q9x7Zp3Lm2Nv8Rt4Yw6Ks1Hd'],
	])('long material stays hidden: %s', (name, value) => {
		for (const out of both({ id: 'o_1', [name]: value })) {
			expect(JSON.stringify(out)).not.toContain(value);
		}
	});
});
