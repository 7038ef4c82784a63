/**
 * The trigger's RESP client and delivery claims against a real redis-server (started on
 * 127.0.0.1 on a free port and stopped by its PID, see helpers/redisServer.js), plus scripted
 * servers for what one local Redis does not do (stay silent, answer MOVED).
 */
import {
	claimDelivery,
	claimKey,
	queueRedisSource,
	resetDeliveryStores,
	TENTATIVE_MS,
	urlRedisSource,
} from '../../nodes/CompanyPaymentsTrigger/redis/claims';
import type { RedisSettings, RespValue } from '../../nodes/CompanyPaymentsTrigger/redis/resp';
import {
	encodeCommand,
	RedisClient,
	RedisReplyError,
	RedisUnavailableError,
	RespReader,
} from '../../nodes/CompanyPaymentsTrigger/redis/resp';
import { createHookContext, deliver, freshNodeId, runHook, runHookError } from './helpers/trigger';
import {
	closedPort,
	newSocket,
	pidIsAlive,
	pause,
	startRedisServer,
	startReplyDroppingProxy,
	startScriptedServer,
} from './helpers/redisServer';

type Server = Awaited<ReturnType<typeof startRedisServer>>;

const settings = (port: number, extra: Partial<RedisSettings> = {}): RedisSettings => ({
	host: '127.0.0.1',
	port,
	timeoutMs: 1_000,
	...extra,
});

jest.setTimeout(20_000);

let redis: Server;
const started: Server[] = [];
const clients: RedisClient[] = [];

function client(port: number, extra: Partial<RedisSettings> = {}): RedisClient {
	const made = new RedisClient(settings(port, extra), newSocket);
	clients.push(made);
	return made;
}

beforeAll(async () => {
	redis = await startRedisServer();
	started.push(redis);
});

afterEach(() => {
	for (const made of clients.splice(0)) made.close();
	resetDeliveryStores();
});

afterAll(async () => {
	for (const server of started) await server.stop();
	for (const server of started) expect(pidIsAlive(server.pid)).toBe(false);
});

describe('RESP encoding and reading', () => {
	it('encodes a command as an array of bulk strings, counting bytes not characters', () => {
		expect(encodeCommand(['SET', 'k', 'é', 'PX', 100])).toBe(
			'*5\r\n$3\r\nSET\r\n$1\r\nk\r\n$2\r\né\r\n$2\r\nPX\r\n$3\r\n100\r\n',
		);
	});

	it('reads every reply type, also when split at every byte', () => {
		const wire =
			'+OK\r\n-ERR wrong\r\n:42\r\n$4\r\nhé!\r\n$-1\r\n*2\r\n$1\r\na\r\n*1\r\n:1\r\n*-1\r\n';
		const whole = new RespReader().push(Buffer.from(wire));
		const reader = new RespReader();
		const bytewise: RespValue[] = [];
		for (const byte of Buffer.from(wire)) bytewise.push(...reader.push(Buffer.from([byte])));
		for (const replies of [whole, bytewise]) {
			expect(replies).toHaveLength(7);
			expect(replies[0]).toBe('OK');
			expect(replies[1]).toBeInstanceOf(RedisReplyError);
			expect((replies[1] as RedisReplyError).code).toBe('ERR');
			expect(replies.slice(2)).toEqual([42, 'hé!', null, ['a', [1]], null]);
		}
	});
});

