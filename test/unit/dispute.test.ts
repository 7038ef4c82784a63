import nock from 'nock';

import { API_KEY, BASE_URL, runNode, runNodeError } from './helpers/n8n';

const ORDER_ID = '7d3c2b1a-1111-4222-8333-944455566677';
const create = {
	resource: 'dispute',
	operation: 'create',
	orderId: ORDER_ID,
	reason: 'Merchant did not receive the money',
};

function dispute(overrides: object = {}) {
	const now = new Date().toISOString();
	return {
		id: 'a1b2c3d4-0000-4000-8000-000000000001',
		orderId: ORDER_ID,
		status: 'submitted',
		resolution: null,
		reason: 'Merchant did not receive the money',
		createdAt: now,
		updatedAt: now,
		order: { id: ORDER_ID, status: 'disputed', amountRub: 1500 },
		...overrides,
	};
}

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
	expect(nock.pendingMocks()).toEqual([]);
	nock.cleanAll();
});

/** GET /disputes as the service answers it just before the request (the order's history). */
function history(records: object[]) {
	return nock(BASE_URL)
		.get('/disputes')
		.query((query) => query.orderId === ORDER_ID && query.offset === '0')
		.reply(200, { disputes: records, total: records.length });
}

describe('dispute.create', () => {
	it('posts the reason and says the dispute is new', async () => {
		const body = dispute();
		history([]);
		nock(BASE_URL, { reqheaders: { 'x-api-key': API_KEY } })
			.post(`/orders/${ORDER_ID}/disputes`, { reason: 'Merchant did not receive the money' })
			.reply(201, body);
		const { output } = await runNode({
			parameters: { ...create, reason: '  Merchant did not receive the money ' },
		});
		expect(output).toEqual([
			{ json: { ...body, existingDispute: false }, pairedItem: { item: 0 } },
		]);
	});

	it('a new dispute whose reason the service stored normalised is still new', async () => {
		history([]);
		nock(BASE_URL)
			.post(`/orders/${ORDER_ID}/disputes`)
			.reply(201, dispute({ reason: 'merchant did not receive the money' }));
		const { output } = await runNode({
			parameters: { ...create, reason: 'Merchant  did not receive   the money' },
		});
		expect(output[0].json.existingDispute).toBe(false);
	});

	it('says so when the service returns the dispute that was already open, whatever its reason', async () => {
		const open = dispute({ status: 'in_review' });
		history([dispute({ id: 'resolved-one', status: 'resolved' }), open]);
		// Same reason text, created just now by the service's clock: only the ID tells.
		nock(BASE_URL).post(`/orders/${ORDER_ID}/disputes`).reply(200, open);
		const { output } = await runNode({ parameters: create });
		expect(output[0].json.existingDispute).toBe(true);
		expect(output[0].json.status).toBe('in_review');
	});

	it("does not take another order's open dispute for this order's (the service may ignore orderId)", async () => {
		const other = '11111111-2222-4333-8444-555555555555';
		const mine = dispute({ id: 'b2c3d4e5-0000-4000-8000-000000000002' });
		history([
			dispute({ id: mine.id, orderId: other, order: { id: other } }),
			dispute({ id: 'resolved-one', status: 'resolved' }),
		]);
		nock(BASE_URL).post(`/orders/${ORDER_ID}/disputes`).reply(201, mine);
		const { output } = await runNode({ parameters: create });
		expect(output[0].json.existingDispute).toBe(false);
	});

	it('reads the order of a listed dispute from its order summary when orderId is absent', async () => {
		const open = dispute({ orderId: undefined, order: { id: ORDER_ID } });
		history([open]);
		nock(BASE_URL).post(`/orders/${ORDER_ID}/disputes`).reply(200, dispute());
		const { output } = await runNode({ parameters: create });
		expect(output[0].json.existingDispute).toBe(true);
	});

	it('says so when the returned open dispute is older than the request (not listed)', async () => {
		history([]);
		nock(BASE_URL)
			.post(`/orders/${ORDER_ID}/disputes`)
			.reply(200, dispute({ createdAt: '2026-01-01T00:00:00.000Z' }));
		const { output } = await runNode({ parameters: create });
		expect(output[0].json.existingDispute).toBe(true);
	});

	it('a key that may not list disputes still opens one, judged by age, with a hint saying so', async () => {
		nock(BASE_URL).get('/disputes').query(true).reply(403, {
			statusCode: 403,
			error: 'PERMISSION_DENIED',
			errorCode: 'PERMISSION_DENIED',
			message: 'Недостаточно прав',
			required: 'disputes.read',
		});
		nock(BASE_URL).post(`/orders/${ORDER_ID}/disputes`).reply(201, dispute());
		const { output, context } = await runNode({ parameters: create });
		expect(output[0].json.existingDispute).toBe(false);
		expect(context.hints.map((hint) => hint.message).join()).toContain('403 on GET /disputes');
	});

	it('fails naming the list and its fields when a listed dispute has no ID, before posting', async () => {
		history([{ orderId: ORDER_ID, status: 'submitted', reason: 'x' }]);
		const error = await runNodeError({ parameters: create });
		expect(error.message).toBe('A record of GET /disputes has no ID: none of id holds one');
		expect(String(error.description)).toContain('orderId, status, reason');
	});

	it('refuses an empty reason and a non-UUID order ID before any request', async () => {
		expect((await runNodeError({ parameters: { ...create, reason: '' } })).message).toBe(
			'Reason must not be empty, got ""',
		);
		expect((await runNodeError({ parameters: { ...create, orderId: 'ORD-1' } })).message).toBe(
			'Order ID must be a UUID, got "ORD-1"',
		);
	});

	it('explains DISPUTE_NOT_ALLOWED on an order that is not completed', async () => {
		history([]);
		nock(BASE_URL).post(`/orders/${ORDER_ID}/disputes`).reply(422, {
			statusCode: 422,
			error: 'Unprocessable Entity',
			errorCode: 'DISPUTE_NOT_ALLOWED',
			message: 'Спор возможен только по завершённому заказу',
		});
		const error = await runNodeError({ parameters: create });
		expect(error.message).toBe(
			'DISPUTE_NOT_ALLOWED: A dispute can be opened only on a completed order (status success or failed)',
		);
	});
});

describe('dispute.getMany', () => {
	it('lists disputes with a limit, one item per dispute', async () => {
		nock(BASE_URL)
			.get('/disputes')
			.query({ limit: '2', offset: '0' })
			.reply(200, { disputes: [dispute(), dispute({ id: 'second' })], total: 7 });
		const { output } = await runNode({
			parameters: { resource: 'dispute', operation: 'getMany', returnAll: false, limit: 2 },
		});
		expect(output.map((item) => item.json.id)).toEqual([
			'a1b2c3d4-0000-4000-8000-000000000001',
			'second',
		]);
	});
});
