import { randomBytes } from 'node:crypto';
import type Redis from 'ioredis';

import { storedId } from '../../../nodes/CompanyPaymentsTrigger/deliveries';

import {
	CLUSTER_ERROR,
	CONNECTION_LOST,
	clusterText,
	loadingText,
	lostConnectionText,
	maskedError,
	misconfText,
	oomText,
	renamedAway,
	renamedCommand,
} from './redisCheck';

import {
	type ClaimClient,
	commandInScript,
	defineCommands,
	EPOCH_KEYS,
	EXPIRY_KEY,
	KEY_PREFIX,
} from './redisClaims';

/**
 * What the claims need of the credential's user, as one `ACL SETUSER` rule list: the keys of this
 * package, and every command the claims send (PING and INFO from the checks, SELECT for the
 * Database Number, EVAL and EVALSHA for the scripts, and the commands the scripts run). The
 * README gives exactly this line, and test/queue/claim-config.test.mjs creates a user with it.
 */
export const CLAIM_ACL_RULES =
	'~n8n-nodes-company-payments:* +ping +info +select +eval +evalsha +time +get +set +del +pttl +hget +hset +hsetnx +hmget +hgetall +hdel +sadd +sismember +zadd +zrem +zscore +zrangebyscore +wait';

/** The keys of this package, as the ACL key pattern names them. */
const KEY_PATTERN = 'n8n-nodes-company-payments:*';
/**
 * Named after the pattern, not before it: n8n's log masking (the core's gate) reads a word like
 * "keys" followed by a value with a digit (n8n) as a secret and hides it (outside read
 * r13-companion, finding 11); the mask stays as it is.
 */
const KEYS_NAMED = "(this package's keys)";

function aclAdvice(): string {
	return `give the credential's user what the claims need: ACL SETUSER <user> on ><password> ${CLAIM_ACL_RULES}`;
}

/** A sentence for an error of a claim command or script (ACL, replica), or undefined. */
export function describeClaimError(error: Error): string | undefined {
	const text = error.message;
	if (/^READONLY/.test(text) || /READONLY You can't write/.test(text)) {
		return `this Redis is a read-only replica (${text}): point the Redis credential at the primary`;
	}
	// A command renamed away in redis.conf (rename-command EVALSHA ""): no ACL rule gives it back.
	const renamed = renamedCommand(error, commandInScript);
	if (renamed) return renamedAway(renamed, error);
	if (/^LOADING/.test(text)) return loadingText(text);
	if (/^MISCONF/.test(text)) return misconfText(text);
	if (/^OOM/.test(text)) return oomText(text);
	if (CLUSTER_ERROR.test(text)) return clusterText(text);
	if (CONNECTION_LOST.test(text)) return lostConnectionText(text);
	if (/NOPERM/.test(text) && /access a key|keys/i.test(text)) {
		return `the credential's user may not use ${KEY_PATTERN} ${KEYS_NAMED} (${text}): ${aclAdvice()}`;
	}
	// Redis 7.0 refuses a command inside a script without NOPERM and without naming it; it names
	// the script (its SHA1) and the line, which name the command in this package's scripts.
	const inScript =
		/user executing the script can't (run this command|access)[^]*?script: ([0-9a-f]{40}), on @user_script:(\d+)/.exec(
			text,
		);
	if (inScript) {
		if (inScript[1] !== 'access') {
			const command = commandInScript(inScript[2], Number(inScript[3]));
			const what = command
				? `the command ${command} (inside the claim scripts)`
				: 'a command inside the claim scripts';
			return `the credential's user may not run ${what} (${text}): ${aclAdvice()}`;
		}
		return `the credential's user may not use ${KEY_PATTERN} ${KEYS_NAMED} (${text}): ${aclAdvice()}`;
	}
	if (/NOPERM/.test(text)) {
		const command = /'([^']+)' command/.exec(text)?.[1];
		const what = command ? `the command ${command.toUpperCase()}` : 'a command the claims send';
		return `the credential's user may not run ${what} (${text}): ${aclAdvice()}`;
	}
	return undefined;
}

/**
 * The key of a probe delivery, of the form every delivery's key has (`claimKey` in redisStore:
 * `<prefix>:delivery:<instance>/<workflow>/<node>/<live|test>:<delivery ID>`), in a workflow no
 * trigger has: an ACL key pattern that lets the probe write it lets a delivery write its own.
 */
function probeDeliveryKey(id: string, mode: 'live' | 'test' = 'live'): string {
	return `${KEY_PREFIX}:${storedId(id, ['probe', `check-${id}`, 'probe', mode])}`;
}

