import nock from 'nock';
import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { CompanyPayments } from '../../nodes/CompanyPayments/CompanyPayments.node';
import { SEARCH_PAGE_SIZE } from '../../nodes/CompanyPayments/listSearch/search';
import { BASE_URL, createContext } from './helpers/n8n';

type Search = (
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
) => Promise<INodeListSearchResult>;

const methods = new CompanyPayments().methods.listSearch as unknown as Record<string, Search>;

async function search(
	method: string,
	filter?: string,
	paginationToken?: unknown,
): Promise<INodeListSearchResult> {
	const context = createContext({ parameters: {} }) as unknown as ILoadOptionsFunctions;
	return await methods[method].call(context, filter, paginationToken as string | undefined);
}

function card(index: number, status = 'assigned', extra: IDataObject = {}): IDataObject {
	return {
		id: `card_${index}`,
		externalId: `employee-${index}`,
		status,
		maskedPan: `400012******${String(1000 + index).slice(-4)}`,
		expiry: '11/29',
		createdAt: '2026-11-21T12:00:00.000Z',
		...extra,
	};
}

beforeAll(() => nock.disableNetConnect());
afterAll(() => nock.enableNetConnect());
afterEach(() => {
	expect(nock.pendingMocks()).toEqual([]);
	nock.cleanAll();
});

