import type { IDataObject } from 'n8n-workflow';
import nock from 'nock';

import { forgetAllSentWrites } from '../../nodes/shared/money/write';
import { sealOf } from '../../nodes/shared/money/binding';
import { freshRefusal } from '../../nodes/shared/money/resent';
import { API_KEY, BASE_URL, runNode } from './helpers/n8n';
import { inProcessRunner } from './helpers/money';

/*
 * The seventh outside read of the money module, round r7-money-a (Payout Create and Resolve
 * Outcome), each case as the reader's script played it (/work/outside/r7-money-a/f*.js).
 */
beforeAll(() => nock.disableNetConnect());
beforeEach(() => forgetAllSentWrites());
afterEach(() => {
	nock.cleanAll();
	jest.restoreAllMocks();
});

const CARD = '2200123456789012';
const iso = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
const dated = (offsetMs = 0) => ({ Date: new Date(Date.now() + offsetMs).toUTCString() });

const CREATE = {
	resource: 'payout',
	operation: 'create',
	amountRub: '1500',
	requisiteType: 'card',
	requisite: CARD,
	additionalFields: { externalId: 'inv-42' },
};

function payout(id: string, createdAt: string, more: object = {}) {
	return {
		id,
		externalId: 'inv-42',
		status: 'waiting_trader',
		amountRub: 1500,
		requisiteType: 'card',
		requisite: CARD,
		refundedAt: null,
		failReason: null,
		createdAt,
		...more,
	};
}

const runInProcess = inProcessRunner(2000);

/** Each call a new execution in this n8n process (its own derived Idempotency-Key). */
async function create(parameters: IDataObject = CREATE): Promise<IDataObject> {
	return (await runInProcess(parameters))[0];
}

