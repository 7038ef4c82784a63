import fc from 'fast-check';
import nock from 'nock';
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { apiRequest } from '../../nodes/shared/transport';
import { retryAfterMs, retryClock } from '../../nodes/shared/transport/retry';
import { API_KEY, BASE_URL, createContext, derivedKey, runNode, runNodeError } from './helpers/n8n';
import { FakeService, payout, roundTrip, runPoll } from './helpers/poll';
import { virtualClock } from './helpers/setup';

/**
 * Rate limits and transient failures (issue 18.7): reads, and the writes the document replays by
 * Idempotency-Key, are retried on 429, 503 and a proxy's 502/504 (other keyed writes only on the
 * service's own 429: test/unit/outcome.test.ts), waiting what Retry-After asks,
 * for at most the credential's Longest Wait on Rate Limits. The clock is virtual
 * (helpers/setup.ts): `virtualClock.slept` is what the node waited.
 */
const ORDER_ID = '7d3c2b1a-1111-4222-8333-944455566677';
const getOrder = { resource: 'order', operation: 'get', orderId: ORDER_ID };
const order = { id: ORDER_ID, status: 'success', amountRub: 1500 };
const limited = {
	statusCode: 429,
	error: 'Too Many Requests',
	errorCode: 'RATE_LIMITED',
	message: 'Слишком много запросов',
	requestId: 'req-429',
};

function credentials(maxRetryWaitSeconds?: number): ICredentialDataDecryptedObject {
	return {
		environment: 'staging',
		baseUrl: BASE_URL,
		apiKey: API_KEY,
		webhookSecret: '',
		...(maxRetryWaitSeconds === undefined ? {} : { maxRetryWaitSeconds }),
	};
}

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
	expect(nock.pendingMocks()).toEqual([]);
	nock.cleanAll();
});

