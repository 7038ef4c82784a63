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
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { startRedis as startRedisProcess } from '../../harness/services.mjs';
import { startRelay } from './relay.mjs';

/** Every Redis this file starts, stopped by its PID in `after` even when a case fails midway. */
const startedRedis = [];
async function startRedis(options) {
	const handle = await startRedisProcess(options);
	startedRedis.push(handle);
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
	function processClaims({ viaRelay = false, timeoutMs, timing, port } = {}) {
		// A short restart window unless the case sets one: every restart of this Redis (it keeps
		// nothing) opens one, and so does its start (a new Redis looks like a restarted one).
		const times = { restartWindowMs: 1_000, ...(timing ?? {}) };
		if (timeoutMs !== undefined) times.timeoutMs = timeoutMs;
		const claims = new claimsModule.RedisClaims(
			{ host: '127.0.0.1', port: port ?? (viaRelay ? relay.port : redis.port) },
			times,
		);
		clients.push(claims);
		// This Redis keeps no append-only file (the restart case needs that): the trigger option
		// "Accept Redis Without Persistence" is on.
		const claim = claims.claim.bind(claims);
		claims.claim = (key, ttl) => claim(key, ttl, Date.now(), { allowWithoutPersistence: true });
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

	after(async () => {
		await Promise.all(clients.map((claims) => claims.close()));
		await relay?.close();
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

	const usedMemory = async (port = redis.port) =>
		Number(/used_memory:(\d+)/.exec(await probeCommand(port, 'INFO', 'memory'))[1]);

	/**
	 * A Redis of the case's own: the shared one knows claimers of earlier cases (closed, or
	 * crashed on purpose), which a new epoch would wait for.
	 */
	async function ownRedis(name) {
		const own = await startRedis({ dir: path.join(dir, name) });
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
			const hold = failover.armNext({ match: '$3\r\nrun\r\n', what: 'command', action: 'hold' });
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
});
