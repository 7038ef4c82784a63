/**
 * The queue-mode companion's node (companion/nodes/CompanyPaymentsQueueTrigger): the core
 * trigger built with a Redis delivery store. Its claim against a real Redis is covered by
 * test/queue/claim-races.test.mjs and, in n8n, by test/queue/claims.test.mjs.
 */
import type { INodeProperties } from 'n8n-workflow';

import { CompanyPaymentsQueueTrigger } from '../../companion/nodes/CompanyPaymentsQueueTrigger/CompanyPaymentsQueueTrigger.node';
import {
	closeRedisClaims,
	redisOptions,
} from '../../companion/nodes/CompanyPaymentsQueueTrigger/redisStore';
import { CompanyPaymentsTrigger } from '../../nodes/CompanyPaymentsTrigger/CompanyPaymentsTrigger.node';
import { deliver } from './helpers/trigger';

afterAll(() => closeRedisClaims());

const core = new CompanyPaymentsTrigger().description;
const queue = new CompanyPaymentsQueueTrigger().description;

function optionNames(properties: INodeProperties[]): string[] {
	const options = properties.find((p) => p.name === 'options')?.options as INodeProperties[];
	return options.map((o) => o.name);
}

describe('the companion trigger', () => {
	it('is its own node type with its own icons, named for queue mode', () => {
		expect(queue.name).toBe('companyPaymentsQueueTrigger');
		expect(queue.displayName).toBe('Company Payments Trigger (Queue Mode)');
		expect(queue.icon).toEqual({
			light: 'file:../../icons/companyPaymentsQueue.svg',
			dark: 'file:../../icons/companyPaymentsQueue.dark.svg',
		});
	});

	it("takes the core's API credential and n8n's redis credential, each with its test", () => {
		expect(queue.credentials).toEqual([
			// The API credential is tested by its own `test` request (credentials/).
			{ name: 'companyPaymentsApi', required: true },
			{ name: 'redis', required: true, testedBy: 'companyPaymentsRedisTest' },
		]);
		const tests = new CompanyPaymentsQueueTrigger().methods.credentialTest;
		expect(Object.keys(tests).sort()).toEqual(['companyPaymentsRedisTest']);
	});

	it("is the core's description otherwise: same versions, webhooks, outputs and parameters", () => {
		expect(queue.version).toEqual(core.version);
		expect(queue.webhooks).toEqual(core.webhooks);
		expect(queue.outputs).toEqual(core.outputs);
		expect(queue.properties.map((p) => p.name)).toEqual(core.properties.map((p) => p.name));
		// The store size bounds the static data, which the companion does not use; it adds the
		// acceptance of a Redis without persistence.
		expect(optionNames(queue.properties).sort()).toEqual(
			[
				...optionNames(core.properties).filter((name) => name !== 'dedupMaxEntries'),
				'redisWithoutPersistence',
			].sort(),
		);
		const notice = (d: typeof core) =>
			d.properties.find((p) => p.name === 'queueModeNotice')?.displayName;
		expect(notice(core)).toMatch(/can start twice/);
		expect(notice(queue)).toMatch(/exactly one starts it/);
	});

	it("reads n8n's redis credential: host, port, user, password, database, SSL", () => {
		expect(
			redisOptions({
				host: 'redis.internal',
				port: 6380,
				user: 'claims',
				password: 'pw',
				database: 3,
				ssl: true,
				disableTlsVerification: false,
			}),
		).toEqual({
			host: 'redis.internal',
			port: 6380,
			db: 3,
			username: 'claims',
			password: 'pw',
			tls: { rejectUnauthorized: true },
		});
		expect(redisOptions({})).toEqual({
			host: 'localhost',
			port: 6379,
			db: 0,
			username: undefined,
			password: undefined,
		});
	});

	it('answers 503 and starts nothing when Redis cannot be reached (fail closed)', async () => {
		const { result, response } = await deliver(
			{ credentials: { redis: { host: '127.0.0.1', port: 1, database: 0 } } },
			new CompanyPaymentsQueueTrigger(),
		);
		expect(response.statusCode).toBe(503);
		expect(result.workflowData).toBeUndefined();
		expect(result.noWebhookResponse).toBe(true);
	});

	it('verifies the signature before it asks Redis: a forged delivery gets 401', async () => {
		const { response, result } = await deliver(
			{
				signWith: 'not-the-secret',
				credentials: { redis: { host: '127.0.0.1', port: 1, database: 0 } },
			},
			new CompanyPaymentsQueueTrigger(),
		);
		expect(response.statusCode).toBe(401);
		expect(result.workflowData).toBeUndefined();
	});
});
