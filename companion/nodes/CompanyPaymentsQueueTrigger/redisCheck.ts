import { connect as tlsConnect } from 'node:tls';
import type { RedisOptions } from 'ioredis';
import Redis from 'ioredis';

import { probeClaims } from './redisProbe';

/**
 * What the claim needs of its Redis, checked on activation, in the credential's Test and on every
 * new connection of a webhook process: the credential is accepted, the database exists, scripts
 * may run, claim keys cannot be evicted, and what Redis keeps across a restart. Every refusal
 * names the problem and the fix.
 */

export interface RedisFacts {
	/** Redis' run ID: a new one after every restart. */
	runId: string;
	version: string;
	maxmemory: number;
	policy: string;
	/** appendonly yes. */
	aof: boolean;
}

export interface Requirements {
	allowWithoutPersistence?: boolean;
}

/** The field of n8n's Redis credential (n8n 1.123 to 2.41) that turns certificate checks off. */
export const TLS_VERIFICATION_FIELD = 'Disable TLS Verification (insecure)';

/** The option of the trigger that accepts a Redis without persistence. */
export const WITHOUT_PERSISTENCE_OPTION = 'Accept Redis Without Persistence';

/**
 * A host string with any user information (`user:password@`, as in a pasted Redis URL) masked, so
 * that no message shows a password typed into the Host field.
 */
export function maskHost(host: string): string {
	// Everything up to the last `@` is user information, whatever it holds (a base64 password
	// has `/`, `+`, `=`; outside read r8-companion, finding 1).
	return host.replace(/^((?:[a-z][a-z0-9+.-]*:\/\/)?)[\s\S]*@/i, '$1***@');
}

function where(options: RedisOptions): string {
	return `${maskHost(options.host ?? 'localhost')}:${options.port ?? 6379}`;
}

function infoField(info: string, name: string): string | undefined {
	const match = new RegExp(`^${name}:(.*)$`, 'm').exec(info);
	return match ? match[1].trim() : undefined;
}

/**
 * Reads the facts on a connected client, or returns a sentence that names the problem and its fix
 * (database, scripting, INFO).
 */
export async function readFacts(client: Redis, db: number): Promise<RedisFacts | string> {
	try {
		await client.select(db);
	} catch (error) {
		if (/NOPERM/.test((error as Error).message)) {
			return `the credential's user may not run SELECT (${(error as Error).message}): the claims select the credential's Database Number on every connection; allow SELECT (ACL +select) for that user`;
		}
		return `database ${db} does not exist in this Redis (${(error as Error).message}): set the Redis credential's Database Number to one this Redis has (0 to 15 unless its "databases" setting says more)`;
	}
	try {
		await client.eval('return 1', 0);
	} catch (error) {
		return `this Redis does not let the credential's user run scripts (${(error as Error).message}): the claim is a Lua script; allow EVAL and EVALSHA (ACL +@scripting) for that user`;
	}
	let info: string;
	try {
		info = await client.info();
	} catch (error) {
		return `this Redis does not let the credential's user read INFO (${(error as Error).message}): the claim reads its eviction policy, persistence and restarts there; allow INFO (ACL +info) for that user`;
	}
	return {
		runId: infoField(info, 'run_id') ?? '',
		version: infoField(info, 'redis_version') ?? '?',
		maxmemory: Number(infoField(info, 'maxmemory') ?? 0),
		policy: infoField(info, 'maxmemory_policy') ?? 'noeviction',
		aof: infoField(info, 'aof_enabled') === '1',
	};
}

/** Why a Redis with these facts cannot hold the claims, or undefined when it can. */
export function refusal(facts: RedisFacts, requirements: Requirements = {}): string | undefined {
	if (facts.maxmemory > 0 && facts.policy !== 'noeviction') {
		return `this Redis evicts keys when it is full (maxmemory-policy ${facts.policy}, maxmemory ${facts.maxmemory} bytes): an evicted claim lets a copy of a delivery start again. Set maxmemory-policy to noeviction (CONFIG SET maxmemory-policy noeviction and in redis.conf; on managed Redis, in its parameter group), or use a Redis without maxmemory`;
	}
	if (!facts.aof && requirements.allowWithoutPersistence !== true) {
		return `this Redis keeps no append-only file (appendonly no): after a restart its claims are gone, and a copy of a delivery that ran before can start again. Set appendonly yes (CONFIG SET appendonly yes and in redis.conf), or turn on the trigger option "${WITHOUT_PERSISTENCE_OPTION}"`;
	}
	return undefined;
}

