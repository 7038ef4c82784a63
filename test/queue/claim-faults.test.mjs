/**
 * A generator of Redis faults for the companion's delivery claim
 * (companion/nodes/CompanyPaymentsQueueTrigger/redisClaims.ts), against real redis-servers, no
 * n8n. Each seed draws one delivery and three webhook "processes" (RedisClaims instances, each
 * with its own memory, each behind its own relay on 127.0.0.1), and:
 *
 * - the service's attempts (at 0, 1, 2, 4 units; it stops at the first 2xx) at random processes,
 *   and 0 to 3 further copies of the delivery at random processes at random times (and, after a
 *   restart, often one soon after Redis is back);
 * - a delay, hold or cut of one single command or its answer, drawn among the commands a process
 *   sends (the delivery's claim, confirm, promotion, read-back, or an epoch sync);
 * - a restart of Redis, with persistence (lanes 0, 2: appendonly, fsync always) or without
 *   (lanes 1, 3: the processes accept it, as with the trigger option);
 * - a slow reconnect: one process's relay refuses, or accepts and never answers, new connections
 *   for a while;
 * - eviction pressure: Redis full under noeviction (commands refused with OOM), or a Redis that
 *   evicts (volatile-lru, full of volatile keys) from the start, or one whose volatile-lru and
 *   maxmemory are set at runtime after the warm-up, then filled with volatile keys until it evicts;
 * - a stall: every answer to one process, on both its connections, held for a while from one of
 *   its commands on (its confirm, mostly), while its commands still reach Redis;
 * - a claimer nobody knows: the process the service reaches first takes no part in the warm-up,
 *   so after a restart without persistence only the restart window protects its claims.
 *
 * The draws added later (the runtime eviction, the stall, the unknown claimer) come after the
 * earlier ones; a seed with an unknown claimer may replace its slow reconnect with one of that
 * claimer across the restart, and add a copy at another process soon after Redis is back.
 *
 * The invariant, per seed: the delivery ends with exactly one execution, or with no 2xx from any
 * process (the service then sends it again later). An execution is a `claimed` verdict (the
 * trigger starts the workflow); a 2xx is `claimed` or `duplicate`.
 *
 * Times are the claim's own, scaled down (a unit is 250 ms: Redis timeout 250 ms), so a seed takes
 * about 2 s; four lanes with a Redis each run side by side. CLAIM_FAULT_SEEDS sets the number
 * of seeds (default 120), CLAIM_FAULT_FIRST the first seed. Needs the companion built
 * (`npm run build --prefix companion`) and redis-server.
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

const SEEDS = Number(process.env.CLAIM_FAULT_SEEDS ?? 120);
const FIRST = Number(process.env.CLAIM_FAULT_FIRST ?? 1);
/**
 * CLAIM_FAULT_ONLY=fresh,stalledConfirm,allkeys-later runs only the seeds (of the range) that
 * drew one of the named faults: for breaking one guard on purpose without the whole run.
 */
const ONLY = (process.env.CLAIM_FAULT_ONLY ?? '').split(',').filter(Boolean);
function drawn(plan) {
	if (ONLY.length === 0) return true;
	const names = Object.entries(plan.fault).map(([name, value]) =>
		typeof value === 'string' ? value : name,
	);
	return ONLY.some((name) => names.includes(name));
}
const LANES = 4;
const UNIT = 250;
const TIMING = {
	timeoutMs: UNIT,
	tentativeMs: 0.8 * UNIT,
	waitForOtherMs: 0.8 * UNIT,
	readBackMs: UNIT,
	recentMs: 60_000,
	// 7 units of the service's delays plus 3 answers, each within a timeout and a read-back.
	restartWindowMs: 20 * UNIT,
};
const SERVICE_AT = [0, 1, 2, 4].map((units) => units * UNIT);
const TTL_MS = 3_600_000;
/** The promotion's mode argument, as the claims send it (only a commit sends it). */
const PROMOTION = '$3\r\nrun\r\n';
const PROCESSES = 3;

