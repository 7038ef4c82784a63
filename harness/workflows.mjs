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
