import type { IDataObject } from 'n8n-workflow';
import nock from 'nock';

import { sealOf } from '../../nodes/shared/money/binding';
import {
	forgetSkews,
	knownSkew,
	observeReport,
	SKEW_KEPT_MS,
} from '../../nodes/shared/money/clock';
import type { Report } from '../../nodes/shared/transport';
import { forgetAllSentWrites } from '../../nodes/shared/money/write';
import {
	datedAt,
	inProcessRunner,
	readerCreate as create,
	readerPayout as payout,
	serviceError,
} from './helpers/money';
import { API_KEY, BASE_URL, runNode } from './helpers/n8n';

/*
 * The fourteenth outside read of the money module (/work/outside/r14-money/):
 * F1  the skew a write sealed was the LAST one its process measured, not the largest, so after a
 *     restart a payout made a minute before the write proved it (a 500 error dated 120 s behind by
 *     another backend; or a cache's stale copy without Age read after a good measure: F1c);
 * F1b in the writer's own process Resolve Outcome dropped the skew its own reads measured once any
 *     records' clock measure was known (a held payout answered 200, an hour old);
 * F2  two items with one External ID and the same details, the second answered with the payout the
 *     first made: both came out plain successes with one payout;
 * F3  a Payout Create answered 200 with a payout created an hour before the write came out a plain
 *     success, though by the binding rule it does not prove this write.
 */
beforeAll(() => nock.disableNetConnect());
beforeEach(() => forgetAllSentWrites());
afterEach(() => nock.cleanAll());

const MINUTE = 60_000;

/** One run of the node in the same n8n process as the runs before it. */
const run = inProcessRunner(14000);

/** The item as another n8n process (a queue-mode worker, after a restart) would have sealed it. */
function fromOtherProcess(item: IDataObject): IDataObject {
	const sent = { ...(item.sentWrite as IDataObject), clock: 'another-process' };
	return { ...item, sentWrite: { ...sent, seal: sealOf(API_KEY, sent) } };
}

/**
 * Resolve Outcome of `item` against one payout under its External ID made `beforeMs` before the
 * write was sent; the service's Dates now are right. `newProcess`: run it as a restarted n8n.
 */
async function resolveAgainst(
	item: IDataObject,
	externalId: string,
	beforeMs: number,
	newProcess: boolean,
): Promise<IDataObject> {
	const sentAt = Date.parse((item.sentWrite as IDataObject).sentAt as string);
	const earlier = payout('p-older', externalId, new Date(sentAt - beforeMs).toISOString());
	nock(BASE_URL)
		.get('/payouts')
		.query(true)
		.reply(200, () => ({ payouts: [earlier], total: 1 }), datedAt(0));
	nock(BASE_URL)
		.get('/payouts/p-older')
		.reply(200, () => earlier, datedAt(0))
		.persist();
	const { output } = await runNode({
		parameters: { resource: 'payment', operation: 'resolveOutcome', unknownItem: item as never },
		continueOnFail: true,
		sameProcess: !newProcess,
	});
	return output[0].json as IDataObject;
}

