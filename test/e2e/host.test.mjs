/**
 * Proves the real-n8n host works: which n8n and Node it picks and how it drives each version's
 * CLI (pure rules, checked first), then, in the selected n8n (COMPANY_PAYMENTS_N8N_VERSION,
 * default 2.8.4): the built package loads, imported workflows answer as soon as startN8n
 * resolves, executions can be read back, and all of it survives a restart on the same folder.
 *
 *   npm run build
 *   node --test --test-concurrency=1 test/e2e/*.test.mjs
 *   COMPANY_PAYMENTS_N8N_VERSION=2.41.1 node --test --test-concurrency=1 test/e2e/*.test.mjs
 *
 * The first run of a version installs it into the cache (minutes); see harness/README.md.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { buildN8nEnv } from '../../harness/lib/env.mjs';
import { n8nCacheDir, nodeCacheDir } from '../../harness/lib/install.mjs';
import {
	registeredMethods,
	webhookIsRegistered,
	webhookProbePaths,
} from '../../harness/lib/readiness.mjs';
import {
	activateCliArgs,
	cliArgsFor,
	installPlan,
	nodeVersionFor,
	requiredNodeMajor,
	selectedN8nVersion,
} from '../../harness/lib/versions.mjs';
import {
	ensureN8n,
	N8N_VERSION,
	PACKAGE_NAME,
	PACKAGE_ROOT,
	packedFiles,
} from '../../harness/n8n.mjs';
import { e2eStack } from '../../harness/stack.mjs';
import { NODE_TYPES, webhookNode } from '../../harness/workflows.mjs';

// For work on the host itself only: point it at another built copy of the package.
const packageRoot = process.env.COMPANY_PAYMENTS_PACKAGE_ROOT
	? path.resolve(process.env.COMPANY_PAYMENTS_PACKAGE_ROOT)
	: PACKAGE_ROOT;

const ACTION_NODE = NODE_TYPES.action;
const TRIGGER_NODE = NODE_TYPES.trigger;
const CREDENTIAL_TYPE = 'companyPaymentsApi';

/** A workflow of n8n's own Webhook node only: it answers "Workflow was started" once active. */
function webhookWorkflow(name, webhookPath) {
	return {
		name,
		nodes: [webhookNode(webhookPath, { method: 'GET', responseMode: 'onReceived' })],
		connections: {},
		settings: { executionOrder: 'v1' },
	};
}

const stack = e2eStack('host', { packageRoot });
let n8n;
let published; // activated by the CLI before the first start
let apiActivated; // imported inactive, activated through the public API while running
let credential;

async function callWebhook(webhookPath, marker) {
	const res = await fetch(`${n8n.webhookUrl(webhookPath)}?marker=${marker}`);
	const text = await res.text();
	assert.equal(
		res.status,
		200,
		`GET ${webhookPath} answered ${res.status}: ${text}\nlog: ${n8n.logFile}`,
	);
	return JSON.parse(text);
}

function markersOf(executions) {
	return executions.map(
		(e) => e.data?.resultData?.runData?.Webhook?.[0]?.data?.main?.[0]?.[0]?.json?.query?.marker,
	);
}

