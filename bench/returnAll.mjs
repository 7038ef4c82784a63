// Benchmark 4: Company Wallet → Get Deposits with Return All over 10,000 records, paged
// (the node's PAGE_SIZE, 1,000 per page, 11 requests: pages overlap by 2 records) against the
// same 10,000 records served in one page (one request), inside a real n8n.
//
// Two sandboxes hold the same seeded 10,000 deposits; one pages (accepts and serves a `limit` up
// to PAGE_SIZE: profile maxLimit and pageCap), the other answers everything at once
// (`depositsInOnePage`). Each workflow is Webhook (respond when the last node
// finishes, first entry only, so the answer is small and the same for both) → Company Payments.
//
// Memory: the peak RSS (VmHWM in /proc/<pid>/status) of the n8n main process. n8n is restarted
// before every measured run so each starts from the same fresh heap; after the restart two small
// warm-up executions load the node code, the credential and the database paths; then the peak
// is reset to the current RSS (`5` written to /proc/<pid>/clear_refs) and the run starts. The
// figure is the peak minus the RSS just before the run: what handling the 10,000 records added.
// Time: the webhook round trip, measured separately in the already warm n8n (before the
// restarts), in pairs of one paged and one one-page run.
import { createRequire } from 'node:module';

import { startSandbox } from '../sandbox/server.mjs';
import { sleep, summary } from './lib/stats.mjs';
import {
	actionNode,
	pagedRequests,
	httpClient,
	memoryOf,
	postJson,
	resetPeak,
	webhookWorkflow,
} from './lib/n8n.mjs';

export const RECORDS = 10_000;
/** The node's page size (nodes/shared/contract/assumptions.ts, read from the build when asked). */
export function pageSize() {
	return createRequire(import.meta.url)('../dist/nodes/shared/contract/assumptions.js').PAGE_SIZE;
}

const FIRST_ENTRY = { responseMode: 'lastNode', responseData: 'firstEntryJson' };

const getDeposits = { resource: 'companyWallet', operation: 'getDeposits', returnAll: true };

/**
 * The two sandboxes of this benchmark, holding the same RECORDS deposits: `paged` serves them
 * PAGE_SIZE at most per page, `onePage` all at once. The caller closes both.
 */
export async function startReturnAllSandboxes() {
	const seed = { companyDeposits: RECORDS };
	// A service whose largest `limit` is the node's page size, and that serves that many a page.
	const profile = { maxLimit: pageSize(), pageCap: pageSize() };
	const paged = await startSandbox({ seed, profile });
	try {
		return { paged, onePage: await startSandbox({ seed, profile, depositsInOnePage: true }) };
	} catch (error) {
		await paged.close();
		throw error;
	}
}

export function returnAllWorkflows(pagedCredential, onePageCredential) {
	return {
		paged: webhookWorkflow(
			'deposits-paged',
			[actionNode(pagedCredential, getDeposits)],
			FIRST_ENTRY,
		),
		onePage: webhookWorkflow(
			'deposits-one-page',
			[actionNode(onePageCredential, getDeposits)],
			FIRST_ENTRY,
		),
		warmUp: webhookWorkflow(
			'deposits-warm-up',
			[actionNode(pagedCredential, { resource: 'companyWallet', operation: 'getBalance' })],
			FIRST_ENTRY,
		),
	};
}

/** Item count of the newest execution's Company Payments output (read once per variant). */
async function itemsOfNewestExecution(n8n, workflowId) {
	const page = await n8n.api(
		'GET',
		`/executions?workflowId=${workflowId}&includeData=true&limit=1`,
	);
	const run = page.data?.[0]?.data?.resultData?.runData?.['Company Payments']?.[0];
	return run?.data?.main?.[0]?.length;
}

/**
 * The sandbox's own share: the same pages of PAGE_SIZE (or the one page) fetched straight from the
 * sandbox by this process, sequentially over a kept-alive connection, without n8n (the
 * answers are read as text, not parsed). The
 * sandbox filters and copies all 10,000 records for every page, which a real service with an
 * index would not; this row shows how much of the paged time that is.
 */
async function directFetch(client, sandbox, variant) {
	const headers = { 'x-api-key': sandbox.keys.owner };
	const start = performance.now();
	let bytes = 0;
	const size = pageSize();
	for (let offset = 0; offset < RECORDS; offset += size) {
		const url = `${sandbox.url}/wallets/deposits?limit=${size}&offset=${offset}`;
		const res = await client.send(url, {
			method: 'GET',
			headers,
		});
		if (res.status !== 200) throw new Error(`sandbox answered ${res.status}`);
		bytes += res.text.length;
		if (variant === 'onePage') break;
	}
	const ms = performance.now() - start;
	if (bytes < RECORDS * 100) throw new Error(`direct ${variant}: only ${bytes} characters`);
	return ms;
}

