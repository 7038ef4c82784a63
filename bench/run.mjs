// npm run bench: builds, then measures the trigger and the action node against n8n's own nodes
// and writes bench/RESULTS.md. bench/README.md describes the method of every figure.
//
//   node bench/run.mjs                 everything (4 to 7 minutes on 2 cores), writes RESULTS.md
//   node bench/run.mjs --only=verify,package   a subset; prints only, RESULTS.md is left alone
//   node bench/run.mjs --only=trigger,action --write   a subset, written as its version's section
//   node bench/run.mjs --quick         fewer runs; prints only (with --write: written, marked quick)
//   COMPANY_PAYMENTS_N8N_VERSION=2.41.1 node bench/run.mjs   on another n8n of the e2e host's set
//   node bench/run.mjs --render=bench/.work/results-<time>.json   rewrite a run's section from its saved figures
//   node bench/run.mjs --only=trigger --n8n-env=N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true   n8n settings
//       (N8N_* variables, comma-separated) for the n8n under test; printed only, never written
//   node bench/run.mjs --settings=defaults,lazy,patched   the trigger figures under these settings
//       of n8n (default: all three on an n8n with the expression sandbox, 2.36 and later;
//       `defaults` elsewhere): n8n's defaults, N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true, and n8n's
//       defaults with the upstream change of docs/upstream-isolate.md applied to a throw-away
//       copy of the installed file (bench/upstream.mjs); --trigger-runs=N runs per setting
//
// Everything listens on 127.0.0.1. n8n (COMPANY_PAYMENTS_N8N_VERSION, default 2.8.4, from the
// e2e host's cache, on its own Node) runs in a temporary user folder that is deleted at the end;
// the sandboxes run inside this process. RESULTS.md has one section per n8n version.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import {
	compareVersions,
	createUserFolder,
	ensureN8n,
	importCredentials,
	importWorkflows,
	installPackage,
	N8N_NODE_VERSION,
	N8N_VERSION,
	startN8n,
} from '../harness/n8n.mjs';
import { tail } from '../harness/lib/util.mjs';
import { actionWorkflows, benchAction } from './action.mjs';
import { CREDENTIAL_TYPE } from './lib/n8n.mjs';
import { readSections, versionKey, writeSection } from './lib/results-file.mjs';
import { num, range, ratioText } from './lib/stats.mjs';
import { NOTES } from './notes.mjs';
import { benchPackage } from './package.mjs';
import {
	benchReturnAll,
	pageSize,
	RECORDS,
	returnAllWorkflows,
	startReturnAllSandboxes,
} from './returnAll.mjs';
import {
	benchTrigger,
	CRYPTO_CREDENTIAL,
	FOCUSED_VARIANTS,
	HEADER_AUTH_CREDENTIAL,
	SMALL_STORE,
	triggerWorkflows,
	WEBHOOK_SECRET_DUMMY,
} from './trigger.mjs';
import { patchedN8n } from './upstream.mjs';
import { benchVerify } from './verify.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS_FILE = path.join(ROOT, 'bench', 'RESULTS.md');
const ALL = ['verify', 'trigger', 'action', 'returnAll', 'package'];

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const onlyArg = args.find((a) => a.startsWith('--only='));
const only = onlyArg ? onlyArg.slice('--only='.length).split(',') : ALL;
for (const name of only)
	if (!ALL.includes(name)) throw new Error(`unknown benchmark "${name}" (${ALL.join(', ')})`);
// --n8n-env=NAME=value,...: n8n settings (e.g. its expression engine) for the n8n under test.
const n8nEnvArg = args.find((a) => a.startsWith('--n8n-env='));
const n8nEnv = Object.fromEntries(
	(n8nEnvArg ? n8nEnvArg.slice('--n8n-env='.length).split(',') : []).map((pair) => {
		const [name, ...value] = pair.split('=');
		if (!/^N8N_[A-Z0-9_]+$/.test(name)) throw new Error(`--n8n-env takes N8N_* variables: ${name}`);
		return [name, value.join('=')];
	}),
);
// --write also writes a subset or a quick run (the section then says which and how many runs);
// never a run with --n8n-env, whose figures are not the version's defaults.
const complete =
	Object.keys(n8nEnv).length === 0 &&
	(args.includes('--write') || (!quick && only.length === ALL.length));

