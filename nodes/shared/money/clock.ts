import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { apiRequest, isServiceErrorBody, runAccount } from '../transport';
import type { Attempt, Report } from '../transport';

/*
 * The service's clock against this machine's (issue 49.2): measured, not assumed. Every answer of
 * the service carries a `Date` header (HTTP says an origin server with a clock sends one); its
 * value minus this machine's time when the answer was read is the skew. A `Date` header has whole
 * seconds, so the value is taken at the middle of its second; the stated margin (binding.ts
 * SKEW_MARGIN_MS) covers that half second and the time the answer spent on its way.
 *
 * The last skew measured at each Base URL is kept in this process's memory, so a write whose
 * own answer was lost (no header) still carries the skew measured a moment before.
 *
 * Only the service's own answers measure it (r4-money-resolve F2): a JSON record (2xx) or the
 * service's error body. A gateway's page (an HTML 502) is dated by the gateway's clock, which
 * says nothing of the clock that dates the records. And only a date in the form HTTP gives it
 * (RFC 7231 IMF-fixdate, in GMT) is read: a `Date` without its zone would be read in this n8n's
 * own zone, hours off.
 */

const measured = new Map<string, { skewMs: number; at: number }>();

/** How long a measured skew is used for a write that measured none itself. */
export const SKEW_KEPT_MS = 6 * 60 * 60_000;

/** An HTTP date (RFC 7231 IMF-fixdate): `Sat, 28 Nov 2026 20:49:00 GMT`. */
const HTTP_DATE =
	/^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/** The `Date` header of an answer, in ms, or undefined (none, or not an HTTP date in GMT). */
function dateOf(headers: IDataObject | undefined): number | undefined {
	if (!headers) return undefined;
	let value: unknown;
	for (const [key, field] of Object.entries(headers)) {
		if (key.toLowerCase() === 'date') value = Array.isArray(field) ? field[0] : field;
	}
	if (typeof value !== 'string' || !HTTP_DATE.test(value.trim())) return undefined;
	const at = Date.parse(value.trim());
	return Number.isFinite(at) ? at : undefined;
}

/** The skew one answer shows (service minus local), or undefined without an HTTP `Date` header. */
export function skewOf(
	headers: IDataObject | undefined,
	localNow = Date.now(),
): number | undefined {
	const at = dateOf(headers);
	return at === undefined ? undefined : at + 500 - localNow;
}

/** Whether an answer is the service's own: a readable 2xx record, or its JSON error body. */
export function serviceAnswered(attempt: Attempt): attempt is Extract<Attempt, { status: number }> {
	if (!('status' in attempt)) return false;
	if (attempt.status >= 200 && attempt.status < 300) return attempt.readable;
	return isServiceErrorBody(attempt.body);
}

/** Takes the skew of the last answer a report holds, and keeps it for the Base URL. */
export function observeReport(
	baseUrl: string,
	report: Report,
	localNow = Date.now(),
): number | null {
	for (let i = report.attempts.length - 1; i >= 0; i--) {
		const attempt = report.attempts[i];
		if (!serviceAnswered(attempt)) continue;
		const skew = skewOf(attempt.headers, localNow);
		if (skew === undefined) continue;
		measured.set(baseUrl, { skewMs: skew, at: localNow });
		return skew;
	}
	return null;
}

/** The skew last measured at a Base URL in this process, within SKEW_KEPT_MS, or null. */
export function knownSkew(baseUrl: string, localNow = Date.now()): number | null {
	const last = measured.get(baseUrl);
	return last && localNow - last.at <= SKEW_KEPT_MS ? last.skewMs : null;
}

/**
 * The skew measured at a Base URL at or after `since` (this machine's clock): what a look that
 * began at `since` measured itself, or null (r4-money-resolve F2: Resolve Outcome prefers it to
 * the one the write carries).
 */
export function skewMeasuredSince(baseUrl: string, since: number): number | null {
	const last = measured.get(baseUrl);
	return last && last.at >= since ? last.skewMs : null;
}

/** Forgets every measured skew (tests: a new process). */
export function forgetSkews(): void {
	measured.clear();
}

/**
 * GET one record (Resolve Outcome's and the look-up's reads), measuring the service's clock from
 * its answer on the way.
 */
export async function readMeasured(
	ctx: IExecuteFunctions,
	itemIndex: number,
	path: string,
): Promise<IDataObject> {
	const report: Report = { attempts: [] };
	const answer = await apiRequest.call(ctx, { method: 'GET', path, itemIndex, report });
	const { baseUrl } = await runAccount(ctx, itemIndex);
	observeReport(baseUrl, report);
	return answer as IDataObject;
}
