/**
 * Exactly once across webhook processes with the companion package: its trigger (Company
 * Payments Trigger (Queue Mode), n8n-nodes-company-payments-queue, installed beside the core
 * package) claims each delivery ID in the Redis of n8n's own `redis` credential before it starts
 * an execution. Runs on every n8n named in COMPANY_PAYMENTS_QUEUE_CLAIM_VERSIONS (default 2.8.4
 * and 2.41.1), one lean deployment each, one after the other: Postgres, Redis, a main, one
 * worker, two `n8n webhook` processes behind the round-robin proxy, with n8n's environment access
 * in nodes blocked (N8N_BLOCK_ENV_ACCESS_IN_NODE=true, n8n 2.x's default). The claims live in a
 * Redis of their own (the credential's), which the cases freeze and restart while n8n's queue
 * Redis stays up. Every case counts the executions of each delivery in Postgres (rows of
 * execution_entity whose execution data carries the delivery ID), which includes executions
 * created but not finished.
 *
 * The last case is the recipe with n8n's own nodes only (docs/queue-mode.md, way b): the core
 * trigger, then the Redis node's Increment and an If, from examples/queue-mode-once-with-redis-node.json.
 * Executions may start twice there; the step after the If runs once per delivery.
 *
 * COMPANY_PAYMENTS_QUEUE_CLAIM_STORE=staticData runs the claim cases with the core trigger
 * (its workflow static data) instead of the companion: they must fail then.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { startSandbox } from '../../sandbox/server.mjs';
import { ensureN8n, uuid } from '../../harness/n8n.mjs';
import { createWorkflow, startQueueDeployment } from '../../harness/queue.mjs';
import { startRedis } from '../../harness/services.mjs';
import { chain, credentialRef, lineNode, NODE_TYPES } from '../../harness/workflows.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const COMPANION = path.join(ROOT, 'companion');
const QUEUE_TRIGGER = 'n8n-nodes-company-payments-queue.companyPaymentsQueueTrigger';

const SECRET = `whsec_${'5c'.repeat(24)}`;
const VERSIONS = (process.env.COMPANY_PAYMENTS_QUEUE_CLAIM_VERSIONS ?? '2.8.4,2.41.1')
	.split(',')
	.map((v) => v.trim())
	.filter(Boolean);
const CORE_ONLY = process.env.COMPANY_PAYMENTS_QUEUE_CLAIM_STORE === 'staticData';
const measured = {};

function triggerWorkflow(owner, redisCredential, webhookId) {
	const nodes = [
		lineNode(
			'Company Payments Trigger',
			CORE_ONLY ? NODE_TYPES.trigger : QUEUE_TRIGGER,
			2,
			0,
			{
				events: ['*'],
				routeByEvent: false,
				registerWebhook: false,
				// The claims' Redis here keeps nothing across a restart (the restart case).
				options: CORE_ONLY ? {} : { redisWithoutPersistence: true },
			},
			{
				webhookId,
				credentials: {
					...credentialRef(owner),
					...(CORE_ONLY ? {} : { redis: { id: redisCredential.id, name: redisCredential.name } }),
				},
			},
		),
		lineNode('No Operation', 'n8n-nodes-base.noOp', 1, 200, {}),
	];
	return {
		name: `claims ${webhookId}`,
		nodes,
		connections: chain(...nodes.map((n) => n.name)),
		settings: { executionOrder: 'v1' },
	};
}

/** The example of way b, with these credentials and webhook path. */
function recipeWorkflow(owner, redisCredential, webhookId) {
	const example = JSON.parse(
		fs.readFileSync(path.join(ROOT, 'examples/queue-mode-once-with-redis-node.json'), 'utf8'),
	);
	const nodes = example.nodes
		.filter((n) => n.type !== 'n8n-nodes-base.stickyNote')
		.map((n) => {
			const copy = structuredClone(n);
			if (copy.credentials?.companyPaymentsApi) copy.credentials = credentialRef(owner);
			if (copy.credentials?.redis) {
				copy.credentials = { redis: { id: redisCredential.id, name: redisCredential.name } };
			}
			if (copy.webhookId) copy.webhookId = webhookId;
			return copy;
		});
	return {
		name: `recipe ${webhookId}`,
		nodes,
		connections: example.connections,
		settings: { executionOrder: 'v1' },
	};
}

