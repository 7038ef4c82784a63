import type { IExecuteFunctions } from 'n8n-workflow';

import { apiRequest } from '../../shared/transport';
import type { OperationDefinition } from '../types';
import { emailField, newApiKeyOutput, passwordField, readEmailAndPassword } from './fields';
import {
	KEY_ROTATED_NOTICE,
	KEY_ROTATED_OUTPUT,
	ROTATED_BY_EARLIER_ITEM,
} from './regenerateApiKey.operation';
import { ENDPOINTS } from '../../shared/contract/endpoints';
import { SECRET } from '../common/words';

export const login: OperationDefinition = {
	value: 'login',
	name: 'Login',
	action: 'Log in and rotate API key',
	description:
		'Log in with the company e-mail and password; the service issues a new company API key and the previous one stops working',
	kind: 'credentials',
	tool: {
		text: `Log in and rotate the company API key. ${SECRET}`,
	},
	docs: {
		endpoint: '`POST /auth/company/login`',
		permission: 'not named (sent with the API key)',
		notes:
			"Email and Password. **Rotates the company key: the credential's key stops working.** Outputs the new key like Regenerate API Key.",
	},
	properties: [
		{
			displayName: KEY_ROTATED_NOTICE,
			name: 'loginNotice',
			type: 'notice',
			default: '',
		},
		emailField('The e-mail address of the company account'),
		{ ...passwordField, description: 'The password of the company account' },
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const { email, password } = readEmailAndPassword(this, itemIndex);
		const answer = await apiRequest.call(this, {
			method: 'POST',
			path: ENDPOINTS.login,
			body: { email, password },
			itemIndex,
			explain: { INVALID_API_KEY: ROTATED_BY_EARLIER_ITEM },
		});
		return newApiKeyOutput(answer, KEY_ROTATED_OUTPUT);
	},
};
