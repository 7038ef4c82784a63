/**
 * The demo behind `npm start` (which builds the package first): the sandbox of the payments
 * service and a real n8n 2.8.4 on 127.0.0.1, with this package loaded, a sandbox credential and
 * the workflows of examples/ imported and active. Prints what to open and what to run, and stays
 * in the foreground until Ctrl-C, which stops n8n and the sandbox.
 *
 * The n8n user folder is <repo>/.demo/ and is recreated on every start: the sandbox keeps its
 * state in memory and starts fresh too, so old executions, credentials and trigger state would
 * point at a service that no longer exists.
 *
 * Environment: COMPANY_PAYMENTS_DEMO_N8N_PORT (default 5678), COMPANY_PAYMENTS_DEMO_SANDBOX_PORT
 * (default 4010). If a default port is taken, a free one is used; a port given explicitly must be
 * free. The n8n install is shared with the end-to-end tests (see harness/README.md).
 *
 * Plain JavaScript with Node built-ins only, like the sandbox and the n8n host it drives.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { SANDBOX_COMPANY, SANDBOX_KEYS, startSandbox } from '../sandbox/server.mjs';
import * as host from '../harness/n8n.mjs';
import { NODE_TYPES } from '../harness/workflows.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DEMO_DIR = path.join(ROOT, '.demo');
const EXAMPLES_DIR = path.join(ROOT, 'examples');
/** Written into DEMO_DIR so a later start knows the folder is the demo's own to delete. */
const MARKER_FILE = '.company-payments-demo';
/** Process ids and URLs of the running demo (also lets a second start refuse politely). */
const STATE_FILE = 'demo-state.json';

const CREDENTIAL_TYPE = 'companyPaymentsApi';
const CREDENTIAL_NAME = 'Company Payments sandbox (demo)';
const TRIGGER_TYPE = NODE_TYPES.trigger;
/** An NSPK QR code the sandbox accepts: 1,500.00 RUB. */
const SAMPLE_QR = 'https://qr.nspk.ru/AS10001?type=02&sum=150000&cur=RUB';

const started = Date.now();
let sandbox;
let n8n;
let stopping = false;
/** Whether this process wrote STATE_FILE (a start that refuses must not delete another's). */
let wroteState = false;

function say(line = '') {
	process.stdout.write(`${line}\n`);
}

function step(text) {
	say(`[demo ${((Date.now() - started) / 1000).toFixed(1).padStart(5)} s] ${text}`);
}

// ---------------------------------------------------------------------------------------------
// Stopping
// ---------------------------------------------------------------------------------------------

/** Records this demo's process ids, so that a second start refuses instead of pulling the folder away. */
function writeState(fields) {
	const file = path.join(DEMO_DIR, STATE_FILE);
	fs.writeFileSync(file, `${JSON.stringify({ demoPid: process.pid, ...fields }, null, 2)}\n`);
	wroteState = true;
}

function removeStateFile() {
	if (wroteState) fs.rmSync(path.join(DEMO_DIR, STATE_FILE), { force: true });
}

async function shutdown() {
	if (n8n) {
		step(`stopping n8n (pid ${n8n.pid})`);
		await n8n.stop({ timeoutMs: 15_000 });
	}
	if (sandbox) {
		step('stopping the sandbox');
		await sandbox.close();
	}
	removeStateFile();
}

function onSignal(signal) {
	if (stopping) {
		say(`\n${signal} again: exiting now (n8n is killed on exit)`);
		process.exit(130);
	}
	stopping = true;
	say('');
	shutdown().then(
		() => {
			step('stopped');
			process.exit(0);
		},
		(error) => {
			say(`error while stopping: ${error.message}`);
			process.exit(1);
		},
	);
}

/**
 * The n8n host installs its own SIGINT/SIGTERM handlers when it first starts a process: they
 * SIGKILL n8n at once (right for a test run that is being aborted). The demo stops n8n gently
 * instead, so it keeps only its own handlers; the host's exit hook still kills anything left.
 */
