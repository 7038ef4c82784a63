import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { CONFLICT, MONEY } from '../../nodes/CompanyPayments/common/words';
import { BASE_URL, runNode, runNodeError, runTool } from './helpers/n8n';

/*
 * Outside round r1-money-resend: a re-send is the identical request, a write is never
 * sent again unless the document promises replay by key, and a refusal this item's own earlier
 * attempt can cause is never not_paid. Each case is what a user of the node would check: how many
 * requests reached the service, and what the item's output says.
 */

const QUOTE_A = '3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b';
const QUOTE_B = '9a7b1c2d-3e4f-4a6b-8c1e-5d4a3f2b4e6f';
const QR = 'https://qr.nspk.ru/AS10001?type=02&sum=150000&cur=RUB';
const PAYOUT_ID = 'po_7c1d2e3f';
/** A business reference the user maps to Idempotency Key and External ID. */
const PAYROLL_LINE = 'payroll-line-42';

const reset = (): Error => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
const refusal = (status: number, errorCode: string): IDataObject => ({
	statusCode: status,
	error: 'Error',
	errorCode,
	message: 'отказ',
});
const order = (id: string, extra: IDataObject = {}): IDataObject => ({
	id,
	status: 'created',
	amountRub: 1500,
	amountUsdt: 16.5,
	merchantName: 'Кофейня',
	createdAt: new Date().toISOString(),
	...extra,
});
const quote = (id: string): IDataObject => ({
	id,
	amountRub: 1500,
	amountUsdt: 16.5,
	merchantName: 'Кофейня',
	createdAt: new Date().toISOString(),
});

/** Counts the requests to one path; each is answered by `answer` (its number from 1). */
function serve(
	method: 'post' | 'get',
	path: string,
	answer: (n: number) => [number, IDataObject | string, IDataObject?] | Error,
): IDataObject[] {
	const seen: IDataObject[] = [];
	const scope = nock(BASE_URL).persist();
	const interceptor = method === 'post' ? scope.post(path) : scope.get(path);
	interceptor.reply(function (_uri, body, callback) {
		seen.push({ body, key: this.req.headers['idempotency-key'] });
		const reply = answer(seen.length);
		if (reply instanceof Error) callback(reply, [500, '']);
		else callback(null, [reply[0], reply[1], (reply[2] ?? {}) as Record<string, string>]);
	});
	return seen;
}

const accept = (quoteId: string, more: IDataObject = {}): IDataObject => ({
	resource: 'order',
	operation: 'accept',
	quoteId,
	...more,
});
const pay = (more: IDataObject = {}): IDataObject => ({
	resource: 'order',
	operation: 'pay',
	qrCode: QR,
	...more,
});
const payout = (more: IDataObject = {}): IDataObject => ({
	resource: 'payout',
	operation: 'create',
	amountRub: 50000,
	requisiteType: 'card',
	requisite: '2200123456789012',
	...more,
});

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe('50.1 Accept Quote: a re-send of its own earlier attempt is never not_paid', () => {
	it.each([
		[404, 'QUOTE_NOT_FOUND'],
		[400, 'QUOTE_EXPIRED'],
	])(
		'first answer lost, Retry On Fail re-sends and the spent quote is answered %s %s: unknown, not not_paid',
		async (status, code) => {
			const seen = serve('post', `/orders/accept/${QUOTE_A}`, (n) =>
				n === 1 ? reset() : [status, refusal(status, code)],
			);
			const first = await runNode({ parameters: accept(QUOTE_A), continueOnFail: true });
			expect(first.output[0].json.paymentOutcome).toBe('unknown');
			const sentBefore = seen.length;
			const again = await runNode({
				parameters: accept(QUOTE_A),
				continueOnFail: true,
				sameProcess: true,
			});
			expect(seen.length).toBeGreaterThan(sentBefore);
			expect(again.output[0].json.paymentOutcome).toBe('unknown');
			expect(again.output[0].json.errorCode).toBe('OUTCOME_UNKNOWN');
			expect(again.output[0].json.sentWrite).toBeDefined();
		},
	);

	it('the first send of a quote refused QUOTE_EXPIRED is still not_paid', async () => {
		serve('post', `/orders/accept/${QUOTE_A}`, () => [400, refusal(400, 'QUOTE_EXPIRED')]);
		const { output } = await runNode({ parameters: accept(QUOTE_A), continueOnFail: true });
		expect(output[0].json.paymentOutcome).toBe('not_paid');
	});

	it('an item already paid is not sent again by Retry On Fail (t1c): its order comes back', async () => {
		const seenA = serve('post', `/orders/accept/${QUOTE_A}`, (n) =>
			n === 1 ? [200, order('ord_A')] : [404, refusal(404, 'QUOTE_NOT_FOUND')],
		);
		const seenB = serve('post', `/orders/accept/${QUOTE_B}`, (n) =>
			n === 1 ? reset() : [200, order('ord_B')],
		);
		const parameters = [accept(QUOTE_A), accept(QUOTE_B)];
		const failed = await runNodeError({ parameters });
		expect(failed.message).toMatch(/^OUTCOME_UNKNOWN/);
		const retried = await runNode({ parameters, sameProcess: true });
		expect(seenA).toHaveLength(1);
		expect(seenB.length).toBeGreaterThan(1);
		expect(retried.output.map((item) => item.json.id)).toEqual(['ord_A', 'ord_B']);
	});
});

