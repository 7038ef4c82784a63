// Benchmark: the Company Payments Trigger in n8n's queue mode (harness/queue.mjs:
// Postgres, Redis, one main, two workers, two `n8n webhook` processes behind the round-robin
// proxy) against n8n's own Webhook node in the same deployment, and how both scale from one
// webhook process to two.
//
//   npm run build && node bench/queue.mjs            writes the queue section of bench/RESULTS.md
//   node bench/queue.mjs --quick                      fewer runs, printed only
//
// Three active workflows, each "<start node> → No Operation":
//   - webhook: n8n's Webhook node, POST, Respond "Immediately" (the way our trigger answers)
//   - trigger: the queue-mode companion's trigger (companion/, n8n-nodes-company-payments-queue):
//              it claims each delivery in the Redis of its redis credential (here n8n's queue
//              Redis)
//   - static:  the core package's trigger, which keeps delivery IDs in the workflow static data,
//              prefilled to the default cap of 1,000 delivery ids (steady state: every delivery
//              evicts one), for the claim's row (deliveries/s and mean answer time, Redis claim /
//              static data, within each run)
// Every delivery: a 1 KiB order.status_changed body, a valid X-Service-Signature and a new
// X-Service-Delivery-Id (the Webhook node gets the same requests and ignores both headers).
//
// Rate = deliveries / (first request → the workers have FINISHED all executions), counted by
// n8n's own execution count in Postgres (the answer comes before the execution, so answers
// alone would reward queueing). 8 concurrent senders with kept-alive connections to the proxy.
// Each run measures webhook and trigger back to back (order alternating) through two webhook
// processes and then through one (`proxy.only(0)`); ratios are taken within the run.
// Bounded: 5 runs × 4 bursts of 200 deliveries plus an 80-delivery warm-up (4,080 requests);
// 10 min 20 s on the shared 2-core development machine at a load average of about 20, of which
// the deployment's start took 2 min 40 s. `--quick`: 2 runs of 100, printed only.
import { execFileSync } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { freePort, N8N_VERSION } from '../harness/n8n.mjs';
import { createWorkflow, startQueueDeployment } from '../harness/queue.mjs';
import { redisBinary } from '../harness/services.mjs';
import {
	CREDENTIAL_TYPE,
	failedExecutions,
	finishedExecutions,
	httpClient,
	noOp,
	prefilledStore,
	triggerWorkflow,
	waitFinished,
	webhookWorkflow,
} from './lib/n8n.mjs';
import { writeSection } from './lib/results-file.mjs';
import { num, range, ratioText, summary } from './lib/stats.mjs';
import { eventBody } from './verify.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS_FILE = path.join(ROOT, 'bench', 'RESULTS.md');
const quick = process.argv.includes('--quick');
const RUNS = quick ? 2 : 5;
const COUNT = quick ? 100 : 200;
const CONCURRENCY = 8;
const STORE = 1_000;
const SECRET = 'whsec_dummy5b1e0c9a7f3d2e8b6a4c1f0e9d8c7b6a5f4e3d';
const BODY = eventBody(1024).raw;
const SIGNATURE = createHmac('sha256', SECRET).update(BODY).digest('hex');

const started = Date.now();
const log = (message) =>
	console.log(
		`[bench-queue ${((Date.now() - started) / 1000).toFixed(0).padStart(3)}s] ${message}`,
	);

function headersFor(id) {
	return {
		'content-type': 'application/json',
		'content-length': String(BODY.length),
		'x-service-signature': SIGNATURE,
		'x-service-delivery-id': id,
		'user-agent': 'company-payments-bench/1.0',
	};
}

async function burst(queue, client, target, count) {
	let answerMs = 0;
	const before = await finishedExecutions(queue.main, target.id);
	const url = queue.webhookUrl(target.path);
	const ids = Array.from({ length: count }, () => randomUUID());
	let next = 0;
	const start = performance.now();
	const sender = async () => {
		while (next < ids.length) {
			const id = ids[next++];
			const res = await client.send(url, { headers: headersFor(id), body: BODY });
			answerMs += res.ms;
			if (res.status !== 200) throw new Error(`${target.name} answered ${res.status}: ${res.text}`);
			if (res.text.includes('"executed":false'))
				throw new Error(`a new delivery was not executed: ${res.text}`);
		}
	};
	await Promise.all(Array.from({ length: CONCURRENCY }, sender));
	const answered = performance.now();
	const finished = await waitFinished(queue.main, target.id, before + count, { everyMs: 100 });
	const after = await finishedExecutions(queue.main, target.id);
	if (after !== before + count)
		throw new Error(`${target.name}: ${after - before} executions for ${count} deliveries`);
	return {
		answeredPerSecond: count / ((answered - start) / 1000),
		meanAnswerMs: answerMs / count,
		finishedPerSecond: count / ((finished - start) / 1000),
	};
}

