// Benchmark 5: the published package. Packed size and file count (`npm pack --dry-run --json`),
// `require` time of both node modules in a fresh Node process per sample, and runtime
// dependencies (package.json `dependencies`, plus every module the built code requires that is
// neither part of the package nor a Node built-in).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';

import { summary } from './lib/stats.mjs';

const MODULES = {
	'Company Payments': 'dist/nodes/CompanyPayments/CompanyPayments.node.js',
	'Company Payments Trigger': 'dist/nodes/CompanyPaymentsTrigger/CompanyPaymentsTrigger.node.js',
};

function packInfo(root) {
	// --ignore-scripts: measure the files, not whatever a prepack script would do.
	const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
		cwd: root,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	const [info] = JSON.parse(out);
	return {
		size: info.size,
		unpackedSize: info.unpackedSize,
		files: info.entryCount ?? info.files.length,
	};
}

/** ms to require `file` in a new process; `preload` is required first and not counted. */
function requireMs(root, file, preload) {
	const script = [
		preload ? `require(${JSON.stringify(preload)});` : '',
		'const start = process.hrtime.bigint();',
		`require(${JSON.stringify(path.join(root, file))});`,
		'process.stdout.write(String(Number(process.hrtime.bigint() - start) / 1e6));',
	].join('\n');
	return Number(execFileSync(process.execPath, ['-e', script], { cwd: root, encoding: 'utf8' }));
}

function listJs(dir) {
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) return listJs(full);
		return entry.name.endsWith('.js') ? [full] : [];
	});
}

/** Every bare module name the built code requires (relative paths excluded). */
function requiredModules(root) {
	const names = new Set();
	for (const file of listJs(path.join(root, 'dist'))) {
		const text = fs.readFileSync(file, 'utf8');
		for (const match of text.matchAll(/require\("([^"]+)"\)/g)) {
			if (!match[1].startsWith('.')) names.add(match[1]);
		}
	}
	return [...names].sort();
}

export async function benchPackage({ root, samples = 7, log = () => {} }) {
	log('package: npm pack --dry-run');
	const pack = packInfo(root);
	const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
	const dependencies = Object.keys(pkg.dependencies ?? {});
	const required = requiredModules(root);
	const builtins = new Set(builtinModules);
	const peers = new Set(Object.keys(pkg.peerDependencies ?? {}));
	const outside = required.filter(
		(name) => !builtins.has(name.replace(/^node:/, '')) && !peers.has(name),
	);
	const requireTimes = {};
	for (const [name, file] of Object.entries(MODULES)) {
		log(`package: require ${file}, ${samples} fresh processes, cold and with n8n-workflow loaded`);
		const cold = [];
		const warm = [];
		for (let i = 0; i < samples; i++) {
			cold.push(requireMs(root, file));
			warm.push(requireMs(root, file, 'n8n-workflow'));
		}
		requireTimes[name] = { cold: summary(cold), ownCode: summary(warm) };
	}
	return { pack, dependencies, required, outside, requireTimes, samples };
}