async function runOnce(client, n8n, sandbox, target, variant) {
	const requestsBefore = sandbox.publicRequests;
	const answer = await postJson(client, n8n.webhookUrl(target.path), {});
	const calls = sandbox.publicRequests - requestsBefore;
	const expectedCalls = variant === 'paged' ? pagedRequests(RECORDS, pageSize()) : 1;
	if (calls !== expectedCalls)
		throw new Error(`${variant}: ${calls} requests, expected ${expectedCalls}`);
	if (typeof answer.json?.id !== 'string')
		throw new Error(`${variant}: unexpected answer ${JSON.stringify(answer.json)}`);
	return answer.ms;
}

/**
 * Time: in the running n8n, after two warm-up runs of each, `timePairs` pairs of runs (the
 * order inside a pair alternates); the ratio is taken per pair.
 * Memory: `memoryPairs` pairs, each run in a freshly restarted n8n (see the top of this file).
 *
 * @param {() => object} getN8n the current n8n handle (this benchmark restarts it)
 * @param {(handle: object) => void} setN8n called with the handle after each restart
 * @param {{ paged: object, onePage: object }} sandboxes
 */
export async function benchReturnAll(
	getN8n,
	setN8n,
	sandboxes,
	workflows,
	{ timePairs = 7, memoryPairs = 3, log = () => {} } = {},
) {
	const variants = ['paged', 'onePage'];
	let client = httpClient(2);
	const times = { paged: [], onePage: [] };
	const timeRatios = [];
	const memory = { paged: [], onePage: [] };
	const direct = { paged: [], onePage: [] };
	try {
		const n8n = getN8n();
		log(`return all: time, 2 warm-up runs each, then ${timePairs} pairs`);
		for (const variant of variants) {
			for (let i = 0; i < 2; i++)
				await runOnce(client, n8n, sandboxes[variant], workflows[variant], variant);
			const items = await itemsOfNewestExecution(n8n, workflows[variant].workflow.id);
			if (items !== RECORDS)
				throw new Error(`${variant}: the node returned ${items} items, expected ${RECORDS}`);
			// Reading 10,000 items back can take longer than n8n's 5 s keep-alive timeout on a
			// loaded machine; a socket n8n has closed meanwhile would fail the next run with
			// "socket hang up". Start the timed runs on fresh connections.
			client.close();
			client = httpClient(2);
		}
		for (let pair = 0; pair < timePairs; pair++) {
			const order = pair % 2 === 0 ? variants : [...variants].reverse();
			const got = {};
			for (const variant of order) {
				got[variant] = await runOnce(client, n8n, sandboxes[variant], workflows[variant], variant);
				times[variant].push(got[variant]);
			}
			timeRatios.push(got.paged / got.onePage);
		}
		log('return all: the same pages straight from the sandbox, without n8n');
		for (let pair = 0; pair < timePairs; pair++) {
			for (const variant of variants)
				direct[variant].push(await directFetch(client, sandboxes[variant], variant));
		}
		for (let pair = 0; pair < memoryPairs; pair++) {
			const order = pair % 2 === 0 ? variants : [...variants].reverse();
			for (const variant of order) {
				log(
					`return all: memory, ${variant}, pair ${pair + 1}/${memoryPairs}: restart n8n, warm up, one run`,
				);
				client.close();
				client = httpClient(2);
				const fresh = await getN8n().restart();
				setN8n(fresh);
				for (let i = 0; i < 2; i++)
					await postJson(client, fresh.webhookUrl(workflows.warmUp.path), {});
				await sleep(1000);
				const before = memoryOf(fresh.pid);
				const reset = resetPeak(fresh.pid);
				await runOnce(client, fresh, sandboxes[variant], workflows[variant], variant);
				await sleep(500);
				const peak = memoryOf(fresh.pid);
				memory[variant].push({
					baseRssMiB: before.rssMiB,
					peakMiB: reset ? peak.hwmMiB : NaN,
					addedMiB: reset ? peak.hwmMiB - before.rssMiB : NaN,
				});
			}
		}
	} finally {
		client.close();
	}
	const pick = (variant, key) => memory[variant].map((r) => r[key]);
	const ratio = (key) => summary(memory.paged.map((r, i) => r[key] / memory.onePage[i][key]));
	return {
		records: RECORDS,
		timePairs,
		memoryPairs,
		pagedMs: summary(times.paged),
		onePageMs: summary(times.onePage),
		timeRatio: summary(timeRatios),
		directPagedMs: summary(direct.paged),
		directOnePageMs: summary(direct.onePage),
		pagedAddedMiB: summary(pick('paged', 'addedMiB')),
		onePageAddedMiB: summary(pick('onePage', 'addedMiB')),
		pagedPeakMiB: summary(pick('paged', 'peakMiB')),
		onePagePeakMiB: summary(pick('onePage', 'peakMiB')),
		baseRssMiB: summary([...pick('paged', 'baseRssMiB'), ...pick('onePage', 'baseRssMiB')]),
		memoryRatio: ratio('addedMiB'),
		peakRatio: ratio('peakMiB'),
	};
}
