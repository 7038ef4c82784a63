import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { requirePathId } from '../common/validation';

export const payoutIdField: INodeProperties = {
	displayName: 'Payout ID',
	name: 'payoutId',
	type: 'string',
	default: '',
	required: true,
	description: 'The ID of the payout, as returned by Create and Get Many',
};

export function readPayoutId(ctx: IExecuteFunctions, itemIndex: number): string {
	return requirePathId(ctx, itemIndex, 'payoutId', 'Payout ID');
}
