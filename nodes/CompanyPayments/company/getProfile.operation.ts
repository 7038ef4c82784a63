import type { IExecuteFunctions } from 'n8n-workflow';

import { apiRequest } from '../../shared/transport';
import type { OperationDefinition } from '../types';
import {
	PROFILE_SIMPLE_FIELDS,
	profileOutput,
	readReveal,
	revealWebhookSecretField,
} from './fields';
import { ENDPOINTS } from '../../shared/contract/endpoints';

export const getProfile: OperationDefinition = {
	value: 'getProfile',
	name: 'Get Profile',
	action: 'Get company profile',
	description:
		'Get the company profile, including the webhook URL; the webhook secret is masked unless revealed',
	concurrent: true,
	kind: 'read',
	tool: {
		text: 'Get the company profile. Needs nothing. Returns its fields, including webhookUrl (where its webhooks go); the webhook secret is masked.',
		// The profile's fields are not shown beyond webhookUrl and webhookSecret: the plain ones
		// the output gate declares for it (CLOSED_RECORDS.companyProfile). A cut only: the gate
		// masks the secret (unless revealed) and every undeclared field afterwards, as in the
		// whole profile.
		compact: PROFILE_SIMPLE_FIELDS,
	},
	docs: {
		endpoint: '`GET /auth/company/profile`',
		notes:
			'`webhookSecret` is masked to `whsec_…` and its last 4 characters (at any depth of the answer); turn on **Reveal Webhook Secret** only when a later node needs it in full — it then lands in the execution data.',
	},
	properties: [revealWebhookSecretField],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const reveal = readReveal(this, itemIndex);
		const answer = await apiRequest.call(this, {
			method: 'GET',
			path: ENDPOINTS.profile,
			itemIndex,
		});
		return profileOutput(answer, reveal);
	},
};
