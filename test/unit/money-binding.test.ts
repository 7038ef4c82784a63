import nock from 'nock';

import { companyFingerprint, sealOf } from '../../nodes/shared/money';
import { API_KEY, BASE_URL, runNode } from './helpers/n8n';

/*
 * The binding rule (issue 49.1, 49.2): a record proves a write only when it is bound to it: the
 * same company and Base URL, created after the write was sent (by the measured clock skew and a
 * stated margin), every detail proven, and the item sealed by the node. The cases of the seventh
 * outside read, one by one.
 */
beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const CARD = '2200123456789012';
const OTHER_KEY = 'sk_dummy_other_company_0000000000';

/** An HTTP date `offsetMs` from now: the service's clock when it is that far from n8n's. */
function serviceDate(offsetMs: number): string {
	return new Date(Date.now() + offsetMs).toUTCString();
}

function iso(offsetMs: number): string {
	return new Date(Date.now() + offsetMs).toISOString();
}

function payout(createdAt: string, more: object = {}) {
	return {
		id: 'po_1',
		externalId: 'salary-77',
		status: 'success',
		amountRub: 1500,
		requisiteType: 'card',
		// In full: masked digits that agree are no proof of the recipient (r4-money-resolve F6).
		requisite: CARD,
		refundedAt: null,
		failReason: null,
		createdAt,
		...more,
	};
}

/**
 * Payout Create answered by the service's own 500 error: the node's own unknown item. Its answer
 * carries the service's Date (the clock skew measured), unless the case says otherwise; a
 * gateway's page measures nothing (r4-money-resolve F2).
 */
async function lostPayoutCreate(headers: Record<string, string> = { Date: serviceDate(0) }) {
	nock(BASE_URL)
		.post('/payouts')
		.reply(500, { errorCode: 'INTERNAL_ERROR', message: 'upstream timeout' }, headers);
	const { output } = await runNode({
		parameters: {
			resource: 'payout',
			operation: 'create',
			amountRub: '1500',
			requisiteType: 'card',
			requisite: CARD,
			additionalFields: { externalId: 'salary-77' },
		},
		continueOnFail: true,
	});
	expect(output[0].json.paymentOutcome).toBe('unknown');
	return output[0].json as Record<string, unknown>;
}

function listing(records: object[], headers: Record<string, string> = {}) {
	nock(BASE_URL)
		.get('/payouts')
		.query((q) => q.externalId === 'salary-77')
		.reply(200, { payouts: records, total: records.length }, headers);
}

function reading(record: object, headers: Record<string, string> = {}) {
	nock(BASE_URL).get('/payouts/po_1').reply(200, record, headers);
}

async function resolve(item: unknown, credentials?: Record<string, string>) {
	const { output } = await runNode({
		parameters: { resource: 'payment', operation: 'resolveOutcome', unknownItem: item as string },
		...(credentials
			? { credentials: { environment: 'staging', webhookSecret: '', ...credentials } }
			: {}),
	});
	return output[0].json as Record<string, unknown>;
}

async function resolveError(item: unknown, credentials?: Record<string, string>) {
	try {
		await resolve(item, credentials);
	} catch (error) {
		return error as Error;
	}
	throw new Error('Resolve Outcome did not refuse the item');
}