const started = Date.now();
const log = (message) =>
	console.log(`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(3)}s] ${message}`);

const RUNS = quick
	? {
			verify: 3,
			trigger: 2,
			triggerCount: 100,
			action: 2,
			returnAllTimePairs: 2,
			returnAllMemoryPairs: 1,
		}
	: {
			verify: 7,
			trigger: 5,
			triggerCount: 300,
			action: 5,
			returnAllTimePairs: 7,
			returnAllMemoryPairs: 4,
		};
// --trigger-count=N: deliveries per burst of the trigger benchmark (on n8n 2.41 a burst of 300
// to each of its 7 workflows takes about 4 minutes per run on the 2-core machine).
const triggerCountArg = args.find((a) => a.startsWith('--trigger-count='));
if (triggerCountArg) RUNS.triggerCount = Number(triggerCountArg.slice('--trigger-count='.length));
const triggerRunsArg = args.find((a) => a.startsWith('--trigger-runs='));
if (triggerRunsArg) RUNS.trigger = Number(triggerRunsArg.slice('--trigger-runs='.length));

/** Whether this n8n evaluates expressions in an isolated-vm sandbox (2.36 and later). */
const SANDBOXED = compareVersions(N8N_VERSION, '2.36.0') >= 0;
/**
 * The n8n settings the trigger benchmark runs under (issue 39). `lazy`: n8n's experimental lazy
 * sandbox; `patched`: n8n's defaults with the upstream change (docs/upstream-isolate.md) in a
 * throw-away copy of the file it changes. Both only exist on an n8n with the sandbox.
 */
const SETTINGS = ['defaults', 'lazy', 'patched'];
const settingsArg = args.find((a) => a.startsWith('--settings='));
const settings = settingsArg
	? settingsArg.slice('--settings='.length).split(',')
	: SANDBOXED
		? SETTINGS
		: ['defaults'];
