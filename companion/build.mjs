// Builds the companion into dist/:
// 1. TypeScript: its node and, through its imports, the core trigger's own source (compiled from
//    ../nodes, not copied), into dist/nodes/ like any community package.
// 2. Its icons and the node's codex file.
// 3. The Redis client, ioredis, with the packages it needs, from this folder's lockfile install
//    (`npm ci --prefix companion`), into dist/node_modules/, where Node resolves it from the node.
//    n8n's linter allows a community package no `dependencies` (no-runtime-dependencies, in its
//    self-hosted config too): the client ships inside the package instead, at the locked version.
import { execFileSync } from 'node:child_process';
import {
	cpSync,
	existsSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	renameSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, 'dist');
const NODE = 'CompanyPaymentsQueueTrigger';
const require = createRequire(join(here, '..', 'package.json'));
const tsc = require.resolve('typescript/bin/tsc');

rmSync(dist, { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', join(here, 'tsconfig.json')], { stdio: 'inherit' });

// tsc mirrors the repository (dist/companion/nodes/<node>, dist/nodes/<core>): the node moves to
// dist/nodes/<node>, beside the core source it imports, which its imports then name directly.
const from = join(dist, 'companion/nodes', NODE);
const to = join(dist, 'nodes', NODE);
renameSync(from, to);
rmSync(join(dist, 'companion'), { recursive: true, force: true });
for (const file of readdirSync(to).filter((name) => name.endsWith('.js'))) {
	const full = join(to, file);
	const text = readFileSync(full, 'utf8');
	const moved = text.replaceAll('require("../../../nodes/', 'require("../');
	if (/require\("\.\.\/\.\.\/\.\.\//.test(moved))
		throw new Error(`${file}: an import leaves dist/`);
	writeFileSync(full, moved);
}
cpSync(join(here, 'icons'), join(dist, 'icons'), { recursive: true });
cpSync(join(here, 'nodes', NODE, `${NODE}.node.json`), join(to, `${NODE}.node.json`));

// The locked ioredis tree (only ioredis and what it needs are installed in this folder).
const installed = join(here, 'node_modules');
if (!existsSync(join(installed, 'ioredis'))) {
	throw new Error('companion/node_modules/ioredis is missing: run npm ci --prefix companion first');
}
mkdirSync(join(dist, 'node_modules'), { recursive: true });
for (const name of readdirSync(installed)) {
	if (name.startsWith('.')) continue;
	cpSync(join(installed, name), join(dist, 'node_modules', name), { recursive: true });
}
// The claim's document (state table, what it survives, its limits), which the README names:
// shipped in the package, since only dist/ is published.
mkdirSync(join(dist, 'docs'), { recursive: true });
cpSync(join(here, '..', 'docs', 'queue-mode.md'), join(dist, 'docs', 'queue-mode.md'));
console.log('companion: built dist/');