describe('RedisClient against redis-server', () => {
	it('answers PING and SET NX PX: the first claim gets OK, the second nil, and the key expires', async () => {
		const redisClient = client(redis.port);
		expect(await redisClient.ping()).toBe(true);
		expect(await redisClient.command(['SET', 'k:nx', 'a', 'NX', 'PX', 300])).toBe('OK');
		expect(await redisClient.command(['SET', 'k:nx', 'b', 'NX', 'PX', 300])).toBeNull();
		expect(await redisClient.command(['GET', 'k:nx'])).toBe('a');
		const ttl = (await redisClient.command(['PTTL', 'k:nx'])) as number;
		expect(ttl).toBeGreaterThan(0);
		expect(ttl).toBeLessThanOrEqual(300);
		await pause(350);
		expect(await redisClient.command(['GET', 'k:nx'])).toBeNull();
		expect(await redisClient.command(['SET', 'k:nx', 'c', 'NX', 'PX', 300])).toBe('OK');
	});

	it('pipelines concurrent commands on one connection and matches replies in order', async () => {
		const redisClient = client(redis.port);
		const replies = await Promise.all(
			Array.from({ length: 200 }, (_, i) =>
				redisClient.command(['SET', `k:p:${i % 50}`, String(i), 'NX']),
			),
		);
		expect(replies.filter((r) => r === 'OK')).toHaveLength(50);
		expect(replies.filter((r) => r === null)).toHaveLength(150);
	});

	it('throws an error reply as RedisReplyError with its code', async () => {
		const redisClient = client(redis.port);
		await redisClient.command(['SET', 'k:text', 'x']);
		await expect(redisClient.command(['INCR', 'k:text'])).rejects.toMatchObject({
			name: 'RedisReplyError',
			code: 'ERR',
		});
		expect(await redisClient.ping()).toBe(true);
	});

	it('selects the database: a key set in db 3 is not in db 0', async () => {
		const db3 = client(redis.port, { db: 3 });
		const db0 = client(redis.port);
		expect(await db3.command(['SET', 'k:db', 'three'])).toBe('OK');
		expect(await db3.command(['GET', 'k:db'])).toBe('three');
		expect(await db0.command(['GET', 'k:db'])).toBeNull();
	});

	it('authenticates with a password only (requirepass) and refuses a wrong one', async () => {
		const locked = await startRedisServer({ args: ['--requirepass', 'pw-only'] });
		started.push(locked);
		expect(await client(locked.port, { password: 'pw-only' }).ping()).toBe(true);
		await expect(client(locked.port).ping()).rejects.toMatchObject({ code: 'NOAUTH' });
		await expect(client(locked.port, { password: 'nope' }).ping()).rejects.toMatchObject({
			name: 'RedisReplyError',
			code: expect.stringMatching(/^(WRONGPASS|ERR)$/),
		});
	});

	it('authenticates with a username and password (ACL user) and selects its database', async () => {
		const acl = await startRedisServer({
			args: ['--user', 'default', 'off', '--user', 'claims', 'on', '>user-pw', '~*', '&*', '+@all'],
		});
		started.push(acl);
		const user = client(acl.port, { username: 'claims', password: 'user-pw', db: 2 });
		expect(await user.command(['SET', 'k:acl', '1', 'NX', 'PX', 1000])).toBe('OK');
		await expect(
			client(acl.port, { username: 'claims', password: 'wrong' }).ping(),
		).rejects.toMatchObject({ code: 'WRONGPASS' });
	});

	it('fails fast when nothing listens, and says the command was not applied', async () => {
		const port = await closedPort();
		const before = Date.now();
		const error = await client(port)
			.ping()
			.catch((e: unknown) => e);
		expect(error).toBeInstanceOf(RedisUnavailableError);
		expect((error as RedisUnavailableError).maybeApplied).toBe(false);
		expect(Date.now() - before).toBeLessThan(1_000);
	});

	it('times out a server that accepts but never answers, and says the command may have been applied', async () => {
		const silent = await startScriptedServer([]);
		try {
			const before = Date.now();
			const error = await client(silent.port, { timeoutMs: 300 })
				.command(['SET', 'k', 'v', 'NX', 'PX', 1000])
				.catch((e: unknown) => e);
			const took = Date.now() - before;
			expect(error).toBeInstanceOf(RedisUnavailableError);
			expect((error as Error).message).toMatch(/no answer within 300 ms/);
			expect((error as RedisUnavailableError).maybeApplied).toBe(true);
			expect(took).toBeGreaterThanOrEqual(250);
			expect(took).toBeLessThan(2_000);
			expect(silent.received).toHaveLength(1);
		} finally {
			await silent.stop();
		}
	});

	it('reconnects after Redis is killed and started again on the same port', async () => {
		const own = await startRedisServer();
		const redisClient = client(own.port);
		expect(await redisClient.command(['SET', 'k:r', '1'])).toBe('OK');
		await own.kill();
		expect(pidIsAlive(own.pid)).toBe(false);
		await expect(redisClient.ping()).rejects.toBeInstanceOf(RedisUnavailableError);
		const again = await startRedisServer({ port: own.port });
		started.push(again);
		expect(await redisClient.ping()).toBe(true);
		// No persistence: the restarted Redis is empty.
		expect(await redisClient.command(['GET', 'k:r'])).toBeNull();
	});
});

