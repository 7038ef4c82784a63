import { createHash, randomBytes } from 'node:crypto';
import type { RedisOptions } from 'ioredis';
import Redis from 'ioredis';
import { sleep } from 'n8n-workflow';

import {
	describeRedisError,
	isAuthRefusal,
	frozenText,
	keepFirstAuthError,
	loadingState,
	maskedError,
	outsideText,
	type RedisFacts,
	readFacts,
	refusal,
	tlsMismatch,
	WITHOUT_PERSISTENCE_OPTION,
} from './redisCheck';
import { describeClaimError, probeClaims } from './redisProbe';

/**
 * The delivery claim in Redis: of any number of webhook processes that receive the same delivery,
 * at most one starts it, and no process answers 2xx for a delivery nobody runs. Every decision is
 * one Lua script, so Redis applies it atomically, and every write compares this attempt's own
 * token first. A key holds one of these values:
 *
 * - `t:<token>` tentative (TENTATIVE_MS): an attempt claimed it and has not confirmed yet;
 * - `c:<token>` confirmed by Redis, but its owner may not know yet (the answer to its confirm can
 *   be late or lost): nobody else answers 2xx for it. It binds only for bindMs (two timeouts and
 *   a read-back): its owner starts only when it learnt the confirm within a timeout and a
 *   read-back of sending it, and past bindMs with no `r:` another attempt may claim the key;
 * - `p:<token>` pending (with replicas attached only): promoted on the primary, not yet known to be
 *   on every replica; others read it as undecided (503), never as a duplicate;
 * - `r:<token>` running, for the Deduplication Window: the owner learnt its confirm in time and
 *   starts the execution once Redis answered this promotion (or did not answer it: then it may
 *   be there). Only this value makes another attempt a duplicate (200 `executed: false`).
 *
 * The invariant: `r:` is written only by a process that has committed to run the delivery and runs
 * it whatever the answer to that write (a lost one is owed and sent again, like a release); a
 * process that answers 503 leaves no `c:` or `r:` of its own behind without an owed release.
 *
 * When the answer to a claim or a confirm is late or lost, the owner does not guess: it reads the
 * key back on a second connection, a pure read (READ), and Redis' record decides: `c:`/`r:` of its
 * token → it commits and runs the delivery (then owes the promotion to `r:`); anything else, or no
 * answer → 503, and it owes the release of whatever of its own may be there.
 *
 * Keys carry no time to live (so no `volatile-*` eviction policy can drop them): each value's end
 * is a score in one sorted set (`…:expiry`), every script treats a key past its end as absent, and
 * every claim deletes a few keys whose end has passed.
 *
 * Restarts are detected per claim: every claim script reads the epoch (Redis' run ID, and when
 * it began). A new epoch that a process which knew the old one has seen makes every free key
 * unknown (503) until every process that may hold confirmed claims from before has written them
 * back, and for RESTART_WINDOW_MS from the epoch's beginning (Redis' own clock) in any case.
 *
 * With replicas attached, a confirm counts only once every replica has acknowledged it (WAIT):
 * a failover to a replica that never received it would let another process claim again.
 */

/** How long a claim waits for Redis (connecting, and each command) before it answers 503. */
export const REDIS_TIMEOUT_MS = 2_000;
/** How long a claim stays tentative (not confirmed) before it expires by itself. */
export const TENTATIVE_MS = 1_500;
/** How long a claim waits for another process's undecided claim of the same key. */
export const WAIT_FOR_OTHER_MS = 1_500;
/** How long the owner keeps trying to read its key back after a late or lost answer. */
export const READ_BACK_MS = 2_000;
/** How long this process keeps its own running claims in memory (for a Redis that restarts). */
export const RECENT_MS = 10 * 60_000;
/**
 * After a restart that lost the keys, every free key is unknown (503) for this long from the new
 * epoch's beginning, whoever has written back. The service's retries of one delivery: the
 * interface document's delays (1, 2, 4 s) read as between attempts span 7 s (read as from the
 * first attempt, 0, 1, 2, 4 s, only 4 s), and each of the three answers before the last may take
 * up to REDIS_TIMEOUT_MS + READ_BACK_MS (4 s): 7 + 3 × 4 = 19 s, so 20 s covers every retry of a
 * delivery under way when Redis lost it, even one run by a process nobody knew as a claimer.
 */
export const RESTART_WINDOW_MS = 20_000;
/**
 * How often every connected process reads the list of claimers (its own last claim or sync is not
 * enough: a process that joined since would be forgotten after a restart).
 */
export const REFRESH_MS = 500;
/**
 * How many running claims one process keeps in its memory per Redis (within RECENT_MS). Without
 * persistence they are what it writes back after a restart, so a full memory refuses new claims
 * (503 naming this bound) rather than forget one; with persistence Redis keeps them, and the
 * oldest leaves the memory. About 33 deliveries a second sustained over the 10 minutes.
 */
export const RECENT_MAX = 20_000;
const POLL_MS = 20;

/**
 * How often the owner of a held claim (see RedisClaims.claim with `hold`) extends its confirmed
 * `c:` while n8n creates the execution: each extension makes it end bindMs (6 s) from then, so a
 * process that dies holding it stops extending and its `c:` ends at most 6 s later.
 */
export const LEASE_REFRESH_MS = 2_000;

/** The service's attempts of one delivery: at 0, 1, 3 and 7 s (delays 1, 2, 4 s between them). */
export const SERVICE_RETRY_SPAN_MS = 7_000;

/** The 503 reason while Redis' eviction policy evicts (set after this connection was checked). */
function policyReason(held: string): string {
	const [policy, limit] = held.split(':');
	return `Redis' maxmemory-policy is ${policy} with maxmemory ${limit} bytes (changed after this connection was checked): it may evict claim keys, and a copy of a delivery would then start again. Every delivery is answered 503 until the policy is noeviction: CONFIG SET maxmemory-policy noeviction (and in redis.conf; on managed Redis, in its parameter group), or remove maxmemory`;
}

/** How Redis lost its keys, by the cause its epoch hash records (see EPOCH_LUA). */
function lossText(cause: string | undefined): string {
	switch (cause) {
		case 'evicted':
			return 'Redis lost its keys to eviction (its evicted_keys count grew: an evicting maxmemory-policy was in force for a while), claim keys may be among them';
		case 'lost':
			return 'Redis lost its keys without restarting (evicted or flushed: check its maxmemory-policy, and FLUSHALL/FLUSHDB)';
		case 'flushed':
			return 'Redis holds no record of the claims and was flushed (FLUSHDB or FLUSHALL) since it started: the claims may have gone with it';
		case 'absent':
			return 'Redis holds no record of the claims and began less than the window ago: it may have restarted without persistence and lost its keys';
		default:
			return 'Redis lost its keys (it restarted without persistence)';
	}
}

/** Names every key of this package in a shared Redis (n8n's own keys start with `bull:`). */
export const KEY_PREFIX = 'n8n-nodes-company-payments:delivery';
const EPOCH_KEY = `${KEY_PREFIX}:epoch`;
const BACK_KEY = `${KEY_PREFIX}:epoch-back`;
const MEMBERS_KEY = `${KEY_PREFIX}:members`;
const EXPECTED_KEY = `${KEY_PREFIX}:epoch-expected`;
export const EPOCH_KEYS = [EPOCH_KEY, BACK_KEY, MEMBERS_KEY, EXPECTED_KEY];
/** Sorted set: each claim key scored by when its value ends (ms, Redis' clock). */
export const EXPIRY_KEY = `${KEY_PREFIX}:expiry`;
/** How many ended claim keys one claim deletes. */
const TRIM_PER_CLAIM = 20;

/**
 * Every deadline and age of the claims is measured on this clock: monotonic (it never steps with
 * the wall clock), so a wall clock set forward never ages remembered claims out, and one set back
 * never stretches a wait. Times in Redis are Redis' own (TIME).
 */
export function monotonic(): number {
	return performance.now();
}

/** The times of the claim; tests run it faster. */
export interface ClaimTiming {
	timeoutMs: number;
	tentativeMs: number;
	waitForOtherMs: number;
	readBackMs: number;
	recentMs: number;
	restartWindowMs: number;
	/** How often a connected process reads the claimers list (the members) it waits for after a restart. */
	refreshMs: number;
	/** How many running claims the process keeps in its memory per Redis (RECENT_MAX). */
	recentMax: number;
	/** How often a held claim's `c:` is extended (LEASE_REFRESH_MS). */
	leaseRefreshMs: number;
}

export const DEFAULT_TIMING: ClaimTiming = {
	timeoutMs: REDIS_TIMEOUT_MS,
	tentativeMs: TENTATIVE_MS,
	waitForOtherMs: WAIT_FOR_OTHER_MS,
	readBackMs: READ_BACK_MS,
	recentMs: RECENT_MS,
	restartWindowMs: RESTART_WINDOW_MS,
	refreshMs: REFRESH_MS,
	recentMax: RECENT_MAX,
	leaseRefreshMs: LEASE_REFRESH_MS,
};

const RUNNING = 'r:';

/**
 * Shared by the scripts that read the epoch. KEYS[2..5]: epoch, back, members, expected.
 * `epoch(now, run, fresh, seen, known)`: the epoch hash holds its ID and the run ID of the Redis
 * that began it (empty when Redis persists). A missing epoch (Redis lost its keys), or another
 * run ID, begins a new epoch. A caller that knew another epoch (`seen`) adds the members it knew
 * (`known`: "id=until,id=until", each may hold running claims in its memory until `until`) to the
 * expected hash: until each of them has written back (the back set) or its `until` passed, every
 * free key is unknown.
 */
const CLOCK_LUA = `
local function nowms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function current(key, expiry, now)
  local held = redis.call('GET', key)
  if not held then return false end
  local ends = redis.call('ZSCORE', expiry, key)
  if ends and tonumber(ends) <= now then return false end
  return held
end
local function put(key, expiry, value, ends)
  redis.call('SET', key, value)
  redis.call('ZADD', expiry, ends, key)
end
local function drop(key, expiry)
  redis.call('DEL', key)
  redis.call('ZREM', expiry, key)
end`;

/**
 * Shared by the scripts that read the epoch. KEYS[2..5]: epoch, back, members, expected.
 * `epoch(now, run, fresh, seen, known)`: see EPOCH_LUA's callers; a caller that knew another
 * epoch also marks this one as begun by a restart (`restart`), which opens the restart window.
 */
