/**
 * The Company Payments Trigger inside a real n8n (2.8.4 unless the host is told another version), fed by the sandbox's signed webhook
 * deliveries over loopback: registration on activation, verification over the raw bytes n8n
 * hands the node, routing to per-event outputs, 401 for forgeries, and deduplication of a
 * replayed delivery, also after n8n restarts.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { startSandbox } from '../../sandbox/server.mjs';
import {
	createUserFolder,
	ensureN8n,
	importCredentials,
	importWorkflow,
	installPackage,
	startN8n,
	uuid,
} from '../../harness/n8n.mjs';
import { NODE_TYPES } from '../../harness/workflows.mjs';

const EVENTS = [
	'order.status_changed',
	'deposit.created',
	'deposit.completed',
	'deposit.aml_failed',
	'payout.status_changed',
	'payout.recharged',
	'card.assigned',
	'other',
];
const SECRET = `whsec_${'5e'.repeat(24)}`;

let sandbox;
let userFolder;
let n8n;
let workflowId;
const webhookId = uuid();

async function control(method, urlPath, body) {
	const res = await fetch(`${sandbox.url}/__control${urlPath}`, {
		method,
		headers: { 'Content-Type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const answer = await res.json();
	assert.ok(res.ok, `${method} ${urlPath} answered ${res.status}: ${JSON.stringify(answer)}`);
	return answer;
}

/** Executions of the trigger workflow, each as { event, deliveryId, output } (output = node that ran). */
async function routedExecutions() {
	const executions = await n8n.getExecutions({ workflowId, includeData: true });
	return executions
		.filter((execution) => execution.finished || execution.stoppedAt)
		.map((execution) => {
			const runData = execution.data.resultData.runData;
			const output = EVENTS.find((event) => runData[`on ${event}`]);
			const item = runData['Company Payments Trigger'][0].data.main.find(
				(items) => items?.length,
			)[0].json;
			return { id: execution.id, output, event: item.event, deliveryId: item.deliveryId, item };
		});
}

async function waitFor(predicate, what, timeoutMs = 20_000) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await predicate();
		if (value) return value;
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
}

/** Waits until the sandbox has no delivery in flight, then returns the deliveries of one event. */
async function deliveriesOf(event) {
	await sandbox.webhooksIdle();
	const { deliveries } = await control('GET', `/deliveries?event=${encodeURIComponent(event)}`);
	return deliveries;
}

before(async () => {
	await ensureN8n();
	assert.ok(
		fs.existsSync(
			path.join(process.cwd(), 'dist/nodes/CompanyPaymentsTrigger/CompanyPaymentsTrigger.node.js'),
		),
		'run npm run build first',
	);
	sandbox = await startSandbox({ retryDelaysMs: [0, 50, 100, 200], webhookSecret: SECRET });
	userFolder = createUserFolder('n8n-cp-trigger-');
	installPackage(userFolder);
	const [credential] = await importCredentials(userFolder, [
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
	]);
	const outputs = EVENTS.map((event, index) => ({
		id: uuid(),
		name: `on ${event}`,
		type: 'n8n-nodes-base.noOp',
		typeVersion: 1,
		position: [300, index * 120],
		parameters: {},
	}));
	const imported = await importWorkflow(
		userFolder,
		{
			name: 'e2e trigger',
			nodes: [
				{
					id: uuid(),
					name: 'Company Payments Trigger',
					type: NODE_TYPES.trigger,
					typeVersion: 1,
					position: [0, 0],
					webhookId,
					parameters: { events: ['*'], routeByEvent: true, registerWebhook: true, options: {} },
					credentials: { companyPaymentsApi: { id: credential.id, name: credential.name } },
				},
				...outputs,
			],
			connections: {
				'Company Payments Trigger': {
					main: EVENTS.map((event) => [{ node: `on ${event}`, type: 'main', index: 0 }]),
				},
			},
			settings: { executionOrder: 'v1' },
		},
		{ activate: true },
	);
	workflowId = imported.id;
	n8n = await startN8n({ userFolder });
});

after(async () => {
	await n8n?.stop();
	await sandbox?.close();
	if (userFolder && process.env.COMPANY_PAYMENTS_E2E_KEEP !== '1') {
		fs.rmSync(userFolder, { recursive: true, force: true });
	}
});

test('activation registered the trigger as the company webhook URL', async () => {
	const company = sandbox.state.companies.get('cmp_demo');
	assert.equal(company.webhookUrl, n8n.webhookUrl(`${webhookId}/webhook`));
	assert.deepEqual(n8n.activationErrors(), []);
});

