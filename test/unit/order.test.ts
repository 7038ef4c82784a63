import nock from 'nock';

import { CompanyPayments } from '../../nodes/CompanyPayments/CompanyPayments.node';
import { API_KEY, BASE_URL, derivedKey, runNode, runNodeError } from './helpers/n8n';

const properties = new CompanyPayments().description.properties;

const QUOTE_ID = '0b6a9a52-4f4e-4a8e-9d39-3f1c8f6f2a11';
const ORDER_ID = '7d3c2b1a-1111-4222-8333-944455566677';
const QR = 'https://qr.nspk.ru/AS10001?type=02&sum=150000&cur=RUB';

const order = {
	id: ORDER_ID,
	amountUsdt: 15.71,
	amountRub: 1500,
	status: 'created',
	paymentType: 'nspk',
	paymentUntil: '2026-11-21T12:10:00.000Z',
	merchantName: 'Coffee Point',
	externalOrderId: null,
	// Created as the test runs: an order older than its quote is an earlier payment (replay.ts).
	createdAt: new Date().toISOString(),
};

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
	expect(nock.pendingMocks()).toEqual([]);
	nock.cleanAll();
});

describe('order.prepare', () => {
	it('posts the QR code with the API key and outputs the quote', async () => {
		const scope = nock(BASE_URL, { reqheaders: { 'x-api-key': API_KEY } })
			.post('/orders/prepare', { qrCode: QR })
			.reply(200, { id: QUOTE_ID, amountRub: 1500, expiresAt: '2026-11-21T12:00:30Z' });
		const { output } = await runNode({
			parameters: { resource: 'order', operation: 'prepare', qrCode: ` ${QR} ` },
		});
		expect(output).toEqual([
			{
				json: { id: QUOTE_ID, amountRub: 1500, expiresAt: '2026-11-21T12:00:30Z' },
				pairedItem: { item: 0 },
			},
		]);
		scope.done();
	});

	it('refuses an empty QR code before any request', async () => {
		const error = await runNodeError({
			parameters: { resource: 'order', operation: 'prepare', qrCode: '   ' },
		});
		expect(error.message).toBe('QR Code must not be empty, got "   "');
		expect(error.constructor.name).toBe('NodeOperationError');
	});

	it('shows AMOUNT_BELOW_MIN with the minimum amount from details', async () => {
		nock(BASE_URL)
			.post('/orders/prepare')
			.reply(422, {
				statusCode: 422,
				error: 'Unprocessable Entity',
				errorCode: 'AMOUNT_BELOW_MIN',
				message: 'Сумма меньше минимальной',
				details: { minAmountRub: 100 },
				requestId: 'req-422',
			});
		const error = await runNodeError({
			parameters: { resource: 'order', operation: 'prepare', qrCode: QR },
		});
		expect(error.message).toBe('AMOUNT_BELOW_MIN: The amount is below the minimum order amount');
		expect(error.description).toContain('Service message: Сумма меньше минимальной');
		expect(error.description).toContain('Details: {"minAmountRub":100}');
		expect(error.description).toContain('Request ID: req-422');
		expect(error.httpCode).toBe('422');
	});
});

