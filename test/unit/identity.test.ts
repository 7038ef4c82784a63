import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { fitted, identity } from '../../nodes/shared/identity';
import type { IdentityKind } from '../../nodes/shared/identity';
import { moneyKey, referenceKey } from '../../nodes/shared/money/key';
import type { MoneyContract } from '../../nodes/shared/money';

const contract = (key: 'perItem' | 'once') => ({ key, details: [] }) as unknown as MoneyContract;
import { createContext } from './helpers/n8n';

/**
 * Issue 36.4: one identity function for every key the package derives. Distinct things get
 * distinct keys, whatever their values hold (separators, escapes, look-alike prefixes), and the
 * same payment asked twice gets the same key.
 */
const KINDS: IdentityKind[] = ['deposit', 'card'];
/**
 * Text that tries to pass for the key's own syntax: few characters, most of them separators or
 * escapes, so that two different things often write the same text unescaped.
 */
const tricky = fc.stringMatching(/^[a:/%3A]{0,3}$/);
const thing = fc.record({
	kind: fc.constantFrom(...KINDS),
	scope: fc.array(tricky, { maxLength: 3 }),
	parts: fc.array(tricky, { minLength: 1, maxLength: 4 }),
});

const same = (a: typeof thing extends fc.Arbitrary<infer T> ? T : never, b: typeof a) =>
	JSON.stringify(a) === JSON.stringify(b);

it('gives distinct things distinct keys, and the same thing the same key', () => {
	fc.assert(
		fc.property(
			fc.uniqueArray(thing, { selector: (t) => JSON.stringify(t), minLength: 40, maxLength: 80 }),
			(things) => {
				const keys = things.map((t) => identity(t.kind, t.scope, t.parts));
				expect(new Set(keys).size).toBe(things.length);
				for (const t of things)
					expect(identity(t.kind, t.scope, t.parts)).toBe(keys[things.indexOf(t)]);
			},
		),
		{ numRuns: 300 },
	);
});

it('tells apart the classic collisions: a separator inside a part, an empty scope, one part moved', () => {
	const keys = [
		identity('card', [], ['ext.x', 'assigned']),
		identity('card', ['ext'], ['x', 'assigned']),
		identity('card', [], ['ext.x:assigned']),
		identity('deposit', ['user', 'a'], ['1', 'completed']),
		identity('deposit', ['user'], ['a/1', 'completed']),
		identity('deposit', ['company'], ['1', 'completed']),
		identity('deposit', [''], ['1', 'completed']),
		identity('deposit', [], ['1', 'completed']),
	];
	expect(new Set(keys).size).toBe(keys.length);
});

it('fits any identity into a value the service takes, keeping distinct ones distinct', () => {
	fc.assert(
		fc.property(thing, thing, fc.integer({ min: 40, max: 255 }), (a, b, max) => {
			const fa = fitted(identity(a.kind, a.scope, a.parts), max);
			const fb = fitted(identity(b.kind, b.scope, b.parts), max);
			expect(fa.length).toBeLessThanOrEqual(max);
			expect(fa).toMatch(/^[\x21-\x7e]+$/);
			return same(a, b) ? fa === fb : fa !== fb;
		}),
		{ numRuns: 3000 },
	);
});

describe('payment keys come from it', () => {
	const context = (parameters: IDataObject = {}, options = {}) =>
		createContext({ parameters, ...options });

	it('the same reference however written is the same payment; another reference, another', () => {
		fc.assert(
			fc.property(fc.stringMatching(/^[A-Za-z0-9-]{1,20}$/), (reference) => {
				const key = referenceKey(reference, 'payout.create');
				expect(referenceKey(` ${reference.toUpperCase()}  `, 'payout.create')).toBe(key);
				expect(referenceKey(`${reference}x`, 'payout.create')).not.toBe(key);
				expect(referenceKey(reference, 'card.recharge')).not.toBe(key);
			}),
			{ numRuns: 300 },
		);
	});

	it('a derived key names its execution, node, run and item; once-keys name the record', () => {
		const keys = new Set<string>();
		for (const executionId of ['1', '11']) {
			for (const runIndex of [0, 1]) {
				for (const itemIndex of [0, 1, 11]) {
					keys.add(
						moneyKey(context({}, { executionId, runIndex }), itemIndex, contract('perItem')),
					);
				}
			}
		}
		expect(keys.size).toBe(12);
		const once = (id: string) => moneyKey(context(), 0, contract('once'), { action: 'accept', id });
		expect(once('0B6A9A52-4F4E-4A8E-9D39-3F1C8F6F2A11')).toBe(
			once('0b6a9a52-4f4e-4a8e-9d39-3f1c8f6f2a11'),
		);
		expect(once('a:b')).not.toBe(
			moneyKey(context(), 0, contract('once'), { action: 'accept:a', id: 'b' }),
		);
	});
});
