// One vocabulary for the open choices (issue 30.3): each choice the node makes where the
// interface document says "not shown" (nodes/shared/contract/choices.ts) is one the sandbox can
// play under the same name (sandbox/lib/profiles.mjs CHOICES, sandbox/lib/generated.mjs
// GENERATED_CHOICES), and docs/assumptions.md names it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { GENERATED_CHOICES } from '../../sandbox/lib/generated.mjs';
import { CHOICES } from '../../sandbox/lib/profiles.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
const { OPEN_CHOICES } = require(path.join(ROOT, 'dist/nodes/shared/contract/choices.js'));

/** Every name the sandbox plays a choice by: its profiles' and its generated mode's. */
export function sandboxChoiceNames() {
	return new Set([
		...Object.keys(CHOICES),
		...Object.values(GENERATED_CHOICES).flatMap((group) => Object.keys(group)),
	]);
}

describe('open choices: one name on both sides', () => {
	const node = Object.keys(OPEN_CHOICES);
	const sandbox = sandboxChoiceNames();

	it('every choice the node makes can be played by the sandbox under the same name', () => {
		assert.deepEqual(
			node.filter((name) => !sandbox.has(name)),
			[],
		);
	});

	it('every choice the sandbox plays is one the node states its answer to', () => {
		assert.deepEqual(
			[...sandbox].filter((name) => !(name in OPEN_CHOICES)),
			[],
		);
	});

	it('docs/assumptions.md names every choice', () => {
		const docs = fs.readFileSync(path.join(ROOT, 'docs/assumptions.md'), 'utf8');
		assert.deepEqual(
			node.filter((name) => !docs.includes(`\`${name}\``)),
			[],
		);
	});

	it('a name missing on one side is found (the check can fail)', () => {
		assert.equal(sandbox.has('noSuchChoice'), false);
		assert.equal('pageCap' in OPEN_CHOICES && sandbox.has('pageCap'), true);
	});
});
