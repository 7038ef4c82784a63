import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

import { checkPackage, PACKAGE_RULES } from '../../scripts/package-rules.mjs';

/**
 * The packed core package plays by n8n's rules (issue 45): no environment access, no socket, no
 * constructor taken from an object n8n hands the node, no Redis client, no runtime dependency.
 * Packs the build with `npm pack` (run `npm run build` first), unpacks it, and checks every file;
 * then proves each rule catches what it names by adding one offending line to a copy.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let work;
let unpacked;

before(() => {
	assert.ok(fs.existsSync(path.join(ROOT, 'dist')), 'run npm run build first');
	work = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-package-rules-'));
	const [packed] = JSON.parse(
		execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], {
			cwd: ROOT,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'ignore'],
		}),
	);
	execFileSync('tar', ['-xzf', path.join(work, packed.filename), '-C', work]);
	unpacked = path.join(work, 'package');
});

after(() => {
	if (work) fs.rmSync(work, { recursive: true, force: true });
});

/** A copy of the unpacked package with one line added to the trigger's compiled receive.js. */
function brokenCopy(name, addedLine, pkgEdit) {
	const copy = path.join(work, name);
	fs.cpSync(unpacked, copy, { recursive: true });
	const file = path.join(copy, 'dist/nodes/CompanyPaymentsTrigger/receive.js');
	fs.appendFileSync(file, `\n${addedLine}\n`);
	if (pkgEdit) {
		const pkgFile = path.join(copy, 'package.json');
		const pkg = JSON.parse(fs.readFileSync(pkgFile, 'utf8'));
		pkgEdit(pkg);
		fs.writeFileSync(pkgFile, JSON.stringify(pkg));
	}
	return copy;
}

describe('the packed core package', () => {
	it('has no environment access, socket, constructor trick, Redis client or dependency', () => {
		const findings = checkPackage(unpacked);
		assert.deepEqual(
			findings.map((f) => `${f.file}:${f.line} ${f.rule}: ${f.text}`),
			[],
			'the core package must play by n8n rules (docs/queue-mode.md)',
		);
		assert.ok(
			fs.existsSync(path.join(unpacked, 'dist/nodes/CompanyPaymentsTrigger/receive.js')),
			'the trigger is in the package',
		);
	});

	// One offending line per rule, in the forms the trigger used before (issue 45) and their kin.
	const offences = [
		['environment', 'const mode = process.env.EXECUTIONS_MODE;'],
		['environment', "const env = ctx.evaluateExpression('{{ $env.QUEUE_BULL_REDIS_HOST }}', 0);"],
		['process', "const p = process['versions'];"],
		['network module', 'const net = require("node:net");'],
		['network module', "const tls = require('tls');"],
		['socket', 'const socket = ctx.getRequestObject().socket;'],
		['socket', 'const s = new Socket(); s.connect(port, host);'],
		['constructor trick', 'const Make = Object.getPrototypeOf(request).constructor;'],
		['redis client', 'const Redis = require("ioredis");'],
		['redis client', "send(['SET', key, token, 'NX', 'PX', 1500]);"],
	];
	for (const [rule, line] of offences) {
		it(`fails on ${rule}: ${line}`, () => {
			const copy = brokenCopy(`broken-${offences.findIndex((o) => o[1] === line)}`, line);
			const found = checkPackage(copy).map((f) => f.rule);
			assert.ok(found.includes(rule), `${rule} not found in ${JSON.stringify(found)}`);
		});
	}

	it('fails on a runtime dependency', () => {
		const copy = brokenCopy('broken-deps', '', (pkg) => {
			pkg.dependencies = { ioredis: '5.8.2' };
		});
		assert.deepEqual(
			checkPackage(copy).map((f) => f.rule),
			['runtime dependency'],
		);
	});

	it('names a reason for every rule', () => {
		for (const { rule, why, patterns } of PACKAGE_RULES) {
			assert.ok(rule && why && patterns.length > 0, rule);
		}
	});
});
