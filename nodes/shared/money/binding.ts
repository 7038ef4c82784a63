import { createHmac, timingSafeEqual } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import type { Tie } from './contract';

/*
 * The binding rule (issue 49.1): a record found later proves a money write only when it is bound
 * to that write. One rule, read by Resolve Outcome (resolve.ts), the tool's look-up
 * (reference.ts) and the re-send checks (write.ts, replay.ts):
 *
 * - same company and environment: the write's `sentWrite` carries a fingerprint of the
 *   credential's company and Base URL (`company`), never the key. The service shows a key no
 *   company ID of its own without a request, and the interface document gives a key no other
 *   name, so the key is what names the company here: the fingerprint is an HMAC of the Base URL
 *   under a key derived from the API key. It survives nothing but that key at that Base URL (a
 *   regenerated key is another fingerprint: the item must then be looked up by hand), and it
 *   tells nothing of the key (an HMAC cannot be turned back);
 * - made by this write: the record was created after the write was sent, on the service's clock:
 *   `createdAt >= sentAt + skew - SKEW_MARGIN_MS`, the skew measured from the service's `Date`
 *   header (clock.ts: only fresh answers, never a cache's copy; Resolve Outcome takes the
 *   largest skew measured, r5-money F1), or, when no answer ever carried one,
 *   `UNMEASURED_SKEW_MS` either way;
 * - every detail proven (evidence.ts, sentEvidence.ts);
 * - made by this node: an item that carries `sentWrite` carries its `seal`, an HMAC of the sent
 *   write under another key derived from the API key. An edited or made-up item (one a model
 *   wrote) has no valid seal and is refused before any request.
 */

/** Past the measured skew, how much earlier than the sent time a record may say it was created. */
export const SKEW_MARGIN_MS = 5_000;

/** The skew assumed either way when no answer of the service carried a `Date` header. */
export const UNMEASURED_SKEW_MS = 120_000;

/**
 * How long before a write's send, by n8n's own clock, a record answered to it must have been made
 * to be read as made before it when no answer carried a Date header (r15-money F1): a payout of the
 * same External ID made a day earlier was a plain success. The clocks are not measured then, so
 * only a margin far wider than any clock a service keeps with NTP tells (choice `dateHeader`).
 */
export const UNDATED_PREDATES_MS = 15 * 60_000;

/** The version of the sealed form; a change of what is sealed is a new version. */
export const SEAL_VERSION = 1;

/** A key for one purpose, derived from what the credential authenticates with. */
export function derivedKey(account: string, purpose: string): Buffer {
	return createHmac('sha256', account).update(`n8n-nodes-company-payments/${purpose}`).digest();
}

