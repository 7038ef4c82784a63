/**
 * The Company Payments Poll Trigger inside a real n8n 2.8.4, against the sandbox: n8n is
 * stopped for longer than the webhook retry window while a payout is refunded and a deposit
 * completes (their webhooks fail for good); after the restart the poll trigger emits exactly
 * those changes, once. The workflow follows the documented recipe (webhook trigger and poll
 * trigger into Remove Duplicates on `changeKey`), and every change reaches its last node
 * exactly once. A dispute resolved at the sandbox (no webhook exists for it) reaches the
 * workflow too.
 *
 * The poll runs every 5 seconds where the n8n under test allows it: n8n refuses a cron whose
 * seconds field holds `*`, but takes a list of seconds. n8n 2.41 refuses any poll more frequent
 * than once a minute ("The polling interval is too short"), so there the poll runs every minute
 * and the waits grow with it.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { startSandbox } from '../../sandbox/server.mjs';
import { PACKAGE_NAME, uuid } from '../../harness/n8n.mjs';
import {
	e2eStack,
	refusesSubMinutePolls,
	sandboxControl,
	sandboxCredential,
} from '../../harness/stack.mjs';
import { NODE_TYPES } from '../../harness/workflows.mjs';

const SECRET = `whsec_${'7a'.repeat(24)}`;
const EVERY_5_SECONDS = '0,5,10,15,20,25,30,35,40,45,50,55 * * * * *';
/** Poll Times of both workflows and the poll period, set in before() from the installed n8n. */
let pollTimes = { item: [{ mode: 'custom', cronExpression: EVERY_5_SECONDS }] };
let pollMs = 5_000;

const RECIPE_EXAMPLE = path.join(process.cwd(), 'examples/poll-and-webhook-exactly-once.json');
// Node names of the example (the poll-only workflow uses the same two).
const POLL = 'Company Payments Poll Trigger';
const WEBHOOK = 'Company Payments Trigger';
const HANDLED = 'Handle each change once';

let sandbox;
let n8n;
const stack = e2eStack('poll');
let workflowId; // the recipe: both triggers into Remove Duplicates
let pollOnlyId; // the poll trigger alone (its own static data, nothing else writes it)
const webhookId = uuid();

const control = (method, urlPath, body) => sandboxControl(sandbox, method, urlPath, body);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(predicate, what, timeoutMs = 30_000) {
	const deadline = Date.now() + Math.max(timeoutMs, 2 * pollMs + 15_000);
	for (;;) {
		const value = await predicate();
		if (value) return value;
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await sleep(250);
	}
}

function itemsOf(runData, node) {
	const runs = runData[node] ?? [];
	return runs.flatMap((run) =>
		(run.data?.main ?? []).flatMap((items) => items ?? []).map((item) => item.json),
	);
}

/** Finished executions, oldest first: which trigger ran, its items, and what reached the last node. */
async function executions(id = workflowId) {
	const all = await n8n.getExecutions({ workflowId: id, includeData: true });
	return all
		.filter((execution) => execution.finished || execution.stoppedAt)
		.sort((a, b) => Number(a.id) - Number(b.id))
		.map((execution) => {
			const runData = execution.data.resultData.runData;
			return {
				id: Number(execution.id),
				trigger: runData[POLL] ? 'poll' : 'webhook',
				items: itemsOf(runData, runData[POLL] ? POLL : WEBHOOK),
				handled: itemsOf(runData, HANDLED),
				error: execution.data.resultData.error?.message,
			};
		});
}

const pollKeys = (list) =>
	list.filter((e) => e.trigger === 'poll').flatMap((e) => e.items.map((i) => i.changeKey));
const handledKeys = (list) => list.flatMap((e) => e.handled.map((i) => i.changeKey));
/** A short view of executions for failure messages. */
const outline = (list) =>
	JSON.stringify(
		list.map((e) => ({
			id: e.id,
			trigger: e.trigger,
			keys: e.items.map((i) => i.changeKey),
			handled: e.handled.map((i) => i.changeKey),
			error: e.error,
		})),
	);

