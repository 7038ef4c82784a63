import type {
	IHookFunctions,
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';
import type { RedisOptions } from 'ioredis';
import { createHash } from 'node:crypto';
import { isIP } from 'node:net';

import type {
	DeliveryStore,
	HeldDelivery,
	RecordOutcome,
} from '../../../nodes/CompanyPaymentsTrigger/deliveries';
import { storedId } from '../../../nodes/CompanyPaymentsTrigger/deliveries';
import { gateLogger } from '../../../nodes/shared/gate';
import {
	checkRedis,
	isCertificateError,
	outsideText,
	presentedCertificate,
	WITHOUT_PERSISTENCE_OPTION,
	shownHost,
	shownText,
} from './redisCheck';
import { closeAllClaims, KEY_PREFIX, monotonic, RedisClaims } from './redisClaims';
import type { ClaimLease } from './redisClaims';

/** n8n's own credential type of its Redis node (host, port, user, password, database, SSL). */
export const REDIS_CREDENTIAL = 'redis';

/**
 * A whole number from the credential (empty: the default), or undefined when it is not one. Text
 * must be written as digits: "1e1" or "0x2" is not read as 10 or 2 (outside read r13-companion,
 * finding 10).
 */
function wholeNumber(value: unknown, fallback: number): number | undefined {
	if (value === undefined || value === null || value === '') return fallback;
	if (typeof value === 'number') return Number.isInteger(value) ? value : undefined;
	const written = String(value).trim();
	return /^-?\d+$/.test(written) ? Number(written) : undefined;
}

/**
 * A plain host name or address: letters, digits, `.`, `-`, `_` (a name or IPv4), or a bare IPv6
 * address. Anything else (a URL, `user:password@host`, `host:port`, `[::1]`, a socket path, a
 * connection string with `,password=…`) is refused (outside read r13-companion, finding 1).
 */
function plainHost(host: string): boolean {
	if (/^[A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_.])?$/.test(host)) return true;
	return isIP(host.replace(/%[A-Za-z0-9_.-]+$/, '')) === 6;
}

/**
 * ioredis options from n8n's `redis` credential. Throws, naming the field and its value, for a
 * Database Number or Port that is not one (never database 0 or port 6379 in their place).
 */
export function redisOptions(data: ICredentialDataDecryptedObject): RedisOptions {
	const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
	const port = wholeNumber(data.port, 6379);
	if (port === undefined || port < 1 || port > 65535) {
		throw new Error(
			`the Redis credential's Port is ${String(data.port)}: it must be a whole number from 1 to 65535`,
		);
	}
	const host = text(data.host)?.trim();
	if (host !== undefined && host !== '' && !plainHost(host)) {
		const shown = shownHost(host, text(data.password));
		throw new Error(
			`the Redis credential's Host is "${shown.host}"${shown.note}: it takes a host name or address only (like redis.example.com or 10.0.0.5), not a URL, user:password@host, host:port or a connection string (host:port,password=…,ssl=True). Put the host in Host, the port in Port, the user in User, the password in Password, and turn on SSL for ssl=True`,
		);
	}
	const db = wholeNumber(data.database, 0);
	if (db === undefined || db < 0) {
		throw new Error(
			`the Redis credential's Database Number is ${String(data.database)}: it must be a whole number from 0, written in digits (0 to 15 unless the Redis's "databases" setting says more)`,
		);
	}
	return {
		host: host || 'localhost',
		port,
		db,
		username: text(data.user),
		password: text(data.password),
		...(data.ssl === true
			? { tls: { rejectUnauthorized: data.disableTlsVerification !== true } }
			: {}),
	};
}

/** One client (and its claims) per full set of connection options ("Disable TLS Verification" too). */
const claimsByOptions = new Map<string, RedisClaims>();
/** Which client each trigger (workflow, node, live or test) uses now. */
const clientOfTrigger = new Map<string, string>();
/** Names this process's memory of claims (redisClaims' memoryFor): one for all its clients. */
const PROCESS_SCOPE = 'process';
/** A client no trigger has used for this long is closed by the next claim of this process. */
export const IDLE_CLOSE_MS = 15 * 60_000;

/** The key of a set of options: a hash of all of them, so the password is not kept as a key. */
function optionsId(options: RedisOptions): string {
	return createHash('sha256').update(JSON.stringify(options)).digest('hex');
}