describe('reads wait and retry', () => {
	it('429 with Retry-After in seconds, then 200: one item, waited as asked', async () => {
		nock(BASE_URL)
			.get(`/orders/${ORDER_ID}`)
			.reply(429, limited, { 'Retry-After': '3' })
			.get(`/orders/${ORDER_ID}`)
			.reply(200, order);
		const { output } = await runNode({ parameters: getOrder });
		expect(output.map((item) => item.json)).toEqual([order]);
		expect(virtualClock.slept).toEqual([3000]);
	});

	it('429 with Retry-After as an HTTP date waits until then', async () => {
		const at = new Date(virtualClock.now + 7000).toUTCString();
		nock(BASE_URL)
			.get(`/orders/${ORDER_ID}`)
			.reply(429, limited, { 'Retry-After': at })
			.get(`/orders/${ORDER_ID}`)
			.reply(200, order);
		await runNode({ parameters: getOrder });
		expect(virtualClock.slept).toEqual([7000]);
	});

	it.each([
		[503, { statusCode: 503, errorCode: 'SERVICE_UNAVAILABLE', message: 'Нет' }],
		[502, '<html><body>502 Bad Gateway</body></html>'],
		[504, '<html><body>504 Gateway Time-out</body></html>'],
	])('%s, then 200: retried with backoff', async (status, body) => {
		nock(BASE_URL)
			.get(`/orders/${ORDER_ID}`)
			.reply(status, body)
			.get(`/orders/${ORDER_ID}`)
			.reply(200, order);
		const { output } = await runNode({ parameters: getOrder });
		expect(output).toHaveLength(1);
		expect(virtualClock.slept).toEqual([500]);
	});

	it('gives up at once when Retry-After asks for more than the longest wait, saying what was asked', async () => {
		nock(BASE_URL).get(`/orders/${ORDER_ID}`).reply(429, limited, { 'Retry-After': '120' });
		const error = await runNodeError({ parameters: getOrder });
		expect(error.message).toMatch(/^RATE_LIMITED/);
		expect(error.description).toContain('The service asked to retry after 120 s');
		expect(error.description).toContain("the credential's Longest Wait on Rate Limits");
		expect(error.description).toContain('Request ID: req-429');
		expect(virtualClock.slept).toEqual([]);
		expect(JSON.stringify(error)).not.toContain(API_KEY);
	});

	it('the credential sets the longest wait: 0 turns retries off', async () => {
		nock(BASE_URL).get(`/orders/${ORDER_ID}`).reply(503, { errorCode: 'SERVICE_UNAVAILABLE' });
		const error = await runNodeError({ parameters: getOrder, credentials: credentials(0) });
		expect(error.httpCode).toBe('503');
		expect(virtualClock.slept).toEqual([]);
	});

	it('Return All with a burst of 429 at page 3 still returns every record once', async () => {
		const records = Array.from({ length: 250 }, (_, index) => ({ id: `dep-${index}` }));
		let burst = 2;
		nock(BASE_URL)
			.get('/wallets/deposits')
			.query(true)
			.times(5)
			.reply(function (uri) {
				const query = new URL(uri, BASE_URL).searchParams;
				const offset = Number(query.get('offset'));
				if (offset === 196 && burst-- > 0) return [429, limited, { 'Retry-After': '2' }];
				// A service that serves at most 100 per page, whatever limit asks.
				return [200, records.slice(offset, offset + Math.min(100, Number(query.get('limit'))))];
			});
		const { output } = await runNode({
			parameters: { resource: 'companyWallet', operation: 'getDeposits', returnAll: true },
		});
		expect(output.map((item) => item.json.id)).toEqual(records.map((record) => record.id));
		expect(virtualClock.slept).toEqual([2000, 2000]);
	});

	it('calls of one run hold back after a 429 with Retry-After instead of adding to the load', async () => {
		// Call A gets 429 "retry after 5 s" and sleeps (held here); call B, started meanwhile by
		// another item or page of the same run, must not be sent before those 5 s are over.
		const sentAt: number[] = [];
		nock(BASE_URL)
			.get(`/orders/${ORDER_ID}`)
			.times(3)
			.reply(() => {
				sentAt.push(virtualClock.now);
				return sentAt.length === 1 ? [429, limited, { 'Retry-After': '5' }] : [200, order];
			});
		const context = createContext({ parameters: getOrder });
		const start = virtualClock.now;
		let release: () => void = () => {};
		let sleeping: () => void = () => {};
		const asleep = new Promise<void>((resolve) => (sleeping = resolve));
		const gate = new Promise<void>((resolve) => (release = resolve));
		const virtualSleep = retryClock.sleep;
		retryClock.sleep = async (ms: number) => {
			if (sentAt.length === 1 && virtualClock.slept.length === 0) {
				virtualClock.slept.push(ms);
				sleeping();
				await gate;
				return;
			}
			await virtualSleep(ms);
		};
		const request = { method: 'GET' as const, path: `/orders/${ORDER_ID}` };
		const a = apiRequest.call(context as never, request);
		await asleep;
		const b = apiRequest.call(context as never, request);
		await b;
		release();
		await a;
		expect(sentAt).toHaveLength(3);
		expect(sentAt[1]).toBeGreaterThanOrEqual(start + 5000);
	});
});

describe('writes are retried only with an Idempotency-Key', () => {
	const create = {
		resource: 'payout',
		operation: 'create',
		amountRub: 5000,
		requisiteType: 'card',
		requisite: '2200123456789012',
	};

	it('Payout Create (money, no replay promised): a 429 is not repeated; not paid, Retry-After said', async () => {
		const keys: string[] = [];
		nock(BASE_URL)
			.post('/payouts')
			.reply(function () {
				keys.push(String(this.req.headers['idempotency-key']));
				return [429, limited, { 'Retry-After': '1' }];
			});
		const error = await runNodeError({ parameters: create });
		expect(keys).toEqual([derivedKey(0, 0)]);
		expect((error as unknown as { context: IDataObject }).context.paymentOutcome).toBe('not_paid');
		expect((error as unknown as { context: IDataObject }).context.retryAfter).toBe('1');
		expect(virtualClock.slept).toEqual([]);
	});

	it('Dispute Create (no key): a 429 is not repeated', async () => {
		// The order's open disputes are read first (dispute/create.ts); none.
		nock(BASE_URL).get('/disputes').query(true).reply(200, { disputes: [] });
		nock(BASE_URL).post(`/orders/${ORDER_ID}/disputes`).reply(429, limited, { 'Retry-After': '1' });
		const error = await runNodeError({
			parameters: { resource: 'dispute', operation: 'create', orderId: ORDER_ID, reason: 'x' },
		});
		expect(error.httpCode).toBe('429');
		expect(virtualClock.slept).toEqual([]);
	});
});

