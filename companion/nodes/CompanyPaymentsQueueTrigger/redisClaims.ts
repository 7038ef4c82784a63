import { randomBytes } from 'node:crypto';
import type { RedisOptions } from 'ioredis';
import Redis from 'ioredis';

/**
 * The delivery claim in Redis: of any number of webhook processes that receive the same delivery,
 * exactly one starts it. Every decision is one Lua script, so Redis applies it atomically, and
 * every write compares this attempt's own token first:
 *
 * 1. `claim`: the key is free → it becomes `t:<token>` (tentative) for TENTATIVE_MS; otherwise the
 *    holder's value comes back.
 * 2. `confirm`: only while the key still holds `t:<token>` → `c:<token>` for the Deduplication
 *    Window. Only a confirm whose answer arrived in time starts the execution.
 * 3. `release`: only while the key holds this token (`t:` or `c:`) → deleted. Sent whenever an
 *    attempt gives up after its claim may have reached Redis (an answer late, lost or refused).
 *
 * The two late replies this closes:
 * - a confirm that reaches Redis after the tentative claim expired and another process claimed
 *   the key finds the other token and changes nothing;
 * - a confirm that Redis applied but answered late: this process answers 503 and starts nothing,
 *   and its release, sent on the same connection after the confirm, deletes the key, so the
 *   service's retry at any process claims it and runs it.
 * A release that cannot be sent (connection lost) is kept and sent first on the next connection.
 */

/** How long a claim waits for Redis (connecting, and each command) before it answers 503. */
export const REDIS_TIMEOUT_MS = 2_000;
/** How long a claim stays tentative (not confirmed) before it expires by itself. */
export const TENTATIVE_MS = 1_500;
/** How long a claim waits for another process's tentative claim of the same key to be decided. */
export const WAIT_FOR_OTHER_MS = 500;
/** How long claims wait after Redis came back empty, for every process to write its claims back. */
export const SETTLE_MS = 1_500;
/** How long this process keeps its own confirmed claims in memory (for a Redis that restarts). */
export const RECENT_MS = 10 * 60_000;
const RECENT_MAX = 20_000;
const POLL_MS = 20;

/** Names every key of this package in a shared Redis (n8n's own keys start with `bull:`). */
export const KEY_PREFIX = 'n8n-nodes-company-payments:delivery';
const EPOCH_KEY = `${KEY_PREFIX}:epoch`;
const SETTLING_KEY = `${KEY_PREFIX}:epoch-settling`;

const CONFIRMED = 'c:';

const CLAIM_SCRIPT = `
local held = redis.call('GET', KEYS[1])
if held then return held end
redis.call('SET', KEYS[1], 't:' .. ARGV[1], 'PX', ARGV[2])
return 'claimed'`;

const CONFIRM_SCRIPT = `
if redis.call('GET', KEYS[1]) == 't:' .. ARGV[1] then
  redis.call('SET', KEYS[1], 'c:' .. ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0`;

const RELEASE_SCRIPT = `
local held = redis.call('GET', KEYS[1])
if held == 't:' .. ARGV[1] or held == 'c:' .. ARGV[1] then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0`;

/** KEYS: epoch, settling. ARGV: a new epoch, SETTLE_MS. Returns [epoch, created, settling ms]. */
const EPOCH_SCRIPT = `
local created = redis.call('SET', KEYS[1], ARGV[1], 'NX')
if created then redis.call('SET', KEYS[2], '1', 'PX', ARGV[2]) end
return { redis.call('GET', KEYS[1]), created and 1 or 0, redis.call('PTTL', KEYS[2]) }`;

/** KEYS: the key. ARGV: the confirmed value, its remaining time to live. Never overwrites. */
const RESEED_SCRIPT = `return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) and 1 or 0`;

interface ClaimCommands {
	cpClaim(key: string, token: string, tentativeMs: number): Promise<string>;
	cpConfirm(key: string, token: string, ttlMs: number): Promise<number>;
	cpRelease(key: string, token: string): Promise<number>;
	cpEpoch(
		epochKey: string,
		settlingKey: string,
		fresh: string,
		settleMs: number,
	): Promise<[string, number, number]>;
	cpReseed(key: string, value: string, ttlMs: number): Promise<number>;
}
type ClaimClient = Redis & ClaimCommands;

