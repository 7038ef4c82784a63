// Benchmark 2: the Company Payments Trigger inside a real n8n against n8n's own nodes that pay
// the same entry costs (issue 19).
//
// Active workflows in the same n8n, each "<start node> → No Operation", all answering on receipt:
//   - diy:         what a user builds instead of installing us, with the same guarantees (issue
//                  32): n8n's Webhook node (v2, Raw Body) → Crypto (HMAC-SHA256 of the raw body,
//                  secret in a Crypto credential) → IF (equals X-Service-Signature) → Remove
//                  Duplicates (items processed in previous executions, keyed by the delivery ID)
//                  → No Operation. Anchor: ours with IDs ≥ 1.0× its rate, answer time ≤ its.
//   - webhook:     n8n's Webhook node (v2), no authentication: anchor of the answer time, and a
//                  reference. On n8n 2.41 it is the one start node n8n runs without an expression
//                  sandbox in the webhook phase (live-webhooks.js webhookPhaseNeedsIsolate).
//   - webhookAuth: n8n's Webhook node (v2) with Header Auth (an httpHeaderAuth credential): a
//                  credential read per request. Anchor of ours WITHOUT delivery IDs (≥ 1.0×);
//                  against ours with IDs a diagnostic since issue 32 (it never pays a store write).
//   - chargebee:   n8n's Chargebee Trigger (v1): a built-in non-Webhook trigger that takes a
//                  plain POST without registering anywhere (no webhookMethods, no credential);
//                  on 2.41 it pays the webhook-phase sandbox and, as typeVersion 1, the binaryData
//                  expression. A diagnostic since issue 32.
//   - small:       our trigger, typeVersion 2 (new nodes), default options, dedup store full at
//                  the default cap of 1,000 delivery ids (prefilled), deliveries with an ID
//   - noId:        the same trigger, deliveries WITHOUT X-Service-Delivery-Id (nothing stored)
//   - v1:          our trigger at typeVersion 1 (saved workflows), as `small` otherwise
// The stores are prefilled through the workflows' static data, so every run measures the
// steady state rather than a store that grows while it is measured.
// Every delivery has a unique X-Service-Delivery-Id (a UUID, like the service's) and a valid
// X-Service-Signature; the Webhook nodes ignore both, and get the header of their Header Auth.
// Chargebee gets the same body with Chargebee's `event_type` added (it starts nothing without).
// Senders keep connections alive.
//
// Rate: deliveries / (time from the first request until n8n has FINISHED all executions). The
// answer comes back before the execution runs ("onReceived"), so counting answers only would
// reward queueing work; the rate until the last answer is kept as well.
import { createHmac, randomUUID } from 'node:crypto';

import { chain, credentialRef, lineNode } from '../harness/workflows.mjs';
import { eventBody } from './verify.mjs';
import { sleep, summary } from './lib/stats.mjs';
import {
	failedExecutions,
	finishedExecutions,
	httpClient,
	noOp,
	prefilledStore,
	successfulExecutions,
	triggerWorkflow,
	waitFinished,
	webhookWorkflow,
	workflowId,
} from './lib/n8n.mjs';

/** The credential's Webhook Secret (service form: whsec_ + 48 hex); a dummy for the benchmark. */
export const WEBHOOK_SECRET_DUMMY = 'whsec_dummy5b1e0c9a7f3d2e8b6a4c1f0e9d8c7b6a5f4e3d';

const BODY = eventBody(1024).raw;
const SIGNATURE = createHmac('sha256', WEBHOOK_SECRET_DUMMY).update(BODY).digest('hex');
/** The same event with Chargebee's event type field, for the Chargebee Trigger. */
const CHARGEBEE_BODY = Buffer.from(
	JSON.stringify({ event_type: 'order.status_changed', ...JSON.parse(BODY.toString('utf8')) }),
);

/** The Header Auth credential of the Webhook node anchor (n8n's httpHeaderAuth), a dummy. */
export const HEADER_AUTH = { name: 'X-Bench-Auth', value: 'bench-dummy-8c1f0e9d7b6a5c4d3e2f' };
export const HEADER_AUTH_CREDENTIAL = {
	name: 'bench header auth',
	type: 'httpHeaderAuth',
	data: HEADER_AUTH,
};

