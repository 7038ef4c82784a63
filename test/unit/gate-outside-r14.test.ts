// Outside read r14-data (the gate's text and field-shape rules): each finding as it was found.
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';
import nock from 'nock';

import { gateItems, gateJson } from '../../nodes/shared/gate';
import { namedIn } from '../../nodes/shared/gate/learned';
import { deliver } from './helpers/trigger';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const HEX_40 = '0f3c9a7be21d4c5f8a6b3e2d1c0f9a8b7c6d5e4f';
const CARD = {
	id: 'c1',
	externalId: null,
	status: 'assigned',
	maskedPan: '411111******1111',
	createdAt: '2026-01-01T00:00:00Z',
};

describe('finding 1: a secret sent as a name/value pair is masked as the named field', () => {
	const pairs: [string, unknown][] = [
		[
			'objects',
			{
				attributes: [
					{ name: 'pin', value: '4821' },
					{ name: 'cvv', value: '482' },
				],
			},
		],
		['a list of two', { extra: [['cardPin', '7390']] }],
		['a header pair', { issuerIntegration: [{ name: 'X-API-Key', value: HEX_40 }] }],
		['a list pair', { issuerHeaders: [['secret', HEX_40]] }],
		['key/val', { meta: { key: 'password', val: 'Zx9!wq' } }],
		['a number', { attributes: [{ field: 'pinCode', data: 4821 }] }],
	];
	for (const [name, extra] of pairs) {
		for (const audience of ['user', 'model'] as const) {
			it(`${name}, for the ${audience}`, () => {
				const value = { ...CARD, ...(extra as IDataObject) };
				const shown = JSON.stringify(gateJson(undefined, value, audience));
				for (const secret of ['4821', '"482"', '7390', HEX_40, 'Zx9!wq']) {
					expect(shown).not.toContain(secret);
				}
				// The pair's name stays: it says what was hidden.
				expect(shown).toMatch(/pin|cvv|X-API-Key|secret|password/i);
			});
		}
	}

	it('a pair that names no secret is kept', () => {
		const value = { ...CARD, attributes: [{ name: 'color', value: '4821' }, ['size', 'L']] };
		expect(gateJson(undefined, value)).toEqual(value);
	});

	it('the pair is learned: its value is known elsewhere in the same answer', () => {
		const named = namedIn({ attributes: [{ name: 'X-API-Key', value: HEX_40 }] });
		expect(named.secrets).toContain(HEX_40);
		const shown = gateItems(undefined, [
			[{ json: { a: [['secret', HEX_40]], note: `echo ${HEX_40}` } }],
		]);
		expect(JSON.stringify(shown)).not.toContain(HEX_40);
	});

	it('the webhook trigger item', async () => {
		const body = JSON.stringify({
			event: 'card.assigned',
			externalId: 'emp-7',
			cardId: 'crd_1',
			card: {
				id: 'crd_1',
				status: 'assigned',
				attributes: [
					{ name: 'pin', value: '4821' },
					{ name: 'cvv', value: '482' },
				],
			},
		});
		const { item } = await deliver({ body, parameters: { options: { includeRawBody: true } } });
		const shown = JSON.stringify(item);
		expect(shown).not.toContain('4821');
		expect(shown).not.toContain('"482"');
		expect(item!.rawBody).toBeNull();
	});

	it('generated: a pair naming a secret, at any depth, in any shape, for both readers', () => {
		const names = fc.constantFrom(
			'pin',
			'cvv',
			'cardPin',
			'X-API-Key',
			'secret',
			'password',
			'apiKey',
		);
		const nameKeys = fc.constantFrom('name', 'key', 'field', 'label', 'type', 'id');
		const valueKeys = fc.constantFrom('value', 'val', 'data', 'text', 'content');
		const secret = fc.stringMatching(/^[0-9a-f]{40}$/);
		const pair = fc.oneof(
			fc
				.tuple(nameKeys, valueKeys, names, secret)
				.map(([n, v, name, s]) => [{ [n]: name, [v]: s } as unknown, s] as const),
			fc.tuple(names, secret).map(([name, s]) => [[name, s] as unknown, s] as const),
		);
		const wrap = fc.array(fc.constantFrom('list', 'details', 'meta', 'x', '[]'), { maxLength: 5 });
		fc.assert(
			fc.property(pair, wrap, fc.constantFrom('user', 'model'), ([shape, s], path, audience) => {
				let value: unknown = shape;
				for (const step of path) value = step === '[]' ? [value] : { [step]: value };
				const shown = JSON.stringify(
					gateJson(undefined, { ...CARD, extra: value }, audience as 'user'),
				);
				return !shown.includes(s);
			}),
			{ numRuns: 200 },
		);
	});
});