/** Why a client closes, as a delivery under way on it is told (outside read r13-companion, finding 9). */
const CLOSED_BY_EDIT =
	'the Redis credential was edited (its trigger moved to a client of the new settings)';
const CLOSED_BY_STOP = 'its trigger stopped (deactivated, or its test listening ended)';
const CLOSED_IDLE = `no trigger had used it for ${IDLE_CLOSE_MS / 60_000} minutes`;

function closeIfUnused(id: string, why: string): void {
	if ([...clientOfTrigger.values()].includes(id)) return;
	const claims = claimsByOptions.get(id);
	if (!claims) return;
	claimsByOptions.delete(id);
	// What it still owes Redis (a promotion, a release) is sent first, within its time, and the
	// claims under way on it (connecting too) are decided first.
	claims.closeWhenSettled(why).catch(() => undefined);
}

/** The claims of these options for this trigger; a trigger whose options changed leaves its old client. */
function claimsFor(options: RedisOptions, trigger: string): RedisClaims {
	const id = optionsId(options);
	const before = clientOfTrigger.get(trigger);
	clientOfTrigger.set(trigger, id);
	if (before !== undefined && before !== id) closeIfUnused(before, CLOSED_BY_EDIT);
	let claims = claimsByOptions.get(id);
	if (!claims) {
		// One memory of claims per Redis for the whole process: a client closed by a credential
		// edit or a deactivation leaves its claims to the next client of the same Redis.
		claims = new RedisClaims(options, {}, PROCESS_SCOPE);
		claimsByOptions.set(id, claims);
	}
	// Webhook processes of queue mode never hear of a deactivation: idle clients close here.
	const now = monotonic();
	for (const [other, entry] of claimsByOptions) {
		if (other !== id && now - entry.lastUsed > IDLE_CLOSE_MS) {
			for (const [t, used] of clientOfTrigger) if (used === other) clientOfTrigger.delete(t);
			closeIfUnused(other, CLOSED_IDLE);
		}
	}
	return claims;
}

/** How often a process that owes Redis a promotion or a release tries it again on its own. */
export const OWED_RETRY_MS = 1_000;
/** The triggers whose owed writes or held claims are watched (one watcher each). */
const watchingOwed = new Set<string>();
/**
 * The context of each trigger's latest webhook call: the watcher reads the credential through it,
 * so a node moved to another Redis credential meanwhile is read as it is now, not as the call that
 * started the watch had it.
 */
const latestCall = new Map<string, IWebhookFunctions>();

/**
 * While this trigger's client owes Redis a promotion, a release or a pending run record, or a
 * claim of this process in that Redis is held for n8n's answer, watches it every OWED_RETRY_MS
 * without waiting for another delivery: what is owed is tried again; when Redis refuses the
 * client's user or password (a rotated password), reads the Redis credential again and moves the
 * trigger to a client of the current one. The owed writes, the pending run records and the held
 * claims' extensions live in the process's memory of that Redis (its endpoint and database), so
 * that client sends them once it connects. While the credential still holds the refused password
 * nothing can be sent: see docs/queue-mode.md (outside r15-companion F3, r16-companion F1).
 *
 * The credential is read through the context of the trigger's latest webhook call, after that
 * call returned: n8n's getCredentials reads the credential from its database by the node's
 * credential ID at each call (n8n-core's _getCredentials, the CredentialsHelper's getDecrypted),
 * so it gives the current one (claims.test.mjs checks this on real n8n).
 */
function watchOwed(ctx: IWebhookFunctions, trigger: string): void {
	if (watchingOwed.has(trigger)) return;
	watchingOwed.add(trigger);
	const watch = async (): Promise<void> => {
		for (;;) {
			await sleep(OWED_RETRY_MS);
			const id = clientOfTrigger.get(trigger);
			const claims = id === undefined ? undefined : claimsByOptions.get(id);
			if (claims === undefined || !(claims.owes || claims.holding)) {
				// Unmarked in the same step that finds nothing owed: a watch asked for meanwhile
				// starts anew rather than finding this one still marked.
				watchingOwed.delete(trigger);
				return;
			}
			if (!claims.authRefused) {
				claims.retryOwed();
				continue;
			}
			let options: RedisOptions;
			try {
				const call = latestCall.get(trigger) ?? ctx;
				options = redisOptions(await call.getCredentials(REDIS_CREDENTIAL));
			} catch {
				continue;
			}
			if (optionsId(options) !== id) {
				const next = claimsFor(options, trigger);
				// Connected and checked now, not at the next delivery: a credential that spells
				// the same Redis another way (localhost for 127.0.0.1) joins the process's memory
				// of it only once Redis gave its run ID, and only then does it carry the held
				// claims and what is owed (outside r19-companion, the reader's idea).
				await next.unusable().catch(() => undefined);
				next.retryOwed();
			}
		}
	};
	watch().catch(() => watchingOwed.delete(trigger));
}

