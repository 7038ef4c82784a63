// Benchmark: one poll of the Company Payments Poll Trigger over a window of 10,000 payouts,
// inside a real n8n 2.8.4 — time, memory of the n8n process, requests, and the state it keeps.
//
//   node bench/poll.mjs            # 5 runs of each, writes the poll section of bench/RESULTS.md
//   node bench/poll.mjs --runs=3 --no-write
//
// How one poll is started on demand: n8n runs a polling trigger once when it activates the
// workflow (then on its Poll Times), inside the activation request. So one measured poll is
// one `POST /api/v1/workflows/{id}/activate` of a workflow "Poll Trigger (payouts, 35-day
// window) → No Operation", followed by a deactivation (not measured). The first activation is
// the baseline poll (it reads the window and remembers 10,000 records, emits nothing); every
// later one compares the window with the remembered state after one payout changed, and emits
// that one change.
//
// Baselines measured in the same run, in the same n8n:
// - activation overhead: the same workflow watching only the company balance (one request);
// - the same 10,000 payouts read by the action node: Webhook → Company Payments (Payout → Get
//   Many, Return All), answered with the first item only, timed as the webhook round trip.
// Ratios are taken per run (pairs, alternating order), as in bench/README.md.
//
// Memory: before each measured call the peak RSS of the n8n main process is reset to its
// current RSS (/proc/<pid>/clear_refs); the figure is the peak during the call minus the RSS
// just before it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { startSandbox } from '../sandbox/server.mjs';
import {
	createUserFolder,
	ensureN8n,
	importCredentials,
	importWorkflow,
	installPackage,
	N8N_VERSION,
	PACKAGE_ROOT,
	startN8n,
	uuid,
} from '../harness/n8n.mjs';
import {
	actionNode,
	httpClient,
	memoryOf,
	postJson,
	resetPeak,
	webhookWorkflow,
	workflowId,
} from './lib/n8n.mjs';
import { writeSection } from './lib/results-file.mjs';
import { num, range, sleep, summary } from './lib/stats.mjs';
import { NODE_TYPES } from '../harness/workflows.mjs';

const RECORDS = 10_000;
const args = new Map(
	process.argv.slice(2).map((arg) => {
		const [key, value = 'true'] = arg.replace(/^--/, '').split('=');
		return [key, value];
	}),
);
const RUNS = Number(args.get('runs') ?? 5);
const WRITE = args.get('no-write') !== 'true';
const POLL_NODE = 'Company Payments Poll Trigger';

