/**
 * When an n8n process is ready, per role.
 *
 * main (`n8n start`): `/healthz/readiness` answers 200, the "Editor is now accessible via" line is
 * out, and the production webhook of every active workflow answers. The last part matters from
 * n8n 2.41 on: it activates workflows in the background after printing that line, so a webhook is
 * "not registered" (404) for about a second. The host does not trust a log line for it: it probes
 * each webhook with a CORS preflight (`OPTIONS` with an Origin): n8n lists the methods registered
 * on the path in Access-Control-Allow-Methods ("OPTIONS" alone when none), and starts no
 * execution.
 *
 * webhook (`n8n webhook`) and worker (`n8n worker`): `/healthz/readiness` on their port (a worker
 * serves it when QUEUE_HEALTH_CHECK_ACTIVE=true, on QUEUE_HEALTH_CHECK_PORT).
 */
import { setTimeout as sleep } from 'node:timers/promises';

export const READY_LINE = 'Editor is now accessible via';
export const ACTIVATION_ERROR = /Issue on initial workflow activation try of (.*)/g;

const TRIGGER_WEBHOOK_PATH = 'webhook'; // the `path` of our trigger's webhook description
const OUR_PACKAGE = 'n8n-nodes-company-payments.';

/**
 * The production webhook paths of a workflow that the host knows how to compute: n8n's Webhook
 * node (its `path` parameter) and this package's trigger (`<webhookId>/webhook`). Expressions,
 * dynamic paths (":id") and disabled nodes are skipped; other node types are not probed.
 *
 * @param {{ nodes?: Array<{ type: string, parameters?: object, webhookId?: string, disabled?: boolean }> }} workflow
 * @returns {string[]}
 */
export function webhookProbePaths(workflow) {
	const paths = [];
	for (const node of workflow.nodes ?? []) {
		if (node.disabled) continue;
		if (node.type === 'n8n-nodes-base.webhook') {
			const raw = node.parameters?.path;
			if (typeof raw !== 'string' || raw.startsWith('=') || raw.includes(':')) continue;
			const clean = raw.replace(/^\/+|\/+$/g, '');
			if (clean) paths.push(clean);
		} else if (node.type.startsWith(OUR_PACKAGE) && node.webhookId) {
			paths.push(`${node.webhookId}/${TRIGGER_WEBHOOK_PATH}`);
		}
	}
	return paths;
}

/**
 * True when n8n has a production webhook registered on `webhookPath` (any method). n8n answers a
 * CORS preflight (`OPTIONS` with an Origin) with 204 whether or not the path is registered, but
 * lists the registered methods in `Access-Control-Allow-Methods` ("OPTIONS" alone: none).
 */
export async function webhookIsRegistered(baseUrl, webhookPath) {
	try {
		const res = await fetch(`${baseUrl}/webhook/${webhookPath}`, {
			method: 'OPTIONS',
			// No Access-Control-Request-Method: with one, n8n also looks the webhook up for that
			// method, and a path registered for another method would look absent.
			headers: { origin: baseUrl },
			signal: AbortSignal.timeout(5_000),
		});
		await res.body?.cancel();
		return res.ok && registeredMethods(res.headers.get('access-control-allow-methods')).length > 0;
	} catch {
		return false;
	}
}

/** The webhook methods in an Access-Control-Allow-Methods value, without OPTIONS. */
export function registeredMethods(header) {
	return String(header ?? '')
		.split(',')
		.map((method) => method.trim().toUpperCase())
		.filter((method) => method && method !== 'OPTIONS');
}

/** `/healthz/readiness` answers 200. */
export async function isHealthy(baseUrl) {
	try {
		const res = await fetch(`${baseUrl}/healthz/readiness`, { signal: AbortSignal.timeout(2_000) });
		await res.body?.cancel();
		return res.ok;
	} catch {
		return false;
	}
}

/**
 * Waits until the webhooks of every active workflow answer. Workflows n8n reported it could not
 * activate (`activationErrors`, matched by id or name) are not waited for.
 *
 * @param {{ url: string, api: Function, activationErrors: () => string[] }} handle
 * @returns {Promise<string[]>} the probed paths
 */
export async function waitForActiveWebhooks(handle, { deadline, exited, describe }) {
	const workflows = [];
	let cursor;
	do {
		const query = new URLSearchParams({ active: 'true', limit: '250' });
		if (cursor) query.set('cursor', cursor);
		const page = await handle.api('GET', `/workflows?${query}`);
		workflows.push(...page.data);
		cursor = page.nextCursor;
	} while (cursor);
	const pending = new Map();
	for (const workflow of workflows) {
		for (const webhookPath of webhookProbePaths(workflow)) pending.set(webhookPath, workflow);
	}
	const probed = [...pending.keys()];
	while (pending.size > 0) {
		const failed = handle.activationErrors().join('\n');
		for (const [webhookPath, workflow] of pending) {
			if (failed.includes(workflow.id) || failed.includes(`"${workflow.name}"`))
				pending.delete(webhookPath);
			else if (await webhookIsRegistered(handle.url, webhookPath)) pending.delete(webhookPath);
		}
		if (pending.size === 0) break;
		const exit = exited();
		if (exit) throw new Error(`n8n exited while activating workflows (${describe(exit)})`);
		if (Date.now() > deadline) {
			const list = [...pending].map(([p, w]) => `${w.name} (${w.id}): /webhook/${p}`).join('; ');
			throw new Error(`n8n started, but these webhooks never answered: ${list}`);
		}
		await sleep(100);
	}
	const withWebhooks = workflows.filter((workflow) => webhookProbePaths(workflow).length > 0);
	await waitForPublications(handle, withWebhooks, { deadline });
	return probed;
}

/**
 * n8n 2.41's publication service registers a webhook (what the probe sees) before it calls the
 * node's own registration (`checkExists`/`create`, e.g. our trigger registering its URL with the
 * service). Where n8n has `GET /rest/workflows/:id/publication-status`, wait until no workflow
 * is still `in_progress`. Older n8n (404 there) activated everything before its ready line.
 */
async function waitForPublications(handle, workflows, { deadline }) {
	for (const workflow of workflows) {
		for (;;) {
			let status;
			try {
				status = (await handle.rest('GET', `/workflows/${workflow.id}/publication-status`))?.status;
			} catch (error) {
				if (/answered 404/.test(error.message)) return; // no publication service
				throw error;
			}
			if (status !== 'in_progress') break;
			if (Date.now() > deadline) {
				throw new Error(`workflow ${workflow.name} (${workflow.id}) is still being published`);
			}
			await sleep(100);
		}
	}
}

/**
 * Waits until every webhook of one workflow answers the probe (`registered: true`) or none does
 * (`registered: false`), after an activation or deactivation through the API.
 */
export async function waitForWorkflowWebhooks(handle, workflow, { registered, timeoutMs }) {
	const deadline = Date.now() + timeoutMs;
	const paths = webhookProbePaths(workflow);
	for (;;) {
		const states = await Promise.all(paths.map((p) => webhookIsRegistered(handle.url, p)));
		if (states.every((state) => state === registered)) return;
		if (Date.now() > deadline) {
			const wrong = paths.filter((_, i) => states[i] !== registered);
			throw new Error(
				`workflow ${workflow.id}: webhooks ${wrong.map((p) => `/webhook/${p}`).join(', ')} still ` +
					`${registered ? 'do not answer' : 'answer'} after ${timeoutMs / 1000}s`,
			);
		}
		await sleep(100);
	}
}
