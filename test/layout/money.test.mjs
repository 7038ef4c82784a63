import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

import { relativeImports } from './imports.test.mjs';

/**
 * Issue 36.1, the money layers of the action node:
 * - tool/ stays above the operations: it reads an operation's money contract from the operation
 *   object it is handed, and imports nothing from a resource folder (an operation file's
 *   helpers); what tool mode and the operations share lives in common/;
 * - no operation (nor common/) imports from tool/;
 * - nothing recognises a money write by method and path: the transport reads the operation's
 *   money block, and no path pattern of a money endpoint stands in nodes/shared/transport/.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ACTION = path.join(ROOT, 'nodes', 'CompanyPayments');
const TRANSPORT = path.join(ROOT, 'nodes', 'shared', 'transport');

function tsFiles(dir) {
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) return tsFiles(full);
		return entry.name.endsWith('.ts') ? [full] : [];
	});
}

/** The folder directly under nodes/CompanyPayments/ a file lies in, or '' for its top files. */
function layerOf(file) {
	const rel = path.relative(ACTION, file);
	if (rel.startsWith('..')) return null;
	const parts = rel.split(path.sep);
	return parts.length > 1 ? parts[0] : '';
}

const RESOURCE_FOLDERS = fs
	.readdirSync(ACTION, { withFileTypes: true })
	.filter((entry) => entry.isDirectory() && !['tool', 'common', 'listSearch'].includes(entry.name))
	.map((entry) => entry.name);

export function moneyLayerViolations(files) {
	const out = [];
	for (const { file, source } of files) {
		const from = layerOf(file);
		if (from === null) continue;
		for (const spec of relativeImports(source)) {
			const to = layerOf(path.resolve(path.dirname(file), spec));
			if (to === null || to === from) continue;
			const where = `${path.relative(ROOT, file)} imports '${spec}'`;
			if (from === 'tool' && RESOURCE_FOLDERS.includes(to)) {
				out.push(`${where}: tool/ reads operations through their contracts, not their helpers`);
			}
			if ((RESOURCE_FOLDERS.includes(from) || from === 'common') && to === 'tool') {
				out.push(`${where}: an operation (or common/) imports nothing from tool/ above it`);
			}
		}
	}
	return out;
}

describe('money layers', () => {
	const files = tsFiles(ACTION).map((file) => ({ file, source: fs.readFileSync(file, 'utf8') }));

	it('knows the resource folders', () => {
		for (const folder of ['order', 'payout', 'card', 'company']) {
			assert.ok(RESOURCE_FOLDERS.includes(folder), folder);
		}
	});

	it('tool/ imports no operation helper, and no operation imports tool/', () => {
		assert.deepEqual(moneyLayerViolations(files), []);
	});

	it('names a crossing (the check can fail)', () => {
		const tool = path.join(ACTION, 'tool', 'reference.ts');
		const op = path.join(ACTION, 'payout', 'create.operation.ts');
		assert.equal(
			moneyLayerViolations([
				{ file: tool, source: "import { readRequisite } from '../payout/requisite';" },
				{ file: op, source: "import { x } from '../tool/reference';" },
				{ file: op, source: "import { moneyKey } from '../common/money';" },
			]).length,
			2,
		);
	});

	it('the transport recognises no money write by method and path', () => {
		for (const file of tsFiles(TRANSPORT)) {
			const source = fs.readFileSync(file, 'utf8');
			for (const pattern of [/\/orders\\?\/accept/, /\/payouts/, /\/cards\\?\/re(quest|charge)/]) {
				assert.doesNotMatch(source, pattern, `${path.relative(ROOT, file)} names a money path`);
			}
			assert.doesNotMatch(source, /REPLAY_BY_KEY|MONEY_WRITES|ASSUMED_ENDPOINTS/, file);
		}
	});
});