describe('versions: which n8n, which Node, which CLI (pure rules)', () => {
	test('COMPANY_PAYMENTS_N8N_VERSION selects the n8n; unset means 2.8.4; a non-version is refused', () => {
		assert.equal(selectedN8nVersion({}), '2.8.4');
		assert.equal(selectedN8nVersion({ COMPANY_PAYMENTS_N8N_VERSION: '2.41.1' }), '2.41.1');
		assert.equal(selectedN8nVersion({ COMPANY_PAYMENTS_N8N_VERSION: ' 1.123.81 ' }), '1.123.81');
		assert.throws(() => selectedN8nVersion({ COMPANY_PAYMENTS_N8N_VERSION: 'latest' }), /"latest"/);
	});

	test('each tested version runs on the Node it is tested on', () => {
		const on20 = { env: {}, systemNodeVersion: '20.20.2' };
		assert.equal(nodeVersionFor('2.8.4', on20), 'system');
		assert.equal(nodeVersionFor('2.41.1', on20), '24.21.0');
		assert.equal(nodeVersionFor('1.123.81', on20), '22.23.3');
	});

	test('other versions get the Node major they need: 24 from 2.36, 22 from 1.123.66, else 20', () => {
		assert.equal(requiredNodeMajor('2.36.0'), 24);
		assert.equal(requiredNodeMajor('2.35.4'), 22);
		assert.equal(requiredNodeMajor('2.8.4'), 20);
		assert.equal(requiredNodeMajor('1.123.66'), 22);
		assert.equal(requiredNodeMajor('1.123.50'), 20);
		assert.equal(nodeVersionFor('2.40.0', { systemNodeVersion: '20.20.2' }), '24.21.0');
		assert.equal(nodeVersionFor('1.123.70', { systemNodeVersion: '20.20.2' }), '22.23.3');
		assert.equal(nodeVersionFor('1.123.70', { systemNodeVersion: '22.1.0' }), 'system');
		assert.equal(nodeVersionFor('1.123.50', { systemNodeVersion: '20.20.2' }), 'system');
		const own = { env: { COMPANY_PAYMENTS_NODE_VERSION: 'system' }, systemNodeVersion: '20.20.2' };
		assert.equal(nodeVersionFor('2.41.1', own), 'system');
		const pinned = {
			env: { COMPANY_PAYMENTS_NODE_VERSION: '24.1.0' },
			systemNodeVersion: '20.20.2',
		};
		assert.equal(nodeVersionFor('2.41.1', pinned), '24.1.0');
	});

	test('activation before start: publish:workflow on 2.x, update:workflow --active=true on 1.x', () => {
		assert.deepEqual(activateCliArgs('2.8.4', 'wf1'), ['publish:workflow', '--id=wf1']);
		assert.deepEqual(activateCliArgs('2.41.1', 'wf1'), ['publish:workflow', '--id=wf1']);
		assert.deepEqual(activateCliArgs('1.123.81', 'wf1'), [
			'update:workflow',
			'--id=wf1',
			'--active=true',
		]);
		// Tests written for 2.x call publish:workflow through runN8nCli; on 1.x it is adapted.
		assert.deepEqual(cliArgsFor('1.123.81', ['publish:workflow', '--id=wf2']), [
			'update:workflow',
			'--id=wf2',
			'--active=true',
		]);
		assert.deepEqual(cliArgsFor('2.41.1', ['publish:workflow', '--id=wf2']), [
			'publish:workflow',
			'--id=wf2',
		]);
		assert.deepEqual(cliArgsFor('1.123.81', ['import:workflow', '--input=x.json']), [
			'import:workflow',
			'--input=x.json',
		]);
	});

	test('installs from 2.35 on skip install scripts and rebuild sqlite3 and isolated-vm', () => {
		const modern = installPlan('2.41.1');
		assert.ok(modern.installArgs.includes('--ignore-scripts'));
		assert.deepEqual(modern.rebuildArgs, ['rebuild', 'sqlite3', 'isolated-vm']);
		assert.deepEqual(modern.packageJson, {
			private: true,
			dependencies: { n8n: '2.41.1' },
			overrides: { xlsx: '0.18.5' },
		});
		const older = installPlan('2.8.4');
		assert.ok(!older.installArgs.includes('--ignore-scripts'));
		assert.equal(older.rebuildArgs, undefined);
		assert.equal(installPlan('1.123.81').rebuildArgs, undefined);
	});

	test('each version and each Node has its own cache folder; COMPANY_PAYMENTS_N8N_CACHE is the selected one', () => {
		const xdg = { XDG_CACHE_HOME: '/c' };
		assert.equal(n8nCacheDir(undefined, xdg), '/c/n8n-nodes-company-payments/n8n-2.8.4');
		assert.equal(
			n8nCacheDir(undefined, { ...xdg, COMPANY_PAYMENTS_N8N_VERSION: '2.41.1' }),
			'/c/n8n-nodes-company-payments/n8n-2.41.1',
		);
		assert.equal(n8nCacheDir('1.123.81', xdg), '/c/n8n-nodes-company-payments/n8n-1.123.81');
		assert.equal(nodeCacheDir('24.21.0', xdg), '/c/n8n-nodes-company-payments/node-24.21.0');
		const own = { COMPANY_PAYMENTS_N8N_CACHE: '/x/mine', COMPANY_PAYMENTS_N8N_VERSION: '2.41.1' };
		assert.equal(n8nCacheDir(undefined, own), '/x/mine');
		assert.equal(n8nCacheDir('1.123.81', own), '/x/n8n-1.123.81');
		assert.equal(nodeCacheDir('24.21.0', own), '/x/node-24.21.0');
	});

	test("every n8n process gets loopback settings and its Node first on PATH, not the developer's n8n settings", () => {
		const env = buildN8nEnv({
			userFolder: '/u',
			port: 5001,
			brokerPort: 5002,
			baseEnv: {
				PATH: '/usr/bin',
				N8N_PORT: '9',
				DB_TYPE: 'postgresdb',
				npm_config_x: '1',
				HOME: '/h',
			},
			node: { binDir: '/n/bin' },
			extra: { EXECUTIONS_MODE: 'queue' },
		});
		assert.equal(env.PATH, '/n/bin:/usr/bin');
		assert.equal(env.N8N_PORT, '5001');
		assert.equal(env.N8N_LISTEN_ADDRESS, '127.0.0.1');
		assert.equal(env.N8N_RUNNERS_BROKER_LISTEN_ADDRESS, '127.0.0.1');
		assert.equal(env.DB_TYPE, 'sqlite');
		assert.equal(env.EXECUTIONS_MODE, 'queue');
		assert.equal(env.HOME, '/h');
		assert.equal(env.npm_config_x, undefined);
		assert.equal(env.N8N_DIAGNOSTICS_ENABLED, 'false');
	});

	test('readiness probes the webhooks it can compute: Webhook node paths and our trigger', () => {
		const paths = webhookProbePaths({
			nodes: [
				{ type: 'n8n-nodes-base.webhook', parameters: { path: '/orders/' }, webhookId: 'w1' },
				{ type: 'n8n-nodes-base.webhook', parameters: { path: '={{ 1 }}' }, webhookId: 'w2' },
				{ type: 'n8n-nodes-base.webhook', parameters: { path: 'item/:id' }, webhookId: 'w3' },
				{ type: 'n8n-nodes-base.webhook', parameters: { path: 'off' }, disabled: true },
				{ type: NODE_TYPES.trigger, parameters: {}, webhookId: 'abc' },
				{ type: 'n8n-nodes-base.noOp', parameters: {} },
			],
		});
		assert.deepEqual(paths, ['orders', 'abc/webhook']);
		// n8n lists OPTIONS alone for a path nobody registered, and the methods of a registered one.
		assert.deepEqual(registeredMethods('OPTIONS'), []);
		assert.deepEqual(registeredMethods(null), []);
		assert.deepEqual(registeredMethods('OPTIONS, GET, post'), ['GET', 'POST']);
	});
});

