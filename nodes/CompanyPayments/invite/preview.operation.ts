import type { IExecuteFunctions } from 'n8n-workflow';

import { segment } from '../common/validation';
import { apiRequest } from '../../shared/transport';
import type { OperationDefinition, OperationResult } from '../types';
import { UNKNOWN_TOKEN } from './accept.operation';
import { HIDDEN_TOKEN, inviteTokenField, readInviteToken } from './token';

export const preview: OperationDefinition = {
	value: 'preview',
	name: 'Preview',
	action: 'Preview an invite',
	description:
		'Show where an invite leads, without the API key. Accepted and expired invites are shown too: check status.',
	concurrent: true,
	kind: 'read',
	tool: {
		text: 'Check where an invite leads and whether it is still pending. Needs: Invite Token or URL. Returns its status, company and role.',
	},
	docs: {
		endpoint: '`GET /auth/invites/{token}`',
		permission: 'public, sent without the API key',
		notes:
			'Takes the token or the whole invite URL. Answers also for accepted and expired invites: check `status`. 404: unknown token.',
	},
	properties: [inviteTokenField],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const token = readInviteToken(this, itemIndex);
		return (await apiRequest.call(this, {
			method: 'GET',
			path: `/auth/invites/${segment(token)}`,
			shownPath: `/auth/invites/${HIDDEN_TOKEN}`,
			authenticated: false,
			itemIndex,
			explain: { INVITE_NOT_FOUND: UNKNOWN_TOKEN },
			explainStatus: { 404: UNKNOWN_TOKEN },
		})) as OperationResult;
	},
};
