/**
 * n8n in queue mode on one machine, for the queue-mode end-to-end tests and benchmark:
 *
 *   PostgreSQL 15 (throwaway cluster) ─┐
 *   Redis (no persistence) ────────────┤
 *   n8n main    (`n8n start`, EXECUTIONS_MODE=queue; activates workflows, serves the API)
 *   n8n worker ×2                      (run every execution, pulled from Redis)
 *   n8n webhook ×2                     (receive production webhooks, enqueue executions)
 *   proxy       (round-robin in front of the webhook processes: the load balancer; WEBHOOK_URL)
 *
 * It shares the n8n install of the single-process host (`ensureN8n()` of
 * harness/n8n.mjs, n8n 2.8.4 on Node 20). One call starts everything; `stop()` stops every
 * process by its PID and removes the one temporary folder that holds all their files.
 *
 *   const q = await startQueueDeployment({ credentials, workflows });
 *   await fetch(q.webhookUrl('path'));          // through the proxy
 *   await q.main.waitForExecutions({ workflowId, count: 1 });
 *   q.executionsByProcess();                    // which worker started which execution
 *   await q.stop();
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import {
	buildN8nEnv,
	ensureN8n,
	freePort,
	importCredentials,
	importWorkflows,
	installPackage,
	spawnN8n,
	startN8n,
} from './n8n.mjs';
import { waitForWorkflowWebhooks } from './lib/readiness.mjs';
import {
	killGroup,
	pidIsAlive,
	readFrom,
	startPostgres,
	startProxy,
	startRedis,
	waitUntil,
} from './services.mjs';

/** Log lines n8n 2.8.4 prints once each role is ready (commands/worker.js, commands/webhook.js). */
const READY_LINES = {
	worker: 'n8n worker is now ready',
	webhook: 'Webhook listener waiting for requests.',
};
/** Written by a worker for each job it takes (scaling/job-processor.js). */
const WORKER_STARTED = /Worker started execution (\d+) \(job/g;
/** Each n8n process gets its name in this variable; workflows may read it with `$env`. */
export const PROCESS_NAME_VARIABLE = 'COMPANY_PAYMENTS_QUEUE_PROCESS';

/**
 * Starts `n8n worker` or `n8n webhook` and resolves once its ready line is logged.
 * The handle's `stop()` sends SIGTERM (graceful), `kill()` SIGKILL (a crash); `restart()`
 * starts the same role again on the same folder and port.
 */
async function startRole(role, { name, userFolder, port, env, version, timeoutMs = 180_000 }) {
	const { node } = await ensureN8n(version ? { version } : {});
	const brokerPort = await freePort([port]);
	fs.mkdirSync(userFolder, { recursive: true });
	const started = Date.now();
	const proc = await spawnN8n([role], {
		userFolder,
		...(version ? { version } : {}),
		header: `queue-host: n8n ${version ?? ''} ${role} (${name})`,
		env: buildN8nEnv({
			userFolder,
			port,
			brokerPort,
			node,
			extra: { ...env, [PROCESS_NAME_VARIABLE]: name },
		}),
	});
	const logText = proc.logText;
	const logFile = proc.logFile;
	const handle = {
		name,
		role,
		pid: proc.pid,
		port,
		url: `http://127.0.0.1:${port}`,
		userFolder,
		logFile,
		logText,
		exited: proc.exited,
		startupMs: undefined,
		/** SIGTERM (graceful), SIGKILL of the process group after 20 s. */
		stop: () => proc.stop(),
		/** SIGKILL: a crash. */
		kill: async () => {
			killGroup(proc.pid, 'SIGKILL');
			await proc.exited;
			return await proc.stop();
		},
		restart: async () => {
			await handle.stop();
			return await startRole(role, { name, userFolder, port, env, version, timeoutMs });
		},
	};
	try {
		await waitUntil(() => logText().includes(READY_LINES[role]), {
			timeoutMs,
			what: `n8n ${role} ${name}`,
			exitInfo: proc.exitInfo,
			describe: () => `log ${logFile}:\n${logText().split('\n').slice(-40).join('\n')}`,
		});
	} catch (error) {
		await handle.stop();
		throw error;
	}
	handle.startupMs = Date.now() - started;
	return handle;
}

/**
 * The queue-mode settings every n8n process of the deployment gets (pure): PostgreSQL and Redis
 * on 127.0.0.1, the proxy as the public webhook address, the main process serving no production
 * webhooks (n8n's recommended queue-mode setup).
 * @param {{ postgres: { port: number, database: string, user: string }, redis: { port: number },
 *   proxyUrl: string, extra?: Record<string,string> }} options
 * @returns {Record<string,string>}
 */
export function queueEnv({ postgres, redis, proxyUrl, extra = {} }) {
	return {
		EXECUTIONS_MODE: 'queue',
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(postgres.port),
		DB_POSTGRESDB_DATABASE: postgres.database,
		DB_POSTGRESDB_USER: postgres.user,
		DB_POSTGRESDB_PASSWORD: '',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(redis.port),
		QUEUE_HEALTH_CHECK_ACTIVE: 'false',
		WEBHOOK_URL: `${proxyUrl}/`,
		N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true',
		// Lets a test workflow read which process evaluated a node ($env).
		N8N_BLOCK_ENV_ACCESS_IN_NODE: 'false',
		...extra,
	};
}

/**
 * @typedef {object} QueueDeployment
 * @property {string} root            the temporary folder holding every file of the deployment
 * @property {object} postgres        { port, pid, stop }
 * @property {object} redis           { port, pid, stop }
 * @property {object} proxy           see services.mjs startProxy: url, only(i), log, counts()
 * @property {import('./n8n.mjs').N8nHandle} main
 * @property {object[]} workers       { name, pid, logText, stop, kill, restart }
 * @property {object[]} webhooks      { name, pid, port, url, logText, stop, kill, restart }
 * @property {Record<string,string>} env  the queue-mode settings every n8n process got
 * @property {(webhookPath: string) => string} webhookUrl   production URL through the proxy
 * @property {(index: number, webhookPath: string) => string} directUrl  the same on one webhook process
 * @property {(index: number) => Promise<object>} restartWebhook  SIGTERM and start again
 * @property {() => Record<string,string>} executionsByProcess  execution id → worker name (from the workers' logs)
 * @property {() => Promise<object>} stop
 */

/**
 * Starts the whole deployment. Credentials (`{ id?, name, type, data }`, plain data) and
 * workflows (n8n JSON; `active: true` or `activate` publishes them) are imported into Postgres
 * before n8n starts, so the main process activates them at start and every webhook process
 * finds their webhooks.
 *
 * `version` runs another n8n than the selected one (COMPANY_PAYMENTS_N8N_VERSION), so one test
 * file can start deployments of several versions one after the other.
 *
 * `packages` installs further built packages (their root folders) beside this one in every
 * process, e.g. the queue-mode companion (`companion/`). `redisPort` fixes the queue Redis's port
 * (free, chosen by the caller) for credentials that must name it before the start.
 *
 * @param {{ credentials?: object[], workflows?: object[], workers?: number,
 *   webhookProcesses?: number, env?: Record<string,string>, version?: string,
 *   packages?: string[], redisPort?: number, log?: (line: string) => void }} [options]
 * @returns {Promise<QueueDeployment>}
 */
export async function startQueueDeployment({
	credentials = [],
	workflows = [],
	workers: workerCount = 2,
	webhookProcesses = 2,
	env = {},
	version,
	packages = [],
	redisPort,
	log = () => {},
} = {}) {
	const started = Date.now();
	const timings = {};
	const versioned = version ? { version } : {};
	await ensureN8n(versioned);
	const root = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-cp-queue-'));
	// The database user (nobody, when we run as root) must reach its own folder inside.
	fs.chmodSync(root, 0o711);
	const stack = []; // stop functions, in start order
	const deployment = { root, workers: [], webhooks: [], timings };

	async function stopAll() {
		const errors = [];
		const run = async (fn) => {
			try {
				await fn();
			} catch (error) {
				errors.push(error);
			}
		};
		// Front to back: nothing new comes in, then the n8n processes, then their stores.
		await run(() => deployment.proxy?.stop());
		await Promise.all(
			[...deployment.webhooks, ...deployment.workers].map((p) => run(() => p.stop())),
		);
		await run(() => deployment.main?.stop());
		await Promise.all([
			run(() => deployment.redis?.stop()),
			run(() => deployment.postgres?.stop()),
		]);
		const pids = [
			deployment.postgres?.pid,
			deployment.redis?.pid,
			deployment.main?.pid,
			...deployment.workers.map((p) => p.pid),
			...deployment.webhooks.map((p) => p.pid),
		].filter(Boolean);
		const alive = pids.filter(pidIsAlive);
		if (process.env.COMPANY_PAYMENTS_E2E_KEEP !== '1')
			fs.rmSync(root, { recursive: true, force: true });
		if (alive.length > 0)
			errors.push(new Error(`processes still running after stop: ${alive.join(', ')}`));
		if (errors.length > 0)
			throw new AggregateError(
				errors,
				`queue deployment stop: ${errors.map((e) => e.message).join('; ')}`,
			);
		return { pids, root };
	}
	let stopping;
	deployment.stop = () => (stopping ??= stopAll());

	try {
		let t = Date.now();
		[deployment.postgres, deployment.redis] = await Promise.all([
			startPostgres({ dir: path.join(root, 'postgres') }),
			// With an append-only file, as a queue's Redis is run: the companion's trigger, whose
			// claims may live here, refuses a Redis that loses its keys on a restart.
			startRedis({ dir: path.join(root, 'redis'), port: redisPort, appendonly: true }),
		]);
		timings.stores = Date.now() - t;
		log(
			`postgres :${deployment.postgres.port}, redis :${deployment.redis.port} (${timings.stores} ms)`,
		);

		const webhookPorts = [];
		for (let i = 0; i < webhookProcesses; i++) webhookPorts.push(await freePort(webhookPorts));
		deployment.proxy = await startProxy({
			targets: webhookPorts.map((port, i) => ({ name: `webhook-${i + 1}`, port })),
		});

		const settings = queueEnv({
			postgres: deployment.postgres,
			redis: deployment.redis,
			proxyUrl: deployment.proxy.url,
			extra: env,
		});
		deployment.env = settings;

		const mainFolder = path.join(root, 'main');
		fs.mkdirSync(mainFolder);
		installPackage(mainFolder);
		// Further packages (their roots, built), e.g. the queue-mode companion in companion/.
		for (const packageRoot of packages) installPackage(mainFolder, packageRoot);
		t = Date.now();
		if (credentials.length > 0) {
			deployment.credentials = await importCredentials(mainFolder, credentials, {
				env: settings,
				...versioned,
			});
		}
		if (workflows.length > 0) {
			if (version)
				throw new Error('startQueueDeployment: create workflows through the API with `version`');
			deployment.workflowIds = await importWorkflows(mainFolder, workflows, { env: settings });
		}
		timings.import = Date.now() - t;
		log(
			`imported ${credentials.length} credential(s), ${workflows.length} workflow(s) (${timings.import} ms)`,
		);

		t = Date.now();
		deployment.main = await startN8n({
			...versioned,
			userFolder: mainFolder,
			env: { ...settings, [PROCESS_NAME_VARIABLE]: 'main' },
		});
		timings.main = Date.now() - t;
		log(`main ${deployment.main.url} pid ${deployment.main.pid} (${timings.main} ms)`);

		// Every other process gets its own user folder with the same package copy.
		const nodesDir = path.join(mainFolder, '.n8n', 'nodes');
		const folderFor = (name) => {
			const folder = path.join(root, name);
			fs.cpSync(nodesDir, path.join(folder, '.n8n', 'nodes'), { recursive: true });
			return folder;
		};
		t = Date.now();
		const starting = [];
		for (let i = 0; i < workerCount; i++) {
			const name = `worker-${i + 1}`;
			starting.push(
				startRole('worker', {
					name,
					userFolder: folderFor(name),
					port: await freePort(),
					env: settings,
					version,
				}).then((handle) => (deployment.workers[i] = handle)),
			);
		}
		webhookPorts.forEach((port, i) => {
			const name = `webhook-${i + 1}`;
			starting.push(
				startRole('webhook', {
					name,
					userFolder: folderFor(name),
					port,
					env: settings,
					version,
				}).then((handle) => (deployment.webhooks[i] = handle)),
			);
		});
		const results = await Promise.allSettled(starting);
		const failed = results.find((r) => r.status === 'rejected');
		if (failed) throw failed.reason;
		timings.roles = Date.now() - t;
		timings.total = Date.now() - started;
		log(
			`${workerCount} worker(s), ${webhookProcesses} webhook process(es) ready (${timings.roles} ms); ` +
				`proxy ${deployment.proxy.url}; total ${timings.total} ms`,
		);
	} catch (error) {
		try {
			await deployment.stop();
		} catch {
			// the start error is the one to report
		}
		throw error;
	}

	// createWorkflow(deployment.main, …, { activate: true }) waits until these serve the webhooks.
	deployment.main.webhookProcesses = () => deployment.webhooks;
	deployment.webhookUrl = (webhookPath) =>
		`${deployment.proxy.url}/webhook/${String(webhookPath).replace(/^\/+/, '')}`;
	deployment.directUrl = (index, webhookPath) =>
		`${deployment.webhooks[index].url}/webhook/${String(webhookPath).replace(/^\/+/, '')}`;
	deployment.restartWebhook = async (index) => {
		deployment.webhooks[index] = await deployment.webhooks[index].restart();
		return deployment.webhooks[index];
	};
	/**
	 * Stops Redis (SIGTERM; its append-only file keeps the keys) and starts it again on the same
	 * port, as a restart of the queue's Redis would. The n8n processes reconnect by themselves.
	 */
	deployment.restartRedis = async () => {
		await deployment.redis.stop();
		deployment.redis = await startRedis({
			dir: path.join(root, 'redis'),
			port: deployment.redis.port,
			appendonly: true,
		});
		return deployment.redis;
	};
	deployment.executionsByProcess = () => {
		const byId = {};
		for (const worker of deployment.workers) {
			for (const match of readFrom(worker.logFile).matchAll(WORKER_STARTED)) {
				byId[match[1]] = byId[match[1]] ? `${byId[match[1]]},${worker.name}` : worker.name;
			}
		}
		return byId;
	};
	return deployment;
}

// ---------------------------------------------------------------------------------------------
// Provisioning a running n8n through its public API (no CLI start per import). Credentials
// go through the CLI at start (`credentials` above): n8n 2.8.4's API rejects our credential's
// data without the domain-restriction fields it injects into every credential type.
// ---------------------------------------------------------------------------------------------

/**
 * Creates a workflow through `POST /api/v1/workflows` and, with `activate`, activates it
 * (`POST /api/v1/workflows/{id}/activate`): the main process registers its webhooks in the
 * database, where every webhook process looks them up per request; on a queue deployment's main
 * it returns once every webhook process answers the workflow's webhook paths.
 * @param {import('./n8n.mjs').N8nHandle} n8n
 * @param {object} workflow n8n workflow JSON: name, nodes, connections, settings?, staticData?
 * @param {{ activate?: boolean }} [options]
 * @returns {Promise<string>} the workflow id
 */
export async function createWorkflow(n8n, workflow, { activate = false } = {}) {
	const { name, nodes, connections, settings = { executionOrder: 'v1' }, staticData } = workflow;
	const body = { name, nodes, connections, settings, ...(staticData ? { staticData } : {}) };
	const { id } = await n8n.api('POST', '/workflows', body);
	if (activate) {
		const active = await n8n.activateWorkflow(id);
		// In queue mode the webhook processes serve the production URLs, and n8n 2.41 answers the
		// activation before they do: wait until each answers the probe for every webhook path.
		for (const webhookProcess of n8n.webhookProcesses?.() ?? []) {
			await waitForWorkflowWebhooks(webhookProcess, active, {
				registered: true,
				timeoutMs: 60_000,
			});
		}
	}
	return id;
}