function pollWorkflow(name, credential, parameters) {
	const trigger = {
		id: uuid(),
		name: POLL_NODE,
		type: NODE_TYPES.pollTrigger,
		typeVersion: 1,
		position: [0, 0],
		parameters: { pollTimes: { item: [{ mode: 'everyHour', minute: 0 }] }, ...parameters },
		credentials: { companyPaymentsApi: { id: credential.id, name: credential.name } },
	};
	const noOp = {
		id: uuid(),
		name: 'No Operation',
		type: 'n8n-nodes-base.noOp',
		typeVersion: 1,
		position: [220, 0],
		parameters: {},
	};
	return {
		id: workflowId(),
		name: `bench ${name}`,
		nodes: [trigger, noOp],
		connections: { [POLL_NODE]: { main: [[{ node: 'No Operation', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

async function measure(n8n, fn) {
	const before = memoryOf(n8n.pid);
	const reset = resetPeak(n8n.pid);
	const start = performance.now();
	const result = await fn();
	const ms = performance.now() - start;
	await sleep(300);
	const peak = memoryOf(n8n.pid);
	return { ms, addedMiB: reset ? peak.hwmMiB - before.rssMiB : NaN, rssMiB: before.rssMiB, result };
}

async function control(sandbox, method, urlPath, body) {
	const res = await fetch(`${sandbox.url}/__control${urlPath}`, {
		method,
		headers: { 'Content-Type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const answer = await res.json();
	if (!res.ok)
		throw new Error(`${method} ${urlPath} answered ${res.status}: ${JSON.stringify(answer)}`);
	return answer;
}

async function main() {
	const log = (line) => console.error(`[bench poll] ${line}`);
	const loadBefore = os.loadavg();
	await ensureN8n({ log });
	const sandbox = await startSandbox({ seed: { payouts: RECORDS } });
	const userFolder = createUserFolder('n8n-cp-bench-poll-');
	let n8n;
	let client = httpClient(2);
	try {
		const total = (
			await (
				await fetch(`${sandbox.url}/payouts?limit=1`, {
					headers: { 'X-API-Key': sandbox.keys.owner },
				})
			).json()
		).total;
		log(`sandbox holds ${total} payouts`);
		installPackage(userFolder);
		const [credential] = await importCredentials(userFolder, [
			{
				name: 'bench sandbox',
				type: 'companyPaymentsApi',
				data: {
					environment: 'staging',
					baseUrl: sandbox.url,
					apiKey: sandbox.keys.owner,
					webhookSecret: '',
				},
			},
		]);
		const payoutsPoll = pollWorkflow('poll payouts', credential, {
			watch: ['payouts'],
			windowDays: 35,
			options: { maxRecords: 20_000 },
		});
		const balancePoll = pollWorkflow('poll balance', credential, {
			watch: ['balance'],
			balanceThreshold: 0,
		});
		const getMany = webhookWorkflow(
			'payouts-get-many',
			[actionNode(credential, { resource: 'payout', operation: 'getMany', returnAll: true })],
			{ responseMode: 'lastNode', responseData: 'firstEntryJson' },
		);
		for (const workflow of [payoutsPoll, balancePoll])
			await importWorkflow(userFolder, workflow, { activate: false });
		await importWorkflow(userFolder, getMany.workflow, { activate: true });
		n8n = await startN8n({ userFolder });

		const activation = async (workflow) => {
			const requests = sandbox.publicRequests;
			const m = await measure(n8n, () => n8n.activateWorkflow(workflow.id));
			m.requests = sandbox.publicRequests - requests;
			await n8n.deactivateWorkflow(workflow.id);
			return m;
		};
		const readAll = async () => {
			const requests = sandbox.publicRequests;
			const m = await measure(n8n, () => postJson(client, n8n.webhookUrl(getMany.path), {}));
			if (typeof m.result.json?.id !== 'string')
				throw new Error(`get many answered ${JSON.stringify(m.result.json)}`);
			m.requests = sandbox.publicRequests - requests;
			return m;
		};

		log('warm-up: get many twice, the balance poll twice');
		for (let i = 0; i < 2; i++) {
			await readAll();
			await activation(balancePoll);
		}
		log('baseline poll (first activation: reads the window, remembers it, emits nothing)');
		const first = await activation(payoutsPoll);
		const stored = await n8n.api('GET', `/workflows/${payoutsPoll.id}`);
		const state = stored.staticData?.[`node:${POLL_NODE}`]?.pollState;
		const remembered = Object.keys(state?.lists?.payouts ?? {}).length;
		const stateBytes = Buffer.byteLength(JSON.stringify(state));
		log(`remembered ${remembered} payouts in ${stateBytes} bytes of static data`);
		if (remembered < RECORDS)
			throw new Error(`the poll remembered ${remembered} payouts, expected ${RECORDS} or more`);

		const waiting = [...sandbox.state.payouts.values()].filter(
			(p) => p.status === 'waiting_trader',
		);
		const rows = { poll: [], balance: [], getMany: [] };
		for (let run = 0; run < RUNS; run++) {
			log(`run ${run + 1}/${RUNS}`);
			await control(sandbox, 'POST', `/payouts/${waiting[run].id}/status`, {
				status: 'in_progress',
			});
			const order = run % 2 === 0 ? ['poll', 'balance', 'getMany'] : ['getMany', 'balance', 'poll'];
			for (const what of order) {
				if (what === 'poll') rows.poll.push(await activation(payoutsPoll));
				if (what === 'balance') rows.balance.push(await activation(balancePoll));
				if (what === 'getMany') rows.getMany.push(await readAll());
			}
		}
		// Every steady poll emitted exactly the one change made before it.
		const executions = (
			await n8n.getExecutions({ workflowId: payoutsPoll.id, includeData: true })
		).filter((e) => e.finished || e.stoppedAt);
		const emitted = executions.map(
			(e) => e.data.resultData.runData[POLL_NODE][0].data.main[0].length,
		);
		if (emitted.length !== RUNS || emitted.some((n) => n !== 1))
			throw new Error(`poll executions emitted ${JSON.stringify(emitted)}, expected ${RUNS} × 1`);

		const pick = (list, key) => summary(list.map((r) => r[key]));
		const result = {
			runs: RUNS,
			payouts: total,
			remembered,
			stateBytes,
			bytesPerRecord: stateBytes / remembered,
			first: { ms: first.ms, addedMiB: first.addedMiB, requests: first.requests },
			pollMs: pick(rows.poll, 'ms'),
			pollAddedMiB: pick(rows.poll, 'addedMiB'),
			pollRequests: rows.poll[0].requests,
			balanceMs: pick(rows.balance, 'ms'),
			getManyMs: pick(rows.getMany, 'ms'),
			getManyAddedMiB: pick(rows.getMany, 'addedMiB'),
			getManyRequests: rows.getMany[0].requests,
			timeRatio: summary(rows.poll.map((r, i) => r.ms / rows.getMany[i].ms)),
			netTimeRatio: summary(
				rows.poll.map((r, i) => (r.ms - rows.balance[i].ms) / rows.getMany[i].ms),
			),
			memoryRatio: summary(rows.poll.map((r, i) => r.addedMiB / rows.getMany[i].addedMiB)),
			baseRssMiB: pick(rows.poll, 'rssMiB'),
			loadBefore,
			loadAfter: os.loadavg(),
		};
		const report = render(result);
		console.log(report);
		if (WRITE) writeSection(path.join(PACKAGE_ROOT, 'bench', 'RESULTS.md'), 'poll', report);
	} finally {
		client.close();
		await n8n?.stop();
		await sandbox.close();
		fs.rmSync(userFolder, { recursive: true, force: true });
	}
}

function render(r) {
	const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
	return `## Poll Trigger: one poll over a window of 10,000 payouts

Written by \`node bench/poll.mjs\` on ${new Date().toISOString().slice(0, 10)}: ${os.cpus().length} cores (${cpu}), Node ${process.version}, n8n ${N8N_VERSION} (SQLite, regular mode). ${r.runs} runs; median [min–max]. Method: the top of \`bench/poll.mjs\`.

The sandbox holds ${r.payouts} payouts, all created in the last days, so the 35-day window covers every one of them (no early stop possible: this is the worst case of the window).

| Measure | Value |
|---|---|
| First poll (baseline: reads the window, remembers it, emits nothing) | ${num(r.first.ms, 0)} ms, +${num(r.first.addedMiB, 1)} MiB peak RSS, ${r.first.requests} requests |
| Steady poll (reads the window, compares, emits the 1 change) | ${range(r.pollMs, 'ms', 0)}, ${r.pollRequests} requests |
| Its peak RSS added to n8n | ${range(r.pollAddedMiB, 'MiB', 1)} (n8n's RSS before: ${range(r.baseRssMiB, 'MiB', 0)}) |
| Activation of a one-request poll (overhead included above) | ${range(r.balanceMs, 'ms', 0)} |
| Same payouts read by the action node (Payout → Get Many, Return All) | ${range(r.getManyMs, 'ms', 0)}, +${range(r.getManyAddedMiB, 'MiB', 1)} peak RSS, ${r.getManyRequests} requests |
| Poll time / Get Many time, per run | ${range(r.timeRatio, '', 2)} |
| (Poll − activation overhead) / Get Many, per run | ${range(r.netTimeRatio, '', 2)} |
| Poll peak memory added / Get Many's, per run | ${range(r.memoryRatio, '', 2)} |
| State kept in the workflow's static data | ${r.remembered} records in ${r.stateBytes} bytes: ${num(r.bytesPerRecord, 1)} bytes per record |

Reading: one poll costs about as many requests as reading the window once (pages of 100; the
sandbox's ids are short, a UUID id adds about 20 bytes per record). A poll emits items only for
changes, so unlike Get Many it never holds 10,000 output items in the execution; its memory is
the pages as they are read and the state (id → state) of the window. Absolute times drift with the
machine's load (load average, 1/5/15 min, before: ${r.loadBefore.map((v) => v.toFixed(1)).join(' / ')}, after: ${r.loadAfter.map((v) => v.toFixed(1)).join(' / ')}); compare the per-run ratios.
`;
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
