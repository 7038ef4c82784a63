/**
 * The package installs the two ways n8n users install it (issue 31), from the release tarball
 * (scripts/pack-release.mjs) published to a local registry (harness/registry.mjs) that plays
 * https://registry.npmjs.org behind a TLS proxy with a throw-away CA. Nothing leaves the
 * machine: the proxy answers only registry.npmjs.org, from the local registry.
 *
 *   1. `npm install n8n-nodes-company-payments` in `~/.n8n/nodes` adds the package alone (no
 *      n8n-workflow, no compiler) on Node 20, 22 and 24: n8n-workflow is an optional peer
 *      dependency. The local registry has no n8n-workflow, so a required peer fails here.
 *   2. Settings → Community Nodes: by name through n8n's own endpoint (POST
 *      /rest/community-packages, as the owner), then the nodes, the credential and the AI tool
 *      variant load, a workflow runs against the sandbox, the update check shows the next
 *      version, the update installs it, the uninstall removes it; n8n stays healthy.
 *   3. The manual path in n8n: npm install in the user folder's `.n8n/nodes` (laid out like the
 *      official Docker image: HOME is the user folder, n8n's data in `~/.n8n`), start, the
 *      workflow runs; update with npm and restart, it still runs; npm uninstall and restart,
 *      n8n is healthy and the nodes are gone.
 *   4. The queue-mode companion (companion/, n8n-nodes-company-payments-queue, its release
 *      tarball at the same version) both ways beside the core: by name in Settings → Community
 *      Nodes after the core, and `npm install` of both in ~/.n8n/nodes; its node loads beside
 *      the core's, and it brings no other package (its Redis client ships inside it).
 *      test/install/companion.test.mjs covers it without the core, and a delivery it claims.
 *
 *   npm run build
 *   node --test --test-concurrency=1 test/install/*.test.mjs                       # n8n 2.8.4
 *   COMPANY_PAYMENTS_N8N_VERSION=2.41.1 node --test --test-concurrency=1 test/install/*.test.mjs
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { ensureNode, ensureN8n, N8N_VERSION, PACKAGE_ROOT, startN8n } from '../../harness/n8n.mjs';
import { PINNED_NODE } from '../../harness/lib/versions.mjs';
import {
	installedPackages,
	npmrcText,
	runNpmAsUser,
	startRegistry,
} from '../../harness/registry.mjs';
import { chain, CREDENTIAL_TYPE, node, NODE_TYPES, webhookNode } from '../../harness/workflows.mjs';
import { packRelease, STAND_IN_REPOSITORY } from '../../scripts/pack-release.mjs';
import { startSandbox } from '../../sandbox/server.mjs';

const pkg = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8'));
const NAME = pkg.name;
const [major, minor, patch] = pkg.version.split(/[.-]/).map(Number);
const FIRST = pkg.version;
const NEXT = `${major}.${minor}.${patch + 1}`;
const OUR_TYPES = [NODE_TYPES.action, NODE_TYPES.trigger, NODE_TYPES.pollTrigger];
const COMPANION = 'n8n-nodes-company-payments-queue';
const QUEUE_TRIGGER = `${COMPANION}.companyPaymentsQueueTrigger`;
const TOOL_TYPE = `${NODE_TYPES.action}Tool`;
const AUTHOR = {
	name: 'Company Payments install suite',
	email: 'install-suite@company-payments.test',
};

let work;
let firstTarball;
let registry;
let sandbox;
const keep = process.env.COMPANY_PAYMENTS_E2E_KEEP === '1';

/** A user folder laid out like the official image: HOME=/home/node, n8n data in ~/.n8n. */
function userHome(label) {
	const home = path.join(work, label, 'home', 'node');
	const nodesDir = path.join(home, '.n8n', 'nodes');
	fs.mkdirSync(nodesDir, { recursive: true });
	fs.writeFileSync(
		path.join(nodesDir, '.npmrc'),
		npmrcText(registry, { cache: path.join(work, 'npm-cache') }),
	);
	return { home, nodesDir };
}

/** What n8n needs to reach the registry through the proxy; the sandbox stays direct. */
function proxyEnv(home) {
	return {
		HOME: home,
		HTTPS_PROXY: registry.proxyUrl,
		HTTP_PROXY: registry.proxyUrl,
		https_proxy: registry.proxyUrl,
		http_proxy: registry.proxyUrl,
		NO_PROXY: '127.0.0.1,localhost',
		no_proxy: '127.0.0.1,localhost',
		NODE_EXTRA_CA_CERTS: registry.caFile,
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
		N8N_COMMUNITY_PACKAGES_ALLOW_TOOL_USAGE: 'true',
	};
}

