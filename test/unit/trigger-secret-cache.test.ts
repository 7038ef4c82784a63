import {
	MAX_CACHED_TRIGGERS,
	REREAD_MIN_INTERVAL_MS,
	SECRET_MAX_AGE_MS,
	SecretCache,
} from '../../nodes/CompanyPaymentsTrigger/secretCache';
import type { CredentialSecrets } from '../../nodes/CompanyPaymentsTrigger/signature';
import { deliver, freshNodeId, hmacHex, OLD_SECRET_DUMMY, SECRET_DUMMY } from './helpers/trigger';
import type { DeliveryResult } from './helpers/trigger';

const T0 = Date.parse('2026-11-25T06:00:00.000Z');
const body = '{"event":"card.assigned","externalId":"c-cache"}';

function accepted(outcome: DeliveryResult): boolean {
	return outcome.response.statusCode === 200 && outcome.result.workflowData !== undefined;
}

function refused(outcome: DeliveryResult): boolean {
	return outcome.response.statusCode === 401 && outcome.result.workflowData === undefined;
}

/** One trigger (node + credential) with a counter of its credential reads, on a fake clock. */
function trigger() {
	const reads = { count: 0 };
	const nodeId = freshNodeId();
	const credentialId = `cred-${nodeId}`;
	return {
		reads,
		send: async (options: Parameters<typeof deliver>[0] = {}) =>
			await deliver({ body, nodeId, credentialId, reads, ...options }),
	};
}

let clock: jest.SpyInstance<number, []>;
beforeEach(() => {
	clock = jest.spyOn(Date, 'now').mockReturnValue(T0);
});
afterEach(() => {
	clock.mockRestore();
});

describe('the webhook secret kept in memory (receive)', () => {
	it('reads the credential once for many deliveries within the bound', async () => {
		const t = trigger();
		for (let i = 0; i < 20; i++) {
			clock.mockReturnValue(T0 + i * 400);
			expect(accepted(await t.send())).toBe(true);
		}
		expect(t.reads.count).toBe(1);
		clock.mockReturnValue(T0 + SECRET_MAX_AGE_MS);
		expect(accepted(await t.send())).toBe(true);
		expect(t.reads.count).toBe(2);
	});

	it('accepts a secret replaced in the credential until the bound, never at or after it', async () => {
		const t = trigger();
		expect(accepted(await t.send({ webhookSecret: OLD_SECRET_DUMMY }))).toBe(true);
		// The user typed a new secret into the credential; deliveries (maybe forged) signed with
		// the old one keep coming.
		const oldSigned = { webhookSecret: SECRET_DUMMY, signWith: OLD_SECRET_DUMMY };
		clock.mockReturnValue(T0 + SECRET_MAX_AGE_MS - 1);
		expect(accepted(await t.send(oldSigned))).toBe(true);
		clock.mockReturnValue(T0 + SECRET_MAX_AGE_MS);
		expect(refused(await t.send(oldSigned))).toBe(true);
		clock.mockReturnValue(T0 + SECRET_MAX_AGE_MS + 1);
		expect(refused(await t.send(oldSigned))).toBe(true);
	});

	it('accepts a delivery signed with a newly typed secret at once (one fresh read)', async () => {
		const t = trigger();
		expect(accepted(await t.send({ webhookSecret: OLD_SECRET_DUMMY }))).toBe(true);
		clock.mockReturnValue(T0 + 1);
		const fresh = await t.send({ webhookSecret: SECRET_DUMMY });
		expect(accepted(fresh)).toBe(true);
		expect(t.reads.count).toBe(2);
		// The fresh read replaced the kept secrets: the old secret is refused from now on.
		expect(refused(await t.send({ webhookSecret: SECRET_DUMMY, signWith: OLD_SECRET_DUMMY }))).toBe(
			true,
		);
	});

	it('lets forged deliveries force at most one read per interval', async () => {
		const t = trigger();
		expect(accepted(await t.send())).toBe(true);
		const forged = { signature: hmacHex(body, 'whsec_guessed') };
		for (let i = 0; i < 50; i++) {
			clock.mockReturnValue(T0 + 1 + i * 10); // 50 forgeries within 0.5 s
			expect(refused(await t.send(forged))).toBe(true);
		}
		expect(t.reads.count).toBe(2);
		clock.mockReturnValue(T0 + 1 + REREAD_MIN_INTERVAL_MS - 1);
		expect(refused(await t.send(forged))).toBe(true);
		expect(t.reads.count).toBe(2);
		clock.mockReturnValue(T0 + 1 + REREAD_MIN_INTERVAL_MS);
		expect(refused(await t.send(forged))).toBe(true);
		expect(t.reads.count).toBe(3);
		// Genuine deliveries still go through on the kept secret meanwhile, without a read.
		expect(accepted(await t.send())).toBe(true);
		expect(t.reads.count).toBe(3);
	});

	it('does not keep a failed read: the next delivery reads again', async () => {
		const t = trigger();
		expect(refused(await t.send({ webhookSecret: new Error('credential not found') }))).toBe(true);
		clock.mockReturnValue(T0 + 1);
		expect(accepted(await t.send())).toBe(true);
		expect(t.reads.count).toBe(2);
	});

	it('keeps secrets per trigger and credential', async () => {
		const a = trigger();
		const b = trigger();
		expect(accepted(await a.send({ webhookSecret: OLD_SECRET_DUMMY }))).toBe(true);
		expect(accepted(await b.send({ webhookSecret: SECRET_DUMMY }))).toBe(true);
		expect(refused(await b.send({ webhookSecret: SECRET_DUMMY, signWith: OLD_SECRET_DUMMY }))).toBe(
			true,
		);
		expect(a.reads.count).toBe(1);
		expect(b.reads.count).toBe(2);
	});

	it('shares one read among concurrent deliveries', async () => {
		const t = trigger();
		const outcomes = await Promise.all(Array.from({ length: 8 }, async () => await t.send()));
		expect(outcomes.every(accepted)).toBe(true);
		expect(t.reads.count).toBe(1);
	});
});

