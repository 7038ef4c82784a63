import { randomBytes } from 'node:crypto';

import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { apiRequest, isServiceErrorBody, runAccount } from '../transport';
import type { Attempt, Report } from '../transport';

/*
 * The service's clock against this machine's (issue 49.2): measured, not assumed. Every answer of
 * the service carries a `Date` header (HTTP says an origin server with a clock sends one). It is
 * never read as one number (r13-money F1): the service dated its answer at some moment after this
 * machine sent the request and before the answer was read, and a `Date` has whole seconds, so the
 * service's clock minus this machine's lies in an interval (skewBounds):
 *
 *   low  = Date − (this machine's clock when the whole answer was read)
 *   high = Date + 1 s − (this machine's clock just before the request was sent)
 *
 * Any delay (the request's upload, the service's work, headers sent at once and the body seconds
 * later, this process's event loop busy) only widens the interval; the true skew stays inside it.
 * Each use takes the bound that errs toward `unknown` (binding.ts): "created after the write was
 * sent" is proved with the HIGH bound (a skew too low would make an older record look newer);
 * "dated later than the service's clock now" is judged with the LOW bound (a skew too high would
 * let a record dated in the future pass). n8n's request helper gives no time the headers arrived,
 * so the low bound is taken when the whole answer was read: lower still, so safe for its use.
 *
 * Every skew measured at each Base URL is kept in this process's memory for SKEW_KEPT_MS, and a
 * write seals the upper bound they give together with its own answer's (skewAgreement): the last
 * one alone let one answer dated behind (another backend, a proxy, a cache's copy without `Age`)
 * place the write minutes earlier than the process had measured before (r14-money F1). Intervals
 * of one clock all hold its true skew, so when they all meet the bound is the LEAST high (one slow
 * answer no longer makes every later write unknown for hours, r15-money F2); when they do not
 * meet, two clocks dated them and the bound is the LARGEST high. A write whose own answer was lost
 * still carries them.
 *
 * Only the service's own answers measure it (r4-money-resolve F2): a JSON record (2xx) or the
 * service's error body. A gateway's page (an HTML 502) is dated by the gateway's clock, which
 * says nothing of the clock that dates the records. And only a date in the form HTTP gives it
 * (RFC 7231 IMF-fixdate, in GMT) is read: a `Date` without its zone would be read in this n8n's
 * own zone, hours off.
 *
 * Only an answer fresh from the service measures it (r5-money F1): a cache's copy carries the
 * `Date` of when the service first answered it, minutes old, so it shows the service's clock
 * behind by as much. An answer with any sign of a cache (an `Age` header, which HTTP caches add;
 * a cache status saying HIT; a `Warning` of a stale answer) measures nothing.
 *
 * Only the answer of the attempt being judged measures it (r5-money F4): the `Date` of a 503
 * answered before a Retry-After wait says the service's clock before the wait, not now. (Each
 * attempt carries its own send and read times, so even that one would only widen its interval.)
 *
 * A look keeps every skew it measured (`skewRangeSince`), so a binding can take the one that
 * proves least: the largest high bound for "made after the write" (r5-money F1: a wrong skew never
 * lets an older record prove), the least low bound for "dated in the future".
 */

/** The interval the service's clock minus this machine's lies in (ms), by one answer. */
export interface SkewBounds {
	low: number;
	high: number;
}

const measured = new Map<string, SkewBounds & { at: number }>();

/** Every skew measured at a Base URL, with when (this machine's clock): the newest last. */
const history = new Map<string, (SkewBounds & { at: number })[]>();

/** How many measures are kept per Base URL. */
const HISTORY_KEPT = 50;

/**
 * The measures that can still be the largest high bound within SKEW_KEPT_MS at a Base URL (each
 * later one lower than the one before it), the oldest first: the largest is the first not yet
 * older than SKEW_KEPT_MS (r14-money F1).
 */
const peaks = new Map<string, { high: number; at: number }[]>();

