/**
 * The Company Payments Trigger inside a real n8n (2.8.4 unless the host is told another version), fed by the sandbox's signed webhook
 * deliveries over loopback: registration on activation, verification over the raw bytes n8n
 * hands the node, routing to per-event outputs, 401 for forgeries, and deduplication of a
 * replayed delivery, also after n8n restarts.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import { after, before, test } from 'node:test';

import { startSandbox } from '../../sandbox/server.mjs';
import { uuid } from '../../harness/n8n.mjs';
import { e2eStack, sandboxControl, sandboxCredential } from '../../harness/stack.mjs';
import { parseN8nSettings } from '../../harness/lib/env.mjs';
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
/** Secrets of the second credential, which the credential-change test replaces. */
const V2_SECRET = `whsec_${'7a'.repeat(24)}`;
const V2_SECRET_NEW = `whsec_${'3c'.repeat(24)}`;
/** How long the trigger keeps a credential's secrets in memory (secretCache.ts). */
const SECRET_MAX_AGE_MS = 10_000;
/** At most one re-read after a failed verification per this interval (secretCache.ts). */
const REREAD_MIN_INTERVAL_MS = 2_000;

let sandbox;
let n8n;
const stack = e2eStack('trigger');
let workflowId;
const webhookId = uuid();
/** A second workflow: a version-2 trigger, no registration, its own credential. */
let v2WorkflowId;
let v2Credential;
const v2WebhookId = uuid();
const V2_CREDENTIAL_DATA = (webhookSecret) => ({
	environment: 'staging',
	baseUrl: sandbox.url,
	apiKey: sandbox.keys.owner,
	webhookSecret,
});

const control = (method, urlPath, body) => sandboxControl(sandbox, method, urlPath, body);

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

/**
 * Sends a fresh delivery and waits until its execution is stored: what was sent before it and
 * would have started an execution has had it stored by then (a positive marker, not a sleep).
 */
async function markerRuns(what) {
	const deliveryId = `dlv_marker_${uuid()}`;
	await control('POST', '/webhooks/send', {
		event: 'card.assigned',
		payload: { externalId: 'marker' },
		deliveryId,
		wait: true,
	});
	await waitFor(
		async () => (await routedExecutions()).find((execution) => execution.deliveryId === deliveryId),
		`the marker delivery ${what}`,
	);
}

/** Waits until the sandbox has no delivery in flight, then returns the deliveries of one event. */
async function deliveriesOf(event) {
	await sandbox.webhooksIdle();
	const { deliveries } = await control('GET', `/deliveries?event=${encodeURIComponent(event)}`);
	return deliveries;
}

