import type { IDataObject } from 'n8n-workflow';
import nock from 'nock';

import { inProcessRunner, isolateMoneyTests, madeNow } from './helpers/money';
import { BASE_URL, runTool } from './helpers/n8n';

/*
 * The fifteenth outside read of the money module, its second half (/work/outside/r15-money/
 * f4-f7): Card Request, Card Recharge and Pay QR Code took as proof of this write a record made a
 * day before it, or one the service had already answered to another write of the run. Payout
 * Create had both rules; now every money write that makes a record gets them from its money
 * contract (`made`, money/contract.ts), by one rule (money/write.ts answerProvesOther):
 * - made by this write: a record created before the write was sent (by the measured skew, or
 *   without a Date header by UNDATED_PREDATES_MS on n8n's own clock) is unknown;
 * - one record, one write: a record this process already gave as proof of another write (by Base
 *   URL, operation and record ID) is unknown.
 */
isolateMoneyTests();

const DAY = 24 * 3600e3;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const dated = () => ({ Date: new Date().toUTCString() });

const run = inProcessRunner(15_500);

/** What an output item says of its money: its paymentOutcome, or a success. */
const outcome = (item: IDataObject) => (item.paymentOutcome as string | undefined) ?? 'success';

describe('r15-money F4: Card Request binds its request record', () => {
	const requestCard = {
		resource: 'card',
		operation: 'request',
		externalId: '',
		idempotencyKey: '',
	};

	function answer(requestId: string, requestAt: string, cardAt: string): IDataObject {
		return {
			status: 'assigned',
			card: {
				id: `card-of-${requestId}`,
				externalId: null,
				status: 'assigned',
				maskedPan: '220012******9012',
				expiry: '12/29',
				assignedAt: requestAt,
				createdAt: cardAt,
			},
			request: {
				id: requestId,
				externalId: null,
				status: 'fulfilled',
				cardId: `card-of-${requestId}`,
				createdAt: requestAt,
			},
		};
	}

	it('a request made during the call, its card from stock made a month ago: assigned', async () => {
		nock(BASE_URL)
			.post('/cards/request')
			.reply(200, () => answer('req-1', madeNow(), ago(30 * DAY)), dated());
		const [item] = await run(requestCard);
		expect(outcome(item)).toBe('success');
		expect(item.outcome).toBe('assigned');
	});

	it('a request record made a day before the send (Date header): unknown, naming it', async () => {
		nock(BASE_URL)
			.post('/cards/request')
			.reply(200, () => answer('req-old', ago(DAY), ago(DAY)), dated());
		const [item] = await run(requestCard);
		expect(outcome(item)).toBe('unknown');
		expect(String(item.error)).toMatch(/req-old/);
		expect(item.sentWrite).toBeDefined();
	});

	it('a request record made a day before the send, no Date header: unknown', async () => {
		nock(BASE_URL)
			.post('/cards/request')
			.reply(200, () => answer('req-old', ago(DAY), ago(DAY)));
		const [item] = await run(requestCard);
		expect(outcome(item)).toBe('unknown');
	});

	it('two card requests answered with the same request record: the first assigned, the second unknown', async () => {
		const same = answer('req-1', madeNow(), madeNow());
		nock(BASE_URL).post('/cards/request').times(2).reply(200, same, dated());
		const items = await run([requestCard, requestCard]);
		expect(items.map(outcome)).toEqual(['success', 'unknown']);
	});
});

describe('r15-money F6: Card Recharge binds its recharge record', () => {
	const recharge = {
		resource: 'card',
		operation: 'recharge',
		cardId: { __rl: true, mode: 'id', value: 'card-1' },
		targetAmount: '50',
		idempotencyKey: '',
	};
	const record = (id: string, createdAt: string): IDataObject => ({
		id,
		cardId: 'card-1',
		targetAmount: 50,
		status: 'completed',
		totalDebitUsdt: 52.5,
		createdAt,
	});

	it('a recharge made during the call: a success', async () => {
		nock(BASE_URL)
			.post('/cards/recharge')
			.reply(200, () => record('r-1', madeNow()), dated());
		const [item] = await run(recharge);
		expect(outcome(item)).toBe('success');
	});

	it('a recharge record made a day before the send: unknown', async () => {
		nock(BASE_URL)
			.post('/cards/recharge')
			.reply(200, () => record('r-old', ago(DAY)), dated());
		const [item] = await run(recharge);
		expect(outcome(item)).toBe('unknown');
		expect(String(item.error)).toMatch(/r-old/);
	});

	describe('choice rechargeRecord: the record may leave out its id or createdAt (not shown)', () => {
		const without = (field: string, over: IDataObject) => {
			const rest = { ...over };
			delete rest[field];
			return rest;
		};

		it('no createdAt: bound by its id only (two items answered with r-1: the second unknown)', async () => {
			const same = without('createdAt', record('r-1', madeNow()));
			nock(BASE_URL).post('/cards/recharge').times(2).reply(200, same, dated());
			const items = await run([recharge, recharge]);
			expect(items.map(outcome)).toEqual(['success', 'unknown']);
		});

		it('no id: bound by time only (made a day before the send: unknown)', async () => {
			nock(BASE_URL)
				.post('/cards/recharge')
				.reply(200, () => without('id', record('r-x', ago(DAY))), dated());
			const [item] = await run(recharge);
			expect(outcome(item)).toBe('unknown');
		});

		it('neither: its details and status alone decide, a named window (a success)', async () => {
			const bare = without('id', without('createdAt', record('r-x', madeNow())));
			nock(BASE_URL).post('/cards/recharge').times(2).reply(200, bare, dated());
			const items = await run([recharge, recharge]);
			expect(items.map(outcome)).toEqual(['success', 'success']);
		});
	});

	it('two recharges answered with the same record: the first a success, the second unknown', async () => {
		const same = record('r-1', madeNow());
		nock(BASE_URL).post('/cards/recharge').times(2).reply(200, same, dated());
		const items = await run([recharge, recharge]);
		expect(items.map(outcome)).toEqual(['success', 'unknown']);
	});
});