/** The user's command, `npm install <args>` in ~/.n8n/nodes; fails the test with npm's output. */
async function npmInNodes(args, { home, nodesDir, node: runtime }) {
	const result = await runNpmAsUser(args, { cwd: nodesDir, home, node: runtime });
	assert.equal(
		result.code,
		0,
		`npm ${args.join(' ')} on Node ${runtime?.version ?? process.version} failed:\n${result.output}`,
	);
	return result;
}

/** The installed copy is the package alone: no n8n-workflow, nothing compiled. */
function assertAlone(nodesDir, version) {
	assert.deepEqual(installedPackages(nodesDir), [NAME], 'node_modules holds the package alone');
	const installed = path.join(nodesDir, 'node_modules', NAME);
	assert.equal(
		JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8')).version,
		version,
	);
	const compiled = fs
		.readdirSync(installed, { recursive: true })
		.filter((file) => String(file).endsWith('.node') || String(file).includes('build/Release'));
	assert.deepEqual(compiled, [], 'nothing was compiled');
}

/** A credential for the sandbox and Webhook → Company Payments (wallet balance), active. */
async function balanceWorkflow(n8n, label) {
	const credential = await n8n.rest('POST', '/credentials', {
		name: `Sandbox ${label}`,
		type: CREDENTIAL_TYPE,
		data: { environment: 'staging', baseUrl: sandbox.url, apiKey: sandbox.keys.owner },
	});
	const webhookPath = `install-${label}`;
	const workflow = await n8n.api('POST', '/workflows', {
		name: `install ${label}`,
		nodes: [
			webhookNode(webhookPath),
			node(
				'Company Payments',
				NODE_TYPES.action,
				[220, 0],
				{
					resource: 'companyWallet',
					operation: 'getBalance',
				},
				{ credential },
			),
		],
		connections: chain('Webhook', 'Company Payments'),
		settings: { executionOrder: 'v1' },
	});
	await n8n.activateWorkflow(workflow.id);
	return { id: workflow.id, webhookPath };
}

/** Runs the balance workflow; its answer is the sandbox company's balance. */
async function assertBalanceRuns(n8n, { webhookPath }) {
	const res = await fetch(n8n.webhookUrl(webhookPath), {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: '{}',
		signal: AbortSignal.timeout(60_000),
	});
	const text = await res.text();
	assert.equal(
		res.status,
		200,
		`the workflow answered ${res.status}: ${text}\nlog: ${n8n.logFile}`,
	);
	const [item] = JSON.parse(text);
	const company = sandbox.state.companies.get('cmp_demo');
	assert.equal(item.usdtBalance, company.usdtBalance, text);
	assert.equal(item.frozenBalance, company.frozenBalance, text);
}

async function typeNames(n8n) {
	return new Set((await n8n.listNodeTypes()).map((type) => type.name));
}

async function assertLoaded(n8n) {
	const names = await typeNames(n8n);
	for (const type of [...OUR_TYPES, TOOL_TYPE]) assert.ok(names.has(type), `${type} is loaded`);
	const credentials = (await n8n.listCredentialTypes()).map((type) => type.name);
	assert.ok(credentials.includes(CREDENTIAL_TYPE), `${CREDENTIAL_TYPE} is loaded`);
}

async function assertHealthyWithout(n8n) {
	const res = await fetch(`${n8n.url}/healthz/readiness`);
	assert.equal(res.status, 200, 'n8n is healthy');
	const names = await typeNames(n8n);
	for (const type of OUR_TYPES) assert.ok(!names.has(type), `${type} is gone`);
}

before(async () => {
	await ensureN8n();
	work = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-install-'));
	registry = await startRegistry({ dir: path.join(work, 'tls') });
	// The release's tarball (stand-in repository and author, as the release packs it), and the
	// next version.
	const pack = (version, out, extra = []) =>
		packRelease(
			[
				'--require-repository',
				...[
					'--repository',
					STAND_IN_REPOSITORY,
					'--version',
					version,
					'--out',
					path.join(work, out),
				],
				...extra,
			],
			{ NPM_AUTHOR: `${AUTHOR.name} <${AUTHOR.email}>` },
		);
	firstTarball = pack(FIRST, 'first').tarball;
	registry.publish(firstTarball);
	registry.publish(pack(NEXT, 'next').tarball, { latest: false });
	registry.publish(pack(FIRST, 'companion', ['--package', 'companion']).tarball);
	sandbox = await startSandbox();
});

