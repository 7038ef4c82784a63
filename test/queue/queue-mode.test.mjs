/**
 * The package in n8n's queue mode (n8n 2.8.4, Node 20): Postgres, Redis, one main, two workers,
 * two `n8n webhook` processes behind a round-robin proxy (the load balancer), fed by the sandbox
 * over loopback. One deployment serves the whole file (starting it is most of the time).
 *
 * Actions run on a worker and return what a single-process n8n returns for the same workflow
 * against an identically seeded sandbox. The trigger's webhook() runs in whichever webhook
 * process the proxy picks. The core trigger keeps delivery IDs in the workflow's static data; the
 * cases of duplicates at both processes at once run the queue-mode companion's trigger
 * (companion/), which claims each delivery in the Redis of its `redis` credential
 * (test/queue/claims.test.mjs covers the claim on 2.8.4 and 2.41.1). Figures measured here are printed as test diagnostics (`# measured …`) and quoted
 * in docs/queue-mode.md.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';

import { startSandbox } from '../../sandbox/server.mjs';
import { uuid } from '../../harness/n8n.mjs';
import {
	createWorkflow,
	PROCESS_NAME_VARIABLE,
	startQueueDeployment,
} from '../../harness/queue.mjs';
import { pidIsAlive, startRedis } from '../../harness/services.mjs';
import { e2eStack, sandboxControl, sandboxCredential } from '../../harness/stack.mjs';
import {
	chain,
	credentialRef,
	lineNode,
	NODE_TYPES,
	webhookNode,
} from '../../harness/workflows.mjs';

const SECRET = `whsec_${'7a'.repeat(24)}`;
const QR = 'https://qr.nspk.ru/AS10001?type=02&sum=150000&cur=RUB';
const ACTION = NODE_TYPES.action;
const TRIGGER = NODE_TYPES.trigger;
const QUEUE_TRIGGER = 'n8n-nodes-company-payments-queue.companyPaymentsQueueTrigger';
const COMPANION = path.join(process.cwd(), 'companion');
const CARD = '2200700012345678';

let queue; // the queue-mode deployment
let regular; // a single-process n8n (SQLite), the reference for the actions
/** The set-up of every e2e suite: the reference n8n, the sandboxes and the queue deployment. */
const stack = e2eStack('queue-regular');
let regularCredentials;
let queueSandbox;
let regularSandbox;
let claimsRedis; // the Redis of the companion's claims (its redis credential)
let claimsDir;
const ids = {}; // workflow ids in the queue deployment
const regularIds = {};
const paths = {}; // trigger webhook paths
const measured = {};

// ---------------------------------------------------------------------------------------------
// Workflows
// ---------------------------------------------------------------------------------------------

const node = lineNode;

/**
 * Webhook → Balance → Pay QR → Get Order (the new order) → Get Missing Order (Continue On
 * Fail: its error becomes the item) → Ran On (Execution Data: saves the name of the n8n
 * process that evaluated it into the execution record).
 */
function actionsWorkflow(owner) {
	const nodes = [
		webhookNode('queue-actions'),
		node(
			'Balance',
			ACTION,
			1,
			200,
			{ resource: 'companyWallet', operation: 'getBalance' },
			{
				credentials: credentialRef(owner),
			},
		),
		node(
			'Pay',
			ACTION,
			1,
			400,
			{
				resource: 'order',
				operation: 'pay',
				qrCode: "={{ $('Webhook').item.json.body.qrCode }}",
			},
			{ credentials: credentialRef(owner) },
		),
		node(
			'Get Order',
			ACTION,
			1,
			600,
			{ resource: 'order', operation: 'get', orderId: '={{ $json.id }}' },
			{
				credentials: credentialRef(owner),
			},
		),
		node(
			'Get Missing Order',
			ACTION,
			1,
			800,
			{
				resource: 'order',
				operation: 'get',
				orderId: "={{ $('Webhook').item.json.body.missingOrderId }}",
			},
			{ credentials: credentialRef(owner), onError: 'continueRegularOutput' },
		),
		node('Ran On', 'n8n-nodes-base.executionData', 1.1, 1000, {
			dataToSave: { values: [{ key: 'ranOn', value: `={{ $env.${PROCESS_NAME_VARIABLE} }}` }] },
		}),
	];
	return {
		name: 'queue actions',
		nodes,
		connections: chain(...nodes.map((n) => n.name)),
		settings: { executionOrder: 'v1' },
	};
}

