import type { IDataObject } from 'n8n-workflow';
import nock from 'nock';

import { forgetAllSentWrites } from '../../nodes/shared/money/write';
import {
	fromCache,
	observeReport,
	forgetSkews,
	skewRangeSince,
} from '../../nodes/shared/money/clock';
import { refusesTaken } from '../../nodes/shared/money/resent';
import { retryClock } from '../../nodes/shared/transport/retry';
import { API_KEY, BASE_URL, runNode } from './helpers/n8n';

/*
 * The fifth outside read of the money module (r5-money, findings 1 to 5 and 7), each case as the
 * reader's script played it (/work/outside/r5-money/f*.js), in our own suite.
 */
beforeAll(() => nock.disableNetConnect());
afterEach(() => {
	nock.cleanAll();
	jest.restoreAllMocks();
});

const CARD = '2200123456789012';

function iso(offsetMs: number): string {
	return new Date(Date.now() + offsetMs).toISOString();
}

function serviceDate(offsetMs = 0): Record<string, string> {
	return { Date: new Date(Date.now() + offsetMs).toUTCString() };
}

function payout(createdAt: string, more: object = {}) {
	return {
		id: 'po_old',
		externalId: 'inv-42',
		status: 'success',
		amountRub: 1500,
		requisiteType: 'card',
		requisite: CARD,
		refundedAt: null,
		failReason: null,
		createdAt,
		...more,
	};
}

const CREATE = {
	resource: 'payout',
	operation: 'create',
	amountRub: '1500',
	requisiteType: 'card',
	requisite: CARD,
	additionalFields: { externalId: 'inv-42' },
};

const credentials = (maxRetryWaitSeconds = 0) => ({
	environment: 'staging',
	baseUrl: BASE_URL,
	apiKey: API_KEY,
	webhookSecret: '',
	maxRetryWaitSeconds,
});

/** Payout Create answered by a gateway's HTML 502 (no Date of the service's). */
async function lostCreate(parameters: IDataObject = CREATE): Promise<IDataObject> {
	nock(BASE_URL).post('/payouts').reply(502, '<html>502</html>');
	const { output } = await runNode({ parameters, continueOnFail: true });
	expect(output[0].json.paymentOutcome).toBe('unknown');
	return output[0].json as IDataObject;
}

async function resolve(item: unknown, maxRetryWaitSeconds = 0): Promise<IDataObject> {
	const { output } = await runNode({
		parameters: { resource: 'payment', operation: 'resolveOutcome', unknownItem: item as string },
		credentials: credentials(maxRetryWaitSeconds),
		continueOnFail: true,
	});
	return output[0].json as IDataObject;
}

/** Moves this machine's clock `ms` ahead (a look made later, at lookAgainAt and after). */
function later(ms: number): void {
	const realNow = Date.now.bind(Date);
	jest.spyOn(Date, 'now').mockImplementation(() => realNow() + ms);
}

