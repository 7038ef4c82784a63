import { randomBytes } from 'node:crypto';
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { fitted, identity } from '../shared/identity';

/** Header names as Node.js gives them (lower case). */
export const DELIVERY_ID_HEADER = 'x-service-delivery-id';

/**
 * How many recent delivery IDs a trigger remembers by default. The service retries a delivery
 * for about 7 seconds, so even at hundreds of deliveries a minute this covers the retries many
 * times over. Every new delivery makes n8n write the whole store back to its database, so a
 * larger store costs time on every delivery (see bench/RESULTS.md).
 */
export const DEFAULT_MAX_ENTRIES = 1_000;
export const DEFAULT_MAX_AGE_HOURS = 24;

/** Delivery IDs longer than this (or with line breaks) are kept as a hash. */
const MAX_STORED_ID_LENGTH = 200;

/** Entries per persisted chunk: the persisted store sheds its oldest entries a chunk at a time. */
const CHUNK_SIZE = 64;

export interface DedupLimits {
	maxEntries: number;
	maxAgeMs: number;
}

/**
 * The form the store takes in the node's static data (`deliveries`), which n8n saves after
 * each webhook call and keeps across restarts. Each chunk is text of lines
 * `<time accepted, ms in base 36> <delivery ID>\n`, oldest first. Text rather than an object
 * with a key per ID because n8n parses, wraps in change-tracking proxies (key by key) and
 * re-serialises the static data on every webhook request: a few strings cost next to nothing
 * there. `writer` names the n8n process that wrote it last.
 */
export interface PersistedDeliveries {
	v: 2;
	writer: string;
	chunks: string[];
}

/**
 * Names this process (this load of the module). A store read back from static data with this
 * name was written by this process, so it holds nothing the in-memory copy does not: it need
 * not be read again. Any other name (an earlier run of n8n, another webhook process in queue
 * mode) makes the trigger merge what it finds.
 */
const PROCESS_TOKEN = randomBytes(8).toString('hex');

/** Parses persisted chunks into [id, acceptedAt] pairs; malformed lines are skipped. */
export function readPersisted(found: unknown): Array<[string, number]> {
	const chunks = (found as { chunks?: unknown } | null)?.chunks;
	if (!Array.isArray(chunks)) return [];
	const entries: Array<[string, number]> = [];
	for (const chunk of chunks) {
		if (typeof chunk !== 'string') continue;
		for (const line of chunk.split('\n')) {
			const space = line.indexOf(' ');
			if (space <= 0) continue;
			const at = parseInt(line.slice(0, space), 36);
			if (Number.isFinite(at)) entries.push([line.slice(space + 1), at]);
		}
	}
	return entries;
}

/** The persisted line of one entry. */
function line(id: string, at: number): string {
	return `${at.toString(36)} ${id}\n`;
}

/**
 * The recent deliveries of one trigger (one workflow and node) in this process.
 *
 * `seen` answers "seen before?" in O(1); `ids`/`times` (from `head` on) hold the same entries
 * oldest first, so the oldest go first when the store is full or too old. `chunks` is the
 * persisted text of exactly the same entries: a new entry is appended to the last chunk, an
 * evicted one cut off the front of the first, so each delivery costs O(1) here. The one
 * `chunks` array is placed in the static data of every request, so when n8n saves the static
 * data of any request it writes everything this process has accepted up to that moment:
 * concurrent requests of one process cannot erase each other's IDs, whatever order their saves
 * reach the database in.
 */
class DeliveryLog {
	private readonly seen = new Map<string, number>();

	private ids: string[] = [];

	private times: number[] = [];

	private head = 0;

	private readonly chunks: string[] = [];

	/** Entries written into the last chunk (it takes CHUNK_SIZE, then a new one starts). */
	private lastChunkEntries = 0;

	get size(): number {
		return this.ids.length - this.head;
	}

	has(id: string): boolean {
		return this.seen.has(id);
	}