export type ClaimVerdict =
	| { verdict: 'claimed' }
	| { verdict: 'duplicate'; by: 'redis' | 'memory' }
	| { verdict: 'unavailable'; reason: string };

interface Recent {
	token: string;
	/** Until when this process keeps it (ms). */
	expires: number;
	/** When its time to live in Redis ends (ms). */
	ttlEnds: number;
}

function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Resolves with the promise, or rejects after ms. */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
	let timer: NodeJS.Timeout | undefined;
	try {
		return await Promise.race([
			promise,
			new Promise<never>((_, reject) => {
				timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
			}),
		]);
	} finally {
		if (timer) clearTimeout(timer);
	}
}

/** The claims of one process in one Redis (one connection). */
export class RedisClaims {
	readonly client: ClaimClient;

	/** The epoch this process last saw in this Redis. */
	private epoch: string | undefined;

	/** Settles when the current connection is checked (epoch read, claims written back). */
	private checked: Promise<void> | undefined;

	private readonly recent = new Map<string, Recent>();

	/** Claims this process gave up whose release has not been confirmed by Redis. */
	private readonly abandoned = new Map<string, string>();

	constructor(options: RedisOptions, readonly timeoutMs = REDIS_TIMEOUT_MS) {
		const client = new Redis({
			lazyConnect: true,
			connectTimeout: timeoutMs,
			commandTimeout: timeoutMs,
			// Nothing waits for a connection: a claim that cannot be sent is answered 503 at once.
			enableOfflineQueue: false,
			// A command written on a lost connection is not sent again on the next one: after a
			// confirm the attempt may already have answered 503 (its release is sent instead).
			autoResendUnfulfilledCommands: false,
			maxRetriesPerRequest: 0,
			retryStrategy: (times: number) => Math.min(times * 100, 1_000),
			...options,
		});
		client.defineCommand('cpClaim', { numberOfKeys: 1, lua: CLAIM_SCRIPT });
		client.defineCommand('cpConfirm', { numberOfKeys: 1, lua: CONFIRM_SCRIPT });
		client.defineCommand('cpRelease', { numberOfKeys: 1, lua: RELEASE_SCRIPT });
		client.defineCommand('cpEpoch', { numberOfKeys: 2, lua: EPOCH_SCRIPT });
		client.defineCommand('cpReseed', { numberOfKeys: 1, lua: RESEED_SCRIPT });
		// Errors are answered per claim (503); the client reconnects by itself.
		client.on('error', () => undefined);
		client.on('ready', () => {
			const check = this.onConnect();
			check.catch(() => undefined);
			this.checked = check;
		});
		client.on('close', () => {
			this.checked = undefined;
		});
		this.client = client as ClaimClient;
	}

	close(): void {
		this.client.disconnect();
	}

	/** Waits until the connection is up and checked; the reason when it is not within the timeout. */
	private async unusable(): Promise<string | undefined> {
		if (this.client.status === 'wait') this.client.connect().catch(() => undefined);
		const deadline = Date.now() + this.timeoutMs;
		while (this.client.status !== 'ready') {
			if (Date.now() >= deadline || this.client.status === 'end') {
				return `Redis not connected (${this.client.status}) within ${this.timeoutMs} ms`;
			}
			await sleep(POLL_MS);
		}
		this.checked ??= this.onConnect();
		const check = this.checked;
		try {
			await within(check, Math.max(1, deadline - Date.now()) + SETTLE_MS, 'Redis check');
			return undefined;
		} catch (error) {
			if (this.checked === check) this.checked = undefined;
			return (error as Error).message;
		}
	}

