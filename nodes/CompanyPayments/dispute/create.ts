import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { EXISTING_DISPUTE_AGE_MS } from '../../shared/contract/assumptions';
import { readRecordId } from '../common/locator';
import { requireText, segment } from '../common/validation';
import { disputableOrderIdFields } from '../order/fields';
import { apiRequest } from '../../shared/transport';
import type { OperationDefinition } from '../types';

/**
 * The service returns the open dispute of the order instead of creating a second one, in the
 * same shape. It is recognised by a reason other than the one sent, or by its age.
 */
function isExisting(dispute: IDataObject, reason: string, requestedAt: number): boolean {
	if (typeof dispute.reason === 'string' && dispute.reason.trim() !== reason) return true;
	const createdAt = typeof dispute.createdAt === 'string' ? Date.parse(dispute.createdAt) : NaN;
	return Number.isFinite(createdAt) && createdAt < requestedAt - EXISTING_DISPUTE_AGE_MS;
}

export const create: OperationDefinition = {
	value: 'create',
	name: 'Create',
	action: 'Open a dispute',
	description:
		'Open a dispute on a completed order (status success or failed); returns the open dispute instead if the order already has one',
	properties: [
		...disputableOrderIdFields,
		{
			displayName: 'Reason',
			name: 'reason',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			required: true,
			placeholder: 'e.g. The payment did not arrive',
			description: 'Why the order is disputed; shown to the team that reviews it',
		},
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const orderId = readRecordId(this, itemIndex, 'orderId', 'Order ID', 'uuid');
		const reason = requireText(this, itemIndex, 'reason', 'Reason');
		const requestedAt = Date.now();
		const dispute = (await apiRequest.call(this, {
			method: 'POST',
			path: `/orders/${segment(orderId)}/disputes`,
			body: { reason },
			itemIndex,
		})) as IDataObject;
		return { ...dispute, existingDispute: isExisting(dispute, reason, requestedAt) };
	},
};
