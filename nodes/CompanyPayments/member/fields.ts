import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { requirePathId } from '../common/validation';

export const userIdField: INodeProperties = {
	displayName: 'Member ID',
	name: 'userId',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. usr_7f3a',
	description: "The member's user ID (userId in the output of Member > Get Many)",
};

export function readUserId(ctx: IExecuteFunctions, itemIndex: number): string {
	return requirePathId(ctx, itemIndex, 'userId', 'Member ID');
}
