import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { apiRequest, runAccount } from '../transport';
import type { Report } from '../transport';

/*
 * The service's clock against this machine's (issue 49.2): measured, not assumed. Every answer of
 * the service carries a `Date` header (HTTP says an origin server with a clock sends one); its
 * value minus this machine's time when the answer was read is the skew. A `Date` header has whole
 * seconds, so the value is taken at the middle of its second; the stated margin (binding.ts
 * SKEW_MARGIN_MS) covers that half second and the time the answer spent on its way.
 *
 * The last skew measured at each Base URL is kept in this process's memory, so a write whose
 * own answer was lost (no header) still carries the skew measured a moment before.
 */

const measured = new Map<string, { skewMs: number; at: number }>();

/** How long a measured skew is used for a write that measured none itself. */
export const SKEW_KEPT_MS = 6 * 60 * 60_000;

/** The `Date` header of an answer, in ms, or undefined. */
function dateOf(headers: IDataObject | undefined): number | undefined {
	if (!headers) return undefined;
	const value = headers.date ?? headers.Date;
	if (typeof value !== 'string') return undefined;
	const at = Date.parse(value);
	return Number.isFinite(at) ? at : undefined;
}

/** The skew one answer shows (service minus local), or undefined without a `Date` header. */
export function skewOf(
	headers: IDataObject | undefined,
	localNow = Date.now(),
): number | undefined {
	const at = dateOf(headers);
	return at === undefined ? undefined : at + 500 - localNow;
}

/** Takes the skew of the last answer a report holds, and keeps it for the Base URL. */
export function observeReport(
	baseUrl: string,
	report: Report,
	localNow = Date.now(),
): number | null {
	for (let i = report.attempts.length - 1; i >= 0; i--) {
		const attempt = report.attempts[i];
		if (!('status' in attempt)) continue;
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
