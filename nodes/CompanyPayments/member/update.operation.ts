import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { checkBoolean, segment } from '../common/validation';
import { apiRequest } from '../../shared/transport';
import type { OperationDefinition } from '../types';
import { readUserId, userIdFields } from './fields';
import {
	byVersion,
	permissionChoiceFields,
	permissionsField,
	readPermissionFields,
	readRole,
	roleField,
} from './permissions';

const updateFields: INodeProperties = {
	displayName: 'Update Fields',
	name: 'updateFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
};

const role = roleField(
	'The new role. You cannot change your own role, and only an owner can change the role of an owner.',
);

export const update: OperationDefinition = {
	value: 'update',
	name: 'Update',
	action: 'Update a member',
	description: "Change a member's role and/or permissions (needs members.role.write)",
	kind: 'write',
	tool: {
		text: "Change a team member's role and/or permissions. Needs: Member ID, and Role or Permissions. Returns the member.",
	},
	docs: {
		endpoint: '`PATCH /members/{userId}`',
		permission: '`members.role.write`',
		notes:
			"Member ID (the member's `userId`), Role (Owner, Admin or Member; an expression may send another role name) and/or Permissions (comma-separated; any name accepted). **Permissions replace the member's whole list**: list every permission the member should keep; `{{ [] }}` clears it. Own role: `CANNOT_CHANGE_OWN_ROLE`; only an owner can change an owner: `ROLE_CHANGE_NOT_ALLOWED`.",
	},
	properties: [
		...userIdFields,
		{
			displayName:
				"Permissions REPLACE the member's whole permission list: list every permission the member should have after the update, not only the ones to add",
			name: 'permissionsNotice',
			type: 'notice',
			default: '',
		},
		...byVersion(
			{
				...updateFields,
				options: [
					permissionsField(
						'Every permission the member should have after the update. To remove every permission, set the field to the expression {{ [] }}.',
					),
					role,
				],
			},
			{
				...updateFields,
				options: [
					...permissionChoiceFields('Every permission the member should have after the update.'),
					{
						displayName: 'Remove All Permissions',
						name: 'removeAllPermissions',
						type: 'boolean',
						default: false,
						description:
							'Whether to take every permission away from the member (Permissions and Other Permissions are then ignored)',
					},
					role,
				],
			},
		),
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const userId = readUserId(this, itemIndex);
		const fields = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
		const body: IDataObject = {};
		const role = readRole(this, itemIndex, fields.role);
		if (role !== undefined) body.role = role;
		const permissions = readPermissionFields(
			this,
			itemIndex,
			fields,
			fields.removeAllPermissions !== undefined &&
				checkBoolean(this, itemIndex, fields.removeAllPermissions, 'Remove All Permissions'),
		);
		if (permissions !== undefined) body.permissions = permissions;
		if (Object.keys(body).length === 0) {
			throw new NodeOperationError(
				this.getNode(),
				'Update Fields must set Role or Permissions (or both), got neither',
				{
					itemIndex,
					description: `Nothing was sent to the service. Add Role or Permissions under Update Fields on item ${itemIndex}.`,
				},
			);
		}
		const answer = await apiRequest.call(this, {
			method: 'PATCH',
			path: `/members/${segment(userId)}`,
			body,
			itemIndex,
			explain: {
				CANNOT_CHANGE_OWN_ROLE:
					'A member cannot change their own role, and the API key in the credential belongs to this member. Use the key of another member who has members.role.write',
				ROLE_CHANGE_NOT_ALLOWED:
					'Only an owner can change the role of an owner. Use the API key of an owner',
				MEMBER_NOT_FOUND: `No member with ID "${userId}" exists in this company`,
			},
			explainStatus: {
				403: 'The service refused this change of role or permissions (for example, the only owner cannot give up the owner role); the service message says why',
				404: `No member with ID "${userId}" exists in this company`,
			},
		});
		return typeof answer === 'object' &&
			answer !== null &&
			!Array.isArray(answer) &&
			Object.keys(answer).length > 0
			? (answer as IDataObject)
			: { userId, ...body };
	},
};
