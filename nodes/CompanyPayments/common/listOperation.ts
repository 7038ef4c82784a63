import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { StatusList } from '../../shared/contract/statuses';
import { statusSpellings } from '../../shared/contract/statuses';
import { recordIdentity } from '../../shared/pager';
import { readMatching } from '../../shared/returnedFilter';
import type { OperationDefinition } from '../types';
import { listFields, readListFields } from './fields';
import { addHint } from './hints';
import { checkOption, invalidInput, optionalText } from './validation';

export interface ListOperation {
	value?: string;
	name?: string;
	action: string;
	description: string;
	/** A list only reads. */
	kind: 'read';
	tool: OperationDefinition['tool'];
	docs: OperationDefinition['docs'];
	/** GET path of the list. */
	path: string;
	/** Envelope key of the records, e.g. "deposits". */
	itemsKey?: string;
	/** Options of the "Filters" collection; each is sent as the query parameter of its name. */
	filters?: INodeProperties[];
	/**
	 * Turns each record into its output item (e.g. to add a derived field); it may read the record
	 * in full where the listing leaves out a field the derived one depends on.
	 */
	map?: (
		record: IDataObject,
		ctx: IExecuteFunctions,
		itemIndex: number,
	) => IDataObject | Promise<IDataObject>;
	/**
	 * The status table of the `status` filter: a status with legacy spellings (card `retired` is
	 * `closed`, deposit `aml_pass` is `aml_passed`) is asked for in each spelling, and the
	 * answers are merged, so a filter finds every record in that state however it is spelled.
	 */
	statusList?: StatusList;
}

function createdAt(record: IDataObject): number {
	const value = typeof record.createdAt === 'string' ? Date.parse(record.createdAt) : Number.NaN;
	return Number.isNaN(value) ? Number.NEGATIVE_INFINITY : value;
}

/** Records of several listings of one list, each once, newest first when all carry createdAt. */
export function mergeListings(
	listings: IDataObject[][],
	path: string,
	limit?: number,
): IDataObject[] {
	const seen = new Set<string>();
	const merged: IDataObject[] = [];
	for (const record of listings.flat()) {
		const identity = recordIdentity(record, path);
		if (seen.has(identity)) continue;
		seen.add(identity);
		merged.push(record);
	}
	if (listings.length > 1 && merged.every((record) => typeof record.createdAt === 'string')) {
		merged.sort((a, b) => createdAt(b) - createdAt(a));
	}
	return limit === undefined ? merged : merged.slice(0, limit);
}

/**
 * Reads the filters a user set, each by the shared reader of its field's type (validation.ts):
 * a choice must be one of its options, anything else is text. An empty filter is not sent; a
 * filter this operation does not offer is refused rather than sent unchecked.
 */
function readFilters(
	ctx: IExecuteFunctions,
	itemIndex: number,
	definitions: INodeProperties[],
): IDataObject {
	const filters = ctx.getNodeParameter('filters', itemIndex, {}) as unknown;
	if (typeof filters !== 'object' || filters === null || Array.isArray(filters)) {
		throw invalidInput(ctx, itemIndex, 'Filters', 'must be a set of filters', filters);
	}
	const query: IDataObject = {};
	for (const [name, value] of Object.entries(filters)) {
		const definition = definitions.find((filter) => filter.name === name);
		if (!definition) {
			throw invalidInput(ctx, itemIndex, 'Filters', 'must hold only the filters offered', name);
		}
		const field = definition.displayName;
		if (definition.type === 'options') {
			if (value === '' || value === null || value === undefined) continue;
			const choices = (definition.options ?? []).map((option) =>
				String((option as { value: unknown }).value),
			);
			query[name] = checkOption(ctx, itemIndex, value, field, choices);
		} else {
			const text = optionalText(ctx, itemIndex, value, field);
			if (text !== undefined) query[name] = text;
		}
	}
	return query;
}

/** The filters a user set, as "status: success, externalId: employee-42". */
function describeFilters(qs: IDataObject | undefined): string {
	return Object.entries(qs ?? {})
		.filter(([, value]) => value !== '' && value !== undefined && value !== null)
		.map(([name, value]) => `${name}: ${String(value)}`)
		.join(', ');
}

/** Says when Limit cut the list short, and when the filters left nothing. */
function hintAboutList(
	ctx: IExecuteFunctions,
	count: number,
	truncated: boolean,
	limit: number,
	qs: IDataObject | undefined,
): void {
	if (truncated) {
		addHint(
			ctx,
			`Limit (${limit}) cut the list short: the service has more. Turn on Return All, or raise Limit, to get them all.`,
		);
	}
	const filters = describeFilters(qs);
	if (count === 0 && filters !== '') {
		addHint(
			ctx,
			`Nothing matches the filters (${filters}). Check their values, or remove a filter to see more.`,
			'warning',
		);
	}
}

/** A list operation: Return All / Limit, optional filters, one output item per record. */
export function listOperation(definition: ListOperation): OperationDefinition {
	const { path, itemsKey, filters, map, statusList } = definition;
	const properties: INodeProperties[] = [...listFields];
	if (filters) {
		properties.push({
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add Filter',
			default: {},
			options: filters,
		});
	}
	return {
		value: definition.value ?? 'getMany',
		name: definition.name ?? 'Get Many',
		action: definition.action,
		description: definition.description,
		kind: definition.kind,
		concurrent: true,
		tool: definition.tool,
		docs: definition.docs,
		properties,
		async execute(this: IExecuteFunctions, itemIndex: number) {
			const qs = filters ? readFilters(this, itemIndex, filters) : undefined;
			const list = readListFields(this, itemIndex);
			const status = typeof qs?.status === 'string' && qs.status !== '' ? qs.status : undefined;
			const spellings = statusList && status ? statusSpellings(statusList, status) : [];
			let records: IDataObject[];
			let truncated: boolean;
			const left: Array<string | undefined> = [];
			if (spellings.length > 1) {
				const listings: IDataObject[][] = [];
				truncated = false;
				for (const spelling of spellings) {
					const listing = await readMatching(
						this,
						{ path, qs: { ...qs, status: spelling }, itemsKey, ...list, itemIndex },
						statusList,
					);
					left.push(listing.check.describe());
					listings.push(listing.records);
					truncated = truncated || listing.truncated;
				}
				const merged = mergeListings(listings, path);
				records = list.returnAll ? merged : merged.slice(0, list.limit);
				truncated = truncated || records.length < merged.length;
			} else {
				const listing = await readMatching(
					this,
					{ path, qs, itemsKey, ...list, itemIndex },
					statusList,
				);
				({ records, truncated } = listing);
				left.push(listing.check.describe());
			}
			// Records the service answered that do not match the filters sent (returnedFilter.ts).
			for (const message of left) if (message) addHint(this, message, 'warning');
			hintAboutList(this, records.length, truncated, list.limit, qs);
			if (!map) return records;
			const mapped: IDataObject[] = [];
			for (const record of records) mapped.push(await map(record, this, itemIndex));
			return mapped;
		},
	};
}