describe('delivery claims', () => {
	const key = (id: string) => claimKey('inst', 'wf', 'node', true, id);

	it('exactly one of 40 concurrent claims of one delivery over 8 connections wins', async () => {
		const id = `d-${Date.now()}`;
		// Each "process" has its own module state: claims from separate connections.
		const verdicts = await Promise.all(
			Array.from({ length: 40 }, (_, i) => {
				const redisClient = client(redis.port);
				return redisClient
					.command(['SET', key(id), `token-${i % 8}`, 'NX', 'PX', 60_000])
					.then((reply) => reply === 'OK');
			}),
		);
		expect(verdicts.filter(Boolean)).toHaveLength(1);
		const first = await claimDelivery(
			settings(redis.port),
			newSocket,
			key(`${id}-b`),
			60_000,
			Date.now(),
		);
		resetDeliveryStores(); // another process: nothing in memory
		const second = await claimDelivery(
			settings(redis.port),
			newSocket,
			key(`${id}-b`),
			60_000,
			Date.now(),
		);
		expect(first).toEqual({ verdict: 'claimed' });
		expect(second).toEqual({ verdict: 'duplicate', by: 'redis' });
	});

	it('sets the time to live it is given', async () => {
		const k = key(`ttl-${Date.now()}`);
		expect(await claimDelivery(settings(redis.port), newSocket, k, 90_000, Date.now())).toEqual({
			verdict: 'claimed',
		});
		const ttl = (await client(redis.port).command(['PTTL', k])) as number;
		expect(ttl).toBeGreaterThan(80_000);
		expect(ttl).toBeLessThanOrEqual(90_000);
	});

	it('a SET whose reply was lost is found to be ours on a new connection: claimed, not lost', async () => {
		const k = key(`lost-${Date.now()}`);
		const proxy = await startReplyDroppingProxy(redis.port, k);
		try {
			const verdict = await claimDelivery(settings(proxy.port), newSocket, k, 60_000, Date.now());
			expect(verdict).toEqual({ verdict: 'claimed' });
			resetDeliveryStores();
			expect(await claimDelivery(settings(redis.port), newSocket, k, 60_000, Date.now())).toEqual({
				verdict: 'duplicate',
				by: 'redis',
			});
		} finally {
			await proxy.stop();
		}
	});

	it('Redis restarted empty: the process that claimed writes its claims back, so a retry at another process is still a duplicate', async () => {
		const own = await startRedisServer();
		const ownSettings = settings(own.port);
		const k = key(`reseed-${Date.now()}`);
		// Process A claims (this module's state).
		expect(await claimDelivery(ownSettings, newSocket, k, 60_000, Date.now())).toEqual({
			verdict: 'claimed',
		});
		await own.stop(); // no persistence: every key is gone
		const again = await startRedisServer({ port: own.port });
		started.push(again);
		// Process B: a fresh copy of the module, nothing in memory. Its first connection finds the
		// epoch just created and waits until every process had time to write its claims back.
		let processB: typeof import('../../nodes/CompanyPaymentsTrigger/redis/claims') | undefined;
		await jest.isolateModulesAsync(async () => {
			processB = await import('../../nodes/CompanyPaymentsTrigger/redis/claims');
		});
		const verdict = await processB!.claimDelivery(ownSettings, newSocket, k, 60_000, Date.now());
		processB!.resetDeliveryStores();
		expect(verdict).toEqual({ verdict: 'duplicate', by: 'redis' });
		const ttl = (await client(again.port).command(['PTTL', k])) as number;
		expect(ttl).toBeGreaterThan(50_000);
	});

	it('one of six processes claiming one delivery at the same moment wins; the others see a duplicate', async () => {
		const k = key(`six-${Date.now()}`);
		const processes: Array<typeof import('../../nodes/CompanyPaymentsTrigger/redis/claims')> = [];
		for (let i = 0; i < 6; i++) {
			await jest.isolateModulesAsync(async () => {
				processes.push(await import('../../nodes/CompanyPaymentsTrigger/redis/claims'));
			});
		}
		// Connect each first, so the claims themselves meet at Redis.
		await Promise.all(
			processes.map((p) =>
				p.claimDelivery(
					settings(redis.port),
					newSocket,
					key(`warm-${Math.random()}`),
					1000,
					Date.now(),
				),
			),
		);
		const verdicts = await Promise.all(
			processes.map((p) => p.claimDelivery(settings(redis.port), newSocket, k, 60_000, Date.now())),
		);
		for (const p of processes) p.resetDeliveryStores();
		expect(verdicts.filter((v) => v.verdict === 'claimed')).toHaveLength(1);
		expect(verdicts.filter((v) => v.verdict === 'duplicate')).toHaveLength(5);
		expect(await client(redis.port).command(['GET', k])).toMatch(/^c:/);
	});

	it('a tentative claim left by a writer that answered 503 holds at most 3 s, then a retry elsewhere claims', async () => {
		const k = key(`late-${Date.now()}`);
		// What a SET applied after its writer gave up leaves: a tentative claim, never confirmed.
		await client(redis.port).command(['SET', k, 't:someone-else', 'NX', 'PX', TENTATIVE_MS]);
		const blocked = await claimDelivery(settings(redis.port), newSocket, k, 60_000, Date.now());
		expect(blocked).toMatchObject({
			verdict: 'unavailable',
			reason: expect.stringMatching(/unconfirmed/),
		});
		await pause(TENTATIVE_MS);
		expect(await claimDelivery(settings(redis.port), newSocket, k, 60_000, Date.now())).toEqual({
			verdict: 'claimed',
		});
	});

	it('Redis not answering is "unavailable", never "claimed"', async () => {
		const silent = await startScriptedServer([]);
		try {
			const verdict = await claimDelivery(
				settings(silent.port, { timeoutMs: 200 }),
				newSocket,
				key('silent'),
				60_000,
				Date.now(),
			);
			expect(verdict.verdict).toBe('unavailable');
		} finally {
			await silent.stop();
		}
		const refused = await claimDelivery(
			settings(await closedPort()),
			newSocket,
			key('refused'),
			60_000,
			Date.now(),
		);
		expect(refused.verdict).toBe('unavailable');
	});

	it('a cluster node answering MOVED is refused with a message that names the cluster', async () => {
		const moved = await startScriptedServer(['-MOVED 3999 127.0.0.1:7001\r\n']);
		try {
			const verdict = await claimDelivery(
				settings(moved.port),
				newSocket,
				key('m'),
				60_000,
				Date.now(),
			);
			expect(verdict.verdict).toBe('unavailable');
			expect(verdict).toMatchObject({ reason: expect.stringMatching(/cluster.*single Redis/) });
		} finally {
			await moved.stop();
		}
	});

	it('reads n8n queue-mode variables and Redis URLs; refuses cluster, TLS and password files', () => {
		expect(
			queueRedisSource({
				QUEUE_BULL_REDIS_HOST: 'redis.internal',
				QUEUE_BULL_REDIS_PORT: '6380',
				QUEUE_BULL_REDIS_USERNAME: 'n8n',
				QUEUE_BULL_REDIS_PASSWORD: 'pw',
				QUEUE_BULL_REDIS_DB: '2',
			}),
		).toMatchObject({
			kind: 'redis',
			settings: { host: 'redis.internal', port: 6380, username: 'n8n', password: 'pw', db: 2 },
		});
		expect(queueRedisSource({})).toMatchObject({
			settings: { host: 'localhost', port: 6379, db: 0 },
		});
		expect(queueRedisSource({ QUEUE_BULL_REDIS_CLUSTER_NODES: 'a:1,b:2' })).toMatchObject({
			kind: 'refused',
			why: expect.stringMatching(/cluster/),
		});
		expect(queueRedisSource({ QUEUE_BULL_REDIS_TLS: 'true' })).toMatchObject({ kind: 'refused' });
		expect(queueRedisSource({ QUEUE_BULL_REDIS_PASSWORD_FILE: '/run/secret' })).toMatchObject({
			kind: 'refused',
		});
		expect(urlRedisSource('redis://u%40x:p%3Aw@10.0.0.5:6390/4')).toMatchObject({
			kind: 'redis',
			settings: { host: '10.0.0.5', port: 6390, username: 'u@x', password: 'p:w', db: 4 },
		});
		expect(urlRedisSource('redis://:only-pw@h')).toMatchObject({
			settings: { host: 'h', port: 6379, username: undefined, password: 'only-pw', db: 0 },
		});
		expect(urlRedisSource('rediss://h:6379')).toMatchObject({ kind: 'refused' });
	});
});

