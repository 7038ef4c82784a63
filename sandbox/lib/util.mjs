// Small helpers shared by the sandbox modules: money, ids in paths, paging, input checks.
import { createHash } from 'node:crypto';
import { validationError } from './errors.mjs';

/** Rounds to cents; every money value the sandbox stores goes through this. */
export function round2(value) {
	return Math.round((value + Number.EPSILON) * 100) / 100;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
export function isUuid(value) {
	return typeof value === 'string' && UUID_RE.test(value);
}

export function isPlainObject(value) {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function isNonEmptyString(value) {
	return typeof value === 'string' && value.trim().length > 0;
}

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;
/** The largest `limit` a profile may let the sandbox accept (`maxLimit`). */
export const MAX_ACCEPTED_LIMIT = 10_000;

/**
 * Reads `limit` and `offset` from a query. Both are optional; out-of-range values are
 * rejected rather than clamped: a `limit` above `maxLimit` (the profile's largest accepted
 * size) is a 400 VALIDATION_ERROR naming `limit`, with that size in `details.max` when
 * `refusal` is 'details' and only in the message when it is 'message'. `pageCap` (the
 * profile's) then cuts a valid `limit` silently, as a service with a smaller maximum page might.
 */
export function readPaging(
	query,
	pageCap = MAX_LIMIT,
	{ maxLimit = MAX_LIMIT, refusal = 'message' } = {},
) {
	const problems = [];
	const limit = readInt(query, 'limit', DEFAULT_LIMIT, problems);
	const offset = readInt(query, 'offset', 0, problems);
	let details;
	if (limit !== null && (limit < 1 || limit > maxLimit)) {
		problems.push(`limit должен быть целым числом от 1 до ${maxLimit}`);
		if (refusal === 'details') details = { field: 'limit', max: maxLimit };
	}
	if (offset !== null && offset < 0)
		problems.push('offset должен быть неотрицательным целым числом');
	if (problems.length) throw validationError(problems, details);
	return { limit: Math.min(limit, pageCap), offset };
}

function readInt(query, name, fallback, problems) {
	const raw = query.get(name);
	if (raw === null || raw === '') return fallback;
	if (!/^-?\d+$/.test(raw)) {
		problems.push(`${name} должен быть целым числом`);
		return null;
	}
	return Number(raw);
}

/** Applies limit/offset to an already filtered and ordered array. */
export function paginate(items, { limit, offset }) {
	return { page: items.slice(offset, offset + limit), total: items.length };
}

/** Newest first: the sandbox stores records in creation order, so reversing suffices. */
export function newestFirst(iterable) {
	return [...iterable].reverse();
}

/**
 * A list in the profile's order (`listOrder`): newest first, or oldest first. In generated mode
 * the list's own drawn order applies (also `unordered`: shuffled by the seed), and records that
 * left the list (departures) are left out.
 */
export function inListOrder(ctx, iterable) {
	const order = ctx.list?.order ?? ctx.sb.profile.listOrder;
	const hidden = ctx.sb.generated?.hidden;
	const records = hidden?.size ? [...iterable].filter((r) => !hidden.has(r.id)) : iterable;
	if (order === 'unordered' && ctx.sb.generated) return ctx.sb.generated.unordered(records);
	return order === 'oldest' ? [...records] : newestFirst(records);
}

/** The most records one page of this list holds: the list's drawn cap, else the profile's. */
export function pageCapOf(ctx) {
	return ctx.list?.pageCap ?? ctx.sb.profile.pageCap;
}

/** `limit` and `offset` of a list request, under the list's (drawn) or the profile's paging choices. */
export function listPaging(ctx) {
	const choices = ctx.list?.maxLimit !== undefined ? ctx.list : ctx.sb.profile;
	return readPaging(ctx.query, pageCapOf(ctx), {
		maxLimit: choices.maxLimit ?? MAX_LIMIT,
		refusal: choices.limitRefusal ?? 'message',
	});
}

/** The `status` query value, refused unless it is one of `allowed`; null when absent. */
export function statusFilter(query, allowed) {
	const status = query.get('status');
	if (status && !allowed.includes(status))
		throw validationError(`status должен быть одним из: ${allowed.join(', ')}`);
	return status || null;
}

/**
 * One page of a company's list request, from `records` already in list order. `limit` and
 * `offset` are read first, then `status` is checked against `statuses` (unless the route fixes
 * `status`). Kept are the company's records equal to every filter given: the status and each
 * query value named in `fields`. `unpaged` serves every match (limit and offset still checked).
 */
export function companyListPage(
	ctx,
	records,
	{ statuses, status, fields = [], unpaged = false } = {},
) {
	const paging = listPaging(ctx);
	const filters = {};
	const wanted = status ?? (statuses ? statusFilter(ctx.query, statuses) : null);
	if (wanted) filters.status = wanted;
	for (const name of fields) {
		const value = ctx.query.get(name);
		if (value) filters[name] = value;
	}
	const items = records.filter(
		(r) =>
			r.companyId === ctx.company.id &&
			Object.entries(filters).every(([name, value]) => r[name] === value),
	);
	return unpaged ? { page: items, total: items.length } : paginate(items, paging);
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** A TRON-looking address (T + 33 base58 characters), stable for a given seed string. */
export function tronAddressFrom(seedText) {
	const digest = createHash('sha256').update(seedText).digest();
	let out = 'T';
	for (let i = 0; out.length < 34; i++) out += BASE58[digest[i % digest.length] % BASE58.length];
	return out;
}

/** Shows only the tail of a secret, e.g. `whsec_…1a2b`. */
export function maskSecret(secret) {
	if (!secret) return null;
	return `whsec_…${secret.slice(-4)}`;
}

export function iso(ms) {
	return new Date(ms).toISOString();
}

/** Hides an `api_key` query value before a path is echoed back in an error body. */
export function redactApiKey(pathWithQuery) {
	return pathWithQuery.replace(/([?&]api_key=)[^&]*/gi, '$1***');
}
