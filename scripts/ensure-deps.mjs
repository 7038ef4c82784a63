#!/usr/bin/env node
/**
 * `npm start` and `npm test` run this first, so both work on a fresh clone: when a
 * devDependency of package.json is missing from node_modules (or is another version than the
 * lockfile says), it runs `npm install` from the lockfile with the project's `.npmrc`
 * (`ignore-scripts=true`, see the design notes), then returns. With everything in place it
 * only reads a few package.json files.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function readJson(file) {
	try {
		return JSON.parse(readFileSync(file, 'utf8'));
	} catch {
		return null;
	}
}

/** Names of the locked top-level packages that are absent or another version on disk. */
export function missingPackages(projectRoot = root) {
	const manifest = readJson(path.join(projectRoot, 'package.json')) ?? {};
	const lock = readJson(path.join(projectRoot, 'package-lock.json'))?.packages ?? {};
	const wanted = Object.keys({ ...manifest.devDependencies, ...manifest.dependencies });
	return wanted.filter((name) => {
		const installed = readJson(path.join(projectRoot, 'node_modules', name, 'package.json'));
		if (!installed) return true;
		const locked = lock[`node_modules/${name}`]?.version;
		return locked !== undefined && installed.version !== locked;
	});
}

/**
 * The folders with a lockfile of their own: the core package, and the self-hosted companion
 * (companion/: its Redis client, which its build ships inside the package).
 */
const PROJECTS = [root, path.join(root, 'companion')];

function main() {
	for (const project of PROJECTS) ensure(project);
}

function ensure(projectRoot) {
	const missing = missingPackages(projectRoot);
	if (missing.length === 0) return;
	const label = path.relative(root, projectRoot) || '.';
	const shown = missing.slice(0, 5).join(', ') + (missing.length > 5 ? ', …' : '');
	console.log(
		`[ensure-deps] ${label}: ${missing.length} package(s) missing or outdated (${shown}): npm install`,
	);
	const started = Date.now();
	if (!existsSync(path.join(projectRoot, 'package-lock.json'))) {
		console.error(
			'[ensure-deps] package-lock.json is missing; refusing to install unlocked versions',
		);
		process.exit(1);
	}
	const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
	const result = spawnSync(npm, ['install', '--no-audit', '--no-fund'], {
		cwd: projectRoot,
		stdio: 'inherit',
	});
	if (result.status !== 0) {
		console.error(`[ensure-deps] npm install failed (exit ${result.status ?? result.signal})`);
		process.exit(result.status || 1);
	}
	const still = missingPackages(projectRoot);
	if (still.length > 0) {
		console.error(`[ensure-deps] still missing after npm install: ${still.join(', ')}`);
		process.exit(1);
	}
	console.log(`[ensure-deps] installed in ${Math.round((Date.now() - started) / 1000)} s`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
