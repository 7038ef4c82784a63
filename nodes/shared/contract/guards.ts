import type { IDataObject } from 'n8n-workflow';

/** A JSON object (not an array, not null): the shape of every record and envelope. */
export function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A value of a record (an ID, a status, an external ID) as text: a non-empty string as it is, a
 * finite number or a bigint as its digits; null when it is missing, empty or anything else. The
 * one reading of a record's value as text, for the change key, both triggers and the checks on
 * what lists answer.
 */
export function recordText(value: unknown): string | null {
	if (typeof value === 'string') return value === '' ? null : value;
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	if (typeof value === 'bigint') return value.toString();
	return null;
}
