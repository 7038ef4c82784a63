import type { IExecuteFunctions } from 'n8n-workflow';

import { apiRequest, runAccount } from '../../shared/transport';
import { noteRegeneratedKey } from '../../shared/money';
import { isObject } from '../../shared/contract/guards';
import type { OperationDefinition } from '../types';
import { newApiKeyOutput, newApiKeyPath } from './fields';
import { ENDPOINTS } from '../../shared/contract/endpoints';
import { SECRET } from '../common/words';

export const KEY_ROTATED_NOTICE =
	"After this call the API key in this node's credential stops working: the service issues a new company key. The new key is in the output (and so in the execution data); put it into the Company Payments API credential right away.";

export const KEY_ROTATED_OUTPUT =
	'The company API key was rotated: the key in the credential no longer works. Put the new key into the Company Payments API credential now; it is shown once.';

export const ROTATED_BY_EARLIER_ITEM =
	"The API key is unknown or was replaced. If an earlier item (or run) of this node rotated the key, the credential still holds the old one: update it with the new key from that item's output";

export const regenerateApiKey: OperationDefinition = {
	value: 'regenerateApiKey',
	name: 'Regenerate API Key',
	action: 'Regenerate company API key',
	description: 'Issue a new company API key; the previous key stops working at once',
	kind: 'credentials',
	tool: {
		text: `Issue a new company API key. ${SECRET}`,
	},
	docs: {
		endpoint: '`POST /auth/company/regenerate-key`',
		notes:
			"**The credential's key stops working after the call.** Outputs the new key, `apiKeyField` and a reminder to update the credential.",
	},
	properties: [
		{
			displayName: KEY_ROTATED_NOTICE,
			name: 'regenerateApiKeyNotice',
			type: 'notice',
			default: '',
		},
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const answer = await apiRequest.call(this, {
			method: 'POST',
			path: ENDPOINTS.companyRegenerate,
			itemIndex,
			explain: { INVALID_API_KEY: ROTATED_BY_EARLIER_ITEM },
		});
		// The new key is the same company's (asked for with the old one): its money writes are the
		// old key's sender, so a payment made under the old key is not paid again under the new one.
		if (isObject(answer)) {
			const path = newApiKeyPath(answer);
			const newKey = path?.reduce<unknown>(
				(at, name) => (isObject(at) ? at[name] : undefined),
				answer,
			);
			if (typeof newKey === 'string') {
				const { baseUrl, account } = await runAccount(this, itemIndex);
				noteRegeneratedKey(this, baseUrl, account, newKey);
			}
		}
		return newApiKeyOutput(answer, KEY_ROTATED_OUTPUT);
	},
};
