/**
 * The companion's delivery claim (companion/nodes/CompanyPaymentsQueueTrigger/redisClaims.ts)
 * against a real redis-server, with two "processes" (two clients, each with its own memory),
 * one of them behind a relay on 127.0.0.1 that delays one command or its answer. No n8n: these
 * are the protocol's cases, including the two late replies of issue 45. Needs the companion
 * built (`npm run build --prefix companion`) and redis-server (scripts/ensure-redis.sh).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { startRedis as startRedisProcess } from '../../harness/services.mjs';
import { startRelay as startRelayOn } from './relay.mjs';

/** Every Redis this file starts, stopped by its PID in `after` even when a case fails midway. */
const startedRedis = [];
async function startRedis(options) {
	const handle = await startRedisProcess(options);
	startedRedis.push(handle);
	return handle;
}

/** Every relay this file starts, closed in `after` (its waits end with it) even when a case fails. */
const startedRelays = [];
async function startRelay(target) {
	const handle = await startRelayOn(target);
	startedRelays.push(handle);
	return handle;
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BUILT = path.join(ROOT, 'companion/dist/nodes/CompanyPaymentsQueueTrigger/redisClaims.js');
const require = createRequire(import.meta.url);

/** A Deduplication Window no other number in the commands has: the relay finds confirms by it. */
const TTL_MS = 7_777_777;

describe('the Redis delivery claim, two processes', () => {
	let claimsModule;
	let dir;
	let redis;
	let relay;
	const clients = [];

	/** A process's claims: direct to Redis, or through the relay. */
	function processClaims({ viaRelay = false, timeoutMs, timing, port, processOf, extra } = {}) {
		// A short restart window unless the case sets one: every restart of this Redis (it keeps
		// nothing) opens one, and so does its start (a new Redis looks like a restarted one).
		const times = { restartWindowMs: 1_000, ...(timing ?? {}) };
		if (timeoutMs !== undefined) times.timeoutMs = timeoutMs;
		const claims = new claimsModule.RedisClaims(
			{ host: '127.0.0.1', port: port ?? (viaRelay ? relay.port : redis.port), ...(extra ?? {}) },
			times,
			// Clients of one named "process" share its memory of claims (as the store's do in n8n);
			// unnamed, each client is a process of its own.
			processOf,
		);
		clients.push(claims);
		// This Redis keeps no append-only file (the restart case needs that): the trigger option
		// "Accept Redis Without Persistence" is on.
		const claim = claims.claim.bind(claims);
		claims.claim = (key, ttl) => claim(key, ttl, { allowWithoutPersistence: true });
		// The trigger's claim: held (a lease) until n8n's answer settles it.
		claims.hold = (key, ttl) => claim(key, ttl, { allowWithoutPersistence: true, hold: true });
		return claims;
	}

	async function holder(key) {
		const probe = processClaims();
		await probe.claim(`probe:${randomUUID()}`, 1_000); // connects (and checks the epoch)
		return await probe.client.get(key);
	}

	/** One command on a fresh connection (the test's own, not a process's). */
	async function probeCommand(port, ...args) {
		const { default: Redis } = require(
			path.join(ROOT, 'companion/node_modules/ioredis/built/index.js'),
		);
		const client = new Redis({ host: '127.0.0.1', port, lazyConnect: true });
		client.on('error', () => undefined);
		try {
			await client.connect();
			return await client.call(...args);
		} finally {
			client.disconnect();
		}
	}

	before(async () => {
		assert.ok(fs.existsSync(BUILT), 'build the companion first: npm run build --prefix companion');
		claimsModule = require(BUILT);
		dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-claim-races-'));
		redis = await startRedis({ dir: path.join(dir, 'redis') });
		relay = await startRelay(redis);
		// This Redis is new: its first second is a restart window (see processClaims).
		const first = processClaims();
		while ((await first.claim(`start:${randomUUID()}`, 1_000)).verdict !== 'claimed')
			await sleep(50);
	});

	// Every case closes the clients it made on a Redis of its own (or a relay to one) when it
	// ends, passed or failed: a later case then never runs beside them (reconnecting to a stopped
	// Redis, refreshing their claimers list every 100 ms, holding leases). Those of the shared
	// Redis stay: after its restarts the later cases wait for them to write back.
	let firstOfCase = 0;
	beforeEach(() => {
		firstOfCase = clients.length;
	});
	afterEach(async () => {
		const shared = new Set([redis.port, relay.port]);
		const own = clients.slice(firstOfCase).filter((claims) => !shared.has(claims.options.port));
		await Promise.all(own.map((claims) => claims.close()));
	});

	after(async () => {
		await Promise.all(clients.map((claims) => claims.close()));
		// And every client a process memory still holds: the store's (the trigger case), and any
		// a stopped trigger left connected for its claims.
		await claimsModule?.closeAllClaims();
		await relay?.close();
		await Promise.all(startedRelays.map((handle) => handle.close()));
		await redis?.stop();
		await Promise.all(startedRedis.map((handle) => handle.stop()));
		if (dir) fs.rmSync(dir, { recursive: true, force: true });
	});

	test('the same delivery at both processes at the same instant: one claims it, one is told it is a duplicate', async () => {
		const a = processClaims();
		const b = processClaims();
		const verdicts = [];
		for (let i = 0; i < 50; i++) {
			const key = `same:${randomUUID()}`;
			const pair = await Promise.all([a.claim(key, TTL_MS), b.claim(key, TTL_MS)]);
			verdicts.push(
				pair
					.map((v) => v.verdict)
					.sort()
					.join(' '),
			);
		}
		assert.deepEqual([...new Set(verdicts)], ['claimed duplicate']);
	});

	test('a retry at the other process after the claim: duplicate; at the same process: duplicate from memory', async () => {
		const a = processClaims();
		const b = processClaims();
		const key = `retry:${randomUUID()}`;
		assert.equal((await a.claim(key, TTL_MS)).verdict, 'claimed');
		assert.deepEqual(await b.claim(key, TTL_MS), { verdict: 'duplicate', by: 'redis' });
		assert.deepEqual(await a.claim(key, TTL_MS), { verdict: 'duplicate', by: 'memory' });
	});

	test('late reply 1: a confirm that reaches Redis after the tentative claim expired does not overwrite the other process claim', async () => {
		const a = processClaims({ viaRelay: true, timeoutMs: 6_000 });
		const b = processClaims();
		const key = `late-confirm:${randomUUID()}`;
		await a.claim(`warm:${randomUUID()}`, 1_000); // connected, scripts loaded
		const passed = relay.delayNext({ match: String(TTL_MS), delayMs: 2_500, what: 'command' });
		const atA = a.claim(key, TTL_MS);
		// The service's retry reaches B once A's tentative claim has expired (1.5 s).
		await sleep(claimsModule.TENTATIVE_MS + 200);
		const atB = await b.claim(key, TTL_MS);
		await passed;
		const verdictA = await atA;
		assert.equal(atB.verdict, 'claimed', JSON.stringify(atB));
		assert.equal(verdictA.verdict, 'unavailable', JSON.stringify(verdictA));
		// B's claim stands after A's confirm went through: a third attempt is a duplicate.
		const held = await holder(key);
		assert.match(held ?? '', /^r:/, `the key holds ${held}`);
		const c = processClaims();
		assert.deepEqual(await c.claim(key, TTL_MS), { verdict: 'duplicate', by: 'redis' });
	});

	test('late reply 2: a confirm applied but answered late: read back, this process runs it, the retry at the other process is a duplicate', async () => {
		const a = processClaims({ viaRelay: true });
		const b = processClaims();
		const key = `late-answer:${randomUUID()}`;
		await a.claim(`warm:${randomUUID()}`, 1_000);
		const passed = relay.delayNext({ match: String(TTL_MS), delayMs: 3_000, what: 'answer' });
		const started = Date.now();
		const verdictA = await a.claim(key, TTL_MS);
		const ms = Date.now() - started;
		// Redis holds A's confirmed claim: A reads it back on its second connection and runs it.
		assert.deepEqual(verdictA, { verdict: 'claimed' }, JSON.stringify(verdictA));
		assert.ok(
			ms < claimsModule.REDIS_TIMEOUT_MS + claimsModule.READ_BACK_MS,
			`answered after ${ms} ms`,
		);
		// A copy at the other process is a duplicate: A runs it.
		assert.deepEqual(await b.claim(key, TTL_MS), { verdict: 'duplicate', by: 'redis' });
		await passed;
		assert.match((await holder(key)) ?? '', /^r:/);
	});

	test('Redis not answering (SIGSTOP): unavailable within the timeout, nothing claimed; then each claims once', async () => {
		const a = processClaims();
		const b = processClaims();
		await a.claim(`warm:${randomUUID()}`, 1_000);
		await b.claim(`warm:${randomUUID()}`, 1_000);
		const keys = [0, 1, 2, 3].map((i) => `frozen:${i}:${randomUUID()}`);
		process.kill(redis.pid, 'SIGSTOP');
		let frozen;
		const started = Date.now();
		try {
			frozen = await Promise.all(keys.map((key, i) => (i % 2 ? b : a).claim(key, TTL_MS)));
		} finally {
			process.kill(redis.pid, 'SIGCONT');
		}
		const ms = Date.now() - started;
		assert.deepEqual(
			frozen.map((v) => v.verdict),
			['unavailable', 'unavailable', 'unavailable', 'unavailable'],
		);
		assert.ok(ms < claimsModule.REDIS_TIMEOUT_MS + 1_500, `answered after ${ms} ms`);
		// Retries at the other process, after Redis answers again: each is claimed once.
		await sleep(claimsModule.TENTATIVE_MS);
		const again = await Promise.all(keys.map((key, i) => (i % 2 ? a : b).claim(key, TTL_MS)));
		assert.deepEqual(
			again.map((v) => v.verdict),
			['claimed', 'claimed', 'claimed', 'claimed'],
		);
	});

	test('Redis restarted empty: each process writes its claims back, so a retry at either is still a duplicate', async () => {
		const a = processClaims();
		const b = processClaims();
		const keysA = [0, 1, 2].map((i) => `restart:a${i}:${randomUUID()}`);
		const keysB = [0, 1, 2].map((i) => `restart:b${i}:${randomUUID()}`);
		for (const key of keysA) assert.equal((await a.claim(key, TTL_MS)).verdict, 'claimed');
		for (const key of keysB) assert.equal((await b.claim(key, TTL_MS)).verdict, 'claimed');
		const port = redis.port;
		await redis.stop();
		redis = await startRedis({ dir: path.join(dir, 'redis'), port });
		// Each retry lands at the process that did not claim it: never claimed again; unknown (503)
		// until both processes have written their claims back, then a duplicate.
		const seen = new Set();
		for (;;) {
			const verdicts = await Promise.all([
				...keysA.map((key) => b.claim(key, TTL_MS)),
				...keysB.map((key) => a.claim(key, TTL_MS)),
			]);
			for (const v of verdicts) seen.add(v.verdict);
			assert.ok(!seen.has('claimed'), JSON.stringify(verdicts));
			if (verdicts.every((v) => v.verdict === 'duplicate')) break;
			await sleep(50);
		}
	});

	test('Redis restarted empty while the process that ran a delivery reconnects late: a copy elsewhere is answered 503 until it is back, never run again', async () => {
		// A short restart window: this case is the wait for a known claimer, after the window.
		const timing = { restartWindowMs: 500 };
		const a = processClaims({ viaRelay: true, timing });
		const b = processClaims({ timing });
		const key = `late-reconnect:${randomUUID()}`;
		// The earlier restart's window (the earlier case's processes) is over first.
		while ((await a.claim(`settle:${randomUUID()}`, 1_000)).verdict !== 'claimed') await sleep(50);
		// Steady state: both have claimed, and know each other as claimers.
		await b.claim(`warm:${randomUUID()}`, 1_000);
		assert.equal((await a.claim(key, TTL_MS)).verdict, 'claimed');
		await b.claim(`warm:${randomUUID()}`, 1_000);
		// A's reconnect is accepted and never answered (as through a TCP proxy) for 4 s.
		const blocked = Date.now();
		relay.block({ mode: 'swallow', ms: 4_000 });
		const port = redis.port;
		await redis.stop();
		redis = await startRedis({ dir: path.join(dir, 'redis'), port });
		// The copy at B 1.8 s after the restart (after the old settle time): not run again.
		await sleep(1_800);
		const copy = await b.claim(key, TTL_MS);
		assert.equal(copy.verdict, 'unavailable', JSON.stringify(copy));
		assert.match(copy.reason, /written its claims back/);
		// Once A is back and has written its claim back, a copy anywhere is a duplicate.
		for (;;) {
			const again = await b.claim(key, TTL_MS);
			assert.notEqual(again.verdict, 'claimed', JSON.stringify(again));
			if (again.verdict === 'duplicate') break;
			await a.claim(`poke:${randomUUID()}`, 1_000); // A's next delivery makes it reconnect
			await sleep(100);
		}
		// (Measured from the block: A is back when it ends, however long the restart took.)
		const ms = Date.now() - blocked;
		assert.ok(ms >= 4_000, `decided ${ms} ms after A was blocked, before it was back`);
	});

	/** The service's attempts (0, 1, 2, 4 s) at the given processes, stopping at the first 2xx. */
	async function serviceAttempts(key, processes, startAt = Date.now()) {
		const verdicts = [];
		for (const [i, atMs] of [0, 1_000, 2_000, 4_000].entries()) {
			await sleep(Math.max(0, startAt + atMs - Date.now()));
			const v = await processes[i % processes.length].claim(key, TTL_MS);
			verdicts.push(v);
			if (v.verdict !== 'unavailable') break;
		}
		return verdicts;
	}

	/** Claims fresh keys until one is claimed: connected, and past any earlier restart's window. */
	async function settled(...processes) {
		for (const p of processes) {
			while ((await p.claim(`settle:${randomUUID()}`, 1_000)).verdict !== 'claimed')
				await sleep(50);
		}
	}

	function judge(verdicts) {
		const executions = verdicts.filter((v) => v.verdict === 'claimed').length;
		const twoXX = verdicts.filter((v) => v.verdict !== 'unavailable').length;
		return { executions, twoXX, ok: executions === 1 || (executions === 0 && twoXX === 0) };
	}

	test('answers to one process stall after its confirm, on both its connections: exactly one execution, or no 2xx (outside r3 f1)', async () => {
		const a = processClaims({ viaRelay: true });
		const b = processClaims();
		const c = processClaims();
		const key = `stall:${randomUUID()}`;
		await settled(a, b, c);
		// Every answer to A, on both connections, waits 5 s from its confirm on.
		const stall = relay.armNext({
			match: String(TTL_MS),
			what: 'answer',
			action: 'stall',
			delayMs: 5_000,
		});
		const verdicts = await serviceAttempts(key, [a, b, c, b]);
		assert.equal(await Promise.race([stall.passed, 'not reached']), 'passed');
		assert.equal(verdicts[0].verdict, 'unavailable', JSON.stringify(verdicts[0]));
		// After the stall, a copy at every process.
		await sleep(Math.max(0, 5_500));
		for (const p of [a, b, c]) verdicts.push(await p.claim(key, TTL_MS));
		const { ok, executions, twoXX } = judge(verdicts);
		assert.ok(ok, `${executions} executions, ${twoXX} 2xx: ${JSON.stringify(verdicts)}`);
		// Redis says running exactly when a process runs it (A, which answered 503, left nothing).
		assert.equal(/^r:/.test((await holder(key)) ?? ''), executions === 1);
	});

	test('Redis restarted empty while a claimer nobody had heard of is away: the service retries at the others are 503, not run again (outside r3 f2)', async () => {
		const timing = { restartWindowMs: 6_000 };
		const a = processClaims({ viaRelay: true, timing });
		const b = processClaims({ timing });
		const c = processClaims({ timing });
		// B and C claimed before A's first claim: neither knows A as a claimer.
		await settled(b, c);
		const key = `unknown-member:${randomUUID()}`;
		assert.equal((await a.claim(key, TTL_MS)).verdict, 'claimed');
		relay.block({ mode: 'refuse', ms: 8_000 });
		relay.cutAll();
		const port = redis.port;
		await redis.stop();
		redis = await startRedis({ dir: path.join(dir, 'redis'), port });
		// B and C are back at once (their next claims); the service's retries of the delivery
		// (0, 1, 2, 4 s) land at them while A is away.
		await b.claim(`back:${randomUUID()}`, 1_000);
		await c.claim(`back:${randomUUID()}`, 1_000);
		const verdicts = await serviceAttempts(key, [b, c]);
		assert.deepEqual(
			verdicts.map((v) => v.verdict),
			['unavailable', 'unavailable', 'unavailable', 'unavailable'],
			JSON.stringify(verdicts),
		);
		assert.match(verdicts[3].reason, /service's attempts/);
	});

	test('Redis with a replica: a claim the replica has not acknowledged is not run, so a failover to it runs the delivery once (outside r3 f3)', async () => {
		const primary = await startRedis({
			dir: path.join(dir, 'primary'),
			appendonly: true,
			// A primary that dies does not wait for its replica.
			args: ['--shutdown-timeout', '0'],
		});
		const replica = await startRedis({
			dir: path.join(dir, 'replica'),
			appendonly: true,
			args: ['--replicaof', '127.0.0.1', String(primary.port)],
		});
		const failover = await startRelay(primary);
		try {
			const a = processClaims({ port: failover.port });
			const b = processClaims({ port: failover.port });
			for (;;) {
				const info = await probeCommand(replica.port, 'INFO', 'replication');
				if (info.includes('master_link_status:up')) break;
				await sleep(50);
			}
			// Replicating: a claim is acknowledged by the replica and runs.
			const first = `replicated:${randomUUID()}`;
			assert.deepEqual(await a.claim(first, TTL_MS), { verdict: 'claimed' });
			assert.match((await probeCommand(replica.port, 'GET', first)) ?? '', /^[cr]:/);
			await b.claim(`warm:${randomUUID()}`, 1_000);
			// The replica stops taking the stream; A claims the delivery on the primary.
			process.kill(replica.pid, 'SIGSTOP');
			const key = `failover:${randomUUID()}`;
			let atA;
			try {
				atA = await a.claim(key, TTL_MS);
			} finally {
				await primary.stop();
				process.kill(replica.pid, 'SIGCONT');
			}
			assert.equal(atA.verdict, 'unavailable', JSON.stringify(atA));
			assert.match(atA.reason, /replicas/);
			// The replica is promoted and the address now leads to it; a copy reaches B.
			await probeCommand(replica.port, 'REPLICAOF', 'NO', 'ONE');
			failover.retarget(replica.port);
			failover.cutAll();
			let atB;
			for (;;) {
				atB = await b.claim(key, TTL_MS);
				if (atB.verdict !== 'unavailable') break;
				await sleep(100);
			}
			assert.equal(atB.verdict, 'claimed', JSON.stringify(atB));
		} finally {
			await failover.close();
			await replica.stop();
			await primary.stop();
		}
	});

	test('an eviction policy set at runtime (volatile-lru, maxmemory) evicts no claim: a copy stays a duplicate (outside r3 f4)', async () => {
		const a = processClaims();
		const b = processClaims();
		const key = `eviction:${randomUUID()}`;
		await settled(a, b);
		assert.equal((await a.claim(key, TTL_MS)).verdict, 'claimed');
		await b.claim(`warm:${randomUUID()}`, 1_000);
		// Claim keys carry no time to live: no volatile-* policy may take them.
		assert.equal(await probeCommand(redis.port, 'PTTL', key), -1);
		const used = Number(
			/used_memory:(\d+)/.exec(await probeCommand(redis.port, 'INFO', 'memory'))[1],
		);
		await probeCommand(redis.port, 'CONFIG', 'SET', 'maxmemory-policy', 'volatile-lru');
		await probeCommand(redis.port, 'CONFIG', 'SET', 'maxmemory', String(used + 300_000));
		const evicted = async () =>
			Number(/evicted_keys:(\d+)/.exec(await probeCommand(redis.port, 'INFO', 'stats'))[1]);
		const before = await evicted();
		const { default: Redis } = require(
			path.join(ROOT, 'companion/node_modules/ioredis/built/index.js'),
		);
		const filler = new Redis({ host: '127.0.0.1', port: redis.port });
		filler.on('error', () => undefined);
		try {
			const junk = 'x'.repeat(2_000);
			for (let i = 0; (await evicted()) < before + 1_000; i += 100) {
				const batch = filler.pipeline();
				for (let j = i; j < i + 100; j++) batch.set(`junk:${key}:${j}`, junk, 'PX', 3_600_000);
				await batch.exec();
			}
			// While the policy evicts, every claim is refused naming it (outside r6 f7); the claim
			// itself was not evicted.
			const refused = await b.claim(key, TTL_MS);
			assert.equal(refused.verdict, 'unavailable', JSON.stringify(refused));
			assert.match(refused.reason, /maxmemory-policy is volatile-lru/);
			assert.match(refused.reason, /CONFIG SET maxmemory-policy noeviction/);
			assert.match((await probeCommand(redis.port, 'GET', key)) ?? '', /^r:/);
		} finally {
			filler.disconnect();
			await probeCommand(redis.port, 'CONFIG', 'SET', 'maxmemory', '0');
			await probeCommand(redis.port, 'CONFIG', 'SET', 'maxmemory-policy', 'noeviction');
		}
	});

	test('a claim key past its end is free again, and claims delete ended keys (expiry without a time to live)', async () => {
		const a = processClaims();
		const b = processClaims();
		const key = `ends:${randomUUID()}`;
		await settled(a, b);
		assert.equal((await a.claim(key, 300)).verdict, 'claimed');
		assert.deepEqual(await b.claim(key, 300), { verdict: 'duplicate', by: 'redis' });
		for (;;) {
			const again = await b.claim(key, TTL_MS);
			if (again.verdict === 'claimed') break;
			assert.equal(again.verdict, 'duplicate', JSON.stringify(again));
			await sleep(50);
		}
		const gone = `gone:${randomUUID()}`;
		assert.equal((await a.claim(gone, 300)).verdict, 'claimed');
		for (;;) {
			await b.claim(`trim:${randomUUID()}`, 1_000);
			if ((await probeCommand(redis.port, 'EXISTS', gone)) === 0) break;
			await sleep(20);
		}
		assert.equal(await probeCommand(redis.port, 'ZSCORE', claimsModule.EXPIRY_KEY, gone), null);
	});
	test('a process new to Redis after a restart without persistence, the runner slow to reconnect: a copy there is 503, never run again (outside r6 f1)', async () => {
		// A Redis of its own: no other process of this file may reach it first after the restart.
		const ownDir = path.join(dir, 'own-f1');
		let own = await startRedis({ dir: ownDir });
		const ownRelay = await startRelay(own);
		try {
			const timing = { restartWindowMs: 3_000 };
			const a = processClaims({ port: ownRelay.port, timing });
			await settled(a);
			const key = `fresh-after-restart:${randomUUID()}`;
			assert.equal((await a.claim(key, TTL_MS)).verdict, 'claimed');
			ownRelay.block({ mode: 'refuse', ms: 2_000 });
			ownRelay.cutAll();
			const port = own.port;
			await own.stop();
			own = await startRedis({ dir: ownDir, port });
			ownRelay.retarget(port);
			// A process that never saw this Redis before (started now, or its client closed idle).
			const fresh = processClaims({ port, timing });
			const copy = await fresh.claim(key, TTL_MS);
			assert.equal(copy.verdict, 'unavailable', JSON.stringify(copy));
			assert.match(copy.reason, /may have restarted without persistence/);
			for (;;) {
				const again = await fresh.claim(key, TTL_MS);
				assert.notEqual(again.verdict, 'claimed', JSON.stringify(again));
				if (again.verdict === 'duplicate') break;
				await a.claim(`poke:${randomUUID()}`, 1_000);
				await sleep(100);
			}
		} finally {
			await ownRelay.close();
			await own.stop();
		}
	});

	test('answers to the confirming process stall past the service retries: a later attempt at another process runs it once (outside r6 f3)', async () => {
		const timing = { timeoutMs: 250, readBackMs: 250 };
		const a = processClaims({ viaRelay: true, timing });
		const b = processClaims({ timing });
		await settled(a, b);
		const key = `stall-long:${randomUUID()}`;
		// A's link is cut off both ways for 6 s right after its confirm reached Redis: every
		// answer to A and every later command of A (its release too) wait.
		const stall = relay.armNext({
			match: String(TTL_MS),
			what: 'answer',
			action: 'stall',
			delayMs: 6_000,
			both: true,
		});
		const verdicts = await serviceAttempts(key, [a, b, b, b]);
		assert.equal(await Promise.race([stall.passed, 'not reached']), 'passed');
		assert.equal(verdicts[0].verdict, 'unavailable', JSON.stringify(verdicts[0]));
		const { executions } = judge(verdicts);
		assert.equal(executions, 1, JSON.stringify(verdicts));
		assert.match((await holder(key)) ?? '', /^r:/);
		// Once A's answers come through, A does not run it: a copy at A is a duplicate.
		await sleep(6_000);
		assert.notEqual((await a.claim(key, TTL_MS)).verdict, 'claimed');
	});

	test('a restart window: the reason gives its length, what is left and which deliveries it loses (outside r6 f5)', async () => {
		const timing = { restartWindowMs: 10_000 };
		const a = processClaims({ timing });
		await settled(a);
		const port = redis.port;
		await redis.stop();
		redis = await startRedis({ dir: path.join(dir, 'redis'), port });
		let v;
		do v = await a.claim(`new:${randomUUID()}`, TTL_MS);
		while (!/lost its keys/.test(v.reason ?? ''));
		assert.equal(v.verdict, 'unavailable');
		assert.match(v.reason, /it restarted without persistence/);
		assert.match(v.reason, /for 10000 ms from then \(\d+ ms left\)/);
		assert.match(v.reason, /first sent in the first 3000 ms/);
		assert.match(v.reason, /Accept Redis Without Persistence/);
		assert.doesNotMatch(v.reason, /whole retry span/);
	});

	test('an evicting policy set on the live Redis: every claim refused naming it; keys lost without a restart are named so (outside r6 f7)', async () => {
		const timing = { restartWindowMs: 500 };
		const a = processClaims({ timing });
		const b = processClaims({ timing });
		await settled(a, b);
		const key = `live-policy:${randomUUID()}`;
		assert.equal((await a.claim(key, TTL_MS)).verdict, 'claimed');
		await probeCommand(redis.port, 'CONFIG', 'SET', 'maxmemory-policy', 'allkeys-random');
		await probeCommand(redis.port, 'CONFIG', 'SET', 'maxmemory', '1000000000');
		try {
			const copy = await b.claim(key, TTL_MS);
			assert.equal(copy.verdict, 'unavailable', JSON.stringify(copy));
			assert.match(copy.reason, /maxmemory-policy is allkeys-random/);
			assert.match(copy.reason, /noeviction/);
			assert.equal((await b.claim(`new:${randomUUID()}`, TTL_MS)).verdict, 'unavailable');
		} finally {
			await probeCommand(redis.port, 'CONFIG', 'SET', 'maxmemory', '0');
			await probeCommand(redis.port, 'CONFIG', 'SET', 'maxmemory-policy', 'noeviction');
		}
		// The keys are lost without a restart (as an eviction would): the reason says so.
		await probeCommand(redis.port, 'FLUSHALL');
		const v = await b.claim(`after:${randomUUID()}`, TTL_MS);
		assert.equal(v.verdict, 'unavailable', JSON.stringify(v));
		assert.match(v.reason, /without restarting \(evicted or flushed/);
		assert.notEqual((await b.claim(key, TTL_MS)).verdict, 'claimed');
	});

	test('a claimer that joined after the other process last claimed, then crashed: after a restart the other waits for it, naming it (outside r6 f2; last: every open process now waits for the crashed one after a restart)', async () => {
		const timing = { restartWindowMs: 500, refreshMs: 100 };
		const a = processClaims({ timing });
		const b = processClaims({ timing });
		await settled(b);
		// A claims after B's last claim: B learns of it only by reading the claimers list.
		const key = `crashed-claimer:${randomUUID()}`;
		assert.equal((await a.claim(key, TTL_MS)).verdict, 'claimed');
		const joined = Date.now();
		// Condition: B's refresh has read A's entry (its next sync carries it).
		while (!b.knownClaimers.includes(a.memberId)) {
			assert.ok(Date.now() - joined < 5_000, 'B never read the claimers list');
			await sleep(20);
		}
		// A crashes: its connections end without leaving the claimers list.
		a.client.disconnect();
		a.resolver.disconnect();
		const port = redis.port;
		await redis.stop();
		redis = await startRedis({ dir: path.join(dir, 'redis'), port });
		// Past the window (and once B is back), a copy at B is still 503: B waits for A.
		const windowEnds = Date.now() + 1_000;
		for (;;) {
			const copy = await b.claim(key, TTL_MS);
			assert.equal(copy.verdict, 'unavailable', JSON.stringify(copy));
			if (Date.now() > windowEnds && /written its claims back/.test(copy.reason)) {
				assert.ok(copy.reason.includes(a.memberId), copy.reason);
				break;
			}
			assert.ok(Date.now() < windowEnds + 5_000, `B never waited for A: ${copy.reason}`);
			await sleep(100);
		}
	});

	/** Waits until the condition holds (polls), failing with `what` after `ms`. */
	async function until(what, condition, ms = 15_000) {
		const deadline = Date.now() + ms;
		for (;;) {
			const value = await condition();
			if (value) return value;
			assert.ok(Date.now() < deadline, `never: ${what}`);
			await sleep(50);
		}
	}

	/**
	 * Until when the process p's last read of the claimers list says `member` may hold claims
	 * (Redis' clock, ms), or 0 when that read did not name it.
	 */
	function knownUntil(p, member) {
		for (const entry of p.knownClaimers.split(',')) {
			const at = entry.lastIndexOf('=');
			if (entry.slice(0, at) === member) return Number(entry.slice(at + 1));
		}
		return 0;
	}

	const usedMemory = async (port = redis.port) =>
		Number(/used_memory:(\d+)/.exec(await probeCommand(port, 'INFO', 'memory'))[1]);

	/**
	 * A Redis of the case's own: the shared one knows claimers of earlier cases (closed, or
	 * crashed on purpose), which a new epoch would wait for.
	 */
	async function ownRedis(name, args = []) {
		const own = await startRedis({ dir: path.join(dir, name), args });
		own.args = args;
		const first = processClaims({ port: own.port });
		while ((await first.claim(`start:${randomUUID()}`, 1_000)).verdict !== 'claimed')
			await sleep(50);
		await first.close();
		return own;
	}

	test('an evicting policy set for a while and reverted: claims it evicted are found lost (evicted_keys grew), and a copy is never run again (outside r7 f1 a)', async () => {
		const own = await ownRedis('evict-revert');
		const port = own.port;
		const timing = { restartWindowMs: 500 };
		const a = processClaims({ timing, port });
		const b = processClaims({ timing, port });
		await settled(a, b);
		const keys = Array.from({ length: 30 }, () => `evict:${randomUUID()}`);
		for (const key of keys) assert.equal((await a.claim(key, TTL_MS)).verdict, 'claimed');
		await probeCommand(port, 'CONFIG', 'SET', 'maxmemory-policy', 'allkeys-lru');
		await probeCommand(
			port,
			'CONFIG',
			'SET',
			'maxmemory',
			String((await usedMemory(port)) + 200_000),
		);
		const big = 'x'.repeat(1_000);
		let round = 0;
		try {
			// Another user of this Redis fills it until claim keys are evicted (here the epoch may
			// go too; the reader's f1 script keeps it, where only the evicted_keys count tells).
			await until('a claim key evicted', async () => {
				const args = ['MSET'];
				for (let j = 0; j < 20; j++) args.push(`filler:${round}:${j}`, big);
				round++;
				await probeCommand(port, ...args);
				const left = await Promise.all(keys.map((k) => probeCommand(port, 'EXISTS', k)));
				return left.includes(0);
			});
		} finally {
			await probeCommand(port, 'CONFIG', 'SET', 'maxmemory-policy', 'noeviction');
			await probeCommand(port, 'CONFIG', 'SET', 'maxmemory', '0');
			await probeCommand(
				port,
				'EVAL',
				"for _,k in ipairs(redis.call('KEYS','filler:*')) do redis.call('DEL',k) end return 1",
				'0',
			);
		}
		// After the revert: no copy at B is run again (A writes its claims back; until then, 503).
		for (const key of keys) {
			const copy = await until(`an answer for ${key}`, async () => {
				const v = await b.claim(key, TTL_MS);
				return v.verdict === 'unavailable' ? undefined : v;
			});
			assert.deepEqual(copy, { verdict: 'duplicate', by: 'redis' }, key);
		}
		await Promise.all([a.close(), b.close()]);
		await own.stop();
	});

	test('Redis full (noeviction) when a process connects: 503 naming it, and the first claim after Redis has room again is claimed (outside r7 f5, f1 b)', async () => {
		const own = await ownRedis('full-at-connect');
		const port = own.port;
		const a = processClaims({ port });
		await settled(a);
		const big = 'x'.repeat(1_000);
		const args = ['MSET'];
		for (let j = 0; j < 200; j++) args.push(`full:${j}`, big);
		await probeCommand(port, ...args);
		await probeCommand(
			port,
			'CONFIG',
			'SET',
			'maxmemory',
			String((await usedMemory(port)) - 20_000),
		);
		const c = processClaims({ port });
		try {
			const refused = await c.claim(`full:${randomUUID()}`, TTL_MS);
			assert.equal(refused.verdict, 'unavailable', JSON.stringify(refused));
			assert.match(refused.reason, /OOM/);
			// A's connection drops and comes back while Redis is full (outside r7 f5b).
			a.client.disconnect(true);
			await until('A reconnected', () => a.client.status === 'ready');
		} finally {
			await probeCommand(port, 'CONFIG', 'SET', 'maxmemory', '0');
			await probeCommand(
				port,
				'EVAL',
				"for _,k in ipairs(redis.call('KEYS','full:*')) do redis.call('DEL',k) end return 1",
				'0',
			);
		}
		for (const p of [c, a]) {
			const v = await p.claim(`room:${randomUUID()}`, TTL_MS);
			assert.deepEqual(v, { verdict: 'claimed' }, JSON.stringify(v));
		}
		await Promise.all([a.close(), c.close()]);
		await own.stop();
	});

	test('Redis refuses the promotion (OOM): not written, so nothing starts (503) and a later copy runs once (outside r7 f8)', async () => {
		const own = await ownRedis('oom-promotion');
		const port = own.port;
		const link = await startRelay(own);
		const a = processClaims({ port: link.port, timeoutMs: 500 });
		const b = processClaims({ port });
		await settled(a, b);
		const key = `oom-promotion:${randomUUID()}`;
		const hold = link.armNext({ match: '$3\r\nrun\r\n', what: 'command', action: 'hold' });
		const atA = a.claim(key, TTL_MS);
		await hold.reached;
		await probeCommand(
			port,
			'CONFIG',
			'SET',
			'maxmemory',
			String((await usedMemory(port)) - 50_000),
		);
		let verdict;
		try {
			hold.release();
			verdict = await atA;
		} finally {
			await probeCommand(port, 'CONFIG', 'SET', 'maxmemory', '0');
		}
		assert.equal(verdict.verdict, 'unavailable', JSON.stringify(verdict));
		assert.match(verdict.reason, /refused to mark the confirmed claim running/);
		const copy = await until('a copy answered', async () => {
			const v = await b.claim(key, TTL_MS);
			return v.verdict === 'unavailable' ? undefined : v;
		});
		assert.deepEqual(copy, { verdict: 'claimed' });
		await Promise.all([a.close(), b.close()]);
		await link.close();
		await own.stop();
	});

	test('a promotion reaching Redis after the bind with no other attempt in between: the process that started it leaves its run record, so a copy is a duplicate (outside r7 f6)', async () => {
		const own = await ownRedis('late-promotion');
		const port = own.port;
		const link = await startRelay(own);
		const a = processClaims({ port: link.port, timeoutMs: 500 });
		const b = processClaims({ port });
		await settled(a, b);
		const key = `late-promotion:${randomUUID()}`;
		const bindMs = 2 * 500 + a.timing.readBackMs;
		// The promotion, and everything after it on A's connections, reaches Redis after the bind.
		link.stallAfter({ match: '$3\r\nrun\r\n', ms: bindMs + 1_000, both: true });
		const late = link.armNext({
			match: '$3\r\nrun\r\n',
			what: 'command',
			action: 'delay',
			delayMs: bindMs + 1_000,
		});
		assert.deepEqual(await a.claim(key, TTL_MS), { verdict: 'claimed' });
		assert.equal(await late.passed, 'passed');
		await until('the run record of A in Redis', async () =>
			/^r:/.test((await probeCommand(port, 'GET', key)) ?? ''),
		);
		assert.deepEqual(await b.claim(key, TTL_MS), { verdict: 'duplicate', by: 'redis' });
		await Promise.all([a.close(), b.close()]);
		await link.close();
		await own.stop();
	});

	test('appendonly turned off on the live Redis: every claim refused naming it until it is on again (outside r7 f9)', async () => {
		const primary = await startRedis({ dir: path.join(dir, 'aof-live'), appendonly: true });
		try {
			const a = new claimsModule.RedisClaims({ host: '127.0.0.1', port: primary.port }, {});
			clients.push(a);
			await until(
				'a claim',
				async () => (await a.claim(`aof:${randomUUID()}`, TTL_MS)).verdict === 'claimed',
			);
			await probeCommand(primary.port, 'CONFIG', 'SET', 'appendonly', 'no');
			for (let i = 0; i < 3; i++) {
				const v = await a.claim(`aof-off:${randomUUID()}`, TTL_MS);
				assert.equal(v.verdict, 'unavailable', JSON.stringify(v));
				assert.match(v.reason, /appendonly/);
			}
			await probeCommand(primary.port, 'CONFIG', 'SET', 'appendonly', 'yes');
			await until(
				'a claim after appendonly yes',
				async () => (await a.claim(`aof-on:${randomUUID()}`, TTL_MS)).verdict === 'claimed',
			);
		} finally {
			await primary.stop();
		}
	});

	test('Redis with a replica: a run record the replica has not acknowledged does not start the delivery, so a failover to it runs it once (outside r7 f4)', async () => {
		const primary = await startRedis({
			dir: path.join(dir, 'primary-r7'),
			appendonly: true,
			args: ['--shutdown-timeout', '0'],
		});
		const replica = await startRedis({
			dir: path.join(dir, 'replica-r7'),
			appendonly: true,
			args: ['--replicaof', '127.0.0.1', String(primary.port)],
		});
		const failover = await startRelay(primary);
		try {
			const a = processClaims({ port: failover.port, timing: { restartWindowMs: 0 } });
			const b = processClaims({ port: failover.port, timing: { restartWindowMs: 0 } });
			await until('the replica linked', async () =>
				(await probeCommand(replica.port, 'INFO', 'replication')).includes('master_link_status:up'),
			);
			await settled(a, b);
			const key = `failover-run:${randomUUID()}`;
			// The replica stops taking the stream once A sends its promotion (the confirm reached it).
			const hold = failover.armNext({ match: '$4\r\npend\r\n', what: 'command', action: 'hold' });
			const pending = a.claim(key, TTL_MS);
			await hold.reached;
			process.kill(replica.pid, 'SIGSTOP');
			let atA;
			try {
				hold.release();
				atA = await pending;
			} finally {
				await primary.stop();
				process.kill(replica.pid, 'SIGCONT');
			}
			assert.equal(atA.verdict, 'unavailable', JSON.stringify(atA));
			assert.match(atA.reason, /run record/);
			await probeCommand(replica.port, 'REPLICAOF', 'NO', 'ONE');
			failover.retarget(replica.port);
			failover.cutAll();
			const atB = await until('a copy answered', async () => {
				const v = await b.claim(key, TTL_MS);
				return v.verdict === 'unavailable' ? undefined : v;
			});
			assert.deepEqual(atB, { verdict: 'claimed' });
		} finally {
			await failover.close();
			await replica.stop();
			await primary.stop();
		}
	});

	/** Stops the Redis and starts it again, empty, on the same port (no persistence). */
	async function restarted(handle) {
		const port = handle.port;
		await handle.stop();
		const args = handle.args ?? [];
		const again = await startRedis({
			dir: path.join(dir, `restarted-${port}-${randomUUID()}`),
			port,
			args,
		});
		again.args = args;
		return again;
	}

	/** Redis records every command, with its arguments and client, in its slow log (the dump's). */
	const RECORD_ALL = ['--slowlog-log-slower-than', '0', '--slowlog-max-len', '100000'];
	/** The scripts by their number of keys, for the dump. */
	const SCRIPT_BY_KEYS = { 6: 'claim', 3: 'confirm', 5: 'sync', 2: 'resolve/reseed' };

	/**
	 * What Redis and each process hold of the epoch, for a failure message: the epoch, expected,
	 * back and members hashes, Redis' run ID, every script call since the (re)start (from the slow
	 * log: caller's address, its arguments after the keys), and each process's memory and the
	 * local ports of its two connections.
	 */
	async function epochDump(port, processes) {
		const prefix = claimsModule.KEY_PREFIX;
		const read = async (...args) => {
			try {
				return await probeCommand(port, ...args);
			} catch (error) {
				return `(${error.message})`;
			}
		};
		const info = await read('INFO', 'server');
		const log = await read('SLOWLOG', 'GET', '100000');
		const calls = Array.isArray(log)
			? log
					.reverse()
					.filter((entry) => /^eval/i.test(String(entry[3]?.[0])))
					.map((entry) => {
						const [, at, , args, addr] = entry;
						const keys = Number(args[2]);
						return `${at} ${addr} ${SCRIPT_BY_KEYS[keys] ?? keys} ${args.slice(3 + keys).join(' | ')}`;
					})
			: log;
		return JSON.stringify(
			{
				runId: /run_id:(\w+)/.exec(String(info))?.[1],
				epoch: await read('HGETALL', `${prefix}:epoch`),
				expected: await read('HGETALL', `${prefix}:epoch-expected`),
				back: await read('SMEMBERS', `${prefix}:epoch-back`),
				members: await read('HGETALL', `${prefix}:members`),
				processes: Object.fromEntries(
					Object.entries(processes).map(([name, p]) => [
						name,
						{
							member: p.memberId,
							epoch: p.memory?.epoch,
							known: p.memory?.knownMembers,
							epochRun: p.memory?.epochRun,
							factsRun: p.facts?.runId,
							closed: p.isClosed,
							ports: [p.client.stream?.localPort, p.resolver.stream?.localPort],
						},
					]),
				),
				calls,
			},
			null,
			1,
		);
	}

	/** A copy of the key at the process: the first answer that is not 503 (503 while it waits). */
	async function answered(p, key, ms = 15_000) {
		return await until(
			`an answer for ${key}`,
			async () => {
				const v = await p.claim(key, TTL_MS);
				return v.verdict === 'unavailable' ? undefined : v;
			},
			ms,
		);
	}

	test('a credential edit (a new client for the same Redis) then a restart without persistence: the new client writes back what the old one ran, so a copy is a duplicate (outside r8 f2)', async () => {
		let own = await ownRedis('edit-then-restart');
		const port = own.port;
		const timing = { restartWindowMs: 500, refreshMs: 100 };
		const a1 = processClaims({ timing, port, processOf: 'A' });
		const b = processClaims({ timing, port, processOf: 'B' });
		await settled(a1, b);
		const d = `edited:${randomUUID()}`;
		assert.equal((await a1.claim(d, TTL_MS)).verdict, 'claimed');
		// B's read covers A's claims of 10 minutes, not only its settle claim of 1 s (case 26).
		await until("B read A's claims", () => knownUntil(b, a1.memberId) > Date.now() + 60_000);
		// The credential edited (other options, the same Redis): process A's next delivery goes
		// through a new client, and the old one closes.
		const a2 = processClaims({ timing, port, processOf: 'A', extra: { connectionName: 'edited' } });
		assert.notEqual(a2, a1);
		assert.equal((await a2.claim(`e:${randomUUID()}`, TTL_MS)).verdict, 'claimed');
		// The store's close of a stopped trigger: the other client of this Redis holds the memory.
		const closing = a1.closeWhenSettled();
		await until("A's old client closed", () => a1.isClosed);
		await closing;
		assert.deepEqual(await a2.claim(d, TTL_MS), { verdict: 'duplicate', by: 'memory' });
		own = await restarted(own);
		// Past the window: a copy of D at B is never run again (A's new client wrote it back).
		assert.deepEqual(await answered(b, d), { verdict: 'duplicate', by: 'redis' });
		await Promise.all([a2.close(), b.close()]);
		await own.stop();
	});

	test('a deactivation with no other client for that Redis: the client stays connected while the process holds claims, writes them back after a restart, and closes once another client takes over (outside r8 f2)', async () => {
		let own = await ownRedis('deactivate-linger');
		const port = own.port;
		const timing = { restartWindowMs: 500, refreshMs: 100 };
		const a1 = processClaims({ timing, port, processOf: 'A3' });
		const b = processClaims({ timing, port, processOf: 'B3' });
		await settled(a1, b);
		const d = `lingering:${randomUUID()}`;
		assert.equal((await a1.claim(d, TTL_MS)).verdict, 'claimed');
		// B's read covers A's claims of 10 minutes, not only its settle claim of 1 s (case 26).
		await until("B read A's claims", () => knownUntil(b, a1.memberId) > Date.now() + 60_000);
		// The store closes a stopped trigger's client this way (deactivation).
		const closing = a1.closeWhenSettled();
		own = await restarted(own);
		assert.deepEqual(await answered(b, d), { verdict: 'duplicate', by: 'redis' });
		assert.equal(a1.isClosed, false);
		const a2 = processClaims({ timing, port, processOf: 'A3' });
		await until("A's old client closed", () => a1.isClosed);
		await closing;
		assert.deepEqual(await a2.claim(d, TTL_MS), { verdict: 'duplicate', by: 'memory' });
		await Promise.all([a2.close(), b.close()]);
		await own.stop();
	});

	test('a client closed at once with no other client for that Redis (a process stopping), then a restart without persistence: the others wait for the process (503), and a client it opens later writes back (outside r8 f2)', async () => {
		let own = await ownRedis('deactivate-then-restart', RECORD_ALL);
		const port = own.port;
		const timing = { restartWindowMs: 500, refreshMs: 100 };
		const a1 = processClaims({ timing, port, processOf: 'A2' });
		const b = processClaims({ timing, port, processOf: 'B2' });
		await settled(a1, b);
		const d = `deactivated:${randomUUID()}`;
		assert.equal((await a1.claim(d, TTL_MS)).verdict, 'claimed');
		// B has read A's claim of D: A's entry holds D's 10 minutes. Naming A is not enough: A's
		// settle claim (1 s) named it before, and a read from before D's confirm (B's refresh late
		// under load) made B wait for A only until then (the gap the next case pins).
		await until("B read A's claim of D", () => knownUntil(b, a1.memberId) > Date.now() + 60_000);
		await a1.close();
		// A's entry stays in the claimers list while it holds claims in its memory.
		const members = `${claimsModule.KEY_PREFIX}:members`;
		assert.equal(await probeCommand(port, 'HEXISTS', members, a1.memberId), 1);
		own = await restarted(own);
		const windowEnds = Date.now() + 1_500;
		for (;;) {
			const copy = await b.claim(d, TTL_MS);
			if (copy.verdict !== 'unavailable') {
				assert.fail(
					`${JSON.stringify({ copy, a: a1.memberId, known: b.knownClaimers, at: Date.now() - windowEnds })}\n${await epochDump(port, { a1, b })}`,
				);
			}
			if (Date.now() > windowEnds) {
				assert.match(copy.reason, /written its claims back/);
				assert.ok(copy.reason.includes(a1.memberId), copy.reason);
				break;
			}
			await sleep(100);
		}
		// The trigger activated again in process A: its new client adopts what A ran.
		const a3 = processClaims({ timing, port, processOf: 'A2' });
		await a3.claim(`again:${randomUUID()}`, TTL_MS);
		assert.deepEqual(await answered(b, d), { verdict: 'duplicate', by: 'redis' });
		await Promise.all([a3.close(), b.close()]);
		await own.stop();
	});

	test("a claim the others have not read yet (the claimers list is read every refreshMs), its process then stopped, and a restart without persistence: the others know it only as of their last read, so the claim is covered by the restart window only (the cause of case 26's failures under load; docs/queue-mode.md names the gap)", async () => {
		let own = await ownRedis('unread-claim', RECORD_ALL);
		const port = own.port;
		const link = await startRelay(own);
		try {
			const timing = { restartWindowMs: 1_500, refreshMs: 100 };
			const a = processClaims({ timing, port, processOf: 'A13' });
			const b = processClaims({ timing, port: link.port, processOf: 'B13' });
			await settled(a, b);
			// A's entry ends 1 s from its last claim (a claim of 1 s), and B has read that.
			assert.equal((await a.claim(`short:${randomUUID()}`, 1_000)).verdict, 'claimed');
			const shortUntil = knownUntil(a, a.memberId);
			await until('B read A', () => knownUntil(b, a.memberId) >= shortUntil);
			// B's next read of the claimers list is held (its link slow), so B does not read
			// A's claim of D: what a late refresh under load did by chance.
			const frozen = link.armNext({ match: 'epoch-expected', what: 'command', action: 'hold' });
			await frozen.reached;
			const d = `unread:${randomUUID()}`;
			assert.equal((await a.claim(d, TTL_MS)).verdict, 'claimed');
			assert.ok(knownUntil(b, a.memberId) < Date.now() + 60_000, b.knownClaimers);
			await a.close();
			own = await restarted(own);
			// Within the window every copy is 503 (the window names itself); after it, B waits for
			// A only until the end it read, and a copy then runs again: the gap.
			const reasons = new Set();
			const deadline = Date.now() + 15_000;
			let copy;
			for (;;) {
				copy = await b.claim(d, TTL_MS);
				if (copy.verdict !== 'unavailable') break;
				assert.ok(Date.now() < deadline, `still 503 after 15 s: ${copy.reason}`);
				reasons.add(/for 1500 ms from then/.test(copy.reason) ? 'window' : copy.reason);
				await sleep(50);
			}
			const [seconds, micros] = await probeCommand(port, 'TIME');
			const answeredBy = Number(seconds) * 1_000 + Math.floor(Number(micros) / 1_000);
			const born = Number(
				await probeCommand(port, 'HGET', `${claimsModule.KEY_PREFIX}:epoch`, 'born'),
			);
			const story = `${JSON.stringify({ copy, reasons: [...reasons] })}\n${await epochDump(port, { a, b })}`;
			assert.ok(reasons.has('window'), story);
			assert.ok(answeredBy >= born + timing.restartWindowMs, story);
			assert.deepEqual(copy, { verdict: 'claimed' }, story);
			await b.close();
		} finally {
			await link.close();
			await own.stop();
		}
	});

	test('a process without persistence at its bound of remembered claims: a new claim is 503 naming the bound, and every claim it remembers is written back after a restart (outside r8 f3)', async () => {
		let own = await ownRedis('bound-full');
		const port = own.port;
		const timing = { restartWindowMs: 500, refreshMs: 100, recentMax: 6 };
		const a = processClaims({ timing, port });
		const b = processClaims({ timing: { restartWindowMs: 500, refreshMs: 100 }, port });
		await settled(b);
		const keys = [];
		let refused;
		for (let i = 0; i < 10 && refused === undefined; i++) {
			const key = `bound:${i}:${randomUUID()}`;
			const v = await a.claim(key, TTL_MS);
			if (v.verdict === 'claimed') keys.push(key);
			else if (/remembers/.test(v.reason ?? '')) refused = v;
		}
		assert.ok(refused, 'a claim past the bound was refused');
		assert.equal(keys.length, 6);
		assert.match(refused.reason, /remembers 6 claims .*its bound of 6/);
		assert.match(refused.reason, /10 minutes|1 minutes|\d+ s/);
		// B's read covers A's claims of 10 minutes, not only its settle claim of 1 s (case 26).
		await until("B read A's claims", () => knownUntil(b, a.memberId) > Date.now() + 60_000);
		own = await restarted(own);
		// The oldest claim too: a copy at B is a duplicate, never run again.
		for (const key of keys)
			assert.deepEqual(await answered(b, key), { verdict: 'duplicate', by: 'redis' }, key);
		await Promise.all([a.close(), b.close()]);
		await own.stop();
	});

	test('claims under way count against the bound: of 20 at once at a process without persistence one short of it, exactly the room left is claimed, the others 503 naming the bound (outside r8 f3)', async () => {
		// A Redis of its own: the shared one may wait for a claimer an earlier case crashed.
		const own = await ownRedis('under-way');
		const a = processClaims({ timing: { recentMax: 6 }, port: own.port });
		await settled(a); // one claim remembered
		const verdicts = await Promise.all(
			Array.from({ length: 20 }, () => a.claim(`under-way:${randomUUID()}`, TTL_MS)),
		);
		assert.equal(
			verdicts.filter((v) => v.verdict === 'claimed').length,
			5,
			JSON.stringify(verdicts),
		);
		for (const v of verdicts.filter((x) => x.verdict !== 'claimed')) {
			assert.equal(v.verdict, 'unavailable');
			assert.match(v.reason, /its bound of 6/);
		}
		await a.close();
		await own.stop();
	});

	test('a process with persistence at its bound: claims go on (Redis keeps them across a restart; the oldest leaves the memory) (outside r8 f3)', async () => {
		const own = await startRedis({ dir: path.join(dir, 'bound-aof'), appendonly: true });
		const a = new claimsModule.RedisClaims({ host: '127.0.0.1', port: own.port }, { recentMax: 3 });
		clients.push(a);
		for (let i = 0; i < 6; i++) {
			assert.deepEqual(await a.claim(`aof-bound:${i}:${randomUUID()}`, TTL_MS), {
				verdict: 'claimed',
			});
		}
		await a.close();
		await own.stop();
	});

	test('a credential edit while a claim of the old client is under way (its promotion held): the old client closes only once it is decided, so its run record lands and a copy is a duplicate (outside r9 f1)', async () => {
		const own = await ownRedis('close-inflight');
		const link = await startRelay(own);
		try {
			const a1 = processClaims({ port: link.port, processOf: 'A9' });
			const b = processClaims({ port: own.port, processOf: 'B9' });
			await settled(a1, b);
			const d = `close-inflight:${randomUUID()}`;
			const hold = link.armNext({ match: '$3\r\nrun\r\n', what: 'command', action: 'hold' });
			const pending = a1.claim(d, TTL_MS);
			await hold.reached;
			// The credential edited: process A's next delivery goes through a new client, and the
			// store closes the old one (closeWhenSettled) while A's claim waits for its promotion.
			const a2 = processClaims({ port: link.port, processOf: 'A9' });
			await settled(a2);
			const closing = a1.closeWhenSettled();
			// A client closed under the claim loses the command its connection still holds (the
			// relay would pass it on after the close): the relay drops it with the connection.
			if (a1.isClosed) link.cutAll();
			hold.release();
			assert.deepEqual(await pending, { verdict: 'claimed' });
			await closing;
			assert.equal(a1.isClosed, true);
			const held = await probeCommand(own.port, 'GET', d);
			assert.ok(held?.startsWith('r:'), `the run record landed: ${held}`);
			assert.deepEqual(await b.claim(d, TTL_MS), { verdict: 'duplicate', by: 'redis' });
			await Promise.all([a2.close(), b.close()]);
		} finally {
			await link.close();
			await own.stop();
		}
	});

	test('Redis with a replica: a run record the replica has not acknowledged (503) is never read as a duplicate by another process while its release is held, and the copy runs once it lands (outside r9 f2)', async () => {
		const primary = await startRedis({ dir: path.join(dir, 'primary-r9'), appendonly: true });
		const replica = await startRedis({
			dir: path.join(dir, 'replica-r9'),
			appendonly: true,
			args: ['--replicaof', '127.0.0.1', String(primary.port)],
		});
		const link = await startRelay(primary);
		let stopped = false;
		try {
			const a = processClaims({ port: link.port, timeoutMs: 500, timing: { restartWindowMs: 0 } });
			const b = processClaims({ port: primary.port, timing: { restartWindowMs: 0 } });
			await until('the replica linked', async () =>
				(await probeCommand(replica.port, 'INFO', 'replication')).includes('master_link_status:up'),
			);
			await settled(a, b);
			const d = `replica-release:${randomUUID()}`;
			const promotion = link.armNext({ match: '$4\r\npend\r\n', what: 'command', action: 'hold' });
			const pending = a.claim(d, TTL_MS);
			await promotion.reached;
			// The relay holds one rule at a time: A's release (after its 503) is held next.
			const release = link.armNext({ match: '$7\r\nrelease\r\n', what: 'command', action: 'hold' });
			process.kill(replica.pid, 'SIGSTOP');
			stopped = true;
			promotion.release();
			const atA = await pending;
			assert.equal(atA.verdict, 'unavailable', JSON.stringify(atA));
			assert.match(atA.reason, /run record/);
			await release.reached;
			// A answered 503 and its release is held: a copy at B is never a duplicate (2xx).
			const atB = await b.claim(d, TTL_MS);
			assert.equal(atB.verdict, 'unavailable', JSON.stringify(atB));
			release.release();
			process.kill(replica.pid, 'SIGCONT');
			stopped = false;
			assert.deepEqual(await answered(b, d), { verdict: 'claimed' });
			await Promise.all([a.close(), b.close()]);
		} finally {
			if (stopped) process.kill(replica.pid, 'SIGCONT');
			await link.close();
			await replica.stop();
			await primary.stop();
		}
	});

	test('FLUSHDB on a Redis with persistence while the runner is away, then a process new to it: a copy there is 503 (the restart window), never run again, and once the runner wrote back a duplicate (outside r9 f3)', async () => {
		const own = await startRedis({ dir: path.join(dir, 'flush-aof'), appendonly: true });
		const link = await startRelay(own);
		try {
			const timing = { restartWindowMs: 1_000, refreshMs: 100 };
			const a = processClaims({ port: link.port, timing, processOf: 'A10' });
			await settled(a);
			const d = `flushed:${randomUUID()}`;
			assert.deepEqual(await a.claim(d, TTL_MS), { verdict: 'claimed' });
			// A's link is down (a slow reconnect) while the database is flushed.
			link.block({ mode: 'refuse', ms: 600_000 });
			link.cutAll();
			await probeCommand(own.port, 'FLUSHDB');
			// C has never used this Redis: it knows no epoch, and Redis shows a flush since its start.
			const c = processClaims({ port: own.port, timing, processOf: 'C10' });
			const first = await c.claim(d, TTL_MS);
			assert.equal(first.verdict, 'unavailable', JSON.stringify(first));
			assert.match(first.reason, /flushed \(FLUSHDB or FLUSHALL\)/);
			link.block({ mode: 'refuse', ms: 0 });
			await until('A wrote its claim back', async () =>
				String(await probeCommand(own.port, 'GET', d)).startsWith('r:'),
			);
			assert.deepEqual(await answered(c, d), { verdict: 'duplicate', by: 'redis' });
			await Promise.all([a.close(), c.close()]);
		} finally {
			await link.close();
			await own.stop();
		}
	});

	test('a Redis with persistence that lost its keys without a restart (FLUSHDB), a claimer the others know away: past the window they wait for it, and the reason names a flush or an eviction, never a restart without persistence (claim-faults seed 26 in a cold CI run)', async () => {
		const own = await startRedis({ dir: path.join(dir, 'flush-aof-known'), appendonly: true });
		const link = await startRelay(own);
		try {
			const timing = { restartWindowMs: 300, refreshMs: 100 };
			const a = processClaims({ port: link.port, timing, processOf: 'A12' });
			const b = processClaims({ port: own.port, timing, processOf: 'B12' });
			await settled(a, b);
			const d = `flushed-known:${randomUUID()}`;
			assert.deepEqual(await a.claim(d, TTL_MS), { verdict: 'claimed' });
			// B's read covers A's claims of 10 minutes, not only its settle claim of 1 s (case 26).
			await until("B read A's claims", () => knownUntil(b, a.memberId) > Date.now() + 60_000);
			link.block({ mode: 'refuse', ms: 600_000 });
			link.cutAll();
			await probeCommand(own.port, 'FLUSHDB');
			let copy;
			do {
				copy = await b.claim(d, TTL_MS);
				assert.equal(copy.verdict, 'unavailable', JSON.stringify(copy));
			} while (!/written its claims back/.test(copy.reason));
			assert.ok(copy.reason.includes(a.memberId), copy.reason);
			assert.match(copy.reason, /without restarting \(evicted or flushed/);
			assert.doesNotMatch(copy.reason, /restarted without persistence/);
			link.block({ mode: 'refuse', ms: 0 });
			assert.deepEqual(await answered(b, d), { verdict: 'duplicate', by: 'redis' });
			await Promise.all([a.close(), b.close()]);
		} finally {
			await link.close();
			await own.stop();
		}
	});

	test('Redis paused (CLIENT PAUSE WRITE) after the confirm, past the bind, with the promotion and a copy queued in that order: the promotion lands first as the run record, so the copy is a duplicate (outside r10 f1)', async () => {
		const own = await ownRedis('paused-promotion');
		const port = own.port;
		const link = await startRelay(own);
		// A: promotion unanswered after 500 ms is taken as applied (it runs); its confirm binds
		// 2 × 500 + 300 ms. B waits long for Redis, so its claim outlasts the pause, and reads the
		// claimers list only every 5 s (after the pause): Redis resumes paused connections in the
		// order it paused them, each running all it has queued, so a read of B's own paused before
		// A's promotion arrived lets B's copy run first (the window docs/queue-mode.md names;
		// seen under load, once in 9 full runs).
		const a = processClaims({ port: link.port, timing: { timeoutMs: 500, readBackMs: 300 } });
		const b = processClaims({ port, timing: { timeoutMs: 6_000, refreshMs: 5_000 } });
		try {
			await settled(a, b);
			const key = `paused-promotion:${randomUUID()}`;
			const bindMs = 2 * 500 + 300;
			// A's promotion is held on its way, long enough for the pause to begin before it arrives.
			const held = link.armNext({
				match: '$3\r\nrun\r\n',
				what: 'command',
				action: 'delay',
				delayMs: 400,
			});
			const running = a.claim(key, TTL_MS);
			await until('A confirmed', async () =>
				((await probeCommand(port, 'GET', key)) ?? '').startsWith('c:'),
			);
			await probeCommand(port, 'CLIENT', 'PAUSE', String(bindMs + 1_500), 'WRITE');
			assert.equal(await held.passed, 'passed');
			// Redis has read it: postponed by the pause (a blocked client: only A's connections
			// write now), or applied if the pause had ended.
			await until("Redis read A's promotion", async () => {
				const blocked = /blocked_clients:([1-9])/.test(await probeCommand(port, 'INFO', 'clients'));
				return blocked || /^r:/.test((await probeCommand(port, 'GET', key)) ?? '');
			});
			// Unanswered within its timeout: A took it as applied and runs the delivery.
			assert.deepEqual(await running, { verdict: 'claimed' });
			// B's copy is queued behind A's promotion; both are processed once the pause ends, past A's bind.
			assert.deepEqual(await b.claim(key, TTL_MS), { verdict: 'duplicate', by: 'redis' });
			assert.match(String(await probeCommand(port, 'GET', key)), /^r:/);
		} finally {
			await Promise.all([a.close(), b.close()]);
			await link.close();
			await own.stop();
		}
	});

	test('eviction that took the epoch too (evicted_keys > 0, no epoch), then a process new to Redis: the restart window, naming eviction, never a first use (outside r10 f3)', async () => {
		const own = await startRedis({ dir: path.join(dir, 'evicted-epoch'), appendonly: true });
		try {
			const timing = { restartWindowMs: 1_000, refreshMs: 100 };
			const a = processClaims({ port: own.port, timing });
			await settled(a);
			const d = `evicted-epoch:${randomUUID()}`;
			assert.deepEqual(await a.claim(d, TTL_MS), { verdict: 'claimed' });
			await a.close();
			// An evicting policy for a while: Redis evicts (here a filler key), then it is reverted.
			await probeCommand(own.port, 'CONFIG', 'SET', 'maxmemory-policy', 'allkeys-random');
			await probeCommand(
				own.port,
				'CONFIG',
				'SET',
				'maxmemory',
				String((await usedMemory(own.port)) + 200_000),
			);
			for (
				let i = 0;
				!/evicted_keys:[1-9]/.test(await probeCommand(own.port, 'INFO', 'stats'));
				i++
			) {
				await probeCommand(own.port, 'SET', `filler:${i}`, 'x'.repeat(50_000));
			}
			await probeCommand(own.port, 'CONFIG', 'SET', 'maxmemory', '0');
			await probeCommand(own.port, 'CONFIG', 'SET', 'maxmemory-policy', 'noeviction');
			// The claim and the package's keys, the epoch among them, went with it (removed here for certain).
			const ours = await probeCommand(own.port, 'KEYS', `${claimsModule.KEY_PREFIX}*`);
			await probeCommand(own.port, 'DEL', d, ...ours);
			const c = processClaims({ port: own.port, timing });
			const first = await c.claim(d, TTL_MS);
			assert.equal(first.verdict, 'unavailable', JSON.stringify(first));
			assert.match(first.reason, /lost its keys to eviction/);
			await c.close();
		} finally {
			await own.stop();
		}
	});

	test("an epoch begun in Redis' future (its clock stepped back after a restart): the window left never exceeds the window, and it ends (outside r10 f5)", async () => {
		const own = await ownRedis('clock-stepped-back');
		const port = own.port;
		const timing = { restartWindowMs: 1_000, refreshMs: 100 };
		const a = processClaims({ port, timing });
		await settled(a);
		const [seconds, micros] = await probeCommand(port, 'TIME');
		const redisNow = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
		// As a restart followed by a step back of one hour leaves it: begun an hour ahead.
		await probeCommand(
			port,
			'HSET',
			`${claimsModule.KEY_PREFIX}:epoch`,
			'born',
			String(redisNow + 3_600_000),
			'restart',
			'1',
			'cause',
			'restart',
		);
		const d = `clock-stepped-back:${randomUUID()}`;
		const first = await a.claim(d, TTL_MS);
		if (first.verdict === 'unavailable') {
			const left = Number(/\((\d+) ms left\)/.exec(first.reason)?.[1]);
			assert.ok(left <= 1_000, first.reason);
		}
		assert.deepEqual(await answered(a, d), { verdict: 'claimed' });
		await a.close();
		await own.stop();
	});

	/**
	 * Runs `body` with the wall clock (Date.now) stepped by `stepMs` once `afterMs` of real time
	 * have passed (a step in the middle of whatever the body waits for).
	 */
	async function withWallClockStep(stepMs, afterMs, body) {
		const real = Date.now;
		const from = real() + afterMs;
		Date.now = () => {
			const now = real();
			return now >= from ? now + stepMs : now;
		};
		try {
			return await body();
		} finally {
			Date.now = real;
		}
	}

	test('the wall clock set 11 minutes forward: remembered claims are not aged out, and after a restart without persistence they are written back (outside r9 f4)', async () => {
		let own = await ownRedis('clock-forward');
		const port = own.port;
		const timing = { restartWindowMs: 500, refreshMs: 100 };
		const a = processClaims({ timing, port, processOf: 'A11' });
		const b = processClaims({ timing, port, processOf: 'B11' });
		await settled(a, b);
		const d = `clock-forward:${randomUUID()}`;
		assert.equal((await a.claim(d, TTL_MS)).verdict, 'claimed');
		// B's read covers A's claims of 10 minutes, not only its settle claim of 1 s (case 26).
		await until("B read A's claims", () => knownUntil(b, a.memberId) > Date.now() + 60_000);
		await withWallClockStep(11 * 60_000, 0, async () => {
			assert.deepEqual(await a.claim(d, TTL_MS), { verdict: 'duplicate', by: 'memory' });
			own = await restarted(own);
			assert.deepEqual(await answered(b, d), { verdict: 'duplicate', by: 'redis' });
		});
		await Promise.all([a.close(), b.close()]);
		await own.stop();
	});

	test('the wall clock set back an hour while Redis is unreachable: the claim still answers 503 within its timeout (outside r9 f8)', async () => {
		const own = await ownRedis('clock-back');
		const port = own.port;
		await own.stop();
		const a = processClaims({ port, timeoutMs: 300 });
		// The step comes 100 ms into the claim's wait for the connection (300 ms).
		const verdict = await withWallClockStep(-3_600_000, 100, async () => {
			const pending = a.claim(`clock-back:${randomUUID()}`, TTL_MS);
			let outcome;
			pending.then((v) => (outcome = v));
			// A guard, not a time bound: a wait measured on the wall clock would last an hour.
			const guard = performance.now() + 30_000;
			while (outcome === undefined && performance.now() < guard) await sleep(20);
			return outcome;
		});
		assert.ok(verdict, 'the claim answered (it did not wait for the wall clock to come back)');
		assert.equal(verdict.verdict, 'unavailable');
		await a.close();
	});
	// The held claim (issue 51: never 200 without an execution anywhere). The trigger leaves its
	// 200 to n8n, which answers only once the execution exists (n8n 2.x), and holds its confirmed
	// `c:` until then: extended while held, promoted on n8n's 2xx, released otherwise.
	// A Redis of their own: earlier cases leave the shared one waiting for a crashed claimer.
	const LEASE = { timeoutMs: 500, readBackMs: 500, leaseRefreshMs: 200 };
	let leaseServer;
	async function leaseRedis() {
		leaseServer ??= await ownRedis('lease');
		return leaseServer;
	}
	/** What the lease Redis holds at a key (raw: an ended value too, until it is trimmed). */
	async function holderAt(key) {
		return await probeCommand((await leaseRedis()).port, 'GET', key);
	}
	/** How long a `c:` binds with LEASE: two timeouts and a read-back. */
	const LEASE_BIND_MS = 2 * LEASE.timeoutMs + LEASE.readBackMs;
	/** Redis' clock (ms) and the end of a key's value in the expiry set. */
	async function endOf(key) {
		const { port } = await leaseRedis();
		const [sec, micro] = await probeCommand(port, 'TIME');
		const ends = await probeCommand(port, 'ZSCORE', claimsModule.EXPIRY_KEY, key);
		return { now: Number(sec) * 1000 + Math.floor(Number(micro) / 1000), ends: Number(ends) };
	}

	test("held until n8n answers: the confirmed c: outlives its bind by extensions, a copy elsewhere is 503 (never a duplicate), n8n's 2xx makes it r:", async () => {
		const a = processClaims({ timing: LEASE, port: (await leaseRedis()).port });
		const b = processClaims({ port: (await leaseRedis()).port });
		const key = `lease-2xx:${randomUUID()}`;
		const verdict = await a.hold(key, TTL_MS);
		assert.equal(verdict.verdict, 'claimed', JSON.stringify(verdict));
		assert.equal(typeof verdict.lease?.settle, 'function');
		assert.match((await holderAt(key)) ?? '', /^c:/, 'not promoted before n8n answered');
		// Three binds later (n8n slow to create the execution), still this attempt's c:.
		const start = await endOf(key);
		await until(
			"three binds passed on Redis' clock",
			async () => (await endOf(key)).now > start.now + 3 * LEASE_BIND_MS,
		);
		assert.match((await holderAt(key)) ?? '', /^c:/, 'the lease was extended');
		const copy = await b.claim(key, TTL_MS);
		assert.equal(copy.verdict, 'unavailable', JSON.stringify(copy));
		assert.deepEqual(await verdict.lease.settle(200), { state: 'running' });
		assert.match((await holderAt(key)) ?? '', /^r:/);
		assert.deepEqual(await b.claim(key, TTL_MS), { verdict: 'duplicate', by: 'redis' });
		// A second answer event (close after finish) changes nothing.
		assert.deepEqual(await verdict.lease.settle(0), { state: 'settled' });
		assert.match((await holderAt(key)) ?? '', /^r:/);
	});

	test("held, and one extension of its lease held on its connection (a single stalled command, the link otherwise fine): the same extension goes on the other connection, the c: outlives its bind, a copy elsewhere is 503, n8n's 2xx makes it r: (outside r14 f6)", async () => {
		const server = await leaseRedis();
		const link = await startRelay(server);
		try {
			const a = processClaims({ timing: LEASE, port: link.port });
			const b = processClaims({ port: server.port });
			const key = `lease-stalled-extension:${randomUUID()}`;
			const verdict = await a.hold(key, TTL_MS);
			assert.equal(verdict.verdict, 'claimed', JSON.stringify(verdict));
			// The first extension is held at the relay for three binds; every later command on
			// its connection waits behind it (bytes keep their order).
			const stalled = link.armNext({ match: '$6\r\nextend\r\n', what: 'command', action: 'hold' });
			await stalled.reached;
			const start = await endOf(key);
			await until(
				"three binds passed on Redis' clock",
				async () => (await endOf(key)).now > start.now + 3 * LEASE_BIND_MS,
			);
			assert.match((await holderAt(key)) ?? '', /^c:/, 'the lease was extended past the stall');
			assert.ok((await endOf(key)).ends > (await endOf(key)).now, 'its c: has not ended');
			const copy = await b.claim(key, TTL_MS);
			assert.equal(copy.verdict, 'unavailable', JSON.stringify(copy));
			assert.equal(verdict.lease.lost, undefined);
			assert.deepEqual(await verdict.lease.settle(200), { state: 'running' });
			assert.match((await holderAt(key)) ?? '', /^r:/);
			// The held extension lands late, on the run record: it writes nothing.
			stalled.release();
			assert.equal(await stalled.passed, 'passed');
			assert.match((await holderAt(key)) ?? '', /^r:/);
			assert.deepEqual(await b.claim(key, TTL_MS), { verdict: 'duplicate', by: 'redis' });
			await a.close();
		} finally {
			await link.close();
		}
	});

	for (const [status, what] of [
		[500, 'n8n answered 500 (it could not create or queue the execution)'],
		[428, 'n8n answered 428 (its credential gate: nothing started)'],
	]) {
		test(`held until n8n answers: ${what}: released, the retry at the other process claims it`, async () => {
			const a = processClaims({ timing: LEASE, port: (await leaseRedis()).port });
			const b = processClaims({ port: (await leaseRedis()).port });
			const key = `lease-${status}:${randomUUID()}`;
			const verdict = await a.hold(key, TTL_MS);
			assert.equal(verdict.verdict, 'claimed');
			assert.deepEqual(await verdict.lease.settle(status), { state: 'released' });
			await until('the release reached Redis', async () => (await holderAt(key)) === null);
			assert.deepEqual(await b.claim(key, TTL_MS), { verdict: 'claimed' });
			assert.deepEqual(await verdict.lease.settle(200), { state: 'settled' });
			assert.match((await holderAt(key)) ?? '', /^r:/);
		});
	}

	test('held until n8n answers: the process dies holding it (no answer, no more extensions): its c: ends within one bind, and the retry elsewhere runs it', async () => {
		const a = processClaims({ timing: LEASE, port: (await leaseRedis()).port });
		const b = processClaims({ port: (await leaseRedis()).port });
		const key = `lease-killed:${randomUUID()}`;
		const verdict = await a.hold(key, TTL_MS);
		assert.equal(verdict.verdict, 'claimed');
		// Killed: its connections drop, nothing more reaches Redis from it.
		a.client.disconnect();
		a.resolver.disconnect();
		const { now, ends } = await endOf(key);
		assert.ok(
			ends - now <= LEASE_BIND_MS,
			`the c: ends ${ends - now} ms after the death, its bind is ${LEASE_BIND_MS} ms`,
		);
		await until(
			'the c: ended',
			async () => (await holderAt(key)) === null || (await endOf(key)).now >= ends,
		);
		assert.deepEqual(await b.claim(key, TTL_MS), { verdict: 'claimed' });
		assert.match((await holderAt(key)) ?? '', /^r:/);
	});

	test("held until n8n answers, however long: never promoted without n8n's 2xx, so a copy meanwhile is 503 (never a duplicate); a late answer that is not 2xx releases it and the retry runs it, a late 2xx promotes it (outside r14 f1, f2: the 60 s bound promoted it, and n8n failing after it, or never answering, lost the delivery)", async () => {
		for (const late of [500, 200]) {
			// leaseHoldMs was the old bound's option: set short, it must change nothing.
			const a = processClaims({
				timing: { ...LEASE, leaseHoldMs: 700 },
				port: (await leaseRedis()).port,
			});
			const b = processClaims({ port: (await leaseRedis()).port });
			const key = `lease-long-${late}:${randomUUID()}`;
			const verdict = await a.hold(key, TTL_MS);
			assert.equal(verdict.verdict, 'claimed');
			// n8n slow for many binds and extensions (the old bound was 60 s; LEASE's bind 1.5 s).
			const start = await endOf(key);
			for (let i = 1; i <= 4; i++) {
				await until(
					`${2 * i} binds passed`,
					async () => (await endOf(key)).now > start.now + 2 * i * LEASE_BIND_MS,
				);
				assert.match((await holderAt(key)) ?? '', /^c:/, 'still held, not promoted');
				const copy = await b.claim(key, TTL_MS);
				assert.equal(copy.verdict, 'unavailable', JSON.stringify(copy));
			}
			const settled = await verdict.lease.settle(late);
			if (late === 200) {
				assert.deepEqual(settled, { state: 'running' });
				assert.match((await holderAt(key)) ?? '', /^r:/);
				assert.deepEqual(await b.claim(key, TTL_MS), { verdict: 'duplicate', by: 'redis' });
			} else {
				assert.deepEqual(settled, { state: 'released' });
				await until('released', async () => (await holderAt(key)) === null);
				assert.deepEqual(await b.claim(key, TTL_MS), { verdict: 'claimed' });
			}
		}
	});

	test('held, then decided at once (the trigger answers itself: the call changed the static data): promoted before the answer, as without a hold', async () => {
		const a = processClaims({ timing: LEASE, port: (await leaseRedis()).port });
		const b = processClaims({ port: (await leaseRedis()).port });
		const key = `lease-commit:${randomUUID()}`;
		const verdict = await a.hold(key, TTL_MS);
		assert.deepEqual(await verdict.lease.commit(), { verdict: 'claimed' });
		assert.match((await holderAt(key)) ?? '', /^r:/);
		assert.deepEqual(await b.claim(key, TTL_MS), { verdict: 'duplicate', by: 'redis' });
		// The trigger's own 200 then settles nothing more.
		assert.deepEqual(await verdict.lease.settle(200), { state: 'settled' });
	});

	/** Until the held claim at key is a live `c:` again (its lease took it back). */
	async function retaken(key) {
		await until('the owner took its ended c: back', async () => {
			const held = (await holderAt(key)) ?? '';
			const { now, ends } = await endOf(key);
			return held.startsWith('c:') && ends > now;
		});
	}
	/** Until the value at key has ended on Redis' clock (nobody extended it). */
	async function ended(key) {
		await until("the held c: ended on Redis' clock", async () => {
			const { now, ends } = await endOf(key);
			return ends <= now;
		});
	}
	test("held, and Redis frozen (SIGSTOP) for longer than a bind: once Redis answers again, the owner takes its ended c: back (nobody claimed it: it ran nowhere), so a copy is 503 and never a second execution, and n8n's 2xx makes it r: (outside r15 F1, f1b)", async () => {
		const a = processClaims({ timing: LEASE, port: (await leaseRedis()).port });
		const b = processClaims({ port: (await leaseRedis()).port });
		const key = `lease-frozen:${randomUUID()}`;
		const verdict = await a.hold(key, TTL_MS);
		assert.equal(verdict.verdict, 'claimed');
		const { ends } = await endOf(key);
		process.kill((await leaseRedis()).pid, 'SIGSTOP');
		try {
			// The fault's length (not an assertion): past the c:'s end by a bind.
			await sleep(LEASE_BIND_MS + 500);
		} finally {
			process.kill((await leaseRedis()).pid, 'SIGCONT');
		}
		await retaken(key);
		assert.ok((await endOf(key)).ends > ends, 'extended past its old end');
		const copy = await b.claim(key, TTL_MS);
		assert.equal(copy.verdict, 'unavailable', JSON.stringify(copy));
		assert.equal(verdict.lease.lost, undefined);
		assert.deepEqual(await verdict.lease.settle(200), { state: 'running' });
		assert.match((await holderAt(key)) ?? '', /^r:/);
		assert.deepEqual(await b.claim(key, TTL_MS), { verdict: 'duplicate', by: 'redis' });
	});
	test("held, and the owner's link to Redis partitioned for longer than a bind, nobody claiming meanwhile: once its link is back, the owner takes its ended c: back, a copy is 503 (outside r15 F1, f1)", async () => {
		const server = await leaseRedis();
		const link = await startRelay(server);
		try {
			const a = processClaims({ timing: LEASE, port: link.port });
			const b = processClaims({ port: server.port });
			const key = `lease-partitioned:${randomUUID()}`;
			const verdict = await a.hold(key, TTL_MS);
			assert.equal(verdict.verdict, 'claimed', JSON.stringify(verdict));
			// The next extension reaches Redis; every later command and answer of A waits 3 binds.
			const partition = link.stallAfter({
				match: '$6\r\nextend\r\n',
				ms: 3 * LEASE_BIND_MS,
				both: true,
			});
			await partition.passed;
			await ended(key);
			await retaken(key);
			const copy = await b.claim(key, TTL_MS);
			assert.equal(copy.verdict, 'unavailable', JSON.stringify(copy));
			await until('the owner heard it took its claim back', () => verdict.lease.lost === undefined);
			assert.deepEqual(await verdict.lease.settle(200), { state: 'running' });
			assert.match((await holderAt(key)) ?? '', /^r:/);
			assert.deepEqual(await b.claim(key, TTL_MS), { verdict: 'duplicate', by: 'redis' });
			await a.close();
		} finally {
			await link.close();
		}
	});
	test("held, and the owner's link partitioned while another process claims the ended c: (the window docs/queue-mode.md names): the owner cannot take it back and says why, naming no answer as the cause (outside r15 F1)", async () => {
		const server = await leaseRedis();
		const link = await startRelay(server);
		try {
			const a = processClaims({ timing: LEASE, port: link.port });
			const b = processClaims({ port: server.port });
			const key = `lease-partition-lost:${randomUUID()}`;
			const verdict = await a.hold(key, TTL_MS);
			assert.equal(verdict.verdict, 'claimed', JSON.stringify(verdict));
			const partition = link.stallAfter({
				match: '$6\r\nextend\r\n',
				ms: 3 * LEASE_BIND_MS,
				both: true,
			});
			await partition.passed;
			await ended(key);
			assert.deepEqual(await b.claim(key, TTL_MS), { verdict: 'claimed' });
			await until(
				'the owner found another attempt holds it',
				() => verdict.lease.lost !== undefined,
			);
			assert.match(verdict.lease.lost, /did not answer its extensions/);
			assert.match(verdict.lease.lost, /another attempt/);
			assert.doesNotMatch(verdict.lease.lost, /refused/);
			const settled = await verdict.lease.settle(200);
			assert.equal(settled.state, 'running');
			assert.match(settled.note ?? '', /another attempt/);
			await a.close();
		} finally {
			await link.close();
		}
	});
	test('held, and Redis full (maxmemory 1, noeviction: every write refused with OOM, every read answered) for longer than a bind: once it has room, the owner takes its ended c: back; a copy meanwhile and after is 503 (outside r15 F1, f2)', async () => {
		const { port } = await leaseRedis();
		const a = processClaims({ timing: LEASE, port });
		const b = processClaims({ port });
		const key = `lease-full:${randomUUID()}`;
		const verdict = await a.hold(key, TTL_MS);
		assert.equal(verdict.verdict, 'claimed');
		await probeCommand(port, 'CONFIG', 'SET', 'maxmemory', '1');
		try {
			await ended(key);
			const during = await b.claim(key, TTL_MS);
			assert.equal(during.verdict, 'unavailable', JSON.stringify(during));
		} finally {
			await probeCommand(port, 'CONFIG', 'SET', 'maxmemory', '0');
		}
		await retaken(key);
		const copy = await b.claim(key, TTL_MS);
		assert.equal(copy.verdict, 'unavailable', JSON.stringify(copy));
		assert.equal(verdict.lease.lost, undefined);
		assert.deepEqual(await verdict.lease.settle(200), { state: 'running' });
		assert.match((await holderAt(key)) ?? '', /^r:/);
		assert.deepEqual(await b.claim(key, TTL_MS), { verdict: 'duplicate', by: 'redis' });
	});
	test("Redis with a replica, a held claim: n8n's 2xx makes its run record pending (p:) until the replica acknowledges it, so a copy meanwhile is 503 (never 200 executed: false), and after a failover to the replica the owner writes r: there and a copy is a duplicate (outside r15 F2)", async () => {
		const primary = await startRedis({ dir: path.join(dir, 'primary-r15'), appendonly: true });
		const replica = await startRedis({
			dir: path.join(dir, 'replica-r15'),
			appendonly: true,
			args: ['--replicaof', '127.0.0.1', String(primary.port)],
		});
		const link = await startRelay(primary);
		const linkB = await startRelay(primary);
		let stopped = false;
		try {
			const timing = { ...LEASE, restartWindowMs: 0 };
			const a = processClaims({ port: link.port, timing });
			const b = processClaims({ port: linkB.port, timing: { restartWindowMs: 0 } });
			await until('the replica linked', async () =>
				(await probeCommand(replica.port, 'INFO', 'replication')).includes('master_link_status:up'),
			);
			await settled(a, b);
			const key = `lease-replica:${randomUUID()}`;
			const verdict = await a.hold(key, TTL_MS);
			assert.equal(verdict.verdict, 'claimed', JSON.stringify(verdict));
			assert.match(
				(await probeCommand(replica.port, 'GET', key)) ?? '',
				/^c:/,
				'the confirm reached the replica',
			);
			// The replica stops taking the stream; n8n answers A 200 (the execution exists).
			process.kill(replica.pid, 'SIGSTOP');
			stopped = true;
			const settledA = await verdict.lease.settle(200);
			assert.equal(settledA.state, 'running');
			assert.match(settledA.note ?? '', /pending/);
			assert.match((await probeCommand(primary.port, 'GET', key)) ?? '', /^p:/, 'pending, not r:');
			const copy = await b.claim(key, TTL_MS);
			assert.equal(copy.verdict, 'unavailable', JSON.stringify(copy));
			// Failover: the primary dies, the replica is promoted, both addresses lead to it.
			await primary.stop();
			process.kill(replica.pid, 'SIGCONT');
			stopped = false;
			await probeCommand(replica.port, 'REPLICAOF', 'NO', 'ONE');
			for (const l of [link, linkB]) {
				l.retarget(replica.port);
				l.cutAll();
			}
			await until('the owner wrote its run record on the new primary', async () =>
				/^r:/.test((await probeCommand(replica.port, 'GET', key)) ?? ''),
			);
			assert.deepEqual(await answered(b, key), { verdict: 'duplicate', by: 'redis' });
			await Promise.all([a.close(), b.close()]);
		} finally {
			if (stopped) process.kill(replica.pid, 'SIGCONT');
			await link.close();
			await linkB.close();
			await replica.stop();
			await primary.stop();
		}
	});
	test('Redis with a replica, a held claim whose run record is pending (the replica stopped), then the credential edited (a new client of the same Redis in the same process) and the old client closed: the new client writes the pending record again until the replica acknowledges it, so a copy is 503 meanwhile and a duplicate after, never a second execution (outside r16 F2)', async () => {
		const primary = await startRedis({ dir: path.join(dir, 'primary-r16'), appendonly: true });
		const replica = await startRedis({
			dir: path.join(dir, 'replica-r16'),
			appendonly: true,
			args: ['--replicaof', '127.0.0.1', String(primary.port)],
		});
		let stopped = false;
		try {
			const timing = { ...LEASE, restartWindowMs: 0 };
			const processOf = `r16-f2-${randomUUID()}`;
			const a = processClaims({ port: primary.port, timing, processOf });
			const b = processClaims({ port: primary.port, timing: { restartWindowMs: 0 } });
			await until('the replica linked', async () =>
				(await probeCommand(replica.port, 'INFO', 'replication')).includes('master_link_status:up'),
			);
			await settled(a, b);
			const key = `lease-replica-edit:${randomUUID()}`;
			const verdict = await a.hold(key, TTL_MS);
			assert.equal(verdict.verdict, 'claimed', JSON.stringify(verdict));
			// The replica stops taking the stream; n8n answers A 200 (the execution exists).
			process.kill(replica.pid, 'SIGSTOP');
			stopped = true;
			const settledA = await verdict.lease.settle(200);
			assert.match(settledA.note ?? '', /pending/);
			assert.match((await probeCommand(primary.port, 'GET', key)) ?? '', /^p:/, 'pending');
			// The credential is edited (User "default" filled in: the same Redis, other options):
			// the store makes a client of the new options in the same process and closes the old.
			const edited = processClaims({
				port: primary.port,
				timing,
				processOf,
				extra: { username: 'default' },
			});
			assert.equal(edited.memberId, a.memberId, 'the same process memory');
			await a.closeWhenSettled('the Redis credential was edited');
			assert.equal(a.isClosed, true);
			// Past the pending record's bind on Redis' clock: still pending, written again.
			const [sec] = await probeCommand(primary.port, 'TIME');
			const closedAt = Number(sec) * 1000;
			await until(
				"two binds past the close on Redis' clock",
				async () => {
					const [s2, micro] = await probeCommand(primary.port, 'TIME');
					return Number(s2) * 1000 + Number(micro) / 1000 > closedAt + 2 * LEASE_BIND_MS + 1000;
				},
				30_000,
			);
			assert.match((await probeCommand(primary.port, 'GET', key)) ?? '', /^p:/, 'still pending');
			const copy = await b.claim(key, TTL_MS);
			assert.equal(copy.verdict, 'unavailable', JSON.stringify(copy));
			process.kill(replica.pid, 'SIGCONT');
			stopped = false;
			await until('the new client wrote the run record', async () =>
				/^r:/.test((await probeCommand(primary.port, 'GET', key)) ?? ''),
			);
			assert.deepEqual(await answered(b, key), { verdict: 'duplicate', by: 'redis' });
			await Promise.all([edited.close(), b.close()]);
		} finally {
			if (stopped) process.kill(replica.pid, 'SIGCONT');
			await replica.stop();
			await primary.stop();
		}
	});
	test("held, and its client closed meanwhile (the credential edited, the workflow deactivated): the closing waits for n8n's answer, the c: is extended past the old closing bound, a copy elsewhere is 503, and n8n's 2xx promotes it before the close (outside r14 f3, f4, f5)", async () => {
		const port = (await leaseRedis()).port;
		const a = processClaims({ timing: LEASE, port });
		const b = processClaims({ port });
		const key = `lease-closing:${randomUUID()}`;
		const verdict = await a.hold(key, TTL_MS);
		assert.equal(verdict.verdict, 'claimed', JSON.stringify(verdict));
		// The store closes a client this way when its trigger stopped or its credential changed.
		const closing = a.closeWhenSettled('its trigger stopped');
		// Past what a closing waited for claims under way (six timeouts, the wait for another
		// attempt, a read-back), then for what is owed (two timeouts), and two binds more, on
		// Redis' clock: a client closed by then would have let the c: end.
		const start = await endOf(key);
		const past =
			6 * LEASE.timeoutMs +
			claimsModule.WAIT_FOR_OTHER_MS +
			LEASE.readBackMs +
			2 * LEASE.timeoutMs +
			2 * LEASE_BIND_MS;
		await until(
			"past the old closing bound on Redis' clock",
			async () => (await endOf(key)).now > start.now + past,
			30_000,
		);
		assert.equal(a.isClosed, false, 'not closed while it holds a lease');
		assert.match((await holderAt(key)) ?? '', /^c:/, 'still extended');
		const copy = await b.claim(key, TTL_MS);
		assert.equal(copy.verdict, 'unavailable', JSON.stringify(copy));
		// n8n's 2xx: promoted on this client (which then stays for its claims, this Redis keeping
		// no append-only file, until the process closes it).
		assert.deepEqual(await verdict.lease.settle(200), { state: 'running' });
		assert.match(
			(await holderAt(key)) ?? '',
			/^r:/,
			'the promotion went out on the closing client',
		);
		assert.deepEqual(await b.claim(key, TTL_MS), { verdict: 'duplicate', by: 'redis' });
		await a.close();
		await closing;
	});
	test("the trigger with a fake n8n response: a held delivery leaves its 200 to n8n (returned, not written), n8n's 2xx promotes it, a 500 releases it, a connection closed before n8n's answer decides nothing (n8n's answer then does); a call that changed the static data answers itself and promotes at once", async () => {
		const { EventEmitter } = await import('node:events');
		const { createHmac } = await import('node:crypto');
		const DIST = path.join(ROOT, 'companion/dist/nodes/CompanyPaymentsQueueTrigger');
		const { CompanyPaymentsQueueTrigger } = require(
			path.join(DIST, 'CompanyPaymentsQueueTrigger.node.js'),
		);
		const store = require(path.join(DIST, 'redisStore.js'));
		const secret = `whsec_${'7a'.repeat(24)}`;
		/** Node's ServerResponse as far as the trigger and n8n's answer use it. */
		class FakeResponse extends EventEmitter {
			statusCode = 200;
			writableFinished = false;
			body = undefined;
			status(code) {
				this.statusCode = code;
				return this;
			}
			setHeader() {}
			end(body) {
				this.body = body;
				this.writableFinished = true;
				this.emit('finish');
				this.emit('close');
			}
		}
		const leasePort = (await leaseRedis()).port;
		const trigger = new CompanyPaymentsQueueTrigger();
		// n8n sends `webhookResponse` as the body only with responseData set and empty (unset, it
		// sends the text "firstEntryJson"): claims.test.mjs checks the body n8n really sends.
		assert.deepEqual(
			trigger.description.webhooks.map((w) => w.responseData),
			[''],
		);
		const warnings = [];
		const deliver = async (deliveryId, staticData = {}) => {
			const body = JSON.stringify({ event: 'deposit.completed', depositId: `dep_${deliveryId}` });
			const raw = Buffer.from(body);
			const headers = {
				'content-type': 'application/json',
				'x-service-signature': createHmac('sha256', secret).update(raw).digest('hex'),
				'x-service-delivery-id': deliveryId,
			};
			const response = new FakeResponse();
			const parameters = {
				events: ['*'],
				routeByEvent: false,
				options: { redisWithoutPersistence: true },
			};
			const ctx = {
				logger: { debug() {}, info() {}, warn: (l) => warnings.push(l), error() {} },
				getNode: () => ({
					id: 'lease-node',
					name: 'Company Payments Trigger',
					type: 'n8n-nodes-company-payments-queue.companyPaymentsQueueTrigger',
					typeVersion: 2,
					parameters: {},
					credentials: {
						companyPaymentsApi: { id: 'c1', name: 'api' },
						redis: { id: 'r1', name: 'redis' },
					},
				}),
				getMode: () => 'webhook',
				getWorkflow: () => ({ id: 'lease-wf', name: 'lease', active: true }),
				getWorkflowStaticData: () => staticData,
				getHeaderData: () => headers,
				getBodyData: () => JSON.parse(body),
				getRequestObject: () => ({ headers, body: JSON.parse(body), rawBody: raw }),
				getResponseObject: () => response,
				getInstanceId: () => 'lease-instance',
				getNodeParameter: (name, fallback) =>
					name.split('.').reduce((o, k) => (o === undefined ? undefined : o[k]), parameters) ??
					fallback,
				getCredentials: async (name) =>
					name === 'redis'
						? { host: '127.0.0.1', port: leasePort, database: 0 }
						: { apiKey: 'key_lease', baseUrl: 'http://127.0.0.1:9', webhookSecret: secret },
			};
			const result = await trigger.webhook.call(ctx);
			const key = store.claimKey('lease-instance', 'lease-wf', 'lease-node', true, deliveryId);
			return { result, response, key };
		};
		try {
			// A process new to a Redis without persistence waits out the restart window (20 s from
			// Redis' start, the store's default): 503 until then.
			await until(
				'the store claims in the lease Redis',
				async () => {
					const { result, response } = await deliver(`dlv_lease_warm_${randomUUID()}`);
					if (result.noWebhookResponse === true && response.statusCode === 503) return false;
					response.status(200).end('{}');
					return true;
				},
				60_000,
			);
			for (const answer of ['2xx', '500', 'close, then 2xx', 'close, then 500']) {
				const deliveryId = `dlv_lease_${answer}_${randomUUID()}`;
				const { result, response, key } = await deliver(deliveryId);
				assert.equal(result.noWebhookResponse, undefined, 'n8n answers');
				assert.deepEqual(result.webhookResponse, { received: true, executed: true, deliveryId });
				assert.equal(result.workflowData?.[0]?.[0]?.json?.deliveryId, deliveryId);
				assert.equal(response.writableFinished, false, 'the trigger wrote no answer itself');
				assert.match((await holderAt(key)) ?? '', /^c:/, 'held, not running, before n8n answered');
				if (answer.startsWith('close')) {
					// The service gave up waiting (its timeout): n8n may still create the execution,
					// so the claim stays held, and a copy meanwhile is 503, never run.
					response.emit('close');
					const copy = processClaims({ port: (await leaseRedis()).port });
					assert.equal((await copy.claim(key, TTL_MS)).verdict, 'unavailable');
					assert.match((await holderAt(key)) ?? '', /^c:/, 'still held after the close');
				}
				if (answer.endsWith('2xx')) {
					response.status(200).end(JSON.stringify(result.webhookResponse));
					await until("promoted after n8n's 2xx", async () =>
						/^r:/.test((await holderAt(key)) ?? ''),
					);
				} else {
					response.status(500).end('{"message":"Error in workflow"}');
					await until("released after n8n's answer", async () => (await holderAt(key)) === null);
					assert.ok(
						warnings.some((w) => w.includes(deliveryId) && /released/.test(w)),
						warnings.join('\n'),
					);
				}
			}
			// A rotated secret past its grace period is trimmed: this call changes the static data,
			// which n8n saves only when the trigger answers itself.
			const staticData = {
				rotatedSecret: {
					current: 'sealed-a',
					previous: 'sealed-b',
					rotatedAt: 0,
					credentialFingerprint: 'f',
				},
			};
			const deliveryId = `dlv_lease_static_${randomUUID()}`;
			const { result, response, key } = await deliver(deliveryId, staticData);
			assert.equal(staticData.rotatedSecret.previous, undefined, 'the static data changed');
			assert.equal(result.noWebhookResponse, true);
			assert.equal(response.statusCode, 200);
			assert.equal(JSON.parse(response.body).executed, true);
			assert.match((await holderAt(key)) ?? '', /^r:/, 'promoted before the trigger answered');
		} finally {
			await store.closeRedisClaims();
		}
	});
	/**
	 * The store's trigger (redisStore through the queue trigger's webhook) with a fake n8n: each
	 * call reads `credential` as it is then (n8n reads it from its database at each call).
	 * `deliver(id)` returns the webhook's result, its fake response and the claim key.
	 */
	async function rotatingTrigger(credential) {
		const { EventEmitter } = await import('node:events');
		const { createHmac } = await import('node:crypto');
		const DIST = path.join(ROOT, 'companion/dist/nodes/CompanyPaymentsQueueTrigger');
		const { CompanyPaymentsQueueTrigger } = require(
			path.join(DIST, 'CompanyPaymentsQueueTrigger.node.js'),
		);
		const store = require(path.join(DIST, 'redisStore.js'));
		const secret = `whsec_${'7b'.repeat(24)}`;
		class FakeResponse extends EventEmitter {
			statusCode = 200;
			writableFinished = false;
			status(code) {
				this.statusCode = code;
				return this;
			}
			setHeader() {}
			end(body) {
				this.body = body;
				this.writableFinished = true;
				this.emit('finish');
				this.emit('close');
			}
		}
		const trigger = new CompanyPaymentsQueueTrigger();
		const deliver = async (deliveryId) => {
			const body = JSON.stringify({ event: 'deposit.completed', depositId: `dep_${deliveryId}` });
			const raw = Buffer.from(body);
			const headers = {
				'content-type': 'application/json',
				'x-service-signature': createHmac('sha256', secret).update(raw).digest('hex'),
				'x-service-delivery-id': deliveryId,
			};
			const response = new FakeResponse();
			const parameters = {
				events: ['*'],
				routeByEvent: false,
				options: { redisWithoutPersistence: true },
			};
			const ctx = {
				logger: { debug() {}, info() {}, warn() {}, error() {} },
				getNode: () => ({
					id: 'rotate-node',
					name: 'Company Payments Trigger',
					type: 'n8n-nodes-company-payments-queue.companyPaymentsQueueTrigger',
					typeVersion: 2,
					parameters: {},
					credentials: {
						companyPaymentsApi: { id: 'c1', name: 'api' },
						redis: { id: 'r1', name: 'redis' },
					},
				}),
				getMode: () => 'webhook',
				getWorkflow: () => ({ id: 'rotate-wf', name: 'rotate', active: true }),
				getWorkflowStaticData: () => ({}),
				getHeaderData: () => headers,
				getBodyData: () => JSON.parse(body),
				getRequestObject: () => ({ headers, body: JSON.parse(body), rawBody: raw }),
				getResponseObject: () => response,
				getInstanceId: () => 'rotate-instance',
				getNodeParameter: (name, fallback) =>
					name.split('.').reduce((o, k) => (o === undefined ? undefined : o[k]), parameters) ??
					fallback,
				// n8n reads the credential from its database at each call: the current one.
				getCredentials: async (name) =>
					name === 'redis'
						? { ...credential }
						: { apiKey: 'key_rotate', baseUrl: 'http://127.0.0.1:9', webhookSecret: secret },
			};
			const result = await trigger.webhook.call(ctx);
			const key = store.claimKey('rotate-instance', 'rotate-wf', 'rotate-node', true, deliveryId);
			return { result, response, key };
		};
		return { store, deliver };
	}
	/** A user of the lease Redis with password 'old', and a credential of it. */
	async function rotatingUser() {
		const port = (await leaseRedis()).port;
		const user = `rotated_${randomUUID().slice(0, 8)}`;
		await probeCommand(port, 'ACL', 'SETUSER', user, 'on', '>old', '~*', '&*', '+@all');
		return {
			port,
			user,
			credential: { host: '127.0.0.1', port, database: 0, user, password: 'old' },
		};
	}
	/** Until the store's trigger claims in the lease Redis (its restart window passed). */
	async function warmed(deliver) {
		await until(
			'the store claims in the lease Redis',
			async () => {
				const { result, response } = await deliver(`dlv_rotate_warm_${randomUUID()}`);
				if (result.noWebhookResponse === true && response.statusCode === 503) return false;
				response.status(200).end('{}');
				return true;
			},
			60_000,
		);
	}
	test('the Redis password rotated (the old clients killed) while a delivery is held, n8n answers 2xx, then the credential is updated: the owed promotion is sent on its own by a client of the current credential (no other delivery comes), so a copy is a duplicate, never a second execution (outside r15 F3)', async () => {
		const { port, user, credential } = await rotatingUser();
		const { store, deliver } = await rotatingTrigger(credential);
		try {
			await warmed(deliver);
			const deliveryId = `dlv_rotate_${randomUUID()}`;
			const { result, response, key } = await deliver(deliveryId);
			assert.equal(result.workflowData?.[0]?.[0]?.json?.deliveryId, deliveryId);
			assert.match((await holderAt(key)) ?? '', /^c:/, 'held');
			// The password is rotated and every connection of the user killed; n8n then answers 2xx
			// (the execution exists): the promotion cannot be written with the old password.
			await probeCommand(port, 'ACL', 'SETUSER', user, 'resetpass', '>new');
			await probeCommand(port, 'CLIENT', 'KILL', 'USER', user);
			response.status(200).end(JSON.stringify(result.webhookResponse));
			// The operator updates n8n's Redis credential; no other delivery reaches this process.
			credential.password = 'new';
			await until(
				'the owed promotion reached Redis',
				async () => /^r:/.test((await holderAt(key)) ?? ''),
				30_000,
			);
			const copy = processClaims({ port });
			assert.deepEqual(await copy.claim(key, TTL_MS), { verdict: 'duplicate', by: 'redis' });
		} finally {
			await store.closeRedisClaims();
			await probeCommand(port, 'ACL', 'DELUSER', user);
		}
	});
	test("the Redis password rotated while a delivery is still held (n8n has not answered), the old connections killed, and the credential updated: the held claim is extended by a client of the current credential (no other delivery comes), so its c: outlives its end at the rotation, a copy is 503, and n8n's 2xx makes it r: (outside r16 F1, f1b)", async () => {
		const { port, user, credential } = await rotatingUser();
		const { store, deliver } = await rotatingTrigger(credential);
		const copyAt = processClaims({ port });
		try {
			await warmed(deliver);
			const deliveryId = `dlv_rotate_held_${randomUUID()}`;
			const { result, response, key } = await deliver(deliveryId);
			assert.equal(result.workflowData?.[0]?.[0]?.json?.deliveryId, deliveryId);
			const held = (await holderAt(key)) ?? '';
			assert.match(held, /^c:/, 'held');
			// Rotated as the docs advise, while n8n has not answered: the new password, every
			// connection of the user killed (its reconnects with the old one are refused), and the
			// operator updates n8n's Redis credential. No other delivery reaches this process.
			await probeCommand(port, 'ACL', 'SETUSER', user, 'resetpass', '>new');
			await probeCommand(port, 'CLIENT', 'KILL', 'USER', user);
			credential.password = 'new';
			const atRotation = await endOf(key);
			// An extension after the kill went over a connection of the new password.
			await until(
				'the held c: extended after the rotation',
				async () => (await endOf(key)).ends > atRotation.ends,
				30_000,
			);
			// Past its end at the rotation on Redis' clock: still this attempt's c:.
			await until(
				"past the c:'s end at the rotation on Redis' clock",
				async () => (await endOf(key)).now > atRotation.ends,
				30_000,
			);
			assert.equal(await holderAt(key), held, 'the same attempt still holds it');
			const copy = await copyAt.claim(key, TTL_MS);
			assert.equal(copy.verdict, 'unavailable', JSON.stringify(copy));
			// n8n answers 2xx (the execution exists): promoted through the current credential.
			response.status(200).end(JSON.stringify(result.webhookResponse));
			await until('the run record reached Redis', async () =>
				/^r:/.test((await holderAt(key)) ?? ''),
			);
			assert.deepEqual(await copyAt.claim(key, TTL_MS), { verdict: 'duplicate', by: 'redis' });
		} finally {
			await copyAt.close();
			await store.closeRedisClaims();
			await probeCommand(port, 'ACL', 'DELUSER', user);
		}
	});
	test("the Redis password rotated while a delivery is held, and the credential updated with its Host spelled another way (127.0.0.1 -> localhost, the same Redis): the held claim is still extended by the new credential's client, a copy elsewhere is 503, and n8n's 2xx makes it r: (outside r19-companion, the reader's idea)", async () => {
		const { port, user, credential } = await rotatingUser();
		const { store, deliver } = await rotatingTrigger(credential);
		const copyAt = processClaims({ port });
		try {
			await warmed(deliver);
			const deliveryId = `dlv_respelled_${randomUUID()}`;
			const { result, response, key } = await deliver(deliveryId);
			assert.equal(result.workflowData?.[0]?.[0]?.json?.deliveryId, deliveryId);
			const held = (await holderAt(key)) ?? '';
			assert.match(held, /^c:/, 'held');
			await probeCommand(port, 'ACL', 'SETUSER', user, 'resetpass', '>new');
			await probeCommand(port, 'CLIENT', 'KILL', 'USER', user);
			// The operator types the Host anew: the same Redis, another spelling.
			credential.host = 'localhost';
			credential.password = 'new';
			const atRotation = await endOf(key);
			await until(
				'the held c: extended after the rotation, by the re-spelled credential',
				async () => (await endOf(key)).ends > atRotation.ends,
				30_000,
			);
			await until(
				"past the c:'s end at the rotation on Redis' clock",
				async () => (await endOf(key)).now > atRotation.ends,
				30_000,
			);
			assert.equal(await holderAt(key), held, 'the same attempt still holds it');
			const copy = await copyAt.claim(key, TTL_MS);
			assert.equal(copy.verdict, 'unavailable', JSON.stringify(copy));
			response.status(200).end(JSON.stringify(result.webhookResponse));
			await until('the run record reached Redis', async () =>
				/^r:/.test((await holderAt(key)) ?? ''),
			);
			assert.deepEqual(await copyAt.claim(key, TTL_MS), { verdict: 'duplicate', by: 'redis' });
		} finally {
			await copyAt.close();
			await store.closeRedisClaims();
			await probeCommand(port, 'ACL', 'DELUSER', user);
		}
	});
	for (const broken of ['ssl', 'noperm']) {
		test(`held, then another workflow's credential of the same Redis and db (${broken === 'ssl' ? 'SSL on for a plain Redis' : 'a user without +evalsha'}) makes a newer client in the same process that gets a delivery (503): the held claim's extensions stay on a client that works, so past two binds a copy elsewhere is 503 and n8n's 2xx makes it r: (outside r18 F1)`, async () => {
			const port = (await leaseRedis()).port;
			const user = `narrow_${randomUUID().slice(0, 8)}`;
			await probeCommand(
				port,
				'ACL',
				'SETUSER',
				user,
				'on',
				'>pw2',
				'~*',
				'+@all',
				'-evalsha',
				'-eval',
			);
			const processOf = `r18-f1-${randomUUID()}`;
			const a = processClaims({ port, timing: LEASE, processOf });
			const copyAt = processClaims({ port });
			try {
				await settled(a, copyAt);
				const key = `lease-other-credential:${randomUUID()}`;
				const verdict = await a.hold(key, TTL_MS);
				assert.equal(verdict.verdict, 'claimed', JSON.stringify(verdict));
				const held = (await holderAt(key)) ?? '';
				assert.match(held, /^c:/, 'held');
				const b = processClaims({
					port,
					timing: LEASE,
					processOf,
					extra:
						broken === 'ssl'
							? { tls: { rejectUnauthorized: false } }
							: { username: user, password: 'pw2' },
				});
				assert.equal(b.memberId, a.memberId, 'the same process memory');
				const other = await b.claim(`other-workflow:${randomUUID()}`, TTL_MS);
				assert.equal(other.verdict, 'unavailable', JSON.stringify(other));
				const atOther = await endOf(key);
				await until(
					"two binds past B's delivery on Redis' clock",
					async () => (await endOf(key)).now > atOther.now + 2 * LEASE_BIND_MS + 1000,
					30_000,
				);
				assert.equal(await holderAt(key), held, 'the same attempt still holds it');
				assert.ok((await endOf(key)).ends > atOther.ends, 'extended since');
				const copy = await copyAt.claim(key, TTL_MS);
				assert.equal(copy.verdict, 'unavailable', JSON.stringify(copy));
				await verdict.lease.settle(200);
				await until('the run record reached Redis', async () =>
					/^r:/.test((await holderAt(key)) ?? ''),
				);
				assert.deepEqual(await copyAt.claim(key, TTL_MS), { verdict: 'duplicate', by: 'redis' });
				await b.close();
			} finally {
				await Promise.all([a.close(), copyAt.close()]);
				await probeCommand(port, 'ACL', 'DELUSER', user);
			}
		});
	}
});