describe('50.2 a write the document promises no replay for is never sent again, not even after a 429', () => {
	it("Card Request answered the service's own 429 (Retry-After: 1): sent once, not_paid, Retry-After in the output", async () => {
		const seen = serve('post', '/cards/request', () => [
			429,
			refusal(429, 'RATE_LIMITED'),
			{ 'Retry-After': '1' },
		]);
		const { output } = await runNode({
			parameters: { resource: 'card', operation: 'request' },
			continueOnFail: true,
		});
		expect(seen).toHaveLength(1);
		expect(output[0].json.paymentOutcome).toBe('not_paid');
		expect(output[0].json.retryAfter).toBe('1');
	});

	it("Payout Create answered the service's own 429: sent once, not_paid", async () => {
		const seen = serve('post', '/payouts', () => [
			429,
			refusal(429, 'RATE_LIMITED'),
			{ 'Retry-After': '1' },
		]);
		const { output } = await runNode({ parameters: payout(), continueOnFail: true });
		expect(seen).toHaveLength(1);
		expect(output[0].json.paymentOutcome).toBe('not_paid');
	});

	it('Accept Quote (replay promised) is still sent again after a 429', async () => {
		const seen = serve('post', `/orders/accept/${QUOTE_A}`, (n) =>
			n === 1 ? [429, refusal(429, 'RATE_LIMITED'), { 'Retry-After': '0' }] : [200, order('ord_A')],
		);
		const { output } = await runNode({ parameters: accept(QUOTE_A) });
		expect(seen).toHaveLength(2);
		expect(output[0].json.id).toBe('ord_A');
	});
});

describe('50.3 the unknown outcome says that a retried execution is a new request', () => {
	it('names the new execution ID of a retried execution', async () => {
		serve('post', '/payouts', () => reset());
		const error = await runNodeError({ parameters: payout() });
		expect(String(error.description)).toMatch(
			/A Retry of this execution .* under a new execution ID, so the derived Idempotency-Keys change and an item already paid, or whose outcome is unknown, may be paid again/,
		);
	});
});

describe('50.4/5/9 an order answered under this key is judged by its details, never by a clock', () => {
	const old = new Date(Date.now() - 60 * 60_000).toISOString();

	it('Pay QR Code re-run in a new process with the key set: the stored order of the same amount and merchant (an hour old) is unknown, never not_paid (r15-money F5: it may be another payment the key was given to)', async () => {
		serve('post', '/orders/prepare', () => [200, quote(QUOTE_B)]);
		serve('post', `/orders/accept/${QUOTE_B}`, () => [200, order('ord_A', { createdAt: old })]);
		const { output } = await runNode({
			parameters: pay({ idempotencyKey: 'invoice-77' }),
			continueOnFail: true,
		});
		expect(output[0].json.paymentOutcome).toBe('unknown');
		expect(String(output[0].json.error)).toContain('ord_A');
		expect(output[0].json.sentWrite).toBeDefined();
	});

	it('Pay QR Code: a stored order of another amount is not called paid nor not_paid from a clock: unknown', async () => {
		serve('post', '/orders/prepare', () => [200, quote(QUOTE_B)]);
		serve('post', `/orders/accept/${QUOTE_B}`, () => [
			200,
			order('ord_A', { amountRub: 990, createdAt: old }),
		]);
		const { output } = await runNode({
			parameters: pay({ idempotencyKey: 'invoice-77' }),
			continueOnFail: true,
		});
		expect(output[0].json.paymentOutcome).toBe('unknown');
		expect(output[0].json.id).toBeUndefined();
	});

	it('Accept Quote with the key set, a service clock 3 minutes behind and no Date header: one accept, one order, paid', async () => {
		const behind = new Date(Date.now() - 3 * 60_000).toISOString();
		const seen = serve('post', `/orders/accept/${QUOTE_A}`, () => [
			200,
			order('ord_A', { createdAt: behind }),
		]);
		const { output } = await runNode({
			parameters: accept(QUOTE_A, { idempotencyKey: 'invoice-78' }),
			continueOnFail: true,
		});
		expect(seen).toHaveLength(1);
		expect(output[0].json.paymentOutcome).toBeUndefined();
		expect(output[0].json.id).toBe('ord_A');
	});
});