describe('the trigger with the Redis claim', () => {
	const queueEnv = () => ({
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(redis.port),
	});

	it('in queue mode, a delivery sent to two processes at once starts one execution; static data is not written', async () => {
		const nodeId = freshNodeId();
		const deliveryId = `dlv-${Date.now()}`;
		const staticA = {};
		const first = await deliver({
			nodeId,
			deliveryId,
			env: queueEnv(),
			socket: newSocket(),
			staticData: staticA,
		});
		resetDeliveryStores(); // the second webhook process: its own module state
		const second = await deliver({ nodeId, deliveryId, env: queueEnv(), socket: newSocket() });
		expect(first.result.workflowData).toBeDefined();
		expect(second.result.workflowData).toBeUndefined();
		expect(second.result.webhookResponse).toMatchObject({ executed: false });
		expect(staticA).toEqual({});
		const stored = await client(redis.port).command([
			'GET',
			claimKey('instance-1', 'wf-1', nodeId, true, deliveryId),
		]);
		expect(typeof stored).toBe('string');
	});

	it('concurrent deliveries of one ID in one process: one execution', async () => {
		const nodeId = freshNodeId();
		const outcomes = await Promise.all(
			Array.from({ length: 10 }, () =>
				deliver({ nodeId, deliveryId: 'same', env: queueEnv(), socket: newSocket() }),
			),
		);
		expect(outcomes.filter((o) => o.result.workflowData)).toHaveLength(1);
	});

	it('Redis unreachable: 503, nothing started, nothing recorded', async () => {
		const env = { ...queueEnv(), QUEUE_BULL_REDIS_PORT: String(await closedPort()) };
		const staticData = {};
		const outcome = await deliver({ env, socket: newSocket(), staticData });
		expect(outcome.result.workflowData).toBeUndefined();
		expect(outcome.response.statusCode).toBe(503);
		expect(staticData).toEqual({});
	});

	it('no socket to connect with (not an HTTP request of n8n): 503', async () => {
		const outcome = await deliver({ env: queueEnv() });
		expect(outcome.response.statusCode).toBe(503);
		expect(outcome.result.workflowData).toBeUndefined();
	});

	it('outside queue mode the static data stays the store', async () => {
		const staticData = {};
		const outcome = await deliver({ env: {}, socket: newSocket(), staticData });
		expect(outcome.result.workflowData).toBeDefined();
		expect(staticData).toHaveProperty('deliveries');
	});

	it('environment access blocked: static data, with a warning naming the reason', async () => {
		const staticData = {};
		const outcome = await deliver({
			env: new Error('access to env vars denied'),
			socket: newSocket(),
			staticData,
		});
		expect(outcome.result.workflowData).toBeDefined();
		expect(staticData).toHaveProperty('deliveries');
		expect(outcome.logs.map((l) => l.message).join('\n')).toMatch(/N8N_BLOCK_ENV_ACCESS_IN_NODE/);
	});

	it('the Redis URL option points a single process at its own Redis', async () => {
		const nodeId = freshNodeId();
		const parameters = { options: { redisUrl: `redis://127.0.0.1:${redis.port}/5` } };
		const first = await deliver({ nodeId, deliveryId: 'own', parameters, socket: newSocket() });
		resetDeliveryStores();
		const again = await deliver({ nodeId, deliveryId: 'own', parameters, socket: newSocket() });
		expect(first.result.workflowData).toBeDefined();
		expect(again.result.workflowData).toBeUndefined();
		const db5 = client(redis.port, { db: 5 });
		expect(await db5.command(['EXISTS', claimKey('instance-1', 'wf-1', nodeId, true, 'own')])).toBe(
			1,
		);
	});

	it('Delivery Store "Redis" without any Redis settings readable: 503, never run', async () => {
		const outcome = await deliver({
			parameters: { options: { deliveryStore: 'redis' } },
			env: new Error('access to env vars denied'),
			socket: newSocket(),
		});
		expect(outcome.response.statusCode).toBe(503);
		expect(outcome.result.workflowData).toBeUndefined();
	});
});