before(async () => {
	await stack.prepare();
	sandbox = await stack.service(
		startSandbox({ retryDelaysMs: [0, 50, 100, 200], webhookSecret: SECRET }),
	);
	const [credential, secondCredential] = await stack.credentials([
		sandboxCredential(sandbox, { data: { webhookSecret: SECRET } }),
		{ name: 'Second trigger', type: 'companyPaymentsApi', data: V2_CREDENTIAL_DATA(V2_SECRET) },
	]);
	v2Credential = secondCredential;
	const v2 = {
		name: 'e2e trigger version 2',
		nodes: [
			{
				id: uuid(),
				name: 'Company Payments Trigger',
				type: NODE_TYPES.trigger,
				typeVersion: 2,
				position: [0, 0],
				webhookId: v2WebhookId,
				parameters: { events: ['*'], routeByEvent: false, registerWebhook: false, options: {} },
				credentials: {
					companyPaymentsApi: { id: secondCredential.id, name: secondCredential.name },
				},
			},
			{
				id: uuid(),
				name: 'on any',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [300, 0],
				parameters: {},
			},
		],
		connections: {
			'Company Payments Trigger': { main: [[{ node: 'on any', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
	const outputs = EVENTS.map((event, index) => ({
		id: uuid(),
		name: `on ${event}`,
		type: 'n8n-nodes-base.noOp',
		typeVersion: 1,
		position: [300, index * 120],
		parameters: {},
	}));
	const routed = {
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
	};
	// Both published by the CLI before the start: n8n registers them as it starts.
	n8n = await stack.start({ published: [v2, routed] });
	[v2WorkflowId, workflowId] = stack.published.map(({ id }) => id);
});

after(() => stack.stop());

test('n8n runs with the settings the host was given (CI: n8n 2.41 with its lazy expression sandbox)', (t) => {
	const wanted = parseN8nSettings(process.env.COMPANY_PAYMENTS_N8N_SETTINGS);
	if (Object.keys(wanted).length === 0) return t.skip('no COMPANY_PAYMENTS_N8N_SETTINGS');
	// The environment of the n8n process itself, so a suite that claims to test a setting does.
	const environ = fs.readFileSync(`/proc/${n8n.pid}/environ`, 'utf8').split('\0');
	for (const [name, value] of Object.entries(wanted)) {
		assert.ok(environ.includes(`${name}=${value}`), `n8n runs without ${name}=${value}`);
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
	// The order event shows no time, and an order can be taken, released and taken again: the key
	// names the delivery (outside read r5-data, finding 5).
	const keyDelivery = String(delivery.id)
		.replace(/%/g, '%25')
		.replace(/:/g, '%3A')
		.replace(/\//g, '%2F');
	assert.equal(
		run.item.changeKey,
		`order:company:${created.id}:in_progress:delivery:${keyDelivery}`,
	);
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
		// Every replay was answered "executed: false"; a delivery sent after them that has run is
		// the marker that any execution a replay had started would be stored by now.
		await markerRuns('after the replays');
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
	await markerRuns('after the replay after a restart');
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

/** POSTs `body` to a trigger's Production URL, signed with `key`, as the service would. */
async function post(hookId, text, { key, contentType, deliveryId = `dlv_ct_${uuid()}` } = {}) {
	const headers = { 'X-Service-Delivery-Id': deliveryId };
	if (key !== undefined)
		headers['X-Service-Signature'] = createHmac('sha256', key).update(text).digest('hex');
	if (contentType !== undefined) headers['Content-Type'] = contentType;
	// fetch sends a string as text/plain unless told otherwise; a Blob without a type sends no
	// Content-Type at all.
	const body = contentType === undefined ? new Blob([text]) : text;
	const res = await fetch(n8n.webhookUrl(`${hookId}/webhook`), { method: 'POST', headers, body });
	return { status: res.status, text: await res.text(), deliveryId };
}

/** The items the second (version 2) workflow's trigger produced, by delivery ID. */
async function v2Items() {
	const executions = await n8n.getExecutions({ workflowId: v2WorkflowId, includeData: true });
	return executions
		.filter((execution) => execution.finished || execution.stoppedAt)
		.map((execution) => execution.data.resultData.runData['Company Payments Trigger'][0])
		.map((run) => run.data.main[0][0].json);
}

// Bytes no re-serialisation would produce, so only a check over the exact bytes passes.
const CT_BODY = '{ "event" : "card.assigned",\n  "externalId": "ct-№1", "a": [ 1.50 ] }';
const CONTENT_TYPES = [
	'application/json',
	'application/json; charset=utf-8',
	'text/plain',
	'application/octet-stream',
	undefined,
];

for (const [label, hookId, key] of [
	['version 1', webhookId, SECRET],
	['version 2', v2WebhookId, V2_SECRET],
]) {
	test(`${label}: every content type the service could send is verified over the exact bytes`, async () => {
		for (const contentType of CONTENT_TYPES) {
			const ok = await post(hookId, CT_BODY, { key, contentType });
			assert.equal(ok.status, 200, `${contentType}: ${ok.text}`);
			assert.equal(JSON.parse(ok.text).executed, true, `${contentType}: ${ok.text}`);
			const forged = await post(hookId, CT_BODY, { key: 'whsec_wrong', contentType });
			assert.equal(forged.status, 401, `${contentType} forged: ${forged.text}`);
		}
		if (hookId === v2WebhookId) {
			const items = await waitFor(async () => {
				const all = await v2Items();
				return all.filter((item) => item.externalId === 'ct-№1').length >= CONTENT_TYPES.length
					? all
					: undefined;
			}, 'the executions of every content type');
			assert.ok(items.every((item) => item.event === 'card.assigned'));
		}
	});

	test(`${label}: a multipart body (no bytes left to verify) is refused with 415 and starts nothing`, async () => {
		const form = new FormData();
		form.append('event', 'card.assigned');
		const res = await fetch(n8n.webhookUrl(`${hookId}/webhook`), {
			method: 'POST',
			headers: { 'X-Service-Signature': 'ab'.repeat(32) },
			body: form,
		});
		const text = await res.text();
		assert.equal(res.status, 415, text);
		assert.match(JSON.parse(text).message, /Unsupported Media Type/);
	});
}

test('a secret changed in the credential: the new one works at once, the old one is refused within the stated bound', async () => {
	const body = (n) => JSON.stringify({ event: 'card.assigned', externalId: `rotate-${n}` });
	const update = async (secret) =>
		await n8n.rest('PATCH', `/credentials/${v2Credential.id}`, {
			name: v2Credential.name,
			type: 'companyPaymentsApi',
			data: V2_CREDENTIAL_DATA(secret),
		});
	const json = 'application/json';
	// The trigger holds V2_SECRET in memory from the deliveries above (or reads it now).
	assert.equal(
		(await post(v2WebhookId, body(1), { key: V2_SECRET, contentType: json })).status,
		200,
	);

	// The forged deliveries of the tests above made the trigger re-read (rate-limited): let that
	// interval pass, as the service's retries would. A documented interval of the trigger
	// (secretCache.ts), not a stand-in for a condition: nothing marks its end.
	await new Promise((resolve) => setTimeout(resolve, REREAD_MIN_INTERVAL_MS + 200));
	await update(V2_SECRET_NEW);
	// A delivery with the new secret fails on the kept one, re-reads, and is accepted.
	const fresh = await post(v2WebhookId, body(2), { key: V2_SECRET_NEW, contentType: json });
	assert.equal(fresh.status, 200, fresh.text);
	// That read replaced the kept secrets: the old one is refused right away.
	const stale = await post(v2WebhookId, body(3), { key: V2_SECRET, contentType: json });
	assert.equal(stale.status, 401, stale.text);

	// Back to the first secret, and nothing signed with the new one arrives: the replaced secret
	// may be accepted from memory, but not once the bound has passed since the change.
	await update(V2_SECRET);
	const changedAt = Date.now();
	const early = await post(v2WebhookId, body(4), { key: V2_SECRET_NEW, contentType: json });
	assert.ok([200, 401].includes(early.status), early.text);
	// The bound itself is what is tested (secretCache.ts keeps secrets SECRET_MAX_AGE_MS): a
	// documented window, nothing marks its end.
	await new Promise((resolve) =>
		setTimeout(resolve, Math.max(0, changedAt + SECRET_MAX_AGE_MS + 300 - Date.now())),
	);
	const late = await post(v2WebhookId, body(5), { key: V2_SECRET_NEW, contentType: json });
	assert.equal(late.status, 401, `the replaced secret was accepted after the bound: ${late.text}`);
	const current = await post(v2WebhookId, body(6), { key: V2_SECRET, contentType: json });
	assert.equal(current.status, 200, current.text);
});