describe('50.6/7/8 a refusal its own earlier attempt can cause is unknown when the item may have been sent before', () => {
	it('Pay QR Code: paid fine, answer lost, re-run (new execution, same process) refused FINE_ALREADY_PAID: unknown', async () => {
		let paid = false;
		serve('post', '/orders/prepare', () =>
			paid ? [422, refusal(422, 'FINE_ALREADY_PAID')] : [200, quote(QUOTE_A)],
		);
		serve('post', `/orders/accept/${QUOTE_A}`, () => {
			paid = true;
			return reset();
		});
		const first = await runNode({
			parameters: pay(),
			continueOnFail: true,
			executionId: '501',
		});
		expect(first.output[0].json.paymentOutcome).toBe('unknown');
		const rerun = await runNode({
			parameters: pay(),
			continueOnFail: true,
			executionId: '502',
			sameProcess: true,
		});
		expect(rerun.output[0].json.paymentOutcome).toBe('unknown');
		expect(rerun.output[0].json.sentWrite).toBeDefined();
	});

	it('Pay QR Code in a new process with the key set: FINE_ALREADY_PAID is unknown', async () => {
		serve('post', '/orders/prepare', () => [422, refusal(422, 'FINE_ALREADY_PAID')]);
		const { output } = await runNode({
			parameters: pay({ idempotencyKey: 'fine-18810177' }),
			continueOnFail: true,
		});
		expect(output[0].json.paymentOutcome).toBe('unknown');
	});

	it('Pay QR Code never sent before: FINE_ALREADY_PAID is not_paid', async () => {
		serve('post', '/orders/prepare', () => [422, refusal(422, 'FINE_ALREADY_PAID')]);
		const { output } = await runNode({ parameters: pay(), continueOnFail: true });
		expect(output[0].json.paymentOutcome).toBe('not_paid');
	});

	it('Payout Create re-run in a new process with key and External ID set, refused PAYOUT_REQUISITE_COOLDOWN: unknown', async () => {
		serve('post', '/payouts', () => [422, refusal(422, 'PAYOUT_REQUISITE_COOLDOWN')]);
		const { output } = await runNode({
			parameters: payout({
				idempotencyKey: PAYROLL_LINE,
				additionalFields: { externalId: PAYROLL_LINE },
			}),
			continueOnFail: true,
		});
		expect(output[0].json.paymentOutcome).toBe('unknown');
		expect(output[0].json.sentWrite).toBeDefined();
	});

	it('Payout Create re-run in the same process with the derived key (new execution ID), refused PAYOUT_REQUISITE_COOLDOWN: unknown', async () => {
		const seen = serve('post', '/payouts', (n) =>
			n === 1 ? reset() : [422, refusal(422, 'PAYOUT_REQUISITE_COOLDOWN')],
		);
		await runNode({ parameters: payout(), continueOnFail: true, executionId: '401' });
		const { output } = await runNode({
			parameters: payout(),
			continueOnFail: true,
			executionId: '402',
			sameProcess: true,
		});
		expect(seen).toHaveLength(2);
		expect(output[0].json.paymentOutcome).toBe('unknown');
	});

	it('Payout Create never sent before (no key, no External ID) refused PAYOUT_REQUISITE_COOLDOWN: not_paid', async () => {
		serve('post', '/payouts', () => [422, refusal(422, 'PAYOUT_REQUISITE_COOLDOWN')]);
		const { output } = await runNode({ parameters: payout(), continueOnFail: true });
		expect(output[0].json.paymentOutcome).toBe('not_paid');
	});

	it('Payout Cancel: cancelled, answer lost, re-run refused PAYOUT_NOT_CANCELABLE: unknown, and no "taken by an executor"', async () => {
		serve('post', `/payouts/${PAYOUT_ID}/cancel`, (n) =>
			n === 1 ? reset() : [409, refusal(409, 'PAYOUT_NOT_CANCELABLE')],
		);
		const parameters = { resource: 'payout', operation: 'cancel', payoutId: PAYOUT_ID };
		await runNode({ parameters, continueOnFail: true, executionId: '601' });
		const { output } = await runNode({
			parameters,
			continueOnFail: true,
			executionId: '602',
			sameProcess: true,
		});
		expect(output[0].json.paymentOutcome).toBe('unknown');
		expect(JSON.stringify(output[0].json)).not.toMatch(/already taken by an executor/);
	});

	it('Payout Cancel never sent before refused PAYOUT_NOT_CANCELABLE: not_paid', async () => {
		serve('post', `/payouts/${PAYOUT_ID}/cancel`, () => [
			409,
			refusal(409, 'PAYOUT_NOT_CANCELABLE'),
		]);
		const { output } = await runNode({
			parameters: { resource: 'payout', operation: 'cancel', payoutId: PAYOUT_ID },
			continueOnFail: true,
		});
		expect(output[0].json.paymentOutcome).toBe('not_paid');
	});
});

