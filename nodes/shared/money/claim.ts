/*
 * One payment at a time per key in this n8n process (outside r23-money F1, F2). Pay QR Code
 * prepares a quote before it accepts it, so the send-once memory (write.ts) sees its write only
 * once the accept starts: a second run of the same key that begins while the first is still
 * preparing would prepare its own quote and, after the first accept's answer is lost, accept that
 * new quote under the old key. That is no repeated request, and a service that replays a key only
 * for the same request makes a second order. So a run claims its key (sender and key, as the memory
 * keys its entries) before it prepares anything, and a second run of the key waits until the first
 * has settled: it then starts from what the first left (its quote kept with the key, a paid order,
 * an unknown outcome the tool refuses until lookAgainAt, or nothing when it was not paid).
 *
 * The tool claims the key around its whole call (the look-up, the pending check and the send),
 * and hands the claim to the operation it runs (`handOver`), which would otherwise wait on itself.
 */

/** The last claimant of each key: settled once every claimant before it and it are done. */
const held = new Map<string, Promise<void>>();

/** How many runs wait on another's claim now. */
let waiting = 0;

/** Who asked to hear when a run begins to wait (tests wait on this, never on time). */
let listeners: Array<() => void> = [];

/** A claim handed by the caller to the operation it runs with the same context. */
const handed = new WeakMap<object, string>();

/**
 * Runs `work` once every earlier claim of `id` in this process has settled, holding the claim
 * while it runs. `owner` (the operation's context) takes a claim its caller handed over instead.
 */
export async function onePaymentAtATime<T>(
	id: string,
	work: () => Promise<T>,
	owner?: object,
): Promise<T> {
	if (owner !== undefined && handed.get(owner) === id) {
		handed.delete(owner);
		return await work();
	}
	const before = held.get(id);
	let release = (): void => undefined;
	const mine = new Promise<void>((resolve) => {
		release = resolve;
	});
	const tail = before ? before.then(async () => await mine) : mine;
	held.set(id, tail);
	try {
		if (before) {
			waiting += 1;
			const heard = listeners;
			listeners = [];
			for (const listener of heard) listener();
			try {
				await before;
			} finally {
				waiting -= 1;
			}
		}
		return await work();
	} finally {
		release();
		if (held.get(id) === tail) held.delete(id);
	}
}

/** Hands the claim of `id` the caller holds to the operation run with `owner` (its context). */
export function handOver(owner: object, id: string): void {
	handed.set(owner, id);
}

/** Takes back a claim handed over and not taken (an operation that claims nothing). */
export function takeBack(owner: object): void {
	handed.delete(owner);
}

/** Settles once a run in this process waits on another run's claim of its key (now or later). */
export async function paymentWaits(): Promise<void> {
	if (waiting > 0) return;
	await new Promise<void>((resolve) => listeners.push(resolve));
}
