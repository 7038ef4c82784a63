import type { INodeProperties } from 'n8n-workflow';

import { recordIdFields } from '../common/locator';
import { simpleFields } from '../common/simple';

/** An order simplified (Get and Get Many; the tool's Compact Output): the fields a person reads. */
export const ORDER_SIMPLE_FIELDS = simpleFields('order', [
	'id',
	'externalOrderId',
	'status',
	'amountRub',
	'amountUsdt',
	'paymentType',
	'merchantName',
	'failureReason',
	'createdAt',
	'completedAt',
]);

const ORDER_PLACEHOLDER = 'e.g. 3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b';

/** The order of Order → Get: any order of the company. */
export const orderIdFields: INodeProperties[] = recordIdFields({
	displayName: 'Order',
	name: 'orderId',
	description: 'The order, picked from the list or given by its ID (a UUID)',
	placeholder: ORDER_PLACEHOLDER,
	listPlaceholder: 'Select an order…',
	searchListMethod: 'getOrders',
	rule: 'uuid',
	legacy: { displayName: 'Order ID', description: 'The ID (UUID) of the order' },
});

/** The order of Dispute → Create: the list shows completed orders only (success, failed). */
export const disputableOrderIdFields: INodeProperties[] = recordIdFields({
	displayName: 'Order',
	name: 'orderId',
	description:
		'The completed order to dispute: the list shows orders in status success or failed only, the only ones a dispute can be opened on; give another order by its ID',
	placeholder: ORDER_PLACEHOLDER,
	listPlaceholder: 'Select a completed order…',
	searchListMethod: 'getDisputableOrders',
	rule: 'uuid',
	legacy: {
		displayName: 'Order ID',
		description: 'The ID (UUID) of the completed order to dispute',
	},
});