async function main() {
	const loadBefore = os.loadavg();
	log(
		`starting the queue deployment (n8n ${N8N_VERSION}, Postgres, Redis, 1 main, 2 workers, 2 webhook processes)`,
	);
	// The companion's Redis credential names n8n's queue Redis, whose port is known only once the
	// deployment runs: the port is taken first and given to the deployment.
	const redisPort = await freePort();
	const queue = await startQueueDeployment({
		packages: [path.join(ROOT, 'companion')],
		redisPort,
		credentials: [
			{
				name: 'bench redis',
				type: 'redis',
				data: { host: '127.0.0.1', port: redisPort, database: 0, password: '', ssl: false },
			},
			{
				name: 'bench',
				type: CREDENTIAL_TYPE,
				data: {
					environment: 'staging',
					baseUrl: 'http://127.0.0.1:9',
					apiKey: 'bench-key-not-used',
					webhookSecret: SECRET,
				},
			},
		],
		log: (line) => log(`host: ${line}`),
	});
	const client = httpClient(CONCURRENCY);
	try {
		const [redisCredential, credential] = queue.credentials;
		const webhook = webhookWorkflow('queue-webhook-noop', [noOp()], { responseMode: 'onReceived' });
		const trigger = triggerWorkflow('queue-trigger', credential, undefined, {}, { typeVersion: 2 });
		const claiming = trigger.workflow.nodes[0];
		claiming.type = 'n8n-nodes-company-payments-queue.companyPaymentsQueueTrigger';
		claiming.credentials.redis = { id: redisCredential.id, name: redisCredential.name };
		const staticStore = triggerWorkflow(
			'queue-trigger-static',
			credential,
			prefilledStore(STORE),
			{},
			{ typeVersion: 2 },
		);
		const targets = {
			webhook: {
				name: 'webhook',
				path: webhook.path,
				id: await createWorkflow(queue.main, webhook.workflow, { activate: true }),
			},
			trigger: {
				name: 'trigger',
				path: trigger.path,
				id: await createWorkflow(queue.main, trigger.workflow, { activate: true }),
			},
			static: {
				name: 'static',
				path: staticStore.path,
				id: await createWorkflow(queue.main, staticStore.workflow, { activate: true }),
			},
		};
		log('warm-up: 40 deliveries to each workflow');
		for (const name of ['webhook', 'trigger', 'static'])
			await burst(queue, client, targets[name], 40);

		const rates = {
			two: { webhook: [], trigger: [], static: [] },
			one: { webhook: [], trigger: [], static: [] },
		};
		const answers = {
			two: { trigger: [], static: [] },
			one: { trigger: [], static: [] },
		};
		const ratios = {
			two: [],
			one: [],
			scaleWebhook: [],
			scaleTrigger: [],
			claimRate: { two: [], one: [] },
		};
		for (let run = 0; run < RUNS; run++) {
			const order =
				run % 2 === 0 ? ['webhook', 'trigger', 'static'] : ['static', 'trigger', 'webhook'];
			const got = { two: {}, one: {} };
			for (const setup of run % 2 === 0 ? ['two', 'one'] : ['one', 'two']) {
				queue.proxy.only(setup === 'one' ? 0 : null);
				for (const name of order) {
					log(
						`run ${run + 1}/${RUNS}: ${COUNT} deliveries to ${name} through ${setup} webhook process(es)`,
					);
					got[setup][name] = await burst(queue, client, targets[name], COUNT);
				}
			}
			queue.proxy.only(null);
			for (const setup of ['two', 'one']) {
				for (const name of ['webhook', 'trigger', 'static'])
					rates[setup][name].push(got[setup][name].finishedPerSecond);
				ratios[setup].push(
					got[setup].trigger.finishedPerSecond / got[setup].webhook.finishedPerSecond,
				);
			}
			ratios.scaleWebhook.push(
				got.two.webhook.finishedPerSecond / got.one.webhook.finishedPerSecond,
			);
			ratios.scaleTrigger.push(
				got.two.trigger.finishedPerSecond / got.one.trigger.finishedPerSecond,
			);
			// The Redis claim against the static-data store, within the run.
			for (const setup of ['two', 'one']) {
				ratios.claimRate[setup].push(
					got[setup].trigger.finishedPerSecond / got[setup].static.finishedPerSecond,
				);
				answers[setup].trigger.push(got[setup].trigger.meanAnswerMs);
				answers[setup].static.push(got[setup].static.meanAnswerMs);
			}
		}
		for (const name of ['webhook', 'trigger', 'static']) {
			const failed = await failedExecutions(queue.main, targets[name].id);
			if (failed > 0) throw new Error(`${failed} executions of ${name} failed`);
		}
		const counts = queue.proxy.counts();
		const byWorker = {};
		for (const worker of Object.values(queue.executionsByProcess()))
			byWorker[worker] = (byWorker[worker] ?? 0) + 1;
		const result = {
			rates: Object.fromEntries(
				Object.entries(rates).map(([setup, r]) => [
					setup,
					{ webhook: summary(r.webhook), trigger: summary(r.trigger), static: summary(r.static) },
				]),
			),
			ratios: Object.fromEntries(
				Object.entries(ratios).map(([k, v]) => [
					k,
					Array.isArray(v) ? summary(v) : { two: summary(v.two), one: summary(v.one) },
				]),
			),
			answers: Object.fromEntries(
				Object.entries(answers).map(([setup, a]) => [
					setup,
					{ trigger: summary(a.trigger), static: summary(a.static) },
				]),
			),
			proxyCounts: counts,
			executionsByWorker: byWorker,
			loadBefore,
			loadAfter: os.loadavg(),
			startup: queue.timings,
		};
		const text = report(result);
		console.log(`\n${text}`);
		if (!quick) {
			writeSection(RESULTS_FILE, 'queue', text);
			log(`wrote the queue section of ${path.relative(ROOT, RESULTS_FILE)}`);
		}
	} finally {
		client.close();
		await queue.stop();
		log('deployment stopped');
	}
}

