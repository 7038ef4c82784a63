import { randomBytes } from 'node:crypto';
import type { IWebhookFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';
import { gateLogger } from '../../shared/gate';
import { storedId } from '../deliveries';

import type { RedisSettings, RespValue, SocketFactory } from './resp';
import { RedisClient, RedisReplyError, RedisUnavailableError } from './resp';

/**
 * Where the trigger records the delivery IDs it has accepted.
 * - `auto`: n8n's own Redis in queue mode (EXECUTIONS_MODE=queue), the Redis URL option when
 *   set, else the workflow's static data;
 * - `redis`: always Redis (the Redis URL option, else queue mode's settings); never falls back;
 * - `staticData`: always the workflow's static data (one process; not atomic across processes).
 */
export type DeliveryStoreChoice = 'auto' | 'redis' | 'staticData';

/** How long a claim may wait for Redis (connecting and the reply) before the delivery gets 503. */
export const REDIS_TIMEOUT_MS = 2_000;

/** Names every key of this package in a shared Redis (n8n's own keys start with `bull:`). */
const KEY_PREFIX = 'n8n-nodes-company-payments:delivery';

/** What the trigger read about its process's queue mode and Redis. */
export type RedisSource =
	| { kind: 'redis'; settings: RedisSettings; from: string }
	| { kind: 'none'; why: string }
	/** A Redis is wanted but cannot be used as configured (the reason is for the log and the docs). */
	| { kind: 'refused'; why: string };

/** The variables of n8n's queue mode this module reads (n8n's names; see docs/queue-mode.md). */
export interface QueueEnvironment {
	EXECUTIONS_MODE?: string;
	QUEUE_BULL_REDIS_HOST?: string;
	QUEUE_BULL_REDIS_PORT?: string;
	QUEUE_BULL_REDIS_USERNAME?: string;
	QUEUE_BULL_REDIS_PASSWORD?: string;
	QUEUE_BULL_REDIS_PASSWORD_FILE?: string;
	QUEUE_BULL_REDIS_DB?: string;
	QUEUE_BULL_REDIS_TLS?: string;
	QUEUE_BULL_REDIS_CLUSTER_NODES?: string;
}

const ENV_NAMES: Array<keyof QueueEnvironment> = [
	'EXECUTIONS_MODE',
	'QUEUE_BULL_REDIS_HOST',
	'QUEUE_BULL_REDIS_PORT',
	'QUEUE_BULL_REDIS_USERNAME',
	'QUEUE_BULL_REDIS_PASSWORD',
	'QUEUE_BULL_REDIS_PASSWORD_FILE',
	'QUEUE_BULL_REDIS_DB',
	'QUEUE_BULL_REDIS_TLS',
	'QUEUE_BULL_REDIS_CLUSTER_NODES',
];

/**
 * One expression that reads the queue-mode variables through n8n's `$env`, the way n8n lets a
 * node read the environment (the package's code may not touch `process`). n8n refuses it when
 * the instance blocks environment access in nodes (N8N_BLOCK_ENV_ACCESS_IN_NODE=true, the
 * default from n8n 2.0): then the trigger cannot tell queue mode by itself. Written without the
 * leading `=` of a parameter expression: `evaluateExpression` adds it.
 */
const ENV_EXPRESSION = `{{ JSON.stringify({ ${ENV_NAMES.map((name) => `${name}: $env.${name}`).join(', ')} }) }}`;

/** The environment as n8n gave it, or why it could not; read once per process. */
let environment: { env: QueueEnvironment } | { blocked: string } | undefined;

/** Forgets what was read (tests). */
export function resetDeliveryStores(): void {
	environment = undefined;
	for (const store of stores.values()) store.client.close();
	stores.clear();
	recent.clear();
	warned.clear();
}

/** What the trigger needs of n8n's context to read the environment (webhook and hook contexts). */
interface ExpressionContext {
	evaluateExpression?: (expression: string, itemIndex: number) => unknown;
}

function readEnvironment(ctx: ExpressionContext): { env: QueueEnvironment } | { blocked: string } {
	if (environment) return environment;
	if (typeof ctx.evaluateExpression !== 'function') {
		return { blocked: 'this n8n gives the node no expression evaluation' };
	}
	let text: unknown;
	try {
		text = ctx.evaluateExpression(ENV_EXPRESSION, 0);
	} catch (error) {
		environment = {
			blocked: `n8n refused to read its environment (${(error as Error).message}); N8N_BLOCK_ENV_ACCESS_IN_NODE=true blocks it`,
		};
		return environment;
	}
	try {
		const parsed = JSON.parse(String(text)) as Record<string, unknown>;
		const env: QueueEnvironment = {};
		for (const name of ENV_NAMES) {
			const value = parsed[name];
			if (typeof value === 'string' && value !== '') env[name] = value;
		}
		environment = { env };
	} catch {
		environment = {
			blocked: `n8n's answer for its environment was not readable (${String(text).slice(0, 40)}…)`,
		};
	}
	return environment;
}

function truthy(value: string | undefined): boolean {
	return value !== undefined && /^(true|1|yes)$/i.test(value.trim());
}

/** Redis settings from n8n's queue-mode variables (pure). */
export function queueRedisSource(env: QueueEnvironment): RedisSource {
	if (env.QUEUE_BULL_REDIS_CLUSTER_NODES) {
		return {
			kind: 'refused',
			why: 'n8n uses a Redis cluster (QUEUE_BULL_REDIS_CLUSTER_NODES); the delivery store supports a single Redis only: set the trigger option "Redis URL" to a single Redis (a cluster node is not enough: its MOVED answers are refused)',
		};
	}
	if (truthy(env.QUEUE_BULL_REDIS_TLS)) {
		return {
			kind: 'refused',
			why: "n8n connects to its Redis with TLS (QUEUE_BULL_REDIS_TLS); the delivery store speaks plain TCP only: set the trigger option \"Redis URL\" to a Redis reachable without TLS (e.g. on the webhook process's private network), or Delivery Store to 'Workflow Static Data'",
		};
	}
	if (env.QUEUE_BULL_REDIS_PASSWORD_FILE && !env.QUEUE_BULL_REDIS_PASSWORD) {
		return {
			kind: 'refused',
			why: 'the Redis password is given as a file (QUEUE_BULL_REDIS_PASSWORD_FILE), which a community node cannot read: set QUEUE_BULL_REDIS_PASSWORD as well, or the trigger option "Redis URL"',
		};
	}
	const port = Number(env.QUEUE_BULL_REDIS_PORT ?? '6379');
	const db = Number(env.QUEUE_BULL_REDIS_DB ?? '0');
	if (!Number.isInteger(port) || port <= 0 || !Number.isInteger(db) || db < 0) {
		return { kind: 'refused', why: 'QUEUE_BULL_REDIS_PORT or QUEUE_BULL_REDIS_DB is not a number' };
	}
	return {
		kind: 'redis',
		from: 'queue mode (QUEUE_BULL_REDIS_*)',
		settings: {
			host: env.QUEUE_BULL_REDIS_HOST ?? 'localhost',
			port,
			username: env.QUEUE_BULL_REDIS_USERNAME,
			password: env.QUEUE_BULL_REDIS_PASSWORD,
			db,
			timeoutMs: REDIS_TIMEOUT_MS,
		},
	};
}

/** Settings from the Redis URL option: `redis://[user[:password]@]host[:port][/db]` (pure). */
export function urlRedisSource(text: string): RedisSource {
	let url: URL;
	try {
		url = new URL(text.trim());
	} catch {
		return { kind: 'refused', why: 'the Redis URL option is not a URL (redis://host:port/db)' };
	}
	if (url.protocol === 'rediss:') {
		return {
			kind: 'refused',
			why: 'the Redis URL asks for TLS (rediss://); the delivery store speaks plain TCP only',
		};
	}
	if (url.protocol !== 'redis:') {
		return { kind: 'refused', why: 'the Redis URL must start with redis://' };
	}
	const db = url.pathname.replace(/^\//, '');
	const index = db === '' ? 0 : Number(db);
	const port = url.port === '' ? 6379 : Number(url.port);
	if (!Number.isInteger(index) || index < 0) {
		return { kind: 'refused', why: 'the database in the Redis URL is not a number' };
	}
	return {
		kind: 'redis',
		from: 'the Redis URL option',
		settings: {
			host: url.hostname.replace(/^\[|\]$/g, ''),
			port,
			username: url.username ? decodeURIComponent(url.username) : undefined,
			password: url.password ? decodeURIComponent(url.password) : undefined,
			db: index,
			timeoutMs: REDIS_TIMEOUT_MS,
		},
	};
}

/** Which store a delivery of this trigger goes to (reads the environment once per process). */
export function redisSourceFor(
	ctx: ExpressionContext,
	choice: DeliveryStoreChoice,
	redisUrl: string | undefined,
): RedisSource {
	if (choice === 'staticData')
		return { kind: 'none', why: 'Delivery Store is Workflow Static Data' };
	if (redisUrl !== undefined && redisUrl.trim() !== '') return urlRedisSource(redisUrl);
	const read = readEnvironment(ctx);
	if ('blocked' in read) {
		return choice === 'redis'
			? {
					kind: 'refused',
					why: `Delivery Store is Redis but ${read.blocked}; set the Redis URL option`,
				}
			: { kind: 'none', why: read.blocked };
	}
	if (choice === 'redis' || read.env.EXECUTIONS_MODE === 'queue') {
		return queueRedisSource(read.env);
	}
	return { kind: 'none', why: 'n8n does not run in queue mode' };
}

// ---------------------------------------------------------------------------------------------
// The socket
// ---------------------------------------------------------------------------------------------

type SocketClass = new () => {
	connect(port: number, host: string): unknown;
};

/**
 * The package may not import `node:net` (n8n's community-node rules allow `node:crypto` only),
 * so the client opens its connection with the socket class of the connection n8n's own HTTP
 * server handed this request: `net.Socket`, the class whose instance `getRequestObject().socket`
 * is (or its base class, for a TLS request). undefined when the request carries no socket.
 */
export function socketFactoryOf(ctx: IWebhookFunctions): SocketFactory | undefined {
	const socket = (ctx.getRequestObject() as unknown as { socket?: object }).socket;
	if (typeof socket !== 'object' || socket === null) return undefined;
	let proto: object | null = Object.getPrototypeOf(socket) as object | null;
	while (proto !== null) {
		const ctor = (proto as { constructor?: { name?: string } }).constructor;
		if (ctor?.name === 'Socket' && typeof (proto as { connect?: unknown }).connect === 'function') {
			const Socket = ctor as unknown as SocketClass;
			return () => new Socket() as unknown as ReturnType<SocketFactory>;
		}
		proto = Object.getPrototypeOf(proto) as object | null;
	}
	return undefined;
}

// ---------------------------------------------------------------------------------------------
// Claims
// ---------------------------------------------------------------------------------------------

/**
 * Names the data a Redis holds: created once (SET NX) by the first client that finds it missing.
 * A different or missing value on a new connection means Redis lost its keys since this process
 * last saw it (a restart without persistence, a flush, a failover to an empty replica).
 */
const EPOCH_KEY = `${KEY_PREFIX}:epoch`;
/** Lives SETTLE_MS from a new epoch: while it does, claims wait for every process to re-seed. */
const SETTLING_KEY = `${KEY_PREFIX}:epoch-settling`;
/**
 * How long claims wait after Redis came back empty: every webhook process that lost its
 * connection reconnects (every RECONNECT_MS) and writes back its recent claims within this time.
 */
export const SETTLE_MS = 1_500;
const RECONNECT_MS = 200;

interface Store {
	client: RedisClient;
	/** The epoch this process last saw in this Redis. */
	epoch: string | undefined;
	reconnecting: boolean;
}

const stores = new Map<string, Store>();

/**
 * Keys this process claimed recently. A retry that reaches the process that accepted the
 * delivery is answered from here without asking Redis. When Redis comes back empty, every process
 * writes its own entries back (see `reseed`), so a retry at any process is still caught.
 * `unconfirmed`: the SET was written but its answer never came back; a retry at this process that
 * finds its own token in Redis takes the claim over.
 */
interface Recent {
	store: string;
	token: string;
	/** Until when this process keeps it (ms). */
	expires: number;
	/** When the claim's time to live in Redis ends (ms). */
	ttlEnds: number;
	unconfirmed: boolean;
}
const recent = new Map<string, Recent>();
/** Bound on `recent`: the oldest entries go first. */
const RECENT_MAX = 20_000;
/** How long this process keeps its own claims in memory: the service's retries plus a margin. */
export const RECENT_MS = 10 * 60_000;

function remember(
	storeKey: string,
	key: string,
	token: string,
	now: number,
	ttlMs: number,
	unconfirmed: boolean,
): void {
	recent.delete(key);
	recent.set(key, {
		store: storeKey,
		token,
		expires: now + Math.min(RECENT_MS, ttlMs),
		ttlEnds: now + ttlMs,
		unconfirmed,
	});
	if (recent.size > RECENT_MAX) {
		const oldest = recent.keys().next().value;
		if (oldest !== undefined) recent.delete(oldest);
	}
}

function hasRecent(storeKey: string, now: number): boolean {
	for (const entry of recent.values()) {
		if (entry.store === storeKey && entry.expires > now) return true;
	}
	return false;
}

/** Writes this process's recent claims back into a Redis that lost them (SET NX: never overwrites). */
async function reseed(
	storeKey: string,
	send: (args: ReadonlyArray<string | number>) => Promise<RespValue>,
	now: number,
): Promise<void> {
	const writes: Array<Promise<RespValue>> = [];
	for (const [key, entry] of recent) {
		if (entry.store !== storeKey || entry.expires <= now || entry.unconfirmed) continue;
		const ttl = entry.ttlEnds - now;
		if (ttl > 0) writes.push(send(['SET', key, `${CONFIRMED}${entry.token}`, 'NX', 'PX', ttl]));
	}
	await Promise.all(writes);
}

/**
 * On every new connection: learn the Redis's epoch. When it changed (or was just created while
 * this process holds claims), Redis lost its keys: write ours back. While the epoch is young,
 * wait until it is SETTLE_MS old, so that every other process has written its claims back too.
 */
async function onConnect(
	storeKey: string,
	store: Store,
	send: (args: ReadonlyArray<string | number>) => Promise<RespValue>,
): Promise<void> {
	const fresh = `${Date.now().toString(36)}:${randomBytes(6).toString('hex')}`;
	const created = await send(['SET', EPOCH_KEY, fresh, 'NX']);
	if (created === 'OK') await send(['SET', SETTLING_KEY, '1', 'PX', SETTLE_MS]);
	const current = created === 'OK' ? fresh : await send(['GET', EPOCH_KEY]);
	const epoch = typeof current === 'string' ? current : fresh;
	const lost =
		(store.epoch !== undefined && store.epoch !== epoch) ||
		(store.epoch === undefined && created === 'OK' && hasRecent(storeKey, Date.now()));
	store.epoch = epoch;
	if (lost) await reseed(storeKey, send, Date.now());
	const settling = await send(['PTTL', SETTLING_KEY]);
	if (typeof settling === 'number' && settling > 0) await sleep(settling);
}

/** After a lost connection, reconnect in the background while this process holds claims. */
async function keepConnected(storeKey: string, store: Store): Promise<void> {
	if (store.reconnecting) return;
	store.reconnecting = true;
	try {
		while (hasRecent(storeKey, Date.now())) {
			try {
				await store.client.command(['PING']);
				return;
			} catch {
				await sleep(RECONNECT_MS);
			}
		}
	} finally {
		store.reconnecting = false;
	}
}

function storeFor(settings: RedisSettings, newSocket: SocketFactory): [string, Store] {
	const storeKey = JSON.stringify([
		settings.host,
		settings.port,
		settings.username,
		settings.password,
		settings.db,
	]);
	let store = stores.get(storeKey);
	if (!store) {
		const made: Store = {
			epoch: undefined,
			reconnecting: false,
			client: new RedisClient(settings, newSocket, {
				onConnect: async (send) => await onConnect(storeKey, made, send),
				onDisconnect: () => void keepConnected(storeKey, made),
			}),
		};
		stores.set(storeKey, made);
		store = made;
	}
	return [storeKey, store];
}

export type ClaimVerdict =
	| { verdict: 'claimed' }
	| { verdict: 'duplicate'; by: 'redis' | 'memory' }
	| { verdict: 'unavailable'; reason: string };

/** The Redis key of one delivery of one trigger in one n8n instance. */
export function claimKey(
	instanceId: string,
	workflowId: string,
	nodeId: string,
	live: boolean,
	deliveryId: string,
): string {
	// The one identity function (deliveries.ts storedId), scoped to the instance, workflow, node
	// and live or test: one Redis serves every trigger of every workflow.
	const scope = [instanceId, workflowId, nodeId, live ? 'live' : 'test'];
	return `${KEY_PREFIX}:${storedId(deliveryId, scope)}`;
}

function describe(error: unknown): string {
	if (error instanceof RedisReplyError) {
		if (error.code === 'MOVED' || error.code === 'ASK') {
			return `Redis is a cluster and this key lives on another node (${error.message}); the delivery store supports a single Redis only`;
		}
		return `Redis refused: ${error.message}`;
	}
	return (error as Error).message;
}

/**
 * How long a claim is tentative: written (SET NX) but not yet confirmed. A tentative claim that
 * its writer never confirms (it timed out, or died) expires by itself after this, so a SET that
 * reached a slow Redis after its writer had answered 503 cannot shut out the service's retries
 * (1, 2 and 4 s apart) for longer than this.
 */
export const TENTATIVE_MS = 1_500;
/** How long a claim waits for another process's tentative claim of the same key to be decided. */
export const WAIT_FOR_OTHER_MS = 500;
const POLL_MS = 20;

const TENTATIVE = 't:';
const CONFIRMED = 'c:';

/**
 * Claims one delivery: exactly one of any number of concurrent claims of the same key, from any
 * process, wins.
 *
 * 1. `SET key t:<token> NX PX 1500` (atomic): a tentative claim.
 * 2. `SET key c:<token> XX PX <ttl>`: confirmed for the Deduplication Window; only then does the
 *    trigger answer 200 and start the execution.
 *
 * A key held confirmed by someone else is a duplicate. A key held tentatively by someone else is
 * waited for (up to 0.5 s): confirmed, a duplicate; gone, claimed again; still tentative, 503.
 * A SET whose answer never came (Redis went silent after it was written) is read back on a new
 * connection: our token means the claim is ours. Whatever Redis cannot answer in time is
 * `unavailable` (the caller answers 503, starts nothing, and the service retries).
 */
export async function claimDelivery(
	settings: RedisSettings,
	newSocket: SocketFactory,
	key: string,
	ttlMs: number,
	now: number,
): Promise<ClaimVerdict> {
	const mine = recent.get(key);
	if (mine !== undefined && mine.expires > now && !mine.unconfirmed) {
		return { verdict: 'duplicate', by: 'memory' };
	}
	const [storeKey, store] = storeFor(settings, newSocket);
	const client = store.client;
	const token = mine?.unconfirmed ? mine.token : randomBytes(9).toString('base64');
	const ttl = Math.max(1, Math.round(ttlMs));
	const tentative = ['SET', key, `${TENTATIVE}${token}`, 'NX', 'PX', TENTATIVE_MS];

	const confirm = async (): Promise<ClaimVerdict> => {
		let done: unknown;
		try {
			done = await client.command(['SET', key, `${CONFIRMED}${token}`, 'XX', 'PX', ttl]);
		} catch (error) {
			// Unconfirmed: the tentative claim expires by itself; a retry here may take it over.
			remember(storeKey, key, token, now, TENTATIVE_MS, true);
			return { verdict: 'unavailable', reason: describe(error) };
		}
		if (done !== 'OK') {
			return {
				verdict: 'unavailable',
				reason: 'the tentative claim expired before it was confirmed',
			};
		}
		remember(storeKey, key, token, now, ttl, false);
		return { verdict: 'claimed' };
	};

	let reply: unknown;
	try {
		reply = await client.command(tentative);
	} catch (error) {
		if (!(error instanceof RedisUnavailableError) || !error.maybeApplied) {
			return { verdict: 'unavailable', reason: describe(error) };
		}
		remember(storeKey, key, token, now, TENTATIVE_MS, true);
		reply = undefined;
	}
	if (reply === 'OK') return await confirm();

	// The key exists (reply null), or the SET's outcome is unknown: who holds it?
	const deadline = Date.now() + WAIT_FOR_OTHER_MS;
	for (;;) {
		let holder: unknown;
		try {
			holder = await client.command(['GET', key]);
			if (holder === null) {
				// Gone (expired, or our SET never landed): claim again.
				if ((await client.command(tentative)) === 'OK') return await confirm();
				holder = await client.command(['GET', key]);
			}
		} catch (error) {
			return { verdict: 'unavailable', reason: describe(error) };
		}
		if (holder === `${TENTATIVE}${token}` || holder === `${CONFIRMED}${token}`) {
			// Ours: written by an earlier attempt of this process whose answer was lost.
			return await confirm();
		}
		if (typeof holder === 'string' && holder.startsWith(TENTATIVE)) {
			if (Date.now() < deadline) {
				await sleep(POLL_MS);
				continue;
			}
			return {
				verdict: 'unavailable',
				reason: 'another attempt of this delivery holds an unconfirmed claim',
			};
		}
		if (holder === null) {
			return { verdict: 'unavailable', reason: 'the claim vanished while it was being read' };
		}
		recent.delete(key);
		return { verdict: 'duplicate', by: 'redis' };
	}
}

/** Log lines said once per process (key → said). */
const warned = new Set<string>();

/** Logs a line once per process for this key, e.g. which store the trigger uses and why. */
export function logOnce(
	ctx: IWebhookFunctions,
	key: string,
	message: string,
	level: 'info' | 'warn' = 'warn',
): void {
	if (warned.has(key)) return;
	warned.add(key);
	gateLogger(ctx)[level](message);
}
