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
const MONEY = path.join(ROOT, 'nodes', 'shared', 'money');

/**
 * The tables of every errorCode the node explains (the service's, with its own words such as
 * FINE_ALREADY_PAID, and the node's own beside them, so docs/errors.md is one table): vocabulary,
 * not code that decides anything.
 */
const CODE_TABLES = ['errorCodes.ts', 'errorActions.ts'];

/** Every name the money module exports: the concepts the transport must not name. */
export function moneyNames() {
	const names = new Set();
	for (const file of tsFiles(MONEY)) {
		const source = fs.readFileSync(file, 'utf8');
		for (const match of source.matchAll(
			/export (?:async )?(?:function|const|class|interface|type) (\w+)/g,
		)) {
			names.add(match[1]);
		}
	}
	return names;
}

/** Words that are money whatever module says them. */
const MONEY_WORDS = [
	/\bmoney\b/i,
	/paymentOutcome/,
	/\bnot_paid\b/,
	/Idempotency-Key/i,
	/replayByKey/,
];

/** Where a transport source names a money concept: an import of the money module, a name, a word. */
export function moneyInTransport(file, source, names = moneyNames()) {
	const out = [];
	const where = path.relative(ROOT, file);
	for (const spec of relativeImports(source)) {
		if (path.resolve(path.dirname(file), spec).startsWith(MONEY)) {
			out.push(`${where} imports the money module ('${spec}')`);
		}
	}
	const code = source.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
	for (const name of names) {
		if (new RegExp(`\\b${name}\\b`).test(code)) out.push(`${where} names ${name}`);
	}
	for (const word of MONEY_WORDS) {
		if (word.test(source)) out.push(`${where} says ${word}`);
	}
	return out;
}

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

describe('the transport knows no money (issue 44.1)', () => {
	const names = moneyNames();

	it("reads the money module's names", () => {
		for (const name of [
			'moneyWrite',
			'moneyKey',
			'OutcomeMachine',
			'MoneyContract',
			'markOutcome',
		]) {
			assert.ok(names.has(name), name);
		}
	});

	it('no transport file imports the money module or names a money concept', () => {
		const found = tsFiles(TRANSPORT)
			.filter((file) => !CODE_TABLES.includes(path.basename(file)))
			.flatMap((file) => moneyInTransport(file, fs.readFileSync(file, 'utf8'), names));
		assert.deepEqual(found, []);
	});

	it('a transport that names money is caught (the check can fail)', () => {
		const file = path.join(TRANSPORT, 'request.ts');
		assert.equal(
			moneyInTransport(file, "import { markOutcome } from '../money/outcome';", names).length,
			3,
		);
		assert.equal(moneyInTransport(file, 'if (request.money) return;', names).length, 1);
		assert.equal(moneyInTransport(file, "headers['Idempotency-Key'] = key;", names).length, 1);
		assert.equal(moneyInTransport(file, 'const machine = new OutcomeMachine();', names).length, 1);
	});
});

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