for (const name of settings) {
	if (!SETTINGS.includes(name))
		throw new Error(`unknown setting "${name}" (${SETTINGS.join(', ')})`);
	if (name !== 'defaults' && !SANDBOXED)
		throw new Error(`--settings=${name}: n8n ${N8N_VERSION} has no expression sandbox`);
}
/** n8n's lazy expression sandbox (experimental in n8n 2.41; see docs/performance.md). */
const LAZY = { N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' };

/** Runs the benchmarks that need a real n8n; stops everything it started. */
async function inN8n(results) {
	const install = await ensureN8n({ log });
	results.runtime = { n8n: install.version, node: install.node.version };
	const sandboxes = {};
	let n8n;
	const userFolder = createUserFolder('n8n-cp-bench-');
	try {
		Object.assign(sandboxes, await startReturnAllSandboxes());
		installPackage(userFolder, ROOT);
		const data = (sandbox, webhookSecret = '') => ({
			environment: 'staging',
			baseUrl: sandbox.url,
			apiKey: sandbox.keys.owner,
			webhookSecret,
		});
		log('n8n: importing credentials and workflows');
		const [triggerCredential, pagedCredential, onePageCredential, headerAuth, crypto] =
			await importCredentials(userFolder, [
				{
					name: 'bench trigger',
					type: CREDENTIAL_TYPE,
					data: data(sandboxes.paged, WEBHOOK_SECRET_DUMMY),
				},
				{ name: 'bench sandbox (paged)', type: CREDENTIAL_TYPE, data: data(sandboxes.paged) },
				{ name: 'bench sandbox (one page)', type: CREDENTIAL_TYPE, data: data(sandboxes.onePage) },
				HEADER_AUTH_CREDENTIAL,
				CRYPTO_CREDENTIAL,
			]);
		const workflows = {
			trigger: triggerWorkflows(triggerCredential, headerAuth, crypto),
			action: actionWorkflows(pagedCredential, sandboxes.paged.url),
			returnAll: returnAllWorkflows(pagedCredential, onePageCredential),
		};
		const list = Object.values(workflows).flatMap((group) =>
			Object.values(group).map((w) => w.workflow),
		);
		await importWorkflows(userFolder, list);
		n8n = await startN8n({ userFolder, env: n8nEnv });
		for (const workflow of list) await n8n.activateWorkflow(workflow.id);
		log(
			`n8n ${N8N_VERSION} on Node ${install.node.version} running (pid ${n8n.pid}), ${list.length} workflows active`,
		);

		// Return All first: its memory runs restart n8n, and when it ran last, n8n's RSS right
		// after a restart grew from 530 to 1,050 MiB over its eight restarts, with the thousands
		// of executions the trigger and action benchmarks had left in the database.
		if (only.includes('returnAll')) {
			results.returnAll = await benchReturnAll(
				() => n8n,
				(handle) => {
					n8n = handle;
				},
				sandboxes,
				workflows.returnAll,
				{ timePairs: RUNS.returnAllTimePairs, memoryPairs: RUNS.returnAllMemoryPairs, log },
			);
		}
		if (only.includes('trigger') && settings.includes('defaults')) {
			results.trigger = await benchTrigger(n8n, workflows.trigger, {
				runs: RUNS.trigger,
				count: RUNS.triggerCount,
				log,
			});
		}
		if (only.includes('action')) {
			results.action = await benchAction(n8n, sandboxes.paged, workflows.action, {
				runs: RUNS.action,
				log,
			});
		}
		// The same trigger workflows under n8n's other settings: n8n restarted on the same data.
		for (const setting of only.includes('trigger') ? settings : []) {
			if (setting === 'defaults') continue;
			let env = { ...n8nEnv, ...LAZY };
			let patched;
			if (setting === 'patched') {
				patched = patchedN8n(install.dir, path.join(ROOT, 'bench', '.work', 'upstream'));
				env = { ...n8nEnv, ...patched.env };
			}
			log(`n8n: restarting with the ${setting} setting`);
			n8n = await n8n.restart({ env });
			patched?.check(n8n.logText());
			results[setting === 'lazy' ? 'triggerLazy' : 'triggerPatched'] = await benchTrigger(
				n8n,
				workflows.trigger,
				{
					runs: RUNS.trigger,
					count: RUNS.triggerCount,
					variants: FOCUSED_VARIANTS,
					setting,
					log,
				},
			);
		}
	} catch (error) {
		// The user folder (and n8n's log in it) is deleted below: keep what n8n said.
		if (n8n) console.error(`n8n's log, last lines:\n${tail(n8n.logText(), 40, true)}`);
		throw error;
	} finally {
		await n8n?.stop();
		for (const sandbox of Object.values(sandboxes)) await sandbox.close();
		fs.rmSync(userFolder, { recursive: true, force: true });
	}
}

const met = (ok) => (ok ? 'yes' : '**no**');
/** The Target cell of a figure reported without a target (a retired one, or context). */
const DIAGNOSTIC = '(diagnostic, no target)';

function kib(bytes) {
	return `${num(bytes / 1024)} KiB`;
}

/** The table rows: [figure, ours, reference, ratio, target, met]. */
function rows(results) {
	const out = [];
	for (const v of results.verify ?? []) {
		// The 1 KB target is retired: a fixed few µs per delivery (dedup record, timestamp) shows
		// next to a 2 µs HMAC and vanishes inside n8n, where a delivery costs milliseconds.
		const large = v.size >= 1024 * 64;
		out.push([
			`1. Verify + dedup + route in process, ${large ? '64 KB' : '1 KB'} body (deliveries/s; µs per delivery)${large ? '' : ', diagnostic'}`,
			`${range(v.triggerPerSecond, '/s')}; ${num(v.triggerUs.median)} µs`,
			`bare createHmac: ${range(v.hmacPerSecond, '/s')}; ${num(v.hmacUs.median)} µs`,
			`${ratioText(v.ratio)} time`,
			large ? '≤ 1.5× time' : DIAGNOSTIC,
			large ? met(v.ratio.median <= 1.5) : '',
			large ? 'verify' : undefined,
		]);
	}
	if (results.verify) {
		out.push([
			'1. (diagnostic) the signature check alone (built verifyBody: HMAC, hex decode, constant-time compare)',
			results.verify
				.map((v) => `${v.size >= 64 * 1024 ? '64 KB' : '1 KB'}: ${ratioText(v.verifyOnlyRatio)}`)
				.join('; '),
			'bare createHmac',
			'',
			'(reported)',
			'',
		]);
	}
	const t = results.trigger;
	if (t) {
		const anchorName = {
			diy: 'DIY chain (Webhook → Crypto HMAC → IF → Remove Duplicates)',
			webhookAuth: 'Webhook node with Header Auth',
			chargebee: 'Chargebee Trigger',
			webhook: 'Webhook node, no authentication',
		};
		const ours = {
			small: `version 2, with delivery ID, store full at ${num(SMALL_STORE)} ids`,
			noId: 'version 2, without delivery ID (nothing stored)',
			v1: `version 1 (saved workflows), with delivery ID, store full at ${num(SMALL_STORE)} ids`,
		};
		// Issue 32's targets: with IDs against the DIY chain, without IDs against Header Auth. The
		// targets of issue 19 (with IDs against Header Auth and the Chargebee Trigger) are retired:
		// neither anchor pays the store write that keeps deduplication across restarts.
		const targetOf = { small: { diy: 'triggerDiy' }, noId: { webhookAuth: 'triggerNoId' } };
		const retired = { small: ['webhookAuth', 'chargebee'] };
		for (const [name, label] of Object.entries(ours)) {
			for (const anchor of ['diy', 'webhookAuth', 'chargebee', 'webhook']) {
				const target = targetOf[name]?.[anchor];
				const wasTarget = retired[name]?.includes(anchor);
				out.push([
					`2. Trigger in n8n, sustained deliveries/s until executions finished: ours ${label} vs ${anchorName[anchor]}${wasTarget ? ', diagnostic' : ''}`,
					range(t.rates[name].finished, '/s'),
					`${anchorName[anchor]}: ${range(t.rates[anchor].finished, '/s')}`,
					ratioText(t.ratio[name][anchor]),
					target ? '≥ 1.0×' : wasTarget ? DIAGNOSTIC : '(reported)',
					target ? met(t.ratio[name][anchor].median >= 1.0) : '',
					target,
				]);
			}
		}
		out.push(...commonTriggerRows(t, ''));
		const answer = t.answers.answer;
		out.push([
			`2. Trigger in n8n, answer time of a new delivery, one at a time (${t.sequential} alternating rounds): ours version 2 with delivery ID vs DIY chain`,
			range(answer.small, 'ms'),
			`DIY chain: ${range(answer.diy, 'ms')} (Webhook node: ${range(answer.webhook, 'ms')}; with Header Auth: ${range(answer.webhookAuth, 'ms')}; Chargebee Trigger: ${range(answer.chargebee, 'ms')}; ours without delivery ID: ${range(answer.noId, 'ms')})`,
			`${ratioText(t.answers.smallOverDiy)} time`,
			'≤ 1.0× time',
			met(t.answers.smallOverDiy.median <= 1.0),
			'triggerAnswer',
		]);
		out.push([
			"2. (diagnostic) the dedup store's write: ours version 2 with delivery ID (one static-data write per new delivery) vs without (none), sustained deliveries/s",
			range(t.rates.small.finished, '/s'),
			`without delivery ID: ${range(t.rates.noId.finished, '/s')}`,
			ratioText(t.storeRatio),
			'(reported)',
			'',
		]);
		for (const [name, label] of [
			['small', 'version 2'],
			['v1', 'version 1'],
		]) {
			const l = t.latency[name];
			// Target retired: n8n's own per-request work dominates both answers.
			out.push([
				`2. Duplicate vs new delivery, answer time one at a time, ${label}, diagnostic`,
				`duplicate ${range(l.duplicate, 'ms')}`,
				`new ${range(l.fresh, 'ms')}`,
				`${l.ratio.toFixed(2)}× faster`,
				DIAGNOSTIC,
				'',
			]);
		}
	}
	for (const [key, setting] of [
		['triggerLazy', 'lazy'],
		['triggerPatched', 'patched'],
	]) {
		if (results[key]) out.push(...settingRows(results[key], setting));
	}
	const a = results.action;
	if (a) {
		out.push([
			`3. Action node, ${num(a.items)} items of Order → Get (webhook round trip)`,
			range(a.nodeMs, 'ms'),
			`HTTP Request node: ${range(a.httpMs, 'ms')}`,
			`${ratioText(a.ratio)} time`,
			'≤ 1.1× time',
			met(a.ratio.median <= 1.1),
			'action',
		]);
	}
	const r = results.returnAll;
	if (r) {
		out.push([
			`4. Return All, ${num(r.records)} deposits, ${num(pageSize())} per page vs one page: time`,
			`paged ${range(r.pagedMs, 'ms')}`,
			`one page ${range(r.onePageMs, 'ms')}`,
			`${ratioText(r.timeRatio)} time`,
			'≤ 1.1× time',
			met(r.timeRatio.median <= 1.1),
			'returnAllTime',
		]);
		out.push([
			'4. (reference) the same pages straight from the sandbox, no n8n',
			`pages of ${num(pageSize())}: ${range(r.directPagedMs, 'ms')}`,
			`one page ${range(r.directOnePageMs, 'ms')}`,
			'',
			'(reported)',
			'',
		]);
		out.push([
			'4. Return All: peak RSS of n8n added by the run (VmHWM − RSS before)',
			`paged +${range(r.pagedAddedMiB, 'MiB')} (peak ${num(r.pagedPeakMiB.median)} MiB)`,
			`one page +${range(r.onePageAddedMiB, 'MiB')} (peak ${num(r.onePagePeakMiB.median)} MiB)`,
			`${ratioText(r.memoryRatio)} added; ${ratioText(r.peakRatio)} whole peak`,
			'≤ 1.5× memory',
			met(r.memoryRatio.median <= 1.5),
			'returnAllMemory',
		]);
	}
	const p = results.package;
	if (p) {
		out.push([
			'5. Package: npm pack (packed size, unpacked, files)',
			`${kib(p.pack.size)}, ${kib(p.pack.unpackedSize)} unpacked, ${p.pack.files} files`,
			'',
			'',
			'(reported)',
			'',
		]);
		for (const [name, times] of Object.entries(p.requireTimes)) {
			out.push([
				`5. require() of ${name}, fresh process (${p.samples} samples)`,
				`${range(times.cold, 'ms')} cold`,
				`${range(times.ownCode, 'ms')} with n8n-workflow already loaded (as in n8n)`,
				'',
				'(reported)',
				'',
			]);
		}
		out.push([
			'5. Runtime dependencies',
			`${p.dependencies.length} in package.json; required by dist/: ${p.required.join(', ')}`,
			p.outside.length
				? `outside the package: ${p.outside.join(', ')}`
				: 'nothing else (n8n-workflow is a peer dependency)',
			'',
			'0',
			met(p.dependencies.length === 0 && p.outside.length === 0),
			'dependencies',
		]);
	}
	return out;
}

const SETTING_LABEL = {
	lazy: 'N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true',
	patched:
		"n8n's defaults with the upstream change of docs/upstream-isolate.md (a copy, bench only)",
};

/**
 * Rows every trigger run has (issue 39): deliveries lost after a 200 (ours against the DIY chain,
 * the same bursts), and version 1 against the newest version. `where` names the setting.
 */
function commonTriggerRows(t, where, { v1Target = false } = {}) {
	const out = [];
	const ours = ['small', 'noId', 'v1'].filter((name) => t.lost[name]);
	const oursLost = ours.reduce((sum, name) => sum + t.lost[name].lost, 0);
	const oursAccepted = ours.reduce((sum, name) => sum + t.lost[name].accepted, 0);
	out.push([
		`2. Trigger in n8n${where}, reliability: deliveries answered 200 whose execution did not succeed (lost: the sender does not send them again), ours (every variant) vs DIY chain, the same bursts (${t.runs} runs of ${t.count} per workflow, 8 senders, plus the warm-up)`,
		`${oursLost} of ${oursAccepted}`,
		`DIY chain: ${t.lost.diy.lost} of ${t.lost.diy.accepted}${t.diyFailures?.messages?.length ? ` (${t.diyFailures.messages.map((m) => m.replace(/^\?: /, '')).join('; ')})` : ''}`,
		'',
		'0 lost',
		met(oursLost === 0),
		'triggerLost',
	]);
	if (t.v1Ratio) {
		out.push([
			`2. Trigger in n8n${where}, sustained deliveries/s: ours version 1 (saved workflows) vs ours version 2 (the newest), both with delivery ID, store full at ${num(SMALL_STORE)} ids`,
			range(t.rates.v1.finished, '/s'),
			`version 2: ${range(t.rates.small.finished, '/s')}`,
			ratioText(t.v1Ratio),
			v1Target ? '≥ 0.9×' : '(reported)',
			v1Target ? met(t.v1Ratio.median >= 0.9) : '',
			v1Target ? 'triggerV1' : undefined,
		]);
	}
	return out;
}

/** The trigger rows of a run under another n8n setting (lazy sandbox, or the upstream change). */
function settingRows(t, setting) {
	const where = ` (${SETTING_LABEL[setting]})`;
	const lazy = setting === 'lazy';
	const out = [];
	const rate = (name, anchor, label, target, key) => {
		out.push([
			`2. Trigger in n8n${where}, sustained deliveries/s until executions finished: ours ${label}`,
			range(t.rates[name].finished, '/s'),
			`${anchor === 'diy' ? 'DIY chain' : 'Webhook node, no authentication'}: ${range(t.rates[anchor].finished, '/s')}`,
			ratioText(t.ratio[name][anchor]),
			target ?? '(reported)',
			target ? met(t.ratio[name][anchor].median >= 1.0) : '',
			key,
		]);
	};
	rate(
		'small',
		'webhook',
		`version 2, with delivery ID, store full at ${num(SMALL_STORE)} ids vs Webhook node, no authentication`,
		lazy ? '≥ 1.0×' : undefined,
		lazy ? 'triggerWebhook' : undefined,
	);
	rate(
		'small',
		'diy',
		`version 2, with delivery ID, store full at ${num(SMALL_STORE)} ids vs DIY chain (Webhook → Crypto HMAC → IF → Remove Duplicates)`,
		'≥ 1.0×',
		setting === 'patched' ? 'triggerPatchedDiy' : 'triggerDiyLazy',
	);
	rate('noId', 'webhook', 'version 2, without delivery ID vs Webhook node, no authentication');
	rate('v1', 'diy', `version 1, with delivery ID vs DIY chain`);
	const a = t.answers;
	out.push([
		`2. Trigger in n8n${where}, answer time of a new delivery, one at a time (${t.sequential} alternating rounds): ours version 2 with delivery ID vs Webhook node, no authentication`,
		range(a.answer.small, 'ms'),
		`Webhook node: ${range(a.answer.webhook, 'ms')} (DIY chain: ${range(a.answer.diy, 'ms')}; ours without delivery ID: ${range(a.answer.noId, 'ms')})`,
		`${ratioText(a.smallOverWebhook)} time`,
		lazy ? '≤ 1.0× time' : '(reported)',
		lazy ? met(a.smallOverWebhook.median <= 1.0) : '',
		lazy ? 'triggerWebhookAnswer' : undefined,
	]);
	out.push(...commonTriggerRows(t, where, { v1Target: lazy }));
	return out;
}

function table(rowList) {
	const header = ['Figure', 'Ours', 'Reference', 'Ratio (median, min–max)', 'Target', 'Met'];
	const line = (cells) =>
		`| ${cells
			.slice(0, 6)
			.map((c) => String(c).replace(/\|/g, '\\|'))
			.join(' | ')} |`;
	return [line(header), line(header.map(() => '---')), ...rowList.map(line)].join('\n');
}

/** The notes of the missed targets (each once), from bench/notes.mjs. */
function missedNotes(rowList, results) {
	const keys = [
		...new Set(rowList.filter((row) => row[5] === met(false) && row[6]).map((row) => row[6])),
	];
	return keys
		.map((key) => {
			const { title, text } = NOTES[key];
			return `- **${title}.** ${typeof text === 'function' ? text(results) : text}`;
		})
		.join('\n\n');
}

function machine() {
	const cpus = os.cpus();
	return {
		cores: cpus.length,
		cpu: cpus[0]?.model?.trim() ?? 'unknown',
		memoryGiB: os.totalmem() / 1024 ** 3,
		node: process.version,
		platform: `${os.type()} ${os.release()}`,
	};
}

/** The section of RESULTS.md for one run: context line, table, notes of the missed targets. */
function section(run) {
	const { machine: m, n8n, n8nNode, only: ran, quick: wasQuick, minutes, date, results } = run;
	const context =
		`Measured ${date} on ${m.cores} cores (${m.cpu}), ` +
		`${num(m.memoryGiB)} GiB RAM, ${m.platform}; n8n ${n8n} on Node ${n8nNode} ` +
		`(SQLite, regular mode); the in-process figures on Node ${m.node}. Ran: ${ran.join(', ')}` +
		`${wasQuick ? ` (quick: trigger ${RUNS.trigger} runs of ${RUNS.triggerCount} deliveries, action ${RUNS.action} runs)` : ''}` +
		`${!wasQuick && results.trigger ? ` (trigger: ${results.trigger.runs} runs of ${results.trigger.count} deliveries per workflow)` : ''}. ` +
		`Each figure: median (min–max) of the runs listed in bench/README.md; ratios are taken within ` +
		`the same run. The whole benchmark took ${minutes.toFixed(1)} minutes.` +
		(run.load
			? ` Load average (1 min) sampled during the run: ${run.load.min.toFixed(1)}–${run.load.max.toFixed(1)} on ${m.cores} cores (other jobs shared them; read the ratios).`
			: '');
	const rowList = rows(results);
	const notes = missedNotes(rowList, results);
	return { context, text: table(rowList), notes };
}

/** The notes of the missed targets under their heading ('' when every target was met). */
function notesBlock(notes, heading) {
	return notes
		? `\n\n${heading} Why the missed targets are missed, and what would close them\n\n${notes}`
		: '';
}

/** The figure number of each benchmark (the first cell of its rows starts with it). */
const FIGURE = { verify: '1.', trigger: '2.', action: '3.', returnAll: '4.', package: '5.' };

/**
 * A run of some benchmarks only (--only=… --write) keeps the rows of the others, and their notes,
 * from the version's section as it stands, and says from which run they are.
 */
function keptFromEarlier(run) {
	const previous = fs.existsSync(RESULTS_FILE)
		? readSections(fs.readFileSync(RESULTS_FILE, 'utf8')).get(versionKey(run.n8n))
		: undefined;
	const keep = ALL.filter((name) => !run.only.includes(name)).map((name) => FIGURE[name]);
	if (!previous || keep.length === 0) return undefined;
	const lines = previous.split('\n');
	const rows = lines.filter(
		(line) =>
			line.startsWith('| ') &&
			keep.some((prefix) => line.slice(2).startsWith(prefix)) &&
			!line.startsWith('| Figure'),
	);
	// A section written this way names the run its kept rows come from; keep that name.
	const measured =
		/kept as measured on (\d{4}-\d{2}-\d{2})/.exec(previous)?.[1] ??
		/Measured (\d{4}-\d{2}-\d{2})/.exec(previous)?.[1] ??
		'an earlier run';
	// Only the notes of the benchmarks not run this time: a benchmark that ran wrote its own.
	const keptTitles = new Set(
		Object.values(NOTES)
			.filter((note) => !run.only.includes(note.bench))
			.map((note) => note.title),
	);
	const notes = lines.filter((line) => {
		const title = /^- \*\*(.+?)\.\*\*/.exec(line)?.[1];
		return title !== undefined && keptTitles.has(title);
	});
	return { rows, notes, measured, figures: keep.join(', ').replace(/\./g, '') };
}

function writeRunSection(run) {
	const { context, text, notes } = section(run);
	const kept = keptFromEarlier(run);
	let table = text;
	let contextText = context;
	let notesText = notesBlock(notes, '###');
	if (kept && kept.rows.length) {
		const [header, rule, ...fresh] = text.split('\n');
		const byFigure = (a, b) => Number.parseInt(a.slice(2), 10) - Number.parseInt(b.slice(2), 10);
		table = [header, rule, ...[...fresh, ...kept.rows].sort(byFigure)].join('\n');
		contextText += ` Figures ${kept.figures} are kept as measured on ${kept.measured} (not run this time).`;
		if (kept.notes.length) {
			notesText = notesBlock([notes, ...kept.notes].filter(Boolean).join('\n\n'), '###');
		}
	}
	const body = `## n8n ${run.n8n} on Node ${run.n8nNode}\n\n${contextText}\n\n${table}${notesText}`;
	writeSection(RESULTS_FILE, versionKey(run.n8n), body);
	log(`wrote the n8n ${run.n8n} section of ${path.relative(ROOT, RESULTS_FILE)}`);
}

async function main() {
	// --render=<bench/.work/results-*.json>: rewrite that run's section from its saved figures
	// (after a change to how the table or the notes are written), without measuring again.
	const renderArg = args.find((a) => a.startsWith('--render='));
	if (renderArg) {
		writeRunSection(JSON.parse(fs.readFileSync(renderArg.slice('--render='.length), 'utf8')));
		return;
	}
	const results = {};
	const m = machine();
	// The machine's load while measuring: on shared cores it explains the spread of the figures.
	const loads = [os.loadavg()[0]];
	const loadTimer = setInterval(() => loads.push(os.loadavg()[0]), 30_000);
	loadTimer.unref();
	const n8nNode = N8N_NODE_VERSION === 'system' ? m.node : `v${N8N_NODE_VERSION}`;
	log(
		`${m.cores} cores (${m.cpu}), Node ${m.node}, n8n ${N8N_VERSION} on Node ${n8nNode}; running: ${only.join(', ')}${quick ? ' (quick)' : ''}${Object.keys(n8nEnv).length ? `; n8n settings: ${JSON.stringify(n8nEnv)}` : ''}`,
	);
	if (only.includes('verify'))
		results.verify = await benchVerify({
			distRoot: path.join(ROOT, 'dist'),
			runs: RUNS.verify,
			log,
		});
	if (only.some((name) => ['trigger', 'action', 'returnAll'].includes(name))) await inN8n(results);
	if (only.includes('package')) results.package = await benchPackage({ root: ROOT, log });
	clearInterval(loadTimer);
	loads.push(os.loadavg()[0]);
	const run = {
		load: { min: Math.min(...loads), max: Math.max(...loads) },
		machine: m,
		n8n: N8N_VERSION,
		n8nNode,
		n8nEnv,
		quick,
		only,
		minutes: (Date.now() - started) / 60_000,
		date: new Date().toISOString().slice(0, 10),
		results,
	};
	// The figures are saved first: a section that fails to render can be rendered again (--render).
	fs.mkdirSync(path.join(ROOT, 'bench', '.work'), { recursive: true });
	const saved = path.join(ROOT, 'bench', '.work', `results-${Date.now()}.json`);
	fs.writeFileSync(saved, JSON.stringify(run, null, 2));
	log(`figures saved in ${path.relative(ROOT, saved)}`);
	const { context, text, notes } = section(run);
	const notesText = notesBlock(notes, '##');
	console.log(`\n${context}\n\n${text}${notesText}\n`);
	if (complete) writeRunSection(run);
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