describe('a service that keeps saying "now"', () => {
	it('429 with Retry-After: 0 for ever: sent at most 8 times, never in a busy loop, then a clear error', async () => {
		let sent = 0;
		nock(BASE_URL)
			.persist()
			.get(`/orders/${ORDER_ID}`)
			.reply(() => {
				sent++;
				return [429, limited, { 'Retry-After': '0' }];
			});
		const error = await runNodeError({ parameters: getOrder });
		nock.cleanAll();
		expect(sent).toBe(8);
		expect(virtualClock.slept).toEqual(Array(7).fill(250));
		expect(error.httpCode).toBe('429');
		expect(error.description).toContain(
			'Tried 8 times over 1.8 s, the most the node sends one call',
		);
		expect(error.description).toContain('req-429');
	});
});

describe('the poll trigger', () => {
	afterEach(() => nock.cleanAll());

	it('waits out a 429 in the middle of a poll and emits the change once', async () => {
		const service = new FakeService();
		const record = service.add('payouts', payout());
		const parameters = { watch: ['payouts'] };
		const first = await runPoll({ parameters });
		record.status = 'in_progress';
		let calls = 0;
		service.failing.set('/payouts', { status: 429, body: limited });
		const originalGet = service.failing.get.bind(service.failing);
		service.failing.get = (path: string) => (calls++ < 2 ? originalGet(path) : undefined);
		const second = await runPoll({ parameters, staticData: roundTrip(first.staticData) });
		expect(second.items).toHaveLength(1);
		expect(second.items![0]).toMatchObject({ status: 'in_progress' });
	});
});

describe('property: the total wait never exceeds the longest wait', () => {
	const answer = fc.oneof(
		fc.record({ status: fc.constant(429), retryAfter: fc.option(fc.integer({ min: 0, max: 90 })) }),
		fc.record({ status: fc.constantFrom(502, 503, 504), retryAfter: fc.constant(null) }),
		fc.record({ status: fc.constant(200), retryAfter: fc.constant(null) }),
	);
	it('whatever the answers and Retry-After values, and the result is truthful', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(answer, { minLength: 1, maxLength: 12 }),
				fc.integer({ min: 0, max: 120 }),
				async (answers, budget) => {
					nock.cleanAll();
					virtualClock.slept = [];
					let index = 0;
					nock(BASE_URL)
						.persist()
						.get(`/orders/${ORDER_ID}`)
						.reply(() => {
							const next = answers[Math.min(index++, answers.length - 1)];
							const headers: Record<string, string> =
								next.retryAfter === null ? {} : { 'Retry-After': String(next.retryAfter) };
							return next.status === 200 ? [200, order, headers] : [next.status, limited, headers];
						});
					let ok = true;
					try {
						await runNode({ parameters: getOrder, credentials: credentials(budget) });
					} catch {
						ok = false;
					}
					const waited = virtualClock.slept.reduce((sum, ms) => sum + ms, 0);
					expect(waited).toBeLessThanOrEqual(budget * 1000);
					// Never a busy loop: each wait is at least 250 ms, and at most 8 sends.
					expect(virtualClock.slept.every((ms) => ms >= 250)).toBe(true);
					expect(index).toBeLessThanOrEqual(8);
					// Success is reported only when the last answer read was a 200.
					const last = answers[Math.min(index - 1, answers.length - 1)];
					expect(ok).toBe(last.status === 200);
				},
			),
			{ numRuns: 200 },
		);
		nock.cleanAll();
	}, 60_000);
});

describe('Retry-After', () => {
	it('reads seconds, decimals and HTTP dates; ignores nonsense', () => {
		const now = Date.parse('2026-11-21T12:00:00.000Z');
		expect(retryAfterMs({ 'retry-after': '30' }, now)).toBe(30_000);
		expect(retryAfterMs({ 'Retry-After': '1.5' }, now)).toBe(1500);
		expect(retryAfterMs({ 'retry-after': 'Sat, 21 Nov 2026 12:00:10 GMT' }, now)).toBe(10_000);
		expect(retryAfterMs({ 'retry-after': 'Sat, 21 Nov 2026 11:00:00 GMT' }, now)).toBe(0);
		expect(retryAfterMs({ 'retry-after': 'soon' }, now)).toBeUndefined();
		expect(retryAfterMs({}, now)).toBeUndefined();
	});
});