test('an order status change in the sandbox reaches the workflow as order.status_changed', async () => {
	// A fresh order (created → in_progress is allowed), paid through the public API.
	const headers = { 'Content-Type': 'application/json', 'X-API-Key': sandbox.keys.owner };
	const quote = await (
		await fetch(`${sandbox.url}/orders/prepare`, {
			method: 'POST',
			headers,
			body: JSON.stringify({ qrCode: 'https://qr.nspk.ru/AS10001?type=02&sum=250000&cur=RUB' }),
		})
	).json();
	const created = await (
		await fetch(`${sandbox.url}/orders/accept/${quote.id}`, {
			method: 'POST',
			headers: { ...headers, 'Idempotency-Key': uuid() },
		})
	).json();
	assert.equal(created.status, 'created', JSON.stringify(created));
	await control('POST', `/orders/${created.id}/status`, { status: 'in_progress' });

	const deliveries = await deliveriesOf('order.status_changed');
	const delivery = deliveries.find((candidate) => candidate.payload.orderId === created.id);
	assert.ok(delivery, 'the sandbox sent order.status_changed');
	assert.equal(delivery.state, 'delivered');
	assert.equal(delivery.attempts[0].status, 200);

	const run = await waitFor(
		async () =>
			(await routedExecutions()).find((execution) => execution.deliveryId === delivery.id),
		'the execution of the order event',
	);
	assert.equal(run.event, 'order.status_changed');
	assert.equal(run.output, 'order.status_changed');
	assert.equal(run.item.orderId, created.id);
	assert.equal(run.item.status, 'in_progress');
	assert.equal(run.item.changeKey, `order:${created.id}:in_progress`);
	assert.equal(run.item.source, 'webhook');
});

test('deposit and payout events land on their own outputs with externalId and fundsReturned', async () => {
	await control('POST', '/deposits', { externalId: 'user-1001', amount: 75, aml: 'fail' });
	const payoutId = [...sandbox.state.payouts.values()].find(
		(payout) => payout.status === 'waiting_trader',
	).id;
	await control('POST', `/payouts/${payoutId}/status`, {
		status: 'fail',
		failReason: 'no_traders',
		refund: true,
	});

	const created = (await deliveriesOf('deposit.created'))[0];
	const amlFailed = (await deliveriesOf('deposit.aml_failed'))[0];
	const payout = (await deliveriesOf('payout.status_changed')).find(
		(d) => d.payload.payoutId === payoutId,
	);
	for (const delivery of [created, amlFailed, payout])
		assert.equal(delivery.state, 'delivered', delivery.event);

	const runs = await waitFor(async () => {
		const all = await routedExecutions();
		const mine = [created, amlFailed, payout].map((d) =>
			all.find((run) => run.deliveryId === d.id),
		);
		return mine.every(Boolean) && mine;
	}, 'three executions');
	assert.deepEqual(
		runs.map((run) => run.output),
		['deposit.created', 'deposit.aml_failed', 'payout.status_changed'],
	);
	assert.equal(runs[0].item.externalId, 'user-1001');
	assert.equal(runs[1].item.externalId, 'user-1001');
	assert.equal(runs[2].item.status, 'fail');
	assert.equal(runs[2].item.refunded, true);
	assert.equal(runs[2].item.fundsReturned, true);
});

test('a body whose bytes differ from re-serialised JSON verifies (n8n hands the node the raw bytes)', async () => {
	const deliveryId = `dlv_raw_${uuid()}`;
	const rawBody =
		'{ "event" : "card.assigned",\n  "externalId": "карта-№7", "z": 1, "a": [ 1.50 ] }';
	await control('POST', '/webhooks/send', {
		event: 'card.assigned',
		rawBody,
		deliveryId,
		wait: true,
	});
	const [delivery] = (await deliveriesOf('card.assigned')).filter((d) => d.id === deliveryId);
	assert.equal(delivery.attempts.at(-1).status, 200);
	const run = await waitFor(
		async () => (await routedExecutions()).find((execution) => execution.deliveryId === deliveryId),
		'the card.assigned execution',
	);
	assert.equal(run.output, 'card.assigned');
	assert.equal(run.item.externalId, 'карта-№7');
});

test('an accepted delivery is answered 200 with a small JSON acknowledgement', async () => {
	const deliveryId = `dlv_ack_${uuid()}`;
	await control('POST', '/webhooks/send', {
		event: 'card.assigned',
		payload: { externalId: 'ack-check' },
		deliveryId,
		wait: true,
	});
	const delivery = await control('GET', `/deliveries/${deliveryId}`);
	const attempt = delivery.attempts.at(-1);
	assert.equal(attempt.status, 200);
	// Not n8n's default answer for onReceived ("firstEntryJson", or the item itself).
	assert.deepEqual(JSON.parse(attempt.responseBody), {
		received: true,
		executed: true,
		deliveryId,
	});
	await waitFor(
		async () => (await routedExecutions()).find((execution) => execution.deliveryId === deliveryId),
		'the execution of the acknowledged delivery',
	);
});