describe('F1: a cached Date measures no skew, and the largest skew binds', () => {
	it('an answer with Age, a cache HIT or a Warning is from a cache; a plain one is not', () => {
		expect(fromCache({ Age: '300', Date: 'x' })).toBe(true);
		expect(fromCache({ 'x-cache': 'HIT from proxy' })).toBe(true);
		expect(fromCache({ 'CF-Cache-Status': 'STALE' })).toBe(true);
		expect(fromCache({ warning: '110 - "Response is stale"' })).toBe(true);
		expect(fromCache({ 'x-cache': 'MISS' })).toBe(false);
		expect(fromCache({ date: 'Sat, 28 Nov 2026 20:49:00 GMT' })).toBe(false);
	});

	it('an older payout read through a cache (Date 5 min old, Age 300) is no proof of this write', async () => {
		const item = await lostCreate();
		const older = payout(iso(-120_000));
		later(6 * 60_000);
		nock(BASE_URL)
			.get('/payouts')
			.query((q) => q.externalId === 'inv-42')
			.reply(200, { payouts: [older], total: 1 }, serviceDate());
		nock(BASE_URL)
			.get('/payouts/po_old')
			.reply(200, older, {
				...serviceDate(-300_000),
				Age: '300',
				'Cache-Control': 'max-age=600',
			});
		const out = await resolve(item);
		expect(out.paymentOutcome).toBe('unknown');
	});

	it('without the cache sign, a stale Date among fresh ones cannot pull the skew back: the largest binds', async () => {
		forgetSkews();
		const since = Date.now();
		// Each attempt as the transport keeps it: with when it was sent and read (r13-money F1).
		const now = Date.now();
		const fresh = {
			attempts: [
				{
					sent: true as const,
					status: 200,
					body: {},
					readable: true,
					headers: serviceDate(),
					sentLocal: now,
					answeredLocal: now,
				},
			],
		};
		const stale = {
			attempts: [
				{
					sent: true as const,
					status: 200,
					body: {},
					readable: true,
					headers: serviceDate(-300_000),
					sentLocal: now,
					answeredLocal: now,
				},
			],
		};
		observeReport(BASE_URL, fresh);
		observeReport(BASE_URL, stale);
		const range = skewRangeSince(BASE_URL, since)!;
		expect(range.high).toBeGreaterThan(-2_000);
		expect(range.low).toBeLessThan(-290_000);
	});

	it('a write that measured +0 s and a look whose record read is stale: an older payout stays unknown', async () => {
		const older = payout(iso(-120_000));
		nock(BASE_URL)
			.post('/payouts')
			.reply(500, { errorCode: 'INTERNAL_ERROR', message: 'x' }, serviceDate());
		const { output } = await runNode({ parameters: CREATE, continueOnFail: true });
		const item = output[0].json;
		expect(item.paymentOutcome).toBe('unknown');
		later(6 * 60_000);
		nock(BASE_URL)
			.get('/payouts')
			.query((q) => q.externalId === 'inv-42')
			.reply(200, { payouts: [older], total: 1 });
		// Stale by 5 minutes, no sign of a cache at all.
		nock(BASE_URL).get('/payouts/po_old').reply(200, older, serviceDate(-300_000));
		const out = await resolve(item);
		// Before it was made: the write's own skew (+0 s), the largest, binds.
		expect(out.paymentOutcome).toBe('unknown');
		expect(out.record).toMatchObject({ id: 'po_old' });
	});
});

describe("F4: the skew is measured from the judged attempt's answer, never a 503's before a wait", () => {
	it('a 503 with a Date, a Retry-After wait, then a 200 without Date: the older payout is no proof', async () => {
		let shift = 0;
		const realNow = Date.now.bind(Date);
		jest.spyOn(Date, 'now').mockImplementation(() => realNow() + shift);
		jest.spyOn(retryClock, 'sleep').mockImplementation(async (ms: number) => {
			shift += ms;
		});
		const item = await lostCreate();
		const older = payout(iso(-40_000), { status: 'in_progress' });
		nock(BASE_URL)
			.get('/payouts')
			.query((q) => q.externalId === 'inv-42')
			.reply(200, { payouts: [older], total: 1 });
		nock(BASE_URL)
			.get('/payouts/po_old')
			.reply(
				503,
				{ statusCode: 503, errorCode: 'SERVICE_UNAVAILABLE', message: 'down' },
				{ ...serviceDate(), 'Retry-After': '50' },
			);
		nock(BASE_URL).get('/payouts/po_old').reply(200, older);
		const out = await resolve(item, 60);
		expect(shift).toBeGreaterThanOrEqual(50_000);
		expect(out.paymentOutcome).toBe('unknown');
	});

	it('observeReport reads only the last attempt', () => {
		forgetSkews();
		const report = {
			attempts: [
				{
					sent: true as const,
					status: 503,
					body: { statusCode: 503, errorCode: 'SERVICE_UNAVAILABLE', message: 'down' },
					readable: true,
					headers: serviceDate(),
				},
				{ sent: true as const, status: 200, body: {}, readable: true, headers: {} },
			],
		};
		expect(observeReport(BASE_URL, report, Date.now() + 50_000)).toBeNull();
	});
});

