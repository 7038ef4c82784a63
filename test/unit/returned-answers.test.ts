// Issue 28 (check what comes back): every filter sent on a list is applied again to the records
// that come back, and every record is keyed by the ID the document gives it, in the list
// operations, the poll trigger and the record pickers. The service here ignores what the
// document does not promise it applies.
import nock from 'nock';
import type { IDataObject, ILoadOptionsFunctions } from 'n8n-workflow';

import { CompanyPayments } from '../../nodes/CompanyPayments/CompanyPayments.node';
import { BASE_URL, createContext, runNode } from './helpers/n8n';
import { daysAgo, payout, runPoll, runPollError } from './helpers/poll';

beforeAll(() => nock.disableNetConnect());
afterAll(() => nock.enableNetConnect());
afterEach(() => {
	const pending = nock.pendingMocks();
	nock.cleanAll();
	expect(pending).toEqual([]);
});

/**
 * A list at `path` that ignores every query parameter but limit and offset, in an envelope with
 * `total`; returns the query of each request.
 */
function ignoringList(path: string, key: string, records: IDataObject[]) {
	const queries: Array<Record<string, string>> = [];
	nock(BASE_URL)
		.persist()
		.get(path)
		.query(true)
		.reply((uri) => {
			const query = Object.fromEntries(new URL(uri, BASE_URL).searchParams);
			queries.push(query);
			const offset = Number(query.offset ?? 0);
			const limit = Number(query.limit ?? 100);
			return [200, { [key]: records.slice(offset, offset + limit), total: records.length }];
		});
	return queries;
}

/** Order → Get Many with the status filter Success. */
async function successfulOrders(list: IDataObject) {
	return await runNode({
		parameters: {
			resource: 'order',
			operation: 'getMany',
			...list,
			filters: { status: 'success' },
		},
	});
}

function hintTexts(hints: Array<{ message: string }>): string {
	return hints.map((hint) => hint.message).join('\n');
}

