import nock from 'nock';

import { API_KEY, BASE_URL, runNode, runNodeError } from './helpers/n8n';

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
	expect(nock.pendingMocks()).toEqual([]);
	nock.cleanAll();
});

describe('companyWallet', () => {
	it('getAddress: GET /wallets', async () => {
		const wallet = { address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE', network: 'TRON' };
		nock(BASE_URL, { reqheaders: { 'x-api-key': API_KEY } })
			.get('/wallets')
			.reply(200, wallet);
		const { output } = await runNode({
			parameters: { resource: 'companyWallet', operation: 'getAddress' },
		});
		expect(output).toEqual([{ json: wallet, pairedItem: { item: 0 } }]);
	});

	it('getBalance: GET /wallets/balance keeps usdtBalance and frozenBalance', async () => {
		nock(BASE_URL).get('/wallets/balance').reply(200, { usdtBalance: 990.5, frozenBalance: 15.71 });
		const { output } = await runNode({
			parameters: { resource: 'companyWallet', operation: 'getBalance' },
		});
		expect(output[0].json).toEqual({ usdtBalance: 990.5, frozenBalance: 15.71 });
	});

	it('getDeposits: status filter in the query in each spelling (legacy aml_fail too), one item per deposit', async () => {
		nock(BASE_URL)
			.get('/wallets/deposits')
			.query({ status: 'aml_failed', limit: '50', offset: '0' })
			.reply(200, { deposits: [{ id: 'd1', status: 'aml_failed' }], total: 1 });
		nock(BASE_URL)
			.get('/wallets/deposits')
			.query({ status: 'aml_fail', limit: '50', offset: '0' })
			.reply(200, { deposits: [], total: 0 });
		const { output } = await runNode({
			parameters: {
				resource: 'companyWallet',
				operation: 'getDeposits',
				returnAll: false,
				limit: 50,
				filters: { status: 'aml_failed' },
			},
		});
		expect(output).toEqual([{ json: { id: 'd1', status: 'aml_failed' }, pairedItem: { item: 0 } }]);
	});

	it('getBalanceHistory: one item per movement with referenceId', async () => {
		nock(BASE_URL)
			.get('/wallets/balance-history')
			.query({ limit: '10', offset: '0' })
			.reply(200, { items: [{ id: 'm1', referenceId: 'order-1', amount: -15.71 }], total: 1 });
		const { output } = await runNode({
			parameters: {
				resource: 'companyWallet',
				operation: 'getBalanceHistory',
				returnAll: false,
				limit: 10,
			},
		});
		expect(output[0].json).toEqual({ id: 'm1', referenceId: 'order-1', amount: -15.71 });
	});
});

describe('userWallet', () => {
	it('createOrGet: POST /user-wallets with externalId', async () => {
		nock(BASE_URL)
			.post('/user-wallets', { externalId: 'user-42' })
			.reply(200, { id: 'w1', externalId: 'user-42', address: 'TAddr' });
		const { output } = await runNode({
			parameters: { resource: 'userWallet', operation: 'createOrGet', externalId: 'user-42' },
		});
		expect(output[0].json).toEqual({ id: 'w1', externalId: 'user-42', address: 'TAddr' });
	});

	it('createOrGet: refuses an empty external ID', async () => {
		const error = await runNodeError({
			parameters: { resource: 'userWallet', operation: 'createOrGet', externalId: ' ' },
		});
		expect(error.message).toBe('External ID must not be empty, got " "');
	});

	it('getMany and getBlocked: list wallets', async () => {
		nock(BASE_URL)
			.get('/user-wallets')
			.query({ limit: '5', offset: '0' })
			.reply(200, [{ id: 'w1' }]);
		nock(BASE_URL)
			.get('/user-wallets/blocked')
			.query({ limit: '5', offset: '0' })
			.reply(200, { wallets: [{ id: 'w2', status: 'blocked' }] });
		// A short page without total may be the service's page cap: one more page ends each list.
		nock(BASE_URL).get('/user-wallets').query({ limit: '1', offset: '1' }).reply(200, []);
		nock(BASE_URL)
			.get('/user-wallets/blocked')
			.query({ limit: '1', offset: '1' })
			.reply(200, { wallets: [] });
		const many = await runNode({
			parameters: { resource: 'userWallet', operation: 'getMany', returnAll: false, limit: 5 },
		});
		const blocked = await runNode({
			parameters: { resource: 'userWallet', operation: 'getBlocked', returnAll: false, limit: 5 },
		});
		expect(many.output.map((item) => item.json.id)).toEqual(['w1']);
		expect(blocked.output.map((item) => item.json)).toEqual([{ id: 'w2', status: 'blocked' }]);
	});

	it('block and replace: POST to the wallet path with the ID encoded, no body', async () => {
		nock(BASE_URL).post('/user-wallets/w%2F1/block').reply(200, { id: 'w/1', status: 'blocked' });
		nock(BASE_URL).post('/user-wallets/w1/replace').reply(200, { id: 'w9', externalId: 'user-42' });
		const blocked = await runNode({
			parameters: { resource: 'userWallet', operation: 'block', walletId: 'w/1' },
		});
		const replaced = await runNode({
			parameters: { resource: 'userWallet', operation: 'replace', walletId: 'w1' },
		});
		expect(blocked.output[0].json.status).toBe('blocked');
		expect(blocked.context.requests[0].body).toBeUndefined();
		expect(replaced.output[0].json.id).toBe('w9');
	});

	it('getDeposits: query externalId, status, limit, offset; output one item per deposit', async () => {
		const deposit = {
			id: 'd1',
			companyId: 'c1',
			walletId: 'w1',
			externalId: 'user-42',
			walletAddress: 'TAddr',
			txHash: '0xabc',
			fromAddress: null,
			amount: 25,
			status: 'completed',
			amlCheckId: null,
			amlRiskIndicator: null,
			sweepTxHash: null,
			error: null,
			blockTimestamp: null,
			createdAt: '2026-11-21T10:00:00Z',
		};
		nock(BASE_URL)
			.get('/user-wallets/deposits')
			.query({ externalId: 'user-42', limit: '50', offset: '0' })
			.reply(200, { deposits: [deposit, { ...deposit, id: 'd2' }], total: 2 });
		const { output } = await runNode({
			parameters: {
				resource: 'userWallet',
				operation: 'getDeposits',
				returnAll: false,
				limit: 50,
				filters: { externalId: 'user-42' },
			},
		});
		expect(output).toEqual([
			{ json: deposit, pairedItem: { item: 0 } },
			{ json: { ...deposit, id: 'd2' }, pairedItem: { item: 0 } },
		]);
	});

	it('getDeposits: a 403 names the missing permission', async () => {
		nock(BASE_URL).get('/user-wallets/deposits').query(true).reply(403, {
			statusCode: 403,
			error: 'PERMISSION_DENIED',
			errorCode: 'PERMISSION_DENIED',
			message: 'Нет доступа',
			required: 'wallets.read',
		});
		const error = await runNodeError({
			parameters: { resource: 'userWallet', operation: 'getDeposits', returnAll: true },
		});
		expect(error.message).toContain('missing permission wallets.read');
	});
});