const EPOCH_LUA = `${CLOCK_LUA}
local function infofield(section, field)
  return string.match(redis.call('INFO', section), field .. ':([^\\r\\n]+)')
end
-- How many FLUSHDB and FLUSHALL this Redis ran since it started (or since CONFIG RESETSTAT).
local function flushes()
  local n = 0
  for calls in string.gmatch(redis.call('INFO', 'commandstats'), 'cmdstat_flush%a+:calls=(%d+)') do
    n = n + tonumber(calls)
  end
  return n
end
local function epoch(now, run, fresh, seen, known, knownrun)
  local e = redis.call('HMGET', KEYS[2], 'id', 'run', 'evicted', 'rid')
  local id = e[1]
  local thisrun = infofield('server', 'run_id') or ''
  -- Redis' count of evicted keys (any key, any database) since it started: when it grew since
  -- this epoch began, keys may have been evicted (an evicting policy, set for a while and
  -- reverted, say), claim keys among them, while the epoch hash itself survived (it is read
  -- every refreshMs, so LRU keeps it): the claims are lost as after a restart.
  local evicted = infofield('stats', 'evicted_keys') or '0'
  local lost = id and e[3] and e[3] ~= evicted and tonumber(evicted) > 0
  if id and not lost and e[3] ~= evicted then redis.call('HSET', KEYS[2], 'evicted', evicted) end
  if id and e[2] == '' and run ~= '' and e[4] == run then
    -- Begun while Redis persisted, in this same run of Redis (no restart since): appendonly was
    -- turned off live. Its keys are all here; from now on a restart is a new run ID.
    redis.call('HSET', KEYS[2], 'run', run)
    e[2] = run
  end
  if (not id) or (run ~= '' and e[2] ~= run) or lost then
    redis.call('DEL', KEYS[2], KEYS[3], KEYS[5])
    id = fresh
    local cause = 'restart'
    if knownrun and knownrun ~= '' and knownrun == thisrun then cause = 'lost' end
    local born = now
    if lost then
      cause = 'evicted'
    elseif seen == '' and tonumber(evicted) > 0 then
      -- Nobody here knew an epoch, and this Redis evicted keys since it started (an evicting
      -- policy set for a while and reverted): the epoch may have been evicted with the claims.
      -- Its window runs from now: when the eviction was is not known.
      cause = 'evicted'
    elseif seen == '' and flushes() > 0 then
      -- Nobody here knew an epoch, and this Redis was flushed since it started: the epoch may
      -- have gone with the claims (a first use cannot be told from this; the window is the
      -- safe side). Its window runs from now: when the flush was is not known.
      cause = 'flushed'
    elseif seen == '' then
      -- Nobody here knew an epoch: a Redis without persistence may have restarted and lost keys
      -- all the same (a process new to it, or whose client was closed). Its window runs from
      -- Redis' start. (With persistence and no flush since Redis started, no epoch is a first
      -- use: keys survive restarts.)
      local uptime = tonumber(infofield('server', 'uptime_in_seconds') or '0') * 1000
      born = now - uptime
      cause = 'absent'
    end
    redis.call('HSET', KEYS[2], 'id', id, 'run', run, 'born', born, 'cause', cause, 'evicted', evicted, 'rid', thisrun)
    if seen ~= '' or run ~= '' or lost or cause == 'flushed' or cause == 'evicted' then redis.call('HSET', KEYS[2], 'restart', '1') end
  end
  -- Begun in Redis' future: its clock stepped back since (every process's sync reads this each
  -- refreshMs, so within one of the step). The restart window then runs from now: never longer
  -- than itself, and its message stays true.
  local born = tonumber(redis.call('HGET', KEYS[2], 'born') or '')
  if born and born > now then redis.call('HSET', KEYS[2], 'born', now) end
  if seen ~= '' and seen ~= id then
    for member, untilms in string.gmatch(known, '([^=,]+)=(%d+)') do
      local u = tonumber(untilms)
      local had = tonumber(redis.call('HGET', KEYS[5], member) or '0')
      if u > now and u > had then redis.call('HSET', KEYS[5], member, u) end
    end
  end
  return id
end
local function members(now)
  local all = redis.call('HGETALL', KEYS[4])
  local out = {}
  for i = 1, #all, 2 do
    if tonumber(all[i + 1]) > now then
      out[#out + 1] = all[i] .. '=' .. all[i + 1]
    else
      redis.call('HDEL', KEYS[4], all[i])
    end
  end
  return table.concat(out, ',')
end
local function waiting(now, window)
  local e = redis.call('HMGET', KEYS[2], 'restart', 'born', 'cause')
  local born = tonumber(e[2] or '0') or 0
  -- (epoch() has clamped a beginning in Redis' future to now.)
  if born > now then born = now end
  if e[1] and born + window > now then
    return 'window:' .. (born + window - now) .. ':' .. (e[3] or 'restart')
  end
  local all = redis.call('HGETALL', KEYS[5])
  for i = 1, #all, 2 do
    if tonumber(all[i + 1]) > now and redis.call('SISMEMBER', KEYS[3], all[i]) == 0 then
      -- Whom it waits for, and why the epoch began (a member ID holds no ':').
      return all[i] .. ':' .. (e[3] or 'restart')
    end
  end
  return false
end`;

/**
 * KEYS: key, epoch, back, members, expected, expiry. ARGV: token, tentative ms, run ID, fresh
 * epoch, the epoch this process knew, the members it knew, restart window ms, how many ended keys
 * to delete, check the policy ("1"), the run ID it knew, appendonly as last checked ("1"/"0"; empty:
 * unchecked). Returns [verdict, held value, epoch, members, connected replicas].
 */
const CLAIM_SCRIPT = `${EPOCH_LUA}
local now = nowms()
local ended = redis.call('ZRANGEBYSCORE', KEYS[6], '-inf', now, 'LIMIT', 0, tonumber(ARGV[8]))
for _, old in ipairs(ended) do drop(old, KEYS[6]) end
local id = epoch(now, ARGV[3], ARGV[4], ARGV[5], ARGV[6], ARGV[10])
local live = members(now)
if ARGV[9] == '1' then
  local policy = infofield('memory', 'maxmemory_policy') or 'noeviction'
  local limit = tonumber(infofield('memory', 'maxmemory') or '0') or 0
  if policy ~= 'noeviction' and limit > 0 then return { 'policy', policy .. ':' .. limit, id, live, 0 } end
end
if ARGV[11] and ARGV[11] ~= '' then
  -- appendonly as this process last checked it ('1' yes, '0' no): a live CONFIG SET changed it.
  local aof = infofield('persistence', 'aof_enabled') or '0'
  if aof ~= ARGV[11] then return { 'persistence', aof, id, live, 0 } end
end
local replicas = tonumber(string.match(redis.call('INFO', 'replication'), 'connected_slaves:(%d+)') or '0')
local held = current(KEYS[1], KEYS[6], now)
if held then return { 'held', held, id, live, replicas } end
local missing = waiting(now, tonumber(ARGV[7]))
if missing then return { 'unknown', missing, id, live, replicas } end
put(KEYS[1], KEYS[6], 't:' .. ARGV[1], now + tonumber(ARGV[2]))
return { 'claimed', '', id, live, replicas }`;

/** KEYS: key, members, expiry. ARGV: token, ttl ms, member ID, member ms. 1 when it confirmed. */
const CONFIRM_SCRIPT = `${CLOCK_LUA}
local now = nowms()
if current(KEYS[1], KEYS[3], now) == 't:' .. ARGV[1] then
  put(KEYS[1], KEYS[3], 'c:' .. ARGV[1], now + tonumber(ARGV[5] or ARGV[2]))
  local untilms = now + tonumber(ARGV[4])
  if tonumber(redis.call('HGET', KEYS[2], ARGV[3]) or '0') < untilms then
    redis.call('HSET', KEYS[2], ARGV[3], untilms)
  end
  return 1
end
return 0`;

/**
 * KEYS: key, expiry. ARGV: token, mode. Redis' record of this token decides.
 * - 'read' (the read-back; writes nothing): `r:`/`c:` of the token → 'mine', `t:` → 'tentative',
 *   anything else → 'other';
 * - 'run' (the promotion, sent by a process that starts the delivery only when Redis answers
 *   'mine', or gives no answer): `c:` of the token → `r:`, 'mine'; also its `c:` past its end, or
 *   a free key (a promotion held up by a paused or stopped Redis: its owner took it as applied
 *   and runs the delivery), since an unanswered promotion is started; another attempt's live
 *   value → 'other', nothing written (its owner answers 503 when it hears that in time);
 * - 'owed' (the promotion again, sent only by a process that started the delivery): `c:` of the
 *   token, or a free key → `r:`, 'mine' (a started delivery always leaves its run record); another
 *   attempt's value → 'other';
 * - 'pend' (the promotion with replicas attached): `c:` → `p:` (pending: written, not yet known
 *   to be on every replica) for ARGV[3] ms, 'mine'. Others read `p:` as undecided (they wait,
 *   then 503), never as a duplicate: its owner may still answer 503 (the replicas did not
 *   acknowledge it) and release it. Once they did, the owner starts the delivery and sends 'owed';
 * - 'owed' also turns a `p:` of the token into `r:`;
 * - 'release' (sent only by a process that answered 503 and started nothing): `t:`/`c:`/`p:`/`r:`
 *   of the token → deleted;
 * - 'extend' (the lease of a held claim, while n8n creates the execution; sent as cpExtend with
 *   KEYS[3] the epoch hash and ARGV[4] the epoch its owner knows): a live `c:` of the token ends
 *   ARGV[3] ms from now, 'mine'; `r:` of the token → 'mine', nothing written; a free key (its
 *   `c:` ended while Redis could not be written: out of reach, frozen, full) in the epoch its
 *   owner knows → its `c:` again, 'retaken' (nobody claimed it since, so it ran nowhere else:
 *   a run leaves `r:`, a pending one `p:`); a free key in another epoch → 'gone' (Redis lost its
 *   keys); another attempt's value → 'other', nothing written;
 * - 'pend' on a `p:` of the token extends it (a held claim whose run record waits for the
 *   replicas).
 */
const RESOLVE_SCRIPT = `${CLOCK_LUA}
local now = nowms()
local held = current(KEYS[1], KEYS[2], now)
if ARGV[2] == 'extend' then
  if held == 'c:' .. ARGV[1] then
    put(KEYS[1], KEYS[2], held, now + tonumber(ARGV[3]))
    return 'mine'
  end
  if held == 'r:' .. ARGV[1] then return 'mine' end
  if held == false and KEYS[3] and ARGV[4] and ARGV[4] ~= '' then
    -- Its c: ended while Redis could not extend it (out of reach, frozen, full), and nobody
    -- claimed the key since: no run record (a run leaves one for its Deduplication Window) and no
    -- pending one, so the delivery has not run anywhere else. Taken back, in the same epoch only
    -- (a new one lost the keys, run records of others among them).
    if redis.call('HGET', KEYS[3], 'id') == ARGV[4] then
      put(KEYS[1], KEYS[2], 'c:' .. ARGV[1], now + tonumber(ARGV[3]))
      return 'retaken'
    end
    return 'gone'
  end
  return 'other'
end
if ARGV[2] == 'pend' and held == 'p:' .. ARGV[1] then
  put(KEYS[1], KEYS[2], held, now + tonumber(ARGV[3]))
  return 'mine'
end
if held == 'r:' .. ARGV[1] and ARGV[2] == 'release' then
  drop(KEYS[1], KEYS[2])
  return 'released'
end
if held == 'r:' .. ARGV[1] then return 'mine' end
if ARGV[2] == 'owed' and (held == false or held == 'c:' .. ARGV[1] or held == 'p:' .. ARGV[1]) then
  put(KEYS[1], KEYS[2], 'r:' .. ARGV[1], now + (tonumber(ARGV[3] or '') or 1))
  return 'mine'
end
if ARGV[2] == 'read' then
  if held == 'c:' .. ARGV[1] or held == 'p:' .. ARGV[1] then return 'mine' end
  if held == 't:' .. ARGV[1] then return 'tentative' end
  return 'other'
end
-- The promotion comes from the owner of the confirm, which starts the delivery when this is
-- answered 'mine' or not answered in time: its own confirm past its end (Redis was paused or
-- stopped while the promotion waited), or a key that is free, is made running all the same; only
-- another attempt's live value refuses it.
if (ARGV[2] == 'run' or ARGV[2] == 'pend') and held == false then held = 'c:' .. ARGV[1] end
if held == 'c:' .. ARGV[1] and ARGV[2] == 'run' then
  local ttl = tonumber(ARGV[3] or '')
  if ttl then put(KEYS[1], KEYS[2], 'r:' .. ARGV[1], now + ttl) else redis.call('SET', KEYS[1], 'r:' .. ARGV[1]) end
  return 'mine'
end
if held == 'c:' .. ARGV[1] and ARGV[2] == 'pend' then
  put(KEYS[1], KEYS[2], 'p:' .. ARGV[1], now + tonumber(ARGV[3]))
  return 'mine'
end
if held == 'c:' .. ARGV[1] or held == 't:' .. ARGV[1] or held == 'p:' .. ARGV[1] then
  drop(KEYS[1], KEYS[2])
  return 'released'
end
return 'other'`;