/** A Base URL as it names one service: no trailing slash, scheme and host in lower case. */
export function serviceOf(baseUrl: string): string {
	const trimmed = baseUrl.trim().replace(/\/+$/, '');
	try {
		const url = new URL(trimmed);
		return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`.toLowerCase();
	} catch {
		return trimmed.toLowerCase();
	}
}

/**
 * The company and environment a write was sent for: `cf1-` and 24 hex characters of an HMAC of
 * the Base URL under a key derived from the credential's API key. Never the key itself.
 */
export function companyFingerprint(account: string, baseUrl: string): string {
	const service = serviceOf(baseUrl);
	const mac = createHmac('sha256', derivedKey(account, 'company-fingerprint/v1'))
		.update(service)
		.digest('hex');
	const company = `cf1-${mac.slice(0, 24)}`;
	servicesOf.delete(company);
	servicesOf.set(company, service);
	if (servicesOf.size > SERVICES_KEPT) servicesOf.delete(servicesOf.keys().next().value as string);
	return company;
}

/**
 * The Base URL (as serviceOf spells it) each company fingerprint of this process was made for
 * (r15-money F7): a record's ID is the service's, so one record proves one write whichever
 * credential (two member keys of one company) sent it. Not a secret: the Base URL is in the
 * credential's plain fields.
 */
const servicesOf = new Map<string, string>();
const SERVICES_KEPT = 10_000;

/** The service a company fingerprint made in this process names, if this process made it. */
export function serviceOfCompany(company: string): string | undefined {
	return servicesOf.get(company);
}

/** JSON with every object's keys in order, so the same content always seals the same. */
export function canonicalJson(value: unknown): string {
	if (value === undefined) return 'null';
	if (value === null || typeof value !== 'object') return JSON.stringify(value);
	if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
	const entries = Object.keys(value as object)
		.filter((key) => (value as IDataObject)[key] !== undefined)
		.sort()
		.map((key) => `${JSON.stringify(key)}:${canonicalJson((value as IDataObject)[key])}`);
	return `{${entries.join(',')}}`;
}

/** The seal of a sent write (every field but `seal`), under a key derived from the API key. */
export function sealOf(account: string, sent: IDataObject): string {
	const content: IDataObject = { ...sent };
	delete content.seal;
	const mac = createHmac('sha256', derivedKey(account, `sent-write-seal/v${SEAL_VERSION}`))
		.update(canonicalJson(content))
		.digest('base64url');
	return `s${SEAL_VERSION}.${mac}`;
}

/** Whether `sent` carries the seal this credential gives it. */
export function sealHolds(account: string, sent: IDataObject): boolean {
	if (typeof sent.seal !== 'string') return false;
	const expected = Buffer.from(sealOf(account, sent));
	const given = Buffer.from(sent.seal);
	return expected.length === given.length && timingSafeEqual(expected, given);
}

/** How a write's time is read on the service's clock: its skew, measured or not. */
export interface SentTime {
	/** When it was sent, by this machine's clock (ms). */
	sentAt: number;
	/**
	 * The service's clock minus this machine's, when measured (ms): an upper bound of it (clock.ts
	 * skewBounds `high`), so a delay never places the write earlier than it was and an older record
	 * never reads as made after it (r13-money F1).
	 */
	skewMs: number | null;
}

/** The earliest `createdAt` (service clock) a record made by this write can carry. */
export function earliestCreated(time: SentTime): number {
	return time.skewMs === null
		? time.sentAt - UNMEASURED_SKEW_MS
		: time.sentAt + time.skewMs - SKEW_MARGIN_MS;
}

/** An ISO date-time without an offset (`2026-11-28T10:00:00`, `2026-11-28 10:00:00.5`). */
const NO_OFFSET = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;

/**
 * An ISO date-time that names its zone: `Z`, or an offset of hours and perhaps minutes (`+03:00`,
 * `+0300`, `+03`, PostgreSQL's text form `2026-11-28 08:23:55.085+00`), the date and time apart by
 * a `T` or a space, the seconds' fraction of any length. Captured: the date and time, the fraction,
 * the zone.
 */
const WITH_OFFSET =
	/^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2})?)(\.\d+)?(Z|[+-]\d{2}(?::?\d{2})?)$/i;

/**
 * A time with its zone, in ms: the one reading of a record's time (boundTime). The offset is
 * written as JavaScript reads it (`+hh:mm`), the fraction cut to milliseconds, and every field
 * checked against the instant read back (no 30 February, no hour 25, no offset past 14 h), so a
 * form Date.parse reads loosely, or not at all, is read once and the same way everywhere.
 */
function zonedTime(text: string): number {
	const parts = WITH_OFFSET.exec(text);
	if (!parts) return NaN;
	const [, date, clock, fraction = '', zone] = parts;
	const ms = fraction === '' ? '' : `.${fraction.slice(1, 4).padEnd(3, '0')}`;
	let offset = 'Z';
	if (zone.toUpperCase() !== 'Z') {
		const digits = zone.slice(1).replace(':', '');
		const hours = Number(digits.slice(0, 2));
		const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
		if (hours > 14 || minutes > 59) return NaN;
		offset = `${zone[0]}${digits.slice(0, 2)}:${String(minutes).padStart(2, '0')}`;
	}
	const at = Date.parse(`${date}T${clock}${ms}${offset}`);
	if (!Number.isFinite(at)) return NaN;
	// The wall time as written, read back in its own offset: a day or hour out of range is no time.
	const sign = offset === 'Z' ? 0 : offset[0] === '-' ? -1 : 1;
	const shift =
		offset === 'Z' ? 0 : sign * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4)));
	const wall = new Date(at + shift * 60_000).toISOString();
	return wall.startsWith(`${date}T${clock}`) ? at : NaN;
}

/**
 * A time the service shows, in ms, for display. The document types its times `date-time` or
 * `string` and shows no offset rule: a time written without an offset is shown read as UTC,
 * never as this n8n's local time (JavaScript would read it local), so the reading does not depend
 * on the machine's time zone. NaN when it is no time. Never a proof of when a record was made:
 * see `boundTime`.
 */
export function serviceTime(value: unknown): number {
	const bound = boundTime(value);
	if (bound !== 'no_offset') return bound;
	const text = (value as string).trim();
	return zonedTime(`${text}Z`);
}

/**
 * A record's time as proof of when it was made or acted (r4-money-resolve F1, r16-money F2): the
 * one reading, for a write's own answer (write.ts answerProvesOther) and for Resolve Outcome
 * (createdSince) alike. Only a time that names its zone (an ISO date-time with `Z` or an offset,
 * in any of the forms WITH_OFFSET takes, or a number of ms) can be bound to a write. A time
 * written without an offset may be in any zone, up to 14 hours either way, so read as UTC it can
 * make a payout hours older look made after the write: `no_offset`, never a time. NaN when it is
 * no time at all (not shown, or one that cannot be read): no proof either.
 */
export function boundTime(value: unknown): number | 'no_offset' {
	if (typeof value === 'number') return Number.isFinite(value) ? value : NaN;
	if (typeof value !== 'string') return NaN;
	const text = value.trim();
	if (WITH_OFFSET.test(text)) return zonedTime(text);
	return NO_OFFSET.test(text) && Number.isFinite(zonedTime(`${text}Z`)) ? 'no_offset' : NaN;
}

/**
 * When a record was made, as a binding reads it: its `createdAt`. `byAssignedAt` reads a card's
 * `assignedAt` in its place, which no binding does any more (r5-money F3: an earlier request's
 * card given after the write shows a late `assignedAt` as a card from stock given to this one
 * does); kept so a test can break the rule on purpose (MONEY_BREAK=assigned).
 */
export function boundAt(record: IDataObject, byAssignedAt = false): unknown {
	const assigned = record.assignedAt;
	return byAssignedAt && assigned !== undefined && assigned !== null && assigned !== ''
		? assigned
		: record.createdAt;
}

/**
 * How a record's time reads against a write (timesAgainst): made (or acted) after it, before it,
 * later than the service's clock now (`future`), written without an offset (`no_offset`), shown
 * but no time (`unreadable`), or not shown at all (`not_shown`). Only `after` binds the record to
 * the write.
 */
export type TimeReading = 'after' | 'before' | 'future' | 'not_shown' | 'no_offset' | 'unreadable';

/**
 * The one rule of a record's time against a write (issue 49.1, r16-money F1, F2), for the write's
 * own answer (write.ts answerProvesOther) and for a record Resolve Outcome finds (createdSince,
 * resolve.ts) alike: the times that date the record (its `createdAt`; the times a cancel's act
 * set, MoneyWrite.acted), each read once by boundTime. None shown, one without its offset, one
 * that is no time: no proof, named. One before `earliest` (ms, the service's clock): made or acted
 * before the write. One after `latest`: later than the service's clock now. Else `after`.
 */
export function timesAgainst(values: unknown[], earliest: number, latest = Infinity): TimeReading {
	const shown = values.filter((value) => value !== undefined && value !== null && value !== '');
	if (shown.length === 0) return 'not_shown';
	const read = shown.map((value) => boundTime(value));
	if (read.includes('no_offset')) return 'no_offset';
	const times = read.filter((at): at is number => typeof at === 'number' && Number.isFinite(at));
	if (times.length < read.length) return 'unreadable';
	if (times.some((at) => at > latest)) return 'future';
	return times.some((at) => at < earliest) ? 'before' : 'after';
}

/**
 * The earliest time (service clock) a record's time may show to be bound to a write by its own
 * answer, or to a record found by its ID (write.ts, a cancel's act in Resolve Outcome): the
 * measured skew and SKEW_MARGIN_MS, or, when no answer carried a Date header, UNDATED_PREDATES_MS
 * on n8n's own clock (r15-money F1; a named window, choice `dateHeader`).
 */
export function earliestBound(time: SentTime): number {
	return time.skewMs === null ? time.sentAt - UNDATED_PREDATES_MS : earliestCreated(time);
}

/**
 * What a record's time (boundAt) says of it against this write (timesAgainst): made after it,
 * before it, not shown or not a time, written without an offset (`no_offset`: no proof,
 * boundTime), or `future`: later than the service's clock now, by more than the skew and margin
 * (a clock of the records other than the one that dates the answers): a time that cannot be read
 * is no proof. `nowSkewMs` is the skew measured by the look itself (else the write's): its lower
 * bound (clock.ts skewBounds `low`), so the service's clock now is never read later than it is.
 */
export function createdSince(
	record: IDataObject,
	time: SentTime,
	nowSkewMs: number | null = time.skewMs,
	localNow = Date.now(),
	byAssignedAt = false,
): TimeReading {
	return timesAgainst(
		[boundAt(record, byAssignedAt)],
		earliestCreated(time),
		latestNow(time, nowSkewMs, localNow),
	);
}

/** The service's clock now, at the latest (serviceNowAtLatest), the write's skew where the look measured none. */
export function latestNow(time: SentTime, nowSkewMs: number | null, localNow = Date.now()): number {
	return serviceNowAtLatest(nowSkewMs ?? time.skewMs, localNow);
}

/**
 * Whether a record's time (ms, as boundTime reads it) is later than the service's clock now by
 * more than the margin: the one rule of "dated in the future", for a record Resolve Outcome finds
 * (createdSince) and a money write's own answer (write.ts answerProvesOther, r17-money F1).
 * `nowSkewMs`: the service's clock minus this machine's, its LOW bound (clock.ts skewBounds), so
 * the service's clock now is never read later than it is, plus SKEW_MARGIN_MS; null when nothing
 * measured it: this machine's clock plus `unmeasuredMs` (Resolve Outcome's UNMEASURED_SKEW_MS and
 * the margin; a write's own answer takes UNDATED_PREDATES_MS, its no-Date rule's margin).
 */
export function datedLater(
	created: number,
	nowSkewMs: number | null,
	localNow: number,
	unmeasuredMs = UNMEASURED_SKEW_MS + SKEW_MARGIN_MS,
): boolean {
	return created > serviceNowAtLatest(nowSkewMs, localNow, unmeasuredMs);
}

/**
 * The service's clock now, at the latest: this machine's now, the skew's low bound and
 * SKEW_MARGIN_MS; with no skew measured, this machine's now and `unmeasuredMs`. The one bound of
 * "dated in the future" (timesAgainst's `latest`, datedLater).
 */
export function serviceNowAtLatest(
	nowSkewMs: number | null | undefined,
	localNow: number,
	unmeasuredMs = UNMEASURED_SKEW_MS + SKEW_MARGIN_MS,
): number {
	return typeof nowSkewMs === 'number'
		? localNow + nowSkewMs + SKEW_MARGIN_MS
		: localNow + unmeasuredMs;
}

/**
 * How the margin reads in a message: "the measured clock skew (at most +3 s, service minus n8n)
 * and a 5 s margin". `bound`: which end of the measured interval the rule took (clock.ts
 * skewBounds): `high` for "created after the write", `low` for "the service's clock now".
 */
export function marginWords(skewMs: number | null, bound: 'high' | 'low' = 'high'): string {
	if (skewMs === null) {
		return `a ${UNMEASURED_SKEW_MS / 1000} s margin (no answer of the service carried a Date header, so the clock skew is not measured)`;
	}
	const seconds = Math.round(skewMs / 1000);
	const end = bound === 'high' ? 'at most' : 'at least';
	return `the measured clock skew (${end} ${seconds >= 0 ? '+' : ''}${seconds} s, service minus n8n) and a ${SKEW_MARGIN_MS / 1000} s margin`;
}

/** A tie's value as the service would read it: text trimmed, a number as its digits; undefined when not shown. */
function tieValue(value: unknown): string | undefined {
	if (value === undefined || value === null) return undefined;
	if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
	if (typeof value !== 'string') return JSON.stringify(value);
	const text = value.trim();
	return text === '' ? undefined : text;
}

/**
 * The ties of an answer's records that do not hold (issue 49.1 "every detail proven", outside
 * r19-money F1): each shown on both ends with another value. A record tied to this write's made
 * record by another value is not this write's (another card, another request's), so the answer
 * proves nothing of this write. An end not shown breaks nothing, unless the tie's rule says so
 * (outside r21-money F2): `exact` holds two ends not shown alike and breaks on one shown alone,
 * `required` breaks on any end not shown. An end that must be an ID and is none (`notAnId`)
 * breaks it (outside r24-money F4).
 */
export function brokenTies(ties: readonly Tie[]): Tie[] {
	return ties.filter((tie) => {
		if (tie.notAnId !== undefined) return true;
		const shown = tieValue(tie.shown);
		const bound = tieValue(tie.bound);
		if (tie.rule === 'required' && (shown === undefined || bound === undefined)) return true;
		if (tie.rule === 'exact') return shown !== bound;
		return shown !== undefined && bound !== undefined && shown !== bound;
	});
}