function ownSignals() {
	for (const signal of ['SIGINT', 'SIGTERM']) {
		for (const listener of process.listeners(signal)) {
			if (listener !== onSignal) process.removeListener(signal, listener);
		}
		if (!process.listeners(signal).includes(onSignal)) process.on(signal, onSignal);
	}
}

// ---------------------------------------------------------------------------------------------
// The demo folder and ports
// ---------------------------------------------------------------------------------------------

/**
 * Whether `pid` is a live process whose command line contains `needle`. Where /proc exists
 * (Linux), zombies and pids reused by other programs do not count.
 */
function processRuns(pid, needle) {
	if (!Number.isInteger(pid) || pid <= 0) return false;
	try {
		process.kill(pid, 0);
	} catch (error) {
		if (error.code !== 'EPERM') return false;
	}
	let stat;
	try {
		stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
	} catch {
		return true; // no /proc: trust the signal check
	}
	if (/\) Z /.test(stat)) return false;
	try {
		return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(needle);
	} catch {
		return false;
	}
}

/** Refuses to start while a previous demo (or the n8n it left behind) still runs. */
function checkNoDemoRunning() {
	let state;
	try {
		state = JSON.parse(fs.readFileSync(path.join(DEMO_DIR, STATE_FILE), 'utf8'));
	} catch {
		return;
	}
	if (state.demoPid !== process.pid && processRuns(state.demoPid, 'demo.mjs')) {
		throw new Error(
			`another demo is running (pid ${state.demoPid}, ${state.n8nUrl ? `n8n at ${state.n8nUrl}` : 'still starting'}). Stop it with Ctrl-C in its terminal, or: kill ${state.demoPid}`,
		);
	}
	if (processRuns(state.n8nPid, 'n8n')) {
		throw new Error(
			`the n8n of an earlier demo still runs (pid ${state.n8nPid}), probably because that demo was killed. Stop it with: kill ${state.n8nPid}`,
		);
	}
}

function recreateDemoDir() {
	if (fs.existsSync(DEMO_DIR)) {
		const isOurs =
			fs.existsSync(path.join(DEMO_DIR, MARKER_FILE)) || fs.readdirSync(DEMO_DIR).length === 0;
		if (!isOurs) {
			throw new Error(`${DEMO_DIR} exists and was not made by the demo; move it away first`);
		}
		fs.rmSync(DEMO_DIR, { recursive: true, force: true });
	}
	fs.mkdirSync(DEMO_DIR, { recursive: true });
	fs.writeFileSync(
		path.join(DEMO_DIR, MARKER_FILE),
		'n8n user folder of `npm start` (scripts/demo.mjs); deleted and recreated on every start\n',
	);
}

function portIsFree(port) {
	return new Promise((resolve) => {
		const server = createServer();
		server.unref();
		server.once('error', () => resolve(false));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
	});
}

async function choosePort(variable, preferred, exclude = []) {
	const given = process.env[variable];
	if (given) {
		const port = Number(given);
		if (!Number.isInteger(port) || port <= 0 || port > 65535) {
			throw new Error(`${variable}=${given} is not a port number`);
		}
		if (!(await portIsFree(port))) throw new Error(`${variable}=${port}: the port is taken`);
		return port;
	}
	if (!exclude.includes(preferred) && (await portIsFree(preferred))) return preferred;
	const port = await host.freePort(exclude);
	step(`port ${preferred} is taken; using ${port}`);
	return port;
}

// ---------------------------------------------------------------------------------------------
// Workflows
// ---------------------------------------------------------------------------------------------

function readExamples() {
	return fs
		.readdirSync(EXAMPLES_DIR)
		.filter((file) => file.endsWith('.json'))
		.sort()
		.map((file) => ({
			file,
			workflow: JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, file), 'utf8')),
		}));
}

/**
 * The example as the demo imports it: an id, the demo credential in every node that takes a
 * Company Payments credential, and the sample QR code prefilled in the form.
 */