/** n8n's Chargebee Trigger → No Operation (path `<webhookId>/webhook`, all events). */
function chargebeeWorkflow() {
	const webhookId = randomUUID();
	const trigger = lineNode(
		'Chargebee Trigger',
		'n8n-nodes-base.chargebeeTrigger',
		1,
		0,
		{ events: ['*'] },
		{ webhookId },
	);
	return {
		workflow: {
			id: workflowId(),
			name: 'bench chargebee-trigger',
			nodes: [trigger, { ...noOp(), position: [220, 0] }],
			connections: {
				'Chargebee Trigger': { main: [[{ node: 'No Operation', type: 'main', index: 0 }]] },
			},
			settings: { executionOrder: 'v1' },
		},
		path: `${webhookId}/webhook`,
		body: CHARGEBEE_BODY,
	};
}

/** The Crypto credential of the do-it-yourself chain (n8n's `crypto`): the same webhook secret. */
export const CRYPTO_CREDENTIAL = {
	name: 'bench crypto',
	type: 'crypto',
	data: { hmacSecret: WEBHOOK_SECRET_DUMMY },
};

/**
 * The do-it-yourself chain with our trigger's guarantees: Webhook (v2, POST, respond
 * immediately, Raw Body so the HMAC covers the exact bytes) → Crypto (HMAC-SHA256, hex, of the
 * raw body) → IF (that equals X-Service-Signature) → Remove Duplicates (items processed in
 * previous executions, by X-Service-Delivery-Id; n8n keeps them in its database) → No Operation.
 */
function diyWorkflow(cryptoCredential) {
	const path = 'bench-diy-chain';
	const nodes = [
		lineNode(
			'Webhook',
			'n8n-nodes-base.webhook',
			2,
			0,
			{ path, httpMethod: 'POST', responseMode: 'onReceived', options: { rawBody: true } },
			{ webhookId: randomUUID() },
		),
		lineNode(
			'Crypto',
			'n8n-nodes-base.crypto',
			2,
			220,
			{
				action: 'hmac',
				binaryData: true,
				binaryPropertyName: 'data',
				type: 'SHA256',
				dataPropertyName: 'signature',
				encoding: 'hex',
			},
			{ credentials: { crypto: credentialRef(cryptoCredential) } },
		),
		lineNode('Signature Matches', 'n8n-nodes-base.if', 2, 440, {
			conditions: {
				options: { caseSensitive: true, leftValue: '', typeValidation: 'strict' },
				conditions: [
					{
						id: randomUUID(),
						leftValue: '={{ $json.signature }}',
						rightValue: "={{ $json.headers['x-service-signature'] }}",
						operator: { type: 'string', operation: 'equals' },
					},
				],
				combinator: 'and',
			},
			options: {},
		}),
		lineNode('Remove Duplicates', 'n8n-nodes-base.removeDuplicates', 2, 660, {
			operation: 'removeItemsSeenInPreviousExecutions',
			logic: 'removeItemsWithAlreadySeenKeyValues',
			dedupeValue: "={{ $json.headers['x-service-delivery-id'] }}",
			options: {},
		}),
		{ ...noOp(), position: [880, 0] },
	];
	return {
		workflow: {
			id: workflowId(),
			name: 'bench diy-chain',
			nodes,
			connections: chain(...nodes.map((n) => n.name)),
			settings: { executionOrder: 'v1' },
		},
		path,
	};
}

/** Whether the newest execution of the DIY chain verified and passed its delivery on. */
export async function diyPassed(n8n, target) {
	const page = await n8n.api(
		'GET',
		`/executions?workflowId=${target.workflow.id}&includeData=true&limit=1`,
	);
	const runData = page.data?.[0]?.data?.resultData?.runData ?? {};
	return (runData['No Operation']?.[0]?.data?.main?.[0]?.length ?? 0) === 1;
}

/**
 * How many executions of a workflow failed (beyond `before`, the count when the run started),
 * with the distinct error messages of the last few.
 */
