import { createHash } from 'node:crypto';

/**
 * Money writes this n8n process has already sent, by Idempotency-Key, for the writes whose replay
 * by key the interface document does not promise (Payout Create, Card Recharge, Payout Cancel).
 *
 * n8n's Retry On Fail runs the whole node again with the same items, and the same derived keys:
 * without this, items that were paid before a later item failed, and an item whose answer was
 * lost, would be sent again, and a service that does not replay the key would pay them twice.
 * Here a key that was paid returns the answer it got, without a request; a key whose outcome is
 * unknown is refused with OUTCOME_UNKNOWN, without a request; a key the service refused (not
 * paid) may be sent again. Writes the document promises replay for are sent again (the service
 * answers a repeated key with the stored result).
 *
 * Every money write with a key is kept with what it asked for: the same key for another payment
 * (two items given one Idempotency Key, another quote or card) is refused before it is sent,
 * since the service would answer it with the first payment.
 *
 * Kept in this process's memory (a Retry On Fail runs in the process that ran the node), for at
 * most MAX_KEPT keys; a new execution derives new keys, and a key the user sets names one payment.
 */
export type SentState = { request: string } &
	/** In flight: `settled` resolves when its answer or error is known (never rejects). */
	(| { state: 'sending'; settled: Promise<unknown> }
		| { state: 'paid'; answer: unknown }
		| { state: 'unknown' }
	);

/** How many keys are kept; the oldest go first. */
export const MAX_KEPT = 10_000;

const sent = new Map<string, SentState>();

/**
 * The entry of one key at one service for one company: the service keeps its keys per company,
 * not per path, so two credentials of one Base URL (two companies) may each use a key once.
 * `account` is what the credential authenticates with; only its SHA-256 is kept.
 */
export function sentWriteId(baseUrl: string, account: string, key: string): string {
	const company = createHash('sha256').update(account).digest('hex').slice(0, 16);
	return `${baseUrl} ${company} ${key}`;
}

/** What a write asked for: its method, path and body, so a key reused for another one is seen. */
export function sentRequest(method: string, path: string, body: unknown): string {
	return `${method} ${path} ${JSON.stringify(body ?? null)}`;
}

export function recallSentWrite(id: string): SentState | undefined {
	const entry = sent.get(id);
	return entry && entry.state === 'paid'
		? { ...entry, answer: structuredClone(entry.answer) }
		: entry;
}

export function rememberSentWrite(id: string, entry: SentState): void {
	sent.delete(id);
	sent.set(
		id,
		entry.state === 'paid' ? { ...entry, answer: structuredClone(entry.answer) } : entry,
	);
	if (sent.size > MAX_KEPT) sent.delete(sent.keys().next().value as string);
}

export function forgetSentWrite(id: string): void {
	sent.delete(id);
}

/** Forgets every write (tests: each case starts in a new process, as far as this store goes). */
export function forgetAllSentWrites(): void {
	sent.clear();
}