describe('resource locator lists', () => {
	it('lists cards by external ID, masked number and status, with the card ID as value', async () => {
		nock(BASE_URL)
			.get('/cards')
			.query({ limit: SEARCH_PAGE_SIZE, offset: 0 })
			.reply(200, { cards: [card(1), card(2, 'retired')], total: 2 });
		const { results, paginationToken } = await search('getCards');
		expect(results).toEqual([
			{ name: 'employee-1 · •••• 1001 · assigned', value: 'card_1' },
			{ name: 'employee-2 · •••• 1002 · closed', value: 'card_2' },
		]);
		expect(paginationToken).toBeUndefined();
	});

	it('never shows more than the last four digits, even when the service sends a full number', async () => {
		nock(BASE_URL)
			.get('/cards')
			.query(true)
			.reply(200, {
				cards: [card(1, 'assigned', { maskedPan: '4000 1234 5678 9012', externalId: null })],
				total: 1,
			});
		const { results } = await search('getCards');
		expect(results[0].name).toBe('No external ID · •••• 9012 · assigned');
		expect(JSON.stringify(results)).not.toMatch(/4000|5678/);
	});

	it('offers only assigned cards for Get Balance, Get Sensitive Data and Recharge', async () => {
		nock(BASE_URL)
			.get('/cards')
			.query(true)
			.reply(200, {
				cards: [card(1, 'requested'), card(2), card(3, 'closed'), card(4, 'failed')],
				total: 4,
			});
		const { results } = await search('getAssignedCards');
		expect(results.map((entry) => entry.value)).toEqual(['card_2']);
	});

	it('filters by the search text, in the name and in the external ID, case-insensitively', async () => {
		nock(BASE_URL)
			.get('/cards')
			.query(true)
			.reply(200, { cards: [card(1), card(2), card(12)], total: 3 });
		const { results } = await search('getCards', 'EMPLOYEE-1');
		expect(results.map((entry) => entry.value)).toEqual(['card_1', 'card_12']);
	});

	it('hands n8n a pagination token while the list goes on, and reads on from it', async () => {
		const first = Array.from({ length: SEARCH_PAGE_SIZE }, (_, index) => card(index));
		nock(BASE_URL)
			.get('/cards')
			.query({ limit: SEARCH_PAGE_SIZE, offset: 0 })
			.reply(200, { cards: first, total: SEARCH_PAGE_SIZE + 2 });
		const page1 = await search('getCards');
		expect(page1.results).toHaveLength(SEARCH_PAGE_SIZE);
		expect(typeof page1.paginationToken).toBe('string');

		nock(BASE_URL)
			.get('/cards')
			.query({ limit: SEARCH_PAGE_SIZE, offset: SEARCH_PAGE_SIZE })
			.reply(200, { cards: [card(100), card(101)], total: SEARCH_PAGE_SIZE + 2 });
		const page2 = await search('getCards', undefined, page1.paginationToken);
		expect(page2.results.map((entry) => entry.value)).toEqual(['card_100', 'card_101']);
		expect(page2.paginationToken).toBeUndefined();
	});

	it('reads on within one call while a filter leaves few entries, and follows a capped page size', async () => {
		// The service serves 2 records per page whatever is asked; no total (a bare array).
		nock(BASE_URL)
			.get('/cards')
			.query({ limit: SEARCH_PAGE_SIZE, offset: 0 })
			.reply(200, [card(1, 'closed'), card(2, 'closed')]);
		nock(BASE_URL)
			.get('/cards')
			.query({ limit: 2, offset: 2 })
			.reply(200, [card(3, 'closed'), card(4)]);
		nock(BASE_URL)
			.get('/cards')
			.query({ limit: 2, offset: 4 })
			.reply(200, [card(5)]);
		const { results, paginationToken } = await search('getAssignedCards');
		expect(results.map((entry) => entry.value)).toEqual(['card_4', 'card_5']);
		expect(paginationToken).toBeUndefined();
	});

	it('stops when the service ignores offset and repeats its first page', async () => {
		const page = Array.from({ length: SEARCH_PAGE_SIZE }, (_, index) => card(index));
		nock(BASE_URL).get('/cards').query(true).times(2).reply(200, page);
		const first = await search('getCards');
		expect(first.results).toHaveLength(SEARCH_PAGE_SIZE);
		// The next page starts with the same record again: nothing new, and no further token.
		const next = await search('getCards', undefined, first.paginationToken);
		expect(next).toEqual({ results: [] });
	});

	it('lists payouts by amount, masked requisite, status and date; Cancel only waiting_trader ones', async () => {
		const payouts = [
			{
				id: 'po_1',
				status: 'waiting_trader',
				amountRub: 3000,
				requisite: '2200700087654321',
				createdAt: '2026-11-24T09:30:00.000Z',
			},
			{
				id: 'po_2',
				status: 'success',
				amountRub: 5000,
				requisite: '+79001234567',
				createdAt: '2026-11-23T08:00:00.000Z',
			},
		];
		nock(BASE_URL)
			.get('/payouts')
			.query({ limit: SEARCH_PAGE_SIZE, offset: 0 })
			.reply(200, { payouts, total: 2 });
		const all = await search('getPayouts');
		expect(all.results).toEqual([
			{ name: '3000 RUB · •••• 4321 · waiting_trader · 2026-11-24 09:30', value: 'po_1' },
			{ name: '5000 RUB · •••• 4567 · success · 2026-11-23 08:00', value: 'po_2' },
		]);
		expect(JSON.stringify(all.results)).not.toMatch(/2200700087654321|79001234567/);

		// Cancel asks the service for waiting_trader payouts, and checks the answer too.
		nock(BASE_URL)
			.get('/payouts')
			.query({ status: 'waiting_trader', limit: SEARCH_PAGE_SIZE, offset: 0 })
			.reply(200, { payouts, total: 2 });
		const cancelable = await search('getCancelablePayouts');
		expect(cancelable.results.map((entry) => entry.value)).toEqual(['po_1']);
	});

	it('lists members by e-mail and role, with the user ID as value', async () => {
		nock(BASE_URL)
			.get('/members')
			.query(true)
			.reply(200, [
				{ userId: 'usr_a', email: 'owner@demo-co.example', role: 'owner' },
				{ userId: 'usr_b', email: 'reader@demo-co.example', role: 'member' },
			]);
		nock(BASE_URL).get('/members').query(true).reply(200, []);
		const { results } = await search('getMembers');
		expect(results).toEqual([
			{ name: 'owner@demo-co.example · owner', value: 'usr_a' },
			{ name: 'reader@demo-co.example · member', value: 'usr_b' },
		]);
	});

	it('lists orders by amount, merchant and date; Dispute → Create only completed ones', async () => {
		const orders = [
			{
				id: '3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b',
				amountRub: 1500,
				merchantName: 'Кофейня',
				status: 'success',
				createdAt: '2026-11-20T10:00:00.000Z',
			},
			{
				id: '4f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b',
				amountRub: 990,
				merchantName: null,
				externalOrderId: 'demo-order-1004',
				status: 'in_progress',
				createdAt: '2026-11-21T10:00:00.000Z',
			},
		];
		nock(BASE_URL).get('/orders').query(true).reply(200, { orders, total: 2 });
		const all = await search('getOrders');
		expect(all.results.map((entry) => entry.name)).toEqual([
			'1500 RUB · Кофейня · 2026-11-20 10:00 · success',
			'990 RUB · demo-order-1004 · 2026-11-21 10:00 · in_progress',
		]);
		nock(BASE_URL).get('/orders').query(true).reply(200, { orders, total: 2 });
		const disputable = await search('getDisputableOrders');
		expect(disputable.results.map((entry) => entry.value)).toEqual([orders[0].id]);
	});

	it('shortens a long merchant name so date and status stay visible, and still finds it by the full name', async () => {
		const order = {
			id: '5f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b',
			amountRub: 4800,
			merchantName: 'ООО «Управляющая компания Северный квартал»',
			status: 'success',
			createdAt: '2026-11-13T12:31:00.000Z',
		};
		nock(BASE_URL)
			.get('/orders')
			.query(true)
			.reply(200, { orders: [order], total: 1 });
		const { results } = await search('getOrders', 'северный');
		expect(results.map((entry) => entry.name)).toEqual([
			'4800 RUB · ООО «Управляющая… · 2026-11-13 12:31 · success',
		]);
	});

	it('finds nothing when the search text matches nothing (no token: the list is done)', async () => {
		nock(BASE_URL)
			.get('/user-wallets')
			.query(true)
			.reply(200, {
				wallets: [{ id: 'uw_1', externalId: 'user-1001', status: 'active' }],
				total: 1,
			});
		expect(await search('getUserWallets', 'nobody')).toEqual({ results: [] });
	});

	it('lists invites without their URL or token', async () => {
		nock(BASE_URL)
			.get('/members/invites')
			.query(true)
			.reply(200, {
				invites: [
					{
						id: 'inv_1',
						token: 'secret-token-1',
						url: 'https://pay.example/invite/secret-token-1',
						email: null,
						role: 'member',
						expiresAt: '2026-12-01T00:00:00.000Z',
					},
				],
				total: 1,
			});
		const { results } = await search('getInvites');
		expect(results).toEqual([
			{ name: 'Anyone with the link · member · expires 2026-12-01', value: 'inv_1' },
		]);
	});
});
