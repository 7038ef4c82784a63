/**
 * Real-n8n host: installs a pinned n8n once into a cache folder, loads this package into it and
 * runs it on loopback for the end-to-end tests, the benchmarks and the demo.
 *
 * Plain JavaScript on purpose: the n8n linter forbids process, fs and child_process in the
 * package's TypeScript, and this file needs all three. Node built-ins only.
 *
 * Typical use:
 *
 *   await ensureN8n();                                   // cold: npm install, warm: a file check
 *   const userFolder = createUserFolder();
 *   installPackage(userFolder);                          // copies package.json + dist/
 *   await importCredentials(userFolder, [{ name, type, data }]);
 *   const { id } = await importWorkflow(userFolder, workflowJson, { activate: true });
 *   const n8n = await startN8n({ userFolder });          // resolves once webhooks are registered
 *   await fetch(n8n.webhookUrl('my-path'));
 *   const executions = await n8n.waitForExecutions({ workflowId: id, count: 1 });
 *   await n8n.stop();
 *
 * Everything binds to 127.0.0.1. Facts about n8n 2.8.4 that this file relies on are noted where
 * they are used; they were read from n8n's own code in the cache's node_modules.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

/** The n8n we test against: the newest that runs on Node 20. */
export const N8N_VERSION = '2.8.4';
export const PACKAGE_NAME = 'n8n-nodes-company-payments';
/** Root of this repository (the package n8n loads by default). */
export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Fixed so that credentials written by the CLI stay readable by every later start. */
export const ENCRYPTION_KEY = 'company-payments-e2e-not-a-secret-0001';
/** The owner account the host creates (on first use) in every user folder. */
export const OWNER = Object.freeze({
	email: 'owner@company-payments.test',
	password: 'CompanyPayments1',
	firstName: 'E2E',
	lastName: 'Owner',
});

/** Written by n8n 2.8.4 once `activeWorkflowManager.init()` has registered every active webhook. */
const READY_LINE = 'Editor is now accessible via';
const ACTIVATION_ERROR = /Issue on initial workflow activation try of (.*)/g;
const MARKER_FILE = '.n8n-host-complete.json';
const INSTALL_LOG = 'install.log';
const HOST_DIR = '.n8n-host'; // inside a user folder: the API key and temporary import files
const CACHE_PACKAGE_JSON = {
	private: true,
	dependencies: { n8n: N8N_VERSION },
	// A dependency of n8n points xlsx at a host that is not reachable here; 0.18.5 is on npm.
	overrides: { xlsx: '0.18.5' },
};
const PROGRESS_EVERY_MS = 30_000;
/** A foreign install (no lock, log without "exit N") that changes nothing for this long is dead. */
const STALLED_AFTER_MS = 10 * 60_000;
const LOCK_MAX_AGE_MS = 2 * 60 * 60_000;

function defaultLog(message) {
	process.stderr.write(`[n8n-host] ${message}\n`);
}

// ---------------------------------------------------------------------------------------------
// 1. The n8n install (cache)
// ---------------------------------------------------------------------------------------------

/**
 * Folder that holds the n8n install: `$COMPANY_PAYMENTS_N8N_CACHE`, else
 * `${XDG_CACHE_HOME or ~/.cache}/n8n-nodes-company-payments/n8n-2.8.4`.
 * @returns {string}
 */
export function n8nCacheDir() {
	const override = process.env.COMPANY_PAYMENTS_N8N_CACHE;
	if (override) return path.resolve(override);
	const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
	return path.join(base, PACKAGE_NAME, `n8n-${N8N_VERSION}`);
}

/**
 * Makes sure n8n 2.8.4 is installed in {@link n8nCacheDir} and returns where.
 *
 * Warm: the completion marker and node_modules/n8n/package.json both say 2.8.4, nothing else
 * happens. Cold: `npm install --no-audit --no-fund` (minutes, ~2.3 GB) with a progress line every
 * 30 s. Concurrent callers are serialised by a lock directory next to the cache folder; an install
 * started by hand into the same folder (its `install.log` does not end with `exit N` yet) is
 * waited for and, if it ended with `exit 0` and installed 2.8.4, adopted instead of repeated.
 *
 * @param {{ log?: (line: string) => void, timeoutMs?: number }} [options]
 * @returns {Promise<{ dir: string, bin: string, version: string }>}
 */
