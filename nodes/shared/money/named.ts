import { createHash } from 'node:crypto';

import { MAX_NAMED } from './bounds';

/*
 * The traces of payments named by a key the user set or a tool's payment reference (r7-money-b F2),
 * kept for the life of the n8n process. The memory of sent writes (write.ts) keeps a write whole
 * (its request and the service's answer) while it may be sent again, and then only while there
 * is room; a named payment leaving it is kept here as a compact trace: a digest of the sender and
 * key, a digest of the request, its outcome (paid, or unknown) and its record's ID. A later write
 * under the same key in this process and credential then never pays again: another request is
 * refused (IDEMPOTENCY_KEY_REUSED), the same request is answered as paid before (with the
 * record) or as unknown, and nothing is sent. At most MAX_NAMED traces; when that many payments
 * are named, a new one is refused before it is sent (write.ts), never let in by forgetting one.
 */

export interface NamedTrace {
	/** The digest of what the write asked (its method, path or subject, and body). */
	request: string;
	outcome: 'paid' | 'unknown';
	/** The record a paid write made (a recharge, a payout, an order), if its answer named one. */
	recordId?: string;
	/** Digests of the seals of its newest unknown sends, so Resolve Outcome's not_paid can release it. */
	seals?: string[];
	/** When it was first sent (ISO): a repeat's unknown seals a sent write naming it (r9-money F6). */
	sentAt?: string;
}

const traces = new Map<string, NamedTrace>();

/** How many seals an unknown trace keeps (the newest). */
const SEALS_KEPT = 4;
let cap = MAX_NAMED;

/** A short digest of a text (sender and key, or a request): 128 bits of SHA-256. */
export function digestOf(text: string): string {
	return createHash('sha256').update(text).digest('base64').slice(0, 22);
}

/** Sets the cap (tests lower it); no argument restores the stated one. */
export function limitNamed(next?: number): void {
	cap = next ?? MAX_NAMED;
}

export function namedCap(): number {
	return cap;
}

export function recallNamed(id: string): NamedTrace | undefined {
	return traces.get(digestOf(id));
}

export function keepNamed(id: string, trace: NamedTrace): void {
	traces.set(digestOf(id), trace);
}

/** Adds the seal of a repeat's sent write to an unknown trace, so its not_paid releases it too. */
export function sealNamed(id: string, seal: unknown): void {
	const trace = traces.get(digestOf(id));
	if (!trace || trace.outcome !== 'unknown' || seal === undefined) return;
	trace.seals = [...(trace.seals ?? []), digestOf(String(seal))].slice(-SEALS_KEPT);
}

export function forgetNamed(id: string): void {
	traces.delete(digestOf(id));
}

export function namedCount(): number {
	return traces.size;
}

/** Releases the traces an unknown send of which Resolve Outcome proved not paid (by its seal). */
export function releaseNamed(seal: unknown): void {
	if (seal === undefined) return;
	const digest = digestOf(String(seal));
	for (const [id, trace] of traces) {
		if (trace.outcome === 'unknown' && (trace.seals ?? []).includes(digest)) traces.delete(id);
	}
}

export function forgetAllNamed(): void {
	traces.clear();
}