function count(keys, key) {
	return keys.filter((k) => k === key).length;
}

before(async () => {
	const { install } = await stack.prepare();
	if (refusesSubMinutePolls(install.dir)) {
		pollTimes = { item: [{ mode: 'everyMinute' }] };
		pollMs = 60_000;
	}
	sandbox = await stack.service(
		startSandbox({ retryDelaysMs: [0, 50, 100, 200], webhookSecret: SECRET }),
	);
	const [credential] = await stack.credentials([
		sandboxCredential(sandbox, { data: { webhookSecret: SECRET } }),
	]);
	const credentials = { companyPaymentsApi: { id: credential.id, name: credential.name } };
	// The recipe is the example workflow itself, with the credential, a fresh webhook id and a
	// 5-second poll: the test proves the example imports and keeps each change once.
	const recipe = JSON.parse(fs.readFileSync(RECIPE_EXAMPLE, 'utf8'));
	for (const node of recipe.nodes) {
		if (node.type.startsWith(`${PACKAGE_NAME}.`)) node.credentials = credentials;
		if (node.type === NODE_TYPES.trigger) node.webhookId = webhookId;
		if (node.type === NODE_TYPES.pollTrigger) {
			node.parameters.pollTimes = pollTimes;
		}
	}
	const pollOnly = {
		name: 'e2e poll only',
		nodes: [
			{
				id: uuid(),
				name: POLL,
				type: NODE_TYPES.pollTrigger,
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					pollTimes,
					watch: ['payouts', 'companyDeposits', 'userDeposits', 'disputes'],
					options: {},
				},
				credentials,
			},
			{
				id: uuid(),
				name: HANDLED,
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [250, 0],
				parameters: {},
			},
		],
		connections: { [POLL]: { main: [[{ node: HANDLED, type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
	// Both published by the CLI before the start: n8n activates them (and polls) as it starts.
	n8n = await stack.start({ published: [recipe, pollOnly] });
	[workflowId, pollOnlyId] = stack.published.map(({ id }) => id);
	assert.deepEqual(n8n.activationErrors(), []);
});

after(() => stack.stop());

test('activation takes a baseline: nothing already there is emitted', async () => {
	// A window, not a stand-in for a condition: the test asserts that nothing is emitted during
	// one poll period after the activation poll (a poll that emits nothing leaves no trace to
	// wait for), so one scheduled poll at least has run when the executions are read.
	await sleep(pollMs + 1_000);
	for (const id of [workflowId, pollOnlyId]) {
		const list = await executions(id);
		assert.deepEqual(pollKeys(list), [], JSON.stringify(list));
	}
});

test('a change both triggers see is handled once', async () => {
	// Remove Duplicates stores its first key with an INSERT that two executions running at once
	// can both attempt (n8n 2.8.4: one fails with a UNIQUE constraint). A first delivery that
	// only the webhook trigger sees makes that first insert; the docs say so.
	await control('POST', '/webhooks/send', {
		event: 'card.assigned',
		payload: { externalId: 'warm-up-only' },
		deliveryId: `dlv_warm_${uuid()}`,
		wait: true,
	});
	await waitFor(
		// The key names the delivery too (card.assigned shows no time; outside read r8-data).
		async () =>
			handledKeys(await executions()).some((key) =>
				String(key).startsWith('card:company:ext:warm-up-only:assigned:delivery:'),
			),
		'the warm-up delivery',
	);
	const res = await fetch(`${sandbox.url}/payouts`, {
		method: 'POST',
		headers: {
			'Content-Type': 'application/json',
			'X-API-Key': sandbox.keys.owner,
			'Idempotency-Key': uuid(),
		},
		body: JSON.stringify({
			amountRub: 2500,
			requisiteType: 'phone',
			requisite: '+79001112233',
			bankId: 'sber',
			externalId: 'e2e-both-triggers',
		}),
	});
	const created = await res.json();
	assert.equal(res.status, 201, JSON.stringify(created));
	const key = `payout:company:${created.id}:${created.status}`;
	// The webhook delivers at once; the poll sees the same new payout within 5 seconds.
	const list = await waitFor(async () => {
		const all = await executions();
		return (
			count(pollKeys(all), key) === 1 &&
			all.some((e) => e.trigger === 'webhook' && e.items.some((i) => i.changeKey === key)) &&
			all
		);
	}, 'the webhook and the poll trigger to report the new payout');
	const polled = list
		.find((e) => e.trigger === 'poll' && e.items.some((i) => i.changeKey === key))
		.items.find((i) => i.changeKey === key);
	const delivered = list
		.find((e) => e.trigger === 'webhook' && e.items.some((i) => i.changeKey === key))
		.items.find((i) => i.changeKey === key);
	assert.equal(polled.source, 'poll');
	assert.equal(delivered.source, 'webhook');
	// The webhook's fields are all there, with the same values (timestamps aside).
	for (const field of [
		'event',
		'payoutId',
		'externalId',
		'status',
		'amountRub',
		'chargedUsdt',
		'refunded',
		'fundsReturned',
		'requisiteType',
		'bankId',
	]) {
		assert.deepEqual(polled[field], delivered[field], field);
	}
	assert.equal(count(handledKeys(list), key), 1, outline(list));
});

test('changes whose webhooks failed for good while n8n was down are emitted once after the restart', async () => {
	const payout = [...sandbox.state.payouts.values()].find((p) => p.status === 'waiting_trader');
	assert.ok(payout, 'the sandbox seeds a payout waiting for a trader');
	// A deposit held in the AML check while n8n is up: both triggers see it arrive.
	const { deposit } = await control('POST', '/deposits', { amount: 120, aml: 'pending' });
	// A deposit's key carries the updatedAt its record and event show (outside read 2).
	const depositKey = (status) => {
		const shown = sandbox.state.deposits.find((d) => d.id === deposit.id).updatedAt;
		return `deposit:company:${deposit.id}:${status}:updatedAt:${shown.replace(/:/g, '%3A')}`;
	};
	const pendingKey = depositKey('aml_pending');
	await waitFor(
		async () => pollKeys(await executions(pollOnlyId)).includes(pendingKey),
		'the poll trigger to see the pending deposit',
	);
	const lastBefore = Math.max(0, ...(await executions(pollOnlyId)).map((e) => e.id));
	const stored = await n8n.api('GET', `/workflows/${pollOnlyId}`);
	const remembered = stored.staticData?.[`node:${POLL}`]?.pollState?.lists;
	assert.equal(
		remembered?.companyDeposits?.[deposit.id],
		'aml_pending',
		`state saved in n8n: ${JSON.stringify(stored.staticData)}`,
	);

	await n8n.stop();
	await control('POST', `/payouts/${payout.id}/status`, {
		status: 'fail',
		failReason: 'no_traders',
		refund: true,
	});
	await control('POST', `/deposits/${deposit.id}/status`, { status: 'completed' });
	await sandbox.webhooksIdle();
	const lost = (await control('GET', '/deliveries?state=failed')).deliveries;
	const refundDelivery = lost.find(
		(d) => d.event === 'payout.status_changed' && d.payload.payoutId === payout.id,
	);
	const completedDelivery = lost.find(
		(d) => d.event === 'deposit.completed' && d.payload.depositId === deposit.id,
	);
	assert.ok(refundDelivery && completedDelivery, 'both webhooks failed for good');
	assert.equal(refundDelivery.attempts.length, 4);
	// No wait for the retry window: webhooksIdle() above returned once no delivery or retry
	// timer was left, and both deliveries are failed for good after their 4 attempts.

	n8n = await stack.startN8n({ port: n8n.port, brokerPort: n8n.brokerPort });
	// A refund is named by its refundedAt (the record shows it; shared/changeKey.ts CHANGE_TIMES).
	const refundedAt = sandbox.state.payouts.get(payout.id).refundedAt;
	assert.ok(refundedAt, 'the sandbox set refundedAt');
	const refundKey = `payout:company:${payout.id}:fail:refunded:refundedAt:${refundedAt.replace(/:/g, '%3A')}`;
	const completedKey = depositKey('completed');
	await waitFor(async () => {
		const keys = pollKeys((await executions(pollOnlyId)).filter((e) => e.id > lastBefore));
		const handled = handledKeys(await executions());
		return [refundKey, completedKey].every((key) => keys.includes(key) && handled.includes(key));
	}, 'both workflows to get the lost changes');
	// A window, not a stand-in for a condition: the assertion below is that nothing is emitted
	// again during two more polls (a poll that emits nothing leaves no trace to wait for).
	await sleep(Math.min(2 * pollMs, 60_000) + 1_000);

	const after = (await executions(pollOnlyId)).filter((e) => e.id > lastBefore);
	assert.deepEqual(
		pollKeys(after).sort(),
		[completedKey, refundKey].sort(),
		JSON.stringify(after, null, 1),
	);
	const refund = after.flatMap((e) => e.items).find((i) => i.changeKey === refundKey);
	assert.equal(refund.event, 'payout.status_changed');
	assert.equal(refund.fundsReturned, true);
	assert.equal(refund.refunded, true);
	assert.equal(refund.source, 'poll');
	assert.equal(refund.previousState, 'waiting_trader');
	const completed = after.flatMap((e) => e.items).find((i) => i.changeKey === completedKey);
	assert.equal(completed.event, 'deposit.completed');
	assert.equal(completed.walletType, 'company');
	assert.equal(completed.previousState, 'aml_pending');

	const handled = handledKeys(await executions());
	assert.equal(count(handled, refundKey), 1);
	assert.equal(count(handled, completedKey), 1);
	assert.equal(
		new Set(handled).size,
		handled.length,
		`every change handled once: ${JSON.stringify(handled)}`,
	);
});

test('a dispute resolved at the sandbox reaches the workflow', async () => {
	const open =
		sandbox.state.disputes &&
		[...sandbox.state.disputes.values()].find((d) => ['submitted', 'in_review'].includes(d.status));
	assert.ok(open, 'the sandbox seeds an open dispute');
	await control('POST', `/disputes/${open.id}/resolve`, {
		resolution: 'partial_refund',
		refundAmount: 10,
		adminComment: 'e2e',
	});
	// The key carries the dispute's updatedAt, which the sandbox moves on resolve: a dispute can
	// enter a state again (outside read r5-data, finding 1), each visit its own key.
	const { updatedAt } = sandbox.state.disputes.get(open.id);
	assert.ok(updatedAt, 'the sandbox shows the resolved dispute with its updatedAt');
	const keyTime = String(updatedAt).replace(/%/g, '%25').replace(/:/g, '%3A').replace(/\//g, '%2F');
	const key = `dispute:company:${open.id}:resolved:partial_refund:updatedAt:${keyTime}`;
	const list = await waitFor(async () => {
		const all = await executions();
		const alone = await executions(pollOnlyId);
		return count(handledKeys(all), key) === 1 && count(pollKeys(alone), key) === 1 && all;
	}, 'the resolved dispute in both workflows');
	const item = list.flatMap((e) => e.items).find((i) => i.changeKey === key);
	assert.equal(item.event, 'dispute.status_changed');
	assert.equal(item.resolution, 'partial_refund');
	assert.equal(item.disputeId, open.id);
	assert.equal(count(pollKeys(list), key), 1);
});
