import type { IHookFunctions, INodeProperties, INodeTypeDescription } from 'n8n-workflow';

import {
	CompanyPaymentsTrigger,
	triggerWebhook,
} from '../../../nodes/CompanyPaymentsTrigger/CompanyPaymentsTrigger.node';
import {
	checkRedisOnActivation,
	companyPaymentsRedisTest,
	REDIS_CREDENTIAL,
	redisDeliveryStore,
	releaseOnDeactivation,
	WITHOUT_PERSISTENCE_PARAMETER,
} from './redisStore';
import { WITHOUT_PERSISTENCE_OPTION } from './redisCheck';
import { RECENT_MS, REFRESH_MS, RESTART_WINDOW_MS, SERVICE_RETRY_SPAN_MS } from './redisClaims';

const WITHOUT_PERSISTENCE: INodeProperties = {
	displayName: WITHOUT_PERSISTENCE_OPTION,
	name: WITHOUT_PERSISTENCE_PARAMETER,
	type: 'boolean',
	default: false,
	description: `Whether to claim deliveries in a Redis that keeps no append-only file (appendonly no). After such a Redis restarts, its claims are gone, and this option chooses losing a delivery over starting one twice: every delivery is answered 503 for ${RESTART_WINDOW_MS / 1000} s from the restart (a delivery first sent in its first ${(RESTART_WINDOW_MS - SERVICE_RETRY_SPAN_MS) / 1000} s gets 503 at all of the service's attempts and is given up: resend it from the service), and then until every webhook process that claimed in the last ${RECENT_MS / 60_000} minutes has reconnected and written its claims back (seconds when all of them run; up to ${RECENT_MS / 60_000} minutes when one of them stopped or crashed, if the others had seen it claim at least ${REFRESH_MS / 1000} s before the restart). A copy of a delivery that arrives later than that, from a process that was away, can start it again.`,
};

const QUEUE_NOTICE =
	'Each delivery is claimed in the Redis of the Redis credential before it starts: of several webhook processes or mains, exactly one starts it, and the others answer it 200 without starting it. When Redis does not answer in time, or its answer is lost and cannot be read back, the delivery is answered 503 and nothing starts; the service sends it again. Activation checks the Redis: it must accept the credential, have its database, allow scripts, never evict keys (maxmemory-policy noeviction, or no maxmemory) and keep an append-only file (appendonly yes; see the options). Needs the package n8n-nodes-company-payments installed too (its Company Payments API credential).';

/** The core trigger's description, for the queue-mode trigger. */
function queueDescription(core: INodeTypeDescription): INodeTypeDescription {
	const properties: INodeProperties[] = core.properties.map((property) => {
		if (property.name === 'queueModeNotice') return { ...property, displayName: QUEUE_NOTICE };
		if (property.name !== 'options') return property;
		return {
			...property,
			// The store size bounds the workflow static data, which this trigger does not use.
			options: [
				...(property.options as INodeProperties[]).filter(
					(option) => option.name !== 'dedupMaxEntries',
				),
				WITHOUT_PERSISTENCE,
			].sort((a, b) => a.displayName.localeCompare(b.displayName)),
		};
	});
	return {
		...core,
		displayName: 'Company Payments Trigger (Queue Mode)',
		name: 'companyPaymentsQueueTrigger',
		icon: {
			light: 'file:../../icons/companyPaymentsQueue.svg',
			dark: 'file:../../icons/companyPaymentsQueue.dark.svg',
		},
		description:
			'Starts the workflow on events of your company payments account, exactly once across the webhook processes of n8n queue mode (self-hosted, Redis)',
		defaults: { name: 'Company Payments Trigger' },
		// n8n sends this trigger's 200 itself once the execution exists (the claim is held until
		// then): the body is the trigger's `webhookResponse` only when responseData is set and
		// empty. Unset, n8n's default 'firstEntryJson' would be sent as the literal text.
		webhooks: (core.webhooks ?? []).map((webhook) => ({ ...webhook, responseData: '' })),
		credentials: [
			...(core.credentials ?? []),
			{ name: REDIS_CREDENTIAL, required: true, testedBy: 'companyPaymentsRedisTest' },
		],
		properties,
	};
}

/**
 * The Company Payments Trigger of the core package, built from the same source, with its
 * deliveries claimed in Redis instead of the workflow static data.
 */
export class CompanyPaymentsQueueTrigger extends CompanyPaymentsTrigger {
	description: INodeTypeDescription = queueDescription(this.description);

	methods: CompanyPaymentsTrigger['methods'] & {
		credentialTest: { companyPaymentsRedisTest: typeof companyPaymentsRedisTest };
	} = {
		credentialTest: { ...this.methods.credentialTest, companyPaymentsRedisTest },
	};

	webhook = triggerWebhook(redisDeliveryStore);

	webhookMethods: CompanyPaymentsTrigger['webhookMethods'] = {
		default: {
			// Activation refuses a Redis that cannot hold the claims, before anything is registered.
			checkExists: async function (this: IHookFunctions): Promise<boolean> {
				await checkRedisOnActivation(this);
				return await core.default.checkExists.call(this);
			},
			create: async function (this: IHookFunctions): Promise<boolean> {
				return await core.default.create.call(this);
			},
			delete: async function (this: IHookFunctions): Promise<boolean> {
				try {
					return await core.default.delete.call(this);
				} finally {
					releaseOnDeactivation(this);
				}
			},
		},
	};
}

const core = new CompanyPaymentsTrigger().webhookMethods;
