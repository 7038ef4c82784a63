import { listOperation } from '../common/listOperation';
import { simpleFields } from '../common/simple';
import { ENDPOINTS } from '../../shared/contract/endpoints';

export const getMany = listOperation({
	action: 'Get many disputes',
	description: 'List the company dispute history, newest first, one output item per dispute',
	kind: 'read',
	tool: {
		text: 'List the company disputes, newest first. Needs nothing. Returns one short record per dispute: id, orderId, status, resolution (refund, confirm or partial_refund: read this rather than status), reason, refundAmount, dates.',
		compact: simpleFields('dispute', [
			'id',
			'orderId',
			'status',
			'resolution',
			'reason',
			'refundAmount',
			'createdAt',
			'resolvedAt',
		]),
	},
	docs: {
		endpoint: '`GET /disputes`',
		notes:
			'Newest first. Read `resolution` (refund, confirm, partial_refund), not `status`, to know the outcome.',
	},
	path: ENDPOINTS.disputes,
	itemsKey: 'disputes',
});
