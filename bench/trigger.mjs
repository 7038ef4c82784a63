// Benchmark 2: the Company Payments Trigger inside a real n8n against n8n's own Webhook node.
//
// Four active workflows, each "<start node> → No Operation":
//   - webhook:  n8n's Webhook node, POST, Respond "Immediately" (onReceived)
//   - small:    our trigger (it answers on receipt too) with the default options and its dedup
//               store full at the default cap of 1,000 delivery ids (prefilled)
//   - full:     our trigger with Deduplication Store Size raised to 10,000 and the store full:
//               what a user who raises the cap pays per delivery
//   - noId:     our trigger, deliveries sent WITHOUT X-Service-Delivery-Id, so nothing is
//               deduplicated or stored: verification and routing only (a diagnostic row that
//               separates the cost of the store from the rest)
// The stores are prefilled through the workflows' static data, so every run measures the
// steady state rather than a store that grows while it is measured.
// Every delivery has a unique X-Service-Delivery-Id (a UUID, like the service's) and a valid
// X-Service-Signature (the Webhook node ignores both). Senders keep connections alive.
//
// Rate: deliveries / (time from the first request until n8n has FINISHED all executions). The
// answer comes back before the execution runs ("onReceived"), so counting answers only would
// reward queueing work; the rate until the last answer is kept as well.
import { createHmac, randomUUID } from 'node:crypto';

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
} from './lib/n8n.mjs';

/** The credential's Webhook Secret (service form: whsec_ + 48 hex); a dummy for the benchmark. */
export const WEBHOOK_SECRET_DUMMY = 'whsec_dummy5b1e0c9a7f3d2e8b6a4c1f0e9d8c7b6a5f4e3d';

const BODY = eventBody(1024).raw;
const SIGNATURE = createHmac('sha256', WEBHOOK_SECRET_DUMMY).update(BODY).digest('hex');

export const SMALL_STORE = 1_000;
export const FULL_STORE = 10_000;

/** The four workflows (for import before n8n starts). */
export function triggerWorkflows(credential) {
	return {
		webhook: webhookWorkflow('webhook-noop', [noOp()], { responseMode: 'onReceived' }),
		small: triggerWorkflow('trigger-default-store', credential, prefilledStore(SMALL_STORE)),
		full: triggerWorkflow('trigger-large-store', credential, prefilledStore(FULL_STORE), {
			dedupMaxEntries: FULL_STORE,
		}),
		noId: { ...triggerWorkflow('trigger-no-delivery-id', credential), withoutIds: true },
	};
}

/** The service's headers; `id` null leaves X-Service-Delivery-Id out. */
function headersFor(id) {
	const headers = {
		'content-type': 'application/json',
		'content-length': String(BODY.length),
		'x-service-signature': SIGNATURE,
		'user-agent': 'company-payments-bench/1.0',
	};
	if (id !== null) headers['x-service-delivery-id'] = id;
	return headers;
}

/** Sends `count` new deliveries with `concurrency` senders; resolves when all executions finished. */
async function burst(n8n, client, target, count, concurrency) {
	const before = await finishedExecutions(n8n, target.workflow.id);
	const url = n8n.webhookUrl(target.path);
	const ids = Array.from({ length: count }, () => (target.withoutIds ? null : randomUUID()));
	let next = 0;
	const start = performance.now();
	const sender = async () => {
		while (next < ids.length) {
			const id = ids[next++];
			const res = await client.send(url, { headers: headersFor(id), body: BODY });
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
async function oneByOne(client, url, ids, check) {
	const times = [];
	for (const id of ids) {
		const res = await client.send(url, { headers: headersFor(id), body: BODY });
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

const VARIANTS = ['webhook', 'small', 'full', 'noId'];

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
		const ratios = { small: [], full: [], noId: [] };
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
			for (const name of ['small', 'full', 'noId']) {
				ratios[name].push(got[name].finishedPerSecond / got.webhook.finishedPerSecond);
			}
		}
		log(`trigger: ${sequential} new deliveries one at a time, then the same ${sequential} again`);
		const webhookUrl = n8n.webhookUrl(workflows.webhook.path);
		const webhookIds = Array.from({ length: sequential }, () => randomUUID());
		const webhookLatency = summary(
			await oneByOne(client, webhookUrl, webhookIds, (res) => {
				if (res.status !== 200) throw new Error(`webhook answered ${res.status}: ${res.text}`);
			}),
		);
		const latency = {
			small: await newVersusDuplicate(n8n, client, workflows.small, sequential),
			full: await newVersusDuplicate(n8n, client, workflows.full, sequential),
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
			ratio: {
				small: summary(ratios.small),
				full: summary(ratios.full),
				noId: summary(ratios.noId),
			},
			webhookLatency,
			latency,
		};
	} finally {
		client.close();
	}
}