	add(id: string, at: number): void {
		this.seen.set(id, at);
		this.ids.push(id);
		this.times.push(at);
		if (this.chunks.length === 0 || this.lastChunkEntries === CHUNK_SIZE) {
			this.chunks.push(line(id, at));
			this.lastChunkEntries = 1;
		} else {
			this.chunks[this.chunks.length - 1] += line(id, at);
			this.lastChunkEntries += 1;
		}
	}

	/** Drops entries older than the age limit and, oldest first, beyond the cap. */
	evict(now: number, limits: DedupLimits): void {
		while (
			this.head < this.ids.length &&
			(this.size > limits.maxEntries || now - this.times[this.head] > limits.maxAgeMs)
		) {
			const id = this.ids[this.head];
			this.seen.delete(id);
			this.chunks[0] = this.chunks[0].slice(line(id, this.times[this.head]).length);
			if (this.chunks[0] === '') {
				this.chunks.shift();
				if (this.chunks.length === 0) this.lastChunkEntries = 0;
			}
			this.head += 1;
		}
		if (this.head > 1024 && this.head * 2 > this.ids.length) {
			this.ids = this.ids.slice(this.head);
			this.times = this.times.slice(this.head);
			this.head = 0;
		}
	}

	/** Takes in IDs from a store written by another process or an earlier run of n8n. */
	merge(found: unknown, now: number, limits: DedupLimits): void {
		const entries = readPersisted(found).filter(
			([id, at]) => now - at <= limits.maxAgeMs && !this.has(id),
		);
		if (entries.length === 0) return;
		for (let i = this.head; i < this.ids.length; i++) entries.push([this.ids[i], this.times[i]]);
		entries.sort((a, b) => a[1] - b[1]);
		this.seen.clear();
		this.ids = [];
		this.times = [];
		this.head = 0;
		this.chunks.length = 0;
		this.lastChunkEntries = 0;
		for (const [id, at] of entries) this.add(id, at);
	}

	persisted(): PersistedDeliveries {
		return { v: 2, writer: PROCESS_TOKEN, chunks: this.chunks };
	}
}

const logs = new Map<string, DeliveryLog>();

export type DeliveryVerdict = 'new' | 'duplicate';

/**
 * The dedup key of a delivery: `identity('delivery', scope, [id])`, fitted (a very long id, or
 * one with line breaks, becomes a hash no other id can pass for). The store it is kept in is the
 * scope (one per workflow, node and live/test), so the store's own keys leave `scope` empty.
 */
export function storedId(deliveryId: string, scope: readonly string[] = []): string {
	return fitted(identity('delivery', scope, [deliveryId]), MAX_STORED_ID_LENGTH);
}

/**
 * Checks a delivery id against the trigger's recent deliveries and records it when new.
 *
 * Synchronous on purpose: in one n8n process two requests can only interleave at an `await`,
 * so a concurrent duplicate always finds the id of the first request already recorded.
 * `staticData` is the node's static data of this request; the store is placed there so n8n
 * persists it. Costs O(1) per delivery except when the static data was written by another
 * process (after a restart, or in queue mode), when its ids are merged in once.
 */
export function checkAndRecord(
	storeKey: string,
	staticData: IDataObject,
	deliveryId: string,
	now: number,
	limits: DedupLimits,
): DeliveryVerdict {
	let log = logs.get(storeKey);
	if (!log) {
		log = new DeliveryLog();
		logs.set(storeKey, log);
	}
	const found = staticData.deliveries;
	if (
		typeof found === 'object' &&
		found !== null &&
		(found as IDataObject).writer !== PROCESS_TOKEN
	) {
		log.merge(found, now, limits);
	}
	log.evict(now, limits);
	const id = storedId(deliveryId);
	if (log.has(id)) return 'duplicate';
	log.add(id, now);
	log.evict(now, limits);
	staticData.deliveries = log.persisted() as unknown as IDataObject;
	return 'new';
}