after(async () => {
	await sandbox?.close();
	await registry?.stop();
	if (registry?.refused.length) {
		console.log(
			`# the proxy refused (never left the machine): ${[...new Set(registry.refused)].join(', ')}`,
		);
	}
	if (work && !keep) fs.rmSync(work, { recursive: true, force: true });
	else if (work) console.log(`# kept ${work}`);
});

/**
 * The npm-only cases below run no n8n: CI runs them in one lane (n8n 2.8.4) and sets
 * COMPANY_PAYMENTS_INSTALL_N8N_CASES_ONLY=1 in the other, where only the n8n cases differ.
 */
const N8N_CASES_ONLY =
	process.env.COMPANY_PAYMENTS_INSTALL_N8N_CASES_ONLY === '1' &&
	'no n8n runs here: CI runs this case once, in the n8n 2.8.4 lane';

describe('npm install in ~/.n8n/nodes adds the package alone', { skip: N8N_CASES_ONLY }, () => {
	// Node 20 runs the tests; 22 and 24 are the ones n8n 1.123.81 and 2.41.1 run on.
	for (const nodeVersion of ['system', PINNED_NODE[22], PINNED_NODE[24]]) {
		test(`on Node ${nodeVersion === 'system' ? process.version.slice(1) : nodeVersion}`, async () => {
			registry.tag(NAME, FIRST);
			const runtime = await ensureNode(nodeVersion);
			const user = userHome(`npm-node-${nodeVersion}`);
			const { ms } = await npmInNodes(['install', NAME], { ...user, node: runtime });
			assertAlone(user.nodesDir, FIRST);
			const asked = registry.requests.filter((r) => r.path.endsWith('.tgz')).map((r) => r.path);
			assert.ok(
				asked.some((p) => p.endsWith(`${NAME}-${FIRST}.tgz`)),
				'the tarball came from the local registry',
			);
			console.log(`# npm install on Node ${runtime.version}: ${ms} ms`);
		});
	}
});

test(
	'air-gapped: npm install <release tarball> --offline adds the package alone',
	{ skip: N8N_CASES_ONLY },
	async () => {
		const user = userHome('offline');
		const asked = registry.requests.length;
		const { ms } = await npmInNodes(['install', firstTarball, '--offline'], user);
		assertAlone(user.nodesDir, FIRST);
		assert.equal(registry.requests.length, asked, 'npm asked no registry');
		console.log(`# npm install <tarball> --offline: ${ms} ms`);
	},
);

describe(`Settings → Community Nodes on n8n ${N8N_VERSION}`, () => {
	let n8n;
	let user;
	let workflow;
	after(async () => n8n?.stop());

	test('installs by name from the default registry', async () => {
		registry.tag(NAME, FIRST);
		user = userHome('ui');
		n8n = await startN8n({ userFolder: user.home, env: proxyEnv(user.home) });
		const before = registry.requests.length;
		const installed = await n8n.rest('POST', '/community-packages', { name: NAME });
		// n8n's own version check (its HTTP client, through the proxy, trusting the CA) and npm's
		// download both reached the local registry as registry.npmjs.org
		const asked = registry.requests.slice(before);
		assert.ok(
			asked.some((r) => r.path === `/${NAME}/latest` && r.status === 200),
			JSON.stringify(asked),
		);
		assert.ok(asked.some((r) => r.path.endsWith(`/${NAME}-${FIRST}.tgz`) && r.status === 200));
		assert.ok(asked.every((r) => r.host === registry.host));
		assert.equal(installed.packageName, NAME);
		assert.equal(installed.installedVersion, FIRST);
		assert.equal(installed.authorName, AUTHOR.name, 'n8n shows the author the release set');
		assert.equal(installed.authorEmail, AUTHOR.email);
		assert.deepEqual(installed.installedNodes.map((n) => n.type).sort(), [...OUR_TYPES].sort());
		assertAlone(user.nodesDir, FIRST);
	});

	test('the nodes, the credential and the AI tool load; a workflow runs against the sandbox', async () => {
		await assertLoaded(n8n);
		workflow = await balanceWorkflow(n8n, 'ui');
		await assertBalanceRuns(n8n, workflow);
	});

	test('the update check shows the next version; the update installs it', async () => {
		registry.tag(NAME, NEXT);
		const [listed] = await n8n.rest('GET', '/community-packages');
		assert.equal(listed.updateAvailable, NEXT, JSON.stringify(listed));
		const updated = await n8n.rest('PATCH', '/community-packages', { name: NAME });
		assert.equal(updated.installedVersion, NEXT);
		assertAlone(user.nodesDir, NEXT);
		await assertLoaded(n8n);
		await assertBalanceRuns(n8n, workflow);
	});

	test('uninstall removes it and leaves n8n healthy', async () => {
		await n8n.deactivateWorkflow(workflow.id);
		await n8n.rest('DELETE', `/community-packages?name=${NAME}`);
		assert.deepEqual(installedPackages(user.nodesDir), []);
		assert.deepEqual(await n8n.rest('GET', '/community-packages'), []);
		await assertHealthyWithout(n8n);
	});
});

