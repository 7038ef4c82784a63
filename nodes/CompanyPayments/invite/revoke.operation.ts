import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { readRecordId, recordIdFields } from '../common/locator';
import { segment } from '../common/validation';
import { apiRequest } from '../../shared/transport';
import type { OperationDefinition } from '../types';

export const revoke: OperationDefinition = {
	value: 'revoke',
	name: 'Revoke',
	action: 'Revoke an invite',
	description: 'Revoke an open invite so it can no longer be accepted (needs members.invite)',
	kind: 'write',
	tool: {
		text: 'Revoke an open invite so it can no longer be accepted. Needs: Invite ID. Returns deleted: true.',
	},
	docs: {
		endpoint: '`DELETE /members/invites/{id}`',
		permission: '`members.invite`',
		notes:
			"Outputs `{ deleted: true, revoked: true, inviteId }` (n8n's form for a removed record; `revoked` stays for saved workflows) and the service's answer under `response`. An accepted invite cannot be revoked (`INVITE_USED`): remove the member instead.",
	},
	properties: recordIdFields({
		displayName: 'Invite',
		name: 'inviteId',
		description:
			'The open invite, picked by e-mail from the list or given by its ID (as returned by Create)',
		placeholder: 'e.g. inv_5e8d21',
		listPlaceholder: 'Select an open invite…',
		searchListMethod: 'getInvites',
		legacy: {
			displayName: 'Invite ID',
			description: 'The ID of the invite, as returned by Create and Get Many',
		},
	}),
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const inviteId = readRecordId(this, itemIndex, 'inviteId', 'Invite ID');
		const notFound = `No invite with ID "${inviteId}" exists in this company`;
		const answer = await apiRequest.call(this, {
			method: 'DELETE',
			path: `/members/invites/${segment(inviteId)}`,
			itemIndex,
			explain: {
				INVITE_USED:
					'The invite was already accepted, and an accepted invite cannot be revoked. To take the access away, remove the member (Member > Remove)',
				INVITE_NOT_FOUND: notFound,
			},
			explainStatus: {
				400: 'The service refused to revoke the invite. Managing invites needs a member API key, not the legacy company-wide key',
				404: notFound,
			},
		});
		const body =
			typeof answer === 'object' && answer !== null && !Array.isArray(answer)
				? (answer as IDataObject)
				: {};
		// n8n's convention for a removed record; `revoked` stays for workflows saved before it.
		// The service's answer (its fields not shown) is kept whole under `response`, so its own
		// `deleted` or `inviteId` cannot overwrite the node's.
		return { deleted: true, revoked: true, inviteId, response: body };
	},
};
