/**
 * The queue-mode companion's node (companion/nodes/CompanyPaymentsQueueTrigger): the core
 * trigger built with a Redis delivery store. Its claim against a real Redis is covered by
 * test/queue/claim-races.test.mjs and, in n8n, by test/queue/claims.test.mjs.
 */
import type { INode, INodeProperties } from 'n8n-workflow';

import { CompanyPaymentsQueueTrigger } from '../../companion/nodes/CompanyPaymentsQueueTrigger/CompanyPaymentsQueueTrigger.node';
import { NodeOperationError } from 'n8n-workflow';

import {
	HOST_MASKED_NOTE,
	keepFirstAuthError,
	outsideText,
	shownHost,
	shownText,
} from '../../companion/nodes/CompanyPaymentsQueueTrigger/redisCheck';
import { describeClaimError } from '../../companion/nodes/CompanyPaymentsQueueTrigger/redisProbe';
import {
	closeRedisClaims,
	redisOptions,
	withoutNodeErrorCodes,
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
		// The one difference: responseData set and empty, so n8n's own answer (sent once the
		// execution exists: the claim is held until then) is the trigger's webhookResponse.
		expect(queue.webhooks).toEqual(core.webhooks?.map((w) => ({ ...w, responseData: '' })));
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

	it('refuses a Database Number or Port that is not a whole number in range, naming it', () => {
		for (const database of [-1, 2.5, 'two', '1e1x']) {
			expect(() => redisOptions({ database })).toThrow(
				`the Redis credential's Database Number is ${String(database)}`,
			);
		}
		for (const port of [0, 65536, 6379.5, 'port']) {
			expect(() => redisOptions({ port })).toThrow(
				`the Redis credential's Port is ${String(port)}`,
			);
		}
		expect(redisOptions({ database: '4', port: '6380' })).toMatchObject({ db: 4, port: 6380 });
		expect(redisOptions({ database: '', port: '' })).toMatchObject({ db: 0, port: 6379 });
	});

	it("words activation messages so n8n's NodeOperationError keeps them (no Node error code)", () => {
		const node: INode = {
			id: 'n',
			name: 'T',
			type: 'x',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		};
		for (const code of [
			'ECONNREFUSED',
			'ETIMEDOUT',
			'ENOTFOUND',
			'ECONNRESET',
			'EAI_AGAIN',
			'getaddrinfo',
			'EPERM',
		]) {
			const message = `Redis at h:1 did not answer (connect ${code} 1.2.3.4:1)`;
			const kept = withoutNodeErrorCodes(message);
			expect(kept).not.toMatch(new RegExp(code, 'i'));
			expect(new NodeOperationError(node, kept).message).toBe(kept);
			// What the words replace: without them n8n shows its generic text instead.
			expect(new NodeOperationError(node, message).message).not.toBe(message);
		}
	});

	it('keeps a refused password over the NOAUTH of the SELECT and ready check that follow it', () => {
		const wrong = new Error('WRONGPASS invalid username-password pair or user is disabled.');
		const noauth = new Error('NOAUTH Authentication required.');
		expect(keepFirstAuthError(wrong, noauth)).toBe(wrong);
		expect(
			keepFirstAuthError(wrong, new Error('Ready check failed: NOAUTH Authentication required.')),
		).toBe(wrong);
		expect(keepFirstAuthError(undefined, noauth)).toBe(noauth);
		const refused = new Error('connect ECONNREFUSED');
		expect(keepFirstAuthError(wrong, refused)).toBe(refused);
	});

	it('names the ACL permission or the replica a claim command ran into', () => {
		expect(
			describeClaimError(
				new Error("NOPERM this user has no permissions to run the 'time' command"),
			),
		).toMatch(
			/may not run the command TIME .*ACL SETUSER <user> on ><password> ~n8n-nodes-company-payments:\* /,
		);
		expect(
			describeClaimError(
				new Error(
					'NOPERM this user has no permissions to access one of the keys used as arguments',
				),
			),
		).toMatch(/may not use n8n-nodes-company-payments:\* \(this package's keys\)/);
		expect(
			describeClaimError(new Error("READONLY You can't write against a read only replica.")),
		).toMatch(/read-only replica .*primary/);
		expect(describeClaimError(new Error('ERR something else'))).toBeUndefined();
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

describe("the companion's masking of the Redis password (outside read r20-companion)", () => {
	const password = 'company-payments-Q7x!';

	it("masks the password's parts in outside text only; the last guard masks the whole password and keeps the package's own words", () => {
		expect(outsideText("NOPERM key 'n8n-nodes-company-payments:x'", password)).toBe(
			"NOPERM key 'n8n-nodes-***:x'",
		);
		const fixed = 'ACL SETUSER <user> on ><password> ~n8n-nodes-company-payments:* +evalsha';
		expect(shownText(fixed, password)).toBe(fixed);
		expect(shownText(`pasted ${password} here`, password)).toBe('pasted *** here');
		expect(shownText('pwned pw.', 'pw')).toBe('pwned ***.');
		expect(shownText("ERR unknown command 'auth', with args beginning with: 'u' 'p' ", 'x')).toBe(
			"ERR unknown command 'auth'",
		);
	});

	it('shows a Host that shares 6+ characters with the password masked, and says why, once per text', () => {
		expect(shownHost('payments-redis.invalid', 'payments-redis-Secret9')).toEqual({
			host: '***.invalid',
			note: HOST_MASKED_NOTE,
		});
		expect(shownHost('Xk9fj2LqP0zT', 'Xk9fj2LqP0zT').host).toBe('***');
		expect(shownHost('redis.example.com', 'payments-redis-Secret9')).toEqual({
			host: 'redis.example.com',
			note: '',
		});
		expect(HOST_MASKED_NOTE).toMatch(/Host is shown masked: it shares 6 or more characters/);
		const twice = `Redis ***:6379${HOST_MASKED_NOTE}: not found (***)${HOST_MASKED_NOTE}: correct its Host`;
		expect(shownText(twice, 'Xk9fj2LqP0zT')).toBe(
			`Redis ***:6379${HOST_MASKED_NOTE}: not found (***): correct its Host`,
		);
	});
});
