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

describe('dispute.create', () => {
	it('posts the reason and says the dispute is new', async () => {
		const body = dispute();
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

	it('says so when the service returns the dispute that was already open (other reason)', async () => {
		nock(BASE_URL)
			.post(`/orders/${ORDER_ID}/disputes`)
			.reply(200, dispute({ reason: 'Opened earlier by support', status: 'in_review' }));
		const { output } = await runNode({ parameters: create });
		expect(output[0].json.existingDispute).toBe(true);
		expect(output[0].json.status).toBe('in_review');
	});

	it('says so when the returned open dispute is older than the request (same reason)', async () => {
		nock(BASE_URL)
			.post(`/orders/${ORDER_ID}/disputes`)
			.reply(200, dispute({ createdAt: '2026-01-01T00:00:00.000Z' }));
		const { output } = await runNode({ parameters: create });
		expect(output[0].json.existingDispute).toBe(true);
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