async function failuresOf(n8n, target, before = 0) {
	const count = (await failedExecutions(n8n, target.workflow.id)) - before;
	if (count === 0) return { count, messages: [] };
	const page = await n8n.api(
		'GET',
		`/executions?workflowId=${target.workflow.id}&status=error&includeData=true&limit=5`,
	);
	const messages = (page.data ?? []).map((execution) => {
		const error = execution.data?.resultData?.error;
		return error?.message ?? 'no message';
	});
	return { count, messages: [...new Set(messages)] };
}

export const SMALL_STORE = 1_000;
export const FULL_STORE = 10_000;

/**
 * The workflows (for import before n8n starts); `headerAuth` and `crypto` are the imported
 * httpHeaderAuth and Crypto credentials.
 */
export function triggerWorkflows(credential, headerAuth, crypto, { storeSize = SMALL_STORE } = {}) {
	// Another store size is also the store's cap, so the store stays that size while measured.
	const storeOptions = storeSize === SMALL_STORE ? {} : { dedupMaxEntries: storeSize };
	const webhookAuth = webhookWorkflow('webhook-header-auth', [noOp()], {
		responseMode: 'onReceived',
		authentication: 'headerAuth',
	});
	webhookAuth.workflow.nodes[0].credentials = {
		httpHeaderAuth: { id: headerAuth.id, name: headerAuth.name },
	};
	webhookAuth.headers = { [HEADER_AUTH.name.toLowerCase()]: HEADER_AUTH.value };
	return {
		diy: diyWorkflow(crypto),
		webhook: webhookWorkflow('webhook-noop', [noOp()], { responseMode: 'onReceived' }),
		webhookAuth,
		chargebee: chargebeeWorkflow(),
		small: triggerWorkflow(
			'trigger-default-store',
			credential,
			prefilledStore(storeSize),
			storeOptions,
			{ typeVersion: 2 },
		),
		noId: {
			...triggerWorkflow('trigger-no-delivery-id', credential, undefined, {}, { typeVersion: 2 }),
			withoutIds: true,
		},
		v1: triggerWorkflow(
			'trigger-v1-default-store',
			credential,
			prefilledStore(storeSize),
			storeOptions,
		),
	};
}

/** The service's headers (plus a target's own); `id` null leaves X-Service-Delivery-Id out. */
function headersFor(id, target = {}) {
	const headers = {
		'content-type': 'application/json',
		'content-length': String((target.body ?? BODY).length),
		'x-service-signature': SIGNATURE,
		'user-agent': 'company-payments-bench/1.0',
		...target.headers,
	};
	if (id !== null) headers['x-service-delivery-id'] = id;
	return headers;
}

/**
 * Sends `count` new deliveries with `concurrency` senders; resolves when all executions finished.
 * `lost` counts deliveries answered 200 (and, for ours, `executed: true`) whose execution did not
 * succeed: the sender was told the event was taken, so the service never sends it again.
 */
export async function burst(n8n, client, target, count, concurrency) {
	const before = await finishedExecutions(n8n, target.workflow.id);
	const succeededBefore = await successfulExecutions(n8n, target.workflow.id);
	const url = n8n.webhookUrl(target.path);
	const ids = Array.from({ length: count }, () => (target.withoutIds ? null : randomUUID()));
	let next = 0;
	let accepted = 0;
	const start = performance.now();
	const sender = async () => {
		while (next < ids.length) {
			const id = ids[next++];
			const res = await client.send(url, {
				headers: headersFor(id, target),
				body: target.body ?? BODY,
			});
			if (res.status !== 200) throw new Error(`${target.path} answered ${res.status}: ${res.text}`);
			if (!res.text.includes('"executed":false')) accepted++;
		}
	};
	await Promise.all(Array.from({ length: concurrency }, sender));
	const answered = performance.now();
	const finished = await waitFinished(n8n, target.workflow.id, before + count);
	const succeeded = (await successfulExecutions(n8n, target.workflow.id)) - succeededBefore;
	return {
		answeredPerSecond: count / ((answered - start) / 1000),
		finishedPerSecond: count / ((finished - start) / 1000),
		accepted,
		lost: Math.max(0, accepted - succeeded),
	};
}

/** One delivery at a time with a pause between; returns the answer times in ms. */
async function oneByOne(client, url, ids, check, target = {}) {
	const times = [];
	for (const id of ids) {
		const res = await client.send(url, {
			headers: headersFor(id, target),
			body: target.body ?? BODY,
		});
		check(res);
		times.push(res.ms);
		await sleep(40);
	}
	return times;
}

