import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { requireText } from '../common/validation';

export const userIdField: INodeProperties = {
	displayName: 'User ID',
	name: 'userId',
	type: 'string',
	default: '',
	required: true,
	description: 'The user ID of the member, as returned by Get Many',
};

export function readUserId(ctx: IExecuteFunctions, itemIndex: number): string {
	return requireText(ctx, itemIndex, 'userId', 'User ID');
}