/** Webhook → Pay QR with a read-only key: the execution fails with PERMISSION_DENIED. */
function failingWorkflow(reader) {
	const nodes = [
		webhookNode('queue-fails'),
		node(
			'Pay',
			ACTION,
			1,
			200,
			{ resource: 'order', operation: 'pay', qrCode: '={{ $json.body.qrCode }}' },
			{
				credentials: credentialRef(reader),
			},
		),
	];
	return {
		name: 'queue fails',
		nodes,
		connections: chain('Webhook', 'Pay'),
		settings: { executionOrder: 'v1' },
	};
}

/** The credentials of a trigger node: the package's, and with `redis` the companion's Redis. */
function triggerCredentials(owner, redis) {
	return {
		...credentialRef(owner),
		...(redis ? { redis: { id: redis.id, name: redis.name } } : {}),
	};
}

/**
 * Company Payments Trigger (all events) → NoOp; registers its URL with the service. With
 * `redis`, the queue-mode companion's trigger, claiming in that Redis.
 */
function triggerWorkflow(owner, webhookId, { register, redis }) {
	const nodes = [
		node(
			'Company Payments Trigger',
			redis ? QUEUE_TRIGGER : TRIGGER,
			redis ? 2 : 1,
			0,
			{
				events: ['*'],
				routeByEvent: false,
				registerWebhook: register,
				options: {},
			},
			{ webhookId, credentials: triggerCredentials(owner, redis) },
		),
		node('No Operation', 'n8n-nodes-base.noOp', 1, 200, {}),
	];
	return {
		name: register ? 'queue trigger' : 'queue trigger (second)',
		nodes,
		connections: chain(...nodes.map((n) => n.name)),
		settings: { executionOrder: 'v1' },
	};
}

/**
 * The strict recipe of docs/queue-mode.md: the companion's trigger (its Redis claim starts one
 * execution per delivery) → Payout Create with deliveryId as the payout's External ID (so a payout can be
 * looked up by delivery, and the test can count payouts per delivery). No Remove Duplicates and
 * no reliance on the service replaying an Idempotency-Key: the interface document promises that
 * for Accept Quote only, and the test runs it against a service that ignores keys on payouts.
 */
function recipeWorkflow(owner, webhookId, redis) {
	const nodes = [
		node(
			'Company Payments Trigger',
			QUEUE_TRIGGER,
			2,
			0,
			{
				events: ['*'],
				routeByEvent: false,
				registerWebhook: false,
				options: {},
			},
			{ webhookId, credentials: triggerCredentials(owner, redis) },
		),
		node(
			'Refund',
			ACTION,
			1,
			200,
			{
				resource: 'payout',
				operation: 'create',
				amountRub: 1000,
				requisiteType: 'card',
				requisite: CARD,
				additionalFields: { externalId: '={{ $json.deliveryId }}' },
			},
			{ credentials: credentialRef(owner) },
		),
	];
	return {
		name: 'queue recipe',
		nodes,
		connections: chain(...nodes.map((n) => n.name)),
		settings: { executionOrder: 'v1' },
	};
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

const control = sandboxControl;

async function post(url, body) {
	const res = await fetch(url, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify(body),
	});
	const text = await res.text();
	try {
		return { status: res.status, body: JSON.parse(text) };
	} catch {
		return { status: res.status, body: text };
	}
}

/** Finished executions of a workflow as { id, deliveryId, data }, from the main process's API. */
async function triggerRuns(n8n, workflowId) {
	const executions = await n8n.getExecutions({ workflowId, includeData: true });
	return executions
		.filter((e) => e.finished || e.stoppedAt)
		.map((e) => {
			const run = e.data.resultData.runData['Company Payments Trigger']?.[0];
			const item = run?.data?.main?.find((items) => items?.length)?.[0]?.json ?? {};
			return {
				id: e.id,
				status: e.status,
				deliveryId: item.deliveryId,
				runData: e.data.resultData.runData,
				lastNode: e.data.resultData.lastNodeExecuted,
				error: e.data.resultData.error?.message,
			};
		});
}

