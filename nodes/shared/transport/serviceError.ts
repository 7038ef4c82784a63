import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { ERROR_ACTIONS } from './errorActions';
import { ERROR_EXPLANATIONS, explainStatus } from './errorCodes';
import { isObject } from '../contract/guards';
import { gateJson } from '../gate';
import { quoteText } from '../gate/quote';

/** What the node keeps of a failed call: every field of the service's error body that matters. */
export interface ServiceErrorInfo extends IDataObject {
	httpCode: number;
	errorCode: string | null;
	explanation: string;
	serviceMessage: string | null;
	/** As the service sent it: an object (the document's), else a list or a value. */
	details: IDataObject | IDataObject[] | string | number | boolean | null;
	required: string | null;
	requestId: string | null;
	path: string | null;
}

/** How much of a body that is not JSON an error quotes. */
export const QUOTE_LIMIT = 300;

/**
 * A field of the error body as text, whatever its JSON type (outside read r9-data, finding 4): a
 * string as it is; a list with its entries joined by `; `, each a string as it is and anything
 * else as its JSON; an object, a number or a boolean as its JSON. Empty or null: none. The gate
 * masks the result like any text of an error.
 */
function text(value: unknown): string | null {
	if (typeof value === 'string') return value === '' ? null : value;
	if (value === null || value === undefined) return null;
	if (Array.isArray(value)) {
		const parts = value.map(entry).filter((part) => part !== '');
		return parts.length > 0 ? parts.join('; ') : null;
	}
	return entry(value) || null;
}

/**
 * One entry as text: an object or a list through the gate field by field first (a secret field
 * inside, a `memberKey`, is masked by its name before the JSON is written), then as its JSON.
 */
function entry(value: unknown): string {
	if (typeof value === 'string') return value;
	if (value === null || value === undefined) return '';
	return JSON.stringify(typeof value === 'object' ? gateJson(undefined, value) : value) ?? '';
}

/** The body's `details` kept whatever its JSON type: an object, a non-empty list, a text. */
function detailsOf(value: unknown): ServiceErrorInfo['details'] {
	if (isObject(value)) return value;
	if (Array.isArray(value) && value.length > 0) return value as IDataObject[];
	if (typeof value === 'string' && value !== '') return value;
	if (typeof value === 'number' || typeof value === 'boolean') return value;
	return null;
}

function headerValue(headers: IDataObject | undefined, name: string): string | null {
	if (!headers) return null;
	for (const [key, value] of Object.entries(headers)) {
		if (key.toLowerCase() === name) return Array.isArray(value) ? String(value[0]) : String(value);
	}
	return null;
}

/**
 * Codes that say no more than their HTTP status. A per-call explanation for the status
 * (`explainStatus` of apiRequest) is more specific than these, so it replaces them.
 */
const GENERIC_CODES = new Set([
	'BAD_REQUEST',
	'UNAUTHORIZED',
	'FORBIDDEN',
	'NOT_FOUND',
	'CONFLICT',
	'UNPROCESSABLE',
	'INTERNAL_ERROR',
	'SERVICE_UNAVAILABLE',
	'BAD_GATEWAY',
]);

/**
 * Reads the service's error body (or whatever came back) into {@link ServiceErrorInfo}.
 *
 * The explanation is, first match wins: the call's `explain` for the errorCode; the general
 * explanation of a specific (non-generic) errorCode; the call's `explainByStatus` for the HTTP
 * status, unless the body names a missing permission; the general explanation of a generic
 * errorCode; the general explanation of the HTTP status.
 */