function signed(body, deliveryId) {
	return {
		'Content-Type': 'application/json',
		'X-Service-Signature': createHmac('sha256', SECRET).update(body).digest('hex'),
		'X-Service-Delivery-Id': deliveryId,
	};
}

function payoutBody(tag) {
	return JSON.stringify({
		event: 'payout.status_changed',
		payoutId: `po_${tag}`,
		status: 'fail',
		refunded: true,
	});
}

function psqlBinary() {
	for (const file of ['/usr/lib/postgresql/15/bin/psql', '/usr/local/bin/psql', '/usr/bin/psql']) {
		if (fs.existsSync(file)) return file;
	}
	throw new Error('psql not found');
}

for (const version of VERSIONS) {
	describe(`delivery claims in Redis, n8n ${version} in queue mode`, () => {
		let q;
		let sandbox;
		let workflowId;
		let webhookPath;
		// The Redis of the claims (the trigger's Redis credential), which the cases freeze and
		// restart while n8n's own queue Redis stays up.
		let claimsRedis;
		let claimsDir;
		let recipeWorkflowId;
		let recipePath;
		const m = (measured[version] = {});

		/** Executions per delivery ID of the trigger's workflow, read from Postgres. */
		function executionsInPostgres(deliveryIds, workflow = workflowId) {
			const sql = `SELECT substring(d.data from 'dlv_[A-Za-z0-9_-]+') AS id, count(*)
				FROM execution_entity e JOIN execution_data d ON d."executionId" = e.id
				WHERE e."workflowId" = '${workflow}' GROUP BY 1`;
			const out = execFileSync(
				psqlBinary(),
				['-h', '127.0.0.1', '-p', String(q.postgres.port), '-U', 'postgres', '-d', 'postgres'],
				{ input: `\\pset format unaligned\n\\pset tuples_only on\n${sql};\n`, encoding: 'utf8' },
			);
			const counts = Object.fromEntries(deliveryIds.map((id) => [id, 0]));
			for (const line of out.split('\n')) {
				const [id, n] = line.split('|');
				if (id in counts) counts[id] = Number(n);
			}
			return counts;
		}

		/** When n8n saved each execution of one delivery (ms since 1970, oldest first). */
		function executionTimes(deliveryId, workflow = workflowId) {
			const sql = `SELECT round(extract(epoch from e."createdAt") * 1000)
				FROM execution_entity e JOIN execution_data d ON d."executionId" = e.id
				WHERE e."workflowId" = '${workflow}' AND d.data LIKE '%${deliveryId}%' ORDER BY 1`;
			const out = execFileSync(
				psqlBinary(),
				['-h', '127.0.0.1', '-p', String(q.postgres.port), '-U', 'postgres', '-d', 'postgres'],
				{ input: `\\pset format unaligned\n\\pset tuples_only on\n${sql};\n`, encoding: 'utf8' },
			);
			return out
				.split('\n')
				.filter((line) => /^\d+$/.test(line.trim()))
				.map(Number);
		}

		/** Waits until the counts of these deliveries stop changing (and every expected one is there). */
		async function settledCounts(
			deliveryIds,
			{ atLeastOnce = deliveryIds, settleMs = 2_500, workflow = workflowId } = {},
		) {
			const deadline = Date.now() + 60_000;
			let last = '';
			let since = Date.now();
			for (;;) {
				const counts = executionsInPostgres(deliveryIds, workflow);
				const key = JSON.stringify(counts);
				if (key !== last) {
					last = key;
					since = Date.now();
				}
				const seen = atLeastOnce.every((id) => counts[id] >= 1);
				if ((seen && Date.now() - since >= settleMs) || Date.now() > deadline) return counts;
				await sleep(300);
			}
		}

		async function sendTo(
			index,
			deliveryId,
			{ body = payoutBody(deliveryId), to = webhookPath } = {},
		) {
			const started = Date.now();
			try {
				const res = await fetch(q.directUrl(index, `${to}/webhook`), {
					method: 'POST',
					headers: signed(body, deliveryId),
					body,
					signal: AbortSignal.timeout(20_000),
				});
				const text = await res.text();
				let json;
				try {
					json = JSON.parse(text);
				} catch {
					json = undefined;
				}
				return { status: res.status, json, text, ms: Date.now() - started };
			} catch (error) {
				return { status: 0, error: error.message, ms: Date.now() - started };
			}
		}

		async function control(method, urlPath, body) {
			const res = await fetch(`${sandbox.url}/__control${urlPath}`, {
				method,
				headers: { 'Content-Type': 'application/json' },
				body: body === undefined ? undefined : JSON.stringify(body),
			});
			const answer = await res.json();
			assert.ok(res.ok, `${method} ${urlPath}: ${res.status} ${JSON.stringify(answer)}`);
			return answer;
		}

		before(async () => {
			await ensureN8n({ version });
			assert.ok(
				fs.existsSync(
					path.join(
						COMPANION,
						'dist/nodes/CompanyPaymentsQueueTrigger/CompanyPaymentsQueueTrigger.node.js',
					),
				),
				'build both packages first: npm run build && npm run build --prefix companion',
			);
			// A loaded 2-core machine answers slowly at times: the service waits 15 s for an answer.
			sandbox = await startSandbox({ webhookSecret: SECRET, webhookTimeoutMs: 15_000 });
			claimsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-claims-redis-'));
			claimsRedis = await startRedis({ dir: path.join(claimsDir, 'redis') });
			const started = Date.now();
			q = await startQueueDeployment({
				version,
				workers: 1,
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
							port: claimsRedis.port,
							database: 0,
							password: '',
							ssl: false,
						},
					},
				],
				env: {
					// n8n exits when its Redis is gone longer than this; the restart case stays well under.
					QUEUE_BULL_REDIS_TIMEOUT_THRESHOLD: '60000',
					// n8n 2.x's default, set on 1.x too: nothing here reads the environment.
					N8N_BLOCK_ENV_ACCESS_IN_NODE: 'true',
				},
				log: (line) => process.stderr.write(`[claims ${version}] ${line}\n`),
			});
			webhookPath = uuid();
			recipePath = uuid();
			// The first call logs in; a loaded machine may still answer "Database is not ready!".
			for (let tries = 0; ; tries++) {
				try {
					await q.main.api('GET', '/workflows?limit=1');
					break;
				} catch (error) {
					if (tries >= 30 || !/\b503\b/.test(error.message)) throw error;
					await sleep(2_000);
				}
			}
			const [owner, redisCredential] = q.credentials;
			workflowId = await createWorkflow(
				q.main,
				triggerWorkflow(owner, redisCredential, webhookPath),
				{
					activate: true,
				},
			);
			recipeWorkflowId = await createWorkflow(
				q.main,
				recipeWorkflow(owner, redisCredential, recipePath),
				{ activate: true },
			);
			// Ready when both webhook processes serve both paths (a forged body: 401, nothing runs).
			for (const [index, served] of [
				[0, webhookPath],
				[1, webhookPath],
				[0, recipePath],
				[1, recipePath],
			]) {
				const deadline = Date.now() + 60_000;
				for (;;) {
					const res = await fetch(q.directUrl(index, `${served}/webhook`), {
						method: 'POST',
						headers: { 'Content-Type': 'application/json', 'X-Service-Signature': '0'.repeat(64) },
						body: '{}',
					});
					await res.body?.cancel();
					if (res.status === 401) break;
					assert.ok(Date.now() < deadline, `webhook-${index + 1} never served the trigger`);
					await sleep(300);
				}
			}
			// The claims Redis runs without persistence (the option accepts it), so a brand-new one
			// cannot be told from one that just restarted: its first 20 s answer 503 (docs/queue-mode.md,
			// the restart window). Ready when a signed probe delivery is answered 200 at each process.
			for (const index of [0, 1]) {
				const deadline = Date.now() + 60_000;
				for (;;) {
					const answer = await sendTo(index, `dlv_ready_${index}_${uuid()}`);
					if (answer.status === 200) break;
					assert.equal(answer.status, 503, JSON.stringify(answer));
					assert.ok(Date.now() < deadline, `webhook-${index + 1}: the restart window never ended`);
					await sleep(500);
				}
			}
			m.startMs = Date.now() - started;
		});

		after(async () => {
			// Which store each webhook process used, as it logged it once.
			m.storeLog = [];
			for (const role of q?.webhooks ?? []) {
				const lines = fs
					.readFileSync(role.logFile, 'utf8')
					.split('\n')
					.filter((line) => /Company Payments Trigger (claims|keeps|cannot)/.test(line))
					.map((line) => line.replace(/^.*?Company Payments Trigger/, ''));
				m.storeLog.push(`${role.name}:${[...new Set(lines)].join(' |')}`);
			}
			const stopped = q ? await q.stop() : undefined;
			await claimsRedis?.stop();
			if (claimsDir) fs.rmSync(claimsDir, { recursive: true, force: true });
			await sandbox?.close();
			if (stopped) m.stoppedPids = stopped.pids.length;
			process.stderr.write(`[claims ${version}] measured ${JSON.stringify(m)}\n`);
		});

		test('the same delivery at both webhook processes at the same instant starts one execution', async () => {
			const ids = [];
			const answers = [];
			for (let r = 0; r < 12; r++) {
				const id = `dlv_same_${r}_${uuid()}`;
				ids.push(id);
				answers.push(await Promise.all([sendTo(0, id), sendTo(1, id)]));
			}
			const counts = await settledCounts(ids);
			m.simultaneousDuplicates = {
				pairs: ids.length,
				executions: Object.values(counts).reduce((a, b) => a + b, 0),
			};
			for (const pair of answers) {
				assert.deepEqual(
					pair.map((a) => a.status),
					[200, 200],
					JSON.stringify(pair),
				);
				assert.deepEqual(
					pair.map((a) => a.json?.executed).sort(),
					[false, true],
					`one process runs it, the other answers it as a duplicate: ${JSON.stringify(pair.map((a) => a.text))}`,
				);
			}
			assert.deepEqual(counts, Object.fromEntries(ids.map((id) => [id, 1])));
		});

		test('different deliveries at the same instant, each then retried at the other process, run once each', async () => {
			const pairs = [];
			for (let r = 0; r < 8; r++) {
				const a = `dlv_pairA_${r}_${uuid()}`;
				const b = `dlv_pairB_${r}_${uuid()}`;
				const first = await Promise.all([sendTo(0, a), sendTo(1, b)]);
				pairs.push({ a, b, first });
			}
			await sleep(1_000); // the service's first retry comes 1 s after the first attempt
			const retries = [];
			for (const { a, b } of pairs) retries.push(await Promise.all([sendTo(1, a), sendTo(0, b)]));
			const ids = pairs.flatMap(({ a, b }) => [a, b]);
			const counts = await settledCounts(ids);
			m.crossedRetries = {
				deliveries: ids.length,
				executions: Object.values(counts).reduce((x, y) => x + y, 0),
			};
			for (const { first } of pairs) {
				assert.deepEqual(
					first.map((r) => [r.status, r.json?.executed]),
					[
						[200, true],
						[200, true],
					],
				);
			}
			for (const pair of retries) {
				assert.deepEqual(
					pair.map((r) => [r.status, r.json?.executed]),
					[
						[200, false],
						[200, false],
					],
					'each retry at the other process is answered as a duplicate',
				);
			}
			assert.deepEqual(counts, Object.fromEntries(ids.map((id) => [id, 1])));
		});

		test('Redis not answering: 503 within the claim timeout, nothing runs; sent again later, each runs once', async () => {
			const ids = [0, 1, 2, 3].map((i) => `dlv_frozen_${i}_${uuid()}`);
			process.kill(claimsRedis.pid, 'SIGSTOP'); // keeps its connections open, answers nothing
			let frozen;
			try {
				frozen = await Promise.all(ids.map((id, i) => sendTo(i % 2, id)));
			} finally {
				process.kill(claimsRedis.pid, 'SIGCONT');
			}
			m.redisFrozen = { answers: frozen.map((a) => `${a.status} in ${a.ms} ms`) };
			for (const answer of frozen) {
				assert.equal(answer.status, 503, JSON.stringify(answer));
				assert.ok(answer.ms < 10_000, `answered in ${answer.ms} ms`);
			}
			await sleep(3_000);
			assert.deepEqual(
				executionsInPostgres(ids),
				Object.fromEntries(ids.map((id) => [id, 0])),
				'nothing ran while Redis did not answer',
			);
			// The service retries (its last attempt comes 7 s after the first): Redis answers
			// again, each delivery runs once, at whichever process the retry lands.
			await sleep(1_000);
			const again = [];
			for (const [i, id] of ids.entries()) again.push(await sendTo((i + 1) % 2, id));
			m.redisFrozen.retries = again.map((a) => `${a.status} ${a.json?.executed}`);
			for (const answer of again) assert.equal(answer.json?.executed, true, answer.text);
			const counts = await settledCounts(ids);
			assert.deepEqual(counts, Object.fromEntries(ids.map((id) => [id, 1])));
		});

		test('Redis restarts (no persistence) mid-stream: deliveries already run are not run again by retries at either process; those sent across it run once or nowhere', async () => {
			const before = [];
			for (let i = 0; i < 8; i++) {
				const id = `dlv_restart_${i}_${uuid()}`;
				before.push({ id, answer: await sendTo(i % 2, id) });
			}
			for (const { answer } of before) assert.equal(answer.json?.executed, true, answer.text);
			const restartStarted = Date.now();
			// Deliveries through the service (with its retries) while Redis goes away and comes back.
			const during = [];
			const sending = (async () => {
				for (let i = 0; i < 8; i++) {
					const id = `dlv_during_${i}_${uuid()}`;
					during.push(id);
					await control('POST', '/webhooks/send', {
						event: 'deposit.completed',
						payload: { depositId: `dep_${i}`, amount: 5, status: 'completed' },
						deliveryId: id,
						url: q.webhookUrl(`${webhookPath}/webhook`),
					});
					await sleep(150);
				}
			})();
			// The claims' Redis goes away and comes back empty on the same port.
			const port = claimsRedis.port;
			await claimsRedis.stop();
			claimsRedis = await startRedis({ dir: path.join(claimsDir, 'redis'), port });
			m.redisRestartMs = Date.now() - restartStarted;
			await sending;
			// Retries of the deliveries run before the restart reach both processes (their answers
			// were lost, say): the store is empty now.
			await sleep(500);
			const replays = [];
			for (const { id } of before) replays.push(await Promise.all([sendTo(0, id), sendTo(1, id)]));
			await sandbox.webhooksIdle();
			const ids = [...before.map((b) => b.id), ...during];
			const deliveries = await Promise.all(during.map((id) => control('GET', `/deliveries/${id}`)));
			const delivered = during.filter((_, i) => deliveries[i].state === 'delivered');
			const counts = await settledCounts(ids, {
				atLeastOnce: [...before.map((b) => b.id), ...delivered],
			});
			m.redisRestart = {
				before: before.length,
				during: during.length,
				attemptsDuring: deliveries.map((d) => d.attempts.map((a) => a.status).join('/')),
				replayAnswers: replays.map((pair) =>
					pair.map((a) => a.status + (a.json?.executed ? '+' : '-')).join(' '),
				),
				executions: Object.values(counts).reduce((a, b) => a + b, 0),
				ranTwice: Object.entries(counts).filter(([, n]) => n > 1).length,
			};
			// Sent across the restart: delivered and run once, or (inside the 20 s restart window)
			// 503 at every attempt, failed at the service and run nowhere.
			for (const [i, d] of deliveries.entries()) {
				const twoXX = d.attempts.filter((a) => a.status >= 200 && a.status < 300).length;
				const ran = counts[during[i]] ?? 0;
				if (d.state === 'delivered') assert.equal(ran, 1, JSON.stringify(d.attempts));
				else assert.deepEqual([d.state, ran, twoXX], ['failed', 0, 0], JSON.stringify(d));
			}
			for (const { id } of before) assert.equal(counts[id], 1, id);
			for (const pair of replays)
				for (const a of pair) assert.notEqual(a.json?.executed, true, a.text);
		});

		test("way b, n8n's nodes only: the same delivery at both processes at once may start twice, the step after the If runs once", async () => {
			const ids = [];
			for (let r = 0; r < 12; r++) {
				const id = `dlv_recipe_${r}_${uuid()}`;
				ids.push(id);
				const pair = await Promise.all([
					sendTo(0, id, { to: recipePath }),
					sendTo(1, id, { to: recipePath }),
				]);
				for (const answer of pair) assert.equal(answer.status, 200, answer.text);
			}
			const executions = await settledCounts(ids, { workflow: recipeWorkflowId });
			// Executions whose "Handle each change once" ran: its output carries `once:<delivery ID>`.
			const handledNow = () => {
				const handled = Object.fromEntries(ids.map((id) => [id, 0]));
				const sql = `SELECT substring(d.data from 'once:(dlv_[A-Za-z0-9_-]+)') AS id, count(*)
					FROM execution_entity e JOIN execution_data d ON d."executionId" = e.id
					WHERE e."workflowId" = '${recipeWorkflowId}' AND d.data LIKE '%once:dlv_recipe_%' GROUP BY 1`;
				const out = execFileSync(
					psqlBinary(),
					['-h', '127.0.0.1', '-p', String(q.postgres.port), '-U', 'postgres', '-d', 'postgres'],
					{ input: `\\pset format unaligned\n\\pset tuples_only on\n${sql};\n`, encoding: 'utf8' },
				);
				for (const line of out.split('\n')) {
					const [id, n] = line.split('|');
					if (id in handled) handled[id] = Number(n);
				}
				return handled;
			};
			// The executions exist before the workers finish them: wait until every delivery was
			// handled and the counts stay the same for 2.5 s (or 90 s passed).
			let handled = handledNow();
			let last = JSON.stringify(handled);
			let since = Date.now();
			const deadline = Date.now() + 90_000;
			while (Date.now() < deadline) {
				const done = Object.values(handled).every((n) => n >= 1);
				if (done && Date.now() - since >= 2_500) break;
				await sleep(300);
				handled = handledNow();
				const key = JSON.stringify(handled);
				if (key !== last) {
					last = key;
					since = Date.now();
				}
			}
			m.recipeB = {
				pairs: ids.length,
				executions: Object.values(executions).reduce((a, b) => a + b, 0),
				handled: Object.values(handled).reduce((a, b) => a + b, 0),
			};
			assert.deepEqual(handled, Object.fromEntries(ids.map((id) => [id, 1])));
		});

		// Strict since issue 51: the trigger leaves its 200 to n8n, which answers only once the
		// execution is saved and queued (n8n 2.x), and holds its claim (`c:`, extended) until then.
		// A process killed before its answer leaves a `c:` that ends within 6 s: the service's retry
		// runs the delivery elsewhere. Before, the trigger answered 200 itself and promoted at once:
		// a kill between that answer and n8n's execution lost the delivery (0 executions, a 200 at
		// the service, and every retry a duplicate).
		test('a webhook process killed (SIGKILL) mid-stream: every delivery runs exactly once, one cut in flight too (after its retry)', async () => {
			const ids = [];
			const send = async (i) => {
				const id = `dlv_kill_${i}_${uuid()}`;
				ids.push(id);
				await control('POST', '/webhooks/send', {
					event: 'deposit.completed',
					payload: { depositId: `dep_kill_${i}`, amount: 10 + i, status: 'completed' },
					deliveryId: id,
					url: q.webhookUrl(`${webhookPath}/webhook`),
				});
			};
			let i = 0;
			for (; i < 8; i++) {
				await send(i);
				await sleep(60);
			}
			const killed = q.webhooks[0];
			let killedAt = Infinity;
			const killing = killed.kill().then(() => {
				killedAt = Date.now();
			});
			for (; i < 16; i++) {
				await send(i);
				await sleep(60);
			}
			await killing;
			const restarting = q.restartWebhook(0);
			for (; i < 22; i++) {
				await send(i);
				await sleep(60);
			}
			await restarting;
			for (; i < 26; i++) await send(i);
			await sandbox.webhooksIdle();
			const deliveries = await Promise.all(ids.map((id) => control('GET', `/deliveries/${id}`)));
			const undelivered = deliveries
				.filter((d) => d.state !== 'delivered')
				.map((d) => ({
					id: d.id ?? d.deliveryId,
					attempts: d.attempts.map((a) => `${a.status} ${a.at}`),
					proxy: q.proxy.log
						.filter((e) => e.deliveryId === (d.id ?? d.deliveryId))
						.map((e) => `${e.target} ${e.status} ${e.error ?? ''} ${(e.body ?? '').slice(0, 120)}`),
				}));
			// The service's view depends on answer times too (its timeout): recorded, and judged by
			// what ran below. Seen on 2.41.1 at a load average of 20: answers (200, the claims right)
			// that took longer than the sandbox waits, so it marked four deliveries failed.
			m.webhookKilledUndelivered = undelivered;
			const cut = new Set(
				q.proxy.log
					.filter((e) => e.target === killed.name && e.status === 502 && e.error !== 'ECONNREFUSED')
					.map((e) => e.deliveryId),
			);
			// Recorded, not excused: deliveries the killed process answered 2xx before its SIGKILL.
			// With the held claim n8n answers only once the execution is queued, so each of them
			// must have run (before issue 51's held claim, these could be missing).
			const answeredThenKilled = new Set(
				q.proxy.log
					.filter(
						(e) =>
							e.target === killed.name && e.status >= 200 && e.status < 300 && e.at <= killedAt,
					)
					.map((e) => e.deliveryId),
			);
			const counts = await settledCounts(ids);
			m.webhookKilled = {
				deliveries: ids.length,
				cutInFlight: cut.size,
				answeredThenKilled: answeredThenKilled.size,
				executions: Object.values(counts).reduce((a, b) => a + b, 0),
				missing: Object.entries(counts)
					.filter(([, n]) => n === 0)
					.map(([id]) => id),
				// What the service saw of each delivery cut in flight: its attempts, in order.
				cutAttempts: [...cut].map((id) =>
					(deliveries.find((d) => (d.id ?? d.deliveryId) === id)?.attempts ?? [])
						.map((a) => a.status)
						.join('/'),
				),
			};
			const seenBy = (id) =>
				JSON.stringify({
					proxy: q.proxy.log
						.filter((e) => e.deliveryId === id)
						.map(
							(e) =>
								`${e.at} ${e.target} ${e.status} ${e.error ?? ''} ${(e.body ?? '').slice(0, 300)}`,
						),
					attempts: deliveries.find((d) => (d.id ?? d.deliveryId) === id)?.attempts,
					logs: [...q.webhooks, ...q.workers].map(
						(w) =>
							`${w.name}: ${w
								.logText()
								.split('\n')
								.filter((l) => l.includes(id) || /error|fail|warn|problem|crash/i.test(l))
								.slice(-15)
								.join(' | ')}`,
					),
				});
			// Whatever the service's last answer was (2xx `executed: true` or `false`, or a give-up
			// after timeouts), each delivery has exactly one execution: none lost, none twice.
			// One residual window is documented (docs/queue-mode.md): a process killed after n8n saved
			// the execution and before it wrote its answer; the service's retry runs it again. A
			// delivery cut in flight may run twice only there: the killed process answered nothing 2xx,
			// and n8n had saved the first execution before the kill ended the process. Counted, and
			// nothing else is excused (seen once in CI on 2.41.1: 5 cut in flight, 1 in the window).
			m.webhookKilled.inSavedWindow = [];
			// How many executions n8n saved of each delivery cut in flight (the query above, run each time).
			m.webhookKilled.cutSaved = [...cut].map((id) => executionTimes(id).length);
			for (const [id, n] of Object.entries(counts)) {
				const how = cut.has(id) ? ' (cut in flight at the kill)' : '';
				if (n === 2 && cut.has(id) && !answeredThenKilled.has(id)) {
					const times = executionTimes(id);
					if (times.length === 2 && times[0] <= killedAt) {
						m.webhookKilled.inSavedWindow.push({ id, savedBeforeKillMs: killedAt - times[0] });
						continue;
					}
				}
				assert.equal(n, 1, `${id}${how} ran ${n} times: ${seenBy(id)}`);
			}
		});
	});
}