/**
 * Counts executions per delivery id; waits until `expected` ids each have at least one and the
 * count settles. The settle window is a window, not a stand-in for a condition: what is checked
 * is that no second execution of a delivery comes (on either worker), which leaves no trace to
 * wait for; every delivery's first execution is waited for as a condition.
 */
async function runsPerDelivery(
	workflowId,
	deliveryIds,
	{ settleMs = 2_500, timeoutMs = 60_000 } = {},
) {
	const deadline = Date.now() + timeoutMs;
	let last = '';
	let stableSince = Date.now();
	for (;;) {
		const runs = await triggerRuns(queue.main, workflowId);
		const counts = Object.fromEntries(deliveryIds.map((id) => [id, 0]));
		for (const run of runs) if (run.deliveryId in counts) counts[run.deliveryId] += 1;
		const key = JSON.stringify(counts);
		if (key !== last) {
			last = key;
			stableSince = Date.now();
		}
		const allSeen = Object.values(counts).every((n) => n >= 1);
		if (allSeen && Date.now() - stableSince >= settleMs) return { counts, runs };
		if (Date.now() > deadline) return { counts, runs, timedOut: true };
		await sleep(300);
	}
}

/** Signed headers as the service sends them. */
function signed(body, deliveryId) {
	return {
		'Content-Type': 'application/json',
		'X-Service-Signature': createHmac('sha256', SECRET).update(body).digest('hex'),
		'X-Service-Delivery-Id': deliveryId,
		'User-Agent': 'company-payments-sandbox/1.0',
	};
}

/**
 * Replaces what differs between two runs of the same workflow (ids, times, request ids, and the
 * port of each deployment's own sandbox, which error descriptions name with the environment).
 */
function normalise(value) {
	return JSON.parse(
		JSON.stringify(value)
			.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
			.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>')
			.replace(/req_[A-Za-z0-9_-]+/g, '<requestId>')
			.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>'),
	);
}

/** Output items (json) of each Company Payments node of an execution. */
function nodeOutputs(execution) {
	const out = {};
	for (const name of ['Balance', 'Pay', 'Get Order', 'Get Missing Order']) {
		const run = execution.data.resultData.runData[name]?.[0];
		out[name] = run?.data?.main?.[0]?.map((item) => item.json);
	}
	return out;
}

// ---------------------------------------------------------------------------------------------
// Setup: the queue deployment and, next to it, a single-process n8n as the reference
// ---------------------------------------------------------------------------------------------

