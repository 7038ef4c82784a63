import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';
import nock from 'nock';

import { createdSince, SKEW_MARGIN_MS } from '../../nodes/shared/money/binding';
import type { SentTime } from '../../nodes/shared/money/binding';
import {
	forgetSkews,
	observeReport,
	skewBounds,
	skewRangeSince,
} from '../../nodes/shared/money/clock';
import { BASE_URL, runNode } from './helpers/n8n';

/*
 * The thirteenth outside read of the money module (r13-money F1): a service that sends its headers
 * (with `Date`) at once and its body seconds later made the node read its clock as that many
 * seconds behind, so Resolve Outcome took a payout made 7 s BEFORE the write for the write's own.
 * The reader's script (/work/outside/r13-money/f1-slow-date-skew.js) played here: the body's delay
 * is this machine's clock moving on between the answer being dated and being read (Date.now
 * mocked), so no test waits on a timer.
 */
beforeAll(() => nock.disableNetConnect());
afterEach(() => {
	nock.cleanAll();
	jest.restoreAllMocks();
	forgetSkews();
});

const CARD = '2200123456789012';
const EXTERNAL_ID = 'inv-2026-77';

const CREATE = {
	resource: 'payout',
	operation: 'create',
	amountRub: '1500',
	requisiteType: 'card',
	requisite: CARD,
	additionalFields: { externalId: EXTERNAL_ID },
};

function payout(id: string, createdAt: string): IDataObject {
	return {
		id,
		externalId: EXTERNAL_ID,
		status: 'waiting_trader',
		amountRub: 1500,
		requisiteType: 'card',
		requisite: CARD,
		refundedAt: null,
		failReason: null,
		createdAt,
	};
}

/**
 * This machine's clock, moved on by `delay` ms each time the service answers: the service dates
 * its answer (Date, same clock as n8n's) and its body arrives `delay` ms later.
 */
function slowService(delay: number) {
	let shift = 0;
	const realNow = Date.now.bind(Date);
	jest.spyOn(Date, 'now').mockImplementation(() => realNow() + shift);
	return (status: number, body: unknown) => (): [number, unknown, Record<string, string>] => {
		const dated = new Date(Date.now()).toUTCString();
		shift += delay;
		return [status, body, { Date: dated, 'Content-Type': 'application/json' }];
	};
}

async function writeLost(answer: ReturnType<typeof slowService>): Promise<IDataObject> {
	nock(BASE_URL)
		.post('/payouts')
		.reply(
			answer(500, {
				statusCode: 500,
				error: 'Internal Server Error',
				errorCode: 'INTERNAL_ERROR',
				message: 'x',
			}),
		);
	const { output } = await runNode({ parameters: CREATE, continueOnFail: true });
	const item = output[0].json as IDataObject;
	expect(item.paymentOutcome).toBe('unknown');
	return item;
}

async function resolve(
	item: IDataObject,
	answer: ReturnType<typeof slowService>,
	records: IDataObject[],
): Promise<IDataObject> {
	nock(BASE_URL)
		.get('/payouts')
		.query((q) => q.externalId === EXTERNAL_ID)
		.reply(answer(200, { payouts: records, total: records.length }));
	for (const record of records) {
		nock(BASE_URL)
			.get(`/payouts/${String(record.id)}`)
			.reply(answer(200, record));
	}
	const { output } = await runNode({
		parameters: { resource: 'payment', operation: 'resolveOutcome', unknownItem: item as never },
		continueOnFail: true,
	});
	return output[0].json as IDataObject;
}

