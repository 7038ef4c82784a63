import type { IDataObject } from 'n8n-workflow';

import { ENDPOINTS } from '../../shared/contract/endpoints';
import type { SearchSource } from './search';
import { joinParts, searchMethod, shortDate, text } from './search';

/** The order states in which a dispute can be opened (document: success or failed). */
export const DISPUTABLE = ['success', 'failed'];

function amount(record: IDataObject): string | undefined {
	const rub = text(record, 'amountRub');
	if (rub) return `${rub} RUB`;
	const usdt = text(record, 'amountUsdt');
	return usdt ? `${usdt} USDT` : undefined;
}

/** Long merchant names would push the date and status out of the editor's list. */
const MERCHANT_LENGTH = 18;

function shorten(name: string): string {
	return name.length > MERCHANT_LENGTH ? `${name.slice(0, MERCHANT_LENGTH - 1).trimEnd()}…` : name;
}

/** An order as a person recognises it: amount, merchant, date (and its status). */
export function orderEntry(record: IDataObject, id: string) {
	return {
		name: joinParts([
			amount(record),
			shorten(
				text(record, 'merchantName') ?? text(record, 'externalOrderId') ?? 'Unknown merchant',
			),
			shortDate(record.createdAt),
			text(record, 'status'),
		]),
		value: id,
	};
}

function orders(accept?: (record: IDataObject) => boolean): SearchSource {
	return {
		path: ENDPOINTS.orders,
		itemsKey: 'orders',
		accept,
		entry: orderEntry,
		searchText: (record) =>
			joinParts([
				text(record, 'merchantName'),
				text(record, 'externalOrderId'),
				text(record, 'paymentType'),
			]),
	};
}

/** Every order of the company (Order → Get). */
export const getOrders = searchMethod(orders());

/** Only completed orders (success, failed): the only ones a dispute can be opened on. */
export const getDisputableOrders = searchMethod(
	orders((record) => DISPUTABLE.includes(String(record.status))),
);
