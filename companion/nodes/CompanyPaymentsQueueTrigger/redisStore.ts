import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
	IWebhookFunctions,
} from 'n8n-workflow';
import type { RedisOptions } from 'ioredis';
import Redis from 'ioredis';

import type { DeliveryStore, RecordOutcome } from '../../../nodes/CompanyPaymentsTrigger/deliveries';
import { storedId } from '../../../nodes/CompanyPaymentsTrigger/deliveries';
import { gateLogger } from '../../../nodes/shared/gate';
import { KEY_PREFIX, REDIS_TIMEOUT_MS, RedisClaims } from './redisClaims';

/** n8n's own credential type of its Redis node (host, port, user, password, database, SSL). */
export const REDIS_CREDENTIAL = 'redis';

/** ioredis options from n8n's `redis` credential. */
export function redisOptions(data: ICredentialDataDecryptedObject): RedisOptions {
	const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
	const port = Number(data.port ?? 6379);
	const db = Number(data.database ?? 0);
	return {
		host: text(data.host) ?? 'localhost',
		port: Number.isInteger(port) && port > 0 ? port : 6379,
		db: Number.isInteger(db) && db >= 0 ? db : 0,
		username: text(data.user),
		password: text(data.password),
		...(data.ssl === true
			? { tls: { rejectUnauthorized: data.disableTlsVerification !== true } }
			: {}),
	};
}

/** One client (and its claims) per Redis this process claims in. */
const claimsByRedis = new Map<string, RedisClaims>();

function claimsFor(options: RedisOptions): RedisClaims {
	const id = JSON.stringify([
		options.host,
		options.port,
		options.db,
		options.username,
		options.password,
		options.tls ? 'tls' : '',
	]);
	let claims = claimsByRedis.get(id);
	if (!claims) {
		claims = new RedisClaims(options);
		claimsByRedis.set(id, claims);
	}
	return claims;
}

/** Closes every client (tests). */
export function closeRedisClaims(): void {
	for (const claims of claimsByRedis.values()) claims.close();
	claimsByRedis.clear();
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

/** The companion's delivery store: one claim per delivery in the Redis of the `redis` credential. */
export const redisDeliveryStore: DeliveryStore = {
	async record(ctx: IWebhookFunctions, { deliveryId, now, limits }): Promise<RecordOutcome> {
		let options: RedisOptions;
		try {
			options = redisOptions(await ctx.getCredentials(REDIS_CREDENTIAL));
		} catch (error) {
			return {
				verdict: 'unavailable',
				reason: `the Redis credential cannot be read (${(error as Error).message})`,
			};
		}
		const where = `${options.host}:${options.port} db ${options.db}${options.tls ? ' (TLS)' : ''}`;
		if (!said.has(where)) {
			said.add(where);
			gateLogger(ctx).info(`Company Payments Trigger claims delivery IDs in Redis ${where}`);
		}
		const node = ctx.getNode();
		const key = claimKey(
			String(ctx.getInstanceId?.() ?? ''),
			String(ctx.getWorkflow().id ?? ''),
			node.id,
			ctx.getMode() !== 'manual',
			deliveryId,
		);
		const claim = await claimsFor(options).claim(key, limits.maxAgeMs, now);
		if (claim.verdict === 'claimed') return { verdict: 'new' };
		if (claim.verdict === 'duplicate') return { verdict: 'duplicate' };
		return { verdict: 'unavailable', reason: `Redis ${where}: ${claim.reason}` };
	},
};

/** The credential test: connects with the credential's settings and sends PING. */
export async function companyPaymentsRedisTest(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const client = new Redis({
		...redisOptions(credential.data ?? {}),
		lazyConnect: true,
		connectTimeout: REDIS_TIMEOUT_MS,
		commandTimeout: REDIS_TIMEOUT_MS,
		maxRetriesPerRequest: 0,
		retryStrategy: () => null,
	});
	client.on('error', () => undefined);
	try {
		await client.connect();
		const pong = await client.ping();
		return { status: 'OK', message: `Connection successful (${pong})` };
	} catch (error) {
		return { status: 'Error', message: `Redis did not answer: ${(error as Error).message}` };
	} finally {
		client.disconnect();
	}
}
