/**
 * The queue-mode companion (companion/, n8n-nodes-company-payments-queue) in a real n8n, from
 * its packed files (what `npm pack` publishes, ioredis inside), the manual way
 * (`~/.n8n/nodes/node_modules`):
 *
 *   1. without the core package: what a user meets (the node loads; the credential type
 *      companyPaymentsApi is unknown; activating its workflow fails with n8n's message);
 *   2. with both packages: both load, the companion's node carries its own icons and names n8n's
 *      `redis` credential; the Redis credential test answers (a Redis of the test's own, then a
 *      closed port); a signed delivery to an active workflow runs once, a repeat of it does not.
 *
 *   npm run build && npm ci --prefix companion && npm run build --prefix companion
 *   node --test --test-concurrency=1 test/install/companion.test.mjs        # n8n 2.8.4
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';

import {
	createUserFolder,
	ensureN8n,
	freePort,
	importCredentials,
	installPackage,
	N8N_VERSION,
	PACKAGE_ROOT,
	startN8n,
	uuid,
	webhookIsRegistered,
	webhookProbePaths,
} from '../../harness/n8n.mjs';
import { createWorkflow } from '../../harness/queue.mjs';
import { startRedis } from '../../harness/services.mjs';
import { chain, credentialRef, lineNode } from '../../harness/workflows.mjs';
import { startSandbox } from '../../sandbox/server.mjs';

const COMPANION = path.join(PACKAGE_ROOT, 'companion');
const NAME = 'n8n-nodes-company-payments-queue';
const QUEUE_TRIGGER = `${NAME}.companyPaymentsQueueTrigger`;
const SECRET = `whsec_${'3d'.repeat(24)}`;

function queueWorkflow(webhookId, credentials) {
	const nodes = [
		lineNode(
			'Company Payments Trigger',
			QUEUE_TRIGGER,
			2,
			0,
			{ events: ['*'], routeByEvent: false, registerWebhook: false, options: {} },
			{ webhookId, credentials },
		),
		lineNode('No Operation', 'n8n-nodes-base.noOp', 1, 200, {}),
	];
	return {
		name: `companion ${webhookId}`,
		nodes,
		connections: chain(...nodes.map((n) => n.name)),
		settings: { executionOrder: 'v1' },
	};
}

/**
 * What a user is told when n8n refuses to activate `workflow`. n8n 2.8.4 refuses the activate call
 * itself. n8n 2.41 answers the call and publishes in the background: its publication service calls
 * the trigger's checkExists/create, records a refusal per trigger and shows it in the editor from
 * `GET /rest/workflows/:id/publication-status` (`status: 'failed'`, `triggers[].errorMessage`;
 * ActivationErrorsService, `GET /rest/active-workflows/error/:id`, is written there only when a
 * running trigger fails later). Waits (bounded) until that publication settles; a refused
 * workflow's webhooks must not answer afterwards. '' when n8n activated it.
 */
async function activationRefusal(n8n, workflow, { timeoutMs = 60_000 } = {}) {
	const id = await createWorkflow(n8n, workflow);
	let activated;
	try {
		activated = await n8n.api('POST', `/workflows/${id}/activate`);
	} catch (error) {
		return error.message;
	}
	const deadline = Date.now() + timeoutMs;
	let publication;
	for (;;) {
		publication = await n8n.rest('GET', `/workflows/${id}/publication-status`);
		if (['failed', 'partial', 'published'].includes(publication?.status)) break;
		if (Date.now() > deadline) {
			throw new Error(
				`workflow ${id}: the activate call answered, and its publication never settled: ${JSON.stringify(publication)}`,
			);
		}
		await sleep(100);
	}
	const refusal = (publication.triggers ?? [])
		.filter((trigger) => trigger.status === 'failed')
		.map((trigger) => trigger.errorMessage)
		.join('; ');
	if (refusal) {
		for (const webhookPath of webhookProbePaths(activated)) {
			assert.equal(
				await webhookIsRegistered(n8n.url, webhookPath),
				false,
				`the refused workflow's /webhook/${webhookPath} still answers`,
			);
		}
	}
	process.stderr.write(`[companion] publication of ${id}: ${JSON.stringify(publication)}\n`);
	return refusal;
}

before(async () => {
	await ensureN8n();
	assert.ok(
		fs.existsSync(
			path.join(COMPANION, 'dist/nodes/CompanyPaymentsQueueTrigger/CompanyPaymentsQueueTrigger.node.js'),
		),
		'build the companion first: npm ci --prefix companion && npm run build --prefix companion',
	);
});

describe(`the companion without the core package, n8n ${N8N_VERSION}`, () => {
	let folder;
	let n8n;
	let redis;

	before(async () => {
		folder = createUserFolder('n8n-cp-companion-alone-');
		installPackage(folder, COMPANION);
		redis = await startRedis({ dir: path.join(folder, 'redis'), appendonly: true });
		n8n = await startN8n({ userFolder: folder });
	});

	after(async () => {
		await n8n?.stop();
		await redis?.stop();
		if (folder) fs.rmSync(folder, { recursive: true, force: true });
	});

	test('its node loads, n8n knows no companyPaymentsApi credential, and activation is refused', async () => {
		const types = await n8n.listNodeTypes();
		const node = types.find((t) => t.name === QUEUE_TRIGGER);
		assert.ok(node, `${QUEUE_TRIGGER} loaded`);
		const credentialTypes = (await n8n.listCredentialTypes()).map((c) => c.name);
		assert.ok(!credentialTypes.includes('companyPaymentsApi'), 'no core credential type');
		assert.ok(credentialTypes.includes('redis'), "n8n's own redis credential type");
		const redisCredential = await n8n.rest('POST', '/credentials', {
			name: 'Redis',
			type: 'redis',
			data: { host: '127.0.0.1', port: redis.port, database: 0, password: '', ssl: false },
		});
		const workflow = queueWorkflow(uuid(), {
			redis: { id: redisCredential.id, name: redisCredential.name },
		});
		let refusal;
		try {
			await createWorkflow(n8n, workflow, { activate: true });
		} catch (error) {
			refusal = error.message;
		}
		assert.match(refusal ?? '', /companyPaymentsApi/, 'activation names the missing credential');
		process.stderr.write(`[companion] without the core package, activation: ${refusal}\n`);
	});
});