describe('made by this write: a record created before the write was sent is another payment', () => {
	it("last month's paid payout with the same External ID, amount and card is not this write's", async () => {
		const item = await lostPayoutCreate();
		const old = payout(iso(-30 * 86_400_000));
		listing([old]);
		reading(old);
		const out = await resolve(item);
		expect(out.paymentOutcome).toBe('unknown');
		expect(out.reason).toMatch(/created before this write was sent/);
		expect(out.whatToDo).not.toMatch(/Do not send it again/);
		expect(nock.isDone()).toBe(true);
	});

	it('a payout created just after the write was sent is this one: paid', async () => {
		const item = await lostPayoutCreate();
		const made = payout(iso(1_000));
		listing([made]);
		reading(made);
		expect((await resolve(item)).paymentOutcome).toBe('paid');
	});

	it('a card closed 300 days ago carrying the External ID of a card request answered by an HTML 502 is not paid', async () => {
		nock(BASE_URL)
			.post('/cards/request')
			.reply(502, '<html>502</html>', { Date: serviceDate(0) });
		// The gateway's page measures no skew; the service's own answers to the look do.
		const { output } = await runNode({
			parameters: { resource: 'card', operation: 'request', externalId: 'employee-42' },
			continueOnFail: true,
		});
		const item = output[0].json;
		expect(item.paymentOutcome).toBe('unknown');
		const closed = {
			id: 'card_1',
			externalId: 'employee-42',
			status: 'closed',
			createdAt: iso(-300 * 86_400_000),
		};
		nock(BASE_URL)
			.get('/cards')
			.query((q) => q.externalId === 'employee-42')
			.reply(200, { cards: [closed], total: 1 });
		nock(BASE_URL)
			.get('/cards/card_1')
			.reply(200, closed, { Date: serviceDate(0) });
		const out = await resolve(item);
		expect(out.paymentOutcome).toBe('unknown');
		expect(out.reason).toMatch(/created before this write was sent/);
	});

	it("n8n's clock 90 s ahead: the skew measured from the Date header keeps a just-made payout this write's", async () => {
		const behind = { Date: serviceDate(-90_000) };
		const item = await lostPayoutCreate(behind);
		expect((item.sentWrite as Record<string, number>).skewMs).toBeLessThan(-85_000);
		const made = payout(iso(-89_000));
		listing([made], behind);
		reading(made, behind);
		expect((await resolve(item)).paymentOutcome).toBe('paid');
	});

	it('breaking it on purpose: the same payout, created 10 s before the write by the service clock, is not this one', async () => {
		const behind = { Date: serviceDate(-90_000) };
		const item = await lostPayoutCreate(behind);
		const before = payout(iso(-100_000));
		listing([before], behind);
		reading(before, behind);
		expect((await resolve(item)).paymentOutcome).toBe('unknown');
	});

	it('a record that shows no createdAt proves nothing (unknown, createdAt missing)', async () => {
		const item = await lostPayoutCreate();
		const noTime: Record<string, unknown> = payout(iso(0));
		delete noTime.createdAt;
		listing([noTime]);
		reading(noTime);
		const out = await resolve(item);
		expect(out.paymentOutcome).toBe('unknown');
		expect(out.missing).toContain('createdAt');
	});
});

describe('same company and environment', () => {
	it("an unknown item of company A resolved with company B's credential is refused, before any request", async () => {
		const item = await lostPayoutCreate();
		const error = await resolveError(item, { baseUrl: BASE_URL, apiKey: OTHER_KEY });
		expect(error.message).toMatch(/must be bound to this credential/);
		expect(error.message).toMatch(/another company or Base URL/);
		expect(error.message).not.toContain(API_KEY);
		expect(error.message).not.toContain(OTHER_KEY);
	});

	it('the same key at another Base URL is another environment: refused', async () => {
		const item = await lostPayoutCreate();
		const error = await resolveError(item, {
			baseUrl: 'https://sandbox.payments.test',
			apiKey: API_KEY,
		});
		expect(error.message).toMatch(/another company or Base URL/);
	});

	it('the fingerprint names the company without the key: not the key, not its hash alone', () => {
		const print = companyFingerprint(API_KEY, BASE_URL);
		expect(print).toMatch(/^cf1-[0-9a-f]{24}$/);
		expect(print).not.toContain(API_KEY.slice(-8));
		expect(companyFingerprint(OTHER_KEY, BASE_URL)).not.toBe(print);
		expect(companyFingerprint(API_KEY, `${BASE_URL}/`)).toBe(print);
	});
});

