import type { IExecuteFunctions } from 'n8n-workflow';

import {
	emailField,
	newApiKeyOutput,
	passwordField,
	readEmailAndPassword,
} from '../company/fields';
import { segment } from '../common/validation';
import { apiRequest } from '../../shared/transport';
import type { OperationDefinition } from '../types';
import { HIDDEN_TOKEN, inviteTokenField, readInviteToken } from './token';
import { SECRET } from '../common/words';

export const UNKNOWN_TOKEN =
	'No invite exists for this token. Check that the token or invite URL was copied completely';

const STORE_KEY =
	"Store this API key in a Company Payments API credential now; it is shown once. It is the new member's own key and can do only what the member's permissions allow.";

export const accept: OperationDefinition = {
	value: 'accept',
	name: 'Accept',
	action: 'Accept an invite',
	description:
		"Create the invited member with an e-mail and password, without the API key; outputs the new member's API key",
	kind: 'credentials',
	tool: {
		text: `Accept an invite. ${SECRET}`,
	},
	docs: {
		endpoint: '`POST /auth/invites/{token}/accept`',
		permission: 'public, sent without the API key',
		notes:
			"Email and Password. Outputs the service's answer with the new member's API key, `apiKeyField` (which field holds it) and a `notice`: the key is shown once, store it in a credential now. It also lands in the execution data.",
	},
	properties: [
		{
			displayName:
				"The output holds the new member's API key (and so does the execution data): store it in a credential right away, it is shown once",
			name: 'acceptNotice',
			type: 'notice',
			default: '',
		},
		inviteTokenField,
		emailField(
			'The e-mail address of the new member. If the invite names an e-mail, only that one is accepted.',
		),
		{ ...passwordField, description: 'The password of the new member' },
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const token = readInviteToken(this, itemIndex);
		const { email, password } = readEmailAndPassword(this, itemIndex);
		const answer = await apiRequest.call(this, {
			method: 'POST',
			path: `/auth/invites/${segment(token)}/accept`,
			shownPath: `/auth/invites/${HIDDEN_TOKEN}/accept`,
			body: { email, password },
			authenticated: false,
			itemIndex,
			explain: {
				INVITE_NOT_FOUND: UNKNOWN_TOKEN,
				INVITE_USED: 'The invite was already accepted; an invite can be accepted only once',
				INVITE_INVALID:
					'The invite cannot be accepted with this e-mail: it names another e-mail address, and only that one is accepted',
			},
			explainStatus: { 404: UNKNOWN_TOKEN },
		});
		return newApiKeyOutput(answer, STORE_KEY);
	},
};