describe(`a real n8n ${N8N_VERSION}`, () => {
	before(
		async () => {
			// Fails with "run npm run build first" when packageRoot is not built.
			await stack.prepare();
			[credential] = await stack.credentials([
				{
					name: 'Company Payments (e2e host)',
					type: CREDENTIAL_TYPE,
					data: { apiKey: 'e2e-not-a-key' },
				},
			]);
			// One published by the CLI before the start, one imported inactive (a test activates it).
			apiActivated = webhookWorkflow('host: activated by API', 'host-api');
			n8n = await stack.start({
				published: [webhookWorkflow('host: published by CLI', 'host-cli')],
				workflows: [apiActivated],
				activate: () => false,
			});
			[published] = stack.published;
		},
		{ timeout: 60 * 60_000 },
	);

	after(() => stack.stop());

	test('the package n8n loads is what npm pack publishes: dist only, no runtime dependencies', () => {
		const files = packedFiles(packageRoot);
		const extra = files.filter(
			(file) =>
				!file.startsWith('dist/') && !['package.json', 'README.md', 'LICENSE.md'].includes(file),
		);
		assert.deepEqual(extra, []);
		assert.ok(files.includes('dist/nodes/CompanyPayments/CompanyPayments.node.js'));
		assert.ok(files.includes('dist/credentials/CompanyPaymentsApi.credentials.js'));
		assert.ok(!files.some((file) => file.startsWith('dist/test') || file.includes('sandbox')));
		const pkg = JSON.parse(fs.readFileSync(path.join(packageRoot, 'package.json'), 'utf8'));
		assert.deepEqual(pkg.dependencies ?? {}, {});
		assert.deepEqual(pkg.peerDependencies, { 'n8n-workflow': '*' });
		const installed = path.join(stack.userFolder, '.n8n/nodes/node_modules', PACKAGE_NAME);
		for (const file of files)
			assert.ok(fs.existsSync(path.join(installed, file)), `${file} is installed`);
	});

	test('n8n knows the action node and the credential of the package', async () => {
		const nodeTypes = (await n8n.listNodeTypes()).map((t) => t.name);
		assert.ok(nodeTypes.includes(ACTION_NODE), `${ACTION_NODE} not among n8n's node types`);
		const credentialTypes = (await n8n.listCredentialTypes()).map((t) => t.name);
		assert.ok(
			credentialTypes.includes(CREDENTIAL_TYPE),
			`${CREDENTIAL_TYPE} not among n8n's credential types`,
		);
	});

	test('n8n knows the trigger node of the package', async () => {
		const nodeTypes = (await n8n.listNodeTypes()).map((t) => t.name);
		assert.ok(nodeTypes.includes(TRIGGER_NODE), `${TRIGGER_NODE} not among n8n's node types`);
	});

	test('n8n runs the selected version on the Node chosen for it', async () => {
		const install = await ensureN8n();
		assert.equal(fs.readlinkSync(`/proc/${n8n.pid}/exe`), fs.realpathSync(install.nodeBin));
		assert.equal(n8n.n8nVersion, N8N_VERSION);
		const settings = await n8n.rest('GET', '/settings');
		assert.equal(settings.versionCli, N8N_VERSION);
	});

	test('a credential imported by the CLI is stored', async () => {
		const credentials = await n8n.rest('GET', '/credentials');
		const found = credentials.find((c) => c.id === credential.id);
		assert.ok(found, `credential ${credential.id} not listed`);
		assert.equal(found.type, CREDENTIAL_TYPE);
	});

	test('a workflow published before start answers on its production URL at once', async () => {
		assert.deepEqual(n8n.activationErrors(), []);
		// startN8n resolved only after this webhook answered the host's probe (no log line trusted)
		assert.ok(n8n.probedWebhooks.includes('host-cli'), `probed: ${n8n.probedWebhooks}`);
		assert.deepEqual(await callWebhook('host-cli', 'first'), { message: 'Workflow was started' });
		const executions = await n8n.waitForExecutions({ workflowId: published.id, count: 1 });
		assert.deepEqual(markersOf(executions), ['first']);
		assert.equal(executions[0].status, 'success');
		assert.equal(executions[0].mode, 'webhook');
	});

	test('a workflow activated through the public API answers too', async () => {
		const before404 = await fetch(n8n.webhookUrl('host-api'));
		await before404.body?.cancel();
		assert.equal(before404.status, 404, 'inactive workflow must not answer');
		// The readiness probe tells an inactive path from an active one (it must not say yes to all).
		assert.equal(await webhookIsRegistered(n8n.url, 'host-api'), false);
		assert.equal(await webhookIsRegistered(n8n.url, 'host-cli'), true);
		const activated = await n8n.activateWorkflow(apiActivated.id);
		assert.equal(activated.active, true);
		await callWebhook('host-api', 'api');
		const executions = await n8n.waitForExecutions({ workflowId: apiActivated.id, count: 1 });
		assert.deepEqual(markersOf(executions), ['api']);
	});

	test(
		'after a restart on the same user folder both webhooks answer again',
		{ timeout: 5 * 60_000 },
		async () => {
			const oldPid = n8n.pid;
			const typesBeforeRestart = (await n8n.listNodeTypes())
				.map((t) => t.name)
				.filter((name) => name.startsWith(`${PACKAGE_NAME}.`))
				.sort();
			assert.ok(typesBeforeRestart.includes(ACTION_NODE));
			n8n = await n8n.restart();
			assert.notEqual(n8n.pid, oldPid);
			await callWebhook('host-cli', 'second');
			await callWebhook('host-api', 'api-again');
			const cli = await n8n.waitForExecutions({ workflowId: published.id, count: 2 });
			assert.deepEqual(markersOf(cli).sort(), ['first', 'second']);
			const api = await n8n.waitForExecutions({ workflowId: apiActivated.id, count: 2 });
			assert.deepEqual(markersOf(api).sort(), ['api', 'api-again']);
			const ours = (types) =>
				types
					.map((t) => t.name)
					.filter((name) => name.startsWith(`${PACKAGE_NAME}.`))
					.sort();
			assert.deepEqual(ours(await n8n.listNodeTypes()), typesBeforeRestart);
		},
	);

	test('stop() ends the n8n process', async () => {
		const { pid } = n8n;
		await n8n.stop();
		assert.throws(() => process.kill(pid, 0), { code: 'ESRCH' });
	});
});