/** A clear sentence for a connection error, or undefined when there is nothing to add. */
export function describeRedisError(error: Error, options: RedisOptions): string | undefined {
	const text = error.message;
	const code = (error as NodeJS.ErrnoException).code ?? '';
	const at = where(options);
	if (/WRONGPASS|invalid username-password|invalid password/i.test(text)) {
		return `Redis at ${at} refused the credential's user or password (${text}): correct the Password (and User) of the Redis credential`;
	}
	if (/NOAUTH/.test(text)) {
		return `Redis at ${at} requires a password and the credential gives none (${text}): set the Password of the Redis credential`;
	}
	if (code === 'ECONNREFUSED') {
		return `nothing accepts connections at ${at} (ECONNREFUSED): check the Host and Port of the Redis credential, and that Redis runs`;
	}
	if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
		return `the host of the Redis credential is not found (${code} ${maskHost(options.host ?? '')}): correct its Host`;
	}
	if (isCertificateError(error)) {
		return `the TLS certificate of Redis at ${at} was refused (${code}: ${text}): give Redis a certificate this n8n trusts (NODE_EXTRA_CA_CERTS), or turn on "${TLS_VERIFICATION_FIELD}" in the Redis credential`;
	}
	if (
		options.tls &&
		/wrong version number|packet length too long|ECONNRESET/i.test(`${code} ${text}`)
	) {
		return `Redis at ${at} does not speak TLS (${code || text}): turn off SSL in the Redis credential, or enable TLS in Redis`;
	}
	if (!options.tls && /ECONNRESET|connection reset|socket hang up/i.test(`${code} ${text}`)) {
		return `Redis at ${at} closed the connection before answering (${code || text}): most likely it accepts only TLS there (a tls-port, or a managed Redis with encryption in transit); turn on SSL in the Redis credential, or check the Port`;
	}
	return undefined;
}

function isAuthRefusal(error: Error | undefined): boolean {
	return /WRONGPASS|invalid username-password|invalid password/i.test(error?.message ?? '');
}

/**
 * The error to keep of a connection attempt: after a refused password, ioredis' own SELECT (and
 * its ready check) fail with NOAUTH, which would say no password was given; the refusal is kept.
 */
export function keepFirstAuthError(kept: Error | undefined, next: Error): Error {
	if (isAuthRefusal(kept) && /NOAUTH/.test(next.message)) return kept as Error;
	// ioredis' own ready check on a connection already reset says only that it is gone (or that
	// it may not retry):
	// the reset (a plain client at a TLS port, say) is what the reason names.
	if (
		kept !== undefined &&
		/Stream isn't writeable|max retries per request|Connection is closed/.test(next.message)
	)
		return kept;
	return next;
}

/**
 * Whether a plain-TCP Redis answers at the credential's host and port (SSL is on, the TLS
 * handshake got no answer): PING without TLS gets a Redis reply, PONG or an error of Redis.
 */
async function answersWithoutTls(options: RedisOptions, timeoutMs: number): Promise<boolean> {
	const client = new Redis({
		host: options.host,
		port: options.port,
		lazyConnect: true,
		connectTimeout: timeoutMs,
		commandTimeout: timeoutMs,
		maxRetriesPerRequest: 0,
		enableOfflineQueue: false,
		enableReadyCheck: false,
		disableClientInfo: true,
		retryStrategy: () => null,
	});
	client.on('error', () => undefined);
	try {
		await client.connect();
		await client.ping();
		return true;
	} catch (error) {
		// NOAUTH and the like come from Redis itself: it speaks plain TCP.
		return (error as Error).name === 'ReplyError';
	} finally {
		client.disconnect();
	}
}

export function isCertificateError(error: Error): boolean {
	const code = (error as NodeJS.ErrnoException).code ?? '';
	return /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|ERR_TLS_CERT|HOSTNAME/.test(code);
}