describe('r14-money F1: a write seals the largest skew its process measured, not the last', () => {
	it('an earlier answer measured ~0 s, the write’s 500 is dated 120 s behind: after a restart a payout made 60 s before the write stays unknown', async () => {
		nock(BASE_URL)
			.post('/payouts')
			.reply(422, serviceError(422, 'INSUFFICIENT_BALANCE'), datedAt(0));
		await run(create('inv-first'));
		nock(BASE_URL)
			.post('/payouts')
			.reply(500, serviceError(500, 'INTERNAL_ERROR'), datedAt(-120_000));
		const [item] = await run(create('inv-77'));
		expect(item.paymentOutcome).toBe('unknown');
		// Sealed: the largest upper bound measured (the refusal's, ~0 s), not the write's -120 s.
		expect((item.sentWrite as IDataObject).skewMs as number).toBeGreaterThan(-5_000);
		const out = await resolveAgainst(fromOtherProcess(item), 'inv-77', MINUTE, true);
		expect(out.paymentOutcome).toBe('unknown');
		expect(out.reason).toMatch(/created before this write was sent/);
	});

	it('F1c: a good measure, then a cache’s copy 5 min old without Age, then the write’s answer lost: a payout made 4 min before stays unknown after a restart', async () => {
		nock(BASE_URL)
			.post('/payouts')
			.reply(422, serviceError(422, 'INSUFFICIENT_BALANCE'), datedAt(0));
		await run(create('inv-first'));
		// Get Many lists a failed payout without refundedAt, so it reads it by its ID: that read is
		// served by a cache with its stored Date, 5 min old, and no Age header.
		const failed = {
			...payout('p-failed', 'x-1', new Date(Date.now() - 6 * MINUTE).toISOString()),
			status: 'fail',
			failReason: 'timeout',
		};
		const listed: IDataObject = { ...failed };
		delete listed.refundedAt;
		nock(BASE_URL)
			.get('/payouts')
			.query(true)
			.reply(200, { payouts: [listed], total: 1 }, datedAt(0));
		nock(BASE_URL)
			.get('/payouts/p-failed')
			.reply(200, failed, datedAt(-5 * MINUTE));
		const [listedItem] = await run({
			resource: 'payout',
			operation: 'getMany',
			returnAll: true,
			limit: 50,
			filters: {},
		});
		expect(listedItem.id).toBe('p-failed');
		expect(nock.isDone()).toBe(true);
		nock(BASE_URL).post('/payouts').reply(504, '<html>504 Gateway Time-out</html>');
		const [item] = await run(create('inv-78'));
		expect(item.paymentOutcome).toBe('unknown');
		expect((item.sentWrite as IDataObject).skewMs as number).toBeGreaterThan(-5_000);
		const out = await resolveAgainst(fromOtherProcess(item), 'inv-78', 4 * MINUTE, true);
		expect(out.paymentOutcome).toBe('unknown');
	});

	it('control: every answer dated right, a payout made 60 s before the write stays unknown and the write’s own payout is paid', async () => {
		nock(BASE_URL).post('/payouts').reply(500, serviceError(500, 'INTERNAL_ERROR'), datedAt(0));
		const [item] = await run(create('inv-79'));
		expect(
			(await resolveAgainst(fromOtherProcess(item), 'inv-79', MINUTE, true)).paymentOutcome,
		).toBe('unknown');
		const sentAt = Date.parse((item.sentWrite as IDataObject).sentAt as string);
		const own = payout('p-own', 'inv-79', new Date(sentAt + 50).toISOString());
		nock(BASE_URL)
			.get('/payouts')
			.query(true)
			.reply(200, { payouts: [own], total: 1 }, datedAt(0));
		nock(BASE_URL).get('/payouts/p-own').reply(200, own, datedAt(0)).persist();
		const { output } = await runNode({
			parameters: {
				resource: 'payment',
				operation: 'resolveOutcome',
				unknownItem: fromOtherProcess(item) as never,
			},
			continueOnFail: true,
		});
		expect(output[0].json.paymentOutcome).toBe('paid');
	});
});

describe('r14-money F1b: in the writer’s process Resolve Outcome keeps the skew its own reads measured', () => {
	it('a held payout an hour old was answered 200 (every writer answer 120 s behind): a payout made 60 s before the write stays unknown', async () => {
		nock(BASE_URL)
			.post('/payouts')
			.reply(
				200,
				() => payout('p-held', 'inv-held', new Date(Date.now() - 60 * MINUTE).toISOString()),
				datedAt(-120_000),
			);
		await run(create('inv-held'));
		nock(BASE_URL)
			.post('/payouts')
			.reply(500, serviceError(500, 'INTERNAL_ERROR'), datedAt(-120_000));
		const [item] = await run(create('inv-80'));
		expect(item.paymentOutcome).toBe('unknown');
		// The writer measured only -120 s: the look's own reads (dated right) must count.
		const out = await resolveAgainst(item, 'inv-80', MINUTE, false);
		expect(out.paymentOutcome).toBe('unknown');
		expect(out.reason).toMatch(/created before this write was sent/);
	});
});