/** A trigger stopped (deactivated, or its test listening ended): its client closes when unused. */
export function triggerStopped(trigger: string): void {
	const id = clientOfTrigger.get(trigger);
	clientOfTrigger.delete(trigger);
	latestCall.delete(trigger);
	if (id !== undefined) closeIfUnused(id, CLOSED_BY_STOP);
}

/** How many clients this process holds open (tests). */
export function openRedisClaims(): number {
	return claimsByOptions.size;
}

/** Closes every client (tests, and a process that stops). */
export async function closeRedisClaims(): Promise<void> {
	const all = [...claimsByOptions.values()];
	claimsByOptions.clear();
	clientOfTrigger.clear();
	latestCall.clear();
	await Promise.all(
		all.map(async (claims) => await claims.close('this n8n process closed its Redis clients')),
	);
	// And the clients kept open for their process's claims after their trigger stopped.
	await closeAllClaims();
}

/** Names one trigger: its workflow, node and live or test. */
export function triggerName(workflowId: string, nodeId: string, live: boolean): string {
	return JSON.stringify([workflowId, nodeId, live]);
}

/** The Redis key of one delivery of one trigger in one n8n instance. */
export function claimKey(
	instanceId: string,
	workflowId: string,
	nodeId: string,
	live: boolean,
	deliveryId: string,
): string {
	// The core's one identity function, scoped to the instance, workflow, node and live or test:
	// one Redis serves every trigger of every workflow.
	const scope = [instanceId, workflowId, nodeId, live ? 'live' : 'test'];
	return `${KEY_PREFIX}:${storedId(deliveryId, scope)}`;
}

const said = new Set<string>();

/** The trigger option that accepts a Redis without an append-only file. */
export const WITHOUT_PERSISTENCE_PARAMETER = 'redisWithoutPersistence';

function allowsWithoutPersistence(ctx: IWebhookFunctions | IHookFunctions): boolean {
	try {
		return ctx.getNodeParameter(`options.${WITHOUT_PERSISTENCE_PARAMETER}`, false) === true;
	} catch {
		return false;
	}
}

function describeWhere(options: RedisOptions): string {
	const { host, note } = shownHost(options.host ?? 'localhost', options.password);
	return `${host}:${options.port} db ${options.db}${options.tls ? ' (TLS)' : ''}${note}`;
}

/** The companion's delivery store: one claim per delivery in the Redis of the `redis` credential. */
export const redisDeliveryStore: DeliveryStore = {
	holdsUntilAnswered: true,
	async record(ctx: IWebhookFunctions, { deliveryId, limits }): Promise<RecordOutcome> {
		let data: ICredentialDataDecryptedObject;
		try {
			data = await ctx.getCredentials(REDIS_CREDENTIAL);
		} catch (error) {
			return {
				verdict: 'unavailable',
				reason: `the Redis credential cannot be read (${(error as Error).message})`,
			};
		}
		let options: RedisOptions;
		try {
			options = redisOptions(data);
		} catch (error) {
			return {
				verdict: 'unavailable',
				reason: shownText(
					(error as Error).message,
					typeof data.password === 'string' ? data.password : undefined,
				),
			};
		}
		const where = describeWhere(options);
		if (!said.has(where)) {
			said.add(where);
			gateLogger(ctx).info(
				shownText(
					`Company Payments Trigger claims delivery IDs in Redis ${where}`,
					options.password,
				),
			);
		}
		const node = ctx.getNode();
		const workflowId = String(ctx.getWorkflow().id ?? '');
		const live = ctx.getMode() !== 'manual';
		const key = claimKey(
			String(ctx.getInstanceId?.() ?? ''),
			workflowId,
			node.id,
			live,
			deliveryId,
		);
		const trigger = triggerName(workflowId, node.id, live);
		latestCall.set(trigger, ctx);
		const claims = claimsFor(options, trigger);
		const claim = await claims.claim(key, limits.maxAgeMs, {
			allowWithoutPersistence: allowsWithoutPersistence(ctx),
			hold: true,
		});
		if (claims.owes || claims.holding) watchOwed(ctx, trigger);
		if (claim.verdict === 'claimed') {
			return claim.lease
				? {
						verdict: 'new',
						held: heldDelivery(ctx, deliveryId, claim.lease, options.password, () => {
							if (claims.owes) watchOwed(ctx, trigger);
						}),
					}
				: { verdict: 'new' };
		}
		if (claim.verdict === 'duplicate') return { verdict: 'duplicate' };
		const certificate = await refusedCertificate(claims);
		return {
			verdict: 'unavailable',
			reason: shownText(`Redis ${where}: ${claim.reason}${certificate}`, options.password),
		};
	},
};

