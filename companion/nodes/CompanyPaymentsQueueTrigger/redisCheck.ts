import { connect as tlsConnect } from 'node:tls';
import type { RedisOptions } from 'ioredis';
import Redis from 'ioredis';
import { sleep } from 'n8n-workflow';

import { describeClaimError, probeClaims } from './redisProbe';

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
	// has `/`, `+`, `=`; outside read r8-companion, finding 1). Every `name=value` after it (a
	// connection string as Azure gives it, `host:6380,password=KEY,ssl=True`, or a URL's query)
	// has its value masked (outside read r13-companion, finding 1).
	return host
		.replace(/^((?:[a-z][a-z0-9+.-]*:\/\/)?)[\s\S]*@/i, '$1***@')
		.replace(/=[^,;&\s]*/g, '=***');
}

/**
 * The shortest part of a password masked wherever it shows: Redis echoes a command's arguments
 * cut short (its `unknown command 'auth', with args beginning with: '<user>' '<password…>'`,
 * 128 bytes for all of them), so a password's prefix, not only the whole, can reach a message.
 */
export const PASSWORD_PART = 6;

/**
 * The text with the credential's password masked wherever it appears, and with any part of it of
 * PASSWORD_PART characters or more (a prefix Redis cut, say). For text that came from outside
 * the package only (outsideText): applied to the package's own words it would mask them where
 * they share a part with the password, breaking a fix line and telling a reader which part of a
 * known text the password holds (outside read r20-companion, F1c).
 */
export function withoutPassword(text: string, password: string | undefined): string {
	if (password === undefined || password === '') return text;
	if (password.length < PASSWORD_PART) {
		const escaped = password.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
		// A short password is masked only as a whole token: as a substring it would mangle words.
		const pattern =
			password.length >= 4
				? new RegExp(escaped, 'g')
				: new RegExp(`(?<![A-Za-z0-9])${escaped}(?![A-Za-z0-9])`, 'g');
		return text.replace(pattern, '***');
	}
	let out = '';
	let i = 0;
	while (i < text.length) {
		let length = 0;
		if (i + PASSWORD_PART <= text.length && password.includes(text.slice(i, i + PASSWORD_PART))) {
			length = PASSWORD_PART;
			while (i + length < text.length && password.includes(text.slice(i, i + length + 1))) {
				length++;
			}
		}
		if (length > 0) {
			out += '***';
			i += length;
		} else {
			out += text[i];
			i++;
		}
	}
	return out;
}

/**
 * Redis' echo of a command's arguments after `unknown command 'x'` (Redis 7: `, with args
 * beginning with: 'a' 'b' `; Redis 6: `` , with args beginning with: `a`, `b`, ``), at most 128
 * bytes of them with their quotes: the arguments of AUTH are the credential's user and password.
 */
