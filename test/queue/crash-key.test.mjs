/**
 * A worker SIGKILLed in the middle of a money write (issue 44, item 3), in queue mode on the
 * n8n of the suite (2.8.4): Postgres, Redis, a main, two workers, one webhook process. The
 * workflow is Webhook → Payout Create with no Idempotency Key set, so the node sends the key it
 * derives (nodes/shared/money/key.ts: instance, workflow, execution, node, run, item). The sandbox
 * honours keys (its default). The payout request is held by the sandbox (latencyMs on /payouts);
 * once the sandbox has received it (a recording relay in front of the sandbox logs every request
 * as it arrives), the worker running the execution is SIGKILLed.
 *
 * Bull's lock and stalled check are made short through the deployment's env, so whatever n8n
 * does with the dead worker's job happens within seconds. The case waits for either outcome
 * (conditions, not sleeps):
 * - another worker runs the job again: its POST /payouts must carry the same Idempotency-Key, and
 *   the sandbox must hold exactly one payout;
 * - n8n does not run it again. This is what n8n 2.8.4 does (and 2.41.1's code): the queue is
 *   created with `maxStalledCount: 0` (scaling.service.js, not a setting), so the other worker's
 *   stalled check fails the job, and the webhook process that enqueued it saves the execution
 *   as `error`, "This execution failed to be processed too many times" (MaxStalledCountError,
 *   workflow-runner.js), with no node output saved. A Retry of it (n8n's own way to run it
 *   again) is a new execution that runs no node. The case asserts exactly that: one
 *   POST /payouts, one payout, before and after the Retry.
 * On 2.8.4 the key is therefore never sent twice for one execution after a crash, and this case
 * cannot see a key that changes between runs (see the report of issue 44 item 3).
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, test } from 'node:test';

import { startSandbox } from '../../sandbox/server.mjs';
import { uuid } from '../../harness/n8n.mjs';
import { createWorkflow, startQueueDeployment } from '../../harness/queue.mjs';
import { waitUntil } from '../../harness/services.mjs';
import { e2eStack, sandboxControl, sandboxCredential } from '../../harness/stack.mjs';
import {
	chain,
	credentialRef,
	lineNode,
	NODE_TYPES,
	webhookNode,
} from '../../harness/workflows.mjs';

const stack = e2eStack('queue-crash');
let sandbox;
let relay;
let queue;
let workflowId;
let webhookPath;

/**
 * An HTTP relay on 127.0.0.1 in front of the sandbox: logs each request (method, path,
 * Idempotency-Key) when it arrives, then passes it on. The log is what the case waits on.
 */