export async function ensureN8n({ log = defaultLog, timeoutMs = 60 * 60_000 } = {}) {
	const dir = n8nCacheDir();
	const result = {
		dir,
		bin: path.join(dir, 'node_modules', 'n8n', 'bin', 'n8n'),
		version: N8N_VERSION,
	};
	if (markerIsValid(dir)) return result;

	const started = Date.now();
	let lastNote = 0;
	for (;;) {
		if (markerIsValid(dir)) return result;
		const lock = tryLock(dir);
		if (lock) {
			try {
				if (markerIsValid(dir)) return result;
				if (!(await adoptExistingInstall(dir, log))) await runInstall(dir, log);
				return result;
			} finally {
				lock.release();
			}
		}
		if (Date.now() - started > timeoutMs) {
			throw new Error(
				`gave up waiting for another process installing n8n into ${dir} (lock ${dir}.lock)`,
			);
		}
		if (Date.now() - lastNote >= PROGRESS_EVERY_MS) {
			log(
				`another process is installing n8n ${N8N_VERSION} into ${dir}; waiting (${elapsed(started)})`,
			);
			lastNote = Date.now();
		}
		await sleep(2_000);
	}
}

function installedN8nVersion(dir) {
	try {
		return JSON.parse(
			fs.readFileSync(path.join(dir, 'node_modules', 'n8n', 'package.json'), 'utf8'),
		).version;
	} catch {
		return undefined;
	}
}

function markerIsValid(dir) {
	try {
		const marker = JSON.parse(fs.readFileSync(path.join(dir, MARKER_FILE), 'utf8'));
		return marker.n8nVersion === N8N_VERSION && installedN8nVersion(dir) === N8N_VERSION;
	} catch {
		return false;
	}
}

/** Throws if the install cannot run n8n; the usual cause is npm running with ignore-scripts. */
function verifyInstall(dir) {
	const version = installedN8nVersion(dir);
	if (version !== N8N_VERSION) {
		throw new Error(`${dir}/node_modules/n8n is ${version ?? 'missing'}, expected ${N8N_VERSION}`);
	}
	const sqlite = path.join(dir, 'node_modules', 'sqlite3');
	if (
		fs.existsSync(sqlite) &&
		!fs.existsSync(path.join(sqlite, 'build', 'Release', 'node_sqlite3.node'))
	) {
		throw new Error(
			`${sqlite} has no native binding: its install script did not run (npm ignore-scripts?)`,
		);
	}
}

function writeMarker(dir, source, durationMs) {
	const file = path.join(dir, MARKER_FILE);
	const body = {
		n8nVersion: N8N_VERSION,
		source,
		completedAt: new Date().toISOString(),
		durationMs,
		node: process.version,
	};
	fs.writeFileSync(`${file}.tmp`, `${JSON.stringify(body, null, 2)}\n`);
	fs.renameSync(`${file}.tmp`, file);
}

/** Lock = a directory created atomically next to the cache folder, with its owner inside. */
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
			return {
				release() {
					fs.rmSync(lockDir, { recursive: true, force: true });
				},
			};
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

function pidIsAlive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return error.code === 'EPERM';
	}
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

