/**
 * One place for the node type names of this package and n8n's, and the node builder the
 * suites use to write workflow JSON.
 */
import { randomUUID } from 'node:crypto';

export const PACKAGE_NAME = 'n8n-nodes-company-payments';

/** Node type names as n8n stores them in a workflow. */
export const NODE_TYPES = Object.freeze({
	action: `${PACKAGE_NAME}.companyPayments`,
	trigger: `${PACKAGE_NAME}.companyPaymentsTrigger`,
	pollTrigger: `${PACKAGE_NAME}.companyPaymentsPollTrigger`,
	webhook: 'n8n-nodes-base.webhook',
	noOp: 'n8n-nodes-base.noOp',
});

/** The credential type of the package and how a node names it. */
export const CREDENTIAL_TYPE = 'companyPaymentsApi';

export function credentialRef(credential) {
	return { [CREDENTIAL_TYPE]: { id: credential.id, name: credential.name } };
}

/**
 * A node of a workflow: `credential` ({ id, name }) attaches the package's credential; the
 * webhook trigger gets the webhookId n8n gives every webhook node.
 */
export function node(name, type, position, parameters = {}, { credential, typeVersion = 1 } = {}) {
	const out = { id: randomUUID(), name, type, typeVersion, position, parameters };
	if (credential) out.credentials = credentialRef(credential);
	if (type === NODE_TYPES.trigger || type === NODE_TYPES.webhook) out.webhookId = randomUUID();
	return out;
}

/**
 * The action node as an AI agent's or MCP server's tool (`<action>Tool`, version 1.2), named
 * `name` (the tool's name), at `x` under its agent, with the package's credential.
 */
export function toolNode(name, x, parameters, credential) {
	return {
		id: randomUUID(),
		name,
		type: `${NODE_TYPES.action}Tool`,
		typeVersion: 1.2,
		position: [x, 260],
		parameters,
		credentials: credentialRef(credential),
	};
}

/** A node in a left-to-right line of nodes: `x` is its horizontal position. */
export function lineNode(name, type, typeVersion, x, parameters, extra = {}) {
	return { id: randomUUID(), name, type, typeVersion, position: [x, 0], parameters, ...extra };
}

/** `connections` of nodes that run one after another, in the order named. */
export function chain(...names) {
	const connections = {};
	for (let i = 0; i + 1 < names.length; i++) {
		connections[names[i]] = { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] };
	}
	return connections;
}

/**
 * n8n's Webhook node (version 2) at `path`: by default POST, answering with every item of the
 * last node once the workflow finished, the way the suites read a node's output.
 */
export function webhookNode(
	path,
	{
		name = 'Webhook',
		method = 'POST',
		responseMode = 'lastNode',
		responseData,
		x = 0,
		options = {},
	} = {},
) {
	const data = responseData ?? (responseMode === 'lastNode' ? 'allEntries' : undefined);
	return lineNode(
		name,
		NODE_TYPES.webhook,
		2,
		x,
		{ path, httpMethod: method, responseMode, ...(data ? { responseData: data } : {}), options },
		{ webhookId: randomUUID() },
	);
}

/**
 * Activates a workflow on a running n8n, asking again while n8n answers 503 (it still
 * activates the workflows it found at start) for at most `timeoutMs`.
 */
export async function activateWhenReady(n8n, workflowId, { timeoutMs = 30_000 } = {}) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		try {
			return await n8n.activateWorkflow(workflowId);
		} catch (error) {
			if (!/answered 503/.test(String(error?.message)) || Date.now() > deadline) throw error;
			await new Promise((resolve) => setTimeout(resolve, 500));
		}
	}
}

/** n8n's MCP Server Trigger (version 2: streamable HTTP and SSE both at `/mcp/<path>`). */
export const MCP_TRIGGER = '@n8n/n8n-nodes-langchain.mcpTrigger';

/**
 * A workflow that exposes `tools` (nodes of this package's tool type, named as the client
 * should see them) through an MCP Server Trigger at `/mcp/<path>`, without authentication.
 */
export function mcpWorkflow(name, path, tools) {
	const trigger = lineNode(
		'MCP Server Trigger',
		MCP_TRIGGER,
		2,
		0,
		{ path },
		{ webhookId: randomUUID() },
	);
	const connections = {};
	for (const tool of tools) {
		connections[tool.name] = {
			ai_tool: [[{ node: trigger.name, type: 'ai_tool', index: 0 }]],
		};
	}
	return {
		id: randomUUID().replace(/-/g, '').slice(0, 16),
		name,
		nodes: [trigger, ...tools],
		connections,
		settings: { executionOrder: 'v1' },
	};
}
