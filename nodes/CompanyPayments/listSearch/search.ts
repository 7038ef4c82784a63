import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { gateError, gateJson, maskRequisite } from '../../shared/gate';
import { fetchPage, recordIdentity } from '../../shared/pager';
import { requireRecordId, returnedCheck } from '../../shared/returnedFilter';

/** Records asked for per page, and entries a list search aims to return per call. */
export const SEARCH_PAGE_SIZE = 50;
/** Pages one call reads at most while a filter leaves too few entries (then it hands a token). */
export const SEARCH_MAX_PAGES = 5;

export interface SearchSource {
	/** GET path of the list. */
	path: string;
	itemsKey?: string;
	/**
	 * Query parameters sent with every page (e.g. a status filter), and checked again on every
	 * record that comes back (shared/returnedFilter.ts): the service may ignore them.
	 */
	qs?: IDataObject;
	/** Only records the operation accepts (e.g. cards in status assigned). */
	accept?: (record: IDataObject) => boolean;
	/**
	 * The entry a person sees, for a record and its ID (read under the names the document gives
	 * it; a record without one fails the search, naming the list and the record's fields).
	 */
	entry: (record: IDataObject, id: string) => INodeListSearchItems;
	/** Extra text the search box matches besides the entry's name and ID (e.g. the external ID). */
	searchText?: (record: IDataObject) => string;
}

/**
 * Where the next call goes on: the offset, the page size the service serves (a page shorter
 * than asked is the service's cap until a page of that size was served, as in the pager), and
 * the first record of the page read last (a service that ignores offset repeats it).
 */
interface Cursor {
	offset: number;
	size: number;
	full: boolean;
	first?: string;
}

function readCursor(token: unknown): Cursor {
	if (typeof token === 'string' && token !== '') {
		try {
			const parsed = JSON.parse(token) as Partial<Cursor>;
			if (typeof parsed.offset === 'number' && typeof parsed.size === 'number') {
				return {
					offset: Math.max(0, parsed.offset),
					size: Math.max(1, parsed.size),
					full: parsed.full === true,
					first: typeof parsed.first === 'string' ? parsed.first : undefined,
				};
			}
		} catch {
			// An unreadable token starts the list over: showing records twice beats showing none.
			return { offset: 0, size: SEARCH_PAGE_SIZE, full: false };
		}
	}
	return { offset: 0, size: SEARCH_PAGE_SIZE, full: false };
}

function matches(filter: string, texts: Array<string | undefined>): boolean {
	const needle = filter.trim().toLowerCase();
	if (needle === '') return true;
	return texts.some((text) => typeof text === 'string' && text.toLowerCase().includes(needle));
}

/**
 * One call of a resource locator's list: reads pages of the service's list (limit/offset,
 * each page read by the pager's fetchPage), keeps the records the operation accepts and the
 * search text matches, and hands n8n a pagination token while the list may go on. The search
 * text is matched here: the service's list endpoints take no search parameter.
 */
export async function searchList(
	ctx: ILoadOptionsFunctions,
	source: SearchSource,
	filter?: string,
	paginationToken?: unknown,
): Promise<INodeListSearchResult> {
	const cursor = readCursor(paginationToken);
	const results: INodeListSearchItems[] = [];
	const check = returnedCheck(source.path, source.qs);
	for (let pages = 0; pages < SEARCH_MAX_PAGES; pages++) {
		const page = await fetchPage(ctx, source, cursor.offset, cursor.size);
		// A refused `limit` was asked again smaller: that size is the page size from now on.
		const asked = (cursor.size = page.asked);
		const { records } = page;
		const first = records.length > 0 ? recordIdentity(records[0], source.path) : undefined;
		// The same first record at a later offset: the service ignores offset.
		if (records.length === 0 || (cursor.offset > 0 && first === cursor.first)) {
			return { results };
		}
		for (const record of records) {
			if (!check.accept(record)) continue;
			if (source.accept && !source.accept(record)) continue;
			const entry = source.entry(record, requireRecordId(ctx, source, record));
			const extra = source.searchText ? source.searchText(record) : undefined;
			if (filter && !matches(filter, [entry.name, String(entry.value), extra])) continue;
			results.push(entry);
		}
		cursor.offset += records.length;
		cursor.first = first;
		const servedFull = cursor.full;
		if (records.length >= asked) cursor.full = true;
		const ended =
			records.length > asked ||
			(page.total !== undefined && cursor.offset >= page.total) ||
			(records.length < asked && servedFull);
		if (ended) return { results };
		// Shorter than asked before any full page: the service's cap on limit; go on with it.
		if (records.length < asked) cursor.size = records.length;
		if (results.length >= SEARCH_PAGE_SIZE) break;
	}
	return { results, paginationToken: JSON.stringify(cursor) };
}

/**
 * The list method n8n calls for a resource locator (`searchListMethod`): n8n calls it with its
 * load-options context as `this`, the search text and the token of the page before.
 */
export function searchMethod(source: SearchSource) {
	return async function (
		this: ILoadOptionsFunctions,
		filter?: string,
		paginationToken?: string,
	): Promise<INodeListSearchResult> {
		// The editor's pickers are a door too: their entries and their errors pass the gate
		// (shared/gate), an error's texts with any link's user and password hidden.
		try {
			const found = await searchList(this, source, filter, paginationToken);
			return { ...found, results: gateJson(this, found.results) };
		} catch (error) {
			throw gateError(this, error);
		}
	};
}

/** "2026-11-24 09:30" (UTC) from an ISO timestamp; the text as given when it is not one. */
export function shortDate(value: unknown): string | undefined {
	if (typeof value !== 'string' || value === '') return undefined;
	const time = Date.parse(value);
	if (Number.isNaN(time)) return value;
	return new Date(time).toISOString().slice(0, 16).replace('T', ' ');
}

/** "•••• 1234": a card or phone number as the gate shows it, or undefined without digits. */
export function lastFour(value: unknown): string | undefined {
	if (typeof value !== 'string' && typeof value !== 'number') return undefined;
	return /\d/.test(String(value)) ? maskRequisite(String(value)) : undefined;
}

/** A text field of a record, or undefined when it is missing or empty. */
export function text(record: IDataObject, field: string): string | undefined {
	const value = record[field];
	if (typeof value === 'string') return value.trim() === '' ? undefined : value;
	if (typeof value === 'number') return String(value);
	return undefined;
}

/** Parts of an entry's name, the missing ones left out, joined with " · ". */
export function joinParts(parts: Array<string | undefined>): string {
	return parts.filter((part): part is string => part !== undefined && part !== '').join(' · ');
}