/**
 * How many peaks are kept per Base URL; past it the two oldest merge into one with the higher
 * bound and the later time, which only keeps a larger skew longer (toward `unknown`), never drops it.
 */
const PEAKS_KEPT = 50;

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

/** The value of a header, named in any case, as text (the first of a list), or undefined. */
function headerOf(headers: IDataObject, name: string): string | undefined {
	for (const [key, field] of Object.entries(headers)) {
		if (key.toLowerCase() !== name) continue;
		const value = Array.isArray(field) ? field[0] : field;
		if (value !== undefined && value !== null) return String(value);
	}
	return undefined;
}

/**
 * Whether an answer shows a sign of coming from a cache rather than fresh from the service
 * (r5-money F1): an `Age` header (RFC 9111: a cache adds it to what it serves from store), a
 * cache status header saying HIT or STALE (X-Cache, X-Cache-Status, CF-Cache-Status,
 * X-Proxy-Cache), or a `Warning` (110 "Response is stale", 111, 113).
 */
export function fromCache(headers: IDataObject | undefined): boolean {
	if (!headers) return false;
	if (headerOf(headers, 'age') !== undefined) return true;
	if (headerOf(headers, 'warning') !== undefined) return true;
	for (const name of ['x-cache', 'x-cache-status', 'cf-cache-status', 'x-proxy-cache']) {
		const value = headerOf(headers, name);
		if (value !== undefined && /hit|stale|revalidated|updating/i.test(value)) return true;
	}
	return false;
}

/** Whether an answer carries a `Date` that can measure the service's clock: fresh, HTTP, GMT. */
export function dated(headers: IDataObject | undefined): boolean {
	return !fromCache(headers) && dateOf(headers) !== undefined;
}

/**
 * The skew one answer shows (service minus local) as the interval it lies in, or undefined without
 * an HTTP `Date` header or when the answer came from a cache (fromCache). `sentLocal`: this
 * machine's clock just before the request was sent; `answeredLocal`: at or after the moment the
 * answer's headers arrived (when the whole answer was read will do: it only lowers `low`).
 */
export function skewBounds(
	headers: IDataObject | undefined,
	sentLocal: number,
	answeredLocal: number,
): SkewBounds | undefined {
	if (fromCache(headers)) return undefined;
	const at = dateOf(headers);
	if (at === undefined || !Number.isFinite(sentLocal) || !Number.isFinite(answeredLocal)) {
		return undefined;
	}
	// The service's clock read between `at` and `at + 1 s` when it dated the answer, and this
	// machine's between sentLocal and answeredLocal.
	return { low: at - answeredLocal, high: at + 1000 - sentLocal };
}

/** Whether an answer is the service's own: a readable 2xx record, or its JSON error body. */
export function serviceAnswered(attempt: Attempt): attempt is Extract<Attempt, { status: number }> {
	if (!('status' in attempt)) return false;
	if (attempt.status >= 200 && attempt.status < 300) return attempt.readable;
	return isServiceErrorBody(attempt.body);
}

/**
 * The measures that can still be the least high bound (each later one higher) and the largest low
 * bound (each later one lower) within SKEW_KEPT_MS at a Base URL, the oldest first (r15-money F2).
 * Past PEAKS_KEPT the two oldest merge: the higher high (only widens toward `unknown`), the higher
 * low (only makes two clocks more likely to be seen, which falls back to the largest high).
 */
const floors = new Map<string, { high: number; at: number }[]>();
const lowTops = new Map<string, { low: number; at: number }[]>();

