// What the real-n8n benchmarks share: workflow builders, a keep-alive HTTP client, counting
// finished executions, and reading the memory of the n8n process from /proc.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';

import { uuid } from '../../harness/n8n.mjs';
import { chain, credentialRef, lineNode, NODE_TYPES } from '../../harness/workflows.mjs';

const require = createRequire(import.meta.url);

export const ACTION_NODE = NODE_TYPES.action;
export const TRIGGER_NODE = NODE_TYPES.trigger;
export const CREDENTIAL_TYPE = 'companyPaymentsApi';

/** 16 characters of [0-9a-f]: an n8n workflow id. */
export function workflowId() {
	return uuid().replace(/-/g, '').slice(0, 16);
}

const node = lineNode;

/**
 * n8n's Webhook node (POST) followed by `nodes` in a line. `webhookOptions` sets the response
 * mode and data. Returns the workflow and the path to call.
 */
export function webhookWorkflow(name, nodes, webhookOptions) {
	const webhookPath = `bench-${name}`;
	const webhook = node(
		'Webhook',
		'n8n-nodes-base.webhook',
		2,
		0,
		{ path: webhookPath, httpMethod: 'POST', options: {}, ...webhookOptions },
		{ webhookId: uuid() },
	);
	const all = [webhook, ...nodes.map((n, i) => ({ ...n, position: [220 * (i + 1), 0] }))];
	return {
		workflow: {
			id: workflowId(),
			name: `bench ${name}`,
			nodes: all,
			connections: chain(...all.map((n) => n.name)),
			settings: { executionOrder: 'v1' },
		},
		path: webhookPath,
	};
}

export const noOp = () => node('No Operation', 'n8n-nodes-base.noOp', 1, 0, {});

/** Company Payments (our action node) with the given parameters. */
export const actionNode = (credential, parameters) =>
	node('Company Payments', ACTION_NODE, 1, 0, parameters, {
		credentials: credentialRef(credential),
	});

/** n8n's HTTP Request node, GET `url`, authenticated with our credential type ("Predefined Credential Type"). */
export const httpRequestNode = (credential, url) =>
	node(
		'HTTP Request',
		'n8n-nodes-base.httpRequest',
		4.2,
		0,
		{
			method: 'GET',
			url,
			authentication: 'predefinedCredentialType',
			nodeCredentialType: CREDENTIAL_TYPE,
			options: {},
		},
		{ credentials: credentialRef(credential) },
	);

/** Split Out: one item per element of the array in `field`. */
export const splitOutNode = (field) =>
	node('Split Out', 'n8n-nodes-base.splitOut', 1, 0, { fieldToSplitOut: field, options: {} });

/**
 * Company Payments Trigger → No Operation. The trigger's production URL is
 * `/webhook/<webhookId>/webhook`. `staticData` lets a run start with a filled dedup store.
 */
export function triggerWorkflow(
	name,
	credential,
	staticData,
	options = {},
	{ typeVersion = 1 } = {},
) {
	const webhookId = uuid();
	const trigger = node(
		'Company Payments Trigger',
		TRIGGER_NODE,
		typeVersion,
		0,
		{ events: ['*'], routeByEvent: false, registerWebhook: false, options },
		{ webhookId, credentials: credentialRef(credential) },
	);
	const nodes = [trigger, { ...noOp(), position: [220, 0] }];
	return {
		workflow: {
			id: workflowId(),
			name: `bench ${name}`,
			nodes,
			connections: chain(trigger.name, 'No Operation'),
			settings: { executionOrder: 'v1' },
			...(staticData ? { staticData } : {}),
		},
		path: `${webhookId}/webhook`,
	};
}

/**
 * One HTTP client with keep-alive connections (as a webhook sender or a browser would hold
 * them), so the figures are about n8n, not about TCP handshakes.
 */
export function httpClient(maxSockets = 16) {
	const agent = new http.Agent({ keepAlive: true, maxSockets });
	function send(url, { method = 'POST', headers = {}, body } = {}) {
		return new Promise((resolve, reject) => {
			const start = performance.now();
			const req = http.request(url, { method, headers, agent }, (res) => {
				const chunks = [];
				res.on('data', (chunk) => chunks.push(chunk));
				res.on('end', () =>
					resolve({
						status: res.statusCode,
						text: Buffer.concat(chunks).toString('utf8'),
						ms: performance.now() - start,
					}),
				);
				res.on('error', reject);
			});
			req.on('error', reject);
			req.setTimeout(300_000, () => req.destroy(new Error(`timeout: ${method} ${url}`)));
			req.end(body);
		});
	}
	return { send, close: () => agent.destroy() };
}