describe('r14-money F2: one record answered to two writes proves only the first', () => {
	it('two items, one External ID and the same details, the second answered with the first’s payout: the second is unknown', async () => {
		const held = new Map<string, IDataObject>();
		let posts = 0;
		nock(BASE_URL)
			.post('/payouts')
			.times(2)
			.reply(
				200,
				(_uri, body) => {
					posts += 1;
					const asked = body as IDataObject;
					const id = String(asked.externalId);
					if (!held.has(id)) held.set(id, payout(`p-${posts}`, id, new Date().toISOString()));
					return held.get(id) as IDataObject;
				},
				datedAt(0),
			);
		const [first, second] = await run([create('INV-7'), create('INV-7')]);
		expect(posts).toBe(2);
		expect(first.id).toBe('p-1');
		expect(first.paymentOutcome).toBeUndefined();
		expect(second.paymentOutcome).toBe('unknown');
		expect(String(second.error ?? second.message)).toMatch(/p-1/);
		expect(second.sentWrite).toBeDefined();
		// Resolve Outcome agrees: the record is the first write's.
		const out = await resolveAgainst(second, 'INV-7', 0, false);
		expect(out.paymentOutcome).toBe('unknown');
	});

	it('a later run in the same process answered with the payout an earlier run’s write holds: unknown, naming it', async () => {
		const made = payout('p-9', 'INV-9', new Date().toISOString());
		nock(BASE_URL)
			.post('/payouts')
			.times(2)
			.reply(200, () => made, datedAt(0));
		const [first] = await run(create('INV-9'));
		expect(first.id).toBe('p-9');
		const [again] = await run(create('INV-9'));
		expect(again.paymentOutcome).toBe('unknown');
		expect(String(again.error ?? again.message)).toMatch(/p-9/);
	});
});

describe('r14-money F3: a 200 answered with a payout made before the write does not prove it', () => {
	it('the payout the service holds under the External ID, created an hour before: unknown, naming the earlier record', async () => {
		nock(BASE_URL)
			.post('/payouts')
			.reply(
				200,
				() => payout('p-old', 'inv-90', new Date(Date.now() - 60 * MINUTE).toISOString()),
				datedAt(0),
			);
		const [item] = await run(create('inv-90'));
		expect(item.paymentOutcome).toBe('unknown');
		const said = String(item.error ?? item.message);
		expect(said).toMatch(/p-old/);
		expect(said).toMatch(/created before this write was sent/);
		expect(item.sentWrite).toBeDefined();
	});

	it('control: a payout created as the write was received is a plain success', async () => {
		nock(BASE_URL)
			.post('/payouts')
			.reply(200, () => payout('p-new', 'inv-91', new Date().toISOString()), datedAt(0));
		const [item] = await run(create('inv-91'));
		expect(item.paymentOutcome).toBeUndefined();
		expect(item.id).toBe('p-new');
	});
});

describe('r14-money F1: the largest skew kept, within its window and its memory bound', () => {
	const URL = 'https://clock.test';
	/** One answer dated `dateMs`, sent and read at `localMs` (its upper bound: Date + 1 s − local). */
	const answer = (dateMs: number, localMs: number): Report => ({
		attempts: [
			{
				sent: true,
				status: 200,
				body: {},
				readable: true,
				headers: { Date: new Date(dateMs).toUTCString() },
				sentLocal: localMs,
				answeredLocal: localMs,
			},
		],
	});
	afterEach(() => forgetSkews());

	it('sixty later answers each further behind: the first, largest skew still binds; gone only past the window', () => {
		const t0 = Math.floor(Date.now() / 1000) * 1000;
		observeReport(URL, answer(t0, t0), t0);
		for (let k = 1; k <= 60; k++) observeReport(URL, answer(t0 - k * 1000, t0), t0 + k);
		expect(knownSkew(URL, t0 + 100)).toBe(1000);
		// A later, larger one replaces it.
		observeReport(URL, answer(t0 + 5000, t0 + 100), t0 + 100);
		expect(knownSkew(URL, t0 + 200)).toBe(5900);
		// Past the window of every measure: none.
		expect(knownSkew(URL, t0 + 200 + SKEW_KEPT_MS)).toBeNull();
	});

	it('the largest expires with its window: the next largest measured after it binds', () => {
		const t0 = Math.floor(Date.now() / 1000) * 1000;
		observeReport(URL, answer(t0 + 9000, t0), t0);
		observeReport(URL, answer(t0 - 3000, t0 + 1000), t0 + 1000);
		observeReport(URL, answer(t0 - 9000, t0 + 2000), t0 + 2000);
		expect(knownSkew(URL, t0 + 3000)).toBe(10_000);
		expect(knownSkew(URL, t0 + 500 + SKEW_KEPT_MS)).toBe(-3000);
	});
});