/** Reads the limits from the node options, falling back to the defaults for nonsense values. */
export function dedupLimits(maxEntries: unknown, maxAgeHours: unknown): DedupLimits {
	const entries =
		typeof maxEntries === 'number' && Number.isFinite(maxEntries) && maxEntries >= 1
			? Math.floor(maxEntries)
			: DEFAULT_MAX_ENTRIES;
	const hours =
		typeof maxAgeHours === 'number' && Number.isFinite(maxAgeHours) && maxAgeHours > 0
			? maxAgeHours
			: DEFAULT_MAX_AGE_HOURS;
	return { maxEntries: entries, maxAgeMs: hours * 3_600_000 };
}

/**
 * The node static data of a trigger whose deduplication store already holds these deliveries
 * (`[delivery ID, accepted at ms]`, oldest first), in exactly the form `checkAndRecord` persists
 * and reads back. For tools that prepare a trigger's state (the benchmarks prefill full stores
 * with it), so they never hand-write the store's private format.
 */
export function staticDataWithDeliveries(
	entries: Array<[string, number]>,
	writer = 'import',
): IDataObject {
	const log = new DeliveryLog();
	for (const [id, at] of entries) log.add(storedId(id), at);
	const persisted = log.persisted();
	return { deliveries: { ...persisted, writer, chunks: [...persisted.chunks] } };
}

/**
 * A new delivery whose record the store holds open until n8n's answer to it is known (the
 * companion's Redis claim): nothing marks it as run before n8n has created the execution.
 */
export interface HeldDelivery {
	/**
	 * n8n answered the delivery with this HTTP status (n8n 2.x answers only after it saved and
	 * queued the execution), whether or not the connection still carried it. 2xx: recorded as run;
	 * anything else: let go, so the service's retry runs it (here or elsewhere).
	 */
	answered(status: number): Promise<void>;
	/** The trigger answers itself, before the execution exists: the store decides now. */
	decideNow(): Promise<RecordOutcome>;
}

/** What a delivery store says about one delivery. */
export type RecordOutcome =
	| { verdict: 'new'; held?: HeldDelivery }
	| { verdict: 'duplicate' }
	/** The store could not confirm it as new: the trigger answers 503 and starts nothing. */
	| { verdict: 'unavailable'; reason: string };

/** One delivery the trigger wants recorded, with what it knows about it. */
export interface DeliveryToRecord {
	/** The trigger's store: one per workflow, node and live/test. */
	storeKey: string;
	/** The node's static data of this request. */
	staticData: IDataObject;
	deliveryId: string;
	now: number;
	limits: DedupLimits;
}

/**
 * Where a trigger records the delivery IDs it accepted. The core package's trigger uses
 * `staticDataStore`; the queue-mode companion package builds the same trigger with a store in
 * Redis (companion/, see docs/queue-mode.md). `record` is called once per delivery that carries
 * an ID, after the signature was verified.
 */
export interface DeliveryStore {
	/**
	 * The store holds new deliveries open (`held`) until n8n answers: the trigger then leaves the
	 * 200 to n8n, which sends it once the execution exists, unless the call changed the workflow
	 * static data (which n8n saves only when the trigger answers itself).
	 */
	readonly holdsUntilAnswered?: boolean;
	record(
		ctx: IWebhookFunctions,
		delivery: DeliveryToRecord,
	): RecordOutcome | Promise<RecordOutcome>;
}

/**
 * The workflow's static data: exactly once within one n8n process (the check and the record
 * happen with no `await` between them), kept across restarts. Several webhook processes or mains
 * each keep their own copy, so a delivery reaching two of them at once can start twice.
 */
export const staticDataStore: DeliveryStore = {
	record(_ctx, { storeKey, staticData, deliveryId, now, limits }) {
		return checkAndRecord(storeKey, staticData, deliveryId, now, limits) === 'duplicate'
			? { verdict: 'duplicate' }
			: { verdict: 'new' };
	},
};
