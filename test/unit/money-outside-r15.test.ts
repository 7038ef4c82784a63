import fc from 'fast-check';
import nock from 'nock';

import { earliestCreated, SKEW_MARGIN_MS } from '../../nodes/shared/money/binding';
import { forgetSkews, knownSkew, observeReport } from '../../nodes/shared/money/clock';
import { forgetAllSentWrites } from '../../nodes/shared/money/write';
import {
	datedAt,
	inProcessRunner,
	readerCreate as create,
	readerPayout as payout,
} from './helpers/money';
import { BASE_URL } from './helpers/n8n';

/*
 * The fifteenth outside read of the money module (/work/outside/r15-money/):
 * F2  one slow answer (8 s before its headers) in an n8n process made every later fast, genuinely
 *     new payout "unknown" for six hours: the process kept the LARGEST high bound of every skew it
 *     measured; ranges of one clock that meet bound the skew by the LEAST high;
 * F3  such a record was called "another payment" as a fact.
 */
beforeAll(() => nock.disableNetConnect());
beforeEach(() => {
	forgetAllSentWrites();
	forgetSkews();
});
afterEach(() => nock.cleanAll());

const run = inProcessRunner(15000);

/** One answer of the service's own, dated `serviceAt`, sent and read at the given local times. */
function answered(serviceAt: number, sentLocal: number, answeredLocal: number, at = answeredLocal) {
	return observeReport(
		BASE_URL,
		{
			attempts: [
				{
					sent: true,
					status: 422,
					body: { errorCode: 'INSUFFICIENT_BALANCE', message: 'x' },
					readable: true,
					headers: { Date: new Date(serviceAt).toUTCString() },
					sentLocal,
					answeredLocal,
				},
			],
		},
		at,
	);
}

describe('r15-money F2: one slow answer no longer makes later writes unknown', () => {
	it('a slow answer (8 s to its headers), then a payout answered at once with a record made during the call: success', async () => {
		const now = Date.now();
		// The earlier payout's answer: sent 8 s ago, the service dated it as it answered, just now.
		answered(now, now - 8_000, now);
		const made = payout('p-2', 'salary-2', '');
		nock(BASE_URL)
			.post('/payouts')
			.reply(200, () => ({ ...made, createdAt: new Date().toISOString() }), datedAt(0));
		const [item] = await run(create('salary-2'));
		expect(item.paymentOutcome).toBeUndefined();
		expect(item.id).toBe('p-2');
	});

	it('F3: a record older than the send says "as far as the measured clocks tell" and "may be another payment"', async () => {
		nock(BASE_URL)
			.post('/payouts')
			.reply(
				200,
				() => payout('p-old', 'inv-9', new Date(Date.now() - 60_000).toISOString()),
				datedAt(0),
			);
		const [item] = await run(create('inv-9'));
		expect(item.paymentOutcome).toBe('unknown');
		const said = String(item.reason ?? item.error ?? '') + String(item.message ?? '');
		expect(said).toMatch(/as far as the measured clocks tell/);
		expect(said).toMatch(/may be another payment under the same External ID/);
		expect(said).not.toMatch(/it is another payment/);
	});

	/*
	 * The model (as r13's): the service's clock is this machine's plus `skew`; each answer is sent
	 * at some time, reaches the service after `upload`, is worked on for `work`, dated (whole
	 * seconds), and read `back` later. Only the intervals are known.
	 */
	const answer = fc.record({
		start: fc.integer({ min: 0, max: 3 * 3_600_000 }),
		upload: fc.integer({ min: 0, max: 30_000 }),
		work: fc.integer({ min: 0, max: 30_000 }),
		back: fc.integer({ min: 0, max: 60_000 }),
	});
	type Answer = { start: number; upload: number; work: number; back: number };
	const T0 = 1_800_000_000_000;

	/** Measures each answer, dated by a clock `skew` ahead of this machine; the widest read time. */
	function measureAll(answers: Answer[], skewOf: (i: number) => number): number {
		let last = T0;
		answers.forEach((a, i) => {
			const sentLocal = T0 + a.start;
			const dated = sentLocal + a.upload + a.work;
			const read = dated + a.back;
			answered(dated + skewOf(i), sentLocal, read, read);
			last = Math.max(last, read);
		});
		return last;
	}

	it('one clock, any delays: the write’s own record (made after the send) is proved when the fastest answer came back within the margin less the Date’s second', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: -600_000, max: 600_000 }),
				fc.array(answer, { minLength: 0, maxLength: 6 }),
				fc.record({
					upload: fc.integer({ min: 0, max: 2_000 }),
					work: fc.integer({ min: 0, max: 2_000 }),
					back: fc.integer({ min: 0, max: 2_000 }),
				}),
				fc.integer({ min: 0, max: 600_000 }),
				(skew, slow, own, after) => {
					forgetSkews();
					// The write's own answer is the fastest: its round trip under SKEW_MARGIN_MS - 1 s.
					fc.pre(own.upload + own.work + own.back <= SKEW_MARGIN_MS - 1_000);
					const last = measureAll([...slow, { start: 3 * 3_600_000 + 60_000, ...own }], () => skew);
					const sentAt = T0 + 3 * 3_600_000 + 60_000;
					const high = knownSkew(BASE_URL, last);
					if (high === null || high < skew) return false;
					// Made at or after the send, in the service's own time.
					const createdAt = sentAt + skew + Math.min(after, own.upload + own.work);
					return createdAt >= earliestCreated({ sentAt, skewMs: high });
				},
			),
			{ numRuns: 500 },
		);
	});

	it('two clocks whose answers are told apart (intervals that do not meet): an older record never proves a write', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: -600_000, max: 600_000 }),
				fc.array(fc.tuple(answer, fc.boolean()), { minLength: 1, maxLength: 8 }),
				fc.integer({ min: 1, max: 600_000 }),
				fc.integer({ min: 1, max: 3_600_000 }),
				(skew, list, apart, before) => {
					forgetSkews();
					const answers = list.map(([a]) => a);
					// An interval is at most its round trip and the Date's second wide.
					const widest = Math.max(...answers.map((a) => a.upload + a.work + a.back)) + 1_000;
					// The other clock (a proxy, another backend, a stale copy) is behind by more than
					// any interval is wide, so no interval of it meets one of the records' clock.
					const behind = 2 * widest + apart;
					const last = measureAll(answers, (i) => (list[i][1] ? skew : skew - behind));
					const sentAt = last;
					const high = knownSkew(BASE_URL, last);
					// With no answer of the records' clock nothing bounds it: only a write without any
					// measure (null) or the records' clock's own bounds may be used.
					if (!list.some(([, records]) => records)) return true;
					if (high === null) return true;
					const createdAt = sentAt + skew - SKEW_MARGIN_MS - before;
					return createdAt < earliestCreated({ sentAt, skewMs: high });
				},
			),
			{ numRuns: 500 },
		);
	});
});

