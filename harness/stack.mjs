/**
 * The one set-up of the end-to-end suites (issue 46): a real n8n with the built package, the
 * services it talks to (the sandbox, a scripted model, a mail catcher, any listener a suite
 * needs), the credentials and the workflows, and one teardown that stops all of it.
 *
 *   const stack = e2eStack('action');
 *   before(async () => {
 *     await stack.prepare();                            // n8n installed, package built and installed
 *     sandbox = await stack.service(startSandbox());    // stopped by stack.stop()
 *     const [owner] = await stack.credentials([sandboxCredential(sandbox)]);
 *     n8n = await stack.start({ workflows: [...] });    // imported, n8n started, activated
 *   });
 *   after(() => stack.stop());
 *
 * Every process is stopped by its handle (n8n by its PID, servers by their sockets), in the
 * reverse order of their start: what a suite registers after n8n (its clients) goes first, then
 * n8n, then the services n8n called. The user folder is deleted unless COMPANY_PAYMENTS_E2E_KEEP=1.
 *
 * Plain JavaScript for the same reason as the rest of harness/.
 */
import fs from 'node:fs';
import path from 'node:path';

import { waitUntil } from './lib/util.mjs';
import * as host from './n8n.mjs';
import { activateWhenReady, CREDENTIAL_TYPE } from './workflows.mjs';

/** Whether the suites keep n8n's user folder after the run (its logs, its database). */
export const KEEP_FOLDER = process.env.COMPANY_PAYMENTS_E2E_KEEP === '1';

/**
 * Throws "run npm run build first" unless the package's package.json and every file its `n8n`
 * section lists are there: the tests load the built package and never build.
 */
export function assertBuilt(packageRoot = host.PACKAGE_ROOT) {
	const manifest = path.join(packageRoot, 'package.json');
	const pkg = fs.existsSync(manifest) ? JSON.parse(fs.readFileSync(manifest, 'utf8')) : {};
	const declared = [...(pkg.n8n?.nodes ?? []), ...(pkg.n8n?.credentials ?? [])];
	const missing = declared.filter((file) => !fs.existsSync(path.join(packageRoot, file)));
	if (declared.length === 0 || missing.length > 0) {
		throw new Error(
			`${packageRoot} is not built${missing.length ? ` (missing ${missing.join(', ')})` : ''}: ` +
				'run npm run build first; these tests do not build.',
		);
	}
}

/**
 * A Company Payments credential for a sandbox (or any service with `url` and `keys`): Staging,
 * the service's URL and one of its keys (`key`, the owner's by default) or `apiKey`; `data`
 * adds or replaces fields (webhookSecret, previousWebhookSecret, ...).
 */
export function sandboxCredential(
	sandbox,
	{ name = 'Sandbox owner', key = 'owner', apiKey, data = {} } = {},
) {
	return {
		name,
		type: CREDENTIAL_TYPE,
		data: {
			environment: 'staging',
			baseUrl: sandbox.url,
			apiKey: apiKey ?? sandbox.keys[key],
			...data,
		},
	};
}

/**
 * Whether this n8n (its install folder, `stack.install.dir`) refuses polls more frequent than
 * a minute (n8n-core checks `isSubMinuteCron`): the poll suites then poll every minute.
 */
export function refusesSubMinutePolls(n8nDir) {
	const file = path.join(
		n8nDir,
		'node_modules/n8n-core/dist/execution-engine/active-workflow-triggers.js',
	);
	return fs.existsSync(file) && fs.readFileSync(file, 'utf8').includes('isSubMinuteCron');
}

/**
 * A call to a sandbox's control API (`/__control<urlPath>`); returns the JSON answer, and fails
 * with the method, path, status and answer when it is not 2xx.
 */