describe('Get Many: filters the document does not promise are checked on every record', () => {
	it('Get Deposits (status Completed): an aml_failed deposit is never output as completed, and the hint says what was left out', async () => {
		ignoringList('/wallets/deposits', 'deposits', [
			{ id: 'd1', status: 'aml_failed', amount: 10 },
			{ id: 'd2', status: 'completed', amount: 20 },
			{ id: 'd3', amount: 30 },
		]);
		const { output, context } = await runNode({
			parameters: {
				resource: 'companyWallet',
				operation: 'getDeposits',
				returnAll: true,
				filters: { status: 'completed' },
			},
		});
		expect(output.map((item) => item.json)).toEqual([
			{ id: 'd2', status: 'completed', amount: 20 },
		]);
		const hints = hintTexts(context.hints);
		expect(hints).toContain('Left out 2 records');
		expect(hints).toContain('1 with another status (aml_failed)');
		expect(hints).toContain('1 without the status field');
		expect(hints).toContain('GET /wallets/deposits');
	});

	it("Payout Get Many by External ID never answers with somebody else's payout", async () => {
		ignoringList('/payouts', 'payouts', [
			payout({ id: 'po_other', externalId: 'salary-41', status: 'success' }),
			payout({ id: 'po_null', externalId: null, status: 'success' }),
			{ ...payout({ id: 'po_none', status: 'success' }), externalId: undefined },
		]);
		const { output, context } = await runNode({
			parameters: {
				resource: 'payout',
				operation: 'getMany',
				returnAll: false,
				limit: 10,
				filters: { externalId: 'salary-42' },
			},
		});
		expect(output).toEqual([]);
		const hints = hintTexts(context.hints);
		expect(hints).toContain('2 with another externalId (salary-41, null)');
		expect(hints).toContain('1 without the externalId field');
	});

	it('Limit still returns up to Limit matching records when the service ignores the filter', async () => {
		const orders = Array.from({ length: 9 }, (_, index) => ({
			id: `o${index}`,
			status: index % 3 === 2 ? 'success' : 'failed',
		}));
		ignoringList('/orders', 'orders', orders);
		const { output, context } = await successfulOrders({ returnAll: false, limit: 2 });
		expect(output.map((item) => item.json.id)).toEqual(['o2', 'o5']);
		expect(hintTexts(context.hints)).toContain('Limit (2) cut the list short');
	});

	it("the second reading for Limit stops at the page that completes it, not at the list's end", async () => {
		// 5,000 orders, every 600th a success: Limit 3 needs the first two pages of 1,000 only.
		const orders = Array.from({ length: 5000 }, (_, index) => ({
			id: `o${index}`,
			status: index % 600 === 0 ? 'success' : 'failed',
		}));
		const queries = ignoringList('/orders', 'orders', orders);
		const { output } = await successfulOrders({ returnAll: false, limit: 3 });
		expect(output.map((item) => item.json.id)).toEqual(['o0', 'o600', 'o1200']);
		// Limit's own page, then the second reading: two pages (the pager re-reads an overlap).
		expect(queries.map((query) => query.offset)).toEqual(['0', '0', '998']);
	});

	it('Return All keeps every matching record and only those', async () => {
		const orders = Array.from({ length: 7 }, (_, index) => ({
			id: `o${index}`,
			status: index % 2 === 0 ? 'success' : 'created',
		}));
		ignoringList('/orders', 'orders', orders);
		const { output } = await successfulOrders({ returnAll: true });
		expect(output.map((item) => item.json.id)).toEqual(['o0', 'o2', 'o4', 'o6']);
	});

	it('a service that applies the filter costs no extra request and gives no hint', async () => {
		const queries = ignoringList('/orders', 'orders', [
			{ id: 'o1', status: 'success' },
			{ id: 'o2', status: 'success' },
		]);
		const { output, context } = await successfulOrders({ returnAll: false, limit: 2 });
		expect(output).toHaveLength(2);
		expect(queries).toEqual([{ status: 'success', limit: '2', offset: '0' }]);
		expect(hintTexts(context.hints)).not.toContain('Left out');
	});

	it('User-wallet deposits (filters shown in the document): a record without externalId is kept, another externalId is not, legacy spellings match', async () => {
		ignoringList('/user-wallets/deposits', 'deposits', [
			{ id: 'u1', externalId: 'user-42', status: 'aml_fail' },
			{ id: 'u2', externalId: 'user-41', status: 'aml_failed' },
			{ id: 'u3', status: 'aml_failed' },
			{ id: 'u4', externalId: 'user-42', status: 'completed' },
		]);
		const { output, context } = await runNode({
			parameters: {
				resource: 'userWallet',
				operation: 'getDeposits',
				returnAll: true,
				filters: { externalId: 'user-42', status: 'aml_failed' },
			},
		});
		expect(output.map((item) => item.json.id).sort()).toEqual(['u1', 'u3']);
		expect(hintTexts(context.hints)).toContain('is documented to filter by externalId, status');
	});
});

describe('Get Many: a filter the document shows is checked too', () => {
	it('Card Get Many by External ID leaves out a card whose externalId is null or another', async () => {
		ignoringList('/cards', 'cards', [
			{ id: 'c1', externalId: null, status: 'assigned' },
			{ id: 'c2', externalId: 'employee-41', status: 'assigned' },
			{ id: 'c3', externalId: 'employee-42', status: 'assigned' },
		]);
		const { output, context } = await runNode({
			parameters: {
				resource: 'card',
				operation: 'getMany',
				returnAll: true,
				filters: { externalId: 'employee-42' },
			},
		});
		expect(output.map((item) => item.json.id)).toEqual(['c3']);
		expect(hintTexts(context.hints)).toContain('2 with another externalId (null, employee-41)');
	});
});

describe('Get Many: records keyed the event way', () => {
	it('a deposit listed with depositId instead of id comes out with its id too', async () => {
		ignoringList('/wallets/deposits', 'deposits', [{ depositId: 'dep-9', status: 'completed' }]);
		const { output } = await runNode({
			parameters: { resource: 'companyWallet', operation: 'getDeposits', returnAll: true },
		});
		expect(output.map((item) => item.json)).toEqual([
			{ id: 'dep-9', depositId: 'dep-9', status: 'completed' },
		]);
	});
});

