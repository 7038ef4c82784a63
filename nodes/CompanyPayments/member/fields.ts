import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readRecordId, recordIdFields } from '../common/locator';

/** The member: a text field before node version 1.2, a list of members by e-mail from 1.2 on. */
export const userIdFields: INodeProperties[] = recordIdFields({
	displayName: 'Member',
	name: 'userId',
	description:
		'The member, picked by e-mail from the list or given by user ID (userId in the output of Member > Get Many)',
	placeholder: 'e.g. usr_7f3a',
	listPlaceholder: 'Select a member…',
	searchListMethod: 'getMembers',
	legacy: {
		displayName: 'Member ID',
		description: "The member's user ID (userId in the output of Member > Get Many)",
	},
});

export function readUserId(ctx: IExecuteFunctions, itemIndex: number): string {
	return readRecordId(ctx, itemIndex, 'userId', 'Member ID');
}
