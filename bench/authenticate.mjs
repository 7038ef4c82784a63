// What n8n spends per request on the credential's `authenticate` (issue 52): the generic object
// form (an expression per request) against the function form (called as it is), on each
// installed n8n of the e2e host's set, with the expression engine that n8n runs by default
// (2.36 and later: `vm`, the isolated-vm sandbox; before: none). Prints the table; not part of
// `npm run bench`, which measures whole workflows (figures 3 and 4).
//
//   node bench/authenticate.mjs [--count=2000] [--versions=2.8.4,2.41.1]
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { ensureN8n } from '../harness/n8n.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const count = Number(args.find((a) => a.startsWith('--count='))?.slice(8) ?? 2000);
const versions = (args.find((a) => a.startsWith('--versions='))?.slice(11) ?? '2.8.4,2.41.1').split(
	',',
);

const rows = [];
for (const version of versions) {
	const install = await ensureN8n({ version });
	const [major, minor] = version.split('.').map(Number);
	const engine = major > 2 || (major === 2 && minor >= 36) ? 'vm' : 'legacy';
	const run = spawnSync(
		install.nodeBin,
		[path.join(here, 'lib/authenticate-cost.cjs'), install.dir, engine, String(count)],
		{ encoding: 'utf8' },
	);
	if (run.status !== 0) throw new Error(`n8n ${version}: ${run.stderr}`);
	const result = JSON.parse(run.stdout.trim().split('\n').pop());
	rows.push(
		`| ${version} | ${result.node} | ${engine} | ${result.genericUs.toFixed(1)} µs | ${result.functionUs.toFixed(2)} µs | ${((result.genericUs * 1000) / 1000).toFixed(0)} ms |`,
	);
}
console.log(
	'| n8n | Node | expression engine | generic object, per request | function, per request | generic, 1,000 requests |',
);
console.log('| --- | --- | --- | --- | --- | --- |');
for (const row of rows) console.log(row);