describe('an item the node did not make proves nothing', () => {
	it('a made-up {"paymentOutcome":"paid"} is never confirmed paid, and nothing is asked of the service', async () => {
		const out = await resolve({ paymentOutcome: 'paid', externalId: 'salary-77' });
		expect(out.paymentOutcome).toBe('unknown');
		expect(out.reason).toMatch(/proves nothing/);
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('an edited sent write (another amount) is refused: its seal does not hold', async () => {
		const item = await lostPayoutCreate();
		const sent = item.sentWrite as Record<string, Record<string, unknown>>;
		const edited = {
			...item,
			sentWrite: { ...sent, details: { ...sent.details, amountRub: '15' } },
		};
		const error = await resolveError(edited);
		expect(error.message).toMatch(/seal does not hold/);
	});

	it('a sent write a model wrote, without a seal, is refused', async () => {
		const error = await resolveError({
			paymentOutcome: 'unknown',
			sentWrite: {
				operation: 'payout.create',
				sentAt: iso(0),
				identity: 'salary-77',
				details: { amountRub: 1500 },
			},
		});
		expect(error.message).toMatch(/must carry the sentWrite this node sealed/);
	});

	it('a seal made with the right form but another key does not hold', async () => {
		const item = await lostPayoutCreate();
		const sent = { ...(item.sentWrite as Record<string, unknown>) };
		sent.seal = sealOf(OTHER_KEY, sent as never);
		const error = await resolveError({ ...item, sentWrite: sent });
		expect(error.message).toMatch(/seal does not hold/);
	});
});

describe('Resolve → Wait → Resolve on {{ $json }}', () => {
	it('the first look finds nothing (unknown, lookAgainAt); the second look, on that answer as it is, finds the payout: paid', async () => {
		const item = await lostPayoutCreate();
		listing([]);
		const first = await resolve(item);
		expect(first.paymentOutcome).toBe('unknown');
		expect(first.lookAgainAt).not.toBeNull();
		expect(first.sentWrite).toEqual(item.sentWrite);
		const made = payout(iso(1_000));
		listing([made]);
		reading(made);
		const second = await resolve(first);
		expect(second.paymentOutcome).toBe('paid');
		// A decided answer still carries its sent write: resolving it again checks again.
		expect(second.sentWrite).toEqual(item.sentWrite);
	});
});

describe('a listing that omits a detail is read record by record', () => {
	it('a listing without externalId: each record read by its ID, and the one carrying it is paid', async () => {
		const item = await lostPayoutCreate();
		const made = payout(iso(1_000));
		const listed: Record<string, unknown> = { ...made };
		delete listed.externalId;
		listing([listed]);
		reading(made);
		reading(made);
		const out = await resolve(item);
		expect(out.paymentOutcome).toBe('paid');
	});
});

describe('Payout Cancel', () => {
	function cancelAnswered(status: string) {
		nock(BASE_URL)
			.post('/payouts/po_1/cancel')
			.reply(200, payout(iso(-60_000), { status }));
	}

	it('answered 200 with waiting_trader: unknown with a sealed sent write; Resolve within 5 minutes stays unknown', async () => {
		cancelAnswered('waiting_trader');
		const { output } = await runNode({
			parameters: { resource: 'payout', operation: 'cancel', payoutId: 'po_1' },
			continueOnFail: true,
		});
		const item = output[0].json as Record<string, unknown>;
		expect(item.paymentOutcome).toBe('unknown');
		expect((item.sentWrite as Record<string, unknown>).seal).toMatch(/^s1\./);
		reading(payout(iso(-60_000), { status: 'waiting_trader' }));
		const out = await resolve(item);
		expect(out.paymentOutcome).toBe('unknown');
		expect(Date.parse(String(out.lookAgainAt))).toBeGreaterThan(Date.now() + 4 * 60_000);
		// Carried out a moment later: the next look says so.
		reading(
			payout(iso(-60_000), {
				status: 'fail',
				failReason: 'cancelled_by_merchant',
				refundedAt: iso(0),
			}),
		);
		expect((await resolve(out)).paymentOutcome).toBe('paid');
	});
});

describe('a refusal its own earlier attempt may have caused is never not_paid', () => {
	it('Payout Create answered 422 IDEMPOTENCY_KEY_REUSED: unknown, with a sent write', async () => {
		nock(BASE_URL)
			.post('/payouts')
			.reply(422, { errorCode: 'IDEMPOTENCY_KEY_REUSED', message: 'Ключ уже использован' });
		const { output } = await runNode({
			parameters: {
				resource: 'payout',
				operation: 'create',
				amountRub: '1500',
				requisiteType: 'card',
				requisite: CARD,
				idempotencyKey: 'salary-77',
				additionalFields: { externalId: 'salary-77' },
			},
			continueOnFail: true,
		});
		expect(output[0].json.paymentOutcome).toBe('unknown');
		expect(output[0].json.sentWrite).toBeDefined();
	});

	it('Card Request re-run: 409 CARD_EXTERNAL_ID_TAKEN for its own External ID is unknown; Resolve finds the card its earlier attempt made', async () => {
		nock(BASE_URL)
			.post('/cards/request')
			.reply(409, { errorCode: 'CARD_EXTERNAL_ID_TAKEN', message: 'занят' });
		const { output } = await runNode({
			parameters: { resource: 'card', operation: 'request', externalId: 'employee-42' },
			continueOnFail: true,
		});
		const item = output[0].json;
		expect(item.paymentOutcome).toBe('unknown');
		expect(item.paymentOutcome).not.toBe('not_paid');
	});

	it('a 400 BAD_REQUEST whose message says the key was already used: unknown', async () => {
		nock(BASE_URL)
			.post('/cards/request')
			.reply(400, { errorCode: 'BAD_REQUEST', message: 'Idempotency key already used' });
		const { output } = await runNode({
			parameters: { resource: 'card', operation: 'request', idempotencyKey: 'card-emp-42' },
			continueOnFail: true,
		});
		expect(output[0].json.paymentOutcome).toBe('unknown');
	});

	it('a 400 IDEMPOTENCY_KEY_REQUIRED is still a refusal (the key never reached the service): not_paid', async () => {
		nock(BASE_URL)
			.post('/cards/request')
			.reply(400, { errorCode: 'IDEMPOTENCY_KEY_REQUIRED', message: 'нужен ключ' });
		const { output } = await runNode({
			parameters: { resource: 'card', operation: 'request' },
			continueOnFail: true,
		});
		expect(output[0].json.paymentOutcome).toBe('not_paid');
	});
});

describe('Pay QR Code: the clock skew is measured', () => {
	const QUOTE = '0b6a9a52-4f4e-4a8e-9d39-3f1c8f6f2a10';
	const QR = 'https://qr.nspk.ru/AS1000TEST';

	function serve(orderCreatedAt: string, headers: Record<string, string>) {
		nock(BASE_URL)
			.post('/orders/prepare')
			.reply(200, { id: QUOTE, amountRub: 1500, merchantName: 'Coffee Point' }, headers);
		nock(BASE_URL).post(`/orders/accept/${QUOTE}`).reply(
			200,
			{
				id: 'ord_1',
				status: 'created',
				amountRub: 1500,
				merchantName: 'Coffee Point',
				createdAt: orderCreatedAt,
			},
			headers,
		);
	}

	const parameters = {
		resource: 'order',
		operation: 'pay',
		qrCode: QR,
		idempotencyKey: 'fine-2026-0042',
	};

	it("n8n's clock 90 s ahead of the service's: a just-made order is this payment, not an earlier one", async () => {
		serve(iso(-90_000), { Date: serviceDate(-90_000) });
		const { output } = await runNode({ parameters, continueOnFail: true });
		expect(output[0].json.id).toBe('ord_1');
		expect(output[0].json.paymentOutcome).toBeUndefined();
	});

	it('an order 10 minutes older than the send whose details match is unknown, never not_paid (r1-money-resend F5; r15-money F5: under a key set on the node it may be a re-run or another payment the key was given to)', async () => {
		serve(iso(-90_000 - 600_000), { Date: serviceDate(-90_000) });
		const { output } = await runNode({ parameters, continueOnFail: true });
		expect(output[0].json.paymentOutcome).toBe('unknown');
		expect(String(output[0].json.error)).toContain('ord_1');
	});
});
