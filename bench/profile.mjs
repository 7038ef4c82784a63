// Where n8n spends its CPU time: a CPU profile of the n8n process under test.
//
// Return All (default): the paged workflow (10,000 deposits, PAGE_SIZE (1,000) per page) and, separately, the
// one-page workflow, each `--runs` times; prints the self time per run by package and the top
// functions, and what the paged run costs beyond the one-page run, per extra request.
// Trigger (--figure=trigger): `--count` deliveries to each of our trigger at version 2 (store
// full), version 2 without delivery IDs, the DIY chain, the Webhook node without and with Header
// Auth and the Chargebee Trigger (the workflows of figure 2); prints the CPU time per delivery
// by package, and ours minus each anchor, by area and by function. Prints only.
//
//   COMPANY_PAYMENTS_N8N_VERSION=2.41.1 node bench/profile.mjs [--runs=5] [--top=25]
//   COMPANY_PAYMENTS_N8N_VERSION=2.8.4 node bench/profile.mjs --figure=trigger [--count=600]
//   COMPANY_PAYMENTS_N8N_VERSION=2.41.1 node bench/profile.mjs --figure=trigger --count=150 \
//     --workflows=small,v1 --n8n-env=N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true
//       other workflows of figure 2 (v1: ours at version 1), n8n settings for the profiled n8n
//
// The profiler is started and stopped inside n8n by bench/lib/profiler-preload.cjs (SIGUSR2).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { startSandbox } from '../sandbox/server.mjs';
import {
	createUserFolder,
	ensureN8n,
	importCredentials,
	importWorkflows,
	installPackage,
	N8N_VERSION,
	startN8n,
} from '../harness/n8n.mjs';
import { parseN8nSettings } from '../harness/lib/env.mjs';
import { tail } from '../harness/lib/util.mjs';
import { CREDENTIAL_TYPE, httpClient, pagedRequests, postJson } from './lib/n8n.mjs';
import { sleep } from './lib/stats.mjs';
import { pageSize, RECORDS, returnAllWorkflows, startReturnAllSandboxes } from './returnAll.mjs';
import {
	burst,
	CRYPTO_CREDENTIAL,
	HEADER_AUTH_CREDENTIAL,
	triggerWorkflows,
	WEBHOOK_SECRET_DUMMY,
} from './trigger.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => {
	const found = process.argv.find((a) => a.startsWith(`--${name}=`));
	return found ? Number(found.split('=')[1]) : fallback;
};
const RUNS = arg('runs', 5);
const TOP = arg('top', 25);
const COUNT = arg('count', 600);
/** --store=N: the trigger's prefilled store holds N delivery IDs (default: the default cap). */
const STORE = arg('store', undefined);
/** --keep: leave the .cpuprofile files (their folder is printed) for a closer look. */
const KEEP = process.argv.includes('--keep');
const FIGURE = process.argv.find((a) => a.startsWith('--figure='))?.split('=')[1] ?? 'returnAll';
/** --workflows=a,b: which workflows of figure 2 the trigger profile covers. */
const WORKFLOWS = process.argv
	.find((a) => a.startsWith('--workflows='))
	?.slice('--workflows='.length)
	.split(',');
/** --n8n-env=N8N_NAME=value,…: n8n settings of the profiled n8n (e.g. its lazy sandbox). */
const N8N_ENV = parseN8nSettings(
	process.argv.find((a) => a.startsWith('--n8n-env='))?.slice('--n8n-env='.length),
);

/** The package (or n8n area) a profile frame belongs to, from its script URL. */
function area(url) {
	if (!url) return '(native / V8)';
	const parts = url.split('node_modules/');
	if (parts.length === 1) {
		if (url.startsWith('node:')) return url.split('/')[0].replace(/:.*$/, ':builtin');
		if (url.includes('/dist/nodes/')) return 'company-payments (ours)';
		return '(other)';
	}
	const last = parts[parts.length - 1];
	const [scope, name] = last.split('/');
	if (last.includes('n8n-nodes-company-payments')) return 'company-payments (ours)';
	return scope.startsWith('@') ? `${scope}/${name}` : scope;
}