before(async () => {
	await stack.prepare();
	// The queue sandbox keeps the document's retry delays (0, 1, 2, 4 s): the retry tests need
	// the real minimum of 1 s between attempts.
	queueSandbox = await stack.service(startSandbox({ webhookSecret: SECRET }));
	claimsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-queue-claims-'));
	stack.onStop(() => fs.rmSync(claimsDir, { recursive: true, force: true }));
	claimsRedis = await stack.service(startRedis({ dir: path.join(claimsDir, 'redis'), appendonly: true }));
	regularSandbox = await stack.service(startSandbox({ webhookSecret: SECRET }));
	const data = { webhookSecret: SECRET };
	const credentialsFor = (sandbox) => [
		sandboxCredential(sandbox, { data }),
		sandboxCredential(sandbox, { name: 'Sandbox read-only', key: 'readOnly', data }),
	];
	const started = Date.now();
	// Credentials are imported by the CLI before start (n8n's public API wants every injected
	// field of a credential type); workflows are created and activated through the API.
	[queue, regular] = await Promise.all([
		stack.service(
			startQueueDeployment({
				packages: [COMPANION],
				credentials: [
					...credentialsFor(queueSandbox),
					{
						name: 'Claims Redis',
						type: 'redis',
						data: { host: '127.0.0.1', port: claimsRedis.port, database: 0, password: '', ssl: false },
					},
				],
				log: (line) => process.stderr.write(`[queue-host] ${line}\n`),
			}),
		),
		stack.credentials(credentialsFor(regularSandbox)).then((created) => {
			regularCredentials = created;
			return stack.startN8n({
				env: { N8N_BLOCK_ENV_ACCESS_IN_NODE: 'false', [PROCESS_NAME_VARIABLE]: 'regular' },
			});
		}),
	]);
	measured.startMs = Date.now() - started;
	measured.queueTimings = queue.timings;
	const [owner, reader, claimsCredential] = queue.credentials;
	paths.trigger = uuid();
	paths.second = uuid();
	paths.recipe = uuid();
	// The host logs in and creates its API key on the first call; the later ones may overlap.
	await Promise.all([
		queue.main.api('GET', '/workflows?limit=1'),
		regular.api('GET', '/workflows?limit=1'),
	]);
	const create = (workflow) => createWorkflow(queue.main, workflow, { activate: true });
	[ids.actions, ids.fails, ids.trigger, ids.second, ids.recipe] = await Promise.all([
		create(actionsWorkflow(owner)),
		create(failingWorkflow(reader)),
		create(triggerWorkflow(owner, paths.trigger, { register: true })),
		create(triggerWorkflow(owner, paths.second, { register: false, redis: claimsCredential })),
		create(recipeWorkflow(owner, paths.recipe, claimsCredential)),
	]);
	const [regularOwner, regularReader] = regularCredentials;
	[regularIds.actions, regularIds.fails] = await Promise.all([
		createWorkflow(regular, actionsWorkflow(regularOwner), { activate: true }),
		createWorkflow(regular, failingWorkflow(regularReader), { activate: true }),
	]);
	measured.readyMs = Date.now() - started;
});

after(async () => {
	try {
		await stack.stop();
	} finally {
		process.stderr.write(`[queue-mode] measured ${JSON.stringify(measured)}\n`);
	}
});

// ---------------------------------------------------------------------------------------------
// Actions
// ---------------------------------------------------------------------------------------------

describe('actions in queue mode', () => {
	test('a workflow of several operations runs on a worker and returns what regular mode returns', async () => {
		const input = { qrCode: QR, missingOrderId: uuid() };
		const viaQueue = await post(queue.webhookUrl('queue-actions'), input);
		const viaRegular = await post(regular.webhookUrl('queue-actions'), input);
		assert.equal(viaQueue.status, 200, JSON.stringify(viaQueue.body));
		assert.equal(viaRegular.status, 200, JSON.stringify(viaRegular.body));

		const [queued] = await queue.main.waitForExecutions({ workflowId: ids.actions, count: 1 });
		const [single] = await regular.waitForExecutions({ workflowId: regularIds.actions, count: 1 });

		// The execution record names the worker that ran it, and that worker's log agrees.
		const ranOn = queued.customData?.ranOn;
		assert.match(
			String(ranOn),
			/^worker-[12]$/,
			`customData: ${JSON.stringify(queued.customData)}`,
		);
		assert.equal(queue.executionsByProcess()[queued.id], ranOn);
		assert.equal(single.customData?.ranOn, 'regular');

		const queueOut = nodeOutputs(queued);
		const regularOut = nodeOutputs(single);
		// Not vacuous: each operation produced its item, the order was paid, the error is an item.
		assert.equal(queueOut.Pay[0].status, 'created');
		assert.equal(queueOut['Get Order'][0].id, queueOut.Pay[0].id);
		const failed = queueOut['Get Missing Order'][0];
		assert.match(failed.error, /^ORDER_NOT_FOUND: /, JSON.stringify(failed));
		assert.equal(failed.errorCode, 'ORDER_NOT_FOUND');
		assert.equal(failed.httpCode, 404);
		assert.match(failed.requestId, /^req_/);
		assert.deepEqual(normalise(queueOut), normalise(regularOut));
		assert.deepEqual(normalise(viaQueue.body), normalise(viaRegular.body));
	});

	test('a service error fails the execution on the worker with the same service fields as in regular mode', async () => {
		const viaQueue = await post(queue.webhookUrl('queue-fails'), { qrCode: QR });
		const viaRegular = await post(regular.webhookUrl('queue-fails'), { qrCode: QR });
		assert.notEqual(viaQueue.status, 200);
		assert.equal(viaQueue.status, viaRegular.status);

		const [queued] = await queue.main.waitForExecutions({ workflowId: ids.fails, count: 1 });
		const [single] = await regular.waitForExecutions({ workflowId: regularIds.fails, count: 1 });
		assert.equal(queued.status, 'error');
		assert.match(String(queue.executionsByProcess()[queued.id]), /^worker-[12]$/);
		const queueError = queued.data.resultData.runData.Pay[0].error;
		const regularError = single.data.resultData.runData.Pay[0].error;
		assert.match(
			queueError.message,
			/^PERMISSION_DENIED: .*\(missing permission orders\.create\)$/,
		);
		assert.match(queueError.description, /Required permission: orders\.create/);
		assert.match(queueError.description, /Request ID: req_/);
		assert.equal(String(queueError.httpCode), '403');
		assert.ok(
			!JSON.stringify(queued).includes(queueSandbox.keys.readOnly),
			'the API key is not in the execution',
		);
		const pick = ({ message, description, httpCode, name }) => ({
			message,
			description,
			httpCode,
			name,
		});
		assert.deepEqual(normalise(pick(queueError)), normalise(pick(regularError)));
	});
});