test('a forged delivery gets 401 on every attempt and starts no execution', async () => {
	const before = (await routedExecutions()).length;
	const deliveryId = `dlv_forged_${uuid()}`;
	await control('POST', '/webhooks/send', {
		event: 'payout.status_changed',
		payload: { payoutId: 'po_forged', status: 'fail', refunded: true },
		signWith: 'wrong',
		deliveryId,
		wait: true,
	});
	const delivery = await control('GET', `/deliveries/${deliveryId}`);
	assert.equal(delivery.state, 'failed');
	assert.deepEqual(
		delivery.attempts.map((attempt) => attempt.status),
		[401, 401, 401, 401],
	);
	assert.equal((await routedExecutions()).length, before);
});

test('replayed deliveries, the first and later ones, start no second execution, also after a restart', async () => {
	// Automatic registration is on in this suite, so the static data already held the
	// registration before the first delivery; every accepted delivery came after it.
	const runs = (await routedExecutions()).sort((a, b) => Number(a.id) - Number(b.id));
	assert.ok(runs.length >= 5, `expected at least 5 executions so far, saw ${runs.length}`);
	const first = runs[0];
	const middle = runs[Math.floor(runs.length / 2)];
	const last = runs.at(-1);
	assert.notEqual(last.deliveryId, first.deliveryId);
	const replayed = [first, middle, last];
	const counts = async () => {
		const all = await routedExecutions();
		return replayed.map(
			(run) => all.filter((execution) => execution.deliveryId === run.deliveryId).length,
		);
	};
	assert.deepEqual(await counts(), [1, 1, 1]);

	const replayAll = async () => {
		for (const run of replayed) {
			const replay = await control('POST', `/deliveries/${run.deliveryId}/replay`);
			assert.equal(replay.attempt.status, 200, run.deliveryId);
			assert.equal(JSON.parse(replay.attempt.responseBody).executed, false, run.deliveryId);
		}
		await new Promise((resolve) => setTimeout(resolve, 1500));
	};
	await replayAll();
	assert.deepEqual(await counts(), [1, 1, 1], 'no second execution in the same process');

	n8n = await n8n.restart();
	await replayAll();
	assert.deepEqual(await counts(), [1, 1, 1], 'no second execution after the restart');

	// A new delivery after the restart still runs, so the restart did not simply stop the workflow,
	// and a replay of it after a second restart is still recognised (IDs recorded after a restart
	// are saved too).
	const afterId = `dlv_after_${uuid()}`;
	await control('POST', '/webhooks/send', {
		event: 'card.assigned',
		payload: { externalId: 'after-restart' },
		deliveryId: afterId,
		wait: true,
	});
	await waitFor(
		async () => (await routedExecutions()).find((execution) => execution.deliveryId === afterId),
		'an execution after the restart',
	);
	n8n = await n8n.restart();
	const again = await control('POST', `/deliveries/${afterId}/replay`);
	assert.equal(again.attempt.status, 200);
	await new Promise((resolve) => setTimeout(resolve, 1500));
	const afterRuns = (await routedExecutions()).filter(
		(execution) => execution.deliveryId === afterId,
	);
	assert.equal(afterRuns.length, 1, 'no second execution of a delivery accepted after a restart');
});

test('listening for a test event points the company at the Test URL and puts the Production URL back after', async () => {
	const company = sandbox.state.companies.get('cmp_demo');
	const productionUrl = n8n.webhookUrl(`${webhookId}/webhook`);
	const testUrl = productionUrl.replace('/webhook/', '/webhook-test/');
	assert.equal(company.webhookUrl, productionUrl);

	// What the editor's "Test this trigger" / "Listen for test event" sends.
	const workflowData = await n8n.rest('GET', `/workflows/${workflowId}`);
	const started = await n8n.rest('POST', `/workflows/${workflowId}/run`, {
		workflowData,
		triggerToStartFrom: { name: 'Company Payments Trigger' },
	});
	assert.equal(started.waitingForWebhook, true, JSON.stringify(started));
	await waitFor(() => company.webhookUrl === testUrl, 'the company webhook URL to be the Test URL');

	const deliveryId = `dlv_test_${uuid()}`;
	await control('POST', '/webhooks/send', {
		event: 'card.assigned',
		payload: { externalId: 'test-event' },
		deliveryId,
		wait: true,
	});
	const delivery = await control('GET', `/deliveries/${deliveryId}`);
	assert.equal(delivery.url, testUrl);
	assert.equal(delivery.attempts.at(-1).status, 200);
	assert.deepEqual(JSON.parse(delivery.attempts.at(-1).responseBody), {
		received: true,
		executed: true,
		deliveryId,
	});

	// n8n stops listening after the test event and calls delete: the Production URL is back.
	await waitFor(() => company.webhookUrl === productionUrl, 'the Production URL to be put back');
	const afterId = `dlv_after_test_${uuid()}`;
	await control('POST', '/webhooks/send', {
		event: 'card.assigned',
		payload: { externalId: 'after-test' },
		deliveryId: afterId,
		wait: true,
	});
	await waitFor(
		async () => (await routedExecutions()).find((execution) => execution.deliveryId === afterId),
		'a production execution after the test',
	);
});
