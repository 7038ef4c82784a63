import type { IDataObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { ENVELOPE_ITEM_KEYS, ENVELOPE_TOTAL_KEYS, PAGE_SIZE, PAGING_QUERY } from '../assumptions';
import type { ApiContext } from './request';
import { apiRequest } from './request';

export interface Page {
	records: IDataObject[];
	total?: number;
}

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads one page of a list answer: a bare array, or an envelope such as
 * `{ deposits: [...], total }`. Returns undefined when no record array can be found.
 */
export function readPage(body: unknown, itemsKey?: string): Page | undefined {
	if (Array.isArray(body)) return { records: body as IDataObject[] };
	if (!isObject(body)) return undefined;
	let records: unknown;
	if (itemsKey && Array.isArray(body[itemsKey])) {
		records = body[itemsKey];
	} else {
		const known = ENVELOPE_ITEM_KEYS.find((key) => Array.isArray(body[key]));
		if (known) {
			records = body[known];
		} else {
			const arrays = Object.values(body).filter((value) => Array.isArray(value));
			if (arrays.length === 1) records = arrays[0];
		}
	}
	if (!Array.isArray(records)) return undefined;
	const totalKey = ENVELOPE_TOTAL_KEYS.find((key) => typeof body[key] === 'number');
	return {
		records: records as IDataObject[],
		total: totalKey ? (body[totalKey] as number) : undefined,
	};
}

export interface ListRequest {
	path: string;
	qs?: IDataObject;
	/** Envelope key of this list, e.g. "deposits". */
	itemsKey?: string;
	/** Return every record, or at most `limit`. */
	returnAll: boolean;
	limit?: number;
	itemIndex?: number;
}

function sameRecord(a: IDataObject | undefined, b: IDataObject | undefined): boolean {
	if (!a || !b) return false;
	if (a.id !== undefined && b.id !== undefined) return a.id === b.id;
	return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Pages through a list with limit/offset and stops as soon as it has what was asked for: a
 * short page, the envelope's total, the user's limit, or a service that ignored the paging
 * parameters (a page larger than asked for, or the same first record twice).
 */
export async function listRecords(this: ApiContext, request: ListRequest): Promise<IDataObject[]> {
	const wanted = request.returnAll ? Number.POSITIVE_INFINITY : Math.max(0, request.limit ?? 50);
	const out: IDataObject[] = [];
	let offset = 0;
	let previousFirst: IDataObject | undefined;
	while (out.length < wanted) {
		const pageLimit = Math.min(PAGE_SIZE, wanted - out.length);
		const body = await apiRequest.call(this, {
			method: 'GET',
			path: request.path,
			qs: { ...request.qs, [PAGING_QUERY.limit]: pageLimit, [PAGING_QUERY.offset]: offset },
			itemIndex: request.itemIndex,
		});
		const page = readPage(body, request.itemsKey);
		if (!page) {
			throw new NodeApiError(
				this.getNode(),
				{ body: JSON.stringify(body).slice(0, 300) },
				{
					message: `The list answer of GET ${request.path} holds no array of records`,
					description:
						'Expected a JSON array, or an object with one array field (and optionally total).',
					itemIndex: request.itemIndex,
				},
			);
		}
		const { records } = page;
		if (offset > 0 && sameRecord(records[0], previousFirst)) break;
		previousFirst = records[0];
		out.push(...records.slice(0, wanted - out.length));
		offset += records.length;
		if (records.length !== pageLimit) break;
		if (page.total !== undefined && offset >= page.total) break;
	}
	return out;
}
