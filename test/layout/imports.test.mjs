import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

/**
 * The package's layout rule (CONTRIBUTING.md, "Layout"): each node's folder imports only from
 * itself and from nodes/shared/; nodes/shared/ imports from no node's folder. A file that
 * reaches into another node's folder fails here with the import named.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const NODES = path.join(ROOT, 'nodes');

function sourceFiles(dir) {
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) return sourceFiles(full);
		return entry.name.endsWith('.ts') ? [full] : [];
	});
}

/** Relative module specifiers of a file's static and dynamic imports and re-exports. */
export function relativeImports(source) {
	const found = [];
	const pattern =
		/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)(['"])(\.{1,2}\/[^'"]*)\1/g;
	for (const match of source.matchAll(pattern)) found.push(match[2]);
	return found;
}

/** The top folder under nodes/ a path lies in ("shared", "CompanyPayments", ...), or null. */
function topFolder(file) {
	const rel = path.relative(NODES, file);
	if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
	const [first] = rel.split(path.sep);
	return first === rel ? null : first;
}

export function layoutViolations(files) {
	const violations = [];
	for (const { file, source } of files) {
		const own = topFolder(file);
		for (const spec of relativeImports(source)) {
			const target = topFolder(path.resolve(path.dirname(file), spec));
			if (target === null || target === own || target === 'shared') continue;
			violations.push(
				`${path.relative(ROOT, file)} imports '${spec}' from nodes/${target}/ (${own === 'shared' ? 'nodes/shared/ imports from no node' : 'a node imports only from its own folder and nodes/shared/'})`,
			);
		}
	}
	return violations;
}

describe('layout: no node folder imports from another', () => {
	const files = sourceFiles(NODES).map((file) => ({
		file,
		source: fs.readFileSync(file, 'utf8'),
	}));

	it('reads every node folder, nodes/shared included', () => {
		const folders = new Set(files.map((entry) => topFolder(entry.file)));
		assert.deepEqual([...folders].sort(), [
			'CompanyPayments',
			'CompanyPaymentsPollTrigger',
			'CompanyPaymentsTrigger',
			'shared',
		]);
	});

	it('finds no import across node folders', () => {
		assert.deepEqual(layoutViolations(files), []);
	});

	it('names an import that crosses folders (the check can fail)', () => {
		const file = path.join(NODES, 'CompanyPaymentsTrigger', 'receive.ts');
		const shared = path.join(NODES, 'shared', 'transport', 'index.ts');
		const found = layoutViolations([
			{ file, source: "import { apiRequest } from '../CompanyPayments/router';" },
			{ file, source: "export { x } from '../shared/transport';" },
			{ file: shared, source: "import type { Op } from '../../CompanyPayments/types';" },
			{ file, source: "const m = await import('../CompanyPaymentsPollTrigger/poll');" },
		]);
		assert.equal(found.length, 3, found.join('\n'));
		assert.match(
			found[0],
			/nodes\/CompanyPaymentsTrigger\/receive\.ts imports '\.\.\/CompanyPayments\/router'/,
		);
		assert.match(found[1], /nodes\/shared\/ imports from no node/);
		assert.match(found[2], /from nodes\/CompanyPaymentsPollTrigger\//);
	});
});

describe('layout: the demo, benches, harness and sandbox import nothing from test/', () => {
	const TEST = path.join(ROOT, 'test');
	const scriptFiles = (dir) =>
		fs.existsSync(dir)
			? fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
					const full = path.join(dir, entry.name);
					if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : scriptFiles(full);
					return /\.(mjs|js)$/.test(entry.name) ? [full] : [];
				})
			: [];

	/** Imports of `files` that resolve into test/. */
	function testImports(files) {
		const found = [];
		for (const { file, source } of files) {
			for (const spec of relativeImports(source)) {
				const target = path.resolve(path.dirname(file), spec);
				if (target === TEST || target.startsWith(`${TEST}${path.sep}`)) {
					found.push(`${path.relative(ROOT, file)} imports '${spec}'`);
				}
			}
		}
		return found;
	}

	it('finds none', () => {
		const files = ['scripts', 'bench', 'harness', 'sandbox']
			.flatMap((dir) => scriptFiles(path.join(ROOT, dir)))
			.map((file) => ({ file, source: fs.readFileSync(file, 'utf8') }));
		assert.ok(files.length > 20, `read ${files.length} files`);
		assert.deepEqual(testImports(files), []);
	});

	it('names one that does (the check can fail)', () => {
		const file = path.join(ROOT, 'bench', 'run.mjs');
		assert.deepEqual(testImports([{ file, source: "import { x } from '../test/e2e/x.mjs';" }]), [
			"bench/run.mjs imports '../test/e2e/x.mjs'",
		]);
	});
});
