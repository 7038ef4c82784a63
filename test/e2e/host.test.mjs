/**
 * Proves the real-n8n host works: the built package loads into n8n 2.8.4, imported workflows
 * are active (webhooks registered) as soon as startN8n resolves, executions can be read back,
 * and all of it survives a restart on the same user folder.
 *
 *   npm run build
 *   node --test --test-concurrency=1 test/e2e/*.test.mjs
 *
 * The first run installs n8n into the cache (minutes); see test/e2e/README.md.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';

import {
	ensureN8n,
	createUserFolder,
	importCredentials,
	importWorkflow,
	installPackage,
	PACKAGE_NAME,
	PACKAGE_ROOT,
	packedFiles,
	startN8n,
	uuid,
} from './n8n-host.mjs';

// For work on the host itself only: point it at another built copy of the package.
const packageRoot = process.env.COMPANY_PAYMENTS_PACKAGE_ROOT
	? path.resolve(process.env.COMPANY_PAYMENTS_PACKAGE_ROOT)
	: PACKAGE_ROOT;
const keepFolder = process.env.COMPANY_PAYMENTS_E2E_KEEP === '1';

const ACTION_NODE = `${PACKAGE_NAME}.companyPayments`;
const TRIGGER_NODE = `${PACKAGE_NAME}.companyPaymentsTrigger`;
const CREDENTIAL_TYPE = 'companyPaymentsApi';

/** A workflow of n8n's own Webhook node only: it answers "Workflow was started" once active. */
function webhookWorkflow(name, webhookPath) {
	return {
		name,
		nodes: [
			{
				id: uuid(),
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: uuid(),
				parameters: {
					path: webhookPath,
					httpMethod: 'GET',
					responseMode: 'onReceived',
					options: {},
				},
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	};
}

let userFolder;
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

before(
	async () => {
		const pkgJson = JSON.parse(fs.readFileSync(path.join(packageRoot, 'package.json'), 'utf8'));
		const declared = [...(pkgJson.n8n?.nodes ?? []), ...(pkgJson.n8n?.credentials ?? [])];
		const missing = declared.filter((f) => !fs.existsSync(path.join(packageRoot, f)));
		if (!fs.existsSync(path.join(packageRoot, 'dist')) || missing.length > 0) {
			throw new Error(
				`${packageRoot} is not built${missing.length ? ` (missing ${missing.join(', ')})` : ''}: ` +
					'run "npm run build" first; these tests do not build.',
			);
		}
		await ensureN8n();
		userFolder = createUserFolder('n8n-e2e-host-');
		installPackage(userFolder, packageRoot);
		[credential] = await importCredentials(userFolder, [
			{
				name: 'Company Payments (e2e host)',
				type: CREDENTIAL_TYPE,
				data: { apiKey: 'e2e-not-a-key' },
			},
		]);
		published = await importWorkflow(
			userFolder,
			webhookWorkflow('host: published by CLI', 'host-cli'),
			{
				activate: true,
			},
		);
		apiActivated = await importWorkflow(
			userFolder,
			webhookWorkflow('host: activated by API', 'host-api'),
		);
		n8n = await startN8n({ userFolder });
	},
	{ timeout: 60 * 60_000 },
);

after(async () => {
	await n8n?.stop();
	if (userFolder && !keepFolder) fs.rmSync(userFolder, { recursive: true, force: true });
	else if (userFolder) process.stderr.write(`[host.test] kept ${userFolder}\n`);
});

test('the package n8n loads is what npm pack publishes: dist only, no runtime dependencies', () => {
	const files = packedFiles(packageRoot);
	const extra = files.filter(
		(file) => !file.startsWith('dist/') && !['package.json', 'README.md', 'LICENSE.md'].includes(file),
	);
	assert.deepEqual(extra, []);
	assert.ok(files.includes('dist/nodes/CompanyPayments/CompanyPayments.node.js'));
	assert.ok(files.includes('dist/credentials/CompanyPaymentsApi.credentials.js'));
	assert.ok(!files.some((file) => file.startsWith('dist/test') || file.includes('sandbox')));
	const pkg = JSON.parse(fs.readFileSync(path.join(packageRoot, 'package.json'), 'utf8'));
	assert.deepEqual(pkg.dependencies ?? {}, {});
	assert.deepEqual(pkg.peerDependencies, { 'n8n-workflow': '*' });
	const installed = path.join(userFolder, '.n8n/nodes/node_modules', PACKAGE_NAME);
	for (const file of files) assert.ok(fs.existsSync(path.join(installed, file)), `${file} is installed`);
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

test('a credential imported by the CLI is stored', async () => {
	const credentials = await n8n.rest('GET', '/credentials');
	const found = credentials.find((c) => c.id === credential.id);
	assert.ok(found, `credential ${credential.id} not listed`);
	assert.equal(found.type, CREDENTIAL_TYPE);
});

test('a workflow published before start answers on its production URL at once', async () => {
	assert.deepEqual(n8n.activationErrors(), []);
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