/**
 * Examples imported so they can be opened, and left inactive. The service has one webhook URL
 * per company, and each active trigger with registration on takes it: the exactly-once example
 * would take it from the refunds workflow. The support agent needs a chat model (no network here).
 */
const exampleName = (file) =>
	JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, file), 'utf8')).name;
const IMPORTED_ONLY = [
	{
		name: exampleName('poll-and-webhook-exactly-once.json'),
		why: 'activating it moves the company webhook URL to its trigger; deactivate the refunds workflow first',
	},
	{
		name: exampleName('support-agent-dispute.json'),
		why: 'it needs a chat model credential and an SMTP credential for Human review; see docs/ai-agents.md',
	},
	{
		name: exampleName('queue-mode-once-with-redis-node.json'),
		why: "it is for n8n's queue mode and needs a Redis credential; see docs/queue-mode.md",
	},
];
const importedOnly = (workflow) => IMPORTED_ONLY.find((entry) => entry.name === workflow.name);

function demoCopy(workflow, credential) {
	const copy = structuredClone(workflow);
	copy.id = host.newN8nId();
	copy.active = false;
	for (const node of copy.nodes) {
		if (node.credentials?.[CREDENTIAL_TYPE]) {
			node.credentials[CREDENTIAL_TYPE] = { id: credential.id, name: credential.name };
		}
		if (node.type === 'n8n-nodes-base.formTrigger') {
			for (const field of node.parameters.formFields?.values ?? []) {
				if (field.fieldName === 'qrCode') field.defaultValue = SAMPLE_QR;
			}
		}
	}
	return copy;
}

/** One CLI call for all workflows (each call is a second or more). */
async function importWorkflows(workflows) {
	const file = path.join(DEMO_DIR, '.n8n-host', `import-demo-workflows-${process.pid}.json`);
	fs.mkdirSync(path.dirname(file), { recursive: true });
	fs.writeFileSync(file, JSON.stringify(workflows, null, 2));
	try {
		await host.runN8nCli(DEMO_DIR, ['import:workflow', `--input=${file}`]);
	} finally {
		fs.rmSync(file, { force: true });
	}
}

function findNode(workflows, predicate) {
	for (const workflow of workflows) {
		const node = workflow.nodes.find(predicate);
		if (node) return { workflow, node };
	}
	return undefined;
}

// ---------------------------------------------------------------------------------------------
// The sandbox, seen through its public API (like a user would)
// ---------------------------------------------------------------------------------------------

async function sandboxGet(urlPath) {
	const res = await fetch(`${sandbox.url}${urlPath}`, {
		headers: { 'X-API-Key': SANDBOX_KEYS.owner },
		signal: AbortSignal.timeout(10_000),
	});
	if (!res.ok) throw new Error(`sandbox GET ${urlPath} answered ${res.status}`);
	return await res.json();
}

