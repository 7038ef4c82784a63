/**
 * Outside r9-money F7: the docs promise replay by Idempotency-Key only where the interface
 * document does (POST /orders/accept/{id}: Accept Quote, and Pay QR Code through it). POST
 * /cards/request requires a key "unique per attempt" and promises no stored result, so no page
 * says the same key makes a Card Request (or its BRIDGE_ERROR) safe to send again.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

import { ROOT } from '../../scripts/docs.mjs';

const read = (file) => readFileSync(path.join(ROOT, file), 'utf8').replace(/\s+/g, ' ');

describe('replay by key, as the document promises it', () => {
	const errors = read('docs/errors.md');
	const assumptions = read('docs/assumptions.md');

	it('errors.md names only Accept Quote (and Pay QR Code) as replayed by key', () => {
		assert.doesNotMatch(errors, /Pay QR Code and Card Request are documented to answer/);
		assert.match(
			errors,
			/Only Accept Quote \(and Pay QR Code, which accepts a quote\) is documented/,
		);
	});

	it('BRIDGE_ERROR does not call the same Idempotency-Key safe', () => {
		const row = errors.split('| `BRIDGE_ERROR` |')[1]?.split(' | ').slice(0, 2).join(' | ') ?? '';
		assert.ok(row !== '', 'errors.md has a BRIDGE_ERROR row');
		assert.doesNotMatch(row, /same Idempotency-Key keeps it safe/);
		assert.match(row, /unknown/);
	});

	it('assumptions.md promises replay for Accept Quote only', () => {
		assert.doesNotMatch(assumptions, /promised only for Accept Quote and Card Request/);
	});
});
