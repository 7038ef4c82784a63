import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isObject, recordText } from './contract/guards';
import { QUERY_SHOWN, RECORD_ID_FIELDS } from './contract/listAnswers';
import type { StatusList } from './contract/statuses';
import { statusSpellings } from './contract/statuses';
import type { ListRequest, ListSource } from './pager';
import { readList, readRecords } from './pager';
import type { ApiContext } from './transport/request';

/**
 * The one check of what a list answers (issue 28): every filter a list is sent is applied again
 * to each record that comes back, and every record is keyed by the ID the document gives it.
 * Used by the list operations (Get Many, Get Deposits), the poll trigger and the record pickers.
 * The choices (which parameters the document shows, where a record's ID may be) live in
 * nodes/shared/contract/listAnswers.ts.
 */

interface Dropped {
	/** Records whose field holds another value. */
	other: number;
	/** Records without the field. */
	missing: number;
	/** A few of the other values, as a person would check them. */
	seen: Set<string>;
}

interface Filter {
	name: string;
	/** The value sent, and every spelling the document gives it (legacy statuses). */
	accepted: Set<string>;
	/** The document shows this parameter for this list: a record without the field is kept. */
	shown: boolean;
}

/** How many records of the values seen a hint names at most. */
const SEEN_SHOWN = 3;

/** The check of one listing: which records match the filters sent, and what was left out. */
export interface ReturnedCheck {
	/** Whether any filter is checked (none: every record is kept). */
	readonly active: boolean;
	/** Whether the record matches every filter; a record left out is counted. */
	accept(record: IDataObject): boolean;
	/** Records left out so far. */
	readonly droppedCount: number;
	/** What was left out, for a hint or a log line; undefined when nothing was. */
	describe(): string | undefined;
}

/**
 * The check for a list at `path` sent the query `qs`. A `status` filter of a list with a status
 * table accepts every spelling of the status (`aml_fail` is `aml_failed`).
 */
export function returnedCheck(
	path: string,
	qs: IDataObject | undefined,
	statusList?: StatusList,
): ReturnedCheck {
	const shown = QUERY_SHOWN[path] ?? [];
	const filters: Filter[] = [];
	for (const [name, raw] of Object.entries(qs ?? {})) {
		const value = recordText(typeof raw === 'string' ? raw.trim() : raw);
		if (value === null) continue;
		const spellings =
			name === 'status' && statusList ? statusSpellings(statusList, value) : [value];
		filters.push({ name, accepted: new Set([value, ...spellings]), shown: shown.includes(name) });
	}
	const dropped = new Map<string, Dropped>();
	let droppedCount = 0;
	const count = (filter: Filter, value: string | null) => {
		let entry = dropped.get(filter.name);
		if (!entry) dropped.set(filter.name, (entry = { other: 0, missing: 0, seen: new Set() }));
		if (value === null) entry.missing++;
		else {
			entry.other++;
			if (entry.seen.size < SEEN_SHOWN) entry.seen.add(value);
		}
	};
	return {
		active: filters.length > 0,
		get droppedCount() {
			return droppedCount;
		},
		accept(record) {
			for (const filter of filters) {
				const field = isObject(record) ? record[filter.name] : undefined;
				// null is a value (a card without an external ID), not a missing field.
				const value = field === null ? 'null' : recordText(field);
				if (value === null && filter.shown) continue;
				if (value !== null && filter.accepted.has(value)) continue;
				count(filter, value);
				droppedCount++;
				return false;
			}
			return true;
		},
		describe() {
			if (droppedCount === 0) return undefined;
			const parts = [...dropped.entries()].map(([name, entry]) => {
				const said: string[] = [];
				if (entry.other > 0) {
					said.push(`${entry.other} with another ${name} (${[...entry.seen].join(', ')})`);
				}
				if (entry.missing > 0) said.push(`${entry.missing} without the ${name} field`);
				const sent = filters.find((filter) => filter.name === name);
				const wanted = sent ? [...sent.accepted][0] : '';
				return `${name} ${wanted}: ${said.join(', ')}`;
			});
			const promise =
				shown.length > 0
					? `GET ${path} is documented to filter by ${shown.join(', ')} only`
					: `the document does not promise that GET ${path} applies its query parameters`;
			return `Left out ${droppedCount} record${droppedCount === 1 ? '' : 's'} the service answered that do not match the filters sent (${parts.join('; ')}): ${promise}, so every record is checked.`;
		},
	};
}