	/**
	 * On every new connection: send the releases still owed; learn the epoch. When it changed
	 * (or was just created while this process holds claims), Redis lost its keys: write the
	 * confirmed claims back. While the epoch is young, wait until it is SETTLE_MS old, so every
	 * other process has written its claims back too.
	 */
	private async onConnect(): Promise<void> {
		await Promise.all(
			[...this.abandoned].map(async ([key, token]) => {
				await this.client.cpRelease(key, token);
				if (this.abandoned.get(key) === token) this.abandoned.delete(key);
			}),
		);
		const fresh = `${Date.now().toString(36)}:${randomBytes(6).toString('hex')}`;
		const [epoch, created, settling] = await this.client.cpEpoch(
			EPOCH_KEY,
			SETTLING_KEY,
			fresh,
			SETTLE_MS,
		);
		const now = Date.now();
		const lost =
			(this.epoch !== undefined && this.epoch !== epoch) ||
			(this.epoch === undefined && created === 1 && this.recent.size > 0);
		this.epoch = epoch;
		if (lost) {
			const writes: Array<Promise<number>> = [];
			for (const [key, entry] of this.recent) {
				const ttl = entry.ttlEnds - now;
				if (entry.expires > now && ttl > 0) {
					writes.push(this.client.cpReseed(key, `${CONFIRMED}${entry.token}`, ttl));
				}
			}
			await Promise.all(writes);
		}
		if (settling > 0) await sleep(settling);
	}

	private remember(key: string, token: string, now: number, ttlMs: number): void {
		this.recent.delete(key);
		this.recent.set(key, {
			token,
			expires: now + Math.min(RECENT_MS, ttlMs),
			ttlEnds: now + ttlMs,
		});
		if (this.recent.size > RECENT_MAX) {
			const oldest = this.recent.keys().next().value;
			if (oldest !== undefined) this.recent.delete(oldest);
		}
	}

	/** Gives a claim up: its release is sent now, and again on the next connection if need be. */
	private giveUp(key: string, token: string): void {
		this.abandoned.set(key, token);
		this.client.cpRelease(key, token).then(
			() => {
				if (this.abandoned.get(key) === token) this.abandoned.delete(key);
			},
			() => undefined,
		);
	}

	/**
	 * Claims one delivery key for `ttlMs`: exactly one of any number of concurrent claims of the
	 * same key, from any process, gets `claimed`. Whatever Redis does not answer in time is
	 * `unavailable` (the trigger answers 503, starts nothing, and the service retries).
	 */
	async claim(key: string, ttlMs: number, now = Date.now()): Promise<ClaimVerdict> {
		const mine = this.recent.get(key);
		if (mine !== undefined && mine.expires > now) return { verdict: 'duplicate', by: 'memory' };
		const unusable = await this.unusable();
		if (unusable !== undefined) return { verdict: 'unavailable', reason: unusable };
		const token = randomBytes(9).toString('base64');
		const ttl = Math.max(1, Math.round(ttlMs));
		const deadline = Date.now() + WAIT_FOR_OTHER_MS;
		for (;;) {
			let held: string;
			try {
				held = await this.client.cpClaim(key, token, TENTATIVE_MS);
			} catch (error) {
				this.giveUp(key, token); // it may have reached Redis
				return { verdict: 'unavailable', reason: (error as Error).message };
			}
			if (held === 'claimed') return await this.confirm(key, token, ttl, now);
			const heldToken = held.slice(2);
			if (this.abandoned.get(key) === heldToken) {
				// Our own earlier attempt, given up: release it now and claim again.
				try {
					if ((await this.client.cpRelease(key, heldToken)) === 1) this.abandoned.delete(key);
				} catch (error) {
					return { verdict: 'unavailable', reason: (error as Error).message };
				}
				continue;
			}
			if (held.startsWith(CONFIRMED)) return { verdict: 'duplicate', by: 'redis' };
			// Another attempt holds it tentatively: wait for its confirm or its release.
			if (Date.now() >= deadline) {
				return {
					verdict: 'unavailable',
					reason: 'another attempt of this delivery holds an unconfirmed claim',
				};
			}
			await sleep(POLL_MS);
		}
	}

	private async confirm(key: string, token: string, ttl: number, now: number): Promise<ClaimVerdict> {
		let confirmed: number;
		try {
			confirmed = await this.client.cpConfirm(key, token, ttl);
		} catch (error) {
			// Maybe applied, answered late or never: release it, so a retry anywhere can claim it.
			this.giveUp(key, token);
			return { verdict: 'unavailable', reason: (error as Error).message };
		}
		if (confirmed !== 1) {
			return {
				verdict: 'unavailable',
				reason: 'the tentative claim expired before it was confirmed',
			};
		}
		this.remember(key, token, now, ttl);
		return { verdict: 'claimed' };
	}
}
