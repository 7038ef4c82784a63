import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function show(value: unknown): string {
	if (typeof value === 'string') return `"${value}"`;
	return JSON.stringify(value) ?? String(value);
}

function invalid(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	rule: string,
	value: unknown,
): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), `${field} ${rule}, got ${show(value)}`, {
		itemIndex,
		description: `Nothing was sent to the service. Fix "${field}" on item ${itemIndex} and run again.`,
	});
}

/** Reads a string parameter and checks it is not empty; returns it trimmed. */
export function requireText(
	ctx: IExecuteFunctions,
	itemIndex: number,
	name: string,
	field: string,
): string {
	const value = ctx.getNodeParameter(name, itemIndex, '') as unknown;
	const trimmed =
		typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
	if (trimmed === '') throw invalid(ctx, itemIndex, field, 'must not be empty', value ?? '');
	return trimmed;
}

/** Reads a string parameter that must be a UUID (order and quote ids). */
export function requireUuid(
	ctx: IExecuteFunctions,
	itemIndex: number,
	name: string,
	field: string,
): string {
	const value = ctx.getNodeParameter(name, itemIndex, '') as unknown;
	const trimmed = typeof value === 'string' ? value.trim() : '';
	if (!UUID.test(trimmed)) throw invalid(ctx, itemIndex, field, 'must be a UUID', value ?? '');
	return trimmed;
}

/** Reads a number parameter and checks it is finite and above zero. */
export function requirePositiveNumber(
	ctx: IExecuteFunctions,
	itemIndex: number,
	name: string,
	field: string,
): number {
	const value = ctx.getNodeParameter(name, itemIndex, 0) as unknown;
	const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	if (typeof number !== 'number' || !Number.isFinite(number) || number <= 0) {
		throw invalid(ctx, itemIndex, field, 'must be a number greater than 0', value);
	}
	return number;
}

/** Encodes one path segment (ids come from user input). */
export function segment(value: string): string {
	return encodeURIComponent(value);
}

export { invalid as invalidInput };