/** A small seeded generator (mulberry32). */
function random(seed) {
	let a = seed >>> 0;
	const next = () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
	return {
		next,
		below: (n) => Math.floor(next() * n),
		chance: (p) => next() < p,
		pick: (list) => list[Math.floor(next() * list.length)],
	};
}

/** What one seed does, drawn from its number alone. */
export function drawSeed(seed, persistent) {
	const r = random(seed * 7919 + 17);
	const service = SERVICE_AT.map((atMs) => ({ atMs, process: r.below(PROCESSES) }));
	const fault = {};
	if (r.chance(0.85)) {
		fault.net = {
			// Mostly the process the service's first attempt reaches.
			process: r.chance(0.6) ? service[0].process : r.below(PROCESSES),
			// The nth command of that process that names the delivery's key (1: its first claim,
			// 2: the confirm, 3: the promotion or a read-back...), or one epoch sync.
			match: r.chance(0.85) ? 'key' : 'epoch-sync',
			nth: r.pick([1, 1, 2, 2, 2, 3, 4]),
			what: r.pick(['command', 'answer']),
			action: r.pick(['delay', 'hold', 'cut']),
			delayMs: Math.round(r.next() * 3 * UNIT),
			releaseAfterMs: r.chance(0.6) ? Math.round(r.next() * 6 * UNIT) : undefined,
		};
	}
	if (r.chance(0.4)) {
		fault.restart = { atMs: Math.round(r.next() * 5 * UNIT), downMs: Math.round(r.next() * UNIT) };
	}
	if (r.chance(0.4)) {
		fault.slowReconnect = {
			// Mostly the process that ran the delivery (its memory is what a restart needs back).
			process: r.chance(0.6) ? service[0].process : r.below(PROCESSES),
			mode: r.pick(['refuse', 'swallow']),
			ms: Math.round((1 + r.next() * 7) * UNIT),
			// Around the restart when there is one, so the reconnect after it is the slow one.
			atMs: fault.restart
				? Math.max(0, fault.restart.atMs - Math.round(r.next() * UNIT))
				: Math.round(r.next() * 4 * UNIT),
			cut: r.chance(0.5),
		};
	}
	if (r.chance(0.12)) {
		fault.eviction = r.pick(['oom', 'evicting']);
	}
	const copies = [];
	for (let i = r.below(4); i > 0; i--) {
		copies.push({ atMs: Math.round(r.next() * 10 * UNIT), process: r.below(PROCESSES) });
	}
	if (fault.restart && r.chance(0.7)) {
		// A copy soon after Redis is back, when the processes are still reconnecting.
		const back = fault.restart.atMs + fault.restart.downMs;
		copies.push({ atMs: back + Math.round(r.next() * 4 * UNIT), process: r.below(PROCESSES) });
	}
	if (!fault.eviction && r.chance(0.1)) fault.eviction = 'evicting-later';
	if (r.chance(0.25)) {
		fault.stall = {
			process: r.chance(0.7) ? service[0].process : r.below(PROCESSES),
			nth: r.pick([2, 2, 2, 1, 3]),
			ms: Math.round((1 + r.next() * 6) * UNIT),
		};
	}
	if (fault.restart && r.chance(0.5)) {
		fault.unknownClaimer = service[0].process;
		// Its reconnect is slow across the restart (it cannot write back), and a copy reaches
		// another process meanwhile: only the restart window answers that copy 503.
		if (r.chance(0.6)) {
			fault.slowReconnect = {
				process: service[0].process,
				mode: r.pick(['refuse', 'swallow']),
				ms: Math.round((6 + r.next() * 8) * UNIT),
				atMs: fault.restart.atMs,
				cut: true,
			};
			const back = fault.restart.atMs + fault.restart.downMs;
			copies.push({
				atMs: back + Math.round((0.5 + r.next() * 3) * UNIT),
				process: (service[0].process + 1 + r.below(PROCESSES - 1)) % PROCESSES,
			});
		}
	}
	// Round r6-companion's draws, after all the earlier ones (earlier seeds keep their plans).
	if (fault.restart && r.chance(0.35)) {
		// Instead of all the above: the delivery runs at its first attempt; then Redis restarts,
		// every process is slow to reconnect across it, and a process new to this Redis (just
		// started, or its client closed when idle) gets a copy soon after Redis is back: it is
		// the first to reach Redis after the restart, and knows no epoch.
		const restart = {
			atMs: Math.round((2 + r.next() * 2) * UNIT),
			downMs: fault.restart.downMs,
		};
		const back = restart.atMs + restart.downMs;
		return {
			seed,
			persistent,
			fault: {
				restart,
				fresh: {
					atMs: back + Math.round(r.next() * 3 * UNIT),
					othersAwayMs: Math.round((6 + r.next() * 8) * UNIT),
					mode: r.pick(['refuse', 'swallow']),
				},
			},
			copies: [],
			service,
		};
	}
	if (!fault.eviction && r.chance(0.08)) {
		// The eviction policy is changed on the live Redis to one that evicts any key.
		fault.eviction = 'allkeys-later';
	}
	if (r.chance(0.12)) {
		// Instead of all the above: the link of the process the service reaches first stalls
		// both ways right after its confirm (the confirm applied; every answer and every later
		// command held, its release too), longer than the
		// service's whole retry span; the service's later attempts and the copies reach others.
		const stalled = service[0].process;
		const other = () => (stalled + 1 + r.below(PROCESSES - 1)) % PROCESSES;
		for (const attempt of service.slice(1))
			if (attempt.process === stalled) attempt.process = other();
		return {
			seed,
			persistent,
			fault: { stall: { process: stalled, nth: 2, ms: 12 * UNIT }, stalledConfirm: true },
			copies: copies.map((copy) => ({
				...copy,
				process: copy.process === stalled ? other() : copy.process,
			})),
			service,
		};
	}
	// Round r7-companion's draws, after all the earlier ones (earlier seeds keep their plans),
	// each in place of the seed's other draws. The service's first attempt runs the delivery.
	if (r.chance(0.15)) {
		const kind = r.pick(['allkeys-revert', 'oomPromotion', 'latePromotion']);
		const first = service[0].process;
		const later = (fromMs, spanMs) =>
			Array.from({ length: 1 + r.below(3) }, () => ({
				atMs: fromMs + Math.round(r.next() * spanMs),
				process: r.below(PROCESSES),
			}));
		if (kind === 'allkeys-revert') {
			// allkeys-lru set on the live Redis after the delivery ran, filled until it evicts,
			// then set back to noeviction; copies come during and long after (past the window).
			return {
				seed,
				persistent,
				fault: { eviction: 'allkeys-revert', revertAtMs: Math.round((2 + r.next() * 2) * UNIT) },
				copies: later(3 * UNIT, 27 * UNIT),
				service,
			};
		}
		if (kind === 'oomPromotion') {
			// Redis (noeviction) is full when the first process's promotion reaches it, for a while.
			return {
				seed,
				persistent,
				fault: { oomPromotion: { process: first, fullMs: Math.round((1 + r.next() * 4) * UNIT) } },
				copies: later(UNIT, 12 * UNIT),
				service,
			};
		}
		// The first process's promotion, and every later command and answer of its link, reach
		// Redis after the confirm's bind, with no other attempt in between; copies come after.
		return {
			seed,
			persistent,
			fault: { latePromotion: { process: first, ms: BIND_MS + UNIT } },
			copies: later(BIND_MS + 3 * UNIT, 8 * UNIT),
			service,
		};
	}
	return { seed, persistent, fault, copies, service };
}