/**
 * The claim held until n8n answers (redisClaims' lease): n8n's 2xx promotes it to running, any
 * other answer releases it; what became of it is logged when it is not the plain case.
 */
function heldDelivery(
	ctx: IWebhookFunctions,
	deliveryId: string,
	lease: ClaimLease,
	password: string | undefined,
	afterSettle: () => void,
): HeldDelivery {
	const log = gateLogger(ctx);
	// What it logs or gives as a 503 reason passes the same masking as every other message.
	const shown = (text: string): string => shownText(text, password);
	// The delivery ID came from outside: its parts shared with the password are masked.
	const delivery = outsideText(deliveryId, password);
	return {
		async answered(status: number): Promise<void> {
			const lost = lease.lost;
			await lease
				.settle(status)
				.then((outcome) => {
					if (outcome.state === 'released') {
						log.warn(
							shown(
								`Company Payments Trigger: delivery ${delivery} was answered ${status} by n8n (no execution); its claim in Redis is released, so the service's next attempt runs it`,
							),
						);
					} else if (
						outcome.state === 'running' &&
						(outcome.note !== undefined || lost !== undefined)
					) {
						log.warn(
							shown(
								`Company Payments Trigger: delivery ${delivery} runs here, but ${outcome.note ?? lost}`,
							),
						);
					}
				})
				.catch(() => undefined);
			afterSettle();
		},
		async decideNow(): Promise<RecordOutcome> {
			const decided = await lease.commit();
			afterSettle();
			if (decided.verdict === 'claimed') return { verdict: 'new' };
			if (decided.verdict === 'duplicate') return { verdict: 'duplicate' };
			return { verdict: 'unavailable', reason: shown(decided.reason) };
		},
	};
}

/** The certificate each client's Redis presented when it was refused (read once per client). */
const certificates = new WeakMap<RedisClaims, string>();

/** ". The certificate it presents: …" when the client's last error is a refused certificate. */
async function refusedCertificate(claims: RedisClaims): Promise<string> {
	if (!claims.lastError || !isCertificateError(claims.lastError)) return '';
	let seen = certificates.get(claims);
	if (seen === undefined) {
		const presented = await presentedCertificate(claims.options);
		seen = presented === undefined ? '' : outsideText(presented, claims.options.password);
		certificates.set(claims, seen);
	}
	return seen ? `. The certificate it presents: ${seen}` : '';
}

/**
 * Node error codes n8n's NodeOperationError looks for anywhere in a message (n8n-workflow 2.x,
 * COMMON_ERRORS), replacing the whole message by a generic text ("The service refused the
 * connection - perhaps it is offline"): the message says them in words, the description keeps them.
 */
const NODE_ERROR_CODES: Record<string, string> = {
	ECONNREFUSED: 'connection refused',
	ECONNRESET: 'connection reset',
	ENOTFOUND: 'host not found',
	ETIMEDOUT: 'timed out',
	ERRADDRINUSE: 'address in use',
	EADDRNOTAVAIL: 'address not available',
	ECONNABORTED: 'connection aborted',
	EHOSTUNREACH: 'host unreachable',
	EAI_AGAIN: 'name lookup failed for now',
	ENOENT: 'no such file',
	EISDIR: 'is a directory',
	ENOTDIR: 'not a directory',
	EACCES: 'access denied',
	EEXIST: 'already exists',
	EPERM: 'not permitted',
	GETADDRINFO: 'name lookup',
};

/** The text without the Node error codes n8n replaces messages for (in words instead). */
export function withoutNodeErrorCodes(text: string): string {
	let out = text;
	for (const [code, words] of Object.entries(NODE_ERROR_CODES)) {
		out = out.replace(new RegExp(code, 'gi'), words);
	}
	return out;
}