describe('activation checks the delivery store', () => {
	const withEnv = (env: Record<string, string>, options = {}) =>
		Object.assign(createHookContext({ parameters: { registerWebhook: false, options } }), {
			evaluateExpression: (expression: string) => {
				const names = [...expression.matchAll(/\$env\.([A-Z0-9_]+)/g)].map((m) => m[1]);
				return JSON.stringify(Object.fromEntries(names.map((name) => [name, env[name]])));
			},
		});

	it('refuses a Redis cluster in queue mode with a message that names it', async () => {
		const error = await runHookError(
			'checkExists',
			withEnv({ EXECUTIONS_MODE: 'queue', QUEUE_BULL_REDIS_CLUSTER_NODES: '10.0.0.1:6379' }),
		);
		expect(error.message).toMatch(/cannot record deliveries in Redis: .*cluster/);
	});

	it('refuses TLS, and Delivery Store "Redis" with nothing to connect to', async () => {
		await expect(
			runHook('checkExists', withEnv({ EXECUTIONS_MODE: 'queue', QUEUE_BULL_REDIS_TLS: 'true' })),
		).rejects.toThrow(/TLS/);
		resetDeliveryStores();
		await expect(
			runHook('checkExists', withEnv({}, { deliveryStore: 'redis', redisUrl: 'rediss://h:6380' })),
		).rejects.toThrow(/TLS/);
	});

	it('activates a plain queue-mode setup, a single process, and Workflow Static Data whatever the environment', async () => {
		expect(await runHook('checkExists', withEnv({ EXECUTIONS_MODE: 'queue' }))).toBe(true);
		resetDeliveryStores();
		expect(await runHook('checkExists', withEnv({}))).toBe(true);
		resetDeliveryStores();
		expect(
			await runHook(
				'checkExists',
				withEnv(
					{ EXECUTIONS_MODE: 'queue', QUEUE_BULL_REDIS_CLUSTER_NODES: 'a:1' },
					{ deliveryStore: 'staticData' },
				),
			),
		).toBe(true);
	});
});
