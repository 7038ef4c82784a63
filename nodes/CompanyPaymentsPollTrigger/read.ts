import type { IDataObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { PAGE_SIZE, PAGING_QUERY } from '../shared/contract/assumptions';
import type { ApiContext } from '../shared/transport';
import { apiRequest, readPage } from '../shared/transport';

export interface WindowRequest {
	path: string;
	itemsKey: string;
	qs?: IDataObject;
	/** Records created before this instant (ms) are outside the window. */
	cutoffMs: number;
	/** At most this many records are read (the cost bound of one poll of this list). */
	maxRecords: number;
}

export interface WindowResult {
	/** Records inside the window (and records whose createdAt cannot be read). */
	records: IDataObject[];
	/** Requests sent. */
	requests: number;
	/** Records read, inside the window or not. */
	read: number;
	/** Reading stopped because `maxRecords` was reached: the window may hold more. */
	truncated: boolean;
	/** Reading stopped before the end of the list because its order showed the window was covered. */
	stoppedEarly: boolean;
}

function createdAtMs(record: IDataObject): number {
	const value = record.createdAt;
	return typeof value === 'string' ? Date.parse(value) : Number.NaN;
}

/**
 * Reads the records of one list that fall in the window, page by page (limit/offset).
 *
 * Lists are expected newest first by `createdAt` (documented for disputes; not shown for the
 * others, and what the node relies on to stop early). That expectation is checked on every
 * record read: reading stops before the list's end only while every record so far had a
 * readable `createdAt` no newer than the one before it, and the last one is older than the
 * window. A list in any other order is read to its end, up to `maxRecords`.
 *
 * A page shorter than asked for ends the list only when the service has already served pages
 * of the size asked (or the envelope's total is reached): its cap on `limit` is not shown, so
 * the first short page is taken as that cap and reading goes on with it.
 */
export async function readWindow(ctx: ApiContext, request: WindowRequest): Promise<WindowResult> {
	const records: IDataObject[] = [];
	let offset = 0;
	let requests = 0;
	let newestFirst = true;
	let previousCreated = Number.POSITIVE_INFINITY;
	let previousFirst: unknown;
	let truncated = false;
	let stoppedEarly = false;
	// The page size the service has shown it serves: its cap on `limit` is not shown.
	let served = PAGE_SIZE;
	let servedKnown = false;
	for (;;) {
		const limit = Math.min(served, request.maxRecords - offset);
		if (limit <= 0) {
			truncated = true;
			break;
		}
		const body = await apiRequest.call(ctx, {
			method: 'GET',
			path: request.path,
			qs: { ...request.qs, [PAGING_QUERY.limit]: limit, [PAGING_QUERY.offset]: offset },
		});
		requests++;
		const page = readPage(body, request.itemsKey);
		if (!page) {
			throw new NodeApiError(
				ctx.getNode(),
				{ body: JSON.stringify(body).slice(0, 300) },
				{
					message: `The list answer of GET ${request.path} holds no array of records`,
					description:
						'Expected a JSON array, or an object with one array field (and optionally total).',
				},
			);
		}
		const page0 = page.records;
		// A service that ignores offset hands out the same first record again: the list is done.
		if (
			offset > 0 &&
			page0.length > 0 &&
			page0[0]?.id !== undefined &&
			page0[0].id === previousFirst
		) {
			break;
		}
		previousFirst = page0[0]?.id;
		for (const record of page0) {
			const created = createdAtMs(record);
			if (Number.isNaN(created) || created > previousCreated) newestFirst = false;
			if (!Number.isNaN(created)) previousCreated = created;
			if (Number.isNaN(created) || created >= request.cutoffMs) records.push(record);
		}
		offset += page0.length;
		if (page0.length === 0) break;
		if (page.total !== undefined && offset >= page.total) break;
		// A page larger than asked for: the service ignores limit and sent the whole list.
		if (page0.length > limit) break;
		if (page0.length < limit) {
			// Shorter than a size the service already served, or than the last records asked
			// for: the list is done. Otherwise it is the service's cap: keep reading with it.
			if (servedKnown || limit < served) break;
			served = page0.length;
		}
		servedKnown = true;
		if (newestFirst && previousCreated < request.cutoffMs) {
			stoppedEarly = true;
			break;
		}
	}
	return { records, requests, read: offset, truncated, stoppedEarly };
}