/**
 * KEYS: (unused), epoch, back, members, expected. ARGV: run ID, fresh epoch, the epoch this
 * process knew, the members it knew, its member ID ('' when it holds no claims), wrote back ('1').
 * Returns [epoch, members].
 */
const SYNC_SCRIPT = `${EPOCH_LUA}
local now = nowms()
local id = epoch(now, ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[7])
if ARGV[6] == '1' and ARGV[5] ~= '' then redis.call('SADD', KEYS[3], ARGV[5]) end
return { id, members(now) }`;

/** KEYS: the key, expiry. ARGV: the running value, its remaining time. Never overwrites. */
const RESEED_SCRIPT = `${CLOCK_LUA}
local now = nowms()
if current(KEYS[1], KEYS[2], now) then return 0 end
put(KEYS[1], KEYS[2], ARGV[1], now + tonumber(ARGV[2]))
return 1`;

interface ClaimCommands {
	cpClaim(...args: Array<string | number>): Promise<[string, string, string, string, number]>;
	cpConfirm(...args: Array<string | number>): Promise<number>;
	cpResolve(
		key: string,
		expiry: string,
		token: string,
		mode: 'read' | 'run' | 'pend' | 'owed' | 'release' | 'extend',
		ttlMs?: number,
	): Promise<string>;
	cpExtend(
		key: string,
		expiry: string,
		epoch: string,
		token: string,
		mode: 'extend',
		ttlMs: number,
		knownEpoch: string,
	): Promise<string>;
	cpSync(...args: Array<string | number>): Promise<[string, string]>;
	cpReseed(key: string, expiry: string, value: string, ttlMs: number): Promise<number>;
}
export type ClaimClient = Redis & ClaimCommands;

export type ClaimVerdict =
	| { verdict: 'claimed'; lease?: ClaimLease }
	| { verdict: 'duplicate'; by: 'redis' | 'memory' }
	| { verdict: 'unavailable'; reason: string };

/** What a claim needs of its Redis beyond answering. */
export interface ClaimRequirements {
	/** Accept a Redis that keeps nothing across a restart (the user said so). */
	allowWithoutPersistence?: boolean;
	/**
	 * Hold the confirmed claim (a lease) instead of promoting it at once: 'claimed' then carries a
	 * ClaimLease, settled by how n8n answered the delivery (after it created the execution).
	 */
	hold?: boolean;
}

/** What became of a held claim. */
export type LeaseOutcome =
	/** Promoted to `r:` (or owed until Redis answers): the delivery runs here. */
	| { state: 'running'; note?: string }
	/** Released (owed until Redis answers): nothing runs here, the service's retry runs it. */
	| { state: 'released' }
	/** Settled before (a second answer, or after commit). */
	| { state: 'settled' };

/**
 * A confirmed claim held while n8n creates the execution: its `c:` is extended every
 * leaseRefreshMs until n8n's answer is known, and never promoted before (no `r:` without an
 * execution, so a process that dies holding it leaves a `c:` that ends, and a retry runs it).
 */
export interface ClaimLease {
	/** n8n answered the delivery with this HTTP status: 2xx → promoted; anything else → released. */
	settle(status: number): Promise<LeaseOutcome>;
	/** Decides now, as a claim without a hold (the trigger answers itself before the execution exists). */
	commit(): Promise<ClaimVerdict>;
	/** Why the lease may not hold any more (its `c:` was found ended or taken by another attempt). */
	readonly lost: string | undefined;
}

interface Recent {
	token: string;
	/** Until when this process keeps it (ms). */
	expires: number;
	/** When its time to live in Redis ends (ms). */
	ttlEnds: number;
}

/**
 * Waits for the promise until ms have passed: its value, or the reason it gave none. Polls (with
 * n8n's sleep) rather than arming a timer of its own.
 */
async function within<T>(
	promise: Promise<T>,
	ms: number,
	what: string,
	said: (error: unknown) => string,
): Promise<{ ok: true; value: T } | { ok: false; reason: string; refused?: boolean }> {
	let outcome:
		| { ok: true; value: T }
		| { ok: false; reason: string; refused?: boolean }
		| undefined;
	promise.then(
		(value) => (outcome = { ok: true, value }),
		(error: unknown) =>
			(outcome = {
				ok: false,
				reason: said(error),
				// An error reply of Redis itself (OOM, NOPERM...): the command was not applied.
				refused: (error as Error)?.name === 'ReplyError',
			}),
	);
	const deadline = monotonic() + ms;
	while (outcome === undefined) {
		if (monotonic() >= deadline) return { ok: false, reason: `${what}: no answer within ${ms} ms` };
		await sleep(Math.min(POLL_MS, Math.max(1, deadline - monotonic())));
	}
	return outcome;
}

/** The claim scripts, as Redis names them (SHA1 of their text). */
const SCRIPTS = new Map(
	[CLAIM_SCRIPT, CONFIRM_SCRIPT, RESOLVE_SCRIPT, SYNC_SCRIPT, RESEED_SCRIPT].map((lua) => [
		createHash('sha1').update(lua).digest('hex'),
		lua,
	]),
);

/**
 * The Redis command on line `line` of the claim script whose SHA1 is `sha` (Redis 7.0 names only
 * these when its ACL refuses a command inside a script), or undefined.
 */
