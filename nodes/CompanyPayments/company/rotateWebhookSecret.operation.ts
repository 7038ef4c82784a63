import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { apiRequest } from '../../shared/transport';
import { reveal } from '../../shared/gate';
import { withNodeFields } from '../../shared/serviceFields';
import type { OperationDefinition } from '../types';
import { ENDPOINTS } from '../../shared/contract/endpoints';
import { SECRET } from '../common/words';

const NOTICE =
	'New webhooks are signed with the new secret at once: put it into the Webhook Secret of the credential used by the Company Payments Trigger (or wherever you verify webhooks) right away, or deliveries fail verification.';

export const rotateWebhookSecret: OperationDefinition = {
	value: 'rotateWebhookSecret',
	name: 'Rotate Webhook Secret',
	action: 'Rotate webhook signing secret',
	description: 'Generate a new secret that webhooks are signed with (needs webhook.manage)',
	kind: 'credentials',
	tool: {
		text: `Rotate the webhook signing secret. ${SECRET}`,
	},
	docs: {
		endpoint: '`POST /auth/company/webhook-secret/rotate`',
		permission: '`webhook.manage`',
		notes:
			"Returns `webhookSecret` (`whsec_` + 48 hex). New webhooks are signed with it at once: update the trigger's credential (or let the trigger rotate it itself, see below).",
	},
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
		// The new secret is what this operation is for: its field is opened for the user (not the model).
		// The service's own `notice`, if any, is kept under serviceFields (r12-data, finding 3).
		return reveal(
			withNodeFields(body, {
				notice:
					'The webhook secret was rotated. Put the new webhookSecret into the Webhook Secret of the Company Payments API credential used by the Company Payments Trigger now.',
			}),
			'webhookSecret',
		);
	},
};