/** Bind of a confirm (redisClaims.ts bindMs): two timeouts and a read-back. */
const BIND_MS = 2 * TIMING.timeoutMs + TIMING.readBackMs;

/**
 * Whether the seed must end with one execution (not only "no 2xx"): its one fault is the stall
 * after the confirm of the process the service reached first, and the service's last attempt
 * reaches another process after the confirm's bind: a confirm whose owner could not start the
 * delivery binds no longer than that, so the delivery is not lost.
 */
export function mustRun(plan) {
	const last = plan.service[plan.service.length - 1];
	return plan.fault.stalledConfirm === true && last.atMs >= BIND_MS + UNIT / 2;
}

describe('the Redis claim under generated faults (no n8n)', () => {
	let claimsModule;
	let dir;
	const lanes = [];
	const results = [];

	before(async () => {
		assert.ok(fs.existsSync(BUILT), 'build the companion first: npm run build --prefix companion');
		claimsModule = require(BUILT);
		dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-claim-faults-'));
		for (let i = 0; i < LANES; i++) {
			const persistent = i % 2 === 0;
			const laneDir = path.join(dir, `lane${i}`);
			lanes.push({
				persistent,
				dir: laneDir,
				redis: await startRedis({ dir: laneDir, appendonly: persistent }),
			});
		}
	});

	after(async () => {
		for (const lane of lanes) await lane.redis?.stop();
		if (dir) fs.rmSync(dir, { recursive: true, force: true });
		const tally = {};
		const count = (what) => (tally[what] = (tally[what] ?? 0) + 1);
		for (const r of results) {
			count(r.outcome);
			if (r.fault) count(r.fault);
			if (r.restart) count(r.restart);
			for (const extra of [r.stall, r.eviction, r.unknown, r.fresh, r.mustRun, r.promotion])
				if (extra) count(extra);
		}
		console.log(`claim faults: ${results.length} seeds: ${JSON.stringify(tally, null, 1)}`);
	});

	async function redisCommand(lane, ...args) {
		const { default: Redis } = require(
			path.join(ROOT, 'companion/node_modules/ioredis/built/index.js'),
		);
		const client = new Redis({ host: '127.0.0.1', port: lane.redis.port, lazyConnect: true });
		client.on('error', () => undefined);
		try {
			await client.connect();
			return await client.call(...args);
		} finally {
			client.disconnect();
		}
	}

	function connect(lane) {
		const { default: Redis } = require(
			path.join(ROOT, 'companion/node_modules/ioredis/built/index.js'),
		);
		const client = new Redis({ host: '127.0.0.1', port: lane.redis.port });
		client.on('error', () => undefined);
		return client;
	}

	/**
	 * The epoch as Redis and each process hold it, for a failure's story: the epoch, expected,
	 * back and members hashes, Redis' run ID, evicted keys and appendonly, and each process's
	 * member ID, epoch, claimers known and facts (run ID, appendonly).
	 */
	async function epochState(lane, processes) {
		const prefix = claimsModule.KEY_PREFIX;
		const read = async (...args) => {
			try {
				return await redisCommand(lane, ...args);
			} catch (error) {
				return `(${error.message})`;
			}
		};
		const info = String(await read('INFO'));
		const field = (name) => new RegExp(`${name}:([^\\r\\n]+)`).exec(info)?.[1];
		return JSON.stringify({
			redis: {
				run: field('run_id'),
				evicted: field('evicted_keys'),
				aof: field('aof_enabled'),
				epoch: await read('HGETALL', `${prefix}:epoch`),
				expected: await read('HGETALL', `${prefix}:epoch-expected`),
				back: await read('SMEMBERS', `${prefix}:epoch-back`),
				members: await read('HGETALL', `${prefix}:members`),
			},
			processes: processes.map(({ claims }) => ({
				member: claims.memberId,
				epoch: claims.memory?.epoch,
				known: claims.memory?.knownMembers,
				run: claims.facts?.runId,
				aof: claims.facts?.aof,
			})),
		});
	}

	/** Writes volatile keys until Redis has evicted 200 keys (or it refuses them). */
	async function evictSome(lane, junk) {
		const client = connect(lane);
		const evicted = async () => Number(/evicted_keys:(\d+)/.exec(await client.info('stats'))[1]);
		try {
			const before = await evicted();
			const value = 'x'.repeat(2_000);
			for (let i = 0; (await evicted()) < before + 200 && i < 20_000; i += 100) {
				const batch = client.pipeline();
				for (let j = i; j < i + 100; j++) batch.set(`${junk}:${j}`, value, 'PX', 3_600_000);
				await batch.exec();
			}
		} catch {
			// A restart in between: the eviction is part of the fault, not of the check.
		} finally {
			client.disconnect();
		}
	}

	/** Deletes every key of this package in the lane's Redis and resets its counters. */
	async function wipe(lane) {
		const client = connect(lane);
		try {
			let cursor = '0';
			do {
				const [next, keys] = await client.scan(
					cursor,
					'MATCH',
					`${claimsModule.KEY_PREFIX.split(':')[0]}:*`,
					'COUNT',
					1000,
				);
				if (keys.length > 0) await client.del(...keys);
				cursor = next;
			} while (cursor !== '0');
			await client.config('RESETSTAT');
		} finally {
			client.disconnect();
		}
	}

	async function dropJunk(lane, junk) {
		const client = connect(lane);
		try {
			let cursor = '0';
			do {
				const [next, keys] = await client.scan(cursor, 'MATCH', `${junk}:*`, 'COUNT', 1000);
				if (keys.length > 0) await client.del(...keys);
				cursor = next;
			} while (cursor !== '0');
		} finally {
			client.disconnect();
		}
	}

	async function restart(lane, downMs) {
		const port = lane.redis.port;
		await lane.redis.stop();
		if (downMs > 0) await sleep(downMs); // the time Redis is away is part of the fault
		lane.redis = await startRedis({ dir: lane.dir, port, appendonly: lane.persistent });
		for (const relay of lane.relays ?? []) relay.retarget(port);
	}

	/** Runs one seed on one lane; resolves with its outcome, or throws when the invariant breaks. */
	async function runSeed(lane, plan) {
		const key = `fault:${plan.seed}:${randomUUID()}`;
		const relays = [];
		for (let i = 0; i < PROCESSES; i++) relays.push(await startRelay(lane.redis));
		lane.relays = relays;
		const processes = relays.map((relay) => {
			const claims = new claimsModule.RedisClaims({ host: '127.0.0.1', port: relay.port }, TIMING);
			const requirements = { allowWithoutPersistence: !lane.persistent };
			return {
				claims,
				claim: (k) => claims.claim(k, TTL_MS, requirements),
			};
		});
		const junk = `junk:${plan.seed}`;
		const events = [];
		/** The epoch at the start and at the end (see epochState), told when the seed fails. */
		const states = [];
		const pending = [];
		let serviceDone = false;
		let fired = 'none drawn';
		let stallFired = '';
		const n = plan.fault.net;
		try {
			// Each seed begins on a Redis that holds none of this package's keys, with its
			// counters (evicted keys, flushes) reset: the lane's Redis is shared by its seeds, and
			// an earlier seed's real loss (allkeys-later evicting the epoch, say, with a process that
			// then stopped) made every later seed of the lane wait up to recentMs for that stopped
			// claimer: all 503, so the later seed's own draw was never tested, and a latePromotion
			// seed, which must run once, failed (seed 26 after seed 22 in a cold CI run).
			await wipe(lane);
			if (plan.fault.eviction === 'evicting') {
				await redisCommand(lane, 'CONFIG', 'SET', 'maxmemory-policy', 'volatile-lru');
				await redisCommand(lane, 'CONFIG', 'SET', 'maxmemory', '50mb');
			}
			// Steady state: every process has claimed and learnt the others (two warm-up rounds,
			// each claimed, so a window is over), but a claimer nobody knows. Every warm-up claim
			// is claimed (a 503 for another reason, a timeout under load, is tried again), but
			// where the seed's Redis evicts from the start: it refuses every claim, as drawn.
			const steady = (v) =>
				v.verdict === 'claimed' ||
				(plan.fault.eviction === 'evicting' && /maxmemory-policy/.test(v.reason ?? ''));
			const warmBy = Date.now() + 60_000;
			for (let round = 0; round < 2; round++) {
				await Promise.all(
					processes
						.filter((_, i) => i !== plan.fault.unknownClaimer)
						.map(async (p) => {
							for (;;) {
								const v = await p.claim(`warm:${randomUUID()}`);
								if (steady(v)) break;
								assert.ok(
									Date.now() < warmBy,
									`seed ${plan.seed}: the warm-up never claimed: ${v.reason}`,
								);
								await sleep(20);
							}
						}),
				);
			}
			if (plan.fault.eviction === 'evicting-later' || plan.fault.eviction === 'allkeys-later') {
				const used = Number(
					/used_memory:(\d+)/.exec(await redisCommand(lane, 'INFO', 'memory'))[1],
				);
				const policy = plan.fault.eviction === 'allkeys-later' ? 'allkeys-random' : 'volatile-lru';
				await redisCommand(lane, 'CONFIG', 'SET', 'maxmemory-policy', policy);
				await redisCommand(lane, 'CONFIG', 'SET', 'maxmemory', String(used + 200_000));
			}
			if (plan.fault.eviction === 'oom') {
				const used = Number(
					/used_memory:(\d+)/.exec(await redisCommand(lane, 'INFO', 'memory'))[1],
				);
				await redisCommand(lane, 'CONFIG', 'SET', 'maxmemory', String(used - 1024));
			}
			states.push(`after the warm-up: ${await epochState(lane, processes)}`);
			const started = Date.now();
			const at = (ms) => sleep(Math.max(0, started + ms - Date.now()));
			let held;
			let stalled;
			if (plan.fault.stall) {
				stalled = relays[plan.fault.stall.process].stallAfter({
					match: key,
					nth: plan.fault.stall.nth,
					ms: plan.fault.stall.ms,
					// The stalled confirm (round r6): a partition, the release cannot get through.
					both: plan.fault.stalledConfirm === true,
				});
			}
			if (n) {
				held = relays[n.process].armNext({
					match: n.match === 'key' ? key : 'epoch-expected',
					nth: n.nth,
					what: n.what,
					action: n.action,
					delayMs: n.delayMs,
				});
				if (n.action === 'hold' && n.releaseAfterMs !== undefined) {
					pending.push(at(n.releaseAfterMs).then(() => held.release()));
				}
			}
			const send = (who, process) => {
				const t = Date.now() - started;
				return processes[process].claim(key).then((v) => {
					events.push({ who, process, at: t, ms: Date.now() - started - t, ...v });
					return v;
				});
			};
			pending.push(
				(async () => {
					for (const [i, attempt] of plan.service.entries()) {
						await at(attempt.atMs);
						const v = await send(`service${i + 1}`, attempt.process);
						if (v.verdict !== 'unavailable') break;
					}
					serviceDone = true;
				})(),
			);
			for (const [i, copy] of plan.copies.entries()) {
				pending.push(at(copy.atMs).then(() => send(`copy${i + 1}`, copy.process)));
			}
			if (plan.fault.fresh) {
				const { othersAwayMs, mode } = plan.fault.fresh;
				pending.push(
					at(plan.fault.restart.atMs).then(() => {
						for (const relay of relays.slice(0, PROCESSES)) {
							relay.block({ mode, ms: othersAwayMs });
							relay.cutAll();
						}
					}),
				);
				pending.push(
					at(plan.fault.fresh.atMs).then(async () => {
						// Its own relay (so a restart retargets it) and no memory of any epoch.
						const relay = await startRelay(lane.redis);
						relays.push(relay);
						const claims = new claimsModule.RedisClaims(
							{ host: '127.0.0.1', port: relay.port },
							TIMING,
						);
						processes.push({
							claims,
							claim: (k) =>
								claims.claim(k, TTL_MS, {
									allowWithoutPersistence: !lane.persistent,
								}),
						});
						return send('fresh', processes.length - 1);
					}),
				);
			}
			if (plan.fault.restart) {
				pending.push(
					at(plan.fault.restart.atMs).then(() => restart(lane, plan.fault.restart.downMs)),
				);
			}
			const slow = plan.fault.slowReconnect;
			if (slow) {
				pending.push(
					at(slow.atMs).then(() => {
						relays[slow.process].block({ mode: slow.mode, ms: slow.ms });
						if (slow.cut) relays[slow.process].cutAll();
					}),
				);
			}
			if (plan.fault.eviction === 'evicting-later' || plan.fault.eviction === 'allkeys-later') {
				// Volatile keys until Redis has evicted some, while the delivery is under way.
				pending.push(at(Math.round(UNIT / 2)).then(() => evictSome(lane, junk)));
			}
			if (plan.fault.eviction === 'allkeys-revert') {
				// After the first attempt: allkeys-lru on the live Redis, filled until it evicts,
				// then noeviction again (the epoch, read every refresh, survives the LRU).
				pending.push(
					at(Math.round(UNIT / 2)).then(async () => {
						const used = Number(
							/used_memory:(\d+)/.exec(await redisCommand(lane, 'INFO', 'memory'))[1],
						);
						await redisCommand(lane, 'CONFIG', 'SET', 'maxmemory-policy', 'allkeys-lru');
						await redisCommand(lane, 'CONFIG', 'SET', 'maxmemory', String(used + 200_000));
						await evictSome(lane, junk);
						await at(plan.fault.revertAtMs);
						await redisCommand(lane, 'CONFIG', 'SET', 'maxmemory-policy', 'noeviction');
						await redisCommand(lane, 'CONFIG', 'SET', 'maxmemory', '0');
						await dropJunk(lane, junk);
					}),
				);
			}
			if (plan.fault.oomPromotion) {
				const { process: p, fullMs } = plan.fault.oomPromotion;
				const promotion = relays[p].armNext({ match: PROMOTION, what: 'command', action: 'hold' });
				pending.push(
					Promise.race([promotion.reached.then(() => 'reached'), at(8 * UNIT)]).then(
						async (how) => {
							if (how === 'reached') {
								const used = Number(
									/used_memory:(\d+)/.exec(await redisCommand(lane, 'INFO', 'memory'))[1],
								);
								await redisCommand(lane, 'CONFIG', 'SET', 'maxmemory', String(used - 1024));
							}
							promotion.release();
							relays[p].disarm();
							await sleep(fullMs);
							await redisCommand(lane, 'CONFIG', 'SET', 'maxmemory', '0');
						},
					),
				);
			}
			if (plan.fault.latePromotion) {
				const { process: p, ms } = plan.fault.latePromotion;
				relays[p].stallAfter({ match: PROMOTION, ms, both: true });
				relays[p].armNext({ match: PROMOTION, what: 'command', action: 'delay', delayMs: ms });
			}
			await Promise.all(pending);
			states.push(`at the end: ${await epochState(lane, processes)}`);
			if (stalled) stallFired = await Promise.race([stalled.passed, 'not reached']);
			if (held) fired = await Promise.race([held.passed, 'not reached']);
			// A hold never released ends with its connection.
			if (held) {
				for (const relay of relays) relay.disarm();
				if (n.action === 'hold') relays[n.process].cutAll();
			}
		} finally {
			await Promise.all(processes.map((p) => p.claims.close()));
			for (const relay of relays) await relay.close();
			lane.relays = [];
			await redisCommand(lane, 'CONFIG', 'SET', 'maxmemory', '0').catch(() => undefined);
			await redisCommand(lane, 'CONFIG', 'SET', 'maxmemory-policy', 'noeviction').catch(
				() => undefined,
			);
			await redisCommand(lane, 'DEL', junk).catch(() => undefined);
			await dropJunk(lane, junk).catch(() => undefined);
		}
		assert.ok(serviceDone);
		const executions = events.filter((e) => e.verdict === 'claimed').length;
		const twoXX = events.filter((e) => e.verdict !== 'unavailable').length;
		const story = () =>
			`seed ${plan.seed} (${lane.persistent ? 'persistent' : 'no persistence'}) ${JSON.stringify(plan.fault)}\n${events
				.map(
					(e) =>
						`  ${e.who} at P${e.process} t=${e.at} +${e.ms}ms: ${e.verdict}${e.by ? ` (${e.by})` : ''}${e.reason ? ` ${e.reason}` : ''}`,
				)
				.join('\n')}\n  ${states.join('\n  ')}`;
		// CLAIM_FAULT_STORY=1 tells every seed's story (with the epoch at its start and end).
		if (process.env.CLAIM_FAULT_STORY) console.log(story());
		assert.ok(executions <= 1, `${executions} executions\n${story()}`);
		assert.ok(executions === 1 || twoXX === 0, `2xx without an execution\n${story()}`);
		if (plan.fault.latePromotion) {
			// Nobody else claimed while the promotion was late: it ran once, and only once.
			assert.equal(executions, 1, `lost or run twice\n${story()}`);
		}
		if (mustRun(plan) && stallFired === 'passed') {
			assert.equal(executions, 1, `lost: a stalled confirm still bound the key\n${story()}`);
		}
		if (
			process.env.CLAIM_FAULT_DEBUG &&
			plan.fault.restart &&
			plan.fault.slowReconnect &&
			!lane.persistent
		)
			console.log(story());
		return {
			outcome: executions === 1 ? 'one execution' : 'no 2xx',
			fault: n ? `${plan.fault.net.action} ${plan.fault.net.what}: ${fired}` : 'no network fault',
			stall: plan.fault.stall ? `stall: ${stallFired}` : '',
			eviction: plan.fault.eviction ?? '',
			promotion: plan.fault.latePromotion
				? 'late promotion'
				: plan.fault.oomPromotion
					? 'promotion refused (OOM)'
					: '',
			unknown: plan.fault.unknownClaimer !== undefined ? 'unknown claimer' : '',
			fresh: plan.fault.fresh
				? `fresh process after restart: ${events.find((e) => e.who === 'fresh')?.verdict}`
				: '',
			mustRun: mustRun(plan) && stallFired === 'passed' ? 'stall, must run' : '',
			restart: plan.fault.restart ? (lane.persistent ? 'restart kept' : 'restart lost') : '',
		};
	}

	test(`the invariant holds over ${SEEDS} seeds`, async () => {
		const seeds = Array.from({ length: SEEDS }, (_, i) => FIRST + i).filter((seed) =>
			drawn(drawSeed(seed, (seed % LANES) % 2 === 0)),
		);
		const failures = [];
		await Promise.all(
			lanes.map(async (lane, index) => {
				for (const seed of seeds.filter((s) => s % LANES === index)) {
					const plan = drawSeed(seed, lane.persistent);
					try {
						results.push({ seed, ...(await runSeed(lane, plan)) });
					} catch (error) {
						results.push({ seed, outcome: 'FAILED' });
						failures.push(error.message);
					}
				}
			}),
		);
		assert.deepEqual(
			failures,
			[],
			`${failures.length} of ${seeds.length} seeds failed:\n${failures.join('\n')}`,
		);
	});
});
