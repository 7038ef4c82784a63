import { card } from './card';
import type { ResourceDefaults } from './common/describe';
import { describeResource } from './common/describe';
import { company } from './company';
import { companyWallet } from './companyWallet';
import { dispute } from './dispute';
import { invite } from './invite';
import { member } from './member';
import { order } from './order';
import { payment } from './payment';
import { payout } from './payout';
import type { ResourceDefinition } from './types';
import { userWallet } from './userWallet';

/**
 * Node versions (the third, 1.2, is in common/locator.ts). Version 1 preselected money-moving operations for some resources (Order: Pay
 * QR Code, Card: Request, ...); its saved workflows keep that meaning. From version 1.1 on each
 * resource preselects an operation that only reads.
 */
export const LEGACY_DEFAULTS_VERSION = 1;
export const READ_ONLY_DEFAULTS_VERSION = 1.1;
/** From version 1.2 on, fields that name an existing record are resource locators. */
export { RESOURCE_LOCATOR_VERSION } from './common/locator';

function changedFrom(operation: string) {
	return {
		operation,
		legacyVersion: LEGACY_DEFAULTS_VERSION,
		since: READ_ONLY_DEFAULTS_VERSION,
	};
}

/**
 * Every resource of the node, with the operation preselected when the resource is picked. That
 * operation only reads (Get, Get Many, Get Balance, Get Profile): moving money, issuing a card
 * or changing the team is always chosen on purpose, never reached by picking a resource and
 * pressing Execute step. `legacy` keeps what version 1 preselected, for its saved workflows.
 */
const registry: Array<{ resource: ResourceDefinition; defaults: ResourceDefaults }> = [
	{ resource: order, defaults: { operation: 'getMany', legacy: changedFrom('pay') } },
	{ resource: dispute, defaults: { operation: 'getMany', legacy: changedFrom('create') } },
	{ resource: companyWallet, defaults: { operation: 'getBalance' } },
	{ resource: userWallet, defaults: { operation: 'getMany', legacy: changedFrom('createOrGet') } },
	{ resource: member, defaults: { operation: 'getMany' } },
	{ resource: invite, defaults: { operation: 'getMany', legacy: changedFrom('create') } },
	{ resource: company, defaults: { operation: 'getProfile' } },
	{ resource: card, defaults: { operation: 'getMany', legacy: changedFrom('request') } },
	{ resource: payout, defaults: { operation: 'get' } },
	{ resource: payment, defaults: { operation: 'resolveOutcome' } },
];

export const resources: ResourceDefinition[] = registry.map((entry) => entry.resource);

export const resourceProperties = registry.flatMap((entry) =>
	describeResource(entry.resource, entry.defaults),
);

/**
 * The node's subtitle on the canvas: the action of the chosen operation ("Get company
 * deposits"), never internal values ("getDeposits: companyWallet"). An n8n expression over a
 * table of `resource.operation` to action, built from the operations themselves.
 */
export const subtitle = `={{ (${JSON.stringify(
	Object.fromEntries(
		resources.flatMap((resource) =>
			resource.operations.map((operation) => [
				`${resource.value}.${operation.value}`,
				operation.action,
			]),
		),
	),
)})[$parameter["resource"] + "." + $parameter["operation"]] || $parameter["operation"] }}`;