// ---------------------------------------------------------------------------------------------
// Trigger
// ---------------------------------------------------------------------------------------------

describe('trigger behind two webhook processes', () => {
	test('activation registered the load balancer URL as the company webhook URL', () => {
		const company = queueSandbox.state.companies.get('cmp_demo');
		assert.equal(company.webhookUrl, queue.webhookUrl(`${paths.trigger}/webhook`));
	});

	test('signed deliveries alternate between the webhook processes and each starts exactly one execution', async () => {
		const sent = [];
		const logStart = queue.proxy.log.length;
		for (let i = 0; i < 10; i++) {
			const deliveryId = `dlv_alt_${i}_${uuid()}`;
			await control(queueSandbox, 'POST', '/webhooks/send', {
				event: 'payout.status_changed',
				payload: { payoutId: `po_alt_${i}`, status: 'success', refunded: false },
				deliveryId,
				wait: true,
			});
			sent.push(deliveryId);
		}
		const entries = queue.proxy.log.slice(logStart).filter((e) => sent.includes(e.deliveryId));
		assert.equal(entries.length, 10, 'one request per delivery: none was retried');
		assert.ok(entries.every((e) => e.status === 200));
		const targets = entries.map((e) => e.target);
		for (let i = 1; i < targets.length; i++)
			assert.notEqual(targets[i], targets[i - 1], `alternates: ${targets}`);

		const { counts, runs } = await runsPerDelivery(ids.trigger, sent);
		assert.deepEqual(Object.values(counts), Array(10).fill(1), JSON.stringify(counts));
		const byProcess = queue.executionsByProcess();
		const mine = runs.filter((run) => sent.includes(run.deliveryId));
		assert.ok(
			mine.every((run) => /^worker-[12]$/.test(byProcess[run.id] ?? '')),
			'every execution ran on a worker',
		);
	});

	test('a forged delivery gets 401 from either webhook process and starts nothing', async () => {
		const before = (await triggerRuns(queue.main, ids.trigger)).length;
		const body = JSON.stringify({
			event: 'payout.status_changed',
			payoutId: 'po_forged',
			status: 'fail',
			refunded: true,
		});
		for (const index of [0, 1]) {
			const headers = signed(body, `dlv_forged_${index}_${uuid()}`);
			headers['X-Service-Signature'] = createHmac('sha256', 'wrong-secret')
				.update(body)
				.digest('hex');
			const res = await fetch(queue.directUrl(index, `${paths.trigger}/webhook`), {
				method: 'POST',
				headers,
				body,
			});
			assert.equal(res.status, 401, `webhook-${index + 1}`);
			await res.body?.cancel();
			// Through the balancer too, with the sandbox's own forgery (no retries).
			const deliveryId = `dlv_forged_lb_${index}_${uuid()}`;
			await control(queueSandbox, 'POST', '/webhooks/send', {
				event: 'payout.status_changed',
				payload: { payoutId: 'po_forged', status: 'fail', refunded: true },
				signWith: 'wrong',
				deliveryId,
				retry: false,
				wait: true,
			});
			const delivery = await control(queueSandbox, 'GET', `/deliveries/${deliveryId}`);
			assert.deepEqual(
				delivery.attempts.map((a) => a.status),
				[401],
			);
		}
		// A window, not a stand-in for a condition: every attempt was answered 401 above, and the
		// assertion is that no execution appears after it (a queued job would run on a worker).
		await sleep(1_500);
		assert.equal((await triggerRuns(queue.main, ids.trigger)).length, before);
	});

	test('a retry that lands on the other webhook process after the first one answered is caught as a duplicate', async () => {
		const deliveryIds = [];
		for (let i = 0; i < 3; i++) {
			const deliveryId = `dlv_retry_${i}_${uuid()}`;
			deliveryIds.push(deliveryId);
			queue.proxy.loseAnswers(1); // the first attempt is accepted, its answer lost: the service retries
			await control(queueSandbox, 'POST', '/webhooks/send', {
				event: 'order.status_changed',
				payload: { orderId: uuid(), status: 'success' },
				deliveryId,
				wait: true,
			});
			const delivery = await control(queueSandbox, 'GET', `/deliveries/${deliveryId}`);
			assert.deepEqual(
				delivery.attempts.map((a) => a.status),
				[504, 200],
			);
			const gapMs = Date.parse(delivery.attempts[1].at) - Date.parse(delivery.attempts[0].at);
			assert.ok(gapMs >= 1_000, `the service waited ${gapMs} ms between attempts`);
			const hops = queue.proxy.log.filter((e) => e.deliveryId === deliveryId);
			assert.equal(hops.length, 2);
			assert.notEqual(hops[0].target, hops[1].target, 'the retry reached the other process');
			assert.equal(hops[0].status, 200, 'the first process accepted it');
			assert.match(hops[1].body, /"executed":false/, `second answer: ${hops[1].body}`);
		}
		const { counts } = await runsPerDelivery(ids.trigger, deliveryIds);
		assert.deepEqual(Object.values(counts), [1, 1, 1], JSON.stringify(counts));
	});

	test('a webhook process crashes (SIGKILL) and restarts mid-stream: only a delivery in flight at the crash can run twice, or (answered just before it) be lost', async (t) => {
		const deliveryIds = [];
		const send = async (i) => {
			const deliveryId = `dlv_kill_${i}_${uuid()}`;
			deliveryIds.push(deliveryId);
			await control(queueSandbox, 'POST', '/webhooks/send', {
				event: 'deposit.completed',
				payload: { depositId: `dep_kill_${i}`, amount: 10 + i, status: 'completed' },
				deliveryId,
			});
		};
		let i = 0;
		// The 60 ms between deliveries pace the stream, so that the crash and the restart fall in
		// the middle of it: a shape of the load, not a wait for a condition.
		for (; i < 10; i++) {
			await send(i);
			await sleep(60);
		}
		const killed = queue.webhooks[0];
		const killAt = Date.now();
		const killing = killed.kill(); // SIGKILL: a crash, not a graceful stop
		for (; i < 20; i++) {
			await send(i);
			await sleep(60);
		}
		await killing;
		const killedAt = Date.now();
		const restarting = queue.restartWebhook(0);
		for (; i < 30; i++) {
			await send(i);
			await sleep(60);
		}
		const restarted = await restarting;
		const restartedAt = Date.now();
		assert.notEqual(restarted.pid, killed.pid);
		for (; i < 36; i++) await send(i); // after the restart, both processes take deliveries again
		await queueSandbox.webhooksIdle();

		const deliveries = await Promise.all(
			deliveryIds.map((id) => control(queueSandbox, 'GET', `/deliveries/${id}`)),
		);
		const accepted = deliveries.filter((d) => d.state === 'delivered');
		const retried = deliveries.filter((d) => d.attempts.length > 1);
		assert.equal(accepted.length, deliveryIds.length, 'every delivery was accepted in the end');
		const { counts } = await runsPerDelivery(ids.trigger, deliveryIds);
		// The core trigger answers 200 before n8n saves its static data and queues the execution
		// (docs/webhook-trigger.md, "What answering first costs: a crash window"): a delivery the
		// killed process answered in its last moments may never run. Every other one runs.
		const answeredAtCrash = new Set(
			queue.proxy.log
				.filter(
					(e) =>
						e.target === killed.name && e.status === 200 && e.at >= killAt - 2_000 && e.at <= killedAt,
				)
				.map((e) => e.deliveryId),
		);
		const missing = Object.entries(counts)
			.filter(([, n]) => n === 0)
			.map(([id]) => id);
		for (const id of missing) {
			const hops = queue.proxy.log.filter((e) => e.deliveryId === id);
			assert.ok(
				answeredAtCrash.has(id),
				`${id} never ran, and was not answered by the killed process just before the crash: ${JSON.stringify(hops)}`,
			);
		}

		// A delivery runs twice only if the crash cut its request after n8n had queued the
		// execution and before it saved the store and answered (the proxy saw that request
		// fail at the killed process); every other delivery runs exactly once.
		const inFlightAtCrash = new Set(
			queue.proxy.log
				.filter((e) => e.target === killed.name && e.status === 502 && e.error !== 'ECONNREFUSED')
				.map((e) => e.deliveryId),
		);
		const twice = Object.entries(counts).filter(([, n]) => n > 1);
		for (const [id, n] of twice) {
			const hops = queue.proxy.log.filter((e) => e.deliveryId === id);
			assert.ok(
				inFlightAtCrash.has(id),
				`${id} ran ${n} times without being in flight at the crash: ${JSON.stringify(hops)}`,
			);
		}
		assert.ok(
			Object.values(counts).every((n) => n <= 2),
			JSON.stringify(counts),
		);
		const served = queue.proxy.log.filter(
			(e) => e.at >= restartedAt && e.target === killed.name && e.status === 200,
		);
		assert.ok(served.length > 0, 'the restarted process takes deliveries again');
		measured.crash = {
			deliveries: deliveryIds.length,
			lostInCrashWindow: missing.length,
			retriedByService: retried.length,
			inFlightAtCrash: inFlightAtCrash.size,
			ranTwice: twice.length,
			executions: Object.values(counts).reduce((a, b) => a + b, 0),
		};
		t.diagnostic(`measured: ${JSON.stringify(measured.crash)}`);
	});

	test('concurrent duplicates at both processes start one execution each (the companion, its Redis claim)', async (t) => {
		const rounds = 20;
		const deliveryIds = [];
		const answers = [];
		for (let r = 0; r < rounds; r++) {
			const deliveryId = `dlv_dup_${r}_${uuid()}`;
			deliveryIds.push(deliveryId);
			const body = JSON.stringify({
				event: 'payout.status_changed',
				payoutId: `po_dup_${r}`,
				status: 'fail',
				refunded: true,
			});
			const results = await Promise.all(
				[0, 1].map(async (index) => {
					const res = await fetch(queue.directUrl(index, `${paths.second}/webhook`), {
						method: 'POST',
						headers: signed(body, deliveryId),
						body,
					});
					return { status: res.status, text: await res.text() };
				}),
			);
			answers.push(results);
			// Pacing between rounds (a shape of the load): each round's answers were awaited.
			await sleep(100);
		}
		assert.ok(
			answers.flat().every((a) => a.status === 200),
			'both processes answer 200',
		);
		const { counts } = await runsPerDelivery(ids.second, deliveryIds);
		const executions = Object.values(counts);
		const doubled = executions.filter((n) => n === 2).length;
		assert.deepEqual(executions, Array(rounds).fill(1), JSON.stringify(counts));
		measured.concurrentDuplicates = {
			rounds,
			executions: executions.reduce((a, b) => a + b, 0),
			doubled,
		};
		t.diagnostic(
			`measured: ${rounds} pairs sent at the same instant → ${doubled} started two executions`,
		);
	});

	test('the strict recipe (the claim + deliveryId as External ID) leaves exactly one payout per delivery, with a service that ignores Idempotency-Keys on payouts', async (t) => {
		const rounds = 15;
		await control(queueSandbox, 'POST', '/faults', {
			ignoreIdempotencyKeys: true,
			pathPrefix: '/payouts',
		});
		t.after(() => control(queueSandbox, 'POST', '/faults', {}));
		const deliveryIds = [];
		for (let r = 0; r < rounds; r++) {
			const deliveryId = `dlv_pay_${r}_${uuid()}`;
			deliveryIds.push(deliveryId);
			const body = JSON.stringify({
				event: 'payout.status_changed',
				payoutId: `po_src_${r}`,
				status: 'fail',
				refunded: true,
			});
			const results = await Promise.all(
				[0, 1].map((index) =>
					fetch(queue.directUrl(index, `${paths.recipe}/webhook`), {
						method: 'POST',
						headers: signed(body, deliveryId),
						body,
					}).then(async (res) => ({ status: res.status, text: await res.text() })),
				),
			);
			assert.ok(
				results.every((a) => a.status === 200),
				JSON.stringify(results),
			);
			// Pacing between rounds (a shape of the load): each round's answers were awaited.
			await sleep(100);
		}
		const { counts, runs } = await runsPerDelivery(ids.recipe, deliveryIds);
		const mine = runs.filter((run) => deliveryIds.includes(run.deliveryId));
		const failed = mine.filter((run) => run.status !== 'success');
		assert.deepEqual(
			failed.map((run) => `${run.id} at ${run.lastNode}: ${run.error}`),
			[],
		);
		assert.deepEqual(Object.values(counts), Array(rounds).fill(1), JSON.stringify(counts));

		const payouts = [...queueSandbox.state.payouts.values()].filter((p) =>
			deliveryIds.includes(p.externalId),
		);
		const perDelivery = Object.fromEntries(deliveryIds.map((id) => [id, 0]));
		for (const payout of payouts) perDelivery[payout.externalId] += 1;
		assert.deepEqual(
			Object.values(perDelivery),
			Array(rounds).fill(1),
			'exactly one payout per delivery',
		);
		const charges = queueSandbox.state.balanceHistory.filter(
			(entry) => entry.type === 'payout_charge' && payouts.some((p) => p.id === entry.referenceId),
		);
		assert.equal(charges.length, rounds, 'exactly one charge of the balance per delivery');
		measured.recipe = {
			rounds,
			executions: Object.values(counts).reduce((a, b) => a + b, 0),
			payouts: payouts.length,
		};
		t.diagnostic(`measured: ${JSON.stringify(measured.recipe)}`);
	});
});

// ---------------------------------------------------------------------------------------------
// The host itself
// ---------------------------------------------------------------------------------------------

test('stop() ends every process of the deployment by its PID and leaves nothing on disk', async () => {
	const proxyUrl = queue.proxy.url;
	const postgresPort = queue.postgres.port;
	const started = Date.now();
	const { pids, root } = await queue.stop();
	measured.stopMs = Date.now() - started;
	assert.equal(pids.length, 7, 'postgres, redis, main, two workers, two webhook processes');
	assert.deepEqual(pids.filter(pidIsAlive), [], 'no process is left');
	assert.equal(fs.existsSync(root), false, `${root} is removed`);
	await assert.rejects(fetch(proxyUrl), 'the proxy no longer listens');
	const refused = await new Promise((resolve) => {
		const socket = net.connect(postgresPort, '127.0.0.1');
		socket.once('connect', () => {
			socket.destroy();
			resolve(false);
		});
		socket.once('error', () => resolve(true));
	});
	assert.ok(refused, 'PostgreSQL no longer listens');
});
