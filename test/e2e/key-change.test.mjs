/**
 * Issue 50, item 5, in a real n8n: the company's API key is regenerated through the node
 * (Company → Regenerate API Key), the new key is put into the same n8n credential (as the
 * package asks), and then a signed delivery and a poll change both arrive, nothing lost.
 *
 * The webhook trigger registered itself and rotated the company's webhook secret at activation,
 * so the secret it verifies with is sealed under the credential's old API key (the credential
 * has no Webhook Secret). The poll trigger's state was taken under the old key too.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { startSandbox } from '../../sandbox/server.mjs';
import { uuid } from '../../harness/n8n.mjs';
import {
	e2eStack,
	refusesSubMinutePolls,
	sandboxControl,
	sandboxCredential,
} from '../../harness/stack.mjs';
import { NODE_TYPES, webhookNode } from '../../harness/workflows.mjs';

const EVERY_5_SECONDS = '0,5,10,15,20,25,30,35,40,45,50,55 * * * * *';
const TRIGGER = 'Company Payments Trigger';
const POLL = 'Company Payments Poll Trigger';

let sandbox;
let n8n;
let credential;
let triggerId;
let pollId;
let pollMs = 5_000;
const stack = e2eStack('key-change');
const webhookId = uuid();
const regeneratePath = `e2e-regenerate-${uuid().slice(0, 8)}`;

const control = (method, urlPath, body) => sandboxControl(sandbox, method, urlPath, body);

async function waitFor(predicate, what, timeoutMs = 30_000) {
	const deadline = Date.now() + Math.max(timeoutMs, 3 * pollMs + 15_000);
	for (;;) {
		const value = await predicate();
		if (value) return value;
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

/** The items a node put out in the finished executions of a workflow, oldest first. */
async function itemsOf(workflowId, nodeName) {
	const executions = await n8n.getExecutions({ workflowId, includeData: true });
	return executions
		.filter((execution) => execution.finished || execution.stoppedAt)
		.sort((a, b) => Number(a.id) - Number(b.id))
		.flatMap((execution) =>
			(execution.data.resultData.runData[nodeName] ?? []).flatMap((run) =>
				(run.data?.main ?? []).flatMap((items) => items ?? []).map((item) => item.json),
			),
		);
}