describe('order.accept', () => {
	it('sends the Idempotency-Key derived from the quote and no body, and outputs the order', async () => {
		const scope = nock(BASE_URL)
			.post(`/orders/accept/${QUOTE_ID}`, (body) => body === '' || Object.keys(body).length === 0)
			.matchHeader('idempotency-key', `pay:once:accept:${QUOTE_ID}`)
			.matchHeader('x-api-key', API_KEY)
			.reply(200, order);
		const { output, context } = await runNode({
			parameters: { resource: 'order', operation: 'accept', quoteId: QUOTE_ID },
		});
		expect(output).toEqual([{ json: order, pairedItem: { item: 0 } }]);
		expect(context.requests[0].body).toBeUndefined();
		scope.done();
	});

	it('sends the same key for the same quote from a re-run execution, another run, item or node', async () => {
		const keys: string[] = [];
		nock(BASE_URL)
			.post(`/orders/accept/${QUOTE_ID}`)
			.times(4)
			.reply(function () {
				keys.push(String(this.req.headers['idempotency-key']));
				return [200, order];
			});
		const parameters = { resource: 'order', operation: 'accept', quoteId: QUOTE_ID };
		await runNode({ parameters, executionId: '1001' });
		// "Retry" of a failed execution in n8n's execution list starts a new execution.
		await runNode({ parameters, executionId: '2002' });
		await runNode({ parameters, executionId: '2002', runIndex: 3 });
		await runNode({
			parameters: [parameters, parameters],
			executionId: '3003',
			nodeId: 'other-node',
		});
		expect(new Set(keys)).toEqual(new Set([`pay:once:accept:${QUOTE_ID}`]));
		// The second item of the same quote in one run has the same key, which this process saw
		// paid: it is answered with that order and nothing is sent (r1-money-resend F1).
		expect(keys.length).toBe(4);
	});

	it('derives one key for the same quote in either letter case (a UUID names one quote)', async () => {
		const keys: string[] = [];
		nock(BASE_URL)
			.post(/^\/orders\/accept\//)
			.times(2)
			.reply(function () {
				keys.push(String(this.req.headers['idempotency-key']));
				return [200, order];
			});
		await runNode({
			parameters: { resource: 'order', operation: 'accept', quoteId: QUOTE_ID.toUpperCase() },
		});
		await runNode({ parameters: { resource: 'order', operation: 'accept', quoteId: QUOTE_ID } });
		expect(keys).toEqual([`pay:once:accept:${QUOTE_ID}`, `pay:once:accept:${QUOTE_ID}`]);
	});

	it('derives different keys for different quotes', async () => {
		const other = '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
		nock(BASE_URL)
			.post(`/orders/accept/${QUOTE_ID}`)
			.matchHeader('idempotency-key', `pay:once:accept:${QUOTE_ID}`)
			.reply(200, order);
		nock(BASE_URL)
			.post(`/orders/accept/${other}`)
			.matchHeader('idempotency-key', `pay:once:accept:${other}`)
			// Another quote, another order: one order proves one accept.
			.reply(200, { ...order, id: '7d3c2b1a-1111-4222-8333-944455566678' });
		await runNode({
			parameters: [
				{ resource: 'order', operation: 'accept', quoteId: QUOTE_ID },
				{ resource: 'order', operation: 'accept', quoteId: other },
			],
		});
	});

	it('uses the key the user set', async () => {
		nock(BASE_URL)
			.post(`/orders/accept/${QUOTE_ID}`)
			.matchHeader('idempotency-key', 'example-invoice-0042')
			.reply(200, order);
		await runNode({
			parameters: {
				resource: 'order',
				operation: 'accept',
				quoteId: QUOTE_ID,
				idempotencyKey: 'example-invoice-0042',
			},
		});
	});

	it('refuses a quote ID that is not a UUID', async () => {
		const error = await runNodeError({
			parameters: { resource: 'order', operation: 'accept', quoteId: 'abc-123' },
		});
		expect(error.message).toBe('Quote ID must be a UUID, got "abc-123"');
	});

	it('refuses an Idempotency Key over 255 characters before any request', async () => {
		const error = await runNodeError({
			parameters: {
				resource: 'order',
				operation: 'accept',
				quoteId: QUOTE_ID,
				idempotencyKey: 'k'.repeat(256),
			},
		});
		expect(error.message).toBe('Idempotency Key must be at most 255 characters, got 256');
	});

	it('accepts an Idempotency Key of exactly 255 characters', async () => {
		nock(BASE_URL)
			.post(`/orders/accept/${QUOTE_ID}`)
			.matchHeader('idempotency-key', 'k'.repeat(255))
			.reply(200, order);
		await runNode({
			parameters: {
				resource: 'order',
				operation: 'accept',
				quoteId: QUOTE_ID,
				idempotencyKey: 'k'.repeat(255),
			},
		});
	});
});

describe('order.pay', () => {
	it('prepares then accepts, and outputs the order with its quote', async () => {
		const quote = { id: QUOTE_ID, amountRub: 1500 };
		nock(BASE_URL).post('/orders/prepare', { qrCode: QR }).reply(200, quote);
		nock(BASE_URL)
			.post(`/orders/accept/${QUOTE_ID}`)
			.matchHeader('idempotency-key', derivedKey(0, 0))
			.reply(200, order);
		const { output } = await runNode({
			parameters: { resource: 'order', operation: 'pay', qrCode: QR },
		});
		expect(output).toEqual([{ json: { ...order, quote }, pairedItem: { item: 0 } }]);
	});

	it('keeps the execution-derived key when Retry On Fail prepares a new quote', async () => {
		const second = '2d3e4f5a-6b7c-4d8e-9f0a-1b2c3d4e5f6a';
		const keys: string[] = [];
		nock(BASE_URL).post('/orders/prepare').reply(200, { id: QUOTE_ID });
		nock(BASE_URL).post('/orders/prepare').reply(200, { id: second });
		for (const quoteId of [QUOTE_ID, second]) {
			nock(BASE_URL)
				.post(`/orders/accept/${quoteId}`)
				.reply(function () {
					keys.push(String(this.req.headers['idempotency-key']));
					return [200, order];
				});
		}
		const parameters = { resource: 'order', operation: 'pay', qrCode: QR };
		await runNode({ parameters });
		await runNode({ parameters });
		expect(keys).toEqual([derivedKey(0, 0), derivedKey(0, 0)]);
	});

	it('sends the payment reference as the key, the same from a re-run execution', async () => {
		const keys: string[] = [];
		// The quote shows what the order must match: a key set by the user may name another payment.
		nock(BASE_URL)
			.post('/orders/prepare')
			.times(2)
			.reply(200, { id: QUOTE_ID, amountRub: 1500, merchantName: 'Coffee Point' });
		nock(BASE_URL)
			.post(`/orders/accept/${QUOTE_ID}`)
			.times(2)
			.reply(function () {
				keys.push(String(this.req.headers['idempotency-key']));
				return [200, order];
			});
		const parameters = {
			resource: 'order',
			operation: 'pay',
			qrCode: QR,
			idempotencyKey: 'example-invoice-2026-0042',
		};
		await runNode({ parameters, executionId: '1001' });
		await runNode({ parameters, executionId: '2002' });
		expect(keys).toEqual(['example-invoice-2026-0042', 'example-invoice-2026-0042']);
	});

	it('tells in the panel that a re-run needs a payment reference to be safe', () => {
		const selector = properties.find(
			(property) =>
				property.name === 'idempotencyKey' &&
				property.displayOptions?.show?.operation?.[0] === 'pay',
		);
		expect(selector?.description).toMatch(
			/derived from this execution and item, so a re-run may pay again/,
		);
		expect(selector?.hint).toMatch(/payment reference/);
	});

	it('fails clearly when the quote expires before accept', async () => {
		nock(BASE_URL).post('/orders/prepare').reply(200, { id: QUOTE_ID });
		nock(BASE_URL).post(`/orders/accept/${QUOTE_ID}`).reply(422, {
			statusCode: 422,
			error: 'Unprocessable Entity',
			errorCode: 'QUOTE_EXPIRED',
			message: 'Котировка истекла',
		});
		const error = await runNodeError({
			parameters: { resource: 'order', operation: 'pay', qrCode: QR },
		});
		expect(error.message).toMatch(/^QUOTE_EXPIRED: The quote expired before it could be accepted/);
		expect(error.message).toContain('Nothing was paid');
	});

	it('does not accept when prepare returns no quote ID', async () => {
		nock(BASE_URL).post('/orders/prepare').reply(200, { amountRub: 1500 });
		const error = await runNodeError({
			parameters: { resource: 'order', operation: 'pay', qrCode: QR },
		});
		expect(error.message).toBe(
			'The service prepared a quote without an ID, so it cannot be accepted',
		);
	});

	it('pays items one after another, each with its own key', async () => {
		const keys: string[] = [];
		nock(BASE_URL).post('/orders/prepare').times(2).reply(200, { id: QUOTE_ID });
		nock(BASE_URL)
			.post(`/orders/accept/${QUOTE_ID}`)
			.times(2)
			.reply(function () {
				keys.push(String(this.req.headers['idempotency-key']));
				// Each payment its own order: one order proves one accept.
				return [200, { ...order, id: `${ORDER_ID.slice(0, -1)}${keys.length}` }];
			});
		const { output } = await runNode({
			parameters: [
				{ resource: 'order', operation: 'pay', qrCode: QR },
				{ resource: 'order', operation: 'pay', qrCode: QR },
			],
		});
		expect(keys).toEqual([derivedKey(0, 0), derivedKey(0, 1)]);
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});
});

describe('order.get and order.getMany', () => {
	it('gets one order by ID', async () => {
		nock(BASE_URL).get(`/orders/${ORDER_ID}`).reply(200, order);
		const { output } = await runNode({
			parameters: { resource: 'order', operation: 'get', orderId: ORDER_ID },
		});
		expect(output[0].json).toEqual(order);
	});

	it('refuses an order ID that is not a UUID', async () => {
		const error = await runNodeError({
			parameters: { resource: 'order', operation: 'get', orderId: '42' },
		});
		expect(error.message).toBe('Order ID must be a UUID, got "42"');
	});

	it('lists orders from a bare array with a limit and a status filter', async () => {
		nock(BASE_URL)
			.get('/orders')
			.query({ status: 'success', limit: '2', offset: '0' })
			.reply(200, [
				{ ...order, status: 'success' },
				{ ...order, id: 'second', status: 'success' },
			]);
		const { output } = await runNode({
			parameters: {
				resource: 'order',
				operation: 'getMany',
				returnAll: false,
				limit: 2,
				filters: { status: 'success' },
			},
		});
		expect(output.map((item) => item.json.id)).toEqual([ORDER_ID, 'second']);
	});
});
