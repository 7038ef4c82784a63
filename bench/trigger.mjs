// Benchmark 2: the Company Payments Trigger inside a real n8n against n8n's own nodes that pay
// the same entry costs (issue 19).
//
// Active workflows in the same n8n, each "<start node> → No Operation", all answering on receipt:
//   - webhook:     n8n's Webhook node (v2), no authentication: a reference only. On n8n 2.41 it
//                  is the one start node n8n runs without an expression sandbox per request.
//   - webhookAuth: n8n's Webhook node (v2) with Header Auth (an httpHeaderAuth credential): a
//                  credential read per request, like our signature check. Anchor, target ≥ 1.0×.
//   - chargebee:   n8n's Chargebee Trigger (v1): a built-in non-Webhook trigger that takes a
//                  plain POST without registering anywhere (no webhookMethods, no credential);
//                  on 2.41 it pays the webhook-phase sandbox and, as typeVersion 1, the binaryData
//                  expression. Anchor, target ≥ 1.0×.
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

import { credentialRef, lineNode } from '../harness/workflows.mjs';
import { eventBody } from './verify.mjs';
import { sleep, summary } from './lib/stats.mjs';
import {
	failedExecutions,
	finishedExecutions,
	httpClient,
	noOp,
	prefilledStore,
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

export const SMALL_STORE = 1_000;
export const FULL_STORE = 10_000;

/** The workflows (for import before n8n starts); `headerAuth` is the imported httpHeaderAuth credential. */
export function triggerWorkflows(credential, headerAuth, { storeSize = SMALL_STORE } = {}) {
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

/** Sends `count` new deliveries with `concurrency` senders; resolves when all executions finished. */
export async function burst(n8n, client, target, count, concurrency) {
	const before = await finishedExecutions(n8n, target.workflow.id);
	const url = n8n.webhookUrl(target.path);
	const ids = Array.from({ length: count }, () => (target.withoutIds ? null : randomUUID()));
	let next = 0;
	const start = performance.now();
	const sender = async () => {
		while (next < ids.length) {
			const id = ids[next++];
			const res = await client.send(url, {
				headers: headersFor(id, target),
				body: target.body ?? BODY,
			});
			if (res.status !== 200) throw new Error(`${target.path} answered ${res.status}: ${res.text}`);
		}
	};
	await Promise.all(Array.from({ length: concurrency }, sender));
	const answered = performance.now();
	const finished = await waitFinished(n8n, target.workflow.id, before + count);
	return {
		answeredPerSecond: count / ((answered - start) / 1000),
		finishedPerSecond: count / ((finished - start) / 1000),
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

const VARIANTS = ['webhook', 'webhookAuth', 'chargebee', 'small', 'noId', 'v1'];
/** Ours, each compared with every anchor. */
export const OURS = ['small', 'noId', 'v1'];
export const ANCHORS = ['webhookAuth', 'chargebee', 'webhook'];

/**
 * @param {object} n8n running n8n handle with the workflows of triggerWorkflows() active
 * @param {ReturnType<typeof triggerWorkflows>} workflows
 */
export async function benchTrigger(
	n8n,
	workflows,
	{ count = 300, concurrency = 8, runs = 5, sequential = 40, log = () => {} } = {},
) {
	const client = httpClient(concurrency);
	try {
		log('trigger: warm-up');
		for (const name of VARIANTS) await burst(n8n, client, workflows[name], 40, concurrency);
		const rates = Object.fromEntries(
			VARIANTS.map((name) => [name, { answered: [], finished: [] }]),
		);
		const ratios = Object.fromEntries(
			OURS.map((name) => [name, Object.fromEntries(ANCHORS.map((anchor) => [anchor, []]))]),
		);
		/** Ours with delivery IDs over ours without, per run: what the store's write costs. */
		const storeRatios = [];
		for (let run = 0; run < runs; run++) {
			log(
				`trigger: run ${run + 1}/${runs}, ${count} deliveries per workflow, ${concurrency} senders`,
			);
			const order = run % 2 === 0 ? VARIANTS : [...VARIANTS].reverse();
			const got = {};
			for (const name of order)
				got[name] = await burst(n8n, client, workflows[name], count, concurrency);
			for (const name of VARIANTS) {
				rates[name].answered.push(got[name].answeredPerSecond);
				rates[name].finished.push(got[name].finishedPerSecond);
			}
			for (const name of OURS) {
				for (const anchor of ANCHORS) {
					ratios[name][anchor].push(got[name].finishedPerSecond / got[anchor].finishedPerSecond);
				}
			}
			storeRatios.push(got.small.finishedPerSecond / got.noId.finishedPerSecond);
		}
		log(`trigger: ${sequential} new deliveries one at a time, then the same ${sequential} again`);
		const webhookUrl = n8n.webhookUrl(workflows.webhook.path);
		const webhookIds = Array.from({ length: sequential }, () => randomUUID());
		const webhookLatency = summary(
			await oneByOne(client, webhookUrl, webhookIds, (res) => {
				if (res.status !== 200) throw new Error(`webhook answered ${res.status}: ${res.text}`);
			}),
		);
		const anchorLatency = {};
		for (const anchor of ['webhookAuth', 'chargebee']) {
			const target = workflows[anchor];
			anchorLatency[anchor] = summary(
				await oneByOne(
					client,
					n8n.webhookUrl(target.path),
					Array.from({ length: sequential }, () => randomUUID()),
					(res) => {
						if (res.status !== 200)
							throw new Error(`${anchor} answered ${res.status}: ${res.text}`);
					},
					target,
				),
			);
		}
		const latency = {
			small: await newVersusDuplicate(n8n, client, workflows.small, sequential),
			v1: await newVersusDuplicate(n8n, client, workflows.v1, sequential),
		};
		for (const name of VARIANTS) {
			const failed = await failedExecutions(n8n, workflows[name].workflow.id);
			if (failed > 0) throw new Error(`${failed} executions of ${name} failed`);
		}
		return {
			count,
			concurrency,
			runs,
			sequential,
			rates: Object.fromEntries(
				VARIANTS.map((name) => [
					name,
					{ answered: summary(rates[name].answered), finished: summary(rates[name].finished) },
				]),
			),
			ratio: Object.fromEntries(
				OURS.map((name) => [
					name,
					Object.fromEntries(ANCHORS.map((anchor) => [anchor, summary(ratios[name][anchor])])),
				]),
			),
			storeRatio: summary(storeRatios),
			webhookLatency,
			anchorLatency,
			latency,
		};
	} finally {
		client.close();
	}
}