before(async () => {
	const { install } = await stack.prepare();
	const pollTimes = refusesSubMinutePolls(install.dir)
		? { item: [{ mode: 'everyMinute' }] }
		: { item: [{ mode: 'custom', cronExpression: EVERY_5_SECONDS }] };
	if (refusesSubMinutePolls(install.dir)) pollMs = 60_000;
	sandbox = await stack.service(startSandbox({ retryDelaysMs: [0, 50, 100, 200] }));
	[credential] = await stack.credentials([sandboxCredential(sandbox)]);
	const credentials = { companyPaymentsApi: { id: credential.id, name: credential.name } };
	const trigger = {
		name: 'e2e key change: webhook',
		nodes: [
			{
				id: uuid(),
				name: TRIGGER,
				type: NODE_TYPES.trigger,
				typeVersion: 1,
				position: [0, 0],
				webhookId,
				parameters: {
					events: ['*'],
					routeByEvent: false,
					registerWebhook: true,
					rotateSecret: true,
					options: {},
				},
				credentials,
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	};
	const poll = {
		name: 'e2e key change: poll',
		nodes: [
			{
				id: uuid(),
				name: POLL,
				type: NODE_TYPES.pollTrigger,
				typeVersion: 1,
				position: [0, 0],
				parameters: { pollTimes, watch: ['payouts'], options: {} },
				credentials,
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	};
	const regenerate = {
		name: 'e2e key change: regenerate',
		nodes: [
			webhookNode(regeneratePath),
			{
				id: uuid(),
				name: 'Company Payments',
				type: NODE_TYPES.action,
				typeVersion: 1,
				position: [220, 0],
				parameters: { resource: 'company', operation: 'regenerateApiKey' },
				credentials,
			},
		],
		connections: { Webhook: { main: [[{ node: 'Company Payments', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
	n8n = await stack.start({ published: [trigger, poll, regenerate] });
	[triggerId, pollId] = stack.published.map(({ id }) => id);
	assert.deepEqual(n8n.activationErrors(), []);
});

after(() => stack.stop());

test('regenerate the key through the node, update the credential: a signed delivery and a poll change arrive', async () => {
	const company = sandbox.state.companies.get('cmp_demo');
	assert.equal(company.webhookUrl, n8n.webhookUrl(`${webhookId}/webhook`));
	const rotated = company.webhookSecret;
	assert.match(String(rotated), /^whsec_/, 'the trigger rotated the company secret at activation');
	// The poll trigger's baseline under the old key: one poll has run.
	await waitFor(
		async () =>
			(await n8n.api('GET', `/workflows/${pollId}`)).staticData?.[`node:${POLL}`]?.pollState,
		'the poll trigger to take its baseline',
	);

	// Regenerate API Key through the node; its output holds the new key (shown once).
	const res = await fetch(n8n.webhookUrl(regeneratePath), { method: 'POST' });
	const answer = await res.json();
	assert.equal(res.status, 200, JSON.stringify(answer));
	const output = Array.isArray(answer) ? answer[0] : answer;
	const newKey = output[output.apiKeyField];
	assert.equal(typeof newKey, 'string', JSON.stringify(Object.keys(output)));
	assert.notEqual(newKey, sandbox.keys.owner);

	// The new key into the same n8n credential, as the package asks.
	const updated = await n8n.rest('PATCH', `/credentials/${credential.id}`, {
		name: credential.name,
		type: credential.type ?? 'companyPaymentsApi',
		data: { environment: 'staging', baseUrl: sandbox.url, apiKey: newKey },
	});
	assert.ok(updated, 'the credential was updated');

	// A payout taken at the service: signed with the rotated secret, and seen by the next poll.
	const payout = [...sandbox.state.payouts.values()].find(
		(candidate) => candidate.companyId === company.id && candidate.status === 'waiting_trader',
	);
	assert.ok(payout, 'the sandbox seeds a payout waiting for a trader');
	await control('POST', `/payouts/${payout.id}/status`, { status: 'in_progress' });

	await sandbox.webhooksIdle();
	const { deliveries } = await control('GET', '/deliveries?event=payout.status_changed');
	const delivery = deliveries.find(
		(candidate) =>
			candidate.payload.payoutId === payout.id && candidate.payload.status === 'in_progress',
	);
	assert.ok(delivery, 'the sandbox sent payout.status_changed');
	assert.equal(delivery.attempts[0].status, 200, JSON.stringify(delivery.attempts));

	const delivered = await waitFor(
		async () =>
			(await itemsOf(triggerId, TRIGGER)).find(
				(item) => item.payoutId === payout.id && item.status === 'in_progress',
			),
		'the webhook execution of the taken payout',
	);
	assert.equal(delivered.source, 'webhook');

	const polled = await waitFor(
		async () =>
			(await itemsOf(pollId, POLL)).find(
				(item) => item.payoutId === payout.id && item.status === 'in_progress',
			),
		'the poll trigger to emit the taken payout',
	);
	assert.equal(polled.source, 'poll');
	// No new baseline: the poll state belongs to the credential and Base URL, not to the key.
	assert.doesNotMatch(n8n.logText?.() ?? '', /new baseline/);
});

test('regenerate the key again, update the credential, restart n8n before any delivery: the delivery still verifies', async () => {
	// Outside read 2, finding 1, and r6-data-b, finding 5: after the restart the API-key seal does
	// not open (sealed under the previous key, the credential has no Webhook Secret) and no
	// process remembers it; the seal under this n8n instance and the credential's ID
	// does. The profile shows the secret in full here too (the document's profile carries
	// `webhookSecret`), the fallback for a secret sealed by an earlier version.
	sandbox.setProfile({ profileSecret: 'full' });
	const company = sandbox.state.companies.get('cmp_demo');
	const res = await fetch(n8n.webhookUrl(regeneratePath), { method: 'POST' });
	const answer = await res.json();
	assert.equal(res.status, 200, JSON.stringify(answer));
	const output = Array.isArray(answer) ? answer[0] : answer;
	const newKey = output[output.apiKeyField];
	assert.equal(typeof newKey, 'string', JSON.stringify(Object.keys(output)));
	await n8n.rest('PATCH', `/credentials/${credential.id}`, {
		name: credential.name,
		type: credential.type ?? 'companyPaymentsApi',
		data: { environment: 'staging', baseUrl: sandbox.url, apiKey: newKey },
	});
	n8n = await n8n.restart();
	await waitFor(
		async () =>
			(await fetch(n8n.webhookUrl(`${webhookId}/webhook`), { method: 'POST' })).status === 401,
		'the restarted trigger to answer',
	);

	// The payout the first test took moves on: signed with the secret the trigger cannot open.
	const payout = [...sandbox.state.payouts.values()].find(
		(candidate) => candidate.companyId === company.id && candidate.status === 'in_progress',
	);
	assert.ok(payout, 'the payout taken in the first test');
	await control('POST', `/payouts/${payout.id}/status`, { status: 'success' });
	await sandbox.webhooksIdle();
	const { deliveries } = await control('GET', '/deliveries?event=payout.status_changed');
	const delivery = deliveries.find(
		(candidate) =>
			candidate.payload.payoutId === payout.id && candidate.payload.status === 'success',
	);
	assert.ok(delivery, 'the sandbox sent payout.status_changed');
	assert.ok(
		delivery.attempts.some((attempt) => attempt.status === 200),
		JSON.stringify(delivery.attempts),
	);
	const delivered = await waitFor(
		async () =>
			(await itemsOf(triggerId, TRIGGER)).find(
				(item) => item.payoutId === payout.id && item.status === 'success',
			),
		'the webhook execution after the restart',
	);
	assert.equal(delivered.source, 'webhook');
	const logs = n8n.logText?.() ?? '';
	assert.ok(!logs.includes(company.webhookSecret.slice(6)), 'the secret is never logged');
});
