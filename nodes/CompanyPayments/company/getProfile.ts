import type { IExecuteFunctions } from 'n8n-workflow';

import { apiRequest } from '../../shared/transport';
import type { OperationDefinition } from '../types';
import { profileOutput, readReveal, revealWebhookSecretField } from './fields';
import { ENDPOINTS } from '../../shared/contract/endpoints';

export const getProfile: OperationDefinition = {
	value: 'getProfile',
	name: 'Get Profile',
	action: 'Get company profile',
	description:
		'Get the company profile, including the webhook URL; the webhook secret is masked unless revealed',
	readOnly: true,
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