/** Keeps one measured skew for a Base URL. */
function keep(baseUrl: string, bounds: SkewBounds, at: number): void {
	measured.set(baseUrl, { ...bounds, at });
	const list = history.get(baseUrl) ?? [];
	list.push({ ...bounds, at });
	if (list.length > HISTORY_KEPT) list.shift();
	history.set(baseUrl, list);
	const tops = (peaks.get(baseUrl) ?? []).filter((peak) => peak.high > bounds.high);
	tops.push({ high: bounds.high, at });
	if (tops.length > PEAKS_KEPT) tops.splice(0, 2, { high: tops[0].high, at: tops[1].at });
	peaks.set(baseUrl, tops);
	const lows = (floors.get(baseUrl) ?? []).filter((floor) => floor.high < bounds.high);
	lows.push({ high: bounds.high, at });
	if (lows.length > PEAKS_KEPT) lows.splice(0, 2, { high: lows[1].high, at: lows[1].at });
	floors.set(baseUrl, lows);
	const highs = (lowTops.get(baseUrl) ?? []).filter((top) => top.low > bounds.low);
	highs.push({ low: bounds.low, at });
	if (highs.length > PEAKS_KEPT) highs.splice(0, 2, { low: highs[0].low, at: highs[1].at });
	lowTops.set(baseUrl, highs);
}

/**
 * What every skew measured at a Base URL within SKEW_KEPT_MS says together (r15-money F2). Each
 * answer dated by one clock gives an interval that holds that clock's true skew, so when all the
 * intervals meet they can be one clock and its skew lies where they meet: from the largest low to
 * the LEAST high, which a slow answer (a wide interval) no longer raises. When they do not meet,
 * two clocks dated them (a proxy, another backend, a cache's stale copy): `twoClocks`, and the
 * upper bound falls back to the largest high of them all (r14-money F1), toward `unknown`.
 */
export function skewAgreement(
	baseUrl: string,
	localNow = Date.now(),
): { high: number; twoClocks: boolean } | null {
	const within = (entry: { at: number }) => localNow - entry.at <= SKEW_KEPT_MS;
	const top = (peaks.get(baseUrl) ?? []).find(within);
	const least = (floors.get(baseUrl) ?? []).find(within);
	const lowest = (lowTops.get(baseUrl) ?? []).find(within);
	if (!top || !least || !lowest) return null;
	if (lowest.low <= least.high) return { high: least.high, twoClocks: false };
	return { high: top.high, twoClocks: true };
}

/**
 * Takes the skew of the answer a report ends with (the attempt being judged, read just now), and
 * keeps it for the Base URL. An earlier attempt's answer (a 503 before a Retry-After wait) is not
 * read: its `Date` is as old as the wait (r5-money F4). Null when the last attempt is no fresh
 * answer of the service's own with an HTTP `Date`, or carries no time it was sent (nothing then
 * bounds the skew from above). `localNow`: when it is kept, and the read time of an attempt that
 * carries none.
 */
export function observeReport(
	baseUrl: string,
	report: Report,
	localNow = Date.now(),
): SkewBounds | null {
	const attempt = report.attempts[report.attempts.length - 1];
	if (attempt === undefined || !serviceAnswered(attempt)) return null;
	if (attempt.sentLocal === undefined) return null;
	const bounds = skewBounds(attempt.headers, attempt.sentLocal, attempt.answeredLocal ?? localNow);
	if (bounds === undefined) return null;
	keep(baseUrl, bounds, localNow);
	return bounds;
}

/**
 * The upper bound of the skew at a Base URL by every measure in this process within SKEW_KEPT_MS,
 * or null: the one that places a write no earlier than it was (sealing, binding). Never the last
 * alone (r14-money F1): when the measures agree (one clock) the least high of them all, which holds
 * the true skew whatever the delays (r15-money F2); when they do not (two clocks), the largest.
 */
export function knownSkew(baseUrl: string, localNow = Date.now()): number | null {
	return skewAgreement(baseUrl, localNow)?.high ?? null;
}

/**
 * The LOW bound of the skew last measured at a Base URL in this process, within SKEW_KEPT_MS, or
 * null: the one that reads the service's clock "now" no later than it is (a record dated later
 * than it is dated in the future).
 */
export function knownSkewLow(baseUrl: string, localNow = Date.now()): number | null {
	const last = measured.get(baseUrl);
	return last && localNow - last.at <= SKEW_KEPT_MS ? last.low : null;
}

