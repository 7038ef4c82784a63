import type { IDataObject } from 'n8n-workflow';

import { canonicalJson, serviceOfCompany } from './binding';
import { recordIdOf } from './recordId';
import type { SentWrite } from './resolve';

/*
 * One record proves at most one write (the outside reader's finding 4): two items sent under the
 * same External ID with the same details (a duplicated sheet row) are two writes, and the one
 * payout the service made must not be "paid" for both. The first write a record is given as
 * proof of keeps it in this n8n process's memory (by the Base URL, the operation and the record's
 * ID), and another write finds it taken. What is kept is not the seal (a re-send of the same
 * write, Retry On Fail, seals a new skew) but the write itself: its operation, sent time,
 * identity, details and company. Across n8n processes (a restart, queue-mode workers) nothing is
 * kept here; what survives is in the items: a sent write names the other writes of the same
 * request its process sent before it (write.ts `alongside`, sealed), and Resolve Outcome gives
 * none of those a record (r5-money F7). Writes from two processes remain a window
 * docs/assumptions.md names; an External ID of its own per payment is what tells two payments
 * apart there.
 */
const proofs = new Map<string, { write: string; sentAt: string }>();
/** How many records' proofs are kept; the oldest goes first. */
export const PROOFS_KEPT = 10_000;

/** The write a sent write is, whatever skew its seal carries. */
function writeOf(sent: SentWrite): string {
	const { operation, sentAt, identity, details, company } = sent;
	return canonicalJson({ operation, sentAt, identity, details, company });
}

function proofKey(sent: SentWrite, record: IDataObject): string | undefined {
	// An ID the document's type allows (recordId.ts): one that is no ID (12.5, true) proves nothing.
	const id = recordIdOf(record);
	if (id === undefined) return undefined;
	// By the service's Base URL when this process knows it (r15-money F7: two credentials of one
	// company answered with one record), else by the company and Base URL the write was sent for.
	const service = serviceOfCompany(sent.company);
	return `${service === undefined ? sent.company : `service:${service}`} ${sent.operation} ${id}`;
}

/**
 * Whether a record can be given as proof of one write only: it shows its ID (r4-money-resolve F4).
 * One without it could prove two writes under the same identity and details, so it proves none.
 */
export function claimable(record: IDataObject): boolean {
	return proofKey({ company: '', operation: '' } as SentWrite, record) !== undefined;
}

/** The sent time of another write this record was already given as proof of, if any. */
export function takenBy(sent: SentWrite, record: IDataObject): string | undefined {
	const key = proofKey(sent, record);
	const proof = key === undefined ? undefined : proofs.get(key);
	return proof && proof.write !== writeOf(sent) ? proof.sentAt : undefined;
}

/**
 * The sent time of another write a record answered to this one already proves (r14-money F2): the
 * write it was given as proof of in this process (`takenBy`), or one of the writes of the same
 * request sent before it that was answered with it (`alongside`, write.ts). Undefined when none.
 */
export function provedOther(
	sent: SentWrite,
	record: IDataObject,
	alongside: IDataObject[] = [],
): string | undefined {
	const id = recordIdOf(record);
	if (id === undefined) return undefined;
	const taken = takenBy(sent, record);
	if (taken !== undefined) return taken;
	const other = alongside.find((entry) => entry.recordId === id);
	return other === undefined ? undefined : String(other.sentAt);
}

/** Gives a record as proof of this write (synchronously after the check: items run at once). */
export function claim(sent: SentWrite, record: IDataObject): void {
	const key = proofKey(sent, record);
	if (key === undefined || proofs.has(key)) return;
	if (proofs.size >= PROOFS_KEPT) proofs.delete(proofs.keys().next().value as string);
	proofs.set(key, { write: writeOf(sent), sentAt: sent.sentAt });
}

/** Takes back a record given as proof of this write (its answer was judged unknown after it). */
export function unclaim(sent: SentWrite, record: IDataObject): void {
	const key = proofKey(sent, record);
	if (key !== undefined && proofs.get(key)?.write === writeOf(sent)) proofs.delete(key);
}

/**
 * The writes this n8n process sealed, by what they asked (company, operation, identity, details),
 * with their sent times (outside r7-money-a F6b): a write's sent write names only the writes sent
 * before it (`alongside`), so Resolve Outcome of a write in this process also finds the ones sent
 * after it under the same identity and details. After a restart this memory is gone: an earlier
 * write cannot know a later one (docs/assumptions.md names that window).
 */
const writes = new Map<string, string[]>();
/** How many requests' writes are kept; the oldest goes first. */
export const WRITES_KEPT = 10_000;

function requestOf(sent: SentWrite): string {
	const { operation, identity, details, company } = sent;
	return canonicalJson({ operation, identity, details, company });
}

/** Notes a sealed write (its sent time) under what it asked. */
export function noteWrite(sent: SentWrite): void {
	if (sent.identity === null || sent.identity === '') return;
	const key = requestOf(sent);
	const times = writes.get(key) ?? [];
	if (!times.includes(sent.sentAt)) times.push(sent.sentAt);
	writes.delete(key);
	writes.set(key, times.slice(-20));
	if (writes.size > WRITES_KEPT) writes.delete(writes.keys().next().value as string);
}

/** The sent times of the other writes of the same request this process sealed. */
export function otherWrites(sent: SentWrite): string[] {
	return (writes.get(requestOf(sent)) ?? []).filter((t) => t !== sent.sentAt);
}

/** Forgets every record given as proof (tests: a new process). */
export function forgetProofs(): void {
	proofs.clear();
	writes.clear();
}