describe(`npm install in ~/.n8n/nodes, then n8n ${N8N_VERSION} (manual and Docker path)`, () => {
	let n8n;
	let user;
	let runtime;
	let workflow;
	after(async () => n8n?.stop());

	test('installs with npm; n8n loads it at start; a workflow runs against the sandbox', async () => {
		registry.tag(NAME, FIRST);
		runtime = (await ensureN8n()).node;
		user = userHome('manual');
		await npmInNodes(['install', NAME], { ...user, node: runtime });
		assertAlone(user.nodesDir, FIRST);
		n8n = await startN8n({ userFolder: user.home, env: proxyEnv(user.home) });
		await assertLoaded(n8n);
		workflow = await balanceWorkflow(n8n, 'manual');
		await assertBalanceRuns(n8n, workflow);
	});

	test('npm install <name>@latest and a restart update it; the workflow still runs', async () => {
		registry.tag(NAME, NEXT);
		await n8n.stop();
		await npmInNodes(['install', `${NAME}@latest`], { ...user, node: runtime });
		assertAlone(user.nodesDir, NEXT);
		n8n = await n8n.restart();
		await assertLoaded(n8n);
		await assertBalanceRuns(n8n, workflow);
	});

	test('npm uninstall and a restart leave n8n healthy without the nodes', async () => {
		await n8n.deactivateWorkflow(workflow.id);
		await n8n.stop();
		await npmInNodes(['uninstall', NAME], { ...user, node: runtime });
		assert.deepEqual(installedPackages(user.nodesDir), []);
		n8n = await n8n.restart();
		await assertHealthyWithout(n8n);
	});
});

describe(`the queue-mode companion beside the core, both ways, n8n ${N8N_VERSION}`, () => {
	let n8n;
	after(async () => n8n?.stop());

	test('Settings → Community Nodes: the core, then the companion, by name; both load', async () => {
		registry.tag(NAME, FIRST);
		const user = userHome('companion-ui');
		n8n = await startN8n({ userFolder: user.home, env: proxyEnv(user.home) });
		await n8n.rest('POST', '/community-packages', { name: NAME });
		const installed = await n8n.rest('POST', '/community-packages', { name: COMPANION });
		assert.equal(installed.installedVersion, FIRST, 'the companion at the core version');
		assert.deepEqual(
			installed.installedNodes.map((n) => n.type),
			[QUEUE_TRIGGER],
		);
		assert.deepEqual(installedPackages(user.nodesDir), [NAME, COMPANION].sort());
		const names = await typeNames(n8n);
		for (const type of [...OUR_TYPES, QUEUE_TRIGGER])
			assert.ok(names.has(type), `${type} is loaded`);
		await n8n.stop();
		n8n = undefined;
	});

	test('npm install of both in ~/.n8n/nodes; n8n loads both at start', async () => {
		registry.tag(NAME, FIRST);
		const runtime = (await ensureN8n()).node;
		const user = userHome('companion-manual');
		await npmInNodes(['install', NAME, COMPANION], { ...user, node: runtime });
		assert.deepEqual(installedPackages(user.nodesDir), [NAME, COMPANION].sort());
		n8n = await startN8n({ userFolder: user.home, env: proxyEnv(user.home) });
		const names = await typeNames(n8n);
		for (const type of [...OUR_TYPES, QUEUE_TRIGGER])
			assert.ok(names.has(type), `${type} is loaded`);
		const credentials = (await n8n.listCredentialTypes()).map((type) => type.name);
		assert.ok(credentials.includes(CREDENTIAL_TYPE) && credentials.includes('redis'));
	});
});
