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

import { startRedis } from '../../harness/services.mjs';
import { startRelay } from './relay.mjs';

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
	function processClaims({ viaRelay = false, timeoutMs } = {}) {
		const claims = new claimsModule.RedisClaims(
			{ host: '127.0.0.1', port: viaRelay ? relay.port : redis.port },
			timeoutMs,
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

	before(async () => {
		assert.ok(fs.existsSync(BUILT), 'build the companion first: npm run build --prefix companion');
		claimsModule = require(BUILT);
		dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-claim-races-'));
		redis = await startRedis({ dir: path.join(dir, 'redis') });
		relay = await startRelay(redis);
	});

	after(async () => {
		await Promise.all(clients.map((claims) => claims.close()));
		await relay?.close();
		await redis?.stop();
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
		const a = processClaims({ viaRelay: true });
		const b = processClaims();
		const key = `late-reconnect:${randomUUID()}`;
		// Steady state: both have claimed, and know each other as claimers.
		await b.claim(`warm:${randomUUID()}`, 1_000);
		assert.equal((await a.claim(key, TTL_MS)).verdict, 'claimed');
		await b.claim(`warm:${randomUUID()}`, 1_000);
		// A's reconnect is accepted and never answered (as through a TCP proxy) for 4 s.
		relay.block({ mode: 'swallow', ms: 4_000 });
		const port = redis.port;
		await redis.stop();
		redis = await startRedis({ dir: path.join(dir, 'redis'), port });
		const restarted = Date.now();
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
		assert.ok(Date.now() - restarted >= 4_000, 'decided only after A was back');
	});
});
