/**
 * The companion's owed-write watcher reads the Redis credential again through the context of a
 * webhook call that has long returned (redisStore's watchOwed): does that work in real n8n, and
 * does it give the credential as it is now? n8n 2.8.4 in queue mode (one webhook process), with
 * the claims in a Redis of this test's own whose ACL user has a password:
 *
 * 1. a warm delivery answers 200 (the trigger's client is connected);
 * 2. Redis pauses writes (CLIENT PAUSE WRITE): the next delivery's claim gets no answer, so it is
 *    answered 503 and owes the release of what it may have written; the call returns;
 * 3. the password is rotated and every connection of the user killed (its reconnects with the old
 *    password are refused), the credential is updated through n8n's REST API, Redis unpaused;
 * 4. no delivery is sent after that. A connection authenticated as the user appears only if the
 *    watcher read the credential (with the new password) through the returned call's context.
 *
 * COMPANY_PAYMENTS_QUEUE_REREAD_VERSION picks another n8n (default 2.8.4).
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { startSandbox } from '../../sandbox/server.mjs';
import { ensureN8n, uuid } from '../../harness/n8n.mjs';
import { createWorkflow, startQueueDeployment } from '../../harness/queue.mjs';
import { startRedis } from '../../harness/services.mjs';
import { chain, credentialRef, lineNode } from '../../harness/workflows.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const COMPANION = path.join(ROOT, 'companion');
const QUEUE_TRIGGER = 'n8n-nodes-company-payments-queue.companyPaymentsQueueTrigger';
const VERSION = process.env.COMPANY_PAYMENTS_QUEUE_REREAD_VERSION ?? '2.8.4';
const SECRET = `whsec_${'3d'.repeat(24)}`;
const USER = 'claims';
const require = createRequire(import.meta.url);

/** One command on a fresh admin connection (the default user, open). */
async function redisCommand(port, ...args) {
	const { default: Redis } = require(path.join(COMPANION, 'node_modules/ioredis/built/index.js'));
	const client = new Redis({ host: '127.0.0.1', port, lazyConnect: true });
	client.on('error', () => undefined);
	try {
		await client.connect();
		return await client.call(...args);
	} finally {
		client.disconnect();
	}
}

async function until(what, condition, ms = 60_000) {
	const deadline = Date.now() + ms;
	for (;;) {
		const value = await condition();
		if (value) return value;
		assert.ok(Date.now() < deadline, `never: ${what}`);
		await sleep(200);
	}
}

describe(`the owed-write watcher re-reads the credential through a returned call, n8n ${VERSION}`, () => {
	let q;
	let sandbox;
	let redis;
	let dir;
	let webhookPath;
	let redisCredential;

	async function deliver(deliveryId) {
		const body = JSON.stringify({ event: 'payout.status_changed', payoutId: `po_${deliveryId}` });
		const res = await fetch(q.directUrl(0, `${webhookPath}/webhook`), {
			method: 'POST',
			headers: {
				'Content-Type': 'application/json',
				'X-Service-Signature': createHmac('sha256', SECRET).update(body).digest('hex'),
				'X-Service-Delivery-Id': deliveryId,
			},
			body,
			signal: AbortSignal.timeout(30_000),
		});
		return { status: res.status, text: await res.text() };
	}

	/** Connections authenticated as the claims user. */
	async function userConnections() {
		const list = String(await redisCommand(redis.port, 'CLIENT', 'LIST'));
		return list.split('\n').filter((line) => line.includes(` user=${USER} `)).length;
	}

	before(async () => {
		await ensureN8n({ version: VERSION });
		assert.ok(
			fs.existsSync(path.join(COMPANION, 'dist/nodes/CompanyPaymentsQueueTrigger')),
			'build the companion first: npm run build --prefix companion',
		);
		sandbox = await startSandbox({ webhookSecret: SECRET, webhookTimeoutMs: 15_000 });
		dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-reread-'));
		redis = await startRedis({ dir: path.join(dir, 'redis'), appendonly: true });
		await redisCommand(redis.port, 'ACL', 'SETUSER', USER, 'on', '>old', '~*', '&*', '+@all');
		q = await startQueueDeployment({
			version: VERSION,
			workers: 1,
			webhookProcesses: 1,
			packages: [COMPANION],
			credentials: [
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
					data: {
						host: '127.0.0.1',
						port: redis.port,
						database: 0,
						user: USER,
						password: 'old',
						ssl: false,
					},
				},
			],
			env: { N8N_BLOCK_ENV_ACCESS_IN_NODE: 'true' },
			log: (line) => process.stderr.write(`[reread ${VERSION}] ${line}\n`),
		});
		for (let tries = 0; ; tries++) {
			try {
				await q.main.api('GET', '/workflows?limit=1');
				break;
			} catch (error) {
				if (tries >= 30 || !/\b503\b/.test(error.message)) throw error;
				await sleep(2_000);
			}
		}
		const [owner, credential] = q.credentials;
		redisCredential = credential;
		webhookPath = uuid();
		const nodes = [
			lineNode(
				'Company Payments Trigger',
				QUEUE_TRIGGER,
				2,
				0,
				{ events: ['*'], routeByEvent: false, registerWebhook: false, options: {} },
				{
					webhookId: webhookPath,
					credentials: {
						...credentialRef(owner),
						redis: { id: credential.id, name: credential.name },
					},
				},
			),
			lineNode('No Operation', 'n8n-nodes-base.noOp', 1, 200, {}),
		];
		await createWorkflow(
			q.main,
			{
				name: `reread ${webhookPath}`,
				nodes,
				connections: chain(...nodes.map((n) => n.name)),
				settings: { executionOrder: 'v1' },
			},
			{ activate: true },
		);
	});

	after(async () => {
		try {
			await redisCommand(redis.port, 'CLIENT', 'UNPAUSE');
		} catch {
			// Redis already gone.
		}
		await q?.stop();
		await sandbox?.close();
		await redis?.stop();
		if (dir) fs.rmSync(dir, { recursive: true, force: true });
	});

	test('a rotated password: the watcher of a call answered 503 long before reads the updated credential and connects with it, with no delivery after the update', async () => {
		await until('a warm delivery answered 200', async () => {
			const answer = await deliver(`dlv_warm_${uuid()}`);
			return answer.status === 200;
		});
		await redisCommand(redis.port, 'CLIENT', 'PAUSE', '600000', 'WRITE');
		const owed = await deliver(`dlv_owed_${uuid()}`);
		assert.equal(owed.status, 503, owed.text);
		// The call has returned. The password is rotated and the user's connections killed.
		await redisCommand(redis.port, 'ACL', 'SETUSER', USER, 'resetpass', '>new');
		await redisCommand(redis.port, 'CLIENT', 'KILL', 'USER', USER);
		assert.equal(await userConnections(), 0);
		// The operator updates n8n's Redis credential (the editor's call).
		await q.main.rest('PATCH', `/credentials/${redisCredential.id}`, {
			name: redisCredential.name,
			type: 'redis',
			data: {
				host: '127.0.0.1',
				port: redis.port,
				database: 0,
				user: USER,
				password: 'new',
				ssl: false,
			},
		});
		await redisCommand(redis.port, 'CLIENT', 'UNPAUSE');
		// No delivery from here on: only the watcher can make a client of the new password.
		await until('a connection authenticated with the new password', async () => {
			return (await userConnections()) > 0;
		});
	});
});
