// Issue 44.2: docs/assumptions.md states the evidence rules as one table; it must say what the
// code decides by (EVIDENCE_RULES of nodes/shared/money/evidence.ts, built in dist/).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
const { EVIDENCE_RULES } = require(path.join(ROOT, 'dist/nodes/shared/money/evidence.js'));

/** The page's table between its markers, as kind → form → verdict. */
export function rulesOnPage(text) {
	const table = /<!-- evidence-rules -->([\s\S]*?)<!-- \/evidence-rules -->/.exec(text)?.[1] ?? '';
	const verdict = (cell) => {
		const words = cell.replace(/<!--[^>]*-->/g, '').trim();
		for (const [start, name] of [
			['agrees', 'agrees'],
			['differs', 'differs'],
			['not shown', 'not_shown'],
		]) {
			if (words.startsWith(start)) return name;
		}
		throw new Error(`unreadable cell: ${cell}`);
	};
	const rules = {};
	for (const row of table.split('\n').filter((line) => line.startsWith('|'))) {
		const cells = row.split('|').slice(1, -1);
		const kind = /\(`(\w+)`/.exec(cells[0])?.[1];
		if (!kind) continue;
		const [shown, masked, absent, different] = cells.slice(1).map(verdict);
		rules[kind] = { shown, masked, absent, different };
	}
	return rules;
}

describe('the evidence rules on docs/assumptions.md', () => {
	const page = fs.readFileSync(path.join(ROOT, 'docs/assumptions.md'), 'utf8');

	it('say what the code decides by, every kind and every way a detail is shown', () => {
		assert.deepEqual(rulesOnPage(page), JSON.parse(JSON.stringify(EVIDENCE_RULES)));
	});

	it('a page that says otherwise is caught', () => {
		const changed = page.replace(
			'| not shown | not shown | differs |',
			'| not shown | agrees | differs |',
		);
		assert.notDeepEqual(rulesOnPage(changed), JSON.parse(JSON.stringify(EVIDENCE_RULES)));
	});
});