export function readServiceError(
	status: number,
	body: unknown,
	headers?: IDataObject,
	explain?: Record<string, string>,
	explainByStatus?: Record<number, string>,
): ServiceErrorInfo {
	const b = isObject(body) ? body : {};
	const errorCode = typeof b.errorCode === 'string' && b.errorCode !== '' ? b.errorCode : null;
	const details = detailsOf(b.details);
	const required =
		text(b.required) ??
		(isObject(details) && typeof details.required === 'string' ? details.required : null);
	let serviceMessage = text(b.message);
	if (!isObject(body) && typeof body === 'string' && body.trim() !== '') {
		// Masked whole, then cut: a cut never leaves part of a secret (outside read r5-data).
		serviceMessage = `(not JSON) ${quoteText(body.trim(), QUOTE_LIMIT)}`;
	}
	const general = errorCode !== null ? ERROR_EXPLANATIONS[errorCode] : undefined;
	const specific =
		errorCode !== null
			? (explain?.[errorCode] ?? (GENERIC_CODES.has(errorCode) ? undefined : general))
			: undefined;
	const byStatus = required === null ? explainByStatus?.[status] : undefined;
	return {
		httpCode: status,
		errorCode,
		explanation: specific ?? byStatus ?? general ?? explainStatus(status),
		serviceMessage,
		details,
		required,
		requestId: text(b.requestId) ?? headerValue(headers, 'x-request-id'),
		path: text(b.path),
	};
}

/** The one-line message n8n shows in red, e.g. "PERMISSION_DENIED: … (missing permission orders.create)". */
export function summarise(info: ServiceErrorInfo): string {
	const label = info.errorCode ?? `HTTP ${info.httpCode}`;
	const missing = info.required ? ` (missing permission ${info.required})` : '';
	return `${label}: ${info.explanation}${missing}`;
}

/**
 * Line break of error descriptions. n8n's editor renders a description as (sanitised) HTML, in
 * which a newline is a space, so the facts would run together on one line; `<br>` is one of
 * the tags it keeps.
 */
export const LINE_BREAK = '<br>';

/** The description under it: everything a support ticket needs, one fact per line. */
export function describe(info: ServiceErrorInfo, where?: string): string {
	const lines: string[] = [];
	if (info.serviceMessage) lines.push(`Service message: ${info.serviceMessage}`);
	if (info.details !== null && info.details !== undefined) {
		// Through the gate field by field, as the structured details are (outside read r17-data,
		// finding 1: the text masked `details.pincode` by its look while the field kept it): one rule.
		lines.push(
			`Details: ${typeof info.details === 'string' ? info.details : JSON.stringify(gateJson(undefined, info.details))}`,
		);
	}
	if (info.required) lines.push(`Required permission: ${info.required}`);
	lines.push(`HTTP status: ${info.httpCode}`);
	if (info.requestId) lines.push(`Request ID: ${info.requestId}`);
	if (where) lines.push(`Environment: ${where}`);
	const action = info.errorCode !== null ? ERROR_ACTIONS[info.errorCode] : undefined;
	if (action) lines.push(`What to do: ${action}`);
	return lines.join(LINE_BREAK);
}

/** A description as plain text, one fact per line (for item output and logs). */
export function plainDescription(description: string): string {
	return description.split(LINE_BREAK).join('\n');
}

/** Builds the NodeApiError for a non-2xx answer of the service. */
export function serviceError(
	node: INode,
	status: number,
	body: unknown,
	headers: IDataObject | undefined,
	itemIndex?: number,
	explain?: Record<string, string>,
	explainByStatus?: Record<number, string>,
	where?: string,
): NodeApiError {
	const info = readServiceError(status, body, headers, explain, explainByStatus);
	const errorResponse: JsonObject = isObject(body)
		? ({ ...body, httpCode: String(status) } as JsonObject)
		: { httpCode: String(status), body: info.serviceMessage };
	const error = new NodeApiError(node, errorResponse, {
		message: summarise(info),
		description: describe(info, where),
		httpCode: String(status),
		itemIndex,
	});
	error.context.serviceError = info;
	return error;
}

/** The structured fields of an error raised by {@link serviceError}, if it is one. */
export function serviceErrorInfo(error: unknown): ServiceErrorInfo | undefined {
	if (!(error instanceof NodeApiError)) return undefined;
	const info = error.context.serviceError;
	return isObject(info) ? (info as ServiceErrorInfo) : undefined;
}

/** Whether a body is the service's own JSON error body: an object naming an errorCode. */
export function isServiceErrorBody(body: unknown): boolean {
	return (
		typeof body === 'object' &&
		body !== null &&
		!Array.isArray(body) &&
		typeof (body as IDataObject).errorCode === 'string' &&
		(body as IDataObject).errorCode !== ''
	);
}