/**
 * `count` new deliveries one at a time, then the same ids again (duplicates), and checks that
 * the duplicates started no execution. Returns the answer times in ms.
 */
async function newVersusDuplicate(n8n, client, target, count) {
	const url = n8n.webhookUrl(target.path);
	const ids = Array.from({ length: count }, () => randomUUID());
	const before = await finishedExecutions(n8n, target.workflow.id);
	const fresh = await oneByOne(client, url, ids, (res) => {
		if (res.status !== 200 || res.text.includes('"executed":false')) {
			throw new Error(`a new delivery was not executed: ${res.status} ${res.text}`);
		}
	});
	await waitFinished(n8n, target.workflow.id, before + count);
	const duplicate = await oneByOne(client, url, ids, (res) => {
		if (res.status !== 200 || !res.text.includes('"executed":false')) {
			throw new Error(`a duplicate delivery was not recognised: ${res.status} ${res.text}`);
		}
	});
	await sleep(500);
	const after = await finishedExecutions(n8n, target.workflow.id);
	if (after !== before + count) {
		throw new Error(`duplicates started executions: ${after - before} for ${count} new deliveries`);
	}
	return {
		fresh: summary(fresh),
		duplicate: summary(duplicate),
		ratio: summary(fresh).median / summary(duplicate).median,
	};
}

export const VARIANTS = ['diy', 'webhook', 'webhookAuth', 'chargebee', 'small', 'noId', 'v1'];
/** Ours, each compared with every anchor. */
export const OURS = ['small', 'noId', 'v1'];
export const ANCHORS = ['diy', 'webhookAuth', 'chargebee', 'webhook'];
/** Answer times taken in alternating rounds: one new delivery to each, in turn. */
const LATENCY = ['small', 'noId', 'diy', 'webhook', 'webhookAuth', 'chargebee'];
/**
 * The workflows of a run under another n8n setting (issue 39): ours at both versions, the DIY
 * chain and n8n's bare Webhook node, the figures the targets of that setting are about.
 */
export const FOCUSED_VARIANTS = ['diy', 'webhook', 'small', 'noId', 'v1'];

/**
 * `count` rounds; in each, one new delivery to every workflow of `names` (the order alternates
 * between rounds), 40 ms apart. Returns each one's answer times, and per round ours with
 * delivery IDs over the DIY chain's answer time.
 */
async function alternatingLatency(n8n, client, workflows, names, count) {
	const before = {};
	for (const name of names)
		before[name] = await finishedExecutions(n8n, workflows[name].workflow.id);
	const times = Object.fromEntries(names.map((name) => [name, []]));
	const ratios = [];
	const overWebhook = [];
	for (let round = 0; round < count; round++) {
		const order = round % 2 === 0 ? names : [...names].reverse();
		const got = {};
		for (const name of order) {
			const target = workflows[name];
			const [ms] = await oneByOne(
				client,
				n8n.webhookUrl(target.path),
				[target.withoutIds ? null : randomUUID()],
				(res) => {
					if (res.status !== 200) throw new Error(`${name} answered ${res.status}: ${res.text}`);
				},
				target,
			);
			got[name] = ms;
			times[name].push(ms);
		}
		ratios.push(got.small / got.diy);
		overWebhook.push(got.small / got.webhook);
	}
	// Every execution started here has finished before anything else counts executions.
	for (const name of names) {
		await waitFinished(n8n, workflows[name].workflow.id, before[name] + count);
	}
	return {
		answer: Object.fromEntries(names.map((name) => [name, summary(times[name])])),
		smallOverDiy: summary(ratios),
		smallOverWebhook: summary(overWebhook),
	};
}

/**
 * @param {object} n8n running n8n handle with the workflows of triggerWorkflows() active
 * @param {ReturnType<typeof triggerWorkflows>} workflows
 */
