import type { IDataObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import {
	ENVELOPE_ITEM_KEYS,
	ENVELOPE_TOTAL_KEYS,
	PAGE_CONCURRENCY,
	PAGE_SIZE,
	PAGING_QUERY,
} from '../contract/assumptions';
import type { ApiContext } from './request';
import { apiRequest } from './request';
import { isObject } from '../contract/guards';

export interface Page {
	records: IDataObject[];
	total?: number;
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

async function fetchPage(
	this: ApiContext,
	request: ListRequest,
	offset: number,
	limit: number,
): Promise<Page> {
	const body = await apiRequest.call(this, {
		method: 'GET',
		path: request.path,
		qs: { ...request.qs, [PAGING_QUERY.limit]: limit, [PAGING_QUERY.offset]: offset },
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
	return page;
}

interface Planned {
	offset: number;
	limit: number;
}

/**
 * Fetches planned pages with at most `concurrency` requests in flight and returns them in the
 * order planned. After a failure no further page is requested; the failure of the earliest
 * failed page is thrown.
 */
async function fetchConcurrently(
	this: ApiContext,
	request: ListRequest,
	planned: Planned[],
	concurrency: number,
): Promise<Page[]> {
	const pages: Page[] = new Array<Page>(planned.length);
	const failures = new Map<number, unknown>();
	let next = 0;
	const worker = async () => {
		while (next < planned.length && failures.size === 0) {
			const index = next++;
			try {
				pages[index] = await fetchPage.call(
					this,
					request,
					planned[index].offset,
					planned[index].limit,
				);
			} catch (error) {
				failures.set(index, error);
			}
		}
	};
	await Promise.all(
		Array.from({ length: Math.min(concurrency, planned.length) }, async () => await worker()),
	);
	if (failures.size > 0) throw failures.get(Math.min(...failures.keys()));
	return pages;
}

/**
 * Pages through a list with limit/offset until it has every record, or `limit` records.
 *
 * A page shorter than asked for does not by itself end the list: the service may cap `limit`
 * below our page size (its maximum is not shown). The first such page teaches the node the
 * cap, and it keeps reading with that page size. The list ends on an empty page, on reaching
 * the envelope's total, on a page shorter than a page size the service has already shown it
 * serves, on the user's limit, or when the service evidently ignores paging (a page larger
 * than asked for without a total, or the same first record twice). Once the total and the
 * served page size are known, the remaining pages are fetched concurrently.
 */
export async function listRecords(this: ApiContext, request: ListRequest): Promise<IDataObject[]> {
	const wanted = request.returnAll ? Number.POSITIVE_INFINITY : Math.max(0, request.limit ?? 50);
	const out: IDataObject[] = [];
	let offset = 0;
	let pageSize = PAGE_SIZE;
	/** The largest page the service has answered with: it serves at least this many per page. */
	let served = 0;
	let total: number | undefined;
	let previousFirst: IDataObject | undefined;

	/** Takes one page asked at the current offset; says whether the list goes on. */
	const take = (page: Page, asked: number): boolean => {
		const { records } = page;
		if (page.total !== undefined) total = page.total;
		if (records.length === 0) return false;
		if (offset > 0 && sameRecord(records[0], previousFirst)) return false;
		previousFirst = records[0];
		out.push(...records.slice(0, wanted - out.length));
		offset += records.length;
		const servedBefore = served;
		served = Math.max(served, records.length);
		if (out.length >= wanted) return false;
		if (total !== undefined) return offset < total;
		if (records.length > asked) return false;
		if (records.length < asked) {
			// Shorter than a page size the service has already served: the end of the list.
			if (servedBefore >= asked) return false;
			// Otherwise the service may cap `limit` at this length: keep going with it.
			pageSize = records.length;
		}
		return true;
	};

	let more = true;
	while (more && out.length < wanted) {
		if (total !== undefined && served >= pageSize && offset > 0) {
			const wantedEnd = offset + (wanted - out.length);
			const planned: Planned[] = [];
			for (let at = offset; at < Math.min(total, wantedEnd); at += pageSize) {
				planned.push({ offset: at, limit: Math.min(pageSize, wantedEnd - at) });
			}
			if (planned.length === 0) break;
			const pages = await fetchConcurrently.call(this, request, planned, PAGE_CONCURRENCY);
			for (let index = 0; index < pages.length && more; index++) {
				const plan = planned[index];
				// An earlier page was shorter than planned: the rest were asked at the wrong offsets.
				if (plan.offset !== offset) break;
				more = take(pages[index], plan.limit);
			}
			continue;
		}
		const asked = Math.min(pageSize, wanted - out.length);
		more = take(await fetchPage.call(this, request, offset, asked), asked);
	}
	return out;
}