describe('r15-money F5, F7: Pay QR Code binds the order its accept answered with', () => {
	const pay = (i: number, idempotencyKey = ''): IDataObject => ({
		resource: 'order',
		operation: 'pay',
		qrCode: `QR-${i}`,
		idempotencyKey,
	});
	let quotes = 0;
	function serveQuotes(times: number) {
		nock(BASE_URL)
			.post('/orders/prepare')
			.times(times)
			.reply(200, () => {
				quotes += 1;
				const n = String(quotes).padStart(12, '0');
				return {
					id: `11111111-1111-4111-8111-${n}`,
					amountRub: 1500,
					amountUsdt: 15,
					merchantName: 'Shop',
				};
			});
	}
	const order = (id: string, createdAt: string, over: IDataObject = {}): IDataObject => ({
		id,
		amountUsdt: 15,
		amountRub: 1500,
		status: 'created',
		paymentType: 'nspk',
		paymentUntil: new Date(Date.now() + 600e3).toISOString(),
		merchantName: 'Shop',
		externalOrderId: null,
		completedAt: null,
		failureReason: null,
		createdAt,
		...over,
	});
	const ORDER = '22222222-2222-4222-8222-222222222222';

	it('an order made during the call: paid', async () => {
		serveQuotes(1);
		nock(BASE_URL)
			.post(/\/orders\/accept\//)
			.reply(200, () => order(ORDER, madeNow()), dated());
		const [item] = await run(pay(1));
		expect(outcome(item)).toBe('success');
		expect(item.id).toBe(ORDER);
	});

	it('F7: with the derived key, an order made a day before the send: unknown', async () => {
		serveQuotes(1);
		nock(BASE_URL)
			.post(/\/orders\/accept\//)
			.reply(200, () => order(ORDER, ago(DAY)), dated());
		const [item] = await run(pay(1));
		expect(outcome(item)).toBe('unknown');
		expect(String(item.error)).toContain(ORDER);
	});

	it('F7: two QR codes answered with the same order: the first paid, the second unknown', async () => {
		serveQuotes(2);
		const same = order(ORDER, madeNow());
		nock(BASE_URL)
			.post(/\/orders\/accept\//)
			.times(2)
			.reply(200, same, dated());
		const items = await run([pay(1), pay(2)]);
		expect(items.map(outcome)).toEqual(['success', 'unknown']);
	});

	it('F5: the user key answered with the stored order of another payment (an hour ago, 500 RUB to another shop): unknown, never paid', async () => {
		serveQuotes(1);
		nock(BASE_URL)
			.post(/\/orders\/accept\//)
			.reply(
				200,
				() =>
					order(ORDER, ago(3600e3), {
						status: 'success',
						amountRub: 500,
						amountUsdt: 5,
						merchantName: 'Other shop',
					}),
				dated(),
			);
		const [item] = await run(pay(1, 'INV-9'));
		expect(outcome(item)).toBe('unknown');
	});

	it('F5: the user key answered with a stored order of an hour ago, same amount and merchant: unknown (a re-run, or another payment the key was given to)', async () => {
		serveQuotes(1);
		nock(BASE_URL)
			.post(/\/orders\/accept\//)
			.reply(200, () => order(ORDER, ago(3600e3), { status: 'success' }), dated());
		const [item] = await run(pay(1, 'INV-9'));
		expect(outcome(item)).toBe('unknown');
		expect(item.sentWrite).toBeDefined();
	});

	it("as a tool, the payment reference's stored order of an hour ago, same amount and merchant, is this payment, as the tool's text says", async () => {
		serveQuotes(1);
		const stored = order(ORDER, ago(3600e3), { status: 'success' });
		nock(BASE_URL)
			.post(/\/orders\/accept\//)
			.reply(200, stored, dated());
		nock(BASE_URL).get(`/orders/${ORDER}`).optionally().reply(200, stored, dated());
		const { output } = await runTool({
			parameters: { ...pay(1), agentMayMoveMoney: true, paymentReference: 'INV-11' },
			executionId: '15999',
			sameProcess: true,
		});
		expect(output[0].paymentOutcome).toBeUndefined();
		expect(output[0].id).toBe(ORDER);
	});
});
