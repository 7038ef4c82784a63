import type { CredentialSecrets, RotatedSecret } from './signature';

/**
 * The webhook secrets of the credential, kept in memory between deliveries.
 *
 * Why: on n8n 2.41 every credential read costs an expression sandbox (about 10 ms of the main
 * thread, in n8n's credentials helper), which was a third of a delivery's cost. The rules, each
 * tested in test/unit/trigger-secret-cache.test.ts:
 * - A read is reused for at most SECRET_MAX_AGE_MS. A secret changed or removed in the credential
 *   is therefore accepted at most that long after the change (docs/webhook-trigger.md promises
 *   this bound), in each n8n process.
 * - A delivery that fails to verify with secrets older than REREAD_MIN_INTERVAL_MS reads the
 *   credential again and is verified once more, so a secret newly typed into the credential works
 *   at once. At most one such read per REREAD_MIN_INTERVAL_MS per trigger: forged deliveries
 *   cannot force a read per request.
 * - Concurrent deliveries that need a read share one.
 * - A failed read (e.g. a deleted credential) is not kept: the next delivery reads again.
 * The key names the workflow, the node and the credential, so a value is only ever reused by the
 * trigger that read it, with the credential it read.
 */
export const SECRET_MAX_AGE_MS = 10_000;
export const REREAD_MIN_INTERVAL_MS = 2_000;
/** More triggers than this in one process: the oldest entries are dropped (and read again). */
export const MAX_CACHED_TRIGGERS = 1_000;

interface Entry {
	secrets: CredentialSecrets;
	readAt: number;
}

export type SecretReader = () => Promise<CredentialSecrets | undefined>;

export interface CachedSecrets {
	secrets: CredentialSecrets | undefined;
	/** Whether this came from the credential just now (a re-read cannot give anything newer). */
	fresh: boolean;
}

export class SecretCache {
	private readonly entries = new Map<string, Entry>();

	private readonly pending = new Map<string, Promise<CredentialSecrets | undefined>>();

	private readonly lastReread = new Map<string, number>();

	constructor(
		private readonly maxAgeMs = SECRET_MAX_AGE_MS,
		private readonly rereadIntervalMs = REREAD_MIN_INTERVAL_MS,
		private readonly maxEntries = MAX_CACHED_TRIGGERS,
	) {}

	/** The secrets to verify with: the kept ones while younger than the bound, else a new read. */
	async get(key: string, now: number, read: SecretReader): Promise<CachedSecrets> {
		const entry = this.entries.get(key);
		if (entry && now >= entry.readAt && now - entry.readAt < this.maxAgeMs) {
			return { secrets: entry.secrets, fresh: false };
		}
		return { secrets: await this.read(key, now, read), fresh: true };
	}

	/**
	 * After a delivery failed to verify with kept secrets: a new read, unless this trigger read
	 * again less than the interval ago (then undefined: the delivery is refused as it stands).
	 */
	async reread(key: string, now: number, read: SecretReader): Promise<CachedSecrets | undefined> {
		const last = this.lastReread.get(key);
		if (last !== undefined && now >= last && now - last < this.rereadIntervalMs) return undefined;
		this.lastReread.set(key, now);
		return { secrets: await this.read(key, now, read), fresh: true };
	}

	/** Forgets everything (tests). */
	clear(): void {
		this.entries.clear();
		this.pending.clear();
		this.lastReread.clear();
	}

	private async read(key: string, now: number, read: SecretReader) {
		const inFlight = this.pending.get(key);
		if (inFlight) return await inFlight;
		const promise = read();
		this.pending.set(key, promise);
		try {
			const secrets = await promise;
			if (secrets) this.remember(key, { secrets, readAt: now });
			else this.entries.delete(key);
			return secrets;
		} finally {
			this.pending.delete(key);
		}
	}

	private remember(key: string, entry: Entry): void {
		this.entries.delete(key);
		this.entries.set(key, entry);
		while (this.entries.size > this.maxEntries) {
			const oldest = this.entries.keys().next().value as string;
			this.entries.delete(oldest);
			this.lastReread.delete(oldest);
		}
		if (this.lastReread.size > this.maxEntries) this.lastReread.clear();
	}
}

/** The one cache of this n8n process (module state: each process, e.g. each webhook process in queue mode, has its own). */
export const secretCache = new SecretCache();

/**
 * The rotated secrets this process has opened, by workflow, node, n8n credential and Base URL
 * (never by API key): when the company's API key is regenerated and the new key put into the
 * credential, the static data's API-key seal no longer opens, but the trigger still knows the
 * secret it rotated and seals it again with the new key (receive.ts). Bounded like the cache.
 */
export class OpenedRotated {
	private readonly entries = new Map<string, RotatedSecret>();

	constructor(private readonly maxEntries = MAX_CACHED_TRIGGERS) {}

	get(key: string): RotatedSecret | undefined {
		return this.entries.get(key);
	}

	set(key: string, opened: RotatedSecret): void {
		this.entries.delete(key);
		this.entries.set(key, opened);
		while (this.entries.size > this.maxEntries) {
			this.entries.delete(this.entries.keys().next().value as string);
		}
	}

	delete(key: string): void {
		this.entries.delete(key);
	}

	clear(): void {
		this.entries.clear();
	}
}

export const openedRotated = new OpenedRotated();

/** Which trigger, n8n credential and Base URL an opened rotated secret belongs to. */
export function rotatedKey(
	workflowId: string | undefined,
	nodeId: string,
	credential: { id?: string | null; name?: string } | undefined,
	baseUrl: string | undefined,
): string {
	return [workflowId ?? '', nodeId, credential?.id ?? credential?.name ?? '', baseUrl ?? ''].join('\n');
}