describe(`both packages, n8n ${N8N_VERSION}`, () => {
	let folder;
	let n8n;
	let redis;
	let sandbox;
	let credentials;

	before(async () => {
		folder = createUserFolder('n8n-cp-companion-both-');
		installPackage(folder);
		installPackage(folder, COMPANION);
		redis = await startRedis({ dir: path.join(folder, 'redis'), appendonly: true });
		sandbox = await startSandbox({ webhookSecret: SECRET });
		credentials = await importCredentials(folder, [
			{
				name: 'Sandbox owner',
				type: 'companyPaymentsApi',
				data: {
					environment: 'staging',
					baseUrl: sandbox.url,
					apiKey: sandbox.keys.owner,
					webhookSecret: SECRET,
				},
			},
			{
				name: 'Claims Redis',
				type: 'redis',
				data: { host: '127.0.0.1', port: redis.port, database: 0, password: '', ssl: false },
			},
		]);
		n8n = await startN8n({ userFolder: folder });
	});

	after(async () => {
		await n8n?.stop();
		await redis?.stop();
		await sandbox?.close();
		if (folder) fs.rmSync(folder, { recursive: true, force: true });
	});

	test("both load; the companion's node has its own icons and names n8n's redis credential", async () => {
		const types = await n8n.listNodeTypes();
		const node = types.find((t) => t.name === QUEUE_TRIGGER);
		assert.ok(node, `${QUEUE_TRIGGER} loaded`);
		assert.ok(types.some((t) => t.name === 'n8n-nodes-company-payments.companyPaymentsTrigger'));
		assert.deepEqual(
			node.credentials.map((c) => c.name),
			['companyPaymentsApi', 'redis'],
		);
		assert.match(JSON.stringify(node.iconUrl ?? node.icon), /companyPaymentsQueue/);
	});

	test('the Redis credential test answers: OK for the Redis, an error for a closed port', async () => {
		const [, redisCredential] = credentials;
		const test = async (port) =>
			await n8n.rest('POST', '/credentials/test', {
				credentials: {
					id: redisCredential.id,
					name: 'Claims Redis',
					type: 'redis',
					data: { host: '127.0.0.1', port, database: 0, password: '', ssl: false },
				},
			});
		const ok = await test(redis.port);
		assert.equal(ok.status, 'OK', JSON.stringify(ok));
		const closed = await test(await freePort());
		assert.equal(closed.status, 'Error', JSON.stringify(closed));
		// n8n runs one test per credential type: for its own `redis` type, n8n 2.8.4 runs its
		// Redis node's (PING), not the companion's. What the companion checks, activation says.
		process.stderr.write(`[companion] the Redis credential's Test: ${ok.message}\n`);
	});

	test('activation checks the Redis: a missing database is refused, naming it', async () => {
		const [owner] = credentials;
		const missingDb = await n8n.rest('POST', '/credentials', {
			name: 'Redis db 99',
			type: 'redis',
			data: { host: '127.0.0.1', port: redis.port, database: 99, password: '', ssl: false },
		});
		const refusal = await activationRefusal(
			n8n,
			queueWorkflow(uuid(), {
				...credentialRef(owner),
				redis: { id: missingDb.id, name: missingDb.name },
			}),
		);
		assert.match(refusal, /database 99 does not exist in this Redis/, refusal);
		process.stderr.write(`[companion] activation with database 99: ${refusal}\n`);
	});

	test('a signed delivery runs once; the same delivery again is answered as a duplicate', async () => {
		const [owner, redisCredential] = credentials;
		const webhookId = uuid();
		await createWorkflow(
			n8n,
			queueWorkflow(webhookId, {
				...credentialRef(owner),
				redis: { id: redisCredential.id, name: redisCredential.name },
			}),
			{ activate: true },
		);
		const body = JSON.stringify({ event: 'payout.status_changed', payoutId: 'po_c1', status: 'fail' });
		const deliveryId = `dlv_companion_${uuid()}`;
		const send = async () => {
			const res = await fetch(`${n8n.url}/webhook/${webhookId}/webhook`, {
				method: 'POST',
				headers: {
					'Content-Type': 'application/json',
					'X-Service-Signature': createHmac('sha256', SECRET).update(body).digest('hex'),
					'X-Service-Delivery-Id': deliveryId,
				},
				body,
			});
			return { status: res.status, json: await res.json() };
		};
		let first;
		for (let tries = 0; tries < 40; tries++) {
			first = await send();
			if (first.status !== 404) break;
			await sleep(250); // activation runs in the background: wait until the webhook answers
		}
		assert.deepEqual([first.status, first.json.executed], [200, true], JSON.stringify(first));
		const again = await send();
		assert.deepEqual([again.status, again.json.executed], [200, false], JSON.stringify(again));
	});
});