/** Names the certificate Redis presents (subject, issuer, validity, fingerprint), read unchecked. */
export async function presentedCertificate(options: RedisOptions): Promise<string | undefined> {
	return await new Promise((resolve) => {
		const socket = tlsConnect({
			host: options.host ?? 'localhost',
			port: options.port ?? 6379,
			servername: options.host ?? 'localhost',
			rejectUnauthorized: false,
		});
		const done = (value: string | undefined) => {
			socket.destroy();
			resolve(value);
		};
		socket.setTimeout(2_000, () => done(undefined));
		socket.once('error', () => done(undefined));
		socket.once('secureConnect', () => {
			const cert = socket.getPeerCertificate();
			if (!cert || !cert.subject) return done(undefined);
			const name = (part: Record<string, unknown> | undefined) =>
				part
					? Object.entries(part)
							.map(([k, v]) => `${k}=${String(v)}`)
							.join(', ')
					: '?';
			done(
				`subject ${name(cert.subject as unknown as Record<string, unknown>)}; issuer ${name(
					cert.issuer as unknown as Record<string, unknown>,
				)}; valid ${cert.valid_from} to ${cert.valid_to}; SHA-256 ${cert.fingerprint256}`,
			);
		});
	});
}

export type CheckResult =
	| { ok: true; facts: RedisFacts; message: string }
	| { ok: false; message: string };

/**
 * Connects once with these options (no retries) and checks everything the claim needs. The
 * message says what was found, or names the problem and its fix.
 */
export async function checkRedis(
	options: RedisOptions,
	requirements: Requirements = {},
	timeoutMs = 2_000,
): Promise<CheckResult> {
	const client = new Redis({
		...options,
		lazyConnect: true,
		connectTimeout: timeoutMs,
		commandTimeout: timeoutMs,
		maxRetriesPerRequest: 0,
		enableOfflineQueue: false,
		disableClientInfo: true,
		retryStrategy: () => null,
	});
	let lastError: Error | undefined;
	client.on('error', (error: Error) => {
		lastError = keepFirstAuthError(lastError, error);
	});
	try {
		try {
			await client.connect();
			await client.ping();
		} catch (error) {
			const cause = lastError ?? (error as Error);
			let message = describeRedisError(cause, options);
			if (message === undefined && options.tls && (await answersWithoutTls(options, timeoutMs))) {
				message = `Redis at ${where(options)} does not speak TLS: it answers without TLS, and gave no answer to the TLS handshake (${cause.message}). Turn off SSL in the Redis credential, or enable TLS in Redis (its tls-port)`;
			}
			message ??= `Redis at ${where(options)} did not answer (${cause.message})`;
			if (isCertificateError(cause)) {
				const cert = await presentedCertificate(options);
				if (cert) message += `. The certificate it presents: ${cert}`;
			}
			return { ok: false, message };
		}
		let facts: RedisFacts | string;
		try {
			facts = await readFacts(client, options.db ?? 0);
		} catch (error) {
			facts = `Redis stopped answering (${(error as Error).message})`;
		}
		if (typeof facts === 'string')
			return { ok: false, message: `Redis at ${where(options)}: ${facts}` };
		const refused = refusal(facts, requirements);
		if (refused) return { ok: false, message: `Redis at ${where(options)}: ${refused}` };
		// What a delivery runs (every claim script, by EVALSHA, writing), on probe keys.
		let probed: string | undefined;
		try {
			probed = await probeClaims(client, facts.aof ? '' : facts.runId);
		} catch (error) {
			probed = `Redis stopped answering (${(error as Error).message})`;
		}
		if (probed) return { ok: false, message: `Redis at ${where(options)}: ${probed}` };
		return {
			ok: true,
			facts,
			message: `Redis ${facts.version} at ${where(options)} db ${options.db ?? 0}: the claim scripts ran on a probe key, maxmemory-policy ${facts.policy}${facts.maxmemory > 0 ? '' : ' (no maxmemory)'}, appendonly ${facts.aof ? 'yes' : 'no'}`,
		};
	} finally {
		client.disconnect();
	}
}
