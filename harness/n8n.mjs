/**
 * Real-n8n host: installs a pinned n8n once into a cache folder, loads this package into it and
 * runs it on loopback for the end-to-end tests, the benchmarks and the demo.
 *
 * The n8n version is a parameter: COMPANY_PAYMENTS_N8N_VERSION (default 2.8.4; tested: 2.8.4 on
 * the machine's Node 20, 2.41.1 on Node 24.21.0, 1.123.81 on Node 22.23.3). Each version has its
 * own cache folder and runs on its own Node, installed from the npm registry (lib/install.mjs);
 * the CLI differences between versions live in lib/versions.mjs.
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
 *   const n8n = await startN8n({ userFolder });          // resolves once webhooks answer
 *   await fetch(n8n.webhookUrl('my-path'));
 *   const executions = await n8n.waitForExecutions({ workflowId: id, count: 1 });
 *   await n8n.stop();
 *
 * Modules (harness/lib/): versions.mjs (which n8n, which Node, which CLI: pure), install.mjs
 * (the caches), env.mjs (each process's environment: pure), processes.mjs (spawn, stop, kill on
 * exit), readiness.mjs (when a main / webhook / worker process is ready). A queue-mode host
 * builds on {@link ensureN8n}, {@link buildN8nEnv} and {@link spawnN8n}.
 *
 * Everything binds to 127.0.0.1.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

import { PACKAGE_NAME } from './workflows.mjs';
import { buildN8nEnv } from './lib/env.mjs';
import { ensureN8nInstall, n8nCacheDir as cacheDirOf } from './lib/install.mjs';
import { spawnLogged, stopProcess } from './lib/processes.mjs';
import {
	ACTIVATION_ERROR,
	isHealthy,
	READY_LINE,
	waitForActiveWebhooks,
	waitForWorkflowWebhooks,
} from './lib/readiness.mjs';
import { defaultLog, openLog, readFrom, tail } from './lib/util.mjs';
import {
	activateCliArgs,
	cliArgsFor,
	nodeVersionFor,
	selectedN8nVersion,
} from './lib/versions.mjs';

export { buildN8nEnv, ENCRYPTION_KEY } from './lib/env.mjs';
export { cacheBase, ensureNode, nodeCacheDir, systemNode } from './lib/install.mjs';
export { isHealthy, webhookIsRegistered, webhookProbePaths } from './lib/readiness.mjs';
export {
	activateCliArgs,
	cliArgsFor,
	compareVersions,
	DEFAULT_N8N_VERSION,
	hasPublishCommand,
	nodeVersionFor,
	requiredNodeMajor,
	selectedN8nVersion,
	SUPPORTED_VERSIONS,
} from './lib/versions.mjs';

/** The n8n this process runs: COMPANY_PAYMENTS_N8N_VERSION, else 2.8.4. */
export const N8N_VERSION = selectedN8nVersion(process.env);
/** The Node it runs on: an exact version, or "system" (the Node running this process). */
export const N8N_NODE_VERSION = nodeVersionFor(N8N_VERSION, {
	env: process.env,
	systemNodeVersion: process.version,
});
export { PACKAGE_NAME };
/** Root of this repository (the package n8n loads by default). */
export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The owner account the host creates (on first use) in every user folder. */
export const OWNER = Object.freeze({
	email: 'owner@company-payments.test',
	password: 'CompanyPayments1',
	firstName: 'E2E',
	lastName: 'Owner',
});

const HOST_DIR = '.n8n-host'; // inside a user folder: the API key and temporary import files

// ---------------------------------------------------------------------------------------------
// 1. The n8n install (cache): lib/install.mjs
// ---------------------------------------------------------------------------------------------

/**
 * Folder that holds an n8n install: `$COMPANY_PAYMENTS_N8N_CACHE` for the selected version, else
 * `${XDG_CACHE_HOME or ~/.cache}/n8n-nodes-company-payments/n8n-<version>`.
 * @param {string} [version] defaults to the selected version ({@link N8N_VERSION})
 * @returns {string}
 */
export function n8nCacheDir(version) {
	return cacheDirOf(version);
}

/**
 * Makes sure n8n (the selected version, or `version`) and the Node it runs on are installed, and
 * returns where. Warm: a marker check. Cold: npm install (minutes, 2-3 GB) with a progress line
 * every 30 s; from 2.35 on with --ignore-scripts and a rebuild of sqlite3 and isolated-vm. An
 * install found in the folder (started by hand or by a pre-warm script) is waited for, verified
 * and adopted instead of repeated. Concurrent callers are serialised by a lock next to the folder.
 *
 * @param {{ version?: string, log?: (line: string) => void, timeoutMs?: number }} [options]
 * @returns {Promise<{ dir: string, bin: string, version: string, nodeBin: string,
 *                     node: { version: string, bin: string, binDir: string, nodedir?: string } }>}
 */
