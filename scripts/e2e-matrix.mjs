// Runs the whole end-to-end suite (test/e2e/*.test.mjs) once per n8n version, each in its own
// test process with COMPANY_PAYMENTS_N8N_VERSION set, and prints a summary. It does not build:
// `npm run test:e2e:matrix` builds first.
//
//   node scripts/e2e-matrix.mjs                 2.41.1 and 1.123.81 (npm test covers 2.8.4)
//   node scripts/e2e-matrix.mjs 2.8.4 2.41.1    these versions
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_MATRIX = ['2.41.1', '1.123.81'];
const versions = process.argv.length > 2 ? process.argv.slice(2) : DEFAULT_MATRIX;
const files = fs
	.readdirSync(path.join(ROOT, 'test', 'e2e'))
	.filter((name) => name.endsWith('.test.mjs'))
	.sort()
	.map((name) => path.join('test', 'e2e', name));

const summary = [];
for (const version of versions) {
	const started = Date.now();
	process.stdout.write(`\n== e2e on n8n ${version}: ${files.join(' ')}\n`);
	const code = await new Promise((resolve) => {
		const child = spawn(process.execPath, ['--test', '--test-concurrency=1', ...files], {
			cwd: ROOT,
			stdio: 'inherit',
			env: { ...process.env, COMPANY_PAYMENTS_N8N_VERSION: version },
		});
		child.once('error', () => resolve(1));
		child.once('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0)));
	});
	summary.push({ version, code, seconds: Math.round((Date.now() - started) / 1000) });
}
process.stdout.write('\n== e2e matrix\n');
for (const { version, code, seconds } of summary) {
	process.stdout.write(
		`n8n ${version.padEnd(9)} ${code === 0 ? 'pass' : `FAIL (exit ${code})`}  ${seconds}s\n`,
	);
}
process.exitCode = summary.some((run) => run.code !== 0) ? 1 : 0;
