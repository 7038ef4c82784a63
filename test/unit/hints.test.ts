import nock from 'nock';

import { BASE_URL, runNode } from './helpers/n8n';

beforeAll(() => nock.disableNetConnect());
afterAll(() => nock.enableNetConnect());
afterEach(() => {
	expect(nock.pendingMocks()).toEqual([]);
	nock.cleanAll();
});

const card = (id: string, status = 'assigned') => ({ id, status, externalId: null });

describe('hints where a person would otherwise be puzzled', () => {
	it('says when Limit cut a list short', async () => {
		nock(BASE_URL)
			.get('/cards')
			.query({ limit: 2, offset: 0 })
			.reply(200, { cards: [card('c1'), card('c2')], total: 5 });
		const { output, context } = await runNode({
			parameters: { resource: 'card', operation: 'getMany', returnAll: false, limit: 2 },
		});
		expect(output).toHaveLength(2);
		expect(context.hints).toEqual([
			expect.objectContaining({
				message: expect.stringMatching(/^Limit \(2\) cut the list short.*Return All/),
			}),
		]);
	});

	it('says nothing when the whole list fit', async () => {
		nock(BASE_URL)
			.get('/cards')
			.query(true)
			.reply(200, { cards: [card('c1')], total: 1 });
		const { context } = await runNode({
			parameters: { resource: 'card', operation: 'getMany', returnAll: false, limit: 2 },
		});
		expect(context.hints).toEqual([]);
	});

	it('says when the filters left nothing, naming them', async () => {
		nock(BASE_URL)
			.get('/cards')
			.query({ externalId: 'nobody', limit: 50, offset: 0 })
			.reply(200, { cards: [], total: 0 });
		const { output, context } = await runNode({
			parameters: {
				resource: 'card',
				operation: 'getMany',
				returnAll: false,
				limit: 50,
				filters: { externalId: ' nobody ' },
			},
		});
		expect(output).toEqual([]);
		expect(context.hints).toEqual([
			expect.objectContaining({
				type: 'warning',
				message: expect.stringContaining('Nothing matches the filters (externalId: nobody)'),
			}),
		]);
	});

	it('says once, for many items, and for a status filter read in two spellings', async () => {
		for (const status of ['aml_passed', 'aml_pass']) {
			nock(BASE_URL)
				.get('/user-wallets/deposits')
				.query({ status, limit: 50, offset: 0 })
				.times(2)
				.reply(200, { deposits: [], total: 0 });
		}
		const parameters = {
			resource: 'userWallet',
			operation: 'getDeposits',
			limit: 50,
			filters: { status: 'aml_passed' },
		};
		const { context } = await runNode({ parameters: [parameters, parameters] });
		expect(context.hints).toHaveLength(1);
		expect(context.hints[0].message).toContain('status: aml_passed');
	});

	it('Get Sensitive Data on a card that is not assigned says the card status', async () => {
		nock(BASE_URL)
			.get('/cards/card_9/sensitive')
			.reply(404, { statusCode: 404, error: 'Not Found', errorCode: 'NOT_FOUND', message: 'x' });
		nock(BASE_URL).get('/cards/card_9').reply(200, card('card_9', 'closed'));
		const { output, context } = await runNode({
			continueOnFail: true,
			parameters: { resource: 'card', operation: 'getSensitiveData', cardId: 'card_9' },
		});
		expect(String(output[0].json.description)).toContain('Card card_9 is closed, not assigned');
		expect(context.hints).toEqual([
			expect.objectContaining({
				type: 'warning',
				message: expect.stringContaining('Card card_9 is closed, not assigned'),
			}),
		]);
	});

	it('Get Sensitive Data on an unknown card keeps the 404 explanation and adds no hint', async () => {
		const notFound = {
			statusCode: 404,
			error: 'Not Found',
			errorCode: 'CARD_NOT_FOUND',
			message: 'x',
		};
		nock(BASE_URL).get('/cards/card_0/sensitive').reply(404, notFound);
		nock(BASE_URL).get('/cards/card_0').reply(404, notFound);
		const { output, context } = await runNode({
			continueOnFail: true,
			parameters: { resource: 'card', operation: 'getSensitiveData', cardId: 'card_0' },
		});
		expect(String(output[0].json.error)).toContain('No assigned card with this ID');
		expect(JSON.stringify(output[0].json)).not.toContain(', not assigned:');
		expect(context.hints).toEqual([]);
	});
});
