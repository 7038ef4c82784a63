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

/** Every resource of the node, with the operation preselected when the resource is picked. */
const registry: Array<{ resource: ResourceDefinition; defaultOperation: string }> = [
	{ resource: order, defaultOperation: 'pay' },
	{ resource: dispute, defaultOperation: 'create' },
	{ resource: companyWallet, defaultOperation: 'getBalance' },
	{ resource: userWallet, defaultOperation: 'createOrGet' },
	{ resource: member, defaultOperation: 'getMany' },
	{ resource: invite, defaultOperation: 'create' },
	{ resource: company, defaultOperation: 'getProfile' },
	{ resource: card, defaultOperation: 'request' },
	{ resource: payout, defaultOperation: 'get' },
];

export const resources: ResourceDefinition[] = registry.map((entry) => entry.resource);

export const resourceProperties = registry.flatMap((entry) =>
	describeResource(entry.resource, entry.defaultOperation),
);
