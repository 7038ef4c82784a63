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
