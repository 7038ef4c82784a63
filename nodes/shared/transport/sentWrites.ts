/**
 * Money writes this n8n process has already sent, by Idempotency-Key, for the writes whose replay
 * by key the interface document does not promise (Payout Create, Card Recharge, Payout Cancel).
 *
 * n8n's Retry On Fail runs the whole node again with the same items, and the same derived keys:
 * without this, items that were paid before a later item failed, and an item whose answer was
 * lost, would be sent again, and a service that does not replay the key would pay them twice.
 * Here a key that was paid returns the answer it got, without a request; a key whose outcome is
 * unknown is refused with OUTCOME_UNKNOWN, without a request; a key the service refused (not
 * paid) may be sent again. Writes the document promises replay for are not kept: the service
 * itself answers a repeated key with the stored result.
 *
 * Kept in this process's memory (a Retry On Fail runs in the process that ran the node), for at
 * most MAX_KEPT keys; a new execution derives new keys, and a key the user sets names one payment.
 */
export type SentState =
	| { state: 'sending' }
	| { state: 'paid'; answer: unknown }
	| { state: 'unknown' };

/** How many keys are kept; the oldest go first. */
export const MAX_KEPT = 10_000;

const sent = new Map<string, SentState>();

/** The entry of one write: the base URL, method and path it went to, and its key. */
export function sentWriteId(baseUrl: string, method: string, path: string, key: string): string {
	return `${baseUrl} ${method} ${path} ${key}`;
}

export function recallSentWrite(id: string): SentState | undefined {
	const entry = sent.get(id);
	return entry && entry.state === 'paid'
		? { state: 'paid', answer: structuredClone(entry.answer) }
		: entry;
}

export function rememberSentWrite(id: string, entry: SentState): void {
	sent.delete(id);
	sent.set(
		id,
		entry.state === 'paid' ? { state: 'paid', answer: structuredClone(entry.answer) } : entry,
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