function lastActivity(dir, state) {
	let latest = state.mtimeMs;
	try {
		latest = Math.max(latest, fs.statSync(path.join(dir, 'node_modules')).mtimeMs);
	} catch {
		// no node_modules yet
	}
	return latest;
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

/**
 * Deals with an install that this host did not run under its lock: waits while it is running,
 * adopts it when it succeeded. Returns true when the cache is now complete.
 */
async function adoptExistingInstall(dir, log) {
	let state = readInstallLog(dir);
	if (!state) return false;
	if (state.exitCode === undefined) {
		log(
			`an install into ${dir} is already running (${INSTALL_LOG} has no "exit" line yet); ` +
				'waiting for it instead of starting a second one',
		);
		const started = Date.now();
		let lastNote = Date.now();
		for (;;) {
			await sleep(3_000);
			state = readInstallLog(dir);
			if (!state) return false;
			if (state.exitCode !== undefined) break;
			if (state.owner && state.owner.host === os.hostname() && !pidIsAlive(state.owner.pid)) {
				log(`the install by pid ${state.owner.pid} died without finishing; installing again`);
				return false;
			}
			if (Date.now() - lastActivity(dir, state) > STALLED_AFTER_MS) {
				log(
					`the install into ${dir} changed nothing for ${STALLED_AFTER_MS / 60_000} min; installing again`,
				);
				return false;
			}
			if (Date.now() - lastNote >= PROGRESS_EVERY_MS) {
				log(
					`still waiting for the running install: ${elapsed(started)}, ${countPackages(dir)} packages so far`,
				);
				lastNote = Date.now();
			}
		}
	}
	if (state.exitCode !== 0) {
		log(`the previous install into ${dir} ended with "exit ${state.exitCode}"; installing again`);
		return false;
	}
	try {
		verifyInstall(dir);
	} catch (error) {
		log(
			`the previous install into ${dir} is not usable (${error.message}); reinstalling from scratch`,
		);
		fs.rmSync(path.join(dir, 'node_modules'), { recursive: true, force: true });
		return false;
	}
	writeMarker(dir, 'adopted', undefined);
	log(`adopted the existing n8n ${N8N_VERSION} install in ${dir}`);
	return true;
}

/** npm must not inherit `npm run`'s config (the project's ignore-scripts would skip sqlite3's build). */
function installEnv() {
	const keep =
		/^npm_config_(registry|cache|userconfig|globalconfig|proxy|https_proxy|noproxy|cafile|strict_ssl)$/i;
	const env = {};
	for (const [key, value] of Object.entries(process.env)) {
		if (/^npm_/i.test(key) && !keep.test(key)) continue;
		env[key] = value;
	}
	return env;
}

async function runInstall(dir, log) {
	fs.mkdirSync(dir, { recursive: true });
	fs.rmSync(path.join(dir, MARKER_FILE), { force: true });
	fs.writeFileSync(
		path.join(dir, 'package.json'),
		`${JSON.stringify(CACHE_PACKAGE_JSON, null, 2)}\n`,
	);
	const logFile = path.join(dir, INSTALL_LOG);
	fs.writeFileSync(
		logFile,
		`# n8n-host install pid=${process.pid} host=${os.hostname()} started=${new Date().toISOString()}\n`,
	);
	const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
	const args = ['install', '--no-audit', '--no-fund'];
	log(
		`installing n8n ${N8N_VERSION} into ${dir} (npm ${args.join(' ')}; usually 2-8 min, ~2.3 GB; log: ${logFile})`,
	);
	const started = Date.now();
	const fd = fs.openSync(logFile, 'a');
	let child;
	try {
		child = spawn(npm, args, { cwd: dir, env: installEnv(), stdio: ['ignore', fd, fd] });
	} finally {
		fs.closeSync(fd);
	}
	const progress = setInterval(() => {
		const line = readInstallLog(dir)?.lastLine ?? '';
		const news = line && !line.startsWith('npm warn') ? `; npm: ${line.slice(0, 120)}` : '';
		log(
			`installing n8n ${N8N_VERSION}: ${elapsed(started)}, ${countPackages(dir)} packages in node_modules${news}`,
		);
	}, PROGRESS_EVERY_MS);
	let code;
	try {
		code = await new Promise((resolve, reject) => {
			child.once('error', reject);
			child.once('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 128 : 1)));
		});
	} finally {
		clearInterval(progress);
	}
	fs.appendFileSync(logFile, `exit ${code}\n`);
	if (code !== 0) {
		throw new Error(
			`npm install of n8n ${N8N_VERSION} failed with exit ${code}; see ${logFile}:\n${tail(logFile, 30)}`,
		);
	}
	verifyInstall(dir);
	writeMarker(dir, 'n8n-host', Date.now() - started);
	log(`n8n ${N8N_VERSION} installed in ${elapsed(started)}`);
}

// ---------------------------------------------------------------------------------------------
// 2. User folders and the package
// ---------------------------------------------------------------------------------------------

/**
 * Creates an empty n8n user folder under os.tmpdir().
 * @param {string} [prefix]
 * @returns {string}
 */
export function createUserFolder(prefix = 'n8n-company-payments-') {
	return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/**
 * The paths `npm pack` would put into the package's tarball (package.json, README, license,
 * and the `files` of package.json), read from `npm pack --dry-run --json`.
 * @param {string} packageRoot
 * @returns {string[]}
 */
export function packedFiles(packageRoot) {
	const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
		cwd: packageRoot,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'ignore'],
	});
	const [report] = JSON.parse(out);
	return report.files.map((file) => file.path);
}

/**
 * Copies the built package, exactly the files `npm pack` would publish, to
 * `<userFolder>/.n8n/nodes/node_modules/<name>/`, where n8n 2.8.4 loads every `n8n-nodes-*`
 * package at start (community-packages module: `loadDir()` is `<nodesDownloadDir>/node_modules`,
 * loaded lazily from `dist/known/*.json` when present, else from the package.json `n8n` section).
 * Also writes `<userFolder>/.n8n/nodes/package.json` the way n8n would create it. Call it before
 * {@link startN8n}; a running n8n does not see the copy.
 *
 * @param {string} userFolder
 * @param {string} [packageRoot] defaults to this repository
 * @returns {{ dir: string, name: string, version: string, files: string[] }}
 */
export function installPackage(userFolder, packageRoot = PACKAGE_ROOT) {
	const pkgFile = path.join(packageRoot, 'package.json');
	const pkg = JSON.parse(fs.readFileSync(pkgFile, 'utf8'));
	if (!/^(@[^/]+\/)?n8n-nodes-/.test(pkg.name)) {
		throw new Error(`${pkgFile}: n8n only loads packages named n8n-nodes-* (got "${pkg.name}")`);
	}
	const dist = path.join(packageRoot, 'dist');
	const declared = [...(pkg.n8n?.nodes ?? []), ...(pkg.n8n?.credentials ?? [])];
	const missing = declared.filter((file) => !fs.existsSync(path.join(packageRoot, file)));
	if (!fs.existsSync(dist) || missing.length > 0) {
		throw new Error(
			`${packageRoot} is not built (${fs.existsSync(dist) ? `missing ${missing.join(', ')}` : 'no dist/'}): ` +
				`run "npm run build" in ${packageRoot} first`,
		);
	}
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	const dir = path.join(nodesDir, 'node_modules', pkg.name);
	fs.rmSync(dir, { recursive: true, force: true });
	fs.mkdirSync(dir, { recursive: true });
	// Exactly the files `npm pack` would publish, so the tests load what users install.
	for (const file of packedFiles(packageRoot)) {
		fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
		fs.copyFileSync(path.join(packageRoot, file), path.join(dir, file));
	}
	const nodesPackageJson = path.join(nodesDir, 'package.json');
	if (!fs.existsSync(nodesPackageJson)) {
		fs.writeFileSync(
			nodesPackageJson,
			`${JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }, null, 2)}\n`,
		);
	}
	return { dir, name: pkg.name, version: pkg.version, files: declared };
}

