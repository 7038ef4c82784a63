import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { listRecords } from '../../shared/pager';
import type { OperationDefinition } from '../types';
import { listFields, readListFields } from './fields';

export interface ListOperation {
	value?: string;
	name?: string;
	action: string;
	description: string;
	/** GET path of the list. */
	path: string;
	/** Envelope key of the records, e.g. "deposits". */
	itemsKey?: string;
	/** Options of the "Filters" collection; each is sent as the query parameter of its name. */
	filters?: INodeProperties[];
	/** Turns each record into its output item (e.g. to add a derived field). */
	map?: (record: IDataObject) => IDataObject;
}

function readFilters(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const filters = ctx.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const query: IDataObject = {};
	for (const [name, value] of Object.entries(filters)) {
		query[name] = typeof value === 'string' ? value.trim() : value;
	}
	return query;
}

/** A list operation: Return All / Limit, optional filters, one output item per record. */
export function listOperation(definition: ListOperation): OperationDefinition {
	const { path, itemsKey, filters, map } = definition;
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
		readOnly: true,
		properties,
		async execute(this: IExecuteFunctions, itemIndex: number) {
			const records = await listRecords.call(this, {
				path,
				qs: filters ? readFilters(this, itemIndex) : undefined,
				itemsKey,
				...readListFields(this, itemIndex),
				itemIndex,
			});
			return map ? records.map(map) : records;
		},
	};
}