/**
 * Whether the credential's user may read and write the keys every delivery shares (the epoch
 * hash, its back set, the members, the expected members, the expiry set), by commands that
 * change nothing: PTTL reads, HDEL or ZREM of a member no key has writes nothing. Redis checks
 * the ACL key pattern before the key's type (a WRONGTYPE answer means the key was allowed).
 * The probe's scripts run on keys of its own; these are the names a delivery's scripts use.
 */
async function probeSharedKeys(client: ClaimClient, member: string): Promise<void> {
	const allowed = (error: unknown) => {
		if (/^WRONGTYPE/.test((error as Error)?.message ?? '')) return 0;
		throw error;
	};
	for (const key of EPOCH_KEYS) {
		await client.pttl(key);
		await client.hdel(key, member).catch(allowed);
	}
	await client.pttl(EXPIRY_KEY);
	await client.zrem(EXPIRY_KEY, member).catch(allowed);
}

/**
 * Runs what a delivery runs on fresh probe keys under this package's prefix: every claim script
 * (by EVAL, and one again by EVALSHA), through every branch that writes, on a key named as a
 * delivery's key is, then deletes the probe keys; and reads and writes (changing nothing) the
 * keys every delivery shares. Returns why it failed, naming the permission, the key pattern or
 * the replica, or undefined when every command and key was allowed. `run` is the run ID the
 * claims would pass (empty when Redis persists).
 */
export async function probeClaims(redis: Redis, run: string): Promise<string | undefined> {
	const client: ClaimClient = defineCommands(redis);
	const id = randomBytes(6).toString('hex');
	const base = `${KEY_PREFIX}:check:${id}`;
	const key = probeDeliveryKey(id);
	const testKey = probeDeliveryKey(id, 'test');
	const epochKeys = [`${base}:epoch`, `${base}:back`, `${base}:members`, `${base}:expected`];
	const [, , members] = epochKeys;
	// The claims keep each value's end in a sorted set (no TTL on the keys): the probe has its own.
	const expiry = `${base}:expiry`;
	const token = randomBytes(6).toString('hex');
	const member = 'probe';
	let step = 'write a probe key';
	try {
		// A member whose time has passed: the scripts delete it (HDEL) while they read the members.
		await client.hset(members, 'gone', '1');
		step = 'begin an epoch (the sync script)';
		const [epoch] = await client.cpSync(
			epochKeys[0],
			...epochKeys,
			run,
			`probe:${token}`,
			'another-epoch',
			`${member}=${Date.now() + 60_000}`,
			member,
			'1',
		);
		step = 'claim (the claim script)';
		const [verdict] = await client.cpClaim(
			key,
			...epochKeys,
			expiry,
			token,
			60_000,
			run,
			'x',
			epoch,
			'',
			// The probe's epoch began as a restart (to run that branch): no window on its own keys.
			0,
			1,
		);
		if (verdict !== 'claimed') return `the claim script answered "${verdict}" on a fresh probe key`;
		step = 'confirm (the confirm script)';
		const confirmed = await client.cpConfirm(key, members, expiry, token, 60_000, member, 60_000);
		if (confirmed !== 1) return 'the confirm script did not confirm a fresh probe claim';
		step = 'read back (the resolve script)';
		await client.cpResolve(key, expiry, token, 'run');
		// ioredis sends a script by EVAL the first time on a connection, by EVALSHA after.
		step = 'read back again (EVALSHA)';
		await client.cpResolve(key, expiry, token, 'run');
		step = 'write back (the reseed script)';
		await client.cpReseed(key, expiry, `r:${token}`, 60_000);
		// A test-mode delivery's key ends in "test", not "live": a key pattern that covers only
		// live keys would pass and refuse every test delivery (outside r18 F5).
		step = 'write a test-mode delivery key (the reseed script)';
		await client.cpReseed(testKey, expiry, `r:${token}`, 60_000);
		// Every delivery at a Redis with replicas waits for them (WAIT); WAIT 0 returns at once.
		step = 'wait for replicas (WAIT)';
		await client.wait(0, 1);
		step = 'leave (HDEL)';
		await client.hdel(members, member);
		step = 'read and write the keys every delivery shares';
		await probeSharedKeys(client, `probe:${token}`);
		return undefined;
	} catch (error) {
		// Redis' words are outside text: the password's parts are masked before they go in a sentence.
		maskedError(error, redis.options.password);
		const why = describeClaimError(error as Error);
		return (
			why ?? `the claim scripts failed on a probe key at "${step}" (${(error as Error).message})`
		);
	} finally {
		await client.del(key, expiry, ...epochKeys).catch(() => undefined);
		await client.del(testKey).catch(() => undefined);
	}
}
