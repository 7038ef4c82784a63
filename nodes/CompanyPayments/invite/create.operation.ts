import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readEmail, emailField } from '../company/fields';
import {
	byVersion,
	permissionChoiceFields,
	permissionsField,
	readPermissionFields,
	readRole,
	roleField,
} from '../member/permissions';
import { apiRequest } from '../../shared/transport';
import { reveal } from '../../shared/gate';
import type { OperationDefinition } from '../types';
import { ENDPOINTS } from '../../shared/contract/endpoints';

const LEGACY_KEY_INVITE =
	"The service refused the invite. Inviting needs a member API key, not the legacy company-wide key; with a member's key, check the e-mail, role and permissions against the service message";

const PERMISSIONS = 'Permissions the new member gets.';

const additionalFields: INodeProperties = {
	displayName: 'Additional Fields',
	name: 'additionalFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
};

const role = roleField(
	'The role the new member gets; leave this option out for the default role of the service',
);

export const create: OperationDefinition = {
	value: 'create',
	name: 'Create',
	action: 'Create an invite',
	description:
		'Invite a new member (needs members.invite and a member API key); outputs the invite URL to share, valid 7 days',
	kind: 'write',
	tool: {
		text: 'Create an invite for a new team member, valid 7 days. Needs nothing (Email, Role and Permissions are optional). Returns the invite: id, email, role, status; its link is not shown to the model (a person finds it in the n8n execution).',
	},
	docs: {
		endpoint: '`POST /members/invites`',
		permission: '`members.invite` (member API key)',
		notes:
			'Optional Email (only that address can accept), Role (Owner, Admin or Member), Permissions. The output starts with `url`, the link to share; valid 7 days.',
	},
	properties: [
		emailField(
			'Only this e-mail address can accept the invite. Leave empty for an invite anyone with the URL can accept.',
			false,
		),
		...byVersion(
			{ ...additionalFields, options: [permissionsField(PERMISSIONS), role] },
			{ ...additionalFields, options: [...permissionChoiceFields(PERMISSIONS), role] },
		),
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const email = readEmail(this, itemIndex, false);
		const fields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
		const body: IDataObject = {};
		if (email) body.email = email;
		const role = readRole(this, itemIndex, fields.role);
		if (role !== undefined) body.role = role;
		const permissions = readPermissionFields(this, itemIndex, fields);
		if (permissions !== undefined) body.permissions = permissions;
		const answer = (await apiRequest.call(this, {
			method: 'POST',
			path: ENDPOINTS.invites,
			body: Object.keys(body).length > 0 ? body : undefined,
			itemIndex,
			explainStatus: { 400: LEGACY_KEY_INVITE },
		})) as IDataObject;
		const invite = unwrapInvite(
			typeof answer === 'object' && answer !== null && !Array.isArray(answer) ? answer : {},
		);
		// The link to share is what this operation is for: opened for the user, never for the model.
		return reveal({ url: invite.url ?? null, ...invite }, 'url');
	},
};

/**
 * The invite an answer holds (`inviteAnswerWrapper`, outside read r15-data, finding 8): the
 * document shows "an invite with a url", not its envelope. An answer of one key named like the
 * record (`invite`) whose value is an object is that invite, unwrapped: under the name `invite`
 * every field read as an invite token's and the link was lost (`url: null`). Any other answer is
 * the invite as it stands.
 */
export function unwrapInvite(answer: IDataObject): IDataObject {
	const keys = Object.keys(answer);
	if (keys.length !== 1 || keys[0] !== 'invite' || 'url' in answer) return answer;
	const inner = answer.invite;
	return typeof inner === 'object' && inner !== null && !Array.isArray(inner)
		? (inner as IDataObject)
		: answer;
}