export async function sandboxControl(sandbox, method, urlPath, body) {
	const res = await fetch(`${sandbox.url}/__control${urlPath}`, {
		method,
		headers: { 'Content-Type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const answer = await res.json();
	if (!res.ok) {
		throw new Error(
			`control ${method} ${urlPath} answered ${res.status}: ${JSON.stringify(answer)}`,
		);
	}
	return answer;
}

/** Waits until n8n serves the MCP Server Trigger's path (it answers anything but 404). */
export async function waitForMcpPath(n8n, mcpPath, timeoutMs = 30_000) {
	await waitUntil(
		async () => {
			const res = await fetch(`${n8n.url}/mcp/${mcpPath}`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: '{}',
			}).catch(() => undefined);
			await res?.body?.cancel();
			return res !== undefined && res.status !== 404;
		},
		{ timeoutMs, what: `/mcp/${mcpPath} registered` },
	);
}

/**
 * The stack of one suite. `name` names its user folder (`n8n-cp-<name>-…` under the temporary
 * folder). Nothing starts before `prepare()`.
 * @param {string} name
 * `env`: n8n settings of every n8n command and process of this stack (e.g. an encryption key of
 * its own: a second n8n instance rather than the same instance on another database).
 * @param {{ packageRoot?: string, keepFolder?: boolean, env?: Record<string, string> }} [options]
 */
export function e2eStack(
	name,
	{ packageRoot = host.PACKAGE_ROOT, keepFolder = KEEP_FOLDER, env: stackEnv = {} } = {},
) {
	/** What stop() undoes, newest first. */
	const stops = [];
	const stack = {
		name,
		packageRoot,
		/** ensureN8n()'s answer: `{ dir, version, ... }` of the installed n8n. */
		install: undefined,
		userFolder: undefined,
		/** The running n8n's handle (harness/n8n.mjs), once start() resolved. */
		n8n: undefined,
		/** What start() imported and published before n8n started: `[{ id, name, active }]`. */
		published: [],

		/** Installs n8n if needed, checks the build, makes the user folder with the package in it. */
		async prepare() {
			stack.install = await host.ensureN8n();
			assertBuilt(packageRoot);
			stack.userFolder = host.createUserFolder(`n8n-cp-${name}-`);
			stops.push(() => removeFolder(stack.userFolder, keepFolder));
			host.installPackage(stack.userFolder, packageRoot);
			return stack;
		},

		/**
		 * Awaits a started service (a promise or a handle) and stops it in stop(), by its
		 * `close()` or `stop()`. Returns the handle.
		 */
		async service(started) {
			const handle = await started;
			const close = handle?.close ?? handle?.stop;
			if (typeof close !== 'function') throw new Error(`${name}: a service without close()`);
			stops.push(() => close.call(handle));
			return handle;
		},

		/** Runs `fn` in stop(), before whatever was started earlier (e.g. a suite's clients). */
		onStop(fn) {
			stops.push(fn);
		},

		/** Imports credentials by n8n's CLI (before start); returns `[{ id, name, type }]`. */
		async credentials(specs) {
			return await host.importCredentials(stack.userFolder, specs, { env: stackEnv });
		},

		/**
		 * Imports the workflows and starts n8n.
		 * - `published`: each imported and published by the CLI before the start (n8n activates
		 *   them as it starts; their ids in `stack.published` and the answer's `published`);
		 * - `workflows`: imported in one CLI call, then activated through n8n's API once it runs
		 *   (asking again while it answers 503) where `activate(workflow)` says so (all by default);
		 *   a workflow without an id gets one here;
		 * - `mcpPaths`: MCP Server Trigger paths to wait for after activation;
		 * - `env`: settings of the n8n process.
		 * @returns {Promise<object>} the n8n handle
		 */
		async start({
			workflows = [],
			published = [],
			activate = () => true,
			mcpPaths = [],
			env,
		} = {}) {
			for (const workflow of published) {
				const imported = await host.importWorkflow(stack.userFolder, workflow, {
					activate: true,
					env: stackEnv,
				});
				stack.published.push(imported);
			}
			for (const workflow of workflows) workflow.id ??= host.newN8nId();
			if (workflows.length > 0) {
				await host.importWorkflows(stack.userFolder, workflows, { env: stackEnv });
			}
			const n8n = await stack.startN8n({ env });
			for (const workflow of workflows) {
				if (activate(workflow)) await activateWhenReady(n8n, workflow.id);
			}
			for (const mcpPath of mcpPaths) await waitForMcpPath(n8n, mcpPath);
			return n8n;
		},

		/**
		 * Starts n8n on the stack's user folder (again, after a suite stopped it: pass the old
		 * handle's `port` and `brokerPort` to keep its URLs). stop() stops the newest.
		 */
		async startN8n(options = {}) {
			const first = stack.n8n === undefined;
			const env = { ...stackEnv, ...options.env };
			stack.n8n = follow(await host.startN8n({ userFolder: stack.userFolder, ...options, env }));
			if (first) stops.push(() => stack.n8n.stop());
			return stack.n8n;
		},

		/** Stops everything started, newest first; every step runs even if one fails. */
		async stop() {
			const failures = [];
			while (stops.length > 0) {
				const undo = stops.pop();
				try {
					await undo();
				} catch (error) {
					failures.push(error);
				}
			}
			if (failures.length > 0) {
				throw new AggregateError(failures, `${name}: the teardown failed`);
			}
		},
	};
	/** A suite's `n8n = await n8n.restart()` keeps stack.n8n the running one, for stop(). */
	function follow(handle) {
		const restart = handle.restart.bind(handle);
		handle.restart = async (overrides) => {
			stack.n8n = follow(await restart(overrides));
			return stack.n8n;
		};
		return handle;
	}
	return stack;
}

function removeFolder(folder, keep) {
	if (!folder) return;
	if (keep) {
		process.stderr.write(`[e2e] kept ${folder}\n`);
		return;
	}
	fs.rmSync(folder, { recursive: true, force: true });
}