function shellQuote(text) {
	return `'${text.replace(/'/g, `'\\''`)}'`;
}

function curlPost(url, body) {
	const data =
		body === undefined
			? ''
			: ` -H 'Content-Type: application/json' -d ${shellQuote(JSON.stringify(body))}`;
	return `curl -s -X POST ${url}${data}; echo`;
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

async function main() {
	process.on('SIGINT', onSignal);
	process.on('SIGTERM', onSignal);
	say('Company Payments demo: the sandbox service and a real n8n with this package');

	const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
	const declared = [...(pkg.n8n?.nodes ?? []), ...(pkg.n8n?.credentials ?? [])];
	if (declared.some((file) => !fs.existsSync(path.join(ROOT, file)))) {
		throw new Error(
			'the package is not built: run "npm start" (it builds first) or "npm run build"',
		);
	}
	checkNoDemoRunning();

	const cacheDir = host.n8nCacheDir();
	const warm = fs.existsSync(path.join(cacheDir, '.n8n-host-complete.json'));
	step(
		warm
			? `n8n ${host.N8N_VERSION}: using the install in ${cacheDir}`
			: `n8n ${host.N8N_VERSION} is not installed yet: installing it into ${cacheDir} (first run only; a few minutes, about 2.3 GB; progress every 30 s)`,
	);
	await host.ensureN8n({ log: (line) => step(`n8n install: ${line}`) });

	const n8nPort = await choosePort('COMPANY_PAYMENTS_DEMO_N8N_PORT', 5678);
	const sandboxPort = await choosePort('COMPANY_PAYMENTS_DEMO_SANDBOX_PORT', 4010, [n8nPort]);

	// The company's webhook secret is set when the sandbox starts (kept across
	// POST /__control/reset), and the same secret goes into the credential, so every delivery is
	// signed and the trigger verifies it.
	const webhookSecret = `whsec_${randomBytes(24).toString('hex')}`;
	sandbox = await startSandbox({
		host: '127.0.0.1',
		port: sandboxPort,
		orderSchedule: true,
		webhookSecret,
	});
	step(
		`sandbox listening on ${sandbox.url} (orders move by themselves: in_progress after 2 s, success after 5 s)`,
	);

	recreateDemoDir();
	writeState({});
	host.installPackage(DEMO_DIR);
	step(`n8n user folder ${DEMO_DIR} created; package ${pkg.name}@${pkg.version} installed into it`);

	const [credential] = await host.importCredentials(DEMO_DIR, [
		{
			name: CREDENTIAL_NAME,
			type: CREDENTIAL_TYPE,
			data: {
				environment: 'staging',
				baseUrl: sandbox.url,
				apiKey: SANDBOX_KEYS.owner,
				webhookSecret,
			},
		},
	]);
	ownSignals();
	step(
		`credential "${credential.name}" imported (owner API key, sandbox base URL, webhook secret)`,
	);

	const examples = readExamples();
	const workflows = examples.map(({ workflow }) => demoCopy(workflow, credential));
	await importWorkflows(workflows);
	step(
		`${workflows.length} workflows imported from examples/: ${examples.map((e) => e.file).join(', ')}`,
	);

	n8n = await host.startN8n({ userFolder: DEMO_DIR, port: n8nPort });
	writeState({
		n8nPid: n8n.pid,
		n8nUrl: n8n.url,
		sandboxUrl: sandbox.url,
		workflows: Object.fromEntries(workflows.map((w) => [w.name, w.id])),
	});
	void n8n.exited.then((info) => {
		if (stopping) return;
		stopping = true;
		say(`\nn8n exited by itself (code ${info.code}, signal ${info.signal}); see ${n8n.logFile}`);
		n8n = undefined;
		void shutdown().finally(() => process.exit(1));
	});
	step(`n8n started on ${n8n.url} in ${(n8n.startupMs / 1000).toFixed(1)} s`);

	// The first call signs in (creating the owner account on a new folder) and makes an API key.
	const failed = [];
	for (const workflow of workflows) {
		if (importedOnly(workflow)) continue;
		try {
			await n8n.activateWorkflow(workflow.id);
		} catch (error) {
			failed.push(`${workflow.name}: ${error.message}`);
		}
	}
	if (failed.length > 0) {
		for (const line of failed) say(`  could not activate ${line}`);
		say(`  (n8n log: ${n8n.logFile})`);
	}
	const activated = workflows.filter((w) => !importedOnly(w));
	step(`workflows activated (${activated.length - failed.length} of ${activated.length})`);

	// What to print: URLs from the workflows, ids from the sandbox's public API.
	const trigger = findNode(workflows, (node) => node.type === TRIGGER_TYPE);
	const form = findNode(workflows, (node) => node.type === 'n8n-nodes-base.formTrigger');
	const ticket = findNode(workflows, (node) => node.type === 'n8n-nodes-base.webhook');
	const triggerUrl = trigger ? n8n.webhookUrl(`${trigger.node.webhookId}/webhook`) : undefined;
	const profile = await sandboxGet('/auth/company/profile');
	const [order] = await sandboxGet('/orders?status=success&limit=1');
	const { payouts } = await sandboxGet('/payouts?status=waiting_trader&limit=1');
	const balance = await sandboxGet('/wallets/balance');

	const formPath = form?.node.parameters.options?.path ?? form?.node.webhookId;
	const formUrl = form ? `${n8n.url}/form/${formPath}` : undefined;
	const ticketUrl = ticket ? n8n.webhookUrl(ticket.node.parameters.path) : undefined;
	const sb = sandbox.url;
	const webhookNote =
		profile.webhookUrl && profile.webhookUrl === triggerUrl
			? `-> the trigger of "${trigger.workflow.name}" (it registered itself on activation)`
			: `is ${profile.webhookUrl ?? 'not set'}: the trigger did not register itself, events will not reach n8n`;

	const lines = [
		'',
		`The demo is ready (${((Date.now() - started) / 1000).toFixed(1)} s). Ctrl-C stops n8n and the sandbox.`,
		'',
		`  n8n          ${n8n.url}`,
		`    log in     ${host.OWNER.email} / ${host.OWNER.password}`,
		`    executions ${n8n.url}/home/executions`,
		`    log file   ${n8n.logFile}`,
		`  sandbox      ${sb}   (simulated payments service: ${SANDBOX_COMPANY.name}, ${balance.availableBalance} USDT available)`,
		`    state      ${sb}/__control/state`,
		`    webhooks   company webhook URL ${webhookNote}`,
		`  credential   "${credential.name}": owner API key, base URL ${sb}, the company's webhook secret`,
		'',
		'  Active workflows (from examples/):',
		...activated.map((w) => `    ${w.name.padEnd(48)} ${n8n.url}/workflow/${w.id}`),
		...workflows
			.filter((w) => importedOnly(w))
			.map(
				(w) =>
					`  Imported, not active: ${w.name} ${n8n.url}/workflow/${w.id}\n    (${importedOnly(w).why})`,
			),
		'',
		'Try it:',
	];
	if (formUrl) {
		lines.push(
			`  Pay a QR code: open ${formUrl}`,
			`    (the sample QR code ${SAMPLE_QR} is prefilled; the form shows the order)`,
		);
	}
	if (ticketUrl && order) {
		lines.push(
			'  Open a dispute from a support ticket (HTTP 201, the new dispute):',
			`    ${curlPost(ticketUrl, { orderId: order.id, reason: 'Ticket 4711: the merchant says the payment did not arrive' })}`,
			'  A second ticket about the same order gets the open dispute back (HTTP 200, existingDispute true):',
			`    ${curlPost(ticketUrl, { orderId: order.id, reason: 'Ticket 4712: customer asks where the money is' })}`,
			'    (any order in status success or failed can be disputed, e.g. one paid through the form: it succeeds after 5 s)',
		);
	}
	if (triggerUrl) {
		if (payouts?.[0]) {
			const payoutId = payouts[0].id;
			lines.push(
				`  A payout fails and its funds are returned -> "Record refund":`,
				`    ${curlPost(`${sb}/__control/payouts/${payoutId}/status`, { status: 'fail', failReason: 'trader_declined' })}`,
				`  The refunded payout is charged again -> "Record re-charge":`,
				`    ${curlPost(`${sb}/__control/payouts/${payoutId}/recharge`)}`,
			);
		}
		lines.push(
			'  A deposit fails the AML check -> "Compose AML alert" (add "externalId":"user-1001" for a user wallet):',
			`    ${curlPost(`${sb}/__control/deposits`, { amount: 250, aml: 'fail' })}`,
			`  What the sandbox sent to n8n: curl -s '${sb}/__control/deliveries?event=payout.status_changed'`,
		);
	}
	lines.push(
		'',
		`The n8n folder ${path.relative(ROOT, DEMO_DIR)}/ is recreated on every start: export workflows you want to keep.`,
	);
	for (const line of lines) say(line);
}

main().catch(async (error) => {
	say(`\ndemo failed: ${error.message}`);
	if (!stopping) {
		stopping = true;
		await shutdown().catch(() => undefined);
	}
	process.exit(1);
});