function redisVersion() {
	const text = execFileSync(redisBinary(), ['--version'], { encoding: 'utf8' });
	return /v=(\S+)/.exec(text)?.[1] ?? 'unknown';
}

function report(r) {
	const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
	const target = r.ratios.two.median >= 0.9 ? 'met' : 'missed';
	const load = (l) => l.map((v) => v.toFixed(1)).join(' / ');
	return `## Queue mode: the trigger against n8n's Webhook node

Generated by \`node bench/queue.mjs\` on ${new Date().toISOString().slice(0, 10)}: ${os.cpus().length} cores (${cpu}),
Node ${process.version}, n8n ${N8N_VERSION} in queue mode (PostgreSQL 15, Redis ${redisVersion()}, 1 main, 2 workers with
concurrency 10, 2 \`n8n webhook\` processes behind a loopback round-robin proxy). Load average
(1/5/15 min) before: ${load(r.loadBefore)}, after: ${load(r.loadAfter)}. Medians of ${r.ratios.two.runs} runs with
min–max; ${COUNT} deliveries per burst, ${CONCURRENCY} senders; rate = deliveries per second until the
workers finished every execution. Method: \`bench/queue.mjs\` (header comment).

| Start node → No Operation | 2 webhook processes | 1 webhook process | 2 vs 1 |
| --- | --- | --- | --- |
| n8n Webhook node (respond immediately) | ${range(r.rates.two.webhook, '/s')} | ${range(r.rates.one.webhook, '/s')} | ${ratioText(r.ratios.scaleWebhook)} |
| Company Payments Trigger (Queue Mode), the companion: Redis claim | ${range(r.rates.two.trigger, '/s')} | ${range(r.rates.one.trigger, '/s')} | ${ratioText(r.ratios.scaleTrigger)} |
| **Trigger / Webhook node** (target ≥ 0.9×) | **${ratioText(r.ratios.two)}** (${target}) | ${ratioText(r.ratios.one)} | |
| Company Payments Trigger, the core: workflow static data (full at 1,000 IDs) | ${range(r.rates.two.static, '/s')} | ${range(r.rates.one.static, '/s')} | |
| **Redis claim / static-data store** (deliveries/s; mean answer time) | **${ratioText(r.ratios.claimRate.two)}**; ${range(r.answers.two.trigger, 'ms')} vs ${range(r.answers.two.static, 'ms')} | ${ratioText(r.ratios.claimRate.one)}; ${range(r.answers.one.trigger, 'ms')} vs ${range(r.answers.one.static, 'ms')} | |

- Requests per webhook process over the whole run (proxy): ${Object.entries(r.proxyCounts)
		.map(([k, v]) => `${k} ${num(v)}`)
		.join(', ')}. Executions per worker: ${Object.entries(r.executionsByWorker)
		.sort()
		.map(([k, v]) => `${k} ${num(v)}`)
		.join(', ')}.
- Start of the deployment: Postgres + Redis ${num(r.startup.stores / 1000)} s, credential import ${num(r.startup.import / 1000)} s
  (runs the database migrations), main ${num(r.startup.main / 1000)} s, workers and webhook processes ${num(r.startup.roles / 1000)} s
  (in parallel); ${num(r.startup.total / 1000)} s in all.
- Scaling from one webhook process to two can only show where the webhook processes are the
  bottleneck. On this machine every process (proxy, senders, 2 webhook processes, 2 workers,
  main, Postgres, Redis) shares the same ${os.cpus().length} cores, so "2 vs 1" measures how much of the
  cores a second receiving process can still take, not what a second machine would add.
`;
}

await main();