describe('Poll trigger: filters checked, records keyed by any of their documented ID names', () => {
	const window = { windowDays: 7, options: { emitExisting: true } };

	it("watching payouts of one External ID never emits another's payout", async () => {
		ignoringList('/payouts', 'payouts', [
			payout({ id: 'po_mine', externalId: 'x-1' }),
			payout({ id: 'po_other', externalId: 'x-2' }),
		]);
		const run = await runPoll({
			parameters: { watch: ['payouts'], payoutFilters: { externalId: 'x-1' }, ...window },
		});
		expect(run.items!.map((item) => item.payoutId)).toEqual(['po_mine']);
		expect(run.warnings.join('\n')).toContain('1 with another externalId (x-2)');
	});

	it('reads a deposit that carries its ID as depositId (the event name), never skipping it', async () => {
		ignoringList('/wallets/deposits', 'deposits', [
			{
				depositId: 'dep-1',
				status: 'completed',
				amount: 5,
				createdAt: daysAgo(1),
				updatedAt: daysAgo(1),
			},
		]);
		const run = await runPoll({ parameters: { watch: ['companyDeposits'], ...window } });
		expect(run.items).toHaveLength(1);
		expect(run.items![0]).toMatchObject({
			event: 'deposit.completed',
			depositId: 'dep-1',
			changeKey: `deposit:company:dep-1:completed:updatedAt:${daysAgo(1).replace(/:/g, '%3A')}`,
		});
	});

	it('reads payoutId and orderId too (an empty id is no ID)', async () => {
		ignoringList('/payouts', 'payouts', [{ ...payout(), id: '', payoutId: 'po_ev' }]);
		ignoringList('/orders', 'orders', [
			{ orderId: 'or_ev', status: 'success', createdAt: daysAgo(1) },
		]);
		const run = await runPoll({ parameters: { watch: ['payouts', 'orders'], ...window } });
		expect(run.items!.map((item) => item.payoutId ?? item.orderId)).toEqual(['po_ev', 'or_ev']);
	});

	it('says in the log when a record has no status, instead of passing over it in silence', async () => {
		ignoringList('/orders', 'orders', [{ id: 'or_1', createdAt: daysAgo(1) }]);
		const run = await runPoll({ parameters: { watch: ['orders'], ...window } });
		expect(run.items).toBeNull();
		expect(run.warnings.join('\n')).toContain('1 record(s) without a status');
	});

	it('fails naming the list and its fields when a record has no ID under any name', async () => {
		ignoringList('/wallets/deposits', 'deposits', [
			{ txHash: 'tx', status: 'completed', createdAt: daysAgo(1) },
		]);
		const error = await runPollError({ parameters: { watch: ['companyDeposits'], ...window } });
		expect(error.message).toBe(
			'A record of GET /wallets/deposits has no ID: none of id, depositId holds one',
		);
		expect(String(error.description)).toContain('txHash, status, createdAt');
	});
});

describe('Record pickers', () => {
	// The editor calls a picker with the node's load-options context (here the test context).
	const search = async (method: string) =>
		await new CompanyPayments().methods.listSearch[
			method as keyof CompanyPayments['methods']['listSearch']
		].call(createContext({ parameters: {} }) as unknown as ILoadOptionsFunctions);

	it('read an order that carries its ID as orderId', async () => {
		ignoringList('/orders', 'orders', [{ orderId: 'or_1', status: 'success', amountRub: 10 }]);
		const { results } = await search('getOrders');
		expect(results.map((entry) => entry.value)).toEqual(['or_1']);
	});

	it('fail naming the list when a record has no ID, instead of leaving it out', async () => {
		ignoringList('/cards', 'cards', [{ externalId: 'employee-1', status: 'assigned' }]);
		await expect(search('getCards')).rejects.toThrow(
			'A record of GET /cards has no ID: none of id, cardId holds one',
		);
	});

	it('Cancel offers only payouts waiting for an executor, whatever the service answers', async () => {
		ignoringList('/payouts', 'payouts', [
			payout({ id: 'po_wait', status: 'waiting_trader' }),
			payout({ id: 'po_done', status: 'success' }),
		]);
		const { results } = await search('getCancelablePayouts');
		expect(results.map((entry) => entry.value)).toEqual(['po_wait']);
	});
});
