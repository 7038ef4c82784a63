// CONTRIBUTING's recipes (add an operation, an event, an open choice, a status, a service) name
// the files a contributor touches. A recipe that names a file that is gone sends a newcomer
// looking for it: every path CONTRIBUTING.md names in backticks must exist, `<resource>`-style
// placeholders standing for any one folder or file name.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const text = fs.readFileSync(path.join(ROOT, 'CONTRIBUTING.md'), 'utf8');

/** Backticked text that names a path of this repository: a slash, and a file ending or a final slash. */
export function namedPaths(markdown) {
	const paths = new Set();
	for (const [, inner] of markdown.matchAll(/`([^`\s]+)`/g)) {
		if (!inner.includes('/') || /^(https?:|npm |node |--)/.test(inner)) continue;
		if (inner.startsWith('/') || inner.startsWith('~') || inner.startsWith('$')) continue;
		if (!/\.[a-z]+$/.test(inner) && !inner.endsWith('/')) continue;
		paths.add(inner.replace(/^\.\//, ''));
	}
	return [...paths];
}

/** Folders a table or recipe names paths relative to (e.g. `transport/` in nodes/shared/'s row). */
const BASES = ['', 'nodes/shared', 'nodes/CompanyPayments', 'test', 'harness', 'sandbox'];

/** Paths made at run time and ignored by git (e.g. the browser suite's screenshots). */
const IGNORED = fs
	.readFileSync(path.join(ROOT, '.gitignore'), 'utf8')
	.split('\n')
	.map((line) => line.trim().replace(/\/$/, ''))
	.filter((line) => line.includes('/') && !line.startsWith('#'));

function exists(relative) {
	if (IGNORED.some((ignored) => relative.replace(/\/$/, '').startsWith(ignored))) return true;
	return BASES.some((base) => existsUnder(path.join(ROOT, base), relative));
}

/** Whether a path exists below `root`, `<…>` segments matching any entry. */
function existsUnder(root, relative) {
	let candidates = [root];
	for (const segment of relative.split('/').filter(Boolean)) {
		const next = [];
		for (const dir of candidates) {
			if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) continue;
			if (!segment.includes('<')) {
				if (fs.existsSync(path.join(dir, segment))) next.push(path.join(dir, segment));
				continue;
			}
			const pattern = new RegExp(
				`^${segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/<[^>]+>/g, '[^/]+')}$`,
			);
			for (const entry of fs.readdirSync(dir)) {
				if (pattern.test(entry)) next.push(path.join(dir, entry));
			}
		}
		candidates = next;
	}
	return candidates.length > 0;
}

describe("CONTRIBUTING's recipes", () => {
	it('name paths (at least the ones of every recipe)', () => {
		const named = namedPaths(text);
		for (const must of [
			'nodes/shared/contract/events.ts',
			'nodes/shared/contract/assumptions.ts',
			'nodes/shared/money/key.ts',
		]) {
			assert.ok(named.includes(must), `CONTRIBUTING names ${must}`);
		}
	});

	it('name only files and folders that exist', () => {
		const missing = namedPaths(text).filter((relative) => !exists(relative));
		assert.deepEqual(
			missing,
			[],
			`CONTRIBUTING.md names paths that do not exist: ${missing.join(', ')}`,
		);
	});

	it('finds a path that does not exist (the check can fail)', () => {
		assert.equal(exists('nodes/shared/contract/no-such-file.ts'), false);
		assert.equal(exists('nodes/CompanyPayments/<resource>/index.ts'), true);
		assert.equal(exists('nodes/CompanyPayments/<resource>/no-such.ts'), false);
	});
});
