import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { apiRequest } from '../../shared/transport';
import type { OperationDefinition } from '../types';
import { ENDPOINTS } from '../../shared/contract/endpoints';

const NOTICE =
	'New webhooks are signed with the new secret at once: put it into the Webhook Secret of the credential used by the Company Payments Trigger (or wherever you verify webhooks) right away, or deliveries fail verification.';

export const rotateWebhookSecret: OperationDefinition = {
	value: 'rotateWebhookSecret',
	name: 'Rotate Webhook Secret',
	action: 'Rotate webhook signing secret',
	description: 'Generate a new secret that webhooks are signed with (needs webhook.manage)',
	properties: [
		{
			displayName: NOTICE,
			name: 'rotateWebhookSecretNotice',
			type: 'notice',
			default: '',
		},
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const answer = await apiRequest.call(this, {
			method: 'POST',
			path: ENDPOINTS.webhookRotation,
			itemIndex,
		});
		const body =
			typeof answer === 'object' && answer !== null && !Array.isArray(answer)
				? (answer as IDataObject)
				: {};
		return {
			...body,
			notice:
				'The webhook secret was rotated. Put the new webhookSecret into the Webhook Secret of the Company Payments API credential used by the Company Payments Trigger now.',
		};
	},
};