export interface MatchingResult {
	records: IDataObject[];
	/** Limit stopped the reading while the list may hold more matching records. */
	truncated: boolean;
	/** The check of the records handed on: what it left out. */
	check: ReturnedCheck;
}

/**
 * Return All / Limit of a filtered list: the records of `readRecords` that match the filters
 * sent. When records were left out and Limit stopped the reading, the list is read again until
 * Limit matching records are found (or the list ends), so Limit still means "up to Limit
 * matching records". A service that applies the filters costs no request more than before.
 */
export async function readMatching(
	ctx: ApiContext,
	request: ListRequest,
	statusList?: StatusList,
): Promise<MatchingResult> {
	const check = returnedCheck(request.path, request.qs, statusList);
	const read = await readRecords(ctx, request);
	const first = {
		...read,
		records: read.records.map((record) => withRecordId(request.path, record)),
	};
	if (!check.active) return { ...first, check };
	const records = first.records.filter((record) => check.accept(record));
	const limit = Math.max(0, request.limit ?? 50);
	if (request.returnAll || !first.truncated || records.length >= limit) {
		return { records, truncated: first.truncated, check };
	}
	const again = returnedCheck(request.path, request.qs, statusList);
	const matching: IDataObject[] = [];
	const result = await readList(
		ctx,
		request,
		// One page at a time: reading stops at the page that completes Limit (pages fetched ahead
		// concurrently would read the whole list first).
		{ maxRecords: Number.POSITIVE_INFINITY, concurrency: 1 },
		(page) => {
			for (const record of page) {
				if (matching.length >= limit) break;
				if (again.accept(record)) matching.push(withRecordId(request.path, record));
			}
			return matching.length < limit;
		},
	);
	return { records: matching, truncated: result.stopped, check: again };
}

/** The record's ID under the names the document gives it for this list, or null. */
export function recordId(path: string, record: IDataObject): string | null {
	for (const name of RECORD_ID_FIELDS[path] ?? ['id']) {
		const value = recordText(record[name]);
		if (value !== null && value.trim() !== '') return value;
	}
	return null;
}

/**
 * The record with its ID under the list's first name (`id`; `userId` for members) when it
 * carries it only under another name the document gives it (`depositId`, `payoutId`, …), so Get
 * Many's output maps to Get and Cancel alike. A record without any is left as it is: list
 * operations do not key records by ID.
 */
export function withRecordId(path: string, record: IDataObject): IDataObject {
	const primary = (RECORD_ID_FIELDS[path] ?? ['id'])[0];
	if (!isObject(record) || recordText(record[primary]) !== null) return record;
	const id = recordId(path, record);
	// First, as the service's own records have it, replacing an empty or null one.
	return id === null ? record : Object.assign({ [primary]: id }, record, { [primary]: id });
}

/**
 * The record's ID, or an error naming the list, the names looked for and the fields the record
 * has (never their values): a record without an ID is never skipped in silence.
 */
export function requireRecordId(
	ctx: { getNode(): INode },
	source: Pick<ListSource, 'path'>,
	record: IDataObject,
): string {
	const id = isObject(record) ? recordId(source.path, record) : null;
	if (id !== null) return id;
	const names = RECORD_ID_FIELDS[source.path] ?? ['id'];
	const fields = isObject(record) ? Object.keys(record) : [];
	throw new NodeOperationError(
		ctx.getNode(),
		`A record of GET ${source.path} has no ID: none of ${names.join(', ')} holds one`,
		{
			description: `The record's fields: ${fields.length > 0 ? fields.join(', ') : 'none (not an object)'}. The node keys these records by ID and does not skip one in silence; the service's answer changed, or a proxy rewrote it.`,
		},
	);
}