export function commandInScript(sha: string, line: number): string | undefined {
	const text = SCRIPTS.get(sha)?.split('\n')[line - 1];
	const command = text === undefined ? undefined : /redis\.call\('([A-Za-z]+)'/.exec(text)?.[1];
	return command?.toUpperCase();
}

/**
 * An error of a claim command as the 503 reason: a refused command or key, or a read-only
 * replica, named with its fix (as activation names it); a command Redis took and never answered
 * (ioredis' "Command timed out": Redis stopped, paused or busy under a connected process) in the
 * package's words with what to check, as for a process not yet connected (outside read
 * r20-companion, F2); any other error as Redis gave it. Redis' words pass outsideText first.
 */
function errorText(error: unknown, options: RedisOptions, timeoutMs: number): string {
	if (!(error instanceof Error)) return outsideText(String(error), options.password);
	maskedError(error, options.password);
	if (/Command timed out/.test(error.message)) return frozenText(options, timeoutMs);
	return describeClaimError(error) ?? error.message;
}

export function defineCommands(client: Redis): ClaimClient {
	client.defineCommand('cpClaim', { numberOfKeys: 6, lua: CLAIM_SCRIPT });
	client.defineCommand('cpConfirm', { numberOfKeys: 3, lua: CONFIRM_SCRIPT });
	client.defineCommand('cpResolve', { numberOfKeys: 2, lua: RESOLVE_SCRIPT });
	// The same script with the epoch hash as a third key (the lease's extension takes its claim
	// back only in the epoch its owner knows).
	client.defineCommand('cpExtend', { numberOfKeys: 3, lua: RESOLVE_SCRIPT });
	client.defineCommand('cpSync', { numberOfKeys: 5, lua: SYNC_SCRIPT });
	client.defineCommand('cpReseed', { numberOfKeys: 2, lua: RESEED_SCRIPT });
	return client as ClaimClient;
}

/**
 * What one process knows of one Redis, kept apart from any client: the claims it runs (written
 * back after a restart), its name among the claimers, and the epoch and claimers it last saw.
 * A client closed by a credential edit or a deactivation leaves it here, and the next client of
 * the same Redis (host, port, database, key prefix) in this process adopts it: registers under
 * the same name and writes those claims back after a restart.
 */
interface ProcessMemory {
	readonly id: string;
	/** The process it belongs to (the store's scope), and the database and key prefixes in that Redis. */
	readonly scope: string | undefined;
	readonly place: string;
	/**
	 * The run ID (INFO server) of the Redis its clients last connected to: '' before any did. A
	 * credential that spells the same Redis another way (127.0.0.1, localhost; a DNS alias) makes
	 * a memory of another host string, which joins this one at its first connection when Redis
	 * gives the same run ID (see RedisClaims.joinSameRedis).
	 */
	runId: string;
	readonly memberId: string;
	readonly recent: Map<string, Recent>;
	epoch: string | undefined;
	knownMembers: string;
	epochRun: string;
	readonly clients: Set<RedisClaims>;
	/** Claims of this process in this Redis under way (not yet remembered). */
	underWay: number;
	/**
	 * What this process owes this Redis (releases; promotions and their Deduplication Windows):
	 * a client that closes before Redis answered them leaves them to the next client of it.
	 */
	readonly abandoned: Map<string, string>;
	readonly unpromoted: Map<string, string>;
	readonly promoteTtl: Map<string, number>;
	/**
	 * Held claims whose execution exists (n8n answered 2xx) and whose run record the replicas
	 * have not acknowledged yet: key → token and Deduplication Window. Written again by whichever
	 * client of this Redis the process has (see RedisClaims.current), so a credential edit that
	 * closes the client that promoted them does not drop them (outside r16-companion F2).
	 */
	readonly pendingRuns: Map<string, { token: string; ttl: number }>;
	/** Whether a loop writes the pending run records again (one per memory). */
	pendingLoop: boolean;
	/**
	 * Leases held for n8n's answer on any client of this Redis: while one is, the store keeps the
	 * credential current (a rotated password moves the trigger to a client of the new one, which
	 * extends them: outside r16-companion F1).
	 */
	leasesHeld: number;
	/** Connected replicas seen by the last claim: a confirm counts once they all have it. */
	replicas: number;
}

const memories = new Map<string, ProcessMemory>();

/** Names one Redis (and this package's keys in it), whatever the credentials of the connection. */
function redisIdentity(options: RedisOptions): string {
	return JSON.stringify([
		options.path ?? '',
		options.host ?? 'localhost',
		options.port ?? 6379,
		options.db ?? 0,
		options.keyPrefix ?? '',
		KEY_PREFIX,
	]);
}

/** Drops the ended claims of the memory; true when it still holds a claim within its time. */
function pruneRecent(memory: ProcessMemory, now = monotonic()): boolean {
	for (const [key, entry] of memory.recent) if (entry.expires <= now) memory.recent.delete(key);
	return memory.recent.size > 0;
}

/**
 * The memory of this process for the Redis of these options; `scope` names the process (the
 * store passes one for the whole process; without one a client has a memory of its own, as the
 * tests' simulated processes do).
 */
function memoryFor(options: RedisOptions, scope: string | undefined): ProcessMemory {
	const place = JSON.stringify([options.db ?? 0, options.keyPrefix ?? '', KEY_PREFIX]);
	const fresh = (id: string): ProcessMemory => ({
		id,
		scope,
		place,
		runId: '',
		memberId: randomBytes(9).toString('base64'),
		recent: new Map(),
		epoch: undefined,
		knownMembers: '',
		epochRun: '',
		clients: new Set(),
		underWay: 0,
		abandoned: new Map(),
		unpromoted: new Map(),
		promoteTtl: new Map(),
		pendingRuns: new Map(),
		pendingLoop: false,
		leasesHeld: 0,
		replicas: 0,
	});
	if (scope === undefined) return fresh('');
	// A memory no client holds is kept while a claim in it is within its time, no longer.
	for (const [other, kept] of memories) {
		if (
			kept.clients.size === 0 &&
			!pruneRecent(kept) &&
			kept.abandoned.size === 0 &&
			kept.unpromoted.size === 0 &&
			kept.pendingRuns.size === 0
		) {
			memories.delete(other);
		}
	}
	const id = JSON.stringify([scope, redisIdentity(options)]);
	let memory = memories.get(id);
	if (memory === undefined) {
		memory = fresh(id);
		memories.set(id, memory);
	}
	return memory;
}

/** Closes every client of every process memory (a process that stops, and tests). */
export async function closeAllClaims(): Promise<void> {
	const all = [...memories.values()].flatMap((memory) => [...memory.clients]);
	await Promise.all(all.map(async (claims) => await claims.close()));
}

/** The claims of one process in one Redis (one set of connection options). */
export class RedisClaims {
	/** An error of a command as a reason (errorText with this client's options and timeout). */
	private errorText(error: unknown): string {
		return errorText(error, this.options, this.timeoutMs);
	}

	/** within() with this client's errors said as errorText says them. */
	private async within<T>(
		promise: Promise<T>,
		ms: number,
		what: string,
	): Promise<{ ok: true; value: T } | { ok: false; reason: string; refused?: boolean }> {
		return await within(promise, ms, what, (error) => this.errorText(error));
	}

	readonly client: ClaimClient;

	/** The second connection: read-backs and releases, which must not queue behind a late answer. */
	readonly resolver: ClaimClient;

	/**
	 * What this process knows of this Redis; outlives this client (see ProcessMemory). Set anew
	 * only when a memory that never synced joins the memory of the same Redis (joinSameRedis).
	 */
	private memory: ProcessMemory;

	/** Names this process among the claimers of this Redis (the members hash). */
	get memberId(): string {
		return this.memory.memberId;
	}

	/** The epoch this process last saw in this Redis, and its members then ("id=until,..."). */
	private get epoch(): string | undefined {
		return this.memory.epoch;
	}

	private set epoch(value: string | undefined) {
		this.memory.epoch = value;
	}

	private get knownMembers(): string {
		return this.memory.knownMembers;
	}

	private set knownMembers(value: string) {
		this.memory.knownMembers = value;
	}

	readonly timing: ClaimTiming;
	readonly timeoutMs: number;

	/** What the last check of the current connection found (or why it failed). */
	facts: RedisFacts | undefined;

	/** What the last check found wrong with this Redis. */
	problem: string | undefined;

	/** The last error of either connection (authentication, TLS, refused...). */
	lastError: Error | undefined;

	/** Settles when the current connection is checked (facts read, epoch synced, written back). */
	private checked: Promise<void> | undefined;

	/** When a claim last used this client (for closing idle clients). */
	lastUsed = monotonic();

	/** The running claims of this process in this Redis (shared with its other clients of it). */
	private get recent(): Map<string, Recent> {
		return this.memory.recent;
	}

	/** Claims this process gave up whose release Redis has not confirmed: key → token. */
	private get abandoned(): Map<string, string> {
		return this.memory.abandoned;
	}

	/** Claims this process runs whose `r:` Redis has not confirmed: key → token. */
	private get unpromoted(): Map<string, string> {
		return this.memory.unpromoted;
	}

	/** The Deduplication Window (ms) of each owed promotion: its `r:` lasts that long. */
	private get promoteTtl(): Map<string, number> {
		return this.memory.promoteTtl;
	}

	/** Claims of this client under way: it closes only once they are decided. */
	private inFlight = 0;

	/**
	 * Leases of this client still held for n8n's answer: a closing client waits for them (it keeps
	 * extending them meanwhile), however long n8n takes, since closing under one would let its `c:`
	 * end while n8n may create the execution (outside read r14-companion, findings 3 to 5).
	 */
	private leasesHeld = 0;

	/** Claims of this client waiting for its connection and check (before they are under way). */
	private connecting = 0;

	private closed = false;

	/** Why this client closes or closed (a credential edit, a stopped trigger), for a delivery's 503. */
	private closedBecause: string | undefined;

	constructor(
		readonly options: RedisOptions,
		timing: number | Partial<ClaimTiming> = {},
		/** Names the process this client belongs to (see memoryFor); none: a memory of its own. */
		scope?: string,
	) {
		this.memory = memoryFor(options, scope);
		this.memory.clients.add(this);
		this.timing = {
			...DEFAULT_TIMING,
			...(typeof timing === 'number' ? { timeoutMs: timing } : timing),
		};
		const timeoutMs = this.timing.timeoutMs;
		this.timeoutMs = timeoutMs;
		const base: RedisOptions = {
			lazyConnect: true,
			connectTimeout: timeoutMs,
			commandTimeout: timeoutMs,
			// Nothing waits for a connection: a claim that cannot be sent is answered 503 at once.
			enableOfflineQueue: false,
			// A command written on a lost connection is not sent again on the next one: what
			// happened to it is read back instead.
			autoResendUnfulfilledCommands: false,
			maxRetriesPerRequest: 0,
			// After a refused user or password, once a second: on a Redis whose default user is
			// open, a refused AUTH comes with a ready connection that closes at once, so the count
			// of attempts started over and it reconnected ten times a second (outside r18 F4).
			retryStrategy: (times: number) => (this.refusedAuth ? 1_000 : Math.min(times * 100, 1_000)),
			// No CLIENT SETINFO: the README's ACL line is exactly what the claims send.
			disableClientInfo: true,
			...options,
		};
		this.client = defineCommands(new Redis(base));
		this.resolver = defineCommands(new Redis(base));
		for (const client of [this.client, this.resolver]) {
			// Whether Redis refused this connection's user or password: set by the refusal, cleared
			// only by a connection that became ready with no refusal since it began. On a Redis whose
			// default user is open, a refused AUTH still comes with a ready connection (as the default
			// user): clearing it there hid the rotated password from the store's watcher.
			const auth = { refused: false, refusedSinceConnect: false };
			this.auth.set(client, auth);
			client.on('connect', () => {
				auth.refusedSinceConnect = false;
			});
			// Errors are answered per claim (503, with this error); the client reconnects by itself.
			client.on('error', (error: Error) => {
				// Redis' words are outside text: masked here, before any sentence holds them.
				maskedError(error, this.options.password);
				this.lastError = keepFirstAuthError(this.lastError, error);
				if (isAuthRefusal(error)) {
					auth.refused = true;
					auth.refusedSinceConnect = true;
				}
			});
			client.on('ready', () => {
				if (!auth.refusedSinceConnect) auth.refused = false;
			});
		}
		for (const client of [this.client, this.resolver]) {
			// Whether this connection has completed a claim script since it connected, and whether
			// its last one failed (refused, no answer, not sent): held claims and pending run records
			// go only through a connection that has proven it can write them (outside r18 F1).
			const health = { proven: false, failing: false };
			this.health.set(client, health);
			client.on('connect', () => {
				health.proven = false;
			});
			client.on('close', () => {
				health.proven = false;
			});
			const observe = <T>(sent: Promise<T>): Promise<T> => {
				sent.then(
					() => {
						health.proven = true;
						health.failing = false;
					},
					() => {
						health.failing = true;
					},
				);
				return sent;
			};
			const { cpClaim, cpConfirm, cpResolve, cpExtend, cpSync, cpReseed } = client;
			client.cpClaim = async (...args) => await observe(cpClaim.apply(client, args));
			client.cpConfirm = async (...args) => await observe(cpConfirm.apply(client, args));
			client.cpResolve = async (...args) => await observe(cpResolve.apply(client, args));
			client.cpExtend = async (...args) => await observe(cpExtend.apply(client, args));
			client.cpSync = async (...args) => await observe(cpSync.apply(client, args));
			client.cpReseed = async (...args) => await observe(cpReseed.apply(client, args));
		}
		for (const client of [this.client, this.resolver]) {
			// An error is forgotten when a new connection begins, not when it is ready: a refused
			// user or password on a Redis whose default user is open can come with a ready
			// connection that closes at once (outside read r13-companion, finding 2).
			client.on('connect', () => {
				if (client === this.client || this.client.status !== 'ready') this.lastError = undefined;
			});
		}
		this.client.on('ready', () => {
			const check = this.startCheck();
			check.catch(() => undefined);
			this.checked = check;
			this.refreshMembers().catch(() => undefined);
		});
		this.client.on('close', () => {
			this.checked = undefined;
		});
		this.resolver.on('ready', () => {
			this.sendOwed().catch(() => undefined);
			if (this.pendingRuns.size > 0) this.writePending().catch(() => undefined);
		});
		// Pending run records an earlier client of this Redis left (it closed): this one writes
		// them (connecting for it).
		if (this.pendingRuns.size > 0) this.writePending().catch(() => undefined);
	}

	private refreshing = false;

	/** The claimers this process knows ("id=until,..."): whom it waits for after a restart. */
	get knownClaimers(): string {
		return this.knownMembers;
	}

	/**
	 * While connected: reads the epoch and the claimers list every refreshMs (the sync script), so
	 * that after a restart this process waits for every claimer that joined before it, not only
	 * for those its own last claim saw. One at a time; ends when the client closes.
	 */
	private async refreshMembers(): Promise<void> {
		if (this.refreshing) return;
		this.refreshing = true;
		try {
			while (!this.closed && this.client.status === 'ready') {
				await sleep(this.timing.refreshMs);
				const check = this.checked;
				// Owed promotions and releases go again until Redis has answered them.
				if (this.owes && this.resolver.status === 'ready') this.sendOwed().catch(() => undefined);
				if (this.closed || this.client.status !== 'ready' || check === undefined) continue;
				const checked = await this.within(check, this.timeoutMs, 'Redis check');
				if (!checked.ok || this.problem !== undefined || this.facts === undefined) continue;
				await this.within(this.sync(), this.timeoutMs, 'claimers refresh');
			}
		} finally {
			this.refreshing = false;
		}
	}

	/**
	 * Closes both connections. The process's claims stay in its memory of this Redis, for its next
	 * client of it; while one of them is within its time, its member entry stays too, so after a
	 * restart the other processes wait for it (until it writes back through a new client, or its
	 * last claim is RECENT_MS old). With no claim left and no other client, the entry is removed.
	 */
	async close(why?: string): Promise<void> {
		if (this.closed) return;
		this.closedBecause ??= why;
		this.closed = true;
		const memory = this.memory;
		memory.clients.delete(this);
		const holds = pruneRecent(memory);
		// What the process still owes this Redis (a release, a promotion, a pending run record)
		// stays in its memory for the next client of it, whoever closed.
		const owed =
			memory.abandoned.size > 0 || memory.unpromoted.size > 0 || memory.pendingRuns.size > 0;
		if (!holds && memory.clients.size === 0) {
			if (!owed && memories.get(memory.id) === memory) memories.delete(memory.id);
			if (this.client.status === 'ready') {
				await this.within(this.client.hdel(MEMBERS_KEY, this.memberId), 500, 'leave');
			}
		}
		this.client.disconnect();
		this.resolver.disconnect();
	}

	/**
	 * Closes once nothing is owed to Redis any more, or after twice the timeout (a trigger
	 * stopped: deactivated, its credential edited). Without persistence, the last client of this
	 * process for this Redis stays connected while the process holds a claim within its time (it
	 * reads the claimers list and writes back after a restart, as before), and closes when the
	 * last one is RECENT_MS old or another client of the same Redis takes over the memory.
	 */
	async closeWhenSettled(why?: string): Promise<void> {
		this.closedBecause ??= why;
		// Claims under way on this client are decided first (each ends within its own timeouts;
		// the bound is a guard): closing under one would drop its promotion or release. Those
		// still connecting are let through too: closing under them would answer 503 for nothing
		// (outside read r13-companion, finding 9).
		const decided =
			monotonic() + 6 * this.timeoutMs + this.timing.waitForOtherMs + this.timing.readBackMs;
		// A held lease is waited for until n8n answers: it is extended until then, and settled on
		// this client (its promotion or release goes out before the close).
		while (
			(this.inFlight > 0 || this.connecting > 0) &&
			(monotonic() < decided || this.leasesHeld > 0) &&
			!this.closed
		) {
			await sleep(POLL_MS);
		}
		// Then what they owe; what Redis has not answered by then stays in the process's memory
		// of this Redis, and its next client sends it.
		const deadline = monotonic() + 2 * this.timeoutMs;
		while (this.owes && monotonic() < deadline) await sleep(POLL_MS);
		while (
			!this.closed &&
			this.memory.clients.size === 1 &&
			this.facts?.aof === false &&
			pruneRecent(this.memory)
		) {
			await sleep(this.timing.refreshMs);
		}
		await this.close();
	}

	get isClosed(): boolean {
		return this.closed;
	}

	/** Per connection: whether a claim script completed on it since it connected, and whether its last failed. */
	private readonly health = new Map<Redis, { proven: boolean; failing: boolean }>();

	/** This client's connections that have proven they write claims and have not failed since. */
	private workingConnections(): ClaimClient[] {
		if (this.closed || this.refusedAuth) return [];
		return [this.resolver, this.client].filter((client) => {
			const health = this.health.get(client);
			return health?.proven === true && !health.failing && client.status === 'ready';
		});
	}

	/** Whether a connection of this client failed its last claim script (and none works since). */
	private get failing(): boolean {
		return [...this.health.values()].some((health) => health.failing);
	}

	/** Per connection: whether Redis refused its user or password (see the constructor). */
	private readonly auth = new Map<Redis, { refused: boolean; refusedSinceConnect: boolean }>();

	/**
	 * Whether Redis refused this client's user or password on either connection, and no
	 * connection of it was accepted since.
	 */
	private get refusedAuth(): boolean {
		return [...this.auth.values()].some((auth) => auth.refused);
	}

	/**
	 * Whether Redis refuses this client's credentials now (a rotated password, say): what it owes
	 * can then be sent only by a client of the current credential (see the store's owed watcher).
	 */
	get authRefused(): boolean {
		return this.refusedAuth && !this.closed;
	}

	/**
	 * Sends what is owed now when the second connection is up, and connects it when it was never
	 * used (a new client made for what an older one owes): its ready sends the owed writes.
	 */
	retryOwed(): void {
		if (this.closed || !this.owes) return;
		if (this.resolver.status === 'wait') this.resolver.connect().catch(() => undefined);
		else if (this.resolver.status === 'ready') this.sendOwed().catch(() => undefined);
	}

	/** Whether this client still owes Redis a release or a promotion (then it is not closed idle). */
	get owes(): boolean {
		return this.abandoned.size > 0 || this.unpromoted.size > 0 || this.pendingRuns.size > 0;
	}

	/** The 503 reason of a delivery whose client was closed under it, or undefined. */
	private closedReason(): string | undefined {
		if (!this.closed && this.closedBecause === undefined) return undefined;
		const why = this.closedBecause ?? 'its trigger stopped';
		return `the Redis connection this delivery was claimed on was closed because ${why}: nothing was started, and the service sends the delivery again`;
	}

	/**
	 * A lost connection or a closed client as a 503 reason: why it closed, the connection's own
	 * error (a refused password, say), and never an internal of the Redis client alone.
	 */
	private connectionReason(said: string): string {
		const closed = this.closedReason();
		if (closed !== undefined) return closed;
		const why = this.lastError ? describeRedisError(this.lastError, this.options) : undefined;
		if (why !== undefined) return why;
		if (/Stream isn't writeable|Connection is closed|max retries per request/.test(said)) {
			return `the connection to Redis was lost while it was checked (${said}${this.lastError ? `; ${this.lastError.message}` : ''}): this delivery is answered 503 and the next one connects again`;
		}
		return said;
	}

	private async notConnected(client: Redis): Promise<string> {
		const closed = this.closedReason();
		if (closed !== undefined && client.status === 'end') return closed;
		const why = this.lastError ? describeRedisError(this.lastError, this.options) : undefined;
		if (why !== undefined) return why;
		// Connected, but Redis is not ready: it is loading its data (the ready check waits).
		const loading = await loadingState(client, Math.min(500, this.timeoutMs));
		if (loading !== undefined) return loading;
		// The connection's error may have come while Redis was asked whether it loads (a refused
		// password on the reconnect): it is read again, so the reason words it.
		const whyNow = this.lastError ? describeRedisError(this.lastError, this.options) : undefined;
		if (whyNow !== undefined) return whyNow;
		// Connected (TCP), its ready check (INFO) unanswered: Redis is stopped, hung or busy.
		if (client.status === 'connect' || /Command timed out/.test(this.lastError?.message ?? '')) {
			return frozenText(this.options, this.timeoutMs);
		}
		return `Redis not connected (${client.status}) within ${this.timeoutMs} ms${this.lastError ? ` (${this.lastError.message})` : ''}`;
	}

	/**
	 * A delivery's connection not ready with SSL on, for no reason Redis or TLS named: when a
	 * plain-TCP Redis answers there, the reason says so as activation does (outside
	 * r17-companion F3). Deliveries only: a lease's extension does not wait for this probe.
	 */
	private async withTlsCause(down: string): Promise<string> {
		if (!this.options.tls || !down.startsWith('Redis not connected')) return down;
		const detail = this.lastError?.message ?? `not connected within ${this.timeoutMs} ms`;
		return (await tlsMismatch(this.options, detail, Math.min(1_000, this.timeoutMs))) ?? down;
	}

	/**
	 * As connected(), for a held or pending write tried on several clients: a client whose
	 * password Redis refused is not waited for (its reconnects are refused too), so the write
	 * moves on to the next client at once.
	 */
	private async reachable(client: Redis): Promise<string | undefined> {
		if (this.refusedAuth && client.status !== 'ready') return await this.notConnected(client);
		return await this.connected(client, this.timeoutMs);
	}

	/** Waits until the client is connected; the reason when it is not within the time. */
	private async connected(client: Redis, ms: number): Promise<string | undefined> {
		if (client.status === 'wait') client.connect().catch(() => undefined);
		const deadline = monotonic() + ms;
		while (client.status !== 'ready') {
			if (monotonic() >= deadline || client.status === 'end')
				return await this.notConnected(client);
			await sleep(POLL_MS);
		}
		return undefined;
	}

	/** Waits until the connection is up and checked; the reason when it is not. */
	async unusable(requirements: ClaimRequirements = {}): Promise<string | undefined> {
		this.connecting++;
		try {
			return await this.checkedConnection(requirements);
		} finally {
			this.connecting--;
		}
	}

	private async checkedConnection(requirements: ClaimRequirements): Promise<string | undefined> {
		const started = monotonic();
		const down = await this.connected(this.client, this.timeoutMs);
		if (down !== undefined) return await this.withTlsCause(down);
		// A check that failed (Redis full, an evicting policy, a lost answer) is never kept: this
		// claim checks again, so the claims resume as soon as Redis is fixed.
		if (this.checked !== undefined && this.checked === this.failedCheck) this.checked = undefined;
		this.checked ??= this.startCheck();
		const check = this.checked;
		const checked = await this.within(
			check,
			Math.max(1, started + 2 * this.timeoutMs - monotonic()),
			'Redis check',
		);
		if (!checked.ok) {
			if (this.checked === check) this.checked = undefined;
			// Redis' own answer is named as it is; a lost connection by why it was lost.
			return checked.refused ? checked.reason : this.connectionReason(checked.reason);
		}
		const wrong =
			this.problem ?? (this.facts ? refusal(this.facts, requirements) : 'Redis was not checked');
		// A failed check is not kept: the next claim checks again, so the claims resume once
		// Redis is fixed (room again, noeviction, appendonly yes) without a new connection.
		if (wrong !== undefined && this.checked === check) this.checked = undefined;
		return wrong;
	}

	/** Makes the next claim check this Redis again (its facts changed since the last check). */
	private recheck(): void {
		this.checked = undefined;
	}

	/** The last check that failed (settled): the next claim checks again rather than keep it. */
	private failedCheck: Promise<void> | undefined;

	private startCheck(): Promise<void> {
		const check: Promise<void> = this.onConnect().then(
			() => {
				const wrong =
					this.problem ??
					(this.facts ? refusal(this.facts, { allowWithoutPersistence: true }) : 'unchecked');
				if (wrong !== undefined) this.failedCheck = check;
			},
			(error: unknown) => {
				this.failedCheck = check;
				throw error;
			},
		);
		return check;
	}

	/**
	 * On every new connection: read what this Redis is (database, scripting, eviction,
	 * persistence, run ID), send what is owed, learn the epoch; when it changed, write this
	 * process's running claims back (never overwriting) and say so (the back set).
	 */
	private async onConnect(): Promise<void> {
		const facts = await readFacts(this.client, this.options.db ?? 0);
		this.facts = typeof facts === 'string' ? undefined : facts;
		this.problem = typeof facts === 'string' ? facts : undefined;
		if (this.problem !== undefined) return;
		this.joinSameRedis(this.facts?.runId ?? '');
		// What a delivery runs, on probe keys: a missing permission or a replica is named once.
		this.problem = await probeClaims(this.client, this.run());
		if (this.problem !== undefined) return;
		await this.sendOwed(this.client);
		await this.sync();
	}

	/**
	 * A memory of this process that never synced with Redis (a new client, its Host spelled
	 * another way than the process's other clients of the same Redis: 127.0.0.1 and localhost,
	 * an alias) joins the process's memory of the Redis that gives the same run ID, in the same
	 * database and key prefixes: its clients then extend, promote and release the held claims
	 * and the owed writes of that memory, under one member name. Before (outside r19-companion,
	 * the reader's idea), a password rotation whose updated credential re-spelled the Host left
	 * a held claim to the refused client alone: its `c:` ended, and a copy elsewhere ran it again.
	 * A memory that synced already stays as it is (a claimer of its own, as before).
	 */
	private joinSameRedis(runId: string): void {
		const mine = this.memory;
		if (runId === '' || mine.runId === runId) return;
		const unused =
			mine.epoch === undefined &&
			mine.recent.size === 0 &&
			mine.abandoned.size === 0 &&
			mine.unpromoted.size === 0 &&
			mine.pendingRuns.size === 0 &&
			mine.underWay === 0 &&
			mine.leasesHeld === 0;
		const same =
			mine.scope === undefined || !unused
				? undefined
				: [...memories.values()].find(
						(other) =>
							other !== mine &&
							other.scope === mine.scope &&
							other.place === mine.place &&
							other.runId === runId,
					);
		if (same === undefined) {
			mine.runId = runId;
			return;
		}
		for (const client of [...mine.clients]) {
			mine.clients.delete(client);
			client.memory = same;
			same.clients.add(client);
		}
		if (memories.get(mine.id) === mine) memories.delete(mine.id);
	}

	/** The run ID the epoch is tied to: none when Redis persists (only lost keys begin an epoch). */
	private run(): string {
		return this.facts && !this.facts.aof ? this.facts.runId : '';
	}

	/**
	 * The run ID of the Redis in which this process last saw its epoch: a new epoch in a Redis of
	 * that same run lost its keys without a restart (evicted or flushed).
	 */
	private get epochRun(): string {
		return this.memory.epochRun;
	}

	private set epochRun(value: string) {
		this.memory.epochRun = value;
	}

	private knownRun(): string {
		return this.epoch === undefined ? '' : this.epochRun;
	}

	private fresh(): string {
		return `${Date.now().toString(36)}:${randomBytes(6).toString('hex')}`;
	}

	/** Reads the epoch; when it is not the one this process knew, writes its claims back. */
	private async sync(): Promise<void> {
		const run = this.run();
		// KEYS[1] is unused by the sync script; it is a key of this package all the same, for
		// an ACL user whose key pattern is the package's prefix.
		const [epoch, members] = await this.client.cpSync(
			EPOCH_KEY,
			...EPOCH_KEYS,
			run,
			this.fresh(),
			this.epoch ?? '',
			this.knownMembers,
			this.memberId,
			'0',
			this.knownRun(),
		);
		if (epoch === this.epoch) {
			this.knownMembers = members;
			this.epochRun = this.facts?.runId ?? '';
			return;
		}
		const now = monotonic();
		const writes: Array<Promise<number>> = [];
		for (const [key, entry] of this.recent) {
			const ttl = entry.ttlEnds - now;
			if (entry.expires > now && ttl > 0) {
				writes.push(this.client.cpReseed(key, EXPIRY_KEY, `${RUNNING}${entry.token}`, ttl));
			}
		}
		await Promise.all(writes);
		const [after, alive] = await this.client.cpSync(
			EPOCH_KEY,
			...EPOCH_KEYS,
			run,
			this.fresh(),
			epoch,
			'',
			this.memberId,
			'1',
			this.knownRun(),
		);
		this.knownMembers = alive;
		// Written back into this epoch; another loss in between is found by the next claim.
		if (after === epoch) {
			this.epoch = epoch;
			this.epochRun = this.facts?.runId ?? '';
		}
	}

	/** Sends the releases and promotions still owed, on the given (or the second) connection. */
	private async sendOwed(client: ClaimClient = this.resolver): Promise<void> {
		await Promise.all([
			...[...this.abandoned].map(async ([key, token]) => {
				await client.cpResolve(key, EXPIRY_KEY, token, 'release');
				if (this.abandoned.get(key) === token) this.abandoned.delete(key);
			}),
			...[...this.unpromoted].map(async ([key, token]) => {
				await client.cpResolve(key, EXPIRY_KEY, token, 'owed', this.promoteTtl.get(key) ?? 1);
				if (this.unpromoted.get(key) === token) this.forgetPromotion(key);
			}),
		]);
	}

	private remember(key: string, token: string, now: number, ttlMs: number): void {
		this.recent.delete(key);
		this.recent.set(key, {
			token,
			expires: now + Math.min(this.timing.recentMs, ttlMs),
			ttlEnds: now + ttlMs,
		});
		// With persistence Redis keeps the claims across a restart: the oldest leaves the memory.
		// Without, nothing is dropped here (fullReason refuses new claims at the bound instead).
		if (this.facts?.aof === true && this.recent.size > this.timing.recentMax) {
			pruneRecent(this.memory, now);
			while (this.recent.size > this.timing.recentMax) {
				const oldest = this.recent.keys().next().value;
				if (oldest === undefined) break;
				this.recent.delete(oldest);
			}
		}
	}

	/**
	 * Without persistence, the 503 reason when this process's memory of running claims in this
	 * Redis is at its bound: one more claim would have to forget one it must write back after a
	 * restart.
	 */
	private fullReason(now: number): string | undefined {
		if (this.facts === undefined || this.facts.aof) return undefined;
		const max = this.timing.recentMax;
		const underWay = this.memory.underWay;
		if (this.recent.size + underWay < max) return undefined;
		pruneRecent(this.memory, now);
		if (this.recent.size + underWay < max) return undefined;
		let oldest = Infinity;
		for (const entry of this.recent.values()) oldest = Math.min(oldest, entry.expires);
		const when = Number.isFinite(oldest)
			? `until the oldest is ${this.recentTime()} old (in ${Math.max(0, Math.ceil((oldest - now) / 1_000))} s)`
			: 'until the claims under way are decided';
		const more = underWay > 0 ? ` and has ${underWay} under way` : '';
		return `this webhook process remembers ${this.recent.size} claims run in this Redis in the last ${this.recentTime()}${more}, its bound of ${max}: Redis keeps no append-only file, so after a restart they are written back from this memory only, and one more would make it forget one. This delivery is answered 503 (nothing started) ${when}; spread the deliveries over more webhook processes, or turn on appendonly yes`;
	}

	private recentTime(): string {
		const ms = this.timing.recentMs;
		return ms % 60_000 === 0 ? `${ms / 60_000} minutes` : `${Math.round(ms / 1_000)} s`;
	}

	/**
	 * Reads Redis' record of this attempt back on the second connection, until READ_BACK_MS, and
	 * writes nothing: 'mine' (`c:`/`r:` of this token), 'tentative', 'other', or undefined when
	 * Redis could not be asked.
	 */
	private async readBack(key: string, token: string, by: number): Promise<string | undefined> {
		const deadline = Math.min(by, monotonic() + this.timing.readBackMs);
		while (monotonic() < deadline && !this.closed) {
			const down = await this.connected(this.resolver, Math.max(1, deadline - monotonic()));
			if (down !== undefined) return undefined;
			const read = await this.within(
				this.resolver.cpResolve(key, EXPIRY_KEY, token, 'read'),
				Math.max(1, deadline - monotonic()),
				'read-back',
			);
			if (read.ok) return read.value;
			await sleep(POLL_MS);
		}
		return undefined;
	}

	private forgetPromotion(key: string): void {
		this.unpromoted.delete(key);
		this.promoteTtl.delete(key);
	}

	/** Sends one owed write (a release or a promotion) on the second connection, when it is up. */
	private sendOne(key: string, token: string, mode: 'run' | 'release', ttl = 1): void {
		const owed = mode === 'run' ? this.unpromoted : this.abandoned;
		owed.set(key, token);
		if (mode === 'run') this.promoteTtl.set(key, ttl);
		this.connected(this.resolver, this.timeoutMs)
			.then(async (down) => {
				if (down !== undefined) return;
				await this.resolver.cpResolve(key, EXPIRY_KEY, token, mode === 'run' ? 'owed' : mode, ttl);
				if (owed.get(key) === token) {
					if (mode === 'run') this.forgetPromotion(key);
					else owed.delete(key);
				}
			})
			.catch(() => undefined);
	}

	/**
	 * Gives a claim up: 503 at once, and owes the release of whatever of this attempt Redis may
	 * hold (`t:` or `c:`): sent on the second connection, and again until Redis has answered it.
	 */
	private giveUp(key: string, token: string, reason: string): ClaimVerdict {
		this.sendOne(key, token, 'release');
		return { verdict: 'unavailable', reason };
	}

	/**
	 * Claims one delivery key for `ttlMs`: at most one of any number of concurrent claims of the
	 * same key, from any process, gets `claimed`, and `duplicate` only when one did. Whatever Redis
	 * does not answer in time is `unavailable` (the trigger answers 503, starts nothing, and the
	 * service retries).
	 */
	async claim(
		key: string,
		ttlMs: number,
		requirements: ClaimRequirements = {},
	): Promise<ClaimVerdict> {
		const now = monotonic();
		this.lastUsed = now;
		const mine = this.recent.get(key);
		if (mine !== undefined && mine.expires > now) return { verdict: 'duplicate', by: 'memory' };
		const unusable = await this.unusable(requirements);
		if (unusable !== undefined) return { verdict: 'unavailable', reason: unusable };
		const full = this.fullReason(monotonic());
		if (full !== undefined) return { verdict: 'unavailable', reason: full };
		// Counted against the bound while under way, so concurrent claims cannot pass it together.
		this.memory.underWay++;
		this.inFlight++;
		try {
			return await this.attempt(key, ttlMs, now, requirements.hold === true);
		} finally {
			this.memory.underWay--;
			this.inFlight--;
		}
	}

	private async attempt(
		key: string,
		ttlMs: number,
		now: number,
		hold: boolean,
	): Promise<ClaimVerdict> {
		// What earlier attempts still owe (a release, a promotion) goes again with every claim.
		if (this.owes && this.resolver.status === 'ready') this.sendOwed().catch(() => undefined);
		const token = randomBytes(9).toString('base64');
		const ttl = Math.max(1, Math.round(ttlMs));
		const deadline = monotonic() + this.timing.waitForOtherMs;
		for (;;) {
			let answer: [string, string, string, string, number];
			try {
				answer = await this.client.cpClaim(
					key,
					...EPOCH_KEYS,
					EXPIRY_KEY,
					token,
					this.timing.tentativeMs,
					this.run(),
					this.fresh(),
					this.epoch ?? '',
					this.knownMembers,
					this.timing.restartWindowMs,
					TRIM_PER_CLAIM,
					'1',
					this.knownRun(),
					this.facts === undefined ? '' : this.facts.aof ? '1' : '0',
				);
			} catch (error) {
				// It may have reached Redis: a `t:` of ours is released.
				return this.giveUp(key, token, this.errorText(error));
			}
			const [verdict, held, epoch, members, replicas] = answer;
			this.replicas = Number(replicas) || 0;
			if (epoch === this.epoch) this.knownMembers = members;
			// Redis lost its keys since this connection was checked: write back (this claim
			// told Redis whom to wait for).
			else this.sync().catch(() => undefined);
			if (verdict === 'claimed') return await this.confirm(key, token, ttl, now, hold);
			if (verdict === 'policy') {
				this.recheck();
				return { verdict: 'unavailable', reason: policyReason(held) };
			}
			if (verdict === 'persistence') {
				// Checked again at the next claim: refused there while appendonly is no, unless
				// the user accepted a Redis without persistence.
				this.recheck();
				return {
					verdict: 'unavailable',
					reason:
						held === '1'
							? "Redis' appendonly was turned on since this connection was checked: this delivery is answered 503 and the next one checks Redis again"
							: `Redis' appendonly was turned off (CONFIG SET appendonly no) since this connection was checked: claims made now would be lost at Redis' next restart, and a copy of a delivery could start again. Every delivery is answered 503 while appendonly is no: CONFIG SET appendonly yes (and in redis.conf), or turn on the trigger option "${WITHOUT_PERSISTENCE_OPTION}"`,
				};
			}
			if (verdict === 'unknown') {
				if (held.startsWith('window:')) {
					return { verdict: 'unavailable', reason: this.windowReason(held) };
				}
				// "<member>:<cause>": the epoch's cause names how Redis lost its keys (a Redis with
				// an append-only file loses them to eviction or a flush, never to a restart).
				const [member, cause] = held.split(':');
				return {
					verdict: 'unavailable',
					reason: `${lossText(cause)}: deliveries are answered 503 until every process that claimed in the last ${Math.round(this.timing.recentMs / 60_000)} minutes has reconnected and written its claims back, or that time has passed for one that stopped (waiting for ${member})`,
				};
			}
			const heldToken = held.slice(2);
			if (this.abandoned.get(key) === heldToken) {
				// Our own earlier attempt, given up: release it now and claim again.
				try {
					await this.client.cpResolve(key, EXPIRY_KEY, heldToken, 'release');
					if (this.abandoned.get(key) === heldToken) this.abandoned.delete(key);
				} catch (error) {
					return { verdict: 'unavailable', reason: this.errorText(error) };
				}
				continue;
			}
			if (held.startsWith(RUNNING)) return { verdict: 'duplicate', by: 'redis' };
			// Another attempt holds it undecided (`t:` or `c:`): wait for its `r:` or its release.
			if (monotonic() >= deadline) {
				return {
					verdict: 'unavailable',
					reason: 'another attempt of this delivery holds an undecided claim',
				};
			}
			await sleep(POLL_MS);
		}
	}

	/** The 503 reason of the restart window; `held` is "window:<ms left>:<cause>". */
	private windowReason(held: string): string {
		const [, left, cause] = held.split(':');
		const window = this.timing.restartWindowMs;
		const what = lossText(cause);
		const lost = Math.max(0, window - SERVICE_RETRY_SPAN_MS);
		return `${what}: every delivery is answered 503 for ${window} ms from then (${left} ms left), so that no delivery under way then starts a second time. A delivery first sent in the first ${lost} ms of that time gets 503 at all of the service's attempts (0, 1, 3, 7 s) and the service gives it up: "Accept Redis Without Persistence" takes that loss rather than a second start`;
	}

	/**
	 * Connected replicas seen by the last claim of this process in this Redis (any client of it):
	 * a confirm counts once they all have it.
	 */
	private get replicas(): number {
		return this.memory.replicas;
	}

	private set replicas(value: number) {
		this.memory.replicas = value;
	}

	/**
	 * With replicas attached, waits until every one has acknowledged this connection's writes
	 * (WAIT); the reason when they have not within the timeout.
	 */
	private async notReplicated(what = 'the claim'): Promise<string | undefined> {
		const replicas = this.replicas;
		if (replicas === 0) return undefined;
		const acked = await this.within(
			this.client.wait(replicas, this.timeoutMs),
			this.timeoutMs + 500,
			'WAIT',
		);
		// Refused (the user may not run WAIT, say): the reason names it, not the replicas.
		if (!acked.ok && acked.refused) return acked.reason;
		if (!acked.ok) return `${what} was not acknowledged by Redis' replicas (${acked.reason})`;
		if (acked.value < replicas) {
			return `only ${acked.value} of ${replicas} replicas acknowledged ${what} within ${this.timeoutMs} ms: a failover could lose it, so this attempt starts nothing`;
		}
		return undefined;
	}

	/**
	 * How long a confirm binds (`c:`): the time in which its owner can still decide to start it
	 * (its confirm's answer within the timeout, or its read-back), and one more timeout for its
	 * promotion to `r:` to reach Redis. Past it, with no `r:`, another process may claim the key.
	 */
	private bindMs(ttl: number): number {
		return Math.min(ttl, 2 * this.timing.timeoutMs + this.timing.readBackMs);
	}

	/**
	 * This process runs the delivery: remembered, and promoted to `r:` at once. Redis answering
	 * 'other' means the confirm's bind ran out before the promotion arrived (another process may
	 * hold the key now): 503, nothing started. No answer: it may have arrived, so this process
	 * runs the delivery and owes the promotion until Redis answers it.
	 */
	private async commit(
		key: string,
		token: string,
		ttl: number,
		now: number,
	): Promise<ClaimVerdict> {
		// With replicas the promotion is first pending (`p:`, read by others as undecided): a run
		// record the replicas do not acknowledge would otherwise be read as a duplicate (200)
		// until this attempt's release of it lands, and nobody would run the delivery.
		const replicated = this.replicas > 0;
		const promoted = await this.within(
			replicated
				? this.client.cpResolve(key, EXPIRY_KEY, token, 'pend', this.bindMs(ttl))
				: this.client.cpResolve(key, EXPIRY_KEY, token, 'run', ttl),
			this.timeoutMs,
			'promotion',
		);
		if (promoted.ok && promoted.value !== 'mine') {
			return {
				verdict: 'unavailable',
				reason: `the confirmed claim was not marked running within ${this.bindMs(ttl)} ms of its confirm (its link to Redis was slow), and another attempt holds the delivery now: this one starts nothing`,
			};
		}
		if (!promoted.ok && promoted.refused) {
			// Redis answered with an error (out of memory, say): the promotion was not written.
			return this.giveUp(
				key,
				token,
				`Redis refused to mark the confirmed claim running (${promoted.reason}): nothing was started`,
			);
		}
		if (promoted.ok) {
			// With replicas, the run record counts once every replica has it: a failover to one
			// that lacks it would free the key once the confirm's bind ends.
			const notReplicated = await this.notReplicated('the run record');
			if (notReplicated !== undefined) return this.giveUp(key, token, notReplicated);
		}
		this.remember(key, token, now, ttl);
		if (!promoted.ok) this.sendOne(key, token, 'run', ttl);
		else if (replicated) await this.finish(key, token, ttl);
		return { verdict: 'claimed' };
	}

	/**
	 * With replicas, after the pending run record was acknowledged (this process runs the
	 * delivery): makes it `r:` and waits for the replicas again, so that a failover keeps it. What
	 * is not answered in time is owed (sent again until Redis answers); it runs either way.
	 */
	private async finish(key: string, token: string, ttl: number): Promise<string | undefined> {
		this.unpromoted.set(key, token);
		this.promoteTtl.set(key, ttl);
		const done = await this.within(
			this.client.cpResolve(key, EXPIRY_KEY, token, 'owed', ttl),
			this.timeoutMs,
			'run record',
		);
		if (!done.ok) {
			this.sendOne(key, token, 'run', ttl);
			return undefined;
		}
		if (this.unpromoted.get(key) === token) this.forgetPromotion(key);
		await this.notReplicated('the run record');
		return done.value;
	}

	private async confirm(
		key: string,
		token: string,
		ttl: number,
		now: number,
		hold: boolean,
	): Promise<ClaimVerdict> {
		// The owner starts the delivery only when it learns its confirm by then; the `c:` binds
		// one timeout longer, for the promotion.
		const commitBy = monotonic() + this.timing.timeoutMs + this.timing.readBackMs;
		const late = `the answer to this attempt's confirm came later than ${this.timing.timeoutMs + this.timing.readBackMs} ms: its claim binds no longer than ${this.bindMs(ttl)} ms, so this attempt starts nothing`;
		let confirmed: number;
		try {
			confirmed = await this.client.cpConfirm(
				key,
				MEMBERS_KEY,
				EXPIRY_KEY,
				token,
				ttl,
				this.memberId,
				Math.min(this.timing.recentMs, ttl),
				this.bindMs(ttl),
			);
		} catch (error) {
			// Applied, late or never: Redis' record decides, read without writing.
			const found = await this.readBack(key, token, commitBy);
			// Read on the other connection, so no WAIT covers the confirm: with replicas, 503.
			if (found === 'mine' && this.replicas === 0 && monotonic() < commitBy) {
				return hold ? this.lease(key, token, ttl, now) : await this.commit(key, token, ttl, now);
			}
			return this.giveUp(key, token, this.errorText(error));
		}
		if (confirmed !== 1) {
			return {
				verdict: 'unavailable',
				reason: 'the tentative claim expired before it was confirmed',
			};
		}
		const notReplicated = await this.notReplicated();
		if (notReplicated !== undefined) return this.giveUp(key, token, notReplicated);
		if (monotonic() >= commitBy) return this.giveUp(key, token, late);
		return hold ? this.lease(key, token, ttl, now) : await this.commit(key, token, ttl, now);
	}

	/**
	 * Held claims whose execution exists (n8n answered 2xx) and whose run record the replicas have
	 * not acknowledged yet (the process's memory of this Redis: see ProcessMemory.pendingRuns).
	 * Kept pending (`p:`, 503 for others) and tried again every refreshMs, by the current client of
	 * this Redis, until a replica-acknowledged `r:` is written.
	 */
	private get pendingRuns(): Map<string, { token: string; ttl: number }> {
		return this.memory.pendingRuns;
	}

	/**
	 * The client of this process for this Redis that its held and pending claims go through: the
	 * newest open one whose user and password Redis has not refused, else this one. A credential
	 * edit or a rotated password makes a new client; the held claims' extensions, their promotion
	 * or release, and the pending run records move to it (outside r16-companion F1, F2). Without a
	 * process scope a client is a memory of its own, and this is always itself.
	 */
	private current(): RedisClaims {
		return this.candidates()[0] ?? this;
	}

	/**
	 * The clients of this process for this Redis that its held and pending claims may go through,
	 * in the order they are tried; a write that fails on one goes to the next at once, before the
	 * claim can lapse. First this client while it works (a claim script completed on it since it
	 * connected, none failed since, its password not refused), then the other working ones, newest
	 * first; then those not refused and not failing, newest first (a client of a rotated
	 * password's new credential, not used yet); then any open one. Another workflow's newer
	 * client of the same Redis whose credential cannot claim (SSL on for a plain Redis, a user
	 * without +evalsha) is never first: it has not proven it works (outside r18 F1).
	 */
	private candidates(): RedisClaims[] {
		const open = [...this.memory.clients].filter((other) => !other.closed).reverse();
		const order: RedisClaims[] = [];
		const add = (clients: RedisClaims[]) => {
			for (const one of clients) if (!order.includes(one)) order.push(one);
		};
		if (this.workingConnections().length > 0) add([this]);
		add(open.filter((other) => other.workingConnections().length > 0));
		add(open.filter((other) => !other.refusedAuth && !other.failing));
		if (!this.closed && !this.refusedAuth) add([this]);
		add(open);
		if (!this.closed) add([this]);
		return order;
	}

	/** The connections of this client in the order a held or pending write tries them. */
	private connectionsToTry(first: 'resolver' | 'client' = 'resolver'): ClaimClient[] {
		const working = this.workingConnections();
		const rest = (
			first === 'resolver' ? [this.resolver, this.client] : [this.client, this.resolver]
		).filter((client) => !working.includes(client));
		return [...working, ...rest];
	}

	/**
	 * Writes the pending run records again every refreshMs, through the current client, until
	 * each is done or another attempt holds its key; one loop per memory. It stops when the
	 * memory has no open client: the records stay, and the next client of this Redis resumes it.
	 */
	private async writePending(): Promise<void> {
		const memory = this.memory;
		if (memory.pendingLoop) return;
		memory.pendingLoop = true;
		try {
			while (memory.pendingRuns.size > 0) {
				await sleep(this.timing.refreshMs);
				const tried = this.candidates().filter((on) => !on.closed);
				if (tried.length === 0) return;
				// Each record through the first client that answers for it: one whose write fails
				// (refused, no answer, never connected) passes it to the next (outside r18 F1).
				for (const [key, { token, ttl }] of [...memory.pendingRuns]) {
					for (const on of tried) {
						if ((await on.reachable(on.client)) !== undefined) continue;
						const step = await on.pendStep(key, token, ttl);
						if (step === 'failed') continue;
						if (step !== 'waiting' && memory.pendingRuns.get(key)?.token === token) {
							memory.pendingRuns.delete(key);
						}
						break;
					}
				}
			}
		} finally {
			memory.pendingLoop = false;
		}
	}

	/** Whether a lease of this process in this Redis is held for n8n's answer (on any client of it). */
	get holding(): boolean {
		return this.memory.leasesHeld > 0;
	}

	/**
	 * One step of a held claim's promotion with replicas: `p:` (or its extension), the replicas
	 * counted again (a failover leaves a primary with none), WAIT; once acknowledged, `r:` and WAIT
	 * again. 'done' when a replica-acknowledged `r:` is written, 'other' when another attempt
	 * holds the key, 'failed' when this client could not write or read it (the next client tries),
	 * 'waiting' otherwise (not acknowledged: `p:` stays, others 503).
	 */
	private async pendStep(
		key: string,
		token: string,
		ttl: number,
	): Promise<'done' | 'other' | 'waiting' | 'failed'> {
		const pend = await this.within(
			this.client.cpResolve(key, EXPIRY_KEY, token, 'pend', this.bindMs(ttl)),
			this.timeoutMs,
			'pending run record',
		);
		if (!pend.ok) return 'failed';
		if (pend.value !== 'mine') return 'other';
		const info = await this.within(this.client.info('replication'), this.timeoutMs, 'replicas');
		if (!info.ok) return 'failed';
		this.replicas = Number(/connected_slaves:(\d+)/.exec(info.value)?.[1] ?? '0');
		if ((await this.notReplicated('the run record')) !== undefined) return 'waiting';
		const run = await this.within(
			this.client.cpResolve(key, EXPIRY_KEY, token, 'owed', ttl),
			this.timeoutMs,
			'run record',
		);
		if (!run.ok) return 'waiting';
		if (run.value !== 'mine') return 'other';
		if ((await this.notReplicated('the run record')) !== undefined) return 'waiting';
		return 'done';
	}

	/**
	 * A held claim promoted with replicas attached (n8n answered 2xx: the execution exists). As the
	 * unheld path does, the run record is pending (`p:`) until every replica acknowledged it, then
	 * `r:` (acknowledged again): a copy meanwhile is 503, never 200 `executed: false` for a record a
	 * failover could lose (outside r15-companion F2). Not acknowledged in time: kept pending and
	 * tried again every refreshMs, on whichever primary the address leads to, until it is.
	 */
	private async promoteReplicated(
		key: string,
		token: string,
		ttl: number,
		lost: string | undefined,
	): Promise<LeaseOutcome> {
		const other: LeaseOutcome = {
			state: 'running',
			note: `Redis held another attempt of this delivery when its run record arrived (this claim had ended${lost === undefined ? '' : `: ${lost}`}), so that attempt may run it too`,
		};
		this.pendingRuns.set(key, { token, ttl });
		const first = await this.pendStep(key, token, ttl);
		if (first !== 'waiting' && first !== 'failed') {
			if (this.pendingRuns.get(key)?.token === token) this.pendingRuns.delete(key);
			return first === 'done' ? { state: 'running' } : other;
		}
		this.writePending().catch(() => undefined);
		return {
			state: 'running',
			note: `its run record was not acknowledged by every Redis replica in time: it stays pending (copies elsewhere are answered 503, never 200 executed: false) and is written again every ${this.timing.refreshMs} ms until they acknowledge it`,
		};
	}

	/**
	 * Holds the confirmed claim while n8n creates the execution: 'claimed' with a lease, and no
	 * promotion yet. Its `c:` is extended every leaseRefreshMs (on the second connection, only while
	 * it is still this attempt's `c:`), until n8n's answer settles it: 2xx → promoted to `r:` (the
	 * execution exists), owed until Redis answers; anything else → released, owed until Redis
	 * answers, so the service's retry runs it elsewhere. A process that dies holding it stops
	 * extending: the `c:` ends at most bindMs later. Held however long n8n takes, never promoted
	 * without its 2xx: an execution n8n fails to create after a minute, or never answers for, left a
	 * promoted claim with no execution, every copy a duplicate (outside r14-companion, F1 and F2).
	 * Held without an answer, every copy is 503 (no 2xx anywhere), and the service gives it up.
	 */
	private lease(key: string, token: string, ttl: number, now: number): ClaimVerdict {
		let state: 'held' | 'done' = 'held';
		let lost: string | undefined;
		// Counted as under way until settled: the memory's bound and a closing client see it.
		this.memory.underWay++;
		this.inFlight++;
		// A closing client waits for it while it is held; the store keeps the credential current.
		this.leasesHeld++;
		this.memory.leasesHeld++;
		let counted = true;
		const unhold = () => {
			if (counted) {
				this.leasesHeld--;
				this.memory.leasesHeld--;
			}
			counted = false;
		};
		const letGo = () => {
			this.memory.underWay--;
			this.inFlight--;
		};
		// Settled through the current client of this Redis (a client of the current credential,
		// when it was edited or its password rotated while n8n created the execution).
		const promote = async (): Promise<LeaseOutcome> => {
			const on = this.current();
			on.remember(key, token, now, ttl);
			if (on.replicas > 0) return await on.promoteReplicated(key, token, ttl, lost);
			const answer = await on.finish(key, token, ttl);
			if (answer === 'other') {
				return {
					state: 'running',
					note: `Redis held another attempt of this delivery when its run record arrived (this claim had ended${lost === undefined ? '' : `: ${lost}`}), so that attempt may run it too`,
				};
			}
			return { state: 'running' };
		};
		// Extensions go on the second connection first (it does not queue behind a late answer to
		// a claim), connected on first use. One that gets no answer within the timeout (a command
		// held on its connection, which everything later on it waits behind) is sent again at once
		// on the other connection, and later ones go there first: a single stalled command no
		// longer lets the c: end while n8n creates the execution (outside r14-companion, F6).
		// Which of the two connections, of the current client of this Redis: a client of the current
		// credential takes the extensions over when the credential is edited or its password
		// rotated (outside r16-companion F1: they stayed on the refused one and the c: ended).
		let extendOn: 'resolver' | 'client' = 'resolver';
		// Why the last extensions failed, when they did: Redis out of reach (no answer), or Redis
		// answering with a refusal (a full Redis under noeviction: OOM). Named in `lost`.
		let failing: string | undefined;
		type Failed = { ok: false; reason: string; refused?: boolean };
		type Extended = { ok: true; value: string } | Failed;
		const extendVia = async (on: RedisClaims, client: ClaimClient): Promise<Extended> => {
			const down = await on.reachable(client);
			if (down !== undefined) return { ok: false as const, reason: down };
			return await this.within(
				client.cpExtend(
					key,
					EXPIRY_KEY,
					EPOCH_KEY,
					token,
					'extend',
					this.bindMs(ttl),
					this.epoch ?? '',
				),
				this.timeoutMs,
				'lease',
			);
		};
		// Tried on each connection of each client of this Redis, in the order of candidates() read
		// again after every failure (a client made meanwhile, of an updated credential, is tried
		// in the same round), until one answers. The reason kept is the first client's (a refusal
		// over no answer).
		const extend = async (): Promise<void> => {
			let extended: Extended | undefined;
			let first: Failed | undefined;
			let firstOn: RedisClaims | undefined;
			const tried = new Set<ClaimClient>();
			while (state === 'held' && !this.closed) {
				const next = this.candidates()
					.flatMap((on) => on.connectionsToTry(extendOn).map((client) => ({ on, client })))
					.find(({ client }) => !tried.has(client));
				if (next === undefined) break;
				const { on, client } = next;
				tried.add(client);
				const attempt = await extendVia(on, client);
				if (attempt.ok) {
					extended = attempt;
					if (on === this) extendOn = client === this.client ? 'client' : 'resolver';
					break;
				}
				firstOn ??= on;
				if (on === firstOn && (first === undefined || (attempt.refused && !first.refused))) {
					first = attempt;
				}
			}
			extended ??= first ?? { ok: false as const, reason: 'no open client of this Redis' };
			if (state !== 'held') return;
			if (!extended.ok) {
				failing ??= extended.refused
					? `Redis refused to extend it (${extended.reason})`
					: `Redis did not answer its extensions (${extended.reason})`;
				return;
			}
			if (extended.value === 'mine' || extended.value === 'retaken') {
				// Taken back (its c: had ended, and nobody had claimed the key since): a copy from
				// now on is 503 again; a copy between its end and now could have claimed it.
				failing = undefined;
				lost = undefined;
				return;
			}
			// Said once, with the cause its failed extensions saw (later answers repeat it).
			if (lost !== undefined) return;
			const cause = failing ?? `its extensions did not reach Redis within ${this.bindMs(ttl)} ms`;
			lost =
				extended.value === 'gone'
					? `Redis lost its keys while this claim was held for n8n's answer (a restart without persistence, or a flush: a new epoch), so it could not be taken back`
					: `the claim held for n8n's answer ended before it was extended (${cause}), and another attempt of this delivery holds it now`;
		};
		const keep = async (): Promise<void> => {
			let next = monotonic() + this.timing.leaseRefreshMs;
			while (state === 'held' && !this.closed) {
				await sleep(Math.max(1, next - monotonic()));
				if (state !== 'held' || this.closed) return;
				if (monotonic() >= next) {
					next = monotonic() + this.timing.leaseRefreshMs;
					await extend();
				}
			}
		};
		keep().catch(() => undefined);
		const lease: ClaimLease = {
			get lost() {
				return lost;
			},
			settle: async (status: number): Promise<LeaseOutcome> => {
				if (state === 'done') return { state: 'settled' };
				state = 'done';
				unhold();
				letGo();
				if (status >= 200 && status < 300) return await promote();
				this.current().sendOne(key, token, 'release');
				return { state: 'released' };
			},
			commit: async (): Promise<ClaimVerdict> => {
				if (state !== 'held') return { verdict: 'claimed' };
				state = 'done';
				unhold();
				letGo();
				return await this.commit(key, token, ttl, now);
			},
		};
		return { verdict: 'claimed', lease };
	}
}