describe('r13-money F1: a slow answer never makes an older record prove the write', () => {
	it('bodies 4 s behind their headers: a payout made 7 s before the write is no proof (unknown)', async () => {
		const answer = slowService(4000);
		const old = payout('P-OLD', new Date(Date.now() - 7000).toISOString());
		const item = await writeLost(answer);
		// The sealed skew is an upper bound: a slow body does not read as the service being behind.
		expect((item.sentWrite as IDataObject).skewMs).toBeGreaterThanOrEqual(0);
		const out = await resolve(item, answer, [old]);
		expect(out.paymentOutcome).toBe('unknown');
		expect(out.record).toMatchObject({ id: 'P-OLD' });
		expect(out.reason).toMatch(/created before this write was sent/);
		// The skew it names is the bound it took: an upper bound of the service's clock minus n8n's.
		expect(out.reason).toMatch(/measured clock skew \(at most \+\d+ s/);
	});

	it('bodies 4 s behind their headers: the payout the write itself made is still proved (paid)', async () => {
		const answer = slowService(4000);
		const item = await writeLost(answer);
		const sentAt = Date.parse(String((item.sentWrite as IDataObject).sentAt));
		// Made as the service received the write (the same clock), then it failed to answer.
		const own = payout('P-NEW', new Date(sentAt + 50).toISOString());
		const out = await resolve(item, answer, [own]);
		expect(out.paymentOutcome).toBe('paid');
		expect(out.record).toMatchObject({ id: 'P-NEW' });
	});

	it('bodies 4 s behind their headers: a record dated 3 s after the service’s clock now is read as dated in the future', async () => {
		const answer = slowService(4000);
		const item = await writeLost(answer);
		// The look's two reads move this machine's clock on by 8 s more; the service's clock is n8n's.
		const future = payout('P-FUTURE', new Date(Date.now() + 8000 + 3000).toISOString());
		const out = await resolve(item, answer, [future]);
		// "Now" is read by the least skew the look measured (Date minus when its answer was read):
		// never later than the service's clock is, however slowly the answers came.
		expect(out.paymentOutcome).toBe('unknown');
		expect(out.reason).toMatch(/later than the service's clock now/);
	});

	it('fast answers (the control): the older payout is no proof, the own one is', async () => {
		const answer = slowService(0);
		const old = payout('P-OLD', new Date(Date.now() - 7000).toISOString());
		const item = await writeLost(answer);
		expect((await resolve(item, answer, [old])).paymentOutcome).toBe('unknown');
		forgetSkews();
		const again = await writeLost(answer);
		const sentAt = Date.parse(String((again.sentWrite as IDataObject).sentAt));
		const own = payout('P-NEW', new Date(sentAt + 50).toISOString());
		expect((await resolve(again, answer, [own])).paymentOutcome).toBe('paid');
	});
});

describe('r13-money F1: the skew is an interval, each use takes its safe bound', () => {
	const DATE = 'Sun, 29 Nov 2026 05:00:00 GMT';
	const at = Date.parse(DATE);

	it('skewBounds: low is Date minus when the answer was read, high is Date + 1 s minus when it was sent', () => {
		expect(skewBounds({ Date: DATE }, at - 200, at + 4000)).toEqual({
			low: -4000,
			high: 1200,
		});
		expect(skewBounds({ Date: DATE, Age: '3' }, at, at)).toBeUndefined();
		expect(skewBounds({ Date: '2026-11-29T05:00:00Z' }, at, at)).toBeUndefined();
	});

	it('observeReport keeps both bounds; an attempt without its send time measures nothing', () => {
		const since = Date.now();
		const attempt = {
			sent: true as const,
			status: 200,
			body: {},
			readable: true,
			headers: { Date: new Date(since).toUTCString() },
		};
		expect(observeReport(BASE_URL, { attempts: [attempt] })).toBeNull();
		const sentLocal = since - 100;
		const answeredLocal = since + 4000;
		const bounds = observeReport(BASE_URL, {
			attempts: [{ ...attempt, sentLocal, answeredLocal }],
		})!;
		const dated = Math.floor(since / 1000) * 1000;
		expect(bounds).toEqual({ low: dated - answeredLocal, high: dated + 1000 - sentLocal });
		expect(skewRangeSince(BASE_URL, since)).toEqual(bounds);
	});

	/*
	 * The model: the service's clock is this machine's plus `skew`. The write is sent (sentAt, then
	 * the transport's sentLocal, `lag` later); it reaches the service after `upload`, is worked on
	 * for `work`, dated (whole seconds), its headers take `head` to come back and its body `body`
	 * more, and this event loop reads it `loop` later still. Nothing but the interval is known.
	 */
	const delays = {
		skew: fc.integer({ min: -600_000, max: 600_000 }),
		lag: fc.integer({ min: 0, max: 3_000 }),
		upload: fc.integer({ min: 0, max: 20_000 }),
		work: fc.integer({ min: 0, max: 20_000 }),
		head: fc.integer({ min: 0, max: 20_000 }),
		body: fc.integer({ min: 0, max: 60_000 }),
		loop: fc.integer({ min: 0, max: 5_000 }),
		sentAt: fc.integer({ min: 1_700_000_000_000, max: 1_900_000_000_000 }),
	};

	function measure(d: {
		skew: number;
		lag: number;
		upload: number;
		work: number;
		head: number;
		body: number;
		loop: number;
		sentAt: number;
	}) {
		forgetSkews();
		const sentLocal = d.sentAt + d.lag;
		const datedLocal = sentLocal + d.upload + d.work;
		const serviceAt = datedLocal + d.skew;
		const answeredLocal = datedLocal + d.head + d.body + d.loop;
		const bounds = observeReport(
			BASE_URL,
			{
				attempts: [
					{
						sent: true,
						status: 500,
						body: { errorCode: 'INTERNAL_ERROR', message: 'x' },
						readable: true,
						headers: { Date: new Date(serviceAt).toUTCString() },
						sentLocal,
						answeredLocal,
					},
				],
			},
			answeredLocal,
		)!;
		return { bounds, serviceAt, answeredLocal, sentLocal };
	}

	it('the true skew always lies in the interval, whatever the delays', () => {
		fc.assert(
			fc.property(fc.record(delays), (d) => {
				const { bounds } = measure(d);
				return bounds.low <= d.skew && d.skew <= bounds.high;
			}),
			{ numRuns: 500 },
		);
	});

	it('an older record never proves a write, whatever the delays', () => {
		fc.assert(
			fc.property(fc.record({ ...delays, before: fc.integer({ min: 1, max: 3_600_000 }) }), (d) => {
				const { bounds, answeredLocal } = measure(d);
				// Created before the write was sent by more than the stated margin, in the service's
				// own time.
				const createdAt = d.sentAt + d.skew - SKEW_MARGIN_MS - d.before;
				const time: SentTime = { sentAt: d.sentAt, skewMs: bounds.high };
				const record = { createdAt: new Date(createdAt).toISOString() };
				return createdSince(record, time, bounds.low, answeredLocal) !== 'after';
			}),
			{ numRuns: 500 },
		);
	});

	it('a record dated later than the service’s clock when the look read it, by more than the margin, is read as dated in the future', () => {
		fc.assert(
			fc.property(fc.record({ ...delays, ahead: fc.integer({ min: 1, max: 3_600_000 }) }), (d) => {
				const { bounds, answeredLocal } = measure(d);
				const createdAt = answeredLocal + d.skew + SKEW_MARGIN_MS + d.ahead;
				const time: SentTime = { sentAt: d.sentAt, skewMs: bounds.high };
				const record = { createdAt: new Date(createdAt).toISOString() };
				return createdSince(record, time, bounds.low, answeredLocal) === 'future';
			}),
			{ numRuns: 500 },
		);
	});

	it('the write’s own record is proved when the service dated its answer within 4 s of the send', () => {
		fc.assert(
			fc.property(
				fc.record({
					...delays,
					lag: fc.integer({ min: 0, max: 1_000 }),
					upload: fc.integer({ min: 0, max: 1_500 }),
					work: fc.integer({ min: 0, max: 1_500 }),
				}),
				fc.integer({ min: 0, max: 1_000 }),
				(d, madeAt) => {
					const { bounds, serviceAt, answeredLocal } = measure(d);
					// Made after the request reached the service, before it was dated.
					const createdAt = Math.min(d.sentAt + d.lag + d.upload + d.skew + madeAt, serviceAt);
					const time: SentTime = { sentAt: d.sentAt, skewMs: bounds.high };
					const record = { createdAt: new Date(createdAt).toISOString() };
					return createdSince(record, time, bounds.low, answeredLocal) === 'after';
				},
			),
			{ numRuns: 500 },
		);
	});
});