const ARGUMENT_ECHO = /, with args beginning with: (?:[^]{0,129}(?:' |`, ))?/g;

/**
 * The text without Redis' echo of a command's arguments, the command's name kept ("ERR unknown
 * command 'auth'"): no message of the companion repeats what it sent Redis (outside read
 * r19-companion, finding 1: a long password's first 128 bytes showed).
 */
export function withoutArgumentEcho(text: string): string {
	return text.replace(ARGUMENT_ECHO, '');
}

/**
 * Text from outside the package (Redis' error text, the Host, the User, a certificate's names, an
 * error of n8n) as it may be put into the package's own words: Redis' argument echo dropped and
 * every part of the password of PASSWORD_PART characters or more masked. Every such text passes
 * this before it is put into a sentence; the package's own words (its constants) never do.
 */
export function outsideText(text: string, password: string | undefined): string {
	return withoutPassword(withoutArgumentEcho(text), password);
}

const maskedErrors = new WeakSet<Error>();

/**
 * An error from outside (Redis, ioredis, the network) with its message passed through outsideText
 * in place, once: every sentence later built from it shows the masked text.
 */
export function maskedError<E>(error: E, password: string | undefined): E {
	if (!(error instanceof Error) || maskedErrors.has(error)) return error;
	maskedErrors.add(error);
	try {
		error.message = outsideText(error.message, password);
	} catch {
		// A message that cannot be written: it is still masked by the last guard where whole.
	}
	return error;
}

/**
 * The last guard on every text the companion emits (activation's message and description, the
 * credential's Test, a 503 reason, every log line): the whole password masked wherever it still
 * shows, and Redis' argument echo dropped. Parts of the password are masked where outside text
 * enters (outsideText), never here: the package's own words stay whole.
 */
export function shownText(text: string, password: string | undefined): string {
	const echoless = onceHostNote(withoutArgumentEcho(text));
	if (password === undefined || password === '') return echoless;
	if (password.length < 4) return withoutPassword(echoless, password);
	return echoless.split(password).join('***');
}

/** Says why the Host is shown masked, where it is. */
export const HOST_MASKED_NOTE = ` (the Host is shown masked: it shares ${PASSWORD_PART} or more characters in a row with the Password)`;

/** The text with HOST_MASKED_NOTE said once, where it first shows (a sentence may name the Host twice). */
function onceHostNote(text: string): string {
	const first = text.indexOf(HOST_MASKED_NOTE);
	if (first < 0) return text;
	const end = first + HOST_MASKED_NOTE.length;
	return text.slice(0, end) + text.slice(end).split(HOST_MASKED_NOTE).join('');
}

/**
 * The credential's Host as the companion shows it: user information masked (maskHost), and every
 * part it shares with the password; `note` says why when a part was masked (outside read
 * r20-companion, F1a, F1b), else it is ''.
 */
export function shownHost(
	host: string,
	password: string | undefined,
): { host: string; note: string } {
	const plain = maskHost(host);
	const shown = withoutPassword(plain, password);
	return { host: shown, note: shown === plain ? '' : HOST_MASKED_NOTE };
}

function where(options: RedisOptions): string {
	const { host, note } = shownHost(options.host ?? 'localhost', options.password);
	return `${host}:${options.port ?? 6379}${note}`;
}

function infoField(info: string, name: string): string | undefined {
	const match = new RegExp(`^${name}:(.*)$`, 'm').exec(info);
	return match ? match[1].trim() : undefined;
}

/** Whether Redis itself answered with an error (not a lost or closed connection). */
export function isReplyError(error: unknown): boolean {
	return (error as Error | undefined)?.name === 'ReplyError';
}

/** A lost connection (no answer of Redis) met by a check, as the error its caller names. */
function connectionLost(error: unknown): Error {
	return error instanceof Error ? error : new Error(String(error));
}

/** What each command the claims send is for (named when it is renamed away). */
const NEEDED_FOR: Record<string, string> = {
	INFO: 'persistence, memory, stats: its eviction policy, persistence, restarts and evictions',
	SELECT: "the credential's Database Number, selected on every connection",
	EVAL: 'every claim is a Lua script',
	EVALSHA: 'every claim is a Lua script, sent by its SHA1 after the first time',
	TIME: "the claim scripts read Redis' clock",
	WAIT: 'a claim with replicas attached waits until they have it',
	PING: 'the connection check',
	AUTH: "the credential's User and Password, sent on every connection",
};

/**
 * The command Redis does not know (`rename-command X ""` in its configuration), from its error:
 * `unknown command 'eval'`, or inside a script `Unknown Redis command called from script` (then
 * the script's line names it), or undefined.
 */
export function renamedCommand(
	error: Error,
	inScript?: (sha: string, line: number) => string | undefined,
): string | undefined {
	const text = error.message;
	const direct = /unknown command [`'"]?([a-z]+)/i.exec(text);
	if (direct && !/called from script/i.test(text)) return direct[1].toUpperCase();
	const scripted =
		/Unknown Redis command called from script[^]*?script: ([0-9a-f]{40}), on @user_script:(\d+)/i.exec(
			text,
		);
	if (scripted)
		return inScript?.(scripted[1], Number(scripted[2])) ?? 'a command inside the claim scripts';
	return undefined;
}

/** The sentence for a command renamed away in Redis' configuration: no ACL rule gives it back. */
export function renamedAway(command: string, error: Error): string {
	const known = /^[A-Z]+$/.test(command) ? command : undefined;
	const why = known ? NEEDED_FOR[known] : undefined;
	return `${command} is disabled in this Redis (rename-command; ${withoutArgumentEcho(error.message)}): the claim needs ${command}${why ? ` (${why})` : ''}; enable it (remove rename-command ${known ?? '<command>'} from redis.conf and restart Redis)`;
}

/** Redis is loading its data set into memory (after a restart, a large append-only file). */
export function loadingText(detail: string): string {
	return `Redis is loading its data into memory (LOADING${detail ? `: ${detail}` : ''}) and answers no claim until it has loaded: activate again in a moment (deliveries meanwhile are answered 503, nothing started, and the service sends them again)`;
}

/** Redis refuses writes because its last snapshot failed (MISCONF). */
export function misconfText(text: string): string {
	return `Redis refuses every write because it cannot persist to disk (${text}): fix what its log names (the disk, or the permissions of its dir), or set stop-writes-on-bgsave-error no`;
}

/**
 * Redis' own words that it is a Redis Cluster node: keys of one script in several hash slots
 * (CROSSSLOT), slots not served (CLUSTERDOWN), a key served elsewhere (MOVED, ASK), or SELECT of a
 * database other than 0.
 */
export const CLUSTER_ERROR =
	/^(CROSSSLOT|CLUSTERDOWN|MOVED|ASK|TRYAGAIN)\b|SELECT is not allowed in cluster mode/;

/** Redis runs in Cluster mode (cluster_enabled:1, or an error only a Cluster gives). */
export function clusterText(detail: string): string {
	return `this Redis is a Redis Cluster node (${detail}), and Redis Cluster is not supported: every claim script reads and writes several keys at once (the delivery's own and those all deliveries share), which a Cluster refuses across its hash slots. Point the Redis credential at a standalone Redis (a primary, with replicas or Sentinel if you like), not at a Cluster endpoint`;
}

/**
 * Redis is full: maxmemory reached under noeviction, every write refused (OOM). Redis' text is
 * kept without the script's SHA1 and line it appends inside a script.
 */
export function oomText(text: string): string {
	const said = text
		.replace(/\.?\s*script: [0-9a-f]{40}[^]*$/, '')
		.trim()
		.replace(/\.$/, '');
	return `Redis is full: its used memory reached its maxmemory, and under maxmemory-policy noeviction it refuses every write (${said}), so no claim can be written. Raise maxmemory (CONFIG SET maxmemory and in redis.conf; on managed Redis, a larger node) or free memory (delete the keys this Redis does not need). While it is full, deliveries are answered 503, nothing is started, and the service sends them again`;
}

/**
 * ioredis' own words for a command that lost its connection (a connection cut, Redis restarted,
 * a proxy's idle cut): never shown alone.
 */
export const CONNECTION_LOST =
	/Stream isn't writeable|Connection is closed|max retries per request/;

/** A command whose connection was lost before Redis answered it, in the package's words. */
export function lostConnectionText(said: string): string {
	return `the connection to Redis was lost before Redis answered (${said}): a connection cut (Redis restarted, CLIENT KILL, a proxy or load balancer closing idle connections); the companion connects again by itself`;
}

/** SSL is on and Redis answers only without TLS at that port. */
export function noTlsText(at: string, detail: string): string {
	return `Redis at ${at} does not speak TLS: it answers without TLS, and gave no answer to the TLS handshake (${detail}). Turn off SSL in the Redis credential, or enable TLS in Redis (its tls-port)`;
}

/** The sentence for an error Redis answered to one of the checks' commands. */
function answeredError(command: string, error: Error): string {
	const renamed = renamedCommand(error);
	if (renamed) return renamedAway(renamed, error);
	if (/^LOADING/.test(error.message)) return loadingText(error.message);
	if (/^MISCONF/.test(error.message)) return misconfText(error.message);
	if (/^OOM/.test(error.message)) return oomText(error.message);
	if (CLUSTER_ERROR.test(error.message)) return clusterText(error.message);
	return `Redis answered ${command} with an error (${error.message})`;
}

/**
 * Reads the facts on a connected client, or returns a sentence that names the problem and its fix
 * (database, scripting, INFO). A lost connection (not an answer of Redis) is thrown: the caller
 * names it by the connection's own error (a refused password, say).
 */
export async function readFacts(client: Redis, db: number): Promise<RedisFacts | string> {
	// Redis' words are outside text: the password's parts are masked before they go in a sentence.
	const password = client.options.password;
	try {
		await client.select(db);
	} catch (error) {
		maskedError(error, password);
		const text = (error as Error).message;
		if (!isReplyError(error)) throw connectionLost(error);
		if (/NOPERM/.test(text)) {
			return `the credential's user may not run SELECT (${text}): the claims select the credential's Database Number on every connection; allow SELECT (ACL +select) for that user`;
		}
		if (CLUSTER_ERROR.test(text)) return clusterText(text);
		if (/DB index is out of range|invalid DB index/i.test(text)) {
			return `database ${db} does not exist in this Redis (${text}): set the Redis credential's Database Number to one this Redis has (0 to 15 unless its "databases" setting says more)`;
		}
		return answeredError(`SELECT ${db}`, error as Error);
	}
	try {
		await client.eval('return 1', 0);
	} catch (error) {
		maskedError(error, password);
		if (!isReplyError(error)) throw connectionLost(error);
		if (/NOPERM/.test((error as Error).message)) {
			return `this Redis does not let the credential's user run scripts (${(error as Error).message}): the claim is a Lua script; allow EVAL and EVALSHA (ACL +@scripting) for that user`;
		}
		return answeredError('EVAL', error as Error);
	}
	let info: string;
	try {
		info = await client.info();
	} catch (error) {
		maskedError(error, password);
		if (!isReplyError(error)) throw connectionLost(error);
		if (INFO_DISABLED.test((error as Error).message)) return infoDisabled(error as Error);
		if (/NOPERM/.test((error as Error).message)) {
			return `this Redis does not let the credential's user read INFO (${(error as Error).message}): the claim reads its eviction policy, persistence and restarts there; allow INFO (ACL +info) for that user`;
		}
		return answeredError('INFO', error as Error);
	}
	// A Cluster node answers SELECT 0, scripting and INFO, and refuses the first claim script.
	if (infoField(info, 'cluster_enabled') === '1') return clusterText('INFO: cluster_enabled:1');
	return {
		runId: infoField(info, 'run_id') ?? '',
		version: infoField(info, 'redis_version') ?? '?',
		maxmemory: Number(infoField(info, 'maxmemory') ?? 0),
		policy: infoField(info, 'maxmemory_policy') ?? 'noeviction',
		aof: infoField(info, 'aof_enabled') === '1',
	};
}

/**
 * While the connection waits for Redis to become ready (ioredis' ready check waits while Redis
 * loads): whether Redis is loading, read with INFO (which Redis answers while loading), as the
 * loading sentence, or undefined.
 */
export async function loadingState(client: Redis, timeoutMs: number): Promise<string | undefined> {
	if (client.status !== 'connect') return undefined;
	const info = client.info('persistence');
	info.catch(() => undefined);
	let read: string | undefined;
	let settled = false;
	info.then(
		(text) => {
			read = text;
			settled = true;
		},
		() => (settled = true),
	);
	const deadline = performance.now() + timeoutMs;
	while (!settled && performance.now() < deadline) await sleep(20);
	if (read === undefined || infoField(read, 'loading') !== '1') return undefined;
	const percent = infoField(read, 'loading_loaded_perc');
	const eta = infoField(read, 'loading_eta_seconds');
	return loadingText(
		[percent ? `${percent}% loaded` : '', eta ? `about ${eta} s left` : '']
			.filter(Boolean)
			.join(', '),
	);
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

/** Redis' answer when INFO was renamed away (rename-command INFO ""), or the ready check's on it. */
const INFO_DISABLED = /unknown command [`'"]?info\b/i;

function infoDisabled(error: Error): string {
	return renamedAway('INFO', error);
}

/** Redis demands a client certificate (tls-auth-clients yes), which n8n's credential cannot give. */
function isClientCertificateDemand(error: Error): boolean {
	const code = (error as NodeJS.ErrnoException).code ?? '';
	return (
		/CERTIFICATE_REQUIRED|PEER_DID_NOT_RETURN_A_CERTIFICATE/.test(code) ||
		/alert certificate required|peer did not return a certificate/i.test(error.message)
	);
}

/** The names a certificate is issued for (its subjectAltName, else its CN), or undefined. */
function certificateNames(error: Error): string | undefined {
	const cert = (error as { cert?: { subjectaltname?: string; subject?: { CN?: unknown } } }).cert;
	const names = cert?.subjectaltname
		?.split(',')
		.map((name) => name.trim().replace(/^(DNS|IP Address):/, ''))
		.filter(Boolean);
	if (names && names.length > 0) return names.join(', ');
	return typeof cert?.subject?.CN === 'string' ? cert.subject.CN : undefined;
}

/** A clear sentence for a connection error, or undefined when there is nothing to add. */
/**
 * A Redis that accepted the TCP connection and answered nothing within `ms` (stopped, hung, or
 * busy with a long command): said in words, with its likely causes and what to check (outside
 * r18 F3), never the Redis client's "Command timed out" alone.
 */
export function frozenText(options: RedisOptions, ms: number): string {
	return `Redis at ${where(options)} accepted the connection but did not answer within ${ms} ms: it may be busy (a slow command such as KEYS or a large DEL, a save or rewrite on a slow disk), paused or hung (a stopped process, CLIENT PAUSE, a proxy whose Redis behind it does not answer). Check that Redis runs and answers (redis-cli -h <host> -p <port> PING), its latency (redis-cli --latency) and SLOWLOG GET`;
}

export function describeRedisError(error: Error, options: RedisOptions): string | undefined {
	const text = maskedError(error, options.password).message;
	const code = (error as NodeJS.ErrnoException).code ?? '';
	const at = where(options);
	// ioredis' ready check sends INFO: with INFO renamed away the connection never becomes ready.
	if (INFO_DISABLED.test(text)) return infoDisabled(error);
	if (/WRONGPASS|invalid username-password|invalid password/i.test(text)) {
		const user = options.username
			? `the credential's User is "${outsideText(options.username, options.password)}"`
			: 'no User: the default user';
		return `Redis at ${at} refused the credential's user or password (${text}; ${user}): correct the Password (and User) of the Redis credential`;
	}
	// A command of the connection itself renamed away (AUTH, say): named as activation names it.
	const renamed = renamedCommand(error);
	if (renamed) return `Redis at ${at}: ${renamedAway(renamed, error)}`;
	if (/NOAUTH/.test(text)) {
		return `Redis at ${at} requires a password and the credential gives none (${text}): set the Password of the Redis credential`;
	}
	if (/max number of clients reached/i.test(text)) {
		return `Redis at ${at} refuses new connections: it has as many clients as its maxclients allows (${text}). Raise maxclients (CONFIG SET maxclients and in redis.conf; on managed Redis, a larger node), or close the clients it does not need`;
	}
	// Redis at maxclients sends its ERR and closes at once; with a password, the AUTH written
	// meanwhile fails first (EPIPE), before the ERR is read (outside r18 F2). ECONNRESET is not
	// read so: a TLS Redis resets a plain connection too.
	if (code === 'EPIPE') {
		return `Redis at ${at} closed the connection as soon as it was made (${code}: ${text}): most likely it has as many clients as its maxclients allows (it then says "ERR max number of clients reached" and closes). Check INFO clients (connected_clients against maxclients); raise maxclients (CONFIG SET maxclients and in redis.conf; on managed Redis, a larger node) or close the clients it does not need. A proxy or firewall that drops the connection does the same`;
	}
	if (/^LOADING/.test(text)) return loadingText(text);
	if (/^MISCONF/.test(text)) return misconfText(text);
	if (/^OOM/.test(text)) return oomText(text);
	if (CLUSTER_ERROR.test(text)) return clusterText(text);
	if (code === 'ECONNREFUSED') {
		return `nothing accepts connections at ${at} (ECONNREFUSED): check the Host and Port of the Redis credential, and that Redis runs`;
	}
	if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
		const { host, note } = shownHost(options.host ?? '', options.password);
		return `the host of the Redis credential is not found (${code} ${host})${note}: correct its Host`;
	}
	if (isClientCertificateDemand(error)) {
		return `Redis at ${at} demands a client certificate (tls-auth-clients yes, its default with TLS; ${code || text}), and n8n's Redis credential has no client certificate to give: set tls-auth-clients no (or optional) in Redis. Trusting Redis' own certificate does not change this`;
	}
	if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
		const named = certificateNames(error);
		const names = named === undefined ? undefined : outsideText(named, options.password);
		const host = shownHost(options.host ?? 'localhost', options.password).host;
		return `the TLS certificate of Redis at ${at} does not match the credential's Host ${host} (${code}: ${text.trim()})${names ? `: it is issued for ${names}` : ''}. Set the Redis credential's Host to a host name in the certificate${names ? ` (${names})` : ''} that leads to this Redis, or give Redis a certificate that names ${host}`;
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

export function isAuthRefusal(error: Error | undefined): boolean {
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

/**
 * SSL is on and the connection never became ready: when a plain-TCP Redis answers at that host
 * and port, the sentence that says so (as activation says it), else undefined. For a webhook
 * process whose connection fails without an error Redis or TLS named (outside r17-companion F3).
 */
export async function tlsMismatch(
	options: RedisOptions,
	detail: string,
	timeoutMs: number,
): Promise<string | undefined> {
	if (!options.tls) return undefined;
	if (!(await answersWithoutTls(options, timeoutMs))) return undefined;
	return noTlsText(where(options), outsideText(detail, options.password));
}

/** A certificate of Redis refused (not Redis demanding one of n8n: that has its own sentence). */
export function isCertificateError(error: Error): boolean {
	const code = (error as NodeJS.ErrnoException).code ?? '';
	if (isClientCertificateDemand(error)) return false;
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
 * message says what was found, or names the problem and its fix; it never shows the credential's
 * password. The wait is bounded: twice the timeout for the connection to become ready (Redis
 * loading a large data set is refused, naming LOADING, rather than waited for).
 */
export async function checkRedis(
	options: RedisOptions,
	requirements: Requirements = {},
	timeoutMs = 2_000,
): Promise<CheckResult> {
	const result = await checkRedisOnce(options, requirements, timeoutMs);
	return { ...result, message: shownText(result.message, options.password) };
}

/** Waits for the promise until ms have passed: 'ok', its error, or 'timeout'. */
async function settled(promise: Promise<unknown>, ms: number): Promise<'ok' | 'timeout' | Error> {
	let outcome: 'ok' | Error | undefined;
	promise.then(
		() => (outcome = 'ok'),
		(error: unknown) => (outcome = error instanceof Error ? error : new Error(String(error))),
	);
	const deadline = performance.now() + ms;
	while (outcome === undefined && performance.now() < deadline) await sleep(20);
	return outcome ?? 'timeout';
}

async function checkRedisOnce(
	options: RedisOptions,
	requirements: Requirements,
	timeoutMs: number,
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
		lastError = keepFirstAuthError(lastError, maskedError(error, options.password));
	});
	/** A lost connection named by its own error (a refused password, say), else as it came. */
	const lost = (error: Error): string =>
		(lastError ? describeRedisError(lastError, options) : undefined) ??
		`Redis at ${where(options)} stopped answering (${maskedError(error, options.password).message})`;
	try {
		try {
			const connecting = settled(client.connect(), 2 * timeoutMs);
			const connected = await connecting;
			if (connected === 'timeout') {
				const loading = await loadingState(client, timeoutMs);
				const state = `${client.status}${lastError ? `; ${lastError.message}` : ''}`;
				const said = lastError ? describeRedisError(lastError, options) : undefined;
				return {
					ok: false,
					message: loading
						? `Redis at ${where(options)}: ${loading}`
						: (said ??
							(client.status === 'connect' || /Command timed out/.test(lastError?.message ?? '')
								? frozenText(options, 2 * timeoutMs)
								: `Redis at ${where(options)} did not answer within ${2 * timeoutMs} ms (${state})`)),
				};
			}
			if (connected !== 'ok') throw connected;
			await client.ping();
		} catch (error) {
			const cause = maskedError(lastError ?? (error as Error), options.password);
			let message = describeRedisError(cause, options);
			// An answer of Redis to the check's own PING (NOPERM: the README's ACL line has +ping).
			if (message === undefined && isReplyError(cause)) {
				const said = describeClaimError(cause);
				message = said
					? `Redis at ${where(options)}: ${said}`
					: `Redis at ${where(options)}: ${answeredError('PING', cause)}`;
			}
			if (message === undefined && options.tls && (await answersWithoutTls(options, timeoutMs))) {
				message = noTlsText(where(options), cause.message);
			}
			// The ready check or the PING sent and unanswered: Redis accepted the connection, no more.
			if (message === undefined && /Command timed out/.test(cause.message)) {
				message = frozenText(options, timeoutMs);
			}
			message ??= `Redis at ${where(options)} did not answer (${cause.message})`;
			if (isCertificateError(cause)) {
				const cert = await presentedCertificate(options);
				if (cert)
					message += `. The certificate it presents: ${outsideText(cert, options.password)}`;
			}
			return { ok: false, message };
		}
		let facts: RedisFacts | string;
		try {
			facts = await readFacts(client, options.db ?? 0);
		} catch (error) {
			return { ok: false, message: lost(error as Error) };
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
			return { ok: false, message: lost(error as Error) };
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