describe('r15-money F7: one record proves one write whichever credential of the Base URL sent it', () => {
	const withKey = async (apiKey: string, externalId: string) => {
		const [item] = await run(create(externalId), { credentials: { apiKey, baseUrl: BASE_URL } });
		return item;
	};

	it('two member keys, the service answers both with p-1: the first paid, the second unknown', async () => {
		const record = payout('p-1', 'inv-77', new Date().toISOString());
		nock(BASE_URL).post('/payouts').twice().reply(200, record, datedAt(0));
		const first = await withKey('member-A-key', 'inv-77');
		expect(first.paymentOutcome).toBeUndefined();
		expect(first.id).toBe('p-1');
		const second = await withKey('member-B-key', 'inv-77');
		expect(second.paymentOutcome).toBe('unknown');
		expect(String(second.reason ?? second.error ?? '')).toMatch(/one record proves one write/);
	});
});

describe('r15-money F1: without a Date header a record made long before the send is no proof', () => {
	const noDate = {};
	it('a payout of the same External ID made 24 h earlier, answered without a Date: unknown', async () => {
		nock(BASE_URL)
			.post('/payouts')
			.reply(
				200,
				() => payout('p-day', 'inv-24', new Date(Date.now() - 24 * 3_600_000).toISOString()),
				noDate,
			);
		const [item] = await run(create('inv-24'));
		expect(item.paymentOutcome).toBe('unknown');
		expect(JSON.stringify(item)).toMatch(/15 min margin/);
	});

	it('a payout made during the call, answered without a Date: success', async () => {
		nock(BASE_URL)
			.post('/payouts')
			.reply(200, () => payout('p-now', 'inv-25', new Date().toISOString()), noDate);
		const [item] = await run(create('inv-25'));
		expect(item.paymentOutcome).toBeUndefined();
		expect(item.id).toBe('p-now');
	});
});