export async function ensureN8n({
	version = N8N_VERSION,
	log = defaultLog,
	timeoutMs = 60 * 60_000,
} = {}) {
	return await ensureN8nInstall({ version, log, timeoutMs });
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
// 3. Ports and processes
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

/**
 * @typedef {object} N8nProcess
 * @property {number} pid
 * @property {string[]} args
 * @property {string} logFile
 * @property {Promise<{ code: number|null, signal: string|null, error?: Error }>} exited
 * @property {() => ({ code: number|null, signal: string|null, error?: Error } | undefined)} exitInfo
 * @property {() => string} logText  this process's output so far
 * @property {(options?: { timeoutMs?: number }) => Promise<{ code: number|null, signal: string|null }>} stop
 */

/**
 * Starts `n8n <args>` (e.g. ['start'], ['worker'], ['webhook'], ['import:workflow', …]) of the
 * installed version on its Node, in its own process group, with its working directory set to
 * the user folder (n8n loads a `.env` from there) and its output appended to `logFile`. `env` is
 * the whole environment (build it with {@link buildN8nEnv}). The process is killed if this
 * process exits without stopping it.
 *
 * @param {string[]} args
 * @param {{ userFolder: string, env: Record<string, string>, logFile?: string, header?: string,
 *           version?: string }} options
 * @returns {Promise<N8nProcess>}
 */
export async function spawnN8n(args, { userFolder, env, logFile, header, version = N8N_VERSION }) {
	const install = await ensureN8n({ version });
	const file = logFile ?? path.join(userFolder, 'n8n.log');
	const offset = openLog(file, header ?? `n8n ${version} ${args.join(' ')}`);
	const proc = spawnLogged(install.nodeBin, [install.bin, ...args], {
		cwd: userFolder,
		env,
		logFile: file,
	});
	let stopping;
	return {
		pid: proc.pid,
		args,
		logFile: file,
		exited: proc.exited,
		exitInfo: proc.exitInfo,
		logText: () => readFrom(file, offset),
		stop({ timeoutMs = 20_000 } = {}) {
			stopping ??= stopProcess(proc, timeoutMs);
			return stopping;
		},
	};
}

// ---------------------------------------------------------------------------------------------
// 4. CLI helpers (run while n8n is stopped, against the same user folder)
// ---------------------------------------------------------------------------------------------

/**
 * Runs `n8n <args>` with the host's environment for `userFolder` (own free task-broker port,
 * output appended to `<userFolder>/n8n-cli.log`). Throws with the output on a non-zero exit.
 * Arguments written for 2.x are adapted to the running version ({@link cliArgsFor}: on 1.x,
 * `publish:workflow --id=X` runs as `update:workflow --id=X --active=true`).
 *
 * @param {string} userFolder
 * @param {string[]} args e.g. ['list:workflow']
 * @param {{ env?: Record<string,string>, timeoutMs?: number, version?: string }} [options]
 * @returns {Promise<string>} the command's output
 */
export async function runN8nCli(
	userFolder,
	args,
	{ env = {}, timeoutMs = 180_000, version = N8N_VERSION } = {},
) {
	const { node } = await ensureN8n({ version });
	const finalArgs = cliArgsFor(version, args);
	const port = await freePort();
	const brokerPort = await freePort([port]);
	const proc = await spawnN8n(finalArgs, {
		userFolder,
		version,
		logFile: path.join(userFolder, 'n8n-cli.log'),
		env: buildN8nEnv({ userFolder, port, brokerPort, node, extra: env }),
	});
	const timer = setTimeout(() => proc.stop({ timeoutMs: 0 }), timeoutMs);
	const { code, signal, error } = await proc.exited.finally(() => clearTimeout(timer));
	await proc.stop(); // anything the command left behind (a task runner)
	const output = proc.logText();
	if (error) throw error;
	if (code !== 0) {
		throw new Error(
			`n8n ${finalArgs.join(' ')} failed (${signal ? `signal ${signal}` : `exit ${code}`}); ` +
				`log ${proc.logFile}:\n${tail(output, 40, true)}`,
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
 * @param {{ env?: Record<string,string>, version?: string }} [options] extra environment (e.g.
 *   queue mode's database); the n8n version whose CLI imports (default: the selected one)
 * @returns {Promise<Array<{ id: string, name: string, type: string }>>}
 */
export async function importCredentials(userFolder, credentials, { env = {}, version } = {}) {
	const list = credentials.map((credential) => ({ id: newN8nId(), ...credential }));
	const file = writeImportFile(userFolder, 'credentials', list);
	try {
		await runN8nCli(userFolder, ['import:credentials', `--input=${file}`], {
			env,
			...(version ? { version } : {}),
		});
	} finally {
		fs.rmSync(file, { force: true });
	}
	return list.map(({ id, name, type }) => ({ id, name, type }));
}

/**
 * `n8n import:workflow --input=<file>`, then (if `activate`) `n8n publish:workflow --id=<id>`
 * (2.x) or `n8n update:workflow --id=<id> --active=true` (1.x).
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
	{ activate = workflow.active === true, env = {} } = {},
) {
	const copy = { ...structuredClone(workflow), id: workflow.id ?? newN8nId() };
	copy.name ??= `workflow ${copy.id}`;
	const file = writeImportFile(userFolder, 'workflow', copy);
	try {
		await runN8nCli(userFolder, ['import:workflow', `--input=${file}`], { env });
	} finally {
		fs.rmSync(file, { force: true });
	}
	if (activate) await publishWorkflow(userFolder, copy.id, { env });
	return { id: copy.id, name: copy.name, active: activate };
}

/**
 * Activates the current version of a workflow while n8n is stopped: `n8n publish:workflow
 * --id=<id>` on 2.x, `n8n update:workflow --id=<id> --active=true` on 1.x (which has no publish).
 * A running n8n does not notice; use the handle's `activateWorkflow` then.
 * @param {string} userFolder
 * @param {string} workflowId
 */
export async function publishWorkflow(userFolder, workflowId, { env = {} } = {}) {
	await runN8nCli(userFolder, activateCliArgs(N8N_VERSION, workflowId), { env });
}

/**
 * Several workflows in one `n8n import:workflow` (one CLI start instead of one each), then the
 * ones marked `active: true` or `activate: true` published. Ids are generated where absent. A
 * workflow's `webhookPath` (where a suite calls it) is the suite's own and is not imported.
 * @param {string} userFolder
 * @param {object[]} workflows
 * @param {{ env?: Record<string,string> }} [options]
 * @returns {Promise<string[]>} the workflow ids, in order
 */
export async function importWorkflows(userFolder, workflows, { env = {} } = {}) {
	const list = workflows.map(({ webhookPath: _path, ...w }) => ({
		...structuredClone(w),
		id: w.id ?? newN8nId(),
	}));
	const file = writeImportFile(userFolder, 'workflows', list);
	try {
		await runN8nCli(userFolder, ['import:workflow', `--input=${file}`], { env });
	} finally {
		fs.rmSync(file, { force: true });
	}
	for (const workflow of list) {
		if (workflow.active === true || workflow.activate === true) {
			await publishWorkflow(userFolder, workflow.id, { env });
		}
	}
	return list.map((w) => w.id);
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
 * @property {number} startupMs      spawn → webhooks answer
 * @property {string} n8nVersion
 * @property {string} nodeVersion    the Node n8n runs on
 * @property {string[]} probedWebhooks  webhook paths the readiness check saw answer
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
 * Starts `<node> <cache>/node_modules/n8n/bin/n8n start` on 127.0.0.1 (the version's own Node)
 * and resolves once it serves requests and the webhooks of all active workflows answer.
 *
 * Readiness: `/healthz/readiness` turns 200 as soon as the database is migrated, before the
 * active workflows are activated; "Editor is now accessible via:" (an info line, so `logLevel`
 * must be "info" or "debug") follows `activeWorkflowManager.init()`, but n8n 2.41 activates
 * workflows in the background after it. So the host then lists the active workflows and probes
 * each webhook it can compute (Webhook nodes, this package's trigger) until it answers
 * (lib/readiness.mjs); the probe starts no execution.
 *
 * @param {{ userFolder?: string, port?: number, brokerPort?: number, env?: Record<string,string>,
 *           logLevel?: 'info'|'debug', timeoutMs?: number, version?: string }} [options]
 * @returns {Promise<N8nHandle>}
 */
export async function startN8n(options = {}) {
	const { env = {}, logLevel = 'info', timeoutMs = 180_000, version = N8N_VERSION } = options;
	if (
		!['info', 'debug'].includes(logLevel) ||
		('N8N_LOG_LEVEL' in env && !['info', 'debug'].includes(env.N8N_LOG_LEVEL))
	) {
		throw new Error('startN8n needs N8N_LOG_LEVEL info or debug: its ready signal is an info line');
	}
	const { node } = await ensureN8n({ version });
	const userFolder = options.userFolder ?? createUserFolder();
	const port = options.port ?? (await freePort());
	const brokerPort = options.brokerPort ?? (await freePort([port]));
	const url = `http://127.0.0.1:${port}`;
	const started = Date.now();
	const proc = await spawnN8n(['start'], {
		userFolder,
		version,
		header: `n8n-host: n8n ${version} (Node ${node.version}) start on ${url}, task broker ${brokerPort}`,
		env: buildN8nEnv({ userFolder, port, brokerPort, logLevel, node, extra: env }),
	});
	const handle = {
		url,
		port,
		brokerPort,
		pid: proc.pid,
		userFolder,
		logFile: proc.logFile,
		startupMs: undefined,
		n8nVersion: version,
		nodeVersion: node.version,
		exited: proc.exited,
		webhookUrl: (webhookPath) => `${url}/webhook/${String(webhookPath).replace(/^\/+/, '')}`,
		logText: proc.logText,
		activationErrors: () => [...proc.logText().matchAll(ACTIVATION_ERROR)].map((m) => m[1].trim()),
		stop: (stopOptions) => proc.stop(stopOptions),
		async restart(overrides = {}) {
			await handle.stop();
			return await startN8n({ ...options, userFolder, port, brokerPort, ...overrides });
		},
	};
	attachClient(handle);

	try {
		await waitUntilReady(handle, { exited: proc.exitInfo, timeoutMs });
	} catch (error) {
		await handle.stop();
		throw error;
	}
	handle.startupMs = Date.now() - started;
	const failed = handle.activationErrors();
	if (failed.length > 0)
		defaultLog(`n8n could not activate: ${failed.join('; ')} (see ${handle.logFile})`);
	return handle;
}

const describeExit = (exit) => exit.error?.message ?? `code ${exit.code}, signal ${exit.signal}`;

/** Main-process readiness (lib/readiness.mjs): healthy, the ready line, every webhook answers. */
async function waitUntilReady(handle, { exited, timeoutMs }) {
	const deadline = Date.now() + timeoutMs;
	let healthy = false;
	const failure = (what) =>
		new Error(`${what}; log ${handle.logFile}:\n${tail(handle.logText(), 40, true)}`);
	for (;;) {
		const exit = exited();
		if (exit) throw failure(`n8n exited during start (${describeExit(exit)})`);
		if (!healthy) healthy = await isHealthy(handle.url);
		if (healthy && handle.logText().includes(READY_LINE)) break;
		if (Date.now() > deadline) {
			throw failure(
				`n8n did not become ready within ${timeoutMs / 1000}s (readiness ${healthy ? 'ok' : 'not ok'})`,
			);
		}
		await sleep(200);
	}
	try {
		handle.probedWebhooks = await waitForActiveWebhooks(handle, {
			deadline,
			exited,
			describe: describeExit,
		});
	} catch (error) {
		throw failure(error.message);
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

	// n8n 2.41 writes the types files lazily after start, and every n8n writes them again after a
	// community package is installed or updated: a request in that moment can fail at the
	// connection level ("fetch failed") or read a file still being written (not a JSON array).
	// Both are retried; HTTP errors are not.
	async function typesFile(name) {
		for (let attempt = 1; ; attempt++) {
			try {
				const { res, body } = await request(`${handle.url}/types/${name}`, {
					headers: { cookie: await session() },
				});
				if (!res.ok) throw fail(`GET /types/${name}`, res, body);
				if (!Array.isArray(body)) {
					throw new TypeError(`GET /types/${name} answered no JSON array (being written?)`);
				}
				return body;
			} catch (error) {
				if (!(error instanceof TypeError) || attempt >= 5) throw error;
				await sleep(500 * attempt);
			}
		}
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

	// n8n 2.41 answers the activation before its publication service has registered the
	// webhooks (in the background, about a second later), so both wait until the workflow's
	// webhooks answer (or stop answering) the host's probe.
	handle.activateWorkflow = async (workflowId, { timeoutMs = 60_000 } = {}) => {
		const workflow = await handle.api('POST', `/workflows/${workflowId}/activate`);
		await waitForWorkflowWebhooks(handle, workflow, { registered: true, timeoutMs });
		return workflow;
	};
	handle.deactivateWorkflow = async (workflowId, { timeoutMs = 60_000 } = {}) => {
		const workflow = await handle.api('POST', `/workflows/${workflowId}/deactivate`);
		await waitForWorkflowWebhooks(handle, workflow, { registered: false, timeoutMs });
		return workflow;
	};
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