describe("F2: a refusal a re-send's own earlier attempt may cause is unknown", () => {
	const insufficient = {
		statusCode: 422,
		error: 'Unprocessable Entity',
		errorCode: 'INSUFFICIENT_BALANCE',
		message: 'Недостаточно средств',
	};
	const duplicate = {
		statusCode: 400,
		error: 'Bad Request',
		errorCode: 'VALIDATION_ERROR',
		message: ['externalId already exists'],
	};

	async function twoSends(parameters: IDataObject, refusal: IDataObject, status: number) {
		nock(BASE_URL).post('/payouts').reply(504, '<html>504</html>');
		const first = (await runNode({ parameters, continueOnFail: true, executionId: '10' })).output[0]
			.json;
		expect(first.paymentOutcome).toBe('unknown');
		forgetAllSentWrites(); // n8n restarted
		nock(BASE_URL).post('/payouts').reply(status, refusal);
		return (await runNode({ parameters, continueOnFail: true, executionId: '11' })).output[0].json;
	}

	it('a re-run with the External ID (a new derived key) refused INSUFFICIENT_BALANCE: unknown', async () => {
		const second = await twoSends(CREATE, insufficient, 422);
		expect(second.paymentOutcome).toBe('unknown');
		expect(second.errorCode).toBe('OUTCOME_UNKNOWN');
		expect(second.sentWrite).toBeDefined();
		expect(String(second.error ?? second.message)).toMatch(/INSUFFICIENT_BALANCE/);
	});

	it('after a restart under a business key, refused 400 "externalId already exists": unknown', async () => {
		const second = await twoSends({ ...CREATE, idempotencyKey: 'inv-9' }, duplicate, 400);
		expect(second.paymentOutcome).toBe('unknown');
	});

	it('a first send without key or External ID refused INSUFFICIENT_BALANCE stays not_paid', async () => {
		nock(BASE_URL).post('/payouts').reply(422, insufficient);
		const { output } = await runNode({
			parameters: { ...CREATE, additionalFields: {} },
			continueOnFail: true,
		});
		expect(output[0].json.paymentOutcome).toBe('not_paid');
	});

	it('Card Request after a restart under its business key and External ID, refused INSUFFICIENT_BALANCE: unknown', async () => {
		const parameters = {
			resource: 'card',
			operation: 'request',
			externalId: 'emp-7',
			idempotencyKey: 'card-emp-7',
		};
		nock(BASE_URL).post('/cards/request').reply(504, '<html>504</html>');
		const first = (await runNode({ parameters, continueOnFail: true })).output[0].json;
		expect(first.paymentOutcome).toBe('unknown');
		forgetAllSentWrites();
		nock(BASE_URL).post('/cards/request').reply(422, insufficient);
		const second = (await runNode({ parameters, continueOnFail: true })).output[0].json;
		expect(second.paymentOutcome).toBe('unknown');
	});

	it('refusesTaken reads duplicate codes and messages, and nothing else', () => {
		expect(refusesTaken('VALIDATION_ERROR', ['externalId already exists'])).toBe(true);
		expect(refusesTaken('CARD_EXTERNAL_ID_TAKEN')).toBe(true);
		expect(refusesTaken('DUPLICATE_EXTERNAL_ID', 'x')).toBe(true);
		expect(refusesTaken('BAD_REQUEST', 'externalId уже существует')).toBe(true);
		expect(refusesTaken('VALIDATION_ERROR', ['amountRub must be a number'])).toBe(false);
		expect(refusesTaken('INSUFFICIENT_BALANCE', 'Недостаточно средств')).toBe(false);
	});
});

describe('F3: a card is bound by its createdAt, never by assignedAt', () => {
	async function lostCardRequest(): Promise<IDataObject> {
		nock(BASE_URL).post('/cards/request').reply(504, '<html>504</html>');
		const { output } = await runNode({
			parameters: { resource: 'card', operation: 'request', externalId: 'emp-42' },
			continueOnFail: true,
		});
		expect(output[0].json.paymentOutcome).toBe('unknown');
		return output[0].json as IDataObject;
	}

	function cards(record: object) {
		nock(BASE_URL)
			.get('/cards')
			.query((q) => q.externalId === 'emp-42')
			.reply(200, { cards: [record], total: 1 }, serviceDate());
		nock(BASE_URL).get('/cards/card_old').reply(200, record, serviceDate());
	}

	const card = (createdAt: string, assignedAt: string | null) => ({
		id: 'card_old',
		externalId: 'emp-42',
		status: 'assigned',
		maskedPan: '4000 •••• 1111',
		expiry: '12/29',
		createdAt,
		assignedAt,
	});

	it('a card created 10 min before the write, assigned 2 s after it: unknown, saying why', async () => {
		const item = await lostCardRequest();
		cards(card(iso(-600_000), iso(2_000)));
		const out = await resolve(item);
		expect(out.paymentOutcome).toBe('unknown');
		expect(out.reason).toMatch(/assignedAt .* is no proof either way/);
	});

	it('a card created after the write (its queued card) is paid', async () => {
		const item = await lostCardRequest();
		cards(card(iso(1_000), iso(2_000)));
		expect((await resolve(item)).paymentOutcome).toBe('paid');
	});
});