export async function benchTrigger(
	n8n,
	workflows,
	{
		count = 300,
		concurrency = 8,
		runs = 5,
		sequential = 40,
		variants = VARIANTS,
		setting = 'defaults',
		log = () => {},
	} = {},
) {
	const client = httpClient(concurrency);
	const OURS_HERE = OURS.filter((name) => variants.includes(name));
	const ANCHORS_HERE = ANCHORS.filter((name) => variants.includes(name));
	const LATENCY_HERE = LATENCY.filter((name) => variants.includes(name));
	const tag = setting === 'defaults' ? 'trigger' : `trigger (${setting})`;
	try {
		const diyFailedBefore = await failedExecutions(n8n, workflows.diy.workflow.id);
		log(`${tag}: warm-up`);
		/** Deliveries answered 200 whose execution did not succeed, and how many were answered. */
		const lost = Object.fromEntries(variants.map((name) => [name, { lost: 0, accepted: 0 }]));
		const countLost = (name, got) => {
			lost[name].lost += got.lost;
			lost[name].accepted += got.accepted;
		};
		for (const name of variants)
			countLost(name, await burst(n8n, client, workflows[name], 40, concurrency));
		const rates = Object.fromEntries(
			variants.map((name) => [name, { answered: [], finished: [] }]),
		);
		const ratios = Object.fromEntries(
			OURS_HERE.map((name) => [
				name,
				Object.fromEntries(ANCHORS_HERE.map((anchor) => [anchor, []])),
			]),
		);
		/** Version 1 over the newest version, per run (issue 39: saved workflows keep up). */
		const v1Ratios = [];
		/** Ours with delivery IDs over ours without, per run: what the store's write costs. */
		const storeRatios = [];
		for (let run = 0; run < runs; run++) {
			log(
				`${tag}: run ${run + 1}/${runs}, ${count} deliveries per workflow, ${concurrency} senders`,
			);
			const order = run % 2 === 0 ? variants : [...variants].reverse();
			const got = {};
			for (const name of order)
				got[name] = await burst(n8n, client, workflows[name], count, concurrency);
			for (const name of variants) {
				rates[name].answered.push(got[name].answeredPerSecond);
				rates[name].finished.push(got[name].finishedPerSecond);
				countLost(name, got[name]);
			}
			for (const name of OURS_HERE) {
				for (const anchor of ANCHORS_HERE) {
					ratios[name][anchor].push(got[name].finishedPerSecond / got[anchor].finishedPerSecond);
				}
			}
			storeRatios.push(got.small.finishedPerSecond / got.noId.finishedPerSecond);
			if (got.v1) v1Ratios.push(got.v1.finishedPerSecond / got.small.finishedPerSecond);
		}
		if (!(await diyPassed(n8n, workflows.diy))) {
			throw new Error('the DIY chain did not pass a valid delivery through to No Operation');
		}
		log(`${tag}: answer times, ${sequential} rounds of one new delivery to each, alternating`);
		const answers = await alternatingLatency(n8n, client, workflows, LATENCY_HERE, sequential);
		log(`${tag}: ${sequential} new deliveries one at a time, then the same ${sequential} again`);
		const latency = {
			small: await newVersusDuplicate(n8n, client, workflows.small, sequential),
			v1: await newVersusDuplicate(n8n, client, workflows.v1, sequential),
		};
		// Ours and n8n's plain start nodes must not fail; the DIY chain's failures are its own
		// result (its Remove Duplicates under concurrent deliveries), reported with their messages.
		for (const name of variants.filter((n) => n !== 'diy')) {
			const failed = await failedExecutions(n8n, workflows[name].workflow.id);
			if (failed > 0) throw new Error(`${failed} executions of ${name} failed`);
		}
		const diyFailures = await failuresOf(n8n, workflows.diy, diyFailedBefore);
		return {
			setting,
			variants,
			count,
			concurrency,
			runs,
			sequential,
			rates: Object.fromEntries(
				variants.map((name) => [
					name,
					{ answered: summary(rates[name].answered), finished: summary(rates[name].finished) },
				]),
			),
			ratio: Object.fromEntries(
				OURS_HERE.map((name) => [
					name,
					Object.fromEntries(ANCHORS_HERE.map((anchor) => [anchor, summary(ratios[name][anchor])])),
				]),
			),
			storeRatio: summary(storeRatios),
			v1Ratio: v1Ratios.length ? summary(v1Ratios) : undefined,
			lost,
			diyFailures,
			answers,
			latency,
		};
	} finally {
		client.close();
	}
}