/** Self time (ms) by area and by function of one .cpuprofile. */
function selfTimes(profile) {
	const byId = new Map(profile.nodes.map((n) => [n.id, n]));
	const counts = new Map();
	for (const id of profile.samples) counts.set(id, (counts.get(id) ?? 0) + 1);
	const total = (profile.endTime - profile.startTime) / 1000;
	const perSample = total / profile.samples.length;
	const areas = new Map();
	const functions = new Map();
	for (const [id, count] of counts) {
		const frame = byId.get(id).callFrame;
		const ms = count * perSample;
		const a = frame.functionName === '(idle)' ? '(idle)' : area(frame.url);
		areas.set(a, (areas.get(a) ?? 0) + ms);
		if (a === '(idle)') continue;
		const file = frame.url ? frame.url.split('node_modules/').pop() : '';
		const key = `${frame.functionName || '(anonymous)'}  ${file}:${frame.lineNumber + 1}`;
		functions.set(key, (functions.get(key) ?? 0) + ms);
	}
	return { total, areas, functions };
}

function addInto(target, source, factor = 1) {
	for (const [k, v] of source) target.set(k, (target.get(k) ?? 0) + v * factor);
}

async function profiled(n8n, dir, count, run, times = RUNS) {
	process.kill(n8n.pid, 'SIGUSR2');
	await sleep(300);
	for (let i = 0; i < times; i++) await run();
	process.kill(n8n.pid, 'SIGUSR2');
	const done = path.join(dir, `${count}.done`);
	for (let i = 0; i < 200 && !fs.existsSync(done); i++) await sleep(100);
	return selfTimes(JSON.parse(fs.readFileSync(path.join(dir, `${count}.cpuprofile`), 'utf8')));
}

const ms = (v) => `${v.toFixed(1).padStart(8)} ms`;

/** The `top` largest entries of a map of ms, each divided by `per`, under a title. */
function printTop(title, map, per, top, digits = 3) {
	console.log(title);
	for (const [key, value] of [...map].sort((x, y) => y[1] - x[1]).slice(0, top)) {
		if (key !== '(idle)') console.log(`${(value / per).toFixed(digits).padStart(8)} ms  ${key}`);
	}
}

/** `ours` minus `anchor`, divided by `per`, largest first. */
function printDiff(title, ours, anchor, per, top) {
	const diff = new Map();
	addInto(diff, ours);
	addInto(diff, anchor, -1);
	printTop(title, diff, per, top);
}

/** Imports the workflows, starts n8n with the profiler preloaded and activates them. */
async function startProfiledN8n(userFolder, dir, list) {
	await importWorkflows(userFolder, list);
	const n8n = await startN8n({
		userFolder,
		env: {
			...N8N_ENV,
			NODE_OPTIONS: `--require=${path.join(ROOT, 'bench/lib/profiler-preload.cjs')}`,
			COMPANY_PAYMENTS_PROFILE_DIR: dir,
		},
	});
	for (const w of list) await n8n.activateWorkflow(w.id);
	return n8n;
}

/** Stops what a profile run started and removes its folders (the profiles stay with --keep). */
async function cleanUp({ client, n8n, sandboxes, userFolder, dir, failed }) {
	client.close();
	// A failed profile keeps what n8n said: its folder is deleted below.
	if (failed && n8n) console.error(`\nn8n's log, last lines:\n${tail(n8n.logText(), 40, true)}`);
	await n8n?.stop();
	for (const sandbox of sandboxes) await sandbox.close();
	fs.rmSync(userFolder, { recursive: true, force: true });
	if (KEEP) console.log(`\nprofiles kept in ${dir}`);
	else fs.rmSync(dir, { recursive: true, force: true });
}

