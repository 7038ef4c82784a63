import type { IDataObject } from 'n8n-workflow';

import { readList } from '../shared/pager';
import type { ApiContext } from '../shared/transport';

export interface WindowRequest {
	path: string;
	itemsKey: string;
	qs?: IDataObject;
	/** Records created before this instant (ms) are outside the window. */
	cutoffMs: number;
	/** At most this many records are read (the cost bound of one poll of this list). */
	maxRecords: number;
	/**
	 * The document states the list newest first by `createdAt` (GET /disputes only): reading may
	 * stop once the window is covered. Any other list is read to its end (or `maxRecords`).
	 */
	newestFirst: boolean;
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
 * Reads the records of one list that fall in the window, through the package's pager
 * (nodes/shared/pager.ts: page cap, end of list, each record at most once).
 *
 * The document shows the order of one list only (GET /disputes, newest first). Every other list
 * is read to its end, up to `maxRecords`, in whatever order it comes: a list that merely looks
 * newest first on its first pages may still hold a newer record further on. For the disputes the
 * stated order is still checked on every record read: reading stops before the list's end only
 * while every record so far had a readable `createdAt` no newer than the one before it, and the
 * last one is older than the window.
 */
export async function readWindow(ctx: ApiContext, request: WindowRequest): Promise<WindowResult> {
	const records: IDataObject[] = [];
	let newestFirst = request.newestFirst;
	let previousCreated = Number.POSITIVE_INFINITY;
	const result = await readList(
		ctx,
		{ path: request.path, itemsKey: request.itemsKey, qs: request.qs },
		{ maxRecords: request.maxRecords, concurrency: 1 },
		(page) => {
			for (const record of page) {
				const created = createdAtMs(record);
				if (Number.isNaN(created) || created > previousCreated) newestFirst = false;
				if (!Number.isNaN(created)) previousCreated = created;
				if (Number.isNaN(created) || created >= request.cutoffMs) records.push(record);
			}
			return !(newestFirst && previousCreated < request.cutoffMs);
		},
	);
	return {
		records,
		requests: result.requests,
		read: result.delivered,
		truncated: result.truncated,
		stoppedEarly: result.stopped,
	};
}
