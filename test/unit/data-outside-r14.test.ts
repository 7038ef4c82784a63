// Outside read r14-data: each finding as it was found, at the door it was found at.
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';
import nock from 'nock';

import { gateJson } from '../../nodes/shared/gate';
import { BASE_URL, runNode } from './helpers/n8n';
import { deliver } from './helpers/trigger';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const PAN = ['4111', '1111', '1111', '1111'].join('');
const PHONE = '+79001234567';

function payout(requisiteType: unknown, requisite: unknown): IDataObject {
	return {
		id: 'po_1',
		status: 'success',
		amountRub: 5000,
		requisiteType: requisiteType as string,
		requisite: requisite as string,
		bank: 'Сбербанк',
		comment: null,
		createdAt: '2026-01-01T00:00:00Z',
	};
}

describe('finding 5: a requisite is masked by what it holds, whatever requisiteType says', () => {
	it.each([null, 'CARD', 'Card', 'bank_card', 'phone', 'card'])(
		'Payout Get, requisiteType %p: the card number with a bank name is masked',
		async (type) => {
			nock(BASE_URL)
				.get('/payouts/po_1')
				.reply(200, payout(type, `${PAN} Сбербанк`));
			const { output } = await runNode({
				parameters: {
					resource: 'payout',
					operation: 'get',
					payoutId: { __rl: true, mode: 'id', value: 'po_1' },
					options: {},
				},
			});
			expect(JSON.stringify(output)).not.toContain(PAN);
			expect(output[0].json.requisite).toBe('•••• 1111');
		},
	);

	it('a phone requisite stays a phone for the user, whatever the type says', () => {
		for (const type of [null, 'phone', 'PHONE', 'sbp']) {
			expect(gateJson(undefined, payout(type, PHONE)).requisite).toBe(PHONE);
		}
	});

	it('the webhook trigger: requisiteType CARD, rawBody withheld', async () => {
		const body = JSON.stringify({
			event: 'payout.status_changed',
			payoutId: 'po_1',
			status: 'success',
			requisiteType: 'CARD',
			requisite: `${PAN} Сбербанк`,
			refunded: false,
			updatedAt: '2026-01-01T00:00:00Z',
		});
		const { item } = await deliver({ body, parameters: { options: { includeRawBody: true } } });
		expect(JSON.stringify(item)).not.toContain(PAN);
		expect(item!.rawBody).toBeNull();
	});

	it('generated: any type spelling, any text beside a card number, any grouping: never shown', () => {
		// A card number passing the checksum (13–19 digits), or any 16–19 digits (no phone has more than 15).
		const cards = fc.oneof(
			fc
				.tuple(
					fc.constantFrom('4', '5', '2'),
					fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 11, maxLength: 17 }),
				)
				.map(([first, rest]) => withCheckDigit(first + rest.join(''))),
			fc
				.tuple(
					fc.constantFrom('4', '5', '2'),
					fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 15, maxLength: 18 }),
				)
				.map(([first, rest]) => first + rest.join('')),
		);
		const types = fc.oneof(
			fc.constant(null),
			fc.constantFrom('card', 'phone', 'sbp', 'account'),
			fc.string({ maxLength: 12 }),
			fc
				.tuple(
					fc.constantFrom('card', 'bank_card', 'cardNumber'),
					fc.array(fc.boolean(), { maxLength: 12 }),
				)
				.map(([word, upper]) => [...word].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join('')),
		);
		const separators = fc.constantFrom('', ' ', '-');
		fc.assert(
			fc.property(
				cards,
				types,
				separators,
				fc.constantFrom('', ' Сбербанк', 'Tinkoff: ', ' (main)'),
				fc.boolean(),
				fc.constantFrom('string', 'array', 'object'),
				(card, type, gap, words, before, shape) => {
					const grouped = card.match(/.{1,4}/g)!.join(gap);
					const text = before ? `${words}${grouped}` : `${grouped}${words}`;
					const requisite =
						shape === 'string' ? text : shape === 'array' ? [text] : { number: text };
					for (const shown of [
						gateJson(undefined, payout(type, requisite)),
						gateJson(undefined, payout(type, requisite), 'model'),
					]) {
						expect(JSON.stringify(shown)).not.toContain(card.slice(0, 9));
					}
				},
			),
			{ numRuns: 400 },
		);
	});
});

/** `digits` with a card check digit appended. */
function withCheckDigit(digits: string): string {
	let sum = 0;
	for (let index = 0; index < digits.length; index++) {
		let digit = Number(digits[digits.length - 1 - index]);
		if (index % 2 === 0) {
			digit *= 2;
			if (digit > 9) digit -= 9;
		}
		sum += digit;
	}
	return digits + String((10 - (sum % 10)) % 10);
}
