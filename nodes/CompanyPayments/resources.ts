import { card } from './card';
import { describeResource } from './common/describe';
import { company } from './company';
import { companyWallet } from './companyWallet';
import { dispute } from './dispute';
import { invite } from './invite';
import { member } from './member';
import { order } from './order';
import { payout } from './payout';
import type { ResourceDefinition } from './types';
import { userWallet } from './userWallet';

/**
 * Every resource of the node, with the operation preselected when the resource is picked. That
 * operation only reads (Get, Get Many, Get Balance, Get Profile): moving money, issuing a card
 * or changing the team is always chosen on purpose, never reached by picking a resource and
 * pressing Execute step.
 */
const registry: Array<{ resource: ResourceDefinition; defaultOperation: string }> = [
	{ resource: order, defaultOperation: 'getMany' },
	{ resource: dispute, defaultOperation: 'getMany' },
	{ resource: companyWallet, defaultOperation: 'getBalance' },
	{ resource: userWallet, defaultOperation: 'getMany' },
	{ resource: member, defaultOperation: 'getMany' },
	{ resource: invite, defaultOperation: 'getMany' },
	{ resource: company, defaultOperation: 'getProfile' },
	{ resource: card, defaultOperation: 'getMany' },
	{ resource: payout, defaultOperation: 'get' },
];

export const resources: ResourceDefinition[] = registry.map((entry) => entry.resource);

export const resourceProperties = registry.flatMap((entry) =>
	describeResource(entry.resource, entry.defaultOperation),
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
