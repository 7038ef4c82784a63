import type { IDataObject } from 'n8n-workflow';
import { sleepWithAbort } from 'n8n-workflow';

import { RETRY_BACKOFF, RETRY_STATUSES } from '../contract/assumptions';

import { isServiceErrorBody } from './serviceError';

/**
 * Waiting on rate limits and transient failures (issue 18.7). Rate limits are not shown in the
 * interface document; the choices are in contract/assumptions.ts and docs/rate-limits.md.
 *
 * - Retried: a read (GET) answered 429, 503, or 502/504 (a proxy's, often HTML); a write only
 *   as its caller's `repeat` says (`isRetryable`).
 * - The wait is what `Retry-After` asks (seconds or an HTTP date), else a backoff that doubles
 *   from RETRY_BACKOFF.firstMs up to capMs, with jitter.
 * - A call waits at most the credential's "Longest Wait on Rate Limits" in total; when the next
 *   wait would go past it, the call fails at once with what the service asked for.
 * - Each wait is at least RETRY_BACKOFF.minMs and a call is sent at most maxAttempts times, so a
 *   service answering `Retry-After: 0` again and again is not hammered in a loop.
 * - Calls of one node run share what they learn: after a 429 or 503 with `Retry-After`, the
 *   others (items, pages) hold back until then instead of adding to the load.
 */

/** Clock and sleep of the retry loop; tests replace them to run without waiting. */
export const retryClock = {
	now: (): number => Date.now(),
	random: (): number => Math.random(),
	sleep: async (ms: number, signal?: AbortSignal): Promise<void> =>
		await sleepWithAbort(ms, signal),
};

/** Default of the credential's "Longest Wait on Rate Limits", in seconds. */
export const DEFAULT_MAX_RETRY_WAIT_SECONDS = 60;

/** The longest total wait of one call, from the credential's field (seconds, 0 = no retry). */
export function maxRetryWaitMs(value: unknown): number {
	const seconds = typeof value === 'number' ? value : Number(value);
	if (value === undefined || value === null || value === '' || !Number.isFinite(seconds)) {
		return DEFAULT_MAX_RETRY_WAIT_SECONDS * 1000;
	}
	return Math.max(0, seconds) * 1000;
}

function header(headers: IDataObject | undefined, name: string): string | undefined {
	if (!headers) return undefined;
	for (const [key, value] of Object.entries(headers)) {
		if (key.toLowerCase() !== name) continue;
		const first = Array.isArray(value) ? value[0] : value;
		return typeof first === 'string' || typeof first === 'number' ? String(first) : undefined;
	}
	return undefined;
}

/** What `Retry-After` asks for, in ms from `now`: seconds or an HTTP date; undefined if absent. */
export function retryAfterMs(headers: IDataObject | undefined, now: number): number | undefined {
	const value = header(headers, 'retry-after')?.trim();
	if (!value) return undefined;
	if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
	const at = Date.parse(value);
	if (Number.isNaN(at)) return undefined;
	return Math.max(0, at - now);
}

/**
 * Whether an answer may be re-sent for this call. A read: on every RETRY_STATUSES answer. A write
 * as its caller says (`repeat`): `replayed` on those too (the service answers a repeat with the
 * stored answer), `refused` only on a 429 carrying the service's error body, which proves the
 * write was refused unprocessed. A write that says neither is never re-sent.
 */
export function isRetryable(
	request: { method: string; repeat?: 'replayed' | 'refused' },
	status: number,
	body: unknown,
): boolean {
	if (!RETRY_STATUSES.includes(status)) return false;
	if (request.method === 'GET' || request.repeat === 'replayed') return true;
	return request.repeat === 'refused' && status === 429 && isServiceErrorBody(body);
}

/** The wait before attempt `attempt + 1` when the service did not say: doubling, with jitter. */
export function backoffMs(attempt: number): number {
	const base = Math.min(RETRY_BACKOFF.capMs, RETRY_BACKOFF.firstMs * 2 ** attempt);
	return Math.round(base * (0.5 + retryClock.random() / 2));
}

/** What one node run's calls share: the moment before which none should be sent. */
interface RunLimiter {
	holdUntil: number;
}

const limiters = new WeakMap<object, RunLimiter>();

export function runLimiter(ctx: object): RunLimiter {
	let limiter = limiters.get(ctx);
	if (!limiter) {
		limiter = { holdUntil: 0 };
		limiters.set(ctx, limiter);
	}
	return limiter;
}

function seconds(ms: number): string {
	const value = ms / 1000;
	return `${Number.isInteger(value) ? value : value.toFixed(1)} s`;
}

/** The line an error gets when the call gave up waiting. */
export function gaveUpLine(options: {
	attempts: number;
	waitedMs: number;
	budgetMs: number;
	askedMs?: number;
	/** The call stopped because it was sent the most times one call is sent, not on the wait. */
	capped?: boolean;
}): string {
	const { attempts, waitedMs, budgetMs, askedMs, capped } = options;
	const tried = `Tried ${attempts} time${attempts === 1 ? '' : 's'} over ${seconds(waitedMs)}`;
	if (capped) {
		return `${tried}, the most the node sends one call, and the service still answered the same. Run it again later.`;
	}
	const limit = `the longest total wait is ${seconds(budgetMs)} (the credential's Longest Wait on Rate Limits)`;
	if (askedMs !== undefined) {
		return `The service asked to retry after ${seconds(askedMs)}. ${tried}; ${limit}, so the node stopped waiting. Run it again later, or raise that limit.`;
	}
	return `${tried}; ${limit}. Run it again later, or raise that limit.`;
}
