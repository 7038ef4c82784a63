import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { invalidInput, readTextValue } from '../common/validation';
import { apiRequest } from '../../shared/transport';
import { normaliseWebhookSecret } from '../../shared/transport/environment';
import type { OperationDefinition } from '../types';
import { profileOutput, readReveal, readSecret, revealWebhookSecretField } from './fields';
import { ENDPOINTS } from '../../shared/contract/endpoints';
import { SECRET } from '../common/words';

function readWebhookUrl(ctx: IExecuteFunctions, itemIndex: number, value: unknown): string {
	const trimmed = readTextValue(ctx, itemIndex, value, 'Webhook URL');
	let parsed: URL | undefined;
	try {
		parsed = new URL(trimmed);
	} catch {
		parsed = undefined;
	}
	if (
		!parsed ||
		(parsed.protocol !== 'http:' && parsed.protocol !== 'https:') ||
		!parsed.hostname
	) {
		throw invalidInput(ctx, itemIndex, 'Webhook URL', 'must be an http(s) URL', value ?? '');
	}
	return trimmed;
}

export const updateProfile: OperationDefinition = {
	value: 'updateProfile',
	name: 'Update Profile',
	action: 'Update company profile',
	description: 'Set the URL that receives webhooks and/or the secret they are signed with',
	kind: 'credentials',
	tool: {
		text: `Change the webhook URL or secret. ${SECRET}`,
	},
	docs: {
		endpoint: '`PATCH /auth/company/profile`',
		notes:
			"Webhook URL (http(s)) and/or Webhook Secret. A new secret must also go into the trigger's credential. The answer's `webhookSecret` is masked like Get Profile's unless **Reveal Webhook Secret** is on.",
	},
	properties: [
		{
			displayName:
				'A new Webhook Secret signs every webhook from now on: put the same value into the Webhook Secret of the credential used by the Company Payments Trigger, or its deliveries fail verification. A new Webhook URL sends webhooks there instead of to an active trigger.',
			name: 'updateProfileNotice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Update Fields',
			name: 'updateFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [
				{
					displayName: 'Webhook Secret',
					name: 'webhookSecret',
					type: 'string',
					typeOptions: { password: true },
					default: '',
					description:
						'The secret webhooks are signed with (HMAC-SHA256). Secrets the service generates look like whsec_ followed by 48 hex characters.',
				},
				{
					displayName: 'Webhook URL',
					name: 'webhookUrl',
					type: 'string',
					default: '',
					placeholder: 'e.g. https://n8n.example.com/webhook/…',
					description: 'The http(s) URL that receives the webhooks of the company',
				},
			],
		},
		revealWebhookSecretField,
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const fields = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
		const reveal = readReveal(this, itemIndex);
		const body: IDataObject = {};
		if (fields.webhookUrl !== undefined) {
			body.webhookUrl = readWebhookUrl(this, itemIndex, fields.webhookUrl);
		}
		if (fields.webhookSecret !== undefined) {
			// Sent as the trigger verifies with it: surrounding spaces and line breaks of a paste,
			// and characters that show nothing inside it, are no part of the secret, by the one rule
			// both use (outside read r9-data, finding 5; r10-data, finding 3).
			body.webhookSecret = normaliseWebhookSecret(
				readSecret(this, itemIndex, fields.webhookSecret, 'Webhook Secret'),
			);
		}
		if (Object.keys(body).length === 0) {
			throw new NodeOperationError(
				this.getNode(),
				'Update Fields must set Webhook URL or Webhook Secret (or both), got neither',
				{
					itemIndex,
					description: `Nothing was sent to the service. Add Webhook URL or Webhook Secret under Update Fields on item ${itemIndex}.`,
				},
			);
		}
		const answer = await apiRequest.call(this, {
			method: 'PATCH',
			path: ENDPOINTS.profile,
			body,
			itemIndex,
		});
		return profileOutput(answer, reveal);
	},
};