/** An answered payout under another External ID: measures the service's clocks. */
async function warm(dateOffsetMs = 0, createdOffsetMs = 0): Promise<void> {
	nock(BASE_URL)
		.post('/payouts')
		.reply(
			200,
			() => payout('po_warm', iso(createdOffsetMs), { externalId: 'warm' }),
			dated(dateOffsetMs),
		);
	const out = await create({ ...CREATE, additionalFields: { externalId: 'warm' } });
	if (createdOffsetMs < dateOffsetMs - 5_000) {
		// r14-money F3: a payout dated more than the margin before the write as the Date measured
		// it (a proxy ahead looks the same as a payout held from before) is no proof of it.
		expect(out.paymentOutcome).toBe('unknown');
		expect(String(out.error)).toMatch(/po_warm.*created before this write was sent/);
	} else if (createdOffsetMs > dateOffsetMs + 5_000) {
		// r17-money F1: a payout dated more than the margin after the Date (a proxy behind the
		// records' clock looks the same as a local time labelled UTC) is no proof of it either,
		// as Resolve Outcome reads it; its createdAt still raises the sealed skew (r8-money F1).
		expect(out.paymentOutcome).toBe('unknown');
		expect(String(out.error)).toMatch(/po_warm.*later than the service's clock/);
	} else {
		expect(out.id).toBe('po_warm');
	}
}

async function lost(): Promise<IDataObject> {
	nock(BASE_URL).post('/payouts').reply(504, '<html>504</html>');
	const item = await create();
	expect(item.paymentOutcome).toBe('unknown');
	return item;
}

function found(records: IDataObject[], dateOffsetMs = 0): void {
	nock(BASE_URL)
		.get('/payouts')
		.query(true)
		.reply(200, { payouts: records, total: records.length }, dated(dateOffsetMs));
	for (const record of records) {
		nock(BASE_URL)
			.get(`/payouts/${String(record.id)}`)
			.reply(200, record, dated(dateOffsetMs));
	}
}

async function resolve(item: IDataObject): Promise<IDataObject> {
	const { output } = await runNode({
		parameters: { resource: 'payment', operation: 'resolveOutcome', unknownItem: item as never },
		continueOnFail: true,
		sameProcess: true,
	});
	return output[0].json as IDataObject;
}

/** The item as another n8n process (a queue-mode worker) would have sealed it. */
function fromOtherProcess(item: IDataObject): IDataObject {
	const sent = { ...(item.sentWrite as IDataObject), clock: 'another-process' };
	return { ...item, sentWrite: { ...sent, seal: sealOf(API_KEY, sent) } };
}

describe('F1, F7: after a possible earlier attempt, only a refusal it cannot cause is not paid', () => {
	const refusals: [number, string, unknown][] = [
		[400, 'VALIDATION_ERROR', ['externalId должен быть уникальным']],
		[422, 'UNPROCESSABLE', 'Выплата с таким externalId уже создана'],
		[422, 'UNPROCESSABLE', 'Payout with this externalId has already been created'],
		[400, 'BAD_REQUEST', 'Выплата inv-42 уже есть'],
		[422, 'PAYOUT_EXTERNAL_ID_EXISTS', 'Payout inv-42 exists'],
		[422, 'UNPROCESSABLE', 'Запрос с этим Idempotency-Key уже обработан'],
	];
	it.each(refusals)('%s %s %j is unknown with its sentWrite', async (status, code, message) => {
		nock(BASE_URL)
			.post('/payouts')
			.reply(status, { statusCode: status, error: 'Error', errorCode: code, message }, dated());
		const item = await create();
		expect(item.paymentOutcome).toBe('unknown');
		expect(item.sentWrite).toBeDefined();
	});

	const fresh: [number, string, unknown][] = [
		[403, 'PERMISSION_DENIED', 'Нет прав'],
		[401, 'INVALID_API_KEY', 'bad key'],
		[400, 'PAYOUT_REQUISITE_INVALID', 'bad card'],
		[400, 'VALIDATION_ERROR', ['amountRub must be a positive number']],
	];
	it.each(fresh)('%s %s %j is not paid', async (status, code, message) => {
		nock(BASE_URL)
			.post('/payouts')
			.reply(status, { statusCode: status, error: 'Error', errorCode: code, message }, dated());
		expect((await create()).paymentOutcome).toBe('not_paid');
	});

	it('a validation naming another field but the External ID value is no refusal of this request alone', () => {
		const body = { amountRub: 1500, requisite: CARD, externalId: 'inv-42' };
		expect(freshRefusal([], 400, 'X', ['amountRub too big'], body, 'externalId')).toBe(true);
		expect(freshRefusal([], 400, 'X', ['amountRub for inv-42 taken'], body, 'externalId')).toBe(
			false,
		);
		expect(freshRefusal([], 400, 'X', ['значение уже есть'], body, 'externalId')).toBe(false);
		expect(freshRefusal([], 422, 'X', 'amountRub: key reused', body, 'externalId')).toBe(false);
	});

	// A refusal the document lists (outside r21-money F3: UNPROCESSABLE names no condition checked
	// before acting, so it is now unknown; the point here is the first send, not the code).
	it('without an External ID or key, a first send refusal stays not paid', async () => {
		nock(BASE_URL)
			.post('/payouts')
			.reply(
				422,
				{ statusCode: 422, error: 'x', errorCode: 'PAYOUT_ACTIVE_LIMIT', message: 'nope' },
				dated(),
			);
		const out = await create({ ...CREATE, additionalFields: {} });
		expect(out.paymentOutcome).toBe('not_paid');
	});
});

describe('F8, F5: every unknown of a money write carries its sentWrite', () => {
	it('a 202 {"status":"accepted"} with no payout record is unknown with sentWrite', async () => {
		nock(BASE_URL)
			.post('/payouts')
			.reply(202, { status: 'accepted', message: 'Заявка принята' }, dated());
		const item = await create();
		expect(item.paymentOutcome).toBe('unknown');
		expect(item.sentWrite).toBeDefined();
	});

	it('a 200 whose record spells the External ID its own way is unknown with sentWrite', async () => {
		nock(BASE_URL)
			.post('/payouts')
			.reply(200, payout('po_1', iso(0), { externalId: 'INV-42' }), dated());
		const item = await create({
			...CREATE,
			additionalFields: { externalId: 'inv-42', bankId: 'tbank' },
		});
		expect(item.paymentOutcome).toBe('unknown');
		expect(item.sentWrite).toBeDefined();
	});
});

describe('F6, F6b: one record proves one write, the in-process later writes included', () => {
	it('a record answered 200 to a later write does not prove the earlier lost one', async () => {
		await warm();
		const first = await lost();
		nock(BASE_URL)
			.post('/payouts')
			.reply(200, () => payout('po_R', iso(0)), dated());
		const second = await create();
		expect(second.id).toBe('po_R');
		found([payout('po_R', iso(0))]);
		const out = await resolve(first);
		expect(out.paymentOutcome).toBe('unknown');
	});

	it('both answers lost: in this process the first write knows the later one', async () => {
		await warm();
		const first = await lost();
		const second = await lost();
		expect(second.sentWrite).toBeDefined();
		found([payout('po_R', iso(1_000))]);
		const out = await resolve(first);
		expect(out.paymentOutcome).toBe('unknown');
		expect(out.reason).toMatch(/other write/);
	});
});

describe('F3: two records that are both this write are both named', () => {
	it('paid, with matchingPayouts and a warning that money may have moved twice', async () => {
		await warm();
		const item = await lost();
		found([payout('po_A', iso(500)), payout('po_B', iso(600))]);
		const out = await resolve(item);
		expect(out.paymentOutcome).toBe('paid');
		expect((out.matchingPayouts as IDataObject[]).map((r) => r.id)).toEqual(['po_A', 'po_B']);
		expect(out.warning).toMatch(/MONEY_MAY_HAVE_MOVED_MORE_THAN_ONCE/);
		expect(out.whatToDo).not.toBe('Nothing: it was made. Do not send it again.');
	});
});

describe('F2: the write is placed in service time by its own writer', () => {
	it("another process's resolve uses the writer's sealed skew only", async () => {
		await warm(60_000, 60_000);
		const item = fromOtherProcess(await lost());
		forgetAllSentWrites();
		found([payout('po_1', iso(61_000))], 60_000);
		expect((await resolve(item)).paymentOutcome).toBe('paid');
	});

	it('a writer that measured no skew: no record proves the write in another process', async () => {
		const item = fromOtherProcess(await lost());
		expect((item.sentWrite as IDataObject).skewMs).toBeNull();
		forgetAllSentWrites();
		await warm();
		found([payout('po_1', iso(1_000))]);
		expect((await resolve(item)).paymentOutcome).toBe('unknown');
	});
});

describe('F4: a Date header from another clock (a proxy)', () => {
	// r8-money F1: a records' clock measure (createdAt against the send) may be a replayed record's,
	// far too low, so it only raises the Date's skew and never corrects a proxy ahead: the write's
	// own payout is not proved then, the window docs/assumptions.md names (dateClock).
	it('proxy 30 s ahead: the write stays unknown, the named window (never paid by a lowered skew)', async () => {
		await warm(30_000, 0);
		const item = await lost();
		expect((item.sentWrite as IDataObject).skewMs as number).toBeGreaterThanOrEqual(29_000);
		found([payout('po_1', iso(500))], 30_000);
		expect((await resolve(item)).paymentOutcome).toBe('unknown');
	});

	it('proxy 30 s behind: the records clock raises the sealed skew to its own', async () => {
		await warm(-30_000, 0);
		const item = await lost();
		const skew = (item.sentWrite as IDataObject).skewMs as number;
		expect(skew).toBeGreaterThanOrEqual(-1_000);
		expect(skew).toBeLessThan(5_000);
	});

	it('proxy 30 s behind: a payout made 20 s before the write does not prove it', async () => {
		await warm(-30_000, 0);
		const item = await lost();
		found([payout('po_old', iso(-20_000), { status: 'success' })], -30_000);
		expect((await resolve(item)).paymentOutcome).toBe('unknown');
	});
});
