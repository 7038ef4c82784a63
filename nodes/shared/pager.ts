import type { IDataObject, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import {
	ENVELOPE_COUNT_KEYS,
	ENVELOPE_ITEM_KEYS,
	ENVELOPE_TOTAL_KEYS,
	PAGE_CONCURRENCY,
	PAGE_OVERLAP,
	PAGE_SIZE,
	PAGE_SIZE_STEPS,
	PAGING_QUERY,
} from './contract/assumptions';
import { isObject } from './contract/guards';
import { RECORD_ID_FIELDS } from './contract/listAnswers';
import { asRecord } from './contract/recordsAnswer';
import type { ApiContext } from './transport/request';
import { apiRequest } from './transport/request';
import { QUOTE_LIMIT, serviceErrorInfo } from './transport/serviceError';
import { quoteJson } from './gate';

/**
 * The one pager of the package: Return All and Limit of every Get Many, and every list the poll
 * trigger reads. The rules (docs/pagination.md) live here and nowhere else:
 *
 * - **Page cap.** A page shorter than asked for is the end of the list only when the service has
 *   already served a page of the size asked; otherwise its length is taken as the service's cap
 *   on `limit` (not shown) and reading goes on with it.
 * - **End of the list.** An empty page; a short page as above; the envelope's `total`; a page
 *   larger than asked for (the service ignores `limit`); pages in a row with nothing new beyond
 *   what a page's worth of records arriving meanwhile, and at least STALE_ARRIVALS, could
 *   explain (the service ignores `offset`: an error, see offsetIgnored).
 * - **Exact set.** Offset paging over a list that changes while it is read shifts records between
 *   pages. A record (by `id`, else by its whole content) is handed on at most once per listing,
 *   and each page after the first starts PAGE_OVERLAP records before the end of the last one, so
 *   that many records leaving meanwhile (which moves the rest up) skip nothing.
 * - **Count.** `total` (or `totalCount`) is a total. `count` may be the page's length or the
 *   total (envelopes are not shown): it ends nothing, and counts as a total only where it cannot
 *   be the page's length (larger than the page).
 * - **Refused `limit`.** A 400 that names `limit` is asked again at a size the service accepts
 *   (see {@link fetchPage}); that size is kept for the node's run.
 */

export interface Page {
	records: IDataObject[];
	/** The list's total, when the envelope states one that can only be a total. */
	total?: number;
}

/**
 * Reads one page of a list answer: a bare array, or an envelope such as
 * `{ deposits: [...], total }`. Returns undefined when no record array can be found.
 */
export function readPage(body: unknown, itemsKey?: string): Page | undefined {
	if (Array.isArray(body)) return { records: body.map(asRecord) };
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
	let total = totalKey ? (body[totalKey] as number) : undefined;
	if (total === undefined) {
		const countKey = ENVELOPE_COUNT_KEYS.find((key) => typeof body[key] === 'number');
		const count = countKey ? (body[countKey] as number) : undefined;
		// A count no larger than the page may be the page's own length: it says nothing.
		if (count !== undefined && count > records.length) total = count;
	}
	// An entry that is no record (a wallet's ID, a number, null) is one under SCALAR_ANSWER_KEY.
	return { records: records.map(asRecord), total };
}

/** Where a list is and how it is filtered. */
export interface ListSource {
	path: string;
	qs?: IDataObject;
	/** Envelope key of this list, e.g. "deposits". */
	itemsKey?: string;
	itemIndex?: number;
}

export interface PagerOptions {
	/** Records handed on at most (the user's Limit, the poll's cost bound); Infinity for all. */
	maxRecords: number;
	/** Page requests in flight at once, when the remaining pages are known in advance. */
	concurrency: number;
}

export interface PagerResult {
	/** Requests sent. */
	requests: number;
	/** Records received, repeats included. */
	received: number;
	/** Records handed on (each at most once). */
	delivered: number;
	/** Reading stopped at `maxRecords`: the list may hold more. */
	truncated: boolean;
	/** Reading stopped because `onPage` asked to. */
	stopped: boolean;
}

/**
 * Records arriving meanwhile that a run of pages with nothing new is taken to stem from, at
 * least (a page's worth when pages are larger). A list that honours offset and ends shows
 * such a run while records arrive ahead of what was read: pages of one record (a short first
 * page is taken as the service's cap) go stale with every single arrival. A service that ignores
 * offset repeats its page for ever: it is told apart once the run goes beyond this, at a cost of
 * at most 10 requests on pages of one record (the first, 9 pages with nothing new); on pages of
 * 5 or more it changes nothing (a page's worth is as many or more).
 */
export const STALE_ARRIVALS = 8;

/** Called with the new records of each page, in list order; returns false to stop reading. */
export type PageHandler = (records: IDataObject[]) => boolean;

/** A record's identity within one listing: its id, else its whole content. */
export function recordIdentity(record: unknown, path?: string): string {
	if (isObject(record)) {
		// The list's ID fields in order (`id`, else the event's name such as `depositId`), so a
		// record that changed between two pages is still one record.
		for (const field of (path && RECORD_ID_FIELDS[path]) || ['id']) {
			const value = record[field];
			if (typeof value === 'string' || typeof value === 'number') {
				return `id:${typeof value}:${String(value)}`;
			}
		}
	}
	return `json:${JSON.stringify(record)}`;
}

/** A page as fetched: its records, what the envelope says, and the `limit` actually sent. */
export interface FetchedPage extends Page {
	asked: number;
	/** Requests sent for it: 1, plus one per refused `limit`. */
	requests: number;
}

/**
 * What one node run has learnt of a list's `limit`: the largest size it refused a larger one
 * for (`ceiling`), the largest it answered (`accepted`), and the request in flight that asks
 * above `accepted` (`probe`): the run's other requests to the list wait for its answer instead
 * of each being refused in turn (a Get Many reads several items at once).
 */
interface LimitState {
	ceiling: number;
	accepted: number;
	probe?: Promise<void>;
}

/** Per node run (the run's context object), per list path. */
const limitStates = new WeakMap<object, Map<string, LimitState>>();

function limitState(ctx: object, path: string): LimitState {
	let lists = limitStates.get(ctx);
	if (!lists) {
		lists = new Map();
		limitStates.set(ctx, lists);
	}
	let state = lists.get(path);
	if (!state) {
		state = { ceiling: Number.POSITIVE_INFINITY, accepted: 0 };
		lists.set(path, state);
	}
	return state;
}

const NAMES_LIMIT = /\blimit\b/i;

/** Integers in a text, e.g. 1 and 100 in "limit должен быть целым числом от 1 до 100". */
function integersIn(text: string): number[] {
	return (text.match(/\d+/g) ?? []).map(Number);
}

/** Largest-size numbers in the error's details: fields whose name says max (any depth). */
function detailMaxima(details: unknown, depth = 0): number[] {
	if (!isObject(details) || depth > 2) return [];
	const found: number[] = [];
	for (const [key, value] of Object.entries(details)) {
		if (typeof value === 'number' && /max/i.test(key)) found.push(value);
		else if (typeof value === 'string' && /max/i.test(key)) found.push(...integersIn(value));
		else if (isObject(value)) found.push(...detailMaxima(value, depth + 1));
	}
	return found;
}

/**
 * The `limit` to ask again with when the service refused `asked`: undefined when the error is
 * not such a refusal (not a 400, or it does not name `limit`) or nothing smaller is left.
 * The size is the largest one below `asked` that the error names, in `details` first, then in
 * its message; else the next of PAGE_SIZE_STEPS below `asked`.
 */
export function refusedLimitRetry(error: unknown, asked: number): number | undefined {
	const info = serviceErrorInfo(error);
	if (!info || info.httpCode !== 400 || asked <= 1) return undefined;
	const message = info.serviceMessage ?? '';
	const details = info.details ? JSON.stringify(info.details) : '';
	if (!NAMES_LIMIT.test(message) && !NAMES_LIMIT.test(details)) return undefined;
	const below = (values: number[]) => {
		const fitting = values.filter(
			(value) => Number.isInteger(value) && value >= 1 && value < asked,
		);
		return fitting.length > 0 ? Math.max(...fitting) : undefined;
	};
	return (
		below(detailMaxima(info.details)) ??
		(NAMES_LIMIT.test(message) ? below(integersIn(message)) : undefined) ??
		PAGE_SIZE_STEPS.find((size) => size < asked)
	);
}

/**
 * One page of a list at `offset`, at most `limit` records asked: its records, what the envelope
 * says, and the `limit` sent. A 400 refusing the `limit` is asked again at the size the service
 * accepts (refusedLimitRetry), and that size is kept for this node run's later pages of the
 * list. An answer that holds no array of records is an error naming the path. Used by the
 * listings here and by the editor's list search (nodes/CompanyPayments/listSearch).
 */
export async function fetchPage(
	ctx: ApiContext,
	source: ListSource,
	offset: number,
	limit: number,
): Promise<FetchedPage> {
	const state = limitState(ctx, source.path);
	let asked = Math.min(limit, state.ceiling);
	let body: unknown;
	let requests = 0;
	for (;;) {
		while (state.probe && asked > state.accepted) {
			await state.probe;
			asked = Math.min(asked, state.ceiling);
		}
		let settled: (() => void) | undefined;
		if (asked > state.accepted) state.probe = new Promise<void>((resolve) => (settled = resolve));
		requests++;
		let failure: unknown;
		let smaller: number | undefined;
		try {
			body = await apiRequest.call(ctx, {
				method: 'GET',
				path: source.path,
				qs: { ...source.qs, [PAGING_QUERY.limit]: asked, [PAGING_QUERY.offset]: offset },
				itemIndex: source.itemIndex,
			});
			state.accepted = Math.max(state.accepted, asked);
		} catch (error) {
			failure = error;
			smaller = refusedLimitRetry(error, asked);
			if (smaller !== undefined) state.ceiling = Math.min(state.ceiling, smaller);
		} finally {
			if (settled) {
				state.probe = undefined;
				settled();
			}
		}
		if (failure === undefined) break;
		// Any failure but a refused `limit` is the service's answer to the listing.
		if (smaller === undefined) throw failure;
		asked = Math.min(asked, state.ceiling);
	}
	const page = readPage(body, source.itemsKey);
	if (!page) {
		throw new NodeApiError(
			ctx.getNode(),
			{ body: quoteJson(ctx, body, QUOTE_LIMIT) },
			{
				message: `The list answer of GET ${source.path} holds no array of records`,
				description:
					'Expected a JSON array, or an object with one array field (and optionally total).',
				itemIndex: source.itemIndex,
			},
		);
	}
	return { ...page, asked, requests };
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
	ctx: ApiContext,
	source: ListSource,
	planned: Planned[],
	concurrency: number,
): Promise<FetchedPage[]> {
	const pages: FetchedPage[] = new Array<FetchedPage>(planned.length);
	const failures = new Map<number, unknown>();
	let next = 0;
	const worker = async () => {
		while (next < planned.length && failures.size === 0) {
			const index = next++;
			try {
				pages[index] = await fetchPage(ctx, source, planned[index].offset, planned[index].limit);
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

/** The error of a list whose pages repeat instead of going on (docs/pagination.md). */
function offsetIgnored(
	ctx: ApiContext,
	source: ListSource,
	at: number,
	total: number | undefined,
	result: PagerResult,
): NodeApiError {
	const stated =
		total === undefined
			? ''
			: ` It states that the list holds ${total} records; ${result.delivered} different ones came back.`;
	return new NodeApiError(ctx.getNode(), { path: source.path, offset: at } as JsonObject, {
		message: `The service answered GET ${source.path} at offset ${at} with records it had already sent: it does not seem to honour offset, so the list cannot be read whole`,
		description: `Paging asks for limit and offset (the document shows them for GET /user-wallets/deposits only).${stated} Rather than hand on part of the list as if it were all of it, the node stopped. Narrow the list with a filter, or read it with Limit.`,
	});
}

/**
 * Pages through a list with limit/offset and hands each record on at most once, until the list
 * ends, `maxRecords` records were handed on, or `onPage` returns false. Once the total and the
 * page size the service serves are known, the remaining pages are fetched concurrently.
 */
export async function readList(
	ctx: ApiContext,
	source: ListSource,
	options: PagerOptions,
	onPage: PageHandler,
): Promise<PagerResult> {
	const result: PagerResult = {
		requests: 0,
		received: 0,
		delivered: 0,
		truncated: false,
		stopped: false,
	};
	if (options.maxRecords <= 0) return result;
	const seen = new Set<string>();
	let offset = 0;
	let pageSize = PAGE_SIZE;
	/** The largest page the service has answered with: it serves at least this many per page. */
	let served = 0;
	let total: number | undefined;
	let staleInARow = 0;

	/** Records each page after the first re-reads of the one before (a quarter of a page at most). */
	const overlap = (): number => Math.min(PAGE_OVERLAP, Math.floor(pageSize / 4));
	/** Pages in a row with nothing new that arrivals meanwhile can explain (see STALE_ARRIVALS). */
	const staleRunTolerated = (): number =>
		Math.ceil(Math.max(pageSize, STALE_ARRIVALS) / (pageSize - overlap()));
	/** Where the next page starts: a little before the end of what was read (see PAGE_OVERLAP). */
	const nextStart = (): number => (offset === 0 ? 0 : Math.max(0, offset - overlap()));

	/** Takes one page asked at `at`; says whether the list goes on. */
	const take = (page: Page, asked: number, at: number): boolean => {
		const { records } = page;
		if (page.total !== undefined) total = page.total;
		if (records.length === 0) return false;
		const fresh: IDataObject[] = [];
		for (const record of records) {
			const identity = recordIdentity(record, source.path);
			if (seen.has(identity)) continue;
			seen.add(identity);
			fresh.push(record);
		}
		result.received += records.length;
		offset = Math.max(offset, at + records.length);
		const servedBefore = served;
		served = Math.max(served, records.length);
		staleInARow = fresh.length === 0 ? staleInARow + 1 : 0;
		const handed = fresh.slice(0, options.maxRecords - result.delivered);
		result.delivered += handed.length;
		if (handed.length > 0 && !onPage(handed)) {
			result.stopped = true;
			return false;
		}
		if (total !== undefined && offset >= total) return false;
		if (result.delivered >= options.maxRecords) {
			// More may follow: records left over on this page, or a full page.
			result.truncated = handed.length < fresh.length || records.length >= asked;
			return false;
		}
		// Pages with nothing new: records that arrived meanwhile pushed what was read down, or the
		// service ignores offset and repeats itself. Each such page takes a step's worth of
		// arrivals since the page before; a run that up to STALE_ARRIVALS records arriving (or a
		// page's worth, when pages are larger) can explain is read on, since a list that honours
		// offset then ends or brings something new, and one that ignores offset repeats for ever.
		// A short page ends the list; full pages repeated beyond that, or fewer records than the
		// total the service states, mean the list cannot be read whole: that is said, never cut
		// short in silence.
		if (staleInARow > staleRunTolerated()) {
			const short = total !== undefined && total - result.delivered > pageSize;
			if (records.length >= asked || short) throw offsetIgnored(ctx, source, at, total, result);
			return false;
		}
		if (total !== undefined) {
			// Below the total a short page is not the end: the service's cap, or records removed
			// meanwhile. Reading goes on with that page size.
			if (records.length < asked && servedBefore < asked) pageSize = records.length;
			return true;
		}
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
	while (more) {
		const remaining = options.maxRecords - result.delivered;
		if (total !== undefined && served >= pageSize && offset > 0 && options.concurrency > 1) {
			const wantedEnd = offset + remaining;
			const step = pageSize - overlap();
			const planned: Planned[] = [];
			for (let at = nextStart(); at + overlap() < Math.min(total, wantedEnd); at += step) {
				planned.push({ offset: at, limit: Math.min(pageSize, wantedEnd - at) });
			}
			if (planned.length === 0) break;
			const pages = await fetchConcurrently(ctx, source, planned, options.concurrency);
			for (const page of pages) result.requests += page.requests;
			for (let index = 0; index < pages.length && more; index++) {
				const plan = planned[index];
				// An earlier page was shorter than planned: the rest were asked at the wrong offsets.
				if (plan.offset !== nextStart()) break;
				more = take(pages[index], pages[index].asked, plan.offset);
			}
			continue;
		}
		const at = nextStart();
		const asked = Math.min(pageSize, remaining + (offset - at));
		const page = await fetchPage(ctx, source, at, asked);
		result.requests += page.requests;
		// The service refused the size asked: the size it accepted is the page size from now on.
		if (page.asked < asked) pageSize = page.asked;
		more = take(page, page.asked, at);
	}
	// The pages ran out below the total the service states, by more than a page's worth of records
	// arriving or leaving meanwhile could explain, the last of them repeating what was read:
	// offset is not honoured (see take).
	const shortBy = total === undefined ? 0 : Math.min(total, options.maxRecords) - result.delivered;
	if (shortBy > pageSize && staleInARow > 0 && !result.stopped) {
		throw offsetIgnored(ctx, source, nextStart(), total, result);
	}
	return result;
}

export interface ListRequest extends ListSource {
	/** Return every record, or at most `limit`. */
	returnAll: boolean;
	limit?: number;
}

/** Return All / Limit of a Get Many: every record of the list once, or the first `limit`. */
export async function listRecords(this: ApiContext, request: ListRequest): Promise<IDataObject[]> {
	return (await readRecords(this, request)).records;
}

/** As listRecords, and whether Limit stopped the reading while the list may hold more. */
export async function readRecords(
	ctx: ApiContext,
	request: ListRequest,
): Promise<{ records: IDataObject[]; truncated: boolean }> {
	const records: IDataObject[] = [];
	const result = await readList(
		ctx,
		request,
		{
			maxRecords: request.returnAll ? Number.POSITIVE_INFINITY : Math.max(0, request.limit ?? 50),
			concurrency: PAGE_CONCURRENCY,
		},
		(page) => {
			records.push(...page);
			return true;
		},
	);
	return { records, truncated: result.truncated };
}
