import type { IDataObject, IExecuteFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { segment } from '../common/validation';
import { apiRequest } from '../../shared/transport';
import type { OperationDefinition } from '../types';
import { readUserId, userIdFields } from './fields';

/** Explanations of the refusals the contract states for DELETE /members/{userId}. */
export const LAST_OWNER =
	"The service refused to remove this member: the last owner of a company cannot be removed, and an owner cannot remove themselves (the service message says which). Make another member owner first, or remove the owner with another owner's API key";
export const LEGACY_KEY_REMOVE =
	"Removing a member needs a member API key, not the legacy company-wide key. Put a member's own API key (with members.remove) in the credential";

export const remove: OperationDefinition = {
	value: 'remove',
	name: 'Remove',
	action: 'Remove a member',
	description:
		"Remove a member from the company (needs members.remove and a member API key); the member's API key stops working at once",
	kind: 'write',
	tool: {
		text: "Remove a team member; the member's API key stops working at once. Needs: Member ID. Returns deleted: true.",
	},
	docs: {
		endpoint: '`DELETE /members/{userId}` (Member ID)',
		permission: '`members.remove` (member API key)',
		notes:
			"Outputs `{ deleted: true, ok: true, userId }` (n8n's form for a removed record) and the service's answer under `response`; the member's key stops working at once. 403: the last owner cannot be removed and an owner cannot remove themselves. 400: needs a member API key, not the legacy company-wide key. 404: `MEMBER_NOT_FOUND`.",
	},
	properties: [
		...userIdFields,
		{
			displayName:
				"The member's API key stops working immediately. The last owner cannot be removed, and an owner cannot remove themselves.",
			name: 'removeNotice',
			type: 'notice',
			default: '',
		},
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const userId = readUserId(this, itemIndex);
		const notFound = `No member with ID "${userId}" exists in this company (it may already be removed)`;
		const answer = (await apiRequest.call(this, {
			method: 'DELETE',
			path: `/members/${segment(userId)}`,
			itemIndex,
			explain: { MEMBER_NOT_FOUND: notFound },
			explainStatus: { 400: LEGACY_KEY_REMOVE, 403: LAST_OWNER, 404: notFound },
		})) as IDataObject;
		const body =
			typeof answer === 'object' && answer !== null && !Array.isArray(answer) ? answer : {};
		if (body.ok === false) {
			throw new NodeApiError(this.getNode(), body as JsonObject, {
				message: `The service answered ok: false, so member "${userId}" was not removed`,
				description: 'DELETE /members/{userId} answered with HTTP 200 but ok false.',
				itemIndex,
			});
		}
		// n8n's convention for a removed record; `ok` as before. The node's own fields come first
		// and stay as they are: the service's answer (its fields not shown) is kept whole under
		// `response`, so an answer's own `deleted` or `userId` cannot overwrite them.
		return { deleted: true, ok: true, userId, response: body };
	},
};
