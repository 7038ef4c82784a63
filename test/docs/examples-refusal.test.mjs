import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

/*
 * outside r11-money F5: examples/README.md says what a refusal does in Resolve Outcome as the node
 * does it (test/unit/money-outside-r11.test.ts, F5): it carries no sealed sentWrite, so it comes
 * out unknown, verified false, never "unchanged".
 */
test('examples/README.md: a refusal through Resolve Outcome comes out unknown, verified false', () => {
	const readme = readFileSync(new URL('../../examples/README.md', import.meta.url), 'utf8').replace(
		/\s+/g,
		' ',
	);
	assert.doesNotMatch(readme, /pass through Resolve Outcome unchanged/);
	assert.match(
		readme,
		/Refusals \(`not_paid`[^)]*\) carry no sealed `sentWrite`[^.]*: one that reaches it comes out `unknown` \(`verified: false`, without `lookAgainAt`/,
	);
});