/** POST JSON; fails unless the answer is 200. Returns the parsed answer and the round trip. */
export async function postJson(client, url, payload) {
	const body = JSON.stringify(payload);
	const res = await client.send(url, {
		headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
		body,
	});
	if (res.status !== 200)
		throw new Error(`POST ${url} answered ${res.status}: ${res.text.slice(0, 500)}`);
	return { json: JSON.parse(res.text), ms: res.ms };
}

const FINISHED = ['success', 'error', 'crashed', 'canceled'];

/** How many executions of a workflow have finished (n8n's own count, one SQL COUNT). */
export async function finishedExecutions(n8n, id) {
	const filter = encodeURIComponent(JSON.stringify({ workflowId: id, status: FINISHED }));
	const data = await n8n.rest('GET', `/executions?filter=${filter}&limit=1`);
	return data.count;
}

/** How many executions of a workflow succeeded. */
export async function successfulExecutions(n8n, id) {
	const filter = encodeURIComponent(JSON.stringify({ workflowId: id, status: ['success'] }));
	const data = await n8n.rest('GET', `/executions?filter=${filter}&limit=1`);
	return data.count;
}

/** How many executions of a workflow ended in error (should stay 0). */
export async function failedExecutions(n8n, id) {
	const filter = encodeURIComponent(
		JSON.stringify({ workflowId: id, status: ['error', 'crashed'] }),
	);
	const data = await n8n.rest('GET', `/executions?filter=${filter}&limit=1`);
	return data.count;
}

/** Resolves at the moment `count` executions have finished (polled every `everyMs`). */
export async function waitFinished(n8n, id, count, { everyMs = 50, timeoutMs = 300_000 } = {}) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const done = await finishedExecutions(n8n, id);
		if (done >= count) return performance.now();
		if (Date.now() > deadline)
			throw new Error(`only ${done} of ${count} executions of ${id} finished`);
		await new Promise((resolve) => setTimeout(resolve, everyMs));
	}
}

/** VmRSS and VmHWM (peak RSS) of a process, in MiB, from /proc/<pid>/status. */
export function memoryOf(pid) {
	const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
	const kib = (name) => Number(status.match(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm'))?.[1]);
	return { rssMiB: kib('VmRSS') / 1024, hwmMiB: kib('VmHWM') / 1024 };
}

/**
 * Resets the process's peak RSS (VmHWM) to its current RSS: writing 5 to /proc/<pid>/clear_refs
 * (Linux 4.0+; allowed for our own child processes). Returns false where it is not allowed.
 */
export function resetPeak(pid) {
	try {
		fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
		return true;
	} catch {
		return false;
	}
}

/**
 * Static data of a trigger (node "Company Payments Trigger") whose dedup store already holds
 * `count` recent delivery ids, built by the trigger's own staticDataWithDeliveries from dist/
 * (npm run bench builds first), so the benches never hand-write the store's private format.
 */
export function prefilledStore(count, node = 'Company Payments Trigger') {
	const {
		staticDataWithDeliveries,
	} = require('../../dist/nodes/CompanyPaymentsTrigger/deliveries.js');
	const now = Date.now();
	const entries = Array.from({ length: count }, (_, i) => [randomUUID(), now - count + i]);
	return { [`node:${node}`]: staticDataWithDeliveries(entries, 'bench-import') };
}

/**
 * How many requests Return All makes for `records` records at `pageSize` a page: the first page,
 * then pages that each start PAGE_OVERLAP records early (the pager's rule, read from dist/), so a
 * record leaving mid-listing skips nothing (docs/pagination.md).
 */
export function pagedRequests(records, pageSize) {
	const { PAGE_OVERLAP } = require('../../dist/nodes/shared/contract/assumptions.js');
	const step = pageSize - Math.min(PAGE_OVERLAP, Math.floor(pageSize / 4));
	return records <= pageSize ? 1 : 1 + Math.ceil((records - pageSize) / step);
}