async function startRelay(target) {
	const log = [];
	const server = http.createServer((req, res) => {
		log.push({
			method: req.method,
			path: new URL(req.url, 'http://relay.invalid').pathname,
			idempotencyKey: req.headers['idempotency-key'] ?? null,
			at: Date.now(),
		});
		const upstream = http.request(
			`${target}${req.url}`,
			{ method: req.method, headers: req.headers },
			(answer) => {
				res.writeHead(answer.statusCode, answer.headers);
				answer.pipe(res);
			},
		);
		upstream.on('error', () => res.destroy());
		// The caller died (the SIGKILLed worker): the sandbox still gets the whole request and
		// makes the payout, as a service does when the client's connection breaks.
		res.on('error', () => {});
		req.pipe(upstream);
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${server.address().port}`,
		log,
		close: () =>
			new Promise((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}

before(async () => {
	await stack.prepare();
	sandbox = await stack.service(startSandbox());
	relay = await stack.service(startRelay(sandbox.url));
	queue = await stack.service(
		startQueueDeployment({
			workers: 2,
			webhookProcesses: 1,
			credentials: [sandboxCredential({ url: relay.url, keys: sandbox.keys })],
			env: {
				// Bull (n8n's queue.bull.settings): the dead worker's lock lapses within 4 s and the
				// other worker looks for stalled jobs every 2 s.
				QUEUE_WORKER_LOCK_DURATION: '4000',
				QUEUE_WORKER_LOCK_RENEW_TIME: '2000',
				QUEUE_WORKER_STALLED_INTERVAL: '2000',
			},
			log: (line) => process.stderr.write(`[queue-host] ${line}\n`),
		}),
	);
	const [owner] = queue.credentials;
	webhookPath = uuid();
	const nodes = [
		webhookNode(webhookPath, { responseMode: 'onReceived' }),
		lineNode(
			'Payout',
			NODE_TYPES.action,
			1,
			200,
			{
				resource: 'payout',
				operation: 'create',
				amountRub: 1000,
				requisiteType: 'card',
				requisite: '2200700012345678',
			},
			{ credentials: credentialRef(owner) },
		),
	];
	workflowId = await createWorkflow(
		queue.main,
		{ name: 'crash key', nodes, connections: chain('Webhook', 'Payout') },
		{ activate: true },
	);
});

after(() => stack.stop());

test('a worker SIGKILLed during Payout Create: one payout; a re-run, if n8n made one, sends the same Idempotency-Key', async (t) => {
	const payoutPosts = () => relay.log.filter((r) => r.method === 'POST' && r.path === '/payouts');
	const payoutsBefore = sandbox.state.payouts.size;
	await sandboxControl(sandbox, 'POST', '/faults', { pathPrefix: '/payouts', latencyMs: 3000 });

	const started = Date.now();
	const res = await fetch(queue.webhookUrl(webhookPath), {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: '{}',
	});
	await res.body?.cancel();
	assert.equal(res.status, 200);

	// The sandbox has the payout request (still held by its latency): the money write is in flight.
	await waitUntil(() => payoutPosts().length >= 1, {
		timeoutMs: 30_000,
		what: 'the sandbox receives POST /payouts',
	});
	const [first] = payoutPosts();
	assert.ok(first.idempotencyKey, 'the first POST /payouts carries an Idempotency-Key');
	const ranBy = await waitUntil(() => Object.values(queue.executionsByProcess()).find(Boolean), {
		timeoutMs: 10_000,
		what: 'a worker logs the execution',
	});
	assert.ok(!ranBy.includes(','), `one worker started the execution (${ranBy})`);
	const victim = queue.workers.find((w) => w.name === ranBy);
	await victim.kill();
	const killedAt = Date.now();

	// The held request is processed after its latency, with nobody left to read the answer.
	await waitUntil(() => sandbox.state.payouts.size > payoutsBefore, {
		timeoutMs: 15_000,
		what: 'the sandbox makes the payout of the first request',
	});

	// Either another worker runs the job again, or n8n settles the execution without a re-run.
	const settled = (e) => ['crashed', 'error', 'success', 'canceled'].includes(e.status);
	const outcome = await waitUntil(
		async () => {
			if (payoutPosts().length >= 2) return { rerun: true };
			const executions = await queue.main.getExecutions({ workflowId, includeData: false });
			const done = executions.find(settled);
			return done ? { rerun: false, execution: done } : undefined;
		},
		{ timeoutMs: 45_000, what: 'a re-run of the job, or the execution settled' },
	);

	const measured = {
		killedAfterMs: killedAt - started,
		settledAfterKillMs: Date.now() - killedAt,
		rerun: outcome.rerun,
	};
	if (outcome.rerun) {
		const [, second] = payoutPosts();
		assert.equal(second.idempotencyKey, first.idempotencyKey, 'the re-run sends the same key');
		await waitUntil(
			async () => {
				const executions = await queue.main.getExecutions({ workflowId, includeData: false });
				return executions.some(settled);
			},
			{ timeoutMs: 30_000, what: 'the re-run finishes' },
		);
		assert.equal(sandbox.state.payouts.size - payoutsBefore, 1, 'exactly one payout for the item');
		t.diagnostic(`measured ${JSON.stringify(measured)}`);
		return;
	}

	// n8n 2.8.4 does not run the job again: Bull's maxStalledCount is 0 (scaling.service.js, not
	// a setting), so the stalled job fails and the process that enqueued it saves the execution as
	// an error (MaxStalledCountError, workflow-runner.js). No second POST /payouts was sent.
	assert.equal(sandbox.state.payouts.size - payoutsBefore, 1, 'exactly one payout for the item');
	const crashed = outcome.execution;
	assert.equal(crashed.status, 'error');
	const [withData] = await queue.main.getExecutions({ workflowId, includeData: true });
	assert.match(
		withData.data?.resultData?.error?.message ?? '',
		/failed to be processed too many times/,
		'n8n names the stalled job as the cause',
	);
	assert.equal(payoutPosts().length, 1, 'nobody ran the job again');
	assert.deepEqual(
		Object.values(queue.executionsByProcess()),
		[ranBy],
		'no other worker started the execution',
	);

	// n8n's own way to run it again is a Retry (public API POST /executions/{id}/retry). The
	// crashed run saved nothing (no node's output, not even the Webhook's), so the Retry is a new
	// execution (retryOf the crashed one) that runs no node and ends with the same error: nothing
	// is sent again, by any key.
	await sandboxControl(sandbox, 'POST', '/faults', {});
	await queue.main.api('POST', `/executions/${crashed.id}/retry`, {});
	const retryRun = await waitUntil(
		async () => {
			const executions = await queue.main.getExecutions({ workflowId, includeData: true });
			return executions.find((e) => e.id !== crashed.id && settled(e));
		},
		{ timeoutMs: 30_000, what: 'the retry execution settles' },
	);
	assert.equal(retryRun.mode, 'retry');
	assert.equal(String(retryRun.retryOf), String(crashed.id));
	assert.equal(retryRun.status, 'error');
	assert.deepEqual(withData.data.resultData.runData, {}, 'the crashed run saved no node output');
	assert.deepEqual(retryRun.data.resultData.runData, {}, 'the retry runs no node');
	assert.equal(payoutPosts().length, 1, 'the retry sends no POST /payouts');
	assert.equal(sandbox.state.payouts.size - payoutsBefore, 1, 'still exactly one payout');
	measured.retry = { id: retryRun.id, retryOf: retryRun.retryOf, status: retryRun.status };
	t.diagnostic(`measured ${JSON.stringify(measured)}; key ${first.idempotencyKey}`);
});