describe('tool: what a payment under a reference is, read as it stands', () => {
	const CALL = {
		resource: 'payout',
		operation: 'create',
		amountRub: '45000',
		requisiteType: 'card',
		requisite: '2200701234565678',
		agentMayMoveMoney: true,
		paymentReference: 'INV-8001',
	};
	const refunded = {
		id: 'po-8001',
		externalId: 'inv-8001',
		status: 'fail',
		failReason: 'no_traders',
		amountRub: 45000,
		requisiteType: 'card',
		requisite: '2200701234565678',
		createdAt: new Date().toISOString(),
		refundedAt: new Date(Date.now() + 60_000).toISOString(),
	};

	it('a refunded payout listed without refundedAt is read by its ID and reported refunded, nothing sent (tool 2)', async () => {
		const listed: IDataObject = { ...refunded };
		delete listed.refundedAt;
		nock(BASE_URL)
			.get('/payouts')
			.query((q) => q.externalId === 'inv-8001')
			.reply(200, { payouts: [listed], total: 1 });
		const read = serve('get', '/payouts/po-8001', () => [200, refunded]);
		const posts = serve('post', '/payouts', () => [500, 'not expected']);
		const { output } = await runTool({ parameters: CALL });
		expect(read).toHaveLength(1);
		expect(posts).toHaveLength(0);
		expect((output[0].error as IDataObject).errorCode).toBe('PAYMENT_REFERENCE_REFUNDED');
	});

	it('Pay QR Code answered with the stored order of the reference, since failed after a dispute: not handed back as standing (tool 4)', async () => {
		serve('post', '/orders/prepare', () => [200, quote(QUOTE_B)]);
		serve('post', `/orders/accept/${QUOTE_B}`, () => [200, order(QUOTE_A, { status: 'created' })]);
		serve('get', `/orders/${QUOTE_A}`, () => [
			200,
			order(QUOTE_A, { status: 'failed', failureReason: 'dispute_refund' }),
		]);
		const { output } = await runTool({
			parameters: { ...pay(), agentMayMoveMoney: true, paymentReference: 'INV-QR-1' },
		});
		const error = output[0].error as IDataObject;
		expect(error.errorCode).toBe('PAYMENT_REFERENCE_NOT_STANDING');
		expect(error.status).toBe('failed');
		expect(error.paymentOutcome).toBe('unknown');
	});

	it('Pay QR Code whose order stands is handed back as it is now', async () => {
		serve('post', '/orders/prepare', () => [200, quote(QUOTE_B)]);
		serve('post', `/orders/accept/${QUOTE_B}`, () => [200, order(QUOTE_A, { status: 'created' })]);
		serve('get', `/orders/${QUOTE_A}`, () => [200, order(QUOTE_A, { status: 'success' })]);
		const { output } = await runTool({
			parameters: { ...pay(), agentMayMoveMoney: true, paymentReference: 'INV-QR-2' },
		});
		expect(output[0].status).toBe('success');
	});

	it('the tool texts name the window of another n8n process (tool 1)', () => {
		expect(MONEY).toMatch(/another n8n process may pay again until the service lists the payment/);
		expect(CONFLICT).toMatch(
			/from another n8n process before the service lists it, it may be paid/,
		);
	});
});

describe('Payout Get Many: fundsReturned as the payout shows it (tool 2)', () => {
	it('a failed payout listed without refundedAt is read by its ID: refunded says fundsReturned true', async () => {
		const listed = {
			id: PAYOUT_ID,
			externalId: 'inv-9',
			status: 'fail',
			failReason: 'no_traders',
			amountRub: 45000,
		};
		nock(BASE_URL)
			.get('/payouts')
			.query(true)
			.reply(200, { payouts: [listed, { ...listed, id: 'po_ok', status: 'success' }], total: 2 });
		const read = serve('get', `/payouts/${PAYOUT_ID}`, () => [
			200,
			{ ...listed, refundedAt: new Date(Date.now() + 60_000).toISOString() },
		]);
		const { output } = await runNode({
			parameters: { resource: 'payout', operation: 'getMany', returnAll: true, filters: {} },
		});
		expect(read).toHaveLength(1);
		expect(output.map((item) => item.json.fundsReturned)).toEqual([true, false]);
	});
});
