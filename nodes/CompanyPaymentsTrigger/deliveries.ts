import { createHash, randomBytes } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

/** Header names as Node.js gives them (lower case). */
export const DELIVERY_ID_HEADER = 'x-service-delivery-id';

export const DEFAULT_MAX_ENTRIES = 10_000;
export const DEFAULT_MAX_AGE_HOURS = 24;

/** Delivery ids longer than this are kept as a hash, so one odd id cannot bloat the store. */
const MAX_STORED_ID_LENGTH = 200;

export interface DedupLimits {
	maxEntries: number;
	maxAgeMs: number;
}

/**
 * The form the store takes in the node's static data (`deliveries`), which n8n saves after
 * each webhook call and keeps across restarts. `seen` maps delivery id to the time (ms) it was
 * first accepted; `writer` names the n8n process that wrote it last.
 */
export interface PersistedDeliveries {
	v: 1;
	writer: string;
	seen: Record<string, number>;
}

/**
 * Names this process (this load of the module). A store read back from static data with this
 * name was written by this process, so it holds nothing the in-memory copy does not: it need
 * not be read again. Any other name (an earlier run of n8n, another webhook process in queue
 * mode) makes the trigger merge what it finds.
 */
const PROCESS_TOKEN = randomBytes(8).toString('hex');

/**
 * The recent deliveries of one trigger (one workflow and node) in this process.
 *
 * `seen` maps each id to the time it was accepted; `ids`/`times` (from `head` on) hold the same
 * entries oldest first, so the oldest go first when the store is full or too old, at O(1) per
 * delivery. `seen` is the object placed in the node's static data of every request, so when n8n
 * saves the static data of any request it writes everything this process has accepted up to
 * that moment, not only what that one request saw: concurrent requests of one process cannot
 * erase each other's ids, whatever order their saves reach the database in. Each request gets
 * its own small wrapper object around it, so n8n's change tracking of one request never reaches
 * another.
 */
class DeliveryLog {
	readonly seen = Object.create(null) as Record<string, number>;

	private ids: string[] = [];

	private times: number[] = [];

	private head = 0;

	get size(): number {
		return this.ids.length - this.head;
	}

	has(id: string): boolean {
		return typeof this.seen[id] === 'number';
	}

	add(id: string, at: number): void {
		this.seen[id] = at;
		this.ids.push(id);
		this.times.push(at);
	}

	/** Drops entries older than the age limit and, oldest first, beyond the cap. */
	evict(now: number, limits: DedupLimits): void {
		while (
			this.head < this.ids.length &&
			(this.size > limits.maxEntries || now - this.times[this.head] > limits.maxAgeMs)
		) {
			delete this.seen[this.ids[this.head]];
			this.head += 1;
		}
		if (this.head > 1024 && this.head * 2 > this.ids.length) {
			this.ids = this.ids.slice(this.head);
			this.times = this.times.slice(this.head);
			this.head = 0;
		}
	}

	/** Takes in ids from a store written by another process or an earlier run of n8n. */
	merge(found: IDataObject, now: number, limits: DedupLimits): void {
		const seen = found.seen;
		if (typeof seen !== 'object' || seen === null || seen === this.seen) return;
		const entries: Array<[string, number]> = [];
		for (const id of Object.keys(seen)) {
			const at = (seen as IDataObject)[id];
			if (typeof at === 'number' && now - at <= limits.maxAgeMs && !this.has(id)) {
				entries.push([id, at]);
			}
		}
		if (entries.length === 0) return;
		for (let i = this.head; i < this.ids.length; i++) entries.push([this.ids[i], this.times[i]]);
		entries.sort((a, b) => a[1] - b[1]);
		for (const id of Object.keys(this.seen)) delete this.seen[id];
		this.ids = [];
		this.times = [];
		this.head = 0;
		for (const [id, at] of entries) this.add(id, at);
	}

	persisted(): PersistedDeliveries {
		return { v: 1, writer: PROCESS_TOKEN, seen: this.seen };
	}
}

const logs = new Map<string, DeliveryLog>();

export type DeliveryVerdict = 'new' | 'duplicate';

/** The id as stored: as sent, or a hash when it is very long. */
export function storedId(deliveryId: string): string {
	if (deliveryId.length <= MAX_STORED_ID_LENGTH) return deliveryId;
	return `sha256:${createHash('sha256').update(deliveryId).digest('hex')}`;
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
		log.merge(found as IDataObject, now, limits);
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
