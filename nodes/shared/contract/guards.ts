import type { IDataObject } from 'n8n-workflow';

/** A JSON object (not an array, not null): the shape of every record and envelope. */
export function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