describe('F5: a cancel proven never turns not_paid when the payout comes back', () => {
	async function lostCancel(): Promise<IDataObject> {
		nock(BASE_URL).post('/payouts/po_c1/cancel').reply(504, '<html>504</html>');
		const { output } = await runNode({
			parameters: {
				resource: 'payout',
				operation: 'cancel',
				payoutId: { __rl: true, mode: 'id', value: 'po_c1' },
			},
			continueOnFail: true,
		});
		expect(output[0].json.paymentOutcome).toBe('unknown');
		return output[0].json as IDataObject;
	}
	const base = payout(iso(-60_000), { id: 'po_c1' });

	it('cancelled and refunded, then success again (recharged): unknown, never not_paid', async () => {
		const item = await lostCancel();
		const cancelled = {
			...base,
			status: 'fail',
			failReason: 'cancelled_by_merchant',
			refundedAt: iso(200),
		};
		nock(BASE_URL).get('/payouts/po_c1').reply(200, cancelled, serviceDate());
		expect((await resolve(item)).paymentOutcome).toBe('paid');
		nock(BASE_URL)
			.get('/payouts/po_c1')
			.reply(200, { ...cancelled, status: 'success', completedAt: iso(0) }, serviceDate());
		const again = await resolve(item);
		expect(again.paymentOutcome).toBe('unknown');
		expect(again.reason).toMatch(/contradict/);
	});

	it('a payout made (success) without any cancel mark is still not_paid', async () => {
		const item = await lostCancel();
		nock(BASE_URL)
			.get('/payouts/po_c1')
			.reply(200, { ...base, status: 'success' }, serviceDate());
		expect((await resolve(item)).paymentOutcome).toBe('not_paid');
	});
});

describe('F7: one record proves one write, after a restart too', () => {
	it('two items with one External ID, one payout: after a restart the second is unknown, naming the first', async () => {
		nock(BASE_URL).post('/payouts').times(2).reply(504, '<html>504</html>');
		const { output } = await runNode({ parameters: [CREATE, CREATE], continueOnFail: true });
		const [first, second] = output.map((o) => o.json);
		expect((second.sentWrite as IDataObject).alongside).toHaveLength(1);
		expect((first.sentWrite as IDataObject).alongside).toBeUndefined();
		const made = payout(iso(1_000), { id: 'po_one', status: 'waiting_trader' });
		nock(BASE_URL)
			.get('/payouts')
			.query((q) => q.externalId === 'inv-42')
			.times(2)
			.reply(200, { payouts: [made], total: 1 }, serviceDate());
		nock(BASE_URL).get('/payouts/po_one').times(2).reply(200, made, serviceDate());
		const a = await resolve(first);
		expect(a.paymentOutcome).toBe('paid');
		// The paid text says no more than is known: the window of other processes.
		expect(a.reason).toMatch(/another n8n process/);
		forgetAllSentWrites(); // restart
		const b = await resolve(second);
		expect(b.paymentOutcome).toBe('unknown');
		expect(b.reason).toMatch(/other write of the same request/);
	});

	it('an edited alongside breaks the seal', async () => {
		nock(BASE_URL).post('/payouts').times(2).reply(504, '<html>504</html>');
		const { output } = await runNode({ parameters: [CREATE, CREATE], continueOnFail: true });
		const second = structuredClone(output[1].json);
		delete (second.sentWrite as IDataObject).alongside;
		const out = await resolve(second);
		expect(out.paymentOutcome).not.toBe('paid');
		expect(JSON.stringify(out)).toMatch(/seal/);
	});
});
