import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';

import {
	CompanyPaymentsTrigger,
	triggerWebhook,
} from '../../../nodes/CompanyPaymentsTrigger/CompanyPaymentsTrigger.node';
import { companyPaymentsRedisTest, REDIS_CREDENTIAL, redisDeliveryStore } from './redisStore';

const QUEUE_NOTICE =
	"Each delivery is claimed in the Redis of the Redis credential before it starts: of several webhook processes or mains, exactly one starts it, and the others answer it 200 without starting it. When Redis does not answer in time the delivery is answered 503 and nothing starts; the service sends it again. Needs the package n8n-nodes-company-payments installed too (its Company Payments API credential).";

/** The core trigger's description, for the queue-mode trigger. */
function queueDescription(core: INodeTypeDescription): INodeTypeDescription {
	const properties: INodeProperties[] = core.properties.map((property) => {
		if (property.name === 'queueModeNotice') return { ...property, displayName: QUEUE_NOTICE };
		if (property.name !== 'options') return property;
		return {
			...property,
			// The store size bounds the workflow static data, which this trigger does not use.
			options: (property.options as INodeProperties[]).filter(
				(option) => option.name !== 'dedupMaxEntries',
			),
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
}