describe('SecretCache', () => {
	const secrets = (secret: string): CredentialSecrets => ({ secret, previous: '' });

	it('returns kept secrets only while younger than the bound', async () => {
		const cache = new SecretCache(1_000, 100);
		let reads = 0;
		const read = async () => {
			reads += 1;
			return secrets(`s${reads}`);
		};
		expect(await cache.get('k', 0, read)).toEqual({ secrets: secrets('s1'), fresh: true });
		expect(await cache.get('k', 999, read)).toEqual({ secrets: secrets('s1'), fresh: false });
		expect(await cache.get('k', 1_000, read)).toEqual({ secrets: secrets('s2'), fresh: true });
		// A clock that went back does not make an entry young.
		expect((await cache.get('k', 500, read)).fresh).toBe(true);
	});

	it('rate-limits re-reads per key', async () => {
		const cache = new SecretCache(60_000, 2_000);
		let reads = 0;
		const read = async () => {
			reads += 1;
			return secrets('s');
		};
		expect(await cache.reread('k', 0, read)).toBeDefined();
		expect(await cache.reread('k', 1_999, read)).toBeUndefined();
		expect(await cache.reread('other', 1_999, read)).toBeDefined();
		expect(await cache.reread('k', 2_000, read)).toBeDefined();
		expect(reads).toBe(3);
	});

	it('holds at most its number of triggers, dropping the oldest', async () => {
		const cache = new SecretCache(60_000, 2_000, 2);
		let reads = 0;
		const read = async () => {
			reads += 1;
			return secrets('s');
		};
		await cache.get('a', 0, read);
		await cache.get('b', 0, read);
		await cache.get('c', 0, read);
		await cache.get('c', 1, read);
		await cache.get('b', 1, read);
		expect(reads).toBe(3);
		await cache.get('a', 1, read);
		expect(reads).toBe(4);
		expect(MAX_CACHED_TRIGGERS).toBeGreaterThan(0);
	});
});
