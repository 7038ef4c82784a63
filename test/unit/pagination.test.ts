import nock from 'nock';

import { readPage } from '../../nodes/CompanyPayments/transport';
import { BASE_URL, runNode, runNodeError } from './helpers/n8n';

function deposits(from: number, count: number) {
	return Array.from({ length: count }, (_, index) => ({ id: `dep-${from + index}`, amount: 10 }));
}

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
	expect(nock.pendingMocks()).toEqual([]);
	nock.cleanAll();
});

describe('Return All pages through the service', () => {
	it('reads an envelope page by page until total, one item per record', async () => {
		const pages = [0, 100, 200].map((offset) =>
			nock(BASE_URL)
				.get('/wallets/deposits')
				.query({ limit: '100', offset: String(offset) })
				.reply(200, { deposits: deposits(offset, offset === 200 ? 50 : 100), total: 250 }),
		);
		const { output } = await runNode({
			parameters: { resource: 'companyWallet', operation: 'getDeposits', returnAll: true },
		});
		expect(output).toHaveLength(250);
		expect(output[0].json).toEqual({ id: 'dep-0', amount: 10 });
		expect(output[249].json.id).toBe('dep-249');
		expect(output.every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(true);
		pages.forEach((page) => page.done());
	});

	it('stops at total without asking for an empty page when the last page is full', async () => {
		nock(BASE_URL)
			.get('/wallets/deposits')
			.query({ limit: '100', offset: '0' })
			.reply(200, { deposits: deposits(0, 100), total: 200 });
		nock(BASE_URL)
			.get('/wallets/deposits')
			.query({ limit: '100', offset: '100' })
			.reply(200, { deposits: deposits(100, 100), total: 200 });
		const { output } = await runNode({
			parameters: { resource: 'companyWallet', operation: 'getDeposits', returnAll: true },
		});
		expect(output).toHaveLength(200);
	});

	it('reads bare arrays until a short page', async () => {
		nock(BASE_URL)
			.get('/wallets/balance-history')
			.query({ limit: '100', offset: '0' })
			.reply(200, deposits(0, 100));
		nock(BASE_URL)
			.get('/wallets/balance-history')
			.query({ limit: '100', offset: '100' })
			.reply(200, deposits(100, 3));
		const { output } = await runNode({
			parameters: { resource: 'companyWallet', operation: 'getBalanceHistory', returnAll: true },
		});
		expect(output.map((item) => item.json.id)).toEqual(deposits(0, 103).map((record) => record.id));
	});

	it('stops when the service ignores offset and repeats the first page', async () => {
		nock(BASE_URL)
			.get('/disputes')
			.query(true)
			.times(2)
			.reply(200, { disputes: deposits(0, 100) });
		const { output } = await runNode({
			parameters: { resource: 'dispute', operation: 'getMany', returnAll: true },
		});
		expect(output).toHaveLength(100);
	});

	it('stops when the service ignores limit and returns everything at once', async () => {
		nock(BASE_URL)
			.get('/user-wallets')
			.query(true)
			.reply(200, { wallets: deposits(0, 130), total: 130 });
		const { output } = await runNode({
			parameters: { resource: 'userWallet', operation: 'getMany', returnAll: true },
		});
		expect(output).toHaveLength(130);
	});
});

describe('Limit loads no more pages than needed', () => {
	it('asks for exactly the limit when it fits in one page', async () => {
		nock(BASE_URL)
			.get('/user-wallets/deposits')
			.query({ externalId: 'user-7', status: 'completed', limit: '30', offset: '0' })
			.reply(200, { deposits: deposits(0, 30), total: 500 });
		const { output } = await runNode({
			parameters: {
				resource: 'userWallet',
				operation: 'getDeposits',
				returnAll: false,
				limit: 30,
				filters: { externalId: 'user-7', status: 'completed' },
			},
		});
		expect(output).toHaveLength(30);
	});

	it('asks for the remainder on the last page of a limit above the page size', async () => {
		nock(BASE_URL)
			.get('/wallets/deposits')
			.query({ limit: '100', offset: '0' })
			.reply(200, { deposits: deposits(0, 100), total: 500 });
		nock(BASE_URL)
			.get('/wallets/deposits')
			.query({ limit: '50', offset: '100' })
			.reply(200, { deposits: deposits(100, 50), total: 500 });
		const { output } = await runNode({
			parameters: {
				resource: 'companyWallet',
				operation: 'getDeposits',
				returnAll: false,
				limit: 150,
			},
		});
		expect(output).toHaveLength(150);
		expect(output[149].json.id).toBe('dep-149');
	});

	it('trims a page that holds more than asked for', async () => {
		nock(BASE_URL).get('/orders').query(true).reply(200, deposits(0, 40));
		const { output } = await runNode({
			parameters: { resource: 'order', operation: 'getMany', returnAll: false, limit: 5 },
		});
		expect(output).toHaveLength(5);
	});
});

describe('list answers the node cannot read', () => {
	it('an object without a record array is a clear error', async () => {
		nock(BASE_URL).get('/disputes').query(true).reply(200, { ok: true });
		const error = await runNodeError({
			parameters: { resource: 'dispute', operation: 'getMany', returnAll: true },
		});
		expect(error.message).toBe('The list answer of GET /disputes holds no array of records');
	});
});

describe('readPage', () => {
	it('reads a bare array, a named envelope, a known key, and a single unnamed array', () => {
		expect(readPage([{ id: 1 }])).toEqual({ records: [{ id: 1 }] });
		expect(readPage({ deposits: [{ id: 1 }], total: 9 }, 'deposits')).toEqual({
			records: [{ id: 1 }],
			total: 9,
		});
		expect(readPage({ items: [{ id: 2 }], meta: { page: 1 }, count: 4 })).toEqual({
			records: [{ id: 2 }],
			total: 4,
		});
		expect(readPage({ payouts: [{ id: 3 }] })).toEqual({ records: [{ id: 3 }], total: undefined });
		expect(readPage({ a: [], b: [] })).toBeUndefined();
		expect(readPage('text')).toBeUndefined();
	});
});
