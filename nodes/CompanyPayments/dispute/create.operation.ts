import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { EXISTING_DISPUTE_AGE_MS } from '../../shared/contract/assumptions';
import { ENDPOINTS } from '../../shared/contract/endpoints';
import { isObject } from '../../shared/contract/guards';
import { readList } from '../../shared/pager';
import { requireRecordId } from '../../shared/returnedFilter';
import { apiRequest } from '../../shared/transport';
import { addHint } from '../common/hints';
import { readRecordId } from '../common/locator';
import { requireText, segment } from '../common/validation';
import { withNodeFields } from '../../shared/serviceFields';
import { disputableOrderIdFields } from '../order/fields';
import type { OperationDefinition } from '../types';

/** The open states of a dispute: the service returns such a dispute instead of a new one (document). */
const OPEN_DISPUTE_STATUSES = ['submitted', 'in_review'];

/** The order a dispute record belongs to: its `orderId`, else its embedded order summary's `id`. */
function orderOf(record: IDataObject): unknown {
	if (record.orderId !== undefined && record.orderId !== null) return record.orderId;
	return isObject(record.order) ? record.order.id : undefined;
}

/**
 * The IDs of the order's open disputes before the request, read from GET /disputes (the
 * company's dispute history; its query parameters are not shown, so `orderId` is sent and
 * checked again on every record, by `orderId` or the embedded order summary's `id`).
 */
async function openDisputesOf(
	ctx: IExecuteFunctions,
	orderId: string,
	itemIndex: number,
): Promise<Set<string>> {
	const source = { path: ENDPOINTS.disputes, itemsKey: 'disputes', qs: { orderId }, itemIndex };
	const open = new Set<string>();
	await readList(ctx, source, { maxRecords: Number.POSITIVE_INFINITY, concurrency: 1 }, (page) => {
		for (const record of page) {
			// The orderId sent is checked on every record: the service may ignore it.
			if (!isObject(record) || String(orderOf(record)) !== orderId) continue;
			if (OPEN_DISPUTE_STATUSES.includes(String(record.status))) {
				open.add(requireRecordId(ctx, source, record));
			}
		}
		return true;
	});
	return open;
}

/** The error to throw, or undefined when it is the service's 403 (the key may not do this). */
function unlessForbidden(
	ctx: IExecuteFunctions,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError | undefined {
	if (error instanceof NodeApiError) return error.httpCode === '403' ? undefined : error;
	if (error instanceof NodeOperationError) return error;
	return new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
}

/**
 * Whether the service returned the dispute that was already open, decided from its answers,
 * never from the reason text (the service may store it trimmed or otherwise normalised): its
 * ID is one of the order's open disputes listed just before the request, or it was created
 * before the request by more than the clock skew allowed (EXISTING_DISPUTE_AGE_MS).
 */
function isExisting(dispute: IDataObject, openBefore: Set<string>, requestedAt: number): boolean {
	const id = dispute.id;
	if ((typeof id === 'string' || typeof id === 'number') && openBefore.has(String(id))) return true;
	const createdAt = typeof dispute.createdAt === 'string' ? Date.parse(dispute.createdAt) : NaN;
	return Number.isFinite(createdAt) && createdAt < requestedAt - EXISTING_DISPUTE_AGE_MS;
}

export const create: OperationDefinition = {
	value: 'create',
	name: 'Create',
	action: 'Open a dispute',
	description:
		'Open a dispute on a completed order (status success or failed); returns the open dispute instead if the order already has one',
	kind: 'write',
	tool: {
		text: 'Open a dispute on a completed order (status success or failed), e.g. when a customer reports a payment that did not arrive or was wrong. Needs: Order ID (a UUID) and Reason (plain words for the team that reviews it). Returns the dispute: id, status, reason; when the order already has an open dispute, that one is returned instead of a new one.',
	},
	docs: {
		endpoint: '`POST /orders/{id}/disputes`',
		notes:
			'Order ID (UUID) and Reason (not empty). Only for completed orders (success or failed). When the order already has an open dispute the service returns it: the output then has `existingDispute: true`.',
	},
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
		let openBefore: Set<string>;
		try {
			openBefore = await openDisputesOf(this, orderId, itemIndex);
		} catch (error) {
			// A key may open disputes without reading them: then only the age can tell.
			const failure = unlessForbidden(this, error, itemIndex);
			if (failure) throw failure;
			openBefore = new Set();
			addHint(
				this,
				"The API key may not list disputes (403 on GET /disputes), so existingDispute is decided only by the dispute's age: a dispute opened less than 30 seconds before this one is reported as new.",
				'warning',
			);
		}
		const requestedAt = Date.now();
		const dispute = (await apiRequest.call(this, {
			method: 'POST',
			path: `/orders/${segment(orderId)}/disputes`,
			body: { reason },
			itemIndex,
		})) as IDataObject;
		return withNodeFields(dispute, {
			existingDispute: isExisting(dispute, openBefore, requestedAt),
		});
	},
};