/**
 * Every skew measured at a Base URL at or after `since`, as the least of their low bounds and the
 * largest of their high bounds, or null when none was (r5-money F1, r13-money F1): binding.ts
 * proves "made after the write" with `high`, so no one answer with a wrong `Date` or a slow
 * delivery lets an older record prove it, and reads "now" with `low`.
 */
export function skewRangeSince(baseUrl: string, since: number): SkewBounds | null {
	const found = (history.get(baseUrl) ?? []).filter((entry) => entry.at >= since);
	if (found.length === 0) return null;
	return {
		low: Math.min(...found.map((entry) => entry.low)),
		high: Math.max(...found.map((entry) => entry.high)),
	};
}

/** Forgets every measured skew (tests: a new process). */
export function forgetSkews(): void {
	measured.clear();
	history.clear();
	peaks.clear();
	floors.clear();
	lowTops.clear();
	created.clear();
	createdFloor.clear();
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

/**
 * The clock that writes the records' `createdAt`, measured against this n8n process's own clock
 * (outside r7-money-a F4, F2): a record a write made was created after this process sent it, so
 * `createdAt - (when this process sent it)` is an UPPER bound of that clock's skew, whoever sets
 * the `Date` header (a proxy in front of the service replaces it with its own clock's). But only
 * for a genuinely new record: a record replayed for a key (an Accept Quote replayed across
 * processes) or the payout the service already held for an External ID is older, and measures a
 * skew far too low (r8-money F1: minutes behind). No answer shows which it is, so no such measure
 * ever stands alone or in preference to the `Date` header's: it may only RAISE the Date's skew
 * (write.ts sealedSkew), which catches a proxy's clock behind the records' and never lets a too-low
 * measure place a write earlier than it was. (A proxy's clock ahead stays a named window: unknown.)
 * Kept per Base URL, the latest; `fresh` marks answers of a key sent for the first time.
 */
const created = new Map<string, { skewMs: number; at: number }>();

/**
 * Records' clock measures from answers that may be a stored record an earlier run made (a key that
 * names a payment): like every records' clock measure, it only ever raises the Date header's skew.
 */
const createdFloor = new Map<string, { skewMs: number; at: number }>();

/**
 * Takes one answered record's creation time (ms, its own clock) and when this process sent it;
 * `fresh`: the answer can be nothing but a new record of this very request.
 */
export function observeCreated(
	baseUrl: string,
	createdMs: number,
	sentLocal: number,
	fresh: boolean,
	at = Date.now(),
): void {
	if (!Number.isFinite(createdMs)) return;
	(fresh ? created : createdFloor).set(baseUrl, { skewMs: createdMs - sentLocal, at });
}

/** The latest records' clock measure from a possibly stored record (it only raises), if any. */
export function knownCreatedFloor(baseUrl: string, localNow = Date.now()): number | null {
	const last = createdFloor.get(baseUrl);
	return last && localNow - last.at <= SKEW_KEPT_MS ? last.skewMs : null;
}

/**
 * The latest records' clock measure from a key sent for the first time (record clock minus n8n's),
 * within SKEW_KEPT_MS: an upper bound at best (a replay measures too low), so it only raises.
 */
export function knownCreatedSkew(baseUrl: string, localNow = Date.now()): number | null {
	const last = created.get(baseUrl);
	return last && localNow - last.at <= SKEW_KEPT_MS ? last.skewMs : null;
}

/** Forgets the records' clock measures (tests: a new process). */
export function forgetCreatedSkews(): void {
	created.clear();
	createdFloor.clear();
}

/**
 * This n8n process's clock, by a random name made when the module loads (outside r7-money-a F2):
 * a sent write seals it, so Resolve Outcome knows whether its own clock readings are the writer's
 * (the same process) or another clock's (a queue-mode worker, a process since restarted).
 */
export const PROCESS_CLOCK = randomBytes(8).toString('hex');