async function main() {
	const install = await ensureN8n({ log: console.log });
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-profile-'));
	const userFolder = createUserFolder('n8n-cp-profile-');
	const sandboxes = {};
	let n8n;
	const client = httpClient(2);
	try {
		Object.assign(sandboxes, await startReturnAllSandboxes());
		installPackage(userFolder, ROOT);
		const data = (sandbox) => ({
			environment: 'staging',
			baseUrl: sandbox.url,
			apiKey: sandbox.keys.owner,
			webhookSecret: '',
		});
		const [paged, onePage] = await importCredentials(userFolder, [
			{ name: 'profile (paged)', type: CREDENTIAL_TYPE, data: data(sandboxes.paged) },
			{ name: 'profile (one page)', type: CREDENTIAL_TYPE, data: data(sandboxes.onePage) },
		]);
		const workflows = returnAllWorkflows(paged, onePage);
		n8n = await startProfiledN8n(
			userFolder,
			dir,
			Object.values(workflows).map((w) => w.workflow),
		);
		console.log(`n8n ${N8N_VERSION} on Node ${install.node.version}: ${RUNS} runs each`);
		const run = (variant) => async () => {
			const before = sandboxes[variant].publicRequests;
			await postJson(client, n8n.webhookUrl(workflows[variant].path), {});
			const calls = sandboxes[variant].publicRequests - before;
			const expected = variant === 'paged' ? pagedRequests(RECORDS, pageSize()) : 1;
			if (calls !== expected) throw new Error(`${variant}: ${calls} requests, not ${expected}`);
		};
		for (let i = 0; i < 2; i++) {
			await run('paged')();
			await run('onePage')();
		}
		const result = {
			paged: await profiled(n8n, dir, 1, run('paged')),
			onePage: await profiled(n8n, dir, 2, run('onePage')),
		};
		const extra = pagedRequests(RECORDS, pageSize()) - 1;
		for (const variant of ['paged', 'onePage']) {
			const { total, areas, functions } = result[variant];
			printTop(
				`\n== ${variant}: ${ms(total / RUNS)} wall per run; self time per run by area (idle: ${ms((areas.get('(idle)') ?? 0) / RUNS)})`,
				areas,
				RUNS,
				15,
				1,
			);
			printTop(`-- top ${TOP} functions (self time per run)`, functions, RUNS, TOP, 1);
		}
		const perRequest = RUNS * extra;
		printDiff(
			`\n== paged minus one page, per extra request (${extra} extra requests)`,
			result.paged.areas,
			result.onePage.areas,
			perRequest,
			15,
		);
		printDiff('-- functions', result.paged.functions, result.onePage.functions, perRequest, TOP);
	} finally {
		await cleanUp({ client, n8n, sandboxes: Object.values(sandboxes), userFolder, dir });
	}
}

async function mainTrigger() {
	const install = await ensureN8n({ log: console.log });
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-profile-'));
	const userFolder = createUserFolder('n8n-cp-profile-');
	let n8n;
	const client = httpClient(8);
	let sandbox;
	let failed = true;
	try {
		sandbox = await startSandbox({});
		installPackage(userFolder, ROOT);
		const [credential, headerAuth, crypto] = await importCredentials(userFolder, [
			{
				name: 'profile trigger',
				type: CREDENTIAL_TYPE,
				data: {
					environment: 'staging',
					baseUrl: sandbox.url,
					apiKey: sandbox.keys.owner,
					webhookSecret: WEBHOOK_SECRET_DUMMY,
				},
			},
			HEADER_AUTH_CREDENTIAL,
			CRYPTO_CREDENTIAL,
		]);
		const workflows = triggerWorkflows(credential, headerAuth, crypto, { storeSize: STORE });
		n8n = await startProfiledN8n(
			userFolder,
			dir,
			Object.values(workflows).map((w) => w.workflow),
		);
		const names = WORKFLOWS ?? ['small', 'noId', 'diy', 'webhook', 'webhookAuth', 'chargebee'];
		console.log(
			`n8n ${N8N_VERSION} on Node ${install.node.version}${Object.keys(N8N_ENV).length ? ` (${JSON.stringify(N8N_ENV)})` : ''}: ${COUNT} deliveries to each of ${names.join(', ')}`,
		);
		for (const name of names) await burst(n8n, client, workflows[name], 40, 8);
		const result = {};
		let index = 0;
		for (const name of names) {
			let rate;
			result[name] = await profiled(
				n8n,
				dir,
				++index,
				async () => {
					rate = await burst(n8n, client, workflows[name], COUNT, 8);
				},
				1,
			);
			result[name].rate = rate.finishedPerSecond;
		}
		for (const name of names) {
			const { total, areas, rate } = result[name];
			const busy = total - (areas.get('(idle)') ?? 0);
			printTop(
				`\n== ${name}: ${rate.toFixed(1)} deliveries/s until finished; CPU ${(busy / COUNT).toFixed(2)} ms per delivery (main thread); by area:`,
				areas,
				COUNT,
				14,
			);
		}
		const pairs = WORKFLOWS
			? names.slice(1).map((name) => [names[0], name])
			: ['diy', 'webhook', 'webhookAuth', 'chargebee'].flatMap((anchor) =>
					['small', 'noId'].map((ours) => [ours, anchor]),
				);
		for (const [ours, anchor] of pairs) {
			printDiff(
				`\n-- ${ours} minus ${anchor}, per delivery, by area`,
				result[ours].areas,
				result[anchor].areas,
				COUNT,
				10,
			);
			printDiff(`-- by function`, result[ours].functions, result[anchor].functions, COUNT, TOP);
		}
		failed = false;
	} finally {
		await cleanUp({ client, n8n, sandboxes: sandbox ? [sandbox] : [], userFolder, dir, failed });
	}
}

await (FIGURE === 'trigger' ? mainTrigger() : main());