/**
 * Activation's refusal: its message and its description (the editor shows both) pass the last
 * guard, as every text the companion emits.
 */
function activationError(
	ctx: IHookFunctions,
	problem: string,
	where: string,
	password: string | undefined,
): NodeOperationError {
	const message = withoutNodeErrorCodes(problem);
	return new NodeOperationError(
		ctx.getNode(),
		shownText(`The Redis credential cannot hold the delivery claims: ${message}`, password),
		{ description: shownText(message === problem ? where : `${where}: ${problem}`, password) },
	);
}

/**
 * Activation (and the start of test listening): the Redis of the credential must hold claims.
 * Throws an error naming the problem and its fix, so the workflow is not activated.
 */
export async function checkRedisOnActivation(ctx: IHookFunctions): Promise<void> {
	let options: RedisOptions;
	let data: ICredentialDataDecryptedObject | undefined;
	try {
		data = (await ctx.getCredentials(REDIS_CREDENTIAL)) as ICredentialDataDecryptedObject;
		options = redisOptions(data);
	} catch (error) {
		const password = typeof data?.password === 'string' ? data.password : undefined;
		throw activationError(ctx, (error as Error).message, 'Redis credential', password);
	}
	const result = await checkRedis(options, {
		allowWithoutPersistence: allowsWithoutPersistence(ctx),
	});
	if (!result.ok) {
		throw activationError(ctx, result.message, `Redis ${describeWhere(options)}`, options.password);
	}
	registered(ctx, isLiveRegistration(ctx, false), true);
}

/**
 * The registrations (live, test) of each workflow's trigger node that this process activated and
 * has not seen end: how the end of one is told apart when n8n gives no other sign.
 */
const registrations = new Map<string, Set<boolean>>();

function registered(ctx: IHookFunctions, live: boolean, on: boolean): void {
	const key = JSON.stringify([String(ctx.getWorkflow().id ?? ''), ctx.getNode().id]);
	const known = registrations.get(key) ?? new Set<boolean>();
	if (on) known.add(live);
	else known.delete(live);
	if (known.size > 0) registrations.set(key, known);
	else registrations.delete(key);
}

/**
 * Whether the registration a hook runs for is the live one (not "Listen for test event"). n8n
 * (1.123 to 2.41) builds the hook context with the webhook's data, whose isTest is true for a test
 * registration (its getNodeWebhookUrl reads it too); it ends a test listening with mode 'internal',
 * not 'manual' (outside read r13-companion, finding 3). Without that data: mode 'manual' is a
 * test (activation gives it); at an end, else the one registration of this trigger this process
 * activated; else live.
 */
function isLiveRegistration(ctx: IHookFunctions, ending: boolean): boolean {
	const data = (ctx as unknown as { webhookData?: unknown }).webhookData;
	if (typeof data === 'object' && data !== null) {
		return (data as { isTest?: unknown }).isTest !== true;
	}
	if (ctx.getMode() === 'manual') return false;
	if (!ending) return true;
	const key = JSON.stringify([String(ctx.getWorkflow().id ?? ''), ctx.getNode().id]);
	const known = registrations.get(key);
	if (known?.size === 1) return [...known][0];
	return true;
}

/** Deactivation (and the end of test listening): this trigger's client closes when nothing else uses it. */
export function releaseOnDeactivation(ctx: IHookFunctions): void {
	const node = ctx.getNode();
	const live = isLiveRegistration(ctx, true);
	registered(ctx, live, false);
	triggerStopped(triggerName(String(ctx.getWorkflow().id ?? ''), node.id, live));
}

/** The credential test: connects with the credential's settings and checks what the claim needs. */
export async function companyPaymentsRedisTest(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	let options: RedisOptions;
	try {
		options = redisOptions(credential.data ?? {});
	} catch (error) {
		const password = credential.data?.password;
		return {
			status: 'Error',
			message: shownText(
				(error as Error).message,
				typeof password === 'string' ? password : undefined,
			),
		};
	}
	const result = await checkRedis(options, { allowWithoutPersistence: true });
	if (!result.ok) return { status: 'Error', message: result.message };
	const note = result.facts.aof
		? ''
		: `. Without appendonly the trigger refuses it unless its option "${WITHOUT_PERSISTENCE_OPTION}" is on`;
	return { status: 'OK', message: `${result.message}${note}` };
}