// ---------------------------------------------------------------------------------------------
// 3. Environment, ports, processes
// ---------------------------------------------------------------------------------------------

/**
 * A TCP port that was free on 127.0.0.1 a moment ago.
 * @param {number[]} [exclude]
 * @returns {Promise<number>}
 */
export async function freePort(exclude = []) {
	for (;;) {
		const port = await new Promise((resolve, reject) => {
			const server = createServer();
			server.unref();
			server.once('error', reject);
			server.listen(0, '127.0.0.1', () => {
				const { port: chosen } = server.address();
				server.close(() => resolve(chosen));
			});
		});
		if (!exclude.includes(port)) return port;
	}
}

const INHERITED_N8N_SETTINGS =
	/^(N8N_|DB_|QUEUE_|EXECUTIONS_|WEBHOOK_URL$|GENERIC_TIMEZONE$|NODES_(INCLUDE|EXCLUDE)$|NODE_FUNCTION_ALLOW_)/;

/**
 * The environment n8n and its CLI run with. Inherited N8N_*, DB_*, EXECUTIONS_* … variables are
 * dropped so a developer's own n8n settings never leak in; pass overrides through `extra`.
 */
function n8nEnv({ userFolder, port, brokerPort, logLevel = 'info', extra = {} }) {
	const env = {};
	for (const [key, value] of Object.entries(process.env)) {
		if (INHERITED_N8N_SETTINGS.test(key) || /^npm_/i.test(key)) continue;
		env[key] = value;
	}
	const base = `http://127.0.0.1:${port}/`;
	Object.assign(env, {
		N8N_USER_FOLDER: userFolder,
		N8N_PORT: String(port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		WEBHOOK_URL: base,
		N8N_EDITOR_BASE_URL: base,
		N8N_ENCRYPTION_KEY: ENCRYPTION_KEY,
		N8N_SECURE_COOKIE: 'false',
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		DB_TYPE: 'sqlite',
		DB_SQLITE_DATABASE: path.join(userFolder, '.n8n', 'database.sqlite'),
		N8N_LOG_LEVEL: logLevel,
		N8N_LOG_OUTPUT: 'console',
		GENERIC_TIMEZONE: 'UTC',
		N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '10',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true',
		N8N_PUBLIC_API_DISABLED: 'false',
		N8N_PUBLIC_API_SWAGGERUI_DISABLED: 'true',
		// nothing may reach the internet
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_WHATS_NEW_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_DYNAMIC_BANNERS_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_LICENSE_AUTO_RENEW_ENABLED: 'false',
		N8N_VERIFIED_PACKAGES_ENABLED: 'false', // no fetch of the vetted-nodes list from api.n8n.io
		N8N_REINSTALL_MISSING_PACKAGES: 'false', // never npm-install community packages
		N8N_AI_ENABLED: 'false',
	});
	return Object.assign(env, extra);
}

/** Children started by this module; killed if the test process exits without stopping them. */
const liveChildren = new Set();
let exitHooksInstalled = false;

function killGroup(pid, signal) {
	try {
		process.kill(-pid, signal); // detached child: its process group (n8n + its task runner)
	} catch {
		// group gone
	}
	try {
		process.kill(pid, signal);
	} catch {
		// process gone
	}
}

function track(child) {
	liveChildren.add(child);
	child.once('exit', () => liveChildren.delete(child));
	if (exitHooksInstalled) return;
	exitHooksInstalled = true;
	process.once('exit', () => {
		for (const c of liveChildren) killGroup(c.pid, 'SIGKILL');
	});
	for (const signal of ['SIGINT', 'SIGTERM']) {
		process.once(signal, () => {
			for (const c of liveChildren) killGroup(c.pid, 'SIGKILL');
			process.kill(process.pid, signal);
		});
	}
}

function n8nBin(dir) {
	return path.join(dir, 'node_modules', 'n8n', 'bin', 'n8n');
}

/** Appends to `file` and returns the byte offset where this run's output starts. */
function openLog(file, header) {
	fs.mkdirSync(path.dirname(file), { recursive: true });
	fs.appendFileSync(file, `\n===== ${header} (${new Date().toISOString()}) =====\n`);
	return fs.statSync(file).size;
}

function readFrom(file, offset) {
	try {
		const fd = fs.openSync(file, 'r');
		try {
			const size = fs.fstatSync(fd).size;
			const buf = Buffer.alloc(Math.max(0, size - offset));
			fs.readSync(fd, buf, 0, buf.length, offset);
			return buf.toString('utf8');
		} finally {
			fs.closeSync(fd);
		}
	} catch {
		return '';
	}
}

function tail(fileOrText, lines, isText = false) {
	const text = isText ? fileOrText : readFrom(fileOrText, 0);
	return text.split('\n').slice(-lines).join('\n');
}

function elapsed(since) {
	const s = Math.round((Date.now() - since) / 1000);
	return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

// ---------------------------------------------------------------------------------------------
// 4. CLI helpers (run while n8n is stopped, against the same user folder)
// ---------------------------------------------------------------------------------------------

/**
 * Runs `n8n <args>` with the host's environment for `userFolder` (own free task-broker port,
 * output appended to `<userFolder>/n8n-cli.log`). Throws with the output on a non-zero exit.
 *
 * @param {string} userFolder
 * @param {string[]} args e.g. ['list:workflow']
 * @param {{ env?: Record<string,string>, timeoutMs?: number }} [options]
 * @returns {Promise<string>} the command's output
 */
export async function runN8nCli(userFolder, args, { env = {}, timeoutMs = 180_000 } = {}) {
	const { dir } = await ensureN8n();
	const port = await freePort();
	const brokerPort = await freePort([port]);
	const logFile = path.join(userFolder, 'n8n-cli.log');
	const offset = openLog(logFile, `n8n ${args.join(' ')}`);
	const fd = fs.openSync(logFile, 'a');
	let child;
	try {
		child = spawn(process.execPath, [n8nBin(dir), ...args], {
			cwd: userFolder, // n8n loads a .env from its working directory
			env: n8nEnv({ userFolder, port, brokerPort, extra: env }),
			stdio: ['ignore', fd, fd],
			detached: true,
		});
	} finally {
		fs.closeSync(fd);
	}
	track(child);
	const timer = setTimeout(() => killGroup(child.pid, 'SIGKILL'), timeoutMs);
	const { code, signal } = await new Promise((resolve, reject) => {
		child.once('error', reject);
		child.once('exit', (exitCode, exitSignal) => resolve({ code: exitCode, signal: exitSignal }));
	}).finally(() => clearTimeout(timer));
	killGroup(child.pid, 'SIGKILL'); // anything the command left behind (a task runner)
	const output = readFrom(logFile, offset);
	if (code !== 0) {
		throw new Error(
			`n8n ${args.join(' ')} failed (${signal ? `signal ${signal}` : `exit ${code}`}); ` +
				`log ${logFile}:\n${tail(output, 40, true)}`,
		);
	}
	return output;
}

/** n8n-style id: 16 characters of [0-9A-Za-z]. */
export function newN8nId() {
	const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
	return [...randomBytes(16)].map((b) => alphabet[b % alphabet.length]).join('');
}

function writeImportFile(userFolder, kind, content) {
	const file = path.join(userFolder, HOST_DIR, `import-${kind}-${process.pid}-${Date.now()}.json`);
	fs.mkdirSync(path.dirname(file), { recursive: true });
	fs.writeFileSync(file, JSON.stringify(content, null, 2), { mode: 0o600 });
	return file;
}

/**
 * `n8n import:credentials --input=<file>`. Each credential is `{ id?, name, type, data }` with
 * `data` as a plain object (the CLI encrypts it with the host's fixed key). Missing ids are
 * generated. The temporary file with the plain secrets is deleted afterwards.
 *
 * @param {string} userFolder
 * @param {Array<{ id?: string, name: string, type: string, data: object }>} credentials
 * @returns {Promise<Array<{ id: string, name: string, type: string }>>}
 */
export async function importCredentials(userFolder, credentials) {
	const list = credentials.map((credential) => ({ id: newN8nId(), ...credential }));
	const file = writeImportFile(userFolder, 'credentials', list);
	try {
		await runN8nCli(userFolder, ['import:credentials', `--input=${file}`]);
	} finally {
		fs.rmSync(file, { force: true });
	}
	return list.map(({ id, name, type }) => ({ id, name, type }));
}

/**
 * `n8n import:workflow --input=<file>`, then (if `activate`) `n8n publish:workflow --id=<id>`.
 *
 * n8n 2.8.4 always imports workflows inactive ("Deactivating workflow … Remember to activate
 * later") whatever their `active` field says, and stores the imported nodes as a new workflow
 * version. `publish:workflow` makes that version the active one; the next start activates it.
 * (`update:workflow --active=true` still exists but is deprecated and calls the same code.)
 *
 * @param {string} userFolder
 * @param {object} workflow n8n workflow JSON (`nodes`, `connections`, …); an id is generated if absent
 * @param {{ activate?: boolean }} [options] activate defaults to `workflow.active === true`
 * @returns {Promise<{ id: string, name: string, active: boolean }>}
 */
export async function importWorkflow(
	userFolder,
	workflow,
	{ activate = workflow.active === true } = {},
) {
	const copy = { ...structuredClone(workflow), id: workflow.id ?? newN8nId() };
	copy.name ??= `workflow ${copy.id}`;
	const file = writeImportFile(userFolder, 'workflow', copy);
	try {
		await runN8nCli(userFolder, ['import:workflow', `--input=${file}`]);
	} finally {
		fs.rmSync(file, { force: true });
	}
	if (activate) await publishWorkflow(userFolder, copy.id);
	return { id: copy.id, name: copy.name, active: activate };
}

/**
 * `n8n publish:workflow --id=<id>`: activates the current version of a workflow while n8n is
 * stopped (a running n8n does not notice; use the handle's `activateWorkflow` then).
 * @param {string} userFolder
 * @param {string} workflowId
 */
export async function publishWorkflow(userFolder, workflowId) {
	await runN8nCli(userFolder, ['publish:workflow', `--id=${workflowId}`]);
}

// ---------------------------------------------------------------------------------------------
// 5. Running n8n
// ---------------------------------------------------------------------------------------------

/**
 * @typedef {object} N8nHandle
 * @property {string} url           `http://127.0.0.1:<port>`
 * @property {number} port
 * @property {number} brokerPort
 * @property {number} pid
 * @property {string} userFolder
 * @property {string} logFile        `<userFolder>/n8n.log` (appended; each start has a header)
 * @property {number} startupMs      spawn → webhooks registered
 * @property {(webhookPath: string) => string} webhookUrl   production URL of a webhook path
 * @property {() => string} logText  this run's log so far
 * @property {() => string[]} activationErrors  workflows n8n failed to activate at start
 * @property {(options?: { timeoutMs?: number }) => Promise<{ code: number|null, signal: string|null }>} stop
 * @property {(overrides?: object) => Promise<N8nHandle>} restart  stop, then start on the same folder and ports
 * @property {(method: string, urlPath: string, body?: unknown) => Promise<any>} rest     `/rest/...` as the owner
 * @property {(method: string, urlPath: string, body?: unknown) => Promise<any>} api      `/api/v1/...` with an API key
 * @property {() => Promise<object[]>} listNodeTypes
 * @property {() => Promise<object[]>} listCredentialTypes
 * @property {(options: { workflowId?: string, status?: string, includeData?: boolean }) => Promise<object[]>} getExecutions
 * @property {(options: { workflowId?: string, count?: number, timeoutMs?: number }) => Promise<object[]>} waitForExecutions
 * @property {(workflowId: string) => Promise<object>} activateWorkflow
 * @property {(workflowId: string) => Promise<object>} deactivateWorkflow
 */

/**
 * Starts `node <cache>/node_modules/n8n/bin/n8n start` on 127.0.0.1 and resolves once it serves
 * requests and has registered the webhooks of all active workflows.
 *
 * Readiness: `/healthz/readiness` turns 200 as soon as the database is migrated, before the
 * active workflows are activated. n8n 2.8.4 logs "Editor is now accessible via:" right after
 * `await activeWorkflowManager.init()` (commands/start.js), so the host waits for both. That log
 * line is at level info: `logLevel` must be "info" or "debug".
 *
 * @param {{ userFolder?: string, port?: number, brokerPort?: number, env?: Record<string,string>,
 *           logLevel?: 'info'|'debug', timeoutMs?: number }} [options]
 * @returns {Promise<N8nHandle>}
 */
export async function startN8n(options = {}) {
	const { env = {}, logLevel = 'info', timeoutMs = 180_000 } = options;
	if (
		!['info', 'debug'].includes(logLevel) ||
		('N8N_LOG_LEVEL' in env && !['info', 'debug'].includes(env.N8N_LOG_LEVEL))
	) {
		throw new Error('startN8n needs N8N_LOG_LEVEL info or debug: its ready signal is an info line');
	}
	const { dir } = await ensureN8n();
	const userFolder = options.userFolder ?? createUserFolder();
	const port = options.port ?? (await freePort());
	const brokerPort = options.brokerPort ?? (await freePort([port]));
	const url = `http://127.0.0.1:${port}`;
	const logFile = path.join(userFolder, 'n8n.log');
	const offset = openLog(logFile, `n8n-host: n8n start on ${url}, task broker ${brokerPort}`);
	const started = Date.now();
	const fd = fs.openSync(logFile, 'a');
	let child;
	try {
		child = spawn(process.execPath, [n8nBin(dir), 'start'], {
			cwd: userFolder,
			env: n8nEnv({ userFolder, port, brokerPort, logLevel, extra: env }),
			stdio: ['ignore', fd, fd],
			detached: true,
		});
	} finally {
		fs.closeSync(fd);
	}
	track(child);
	let exitInfo;
	const exited = new Promise((resolve) => {
		child.once('exit', (code, signal) => {
			exitInfo = { code, signal };
			resolve(exitInfo);
		});
		child.once('error', (error) => {
			exitInfo = { code: null, signal: null, error };
			resolve(exitInfo);
		});
	});

	const logText = () => readFrom(logFile, offset);
	let stopping;
	const handle = {
		url,
		port,
		brokerPort,
		pid: child.pid,
		userFolder,
		logFile,
		startupMs: undefined,
		exited,
		webhookUrl: (webhookPath) => `${url}/webhook/${String(webhookPath).replace(/^\/+/, '')}`,
		logText,
		activationErrors: () => [...logText().matchAll(ACTIVATION_ERROR)].map((m) => m[1].trim()),
		stop({ timeoutMs: stopTimeoutMs = 20_000 } = {}) {
			stopping ??= (async () => {
				if (!exitInfo) {
					try {
						process.kill(child.pid, 'SIGTERM');
					} catch {
						// already gone
					}
					const timer = setTimeout(() => killGroup(child.pid, 'SIGKILL'), stopTimeoutMs);
					await exited;
					clearTimeout(timer);
				}
				const info = await exited;
				killGroup(child.pid, 'SIGKILL'); // the task runner, if it outlived n8n
				return info;
			})();
			return stopping;
		},
		async restart(overrides = {}) {
			await handle.stop();
			return await startN8n({ ...options, userFolder, port, brokerPort, ...overrides });
		},
	};
	attachClient(handle);

	try {
		await waitUntilReady(handle, { logText, exited: () => exitInfo, timeoutMs });
	} catch (error) {
		await handle.stop();
		throw error;
	}
	handle.startupMs = Date.now() - started;
	const failed = handle.activationErrors();
	if (failed.length > 0)
		defaultLog(`n8n could not activate: ${failed.join('; ')} (see ${logFile})`);
	return handle;
}

async function waitUntilReady(handle, { logText, exited, timeoutMs }) {
	const deadline = Date.now() + timeoutMs;
	let healthy = false;
	for (;;) {
		const exit = exited();
		if (exit) {
			throw new Error(
				`n8n exited during start (${exit.error?.message ?? `code ${exit.code}, signal ${exit.signal}`}); ` +
					`log ${handle.logFile}:\n${tail(logText(), 40, true)}`,
			);
		}
		if (!healthy) {
			try {
				const res = await fetch(`${handle.url}/healthz/readiness`, {
					signal: AbortSignal.timeout(2_000),
				});
				healthy = res.ok;
				await res.body?.cancel();
			} catch {
				// not listening yet
			}
		}
		if (healthy && logText().includes(READY_LINE)) return;
		if (Date.now() > deadline) {
			throw new Error(
				`n8n did not become ready within ${timeoutMs / 1000}s (readiness ${healthy ? 'ok' : 'not ok'}); ` +
					`log ${handle.logFile}:\n${tail(logText(), 40, true)}`,
			);
		}
		await sleep(200);
	}
}

// ---------------------------------------------------------------------------------------------
// 6. Talking to a running n8n: owner session, API key, node types, executions
// ---------------------------------------------------------------------------------------------

async function readBody(res) {
	const text = await res.text();
	try {
		return text ? JSON.parse(text) : undefined;
	} catch {
		return text;
	}
}

async function request(url, { method = 'GET', headers = {}, body } = {}) {
	const res = await fetch(url, {
		method,
		headers: {
			accept: 'application/json',
			...(body === undefined ? {} : { 'content-type': 'application/json' }),
			...headers,
		},
		body: body === undefined ? undefined : JSON.stringify(body),
		signal: AbortSignal.timeout(30_000),
	});
	return { res, body: await readBody(res) };
}

function fail(what, res, body) {
	return new Error(
		`${what} answered ${res.status}: ${typeof body === 'string' ? body : JSON.stringify(body)}`,
	);
}

/**
 * Adds the REST / public-API client methods to a handle.
 *
 * Owner: `GET /rest/settings` tells whether `userManagement.showSetupOnFirstLoad`; if so
 * `POST /rest/owner/setup {email, firstName, lastName, password}`, else
 * `POST /rest/login {emailOrLdapLoginId, password}`; both set the `n8n-auth` cookie.
 * API key: `GET /rest/api-keys/scopes` (all scopes of the owner role), then
 * `POST /rest/api-keys {label, scopes, expiresAt: null}` → `rawApiKey`, kept in
 * `<userFolder>/.n8n-host/api-key.json` so restarts reuse it.
 */
function attachClient(handle) {
	let cookie;
	let apiKey;

	async function session() {
		if (cookie) return cookie;
		const settings = await request(`${handle.url}/rest/settings`);
		const needsSetup = settings.body?.data?.userManagement?.showSetupOnFirstLoad === true;
		const { res, body } = needsSetup
			? await request(`${handle.url}/rest/owner/setup`, { method: 'POST', body: OWNER })
			: await request(`${handle.url}/rest/login`, {
					method: 'POST',
					body: { emailOrLdapLoginId: OWNER.email, password: OWNER.password },
				});
		if (!res.ok) throw fail(needsSetup ? 'POST /rest/owner/setup' : 'POST /rest/login', res, body);
		cookie = res.headers
			.getSetCookie()
			.map((c) => c.split(';')[0])
			.join('; ');
		if (!cookie) throw new Error('n8n set no auth cookie');
		return cookie;
	}

	handle.rest = async (method, urlPath, body) => {
		const headers = { cookie: await session() };
		const { res, body: answer } = await request(`${handle.url}/rest${urlPath}`, {
			method,
			headers,
			body,
		});
		if (!res.ok) throw fail(`${method} /rest${urlPath}`, res, answer);
		return answer && typeof answer === 'object' && 'data' in answer ? answer.data : answer;
	};

	async function key() {
		if (apiKey) return apiKey;
		const file = path.join(handle.userFolder, HOST_DIR, 'api-key.json');
		try {
			const saved = JSON.parse(fs.readFileSync(file, 'utf8')).apiKey;
			const { res } = await request(`${handle.url}/api/v1/workflows?limit=1`, {
				headers: { 'X-N8N-API-KEY': saved },
			});
			if (res.ok) return (apiKey = saved);
		} catch {
			// none saved yet
		}
		const scopes = await handle.rest('GET', '/api-keys/scopes');
		const created = await handle.rest('POST', '/api-keys', {
			label: `n8n-host ${new Date().toISOString()}`,
			scopes,
			expiresAt: null,
		});
		apiKey = created.rawApiKey;
		fs.mkdirSync(path.dirname(file), { recursive: true });
		fs.writeFileSync(file, JSON.stringify({ apiKey }), { mode: 0o600 });
		return apiKey;
	}

	handle.api = async (method, urlPath, body) => {
		const headers = { 'X-N8N-API-KEY': await key() };
		const { res, body: answer } = await request(`${handle.url}/api/v1${urlPath}`, {
			method,
			headers,
			body,
		});
		if (!res.ok) throw fail(`${method} /api/v1${urlPath}`, res, answer);
		return answer;
	};

	async function typesFile(name) {
		const { res, body } = await request(`${handle.url}/types/${name}`, {
			headers: { cookie: await session() },
		});
		if (!res.ok) throw fail(`GET /types/${name}`, res, body);
		return body;
	}
	handle.listNodeTypes = () => typesFile('nodes.json');
	handle.listCredentialTypes = () => typesFile('credentials.json');

	handle.getExecutions = async ({ workflowId, status, includeData = true } = {}) => {
		const executions = [];
		let cursor;
		do {
			const query = new URLSearchParams({ includeData: String(includeData), limit: '250' });
			if (workflowId) query.set('workflowId', workflowId);
			if (status) query.set('status', status);
			if (cursor) query.set('cursor', cursor);
			const page = await handle.api('GET', `/executions?${query}`);
			executions.push(...page.data);
			cursor = page.nextCursor;
		} while (cursor);
		return executions;
	};

	handle.waitForExecutions = async ({
		workflowId,
		count = 1,
		timeoutMs = 30_000,
		includeData = true,
	} = {}) => {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const executions = await handle.getExecutions({ workflowId, includeData });
			const finished = executions.filter((e) => e.finished || e.stoppedAt);
			if (finished.length >= count) return finished;
			if (Date.now() > deadline) {
				throw new Error(
					`expected ${count} finished execution(s) of ${workflowId ?? 'any workflow'}, found ${finished.length}`,
				);
			}
			await sleep(250);
		}
	};

	handle.activateWorkflow = (workflowId) => handle.api('POST', `/workflows/${workflowId}/activate`);
	handle.deactivateWorkflow = (workflowId) =>
		handle.api('POST', `/workflows/${workflowId}/deactivate`);
}

/** @param {N8nHandle} n8n */
export const listNodeTypes = (n8n) => n8n.listNodeTypes();
/** @param {N8nHandle} n8n */
export const listCredentialTypes = (n8n) => n8n.listCredentialTypes();
/**
 * Executions with their data, newest first, via `GET /api/v1/executions?includeData=true&workflowId=…`
 * (running executions are not listed).
 * @param {N8nHandle} n8n
 * @param {{ workflowId?: string, status?: string, includeData?: boolean }} [options]
 */
export const getExecutions = (n8n, options) => n8n.getExecutions(options);
/** @param {N8nHandle} n8n */
export const waitForExecutions = (n8n, options) => n8n.waitForExecutions(options);

/** A random v4 UUID (webhookId of a Webhook node, node ids). */
export const uuid = () => randomUUID();
