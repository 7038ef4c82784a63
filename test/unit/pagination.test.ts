import nock from 'nock';

import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { CompanyPayments } from '../../nodes/CompanyPayments/CompanyPayments.node';
import { PAGE_SIZE, PAGE_SIZE_STEPS } from '../../nodes/shared/contract/assumptions';
import { readPage, STALE_ARRIVALS } from '../../nodes/shared/pager';
import { BASE_URL, createContext, runNode, runNodeError } from './helpers/n8n';

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
		// The node asks for PAGE_SIZE (1000); this service serves 100, so the next pages ask 100.
		// Each page after the first starts PAGE_OVERLAP (2) records early: 0, 98, 196.
		const pages = [0, 98, 196].map((offset) =>
			nock(BASE_URL)
				.get('/wallets/deposits')
				.query({ limit: offset === 0 ? '1000' : '100', offset: String(offset) })
				.reply(200, { deposits: deposits(offset, Math.min(100, 250 - offset)), total: 250 }),
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

	it('stops at total without asking for an empty page', async () => {
		nock(BASE_URL)
			.get('/wallets/deposits')
			.query({ limit: '1000', offset: '0' })
			.reply(200, { deposits: deposits(0, 100), total: 196 });
		nock(BASE_URL)
			.get('/wallets/deposits')
			.query({ limit: '100', offset: '98' })
			.reply(200, { deposits: deposits(98, 98), total: 196 });
		const { output } = await runNode({
			parameters: { resource: 'companyWallet', operation: 'getDeposits', returnAll: true },
		});
		expect(output).toHaveLength(196);
	});

	it('reads bare arrays until a short page', async () => {
		nock(BASE_URL)
			.get('/wallets/balance-history')
			.query({ limit: '1000', offset: '0' })
			.reply(200, deposits(0, 100));
		nock(BASE_URL)
			.get('/wallets/balance-history')
			.query({ limit: '100', offset: '98' })
			.reply(200, deposits(98, 5));
		const { output } = await runNode({
			parameters: { resource: 'companyWallet', operation: 'getBalanceHistory', returnAll: true },
		});
		expect(output.map((item) => item.json.id)).toEqual(deposits(0, 103).map((record) => record.id));
	});

	it('says so when the service ignores offset: full pages in a row with nothing new', async () => {
		// A repeated page alone can be records that arrived meanwhile and moved the list down by
		// up to a page; more such pages (here the third) mean offset is not honoured, and the
		// list is not handed on as if the first page were all of it.
		nock(BASE_URL)
			.get('/disputes')
			.query(true)
			.times(4)
			.reply(200, { disputes: deposits(0, 100) });
		const error = await runNodeError({
			parameters: { resource: 'dispute', operation: 'getMany', returnAll: true },
		});
		expect(error.message).toMatch(
			/^The service answered GET \/disputes at offset \d+ with records it had already sent: it does not seem to honour offset/,
		);
	});

	it('says so when the service ignores offset and states a larger total', async () => {
		nock(BASE_URL)
			.get('/orders')
			.query(true)
			.times(3)
			.reply(200, { orders: deposits(0, 100), total: 250 });
		const error = await runNodeError({
			parameters: { resource: 'order', operation: 'getMany', returnAll: true },
		});
		expect(error.description).toMatch(/holds 250 records; 100 different ones came back/);
	});

	it.each([
		// Pages of n records (the first page's length, taken as the cap): a run of pages with
		// nothing new is read on while STALE_ARRIVALS (8) records arriving can explain it, that is
		// ceil(max(n, 8) / step) pages, a step being n less the overlap (none below 4 records, 1
		// below 8, else 2), and refused on the next: 1 + 8 + 1 requests on pages of one record.
		[1, 10],
		[2, 6],
		[3, 5],
		[5, 4],
		[8, 4],
	])(
		'says so when the service ignores offset on pages of %i: after a bounded %i requests',
		async (served, requests) => {
			let asked = 0;
			listEndpoint('/disputes', () => {
				asked++;
				return [200, { disputes: deposits(0, served) }];
			});
			const error = await runNodeError({
				parameters: { resource: 'dispute', operation: 'getMany', returnAll: true },
			});
			expect(error.message).toMatch(/does not seem to honour offset/);
			expect(asked).toBe(requests);
			expect(STALE_ARRIVALS).toBe(8);
			nock.cleanAll();
		},
	);

	it('a record carrying its ID as depositId is one record even when it changed between pages', async () => {
		const record = (n: number, status = 'new') => ({ depositId: `dep-${n}`, status, amount: 10 });
		nock(BASE_URL)
			.get('/wallets/deposits')
			.query((query) => query.offset === '0')
			.reply(200, { deposits: [1, 2, 3, 4, 5, 6, 7, 8].map((n) => record(n)) });
		// The next page re-reads the last two (the overlap); dep-7 completed meanwhile.
		nock(BASE_URL)
			.get('/wallets/deposits')
			.query((query) => query.offset === '6')
			.reply(200, { deposits: [record(7, 'completed'), record(8), record(9)] });
		const { output } = await runNode({
			parameters: { resource: 'companyWallet', operation: 'getDeposits', returnAll: true },
		});
		expect(output.map((item) => item.json.depositId)).toEqual(
			[1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => `dep-${n}`),
		);
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
			.query({ limit: '150', offset: '0' })
			.reply(200, { deposits: deposits(0, 100), total: 500 });
		nock(BASE_URL)
			.get('/wallets/deposits')
			.query({ limit: '52', offset: '98' })
			.reply(200, { deposits: deposits(98, 52), total: 500 });
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

	it('its quote of the answer, cut at 300 characters, shows no part of a secret (outside read r5-data)', async () => {
		const PAN = '5500005555555559';
		for (const inside of [2, 6, 12, 15]) {
			const at = JSON.stringify({ meta: '', cardNumberFull: PAN }).indexOf(PAN);
			const body = { meta: 'x'.repeat(300 - at - inside), cardNumberFull: PAN, ok: true };
			nock(BASE_URL).get('/disputes').query(true).reply(200, body);
			const error = await runNodeError({
				parameters: { resource: 'dispute', operation: 'getMany', returnAll: true },
			});
			const saved = JSON.stringify({ ...error, message: error.message });
			expect(saved).toContain('xxxx');
			expect(saved).not.toContain(PAN.slice(0, 6));
			expect(saved).not.toContain(PAN.slice(4, 12));
		}
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

/** A list endpoint answering any number of GETs with `answer(limit, offset)`. */
function listEndpoint(
	path: string,
	answer: (limit: number, offset: number) => [number, unknown],
): void {
	nock(BASE_URL)
		.get(path)
		.query(true)
		.times(1000)
		.reply(function (uri) {
			const query = new URL(uri, BASE_URL).searchParams;
			return answer(Number(query.get('limit')), Number(query.get('offset')));
		});
}

/**
 * A list endpoint of a service that caps `limit` at `cap` (its maximum is not shown in the
 * interface document), over `count` records, answering a bare array or an envelope with or
 * without total. Records every (limit, offset) it was asked.
 */
function cappedService(
	path: string,
	{ cap, count, shape }: { cap: number; count: number; shape: 'array' | 'envelope' | 'total' },
) {
	const asked: Array<{ limit: number; offset: number }> = [];
	listEndpoint(path, (limit, offset) => {
		asked.push({ limit, offset });
		const from = Math.min(offset, count);
		const records = deposits(from, Math.min(limit, cap, count - from));
		if (shape === 'array') return [200, records];
		if (shape === 'envelope') return [200, { deposits: records }];
		return [200, { deposits: records, total: count }];
	});
	return asked;
}

/** Requests a client that knew the cap would need for `count` records (Return All). */
function requestsKnowingTheCap(cap: number, count: number, withTotal: boolean): number {
	if (withTotal) return Math.max(1, Math.ceil(count / cap));
	return Math.floor(count / cap) + 1;
}

describe('Return All is complete whatever page cap the service applies', () => {
	const getDeposits = { resource: 'companyWallet', operation: 'getDeposits', returnAll: true };
	const getHistory = { resource: 'companyWallet', operation: 'getBalanceHistory', returnAll: true };
	const cases: Array<[number, 'array' | 'envelope' | 'total', number]> = [];
	for (const cap of [25, 50, 100]) {
		for (const shape of ['array', 'envelope', 'total'] as const) {
			for (const count of [0, 7, cap, 130, 250]) cases.push([cap, shape, count]);
		}
	}

	it.each(cases)(
		'cap %i, %s answers, %i records: every record once, in order, at most one extra request',
		async (cap, shape, count) => {
			const path = shape === 'array' ? '/wallets/balance-history' : '/wallets/deposits';
			const asked = cappedService(path, { cap, count, shape });
			const { output } = await runNode({
				parameters: shape === 'array' ? getHistory : getDeposits,
			});
			expect(output.map((item) => item.json.id)).toEqual(
				deposits(0, count).map((record) => record.id),
			);
			const knowing = requestsKnowingTheCap(cap, count, shape === 'total');
			expect(asked.length).toBeLessThanOrEqual(knowing + 1);
			nock.cleanAll();
		},
	);

	it('Limit above the cap returns Limit records, asking no more than needed', async () => {
		const asked = cappedService('/wallets/deposits', { cap: 25, count: 500, shape: 'envelope' });
		const { output } = await runNode({
			parameters: {
				resource: 'companyWallet',
				operation: 'getDeposits',
				returnAll: false,
				limit: 120,
			},
		});
		expect(output.map((item) => item.json.id)).toEqual(deposits(0, 120).map((record) => record.id));
		// 120 (the Limit, below PAGE_SIZE) → 25 (cap learned), then 25 at a time, each starting 2
		// records early (PAGE_OVERLAP); the last asks only for the remainder and those 2.
		expect(asked).toEqual([
			{ limit: 120, offset: 0 },
			{ limit: 25, offset: 23 },
			{ limit: 25, offset: 46 },
			{ limit: 25, offset: 69 },
			{ limit: 25, offset: 92 },
			{ limit: 5, offset: 115 },
		]);
		nock.cleanAll();
	});

	it('Limit above the cap with total fetches the remaining pages concurrently, still in order', async () => {
		const asked = cappedService('/wallets/deposits', { cap: 50, count: 1000, shape: 'total' });
		const { output } = await runNode({
			parameters: {
				resource: 'companyWallet',
				operation: 'getDeposits',
				returnAll: false,
				limit: 420,
			},
		});
		expect(output.map((item) => item.json.id)).toEqual(deposits(0, 420).map((record) => record.id));
		// 420 → 50 (cap learned), then 8 pages of 50 planned 48 apart (PAGE_OVERLAP 2).
		expect(asked).toHaveLength(9);
		expect(asked.at(-1)).toEqual({ limit: 36, offset: 384 });
		nock.cleanAll();
	});

	it('a page shorter than planned while paging concurrently re-reads from where it ended', async () => {
		// total says 300, but the page at offset 100 has only 60 records (some were removed
		// between requests): the pages planned after it were asked at the wrong offsets.
		let removed = false;
		nock(BASE_URL)
			.get('/wallets/deposits')
			.query(true)
			.times(100)
			.reply(function (uri) {
				const query = new URL(uri, BASE_URL).searchParams;
				const limit = Number(query.get('limit'));
				const offset = Number(query.get('offset'));
				if (offset === 98 && !removed) {
					removed = true;
					return [200, { deposits: deposits(98, 60), total: 300 }];
				}
				// A service that serves at most 100 per page.
				const served = Math.min(limit, 100, 300 - offset);
				return [200, { deposits: deposits(offset, served), total: 300 }];
			});
		const { output } = await runNode({ parameters: getDeposits });
		const ids = output.map((item) => item.json.id);
		expect(ids).toEqual(deposits(0, 300).map((record) => record.id));
		nock.cleanAll();
	});

	it('a failing page fails the listing with the service error, not a short list', async () => {
		nock(BASE_URL)
			.get('/wallets/deposits')
			.query({ limit: '1000', offset: '0' })
			.reply(200, { deposits: deposits(0, 100), total: 400 });
		nock(BASE_URL)
			.get('/wallets/deposits')
			.query((query) => query.offset !== '0')
			.times(20)
			.reply(function (uri) {
				const offset = Number(new URL(uri, BASE_URL).searchParams.get('offset'));
				if (offset === 196) return [503, { errorCode: 'SERVICE_UNAVAILABLE', message: 'Нет' }];
				return [200, { deposits: deposits(offset, 100), total: 400 }];
			});
		const error = await runNodeError({ parameters: getDeposits });
		expect(error.message).toBe(
			'SERVICE_UNAVAILABLE: The service is temporarily unavailable; retry later',
		);
		nock.cleanAll();
	});
});

/** How a service that refuses a large `limit` says so (its largest `limit` is not shown). */
type Refusal = 'details' | 'message' | 'neither';

/**
 * A list endpoint that answers 400 VALIDATION_ERROR to any `limit` above `max`, naming the
 * largest accepted size in `details`, only in its (Russian) message, or nowhere; below that it
 * serves up to `max` records. Records every (limit, offset) it was asked, refused ones too.
 */
function refusingService(
	path: string,
	{
		max,
		count,
		refusal,
		withTotal = true,
	}: { max: number; count: number; refusal: Refusal; withTotal?: boolean },
) {
	const asked: Array<{ limit: number; offset: number; refused?: true }> = [];
	listEndpoint(path, (limit, offset) => {
		if (limit > max) {
			asked.push({ limit, offset, refused: true });
			const body: Record<string, unknown> = {
				statusCode: 400,
				error: 'Bad Request',
				errorCode: 'VALIDATION_ERROR',
				message:
					refusal === 'neither'
						? ['limit слишком большой']
						: [`limit должен быть целым числом от 1 до ${max}`],
				requestId: 'req-limit',
			};
			if (refusal === 'details') body.details = { field: 'limit', max };
			return [400, body];
		}
		asked.push({ limit, offset });
		const from = Math.min(offset, count);
		const records = deposits(from, Math.min(limit, count - from));
		return [200, withTotal ? { deposits: records, total: count } : { deposits: records }];
	});
	return asked;
}

describe('Return All asks for large pages and follows a refused limit', () => {
	// The services below answer any number of requests: what was asked is checked instead.
	afterEach(() => nock.cleanAll());
	const getDeposits = { resource: 'companyWallet', operation: 'getDeposits', returnAll: true };

	/** Return All against a refusingService: every record once, in order; what it was asked. */
	async function returnAllFrom(options: Parameters<typeof refusingService>[1]) {
		const asked = refusingService('/wallets/deposits', options);
		const { output } = await runNode({ parameters: getDeposits });
		expect(output.map((item) => item.json.id)).toEqual(deposits(0, options.count).map((r) => r.id));
		return asked;
	}

	it.each([
		[
			`asks for ${PAGE_SIZE} records a page: 2,500 records in 3 requests`,
			5000,
			2500,
			[
				{ limit: 1000, offset: 0 },
				{ limit: 1000, offset: 998 },
				{ limit: 1000, offset: 1996 },
			],
		],
		[
			'asks again at the largest limit named in details, and keeps it for the next pages',
			100,
			250,
			[
				{ limit: 1000, offset: 0, refused: true },
				{ limit: 100, offset: 0 },
				{ limit: 100, offset: 98 },
				{ limit: 100, offset: 196 },
			],
		],
	])('%s', async (_title, max, count, expected) => {
		expect(await returnAllFrom({ max, count, refusal: 'details' })).toEqual(expected);
	});

	it('reads the largest limit from the message when details name none', async () => {
		const asked = await returnAllFrom({
			max: 250,
			count: 600,
			refusal: 'message',
		});
		expect(asked.filter((a) => a.refused)).toEqual([{ limit: 1000, offset: 0, refused: true }]);
		expect(asked.filter((a) => !a.refused).every((a) => a.limit === 250)).toBe(true);
	});

	it('steps down when the refusal names no size, then stays at the size accepted', async () => {
		const asked = await returnAllFrom({
			max: 120,
			count: 300,
			refusal: 'neither',
			withTotal: false,
		});
		// 1000, 500, 250 refused; 100 accepted and kept.
		expect(asked.slice(0, 4)).toEqual([
			{ limit: 1000, offset: 0, refused: true },
			{ limit: 500, offset: 0, refused: true },
			{ limit: 250, offset: 0, refused: true },
			{ limit: 100, offset: 0 },
		]);
		expect(asked.slice(4).every((a) => a.limit === 100 && !a.refused)).toBe(true);
	});

	it('remembers the accepted size for the whole run: a second item is not refused again', async () => {
		const asked = refusingService('/wallets/deposits', {
			max: 100,
			count: 150,
			refusal: 'details',
		});
		const { output } = await runNode({ parameters: getDeposits, items: [{}, {}] });
		expect(output).toHaveLength(300);
		expect(asked.filter((a) => a.refused)).toHaveLength(1);
		expect(asked.filter((a) => a.offset === 0 && !a.refused)).toEqual([
			{ limit: 100, offset: 0 },
			{ limit: 100, offset: 0 },
		]);
	});

	it('a 400 that does not name limit fails with the service error and is not sent again', async () => {
		nock(BASE_URL)
			.get('/wallets/deposits')
			.query(true)
			.reply(400, {
				statusCode: 400,
				error: 'Bad Request',
				errorCode: 'VALIDATION_ERROR',
				message: ['status должен быть одним из: pending, completed'],
				requestId: 'req-status',
			});
		const error = await runNodeError({ parameters: getDeposits });
		expect(error.message).toMatch(/^VALIDATION_ERROR/);
		expect(String(error.description)).toMatch(/Request ID: req-status/);
	});

	it('a refusal of limit 1 is the service error, not a loop', async () => {
		const asked = refusingService('/wallets/deposits', { max: 0, count: 5, refusal: 'neither' });
		const error = await runNodeError({ parameters: getDeposits });
		expect(error.message).toMatch(/^VALIDATION_ERROR/);
		expect(asked.map((a) => a.limit)).toEqual([1000, ...PAGE_SIZE_STEPS]);
	});

	const cases: Array<[Refusal, number, number, boolean]> = [];
	for (const refusal of ['details', 'message', 'neither'] as const) {
		for (const max of [7, 100, 999]) {
			for (const count of [0, max, 250]) {
				for (const withTotal of [true, false]) cases.push([refusal, max, count, withTotal]);
			}
		}
	}
	it.each(cases)(
		'refusal by %s, largest limit %i, %i records, total %s: every record once, in order',
		async (refusal, max, count, withTotal) => {
			const asked = await returnAllFrom({ max, count, refusal, withTotal });
			// At most as many refusals as sizes tried, all before the first page was served.
			const firstServed = asked.findIndex((a) => !a.refused);
			expect(asked.slice(firstServed).some((a) => a.refused)).toBe(false);
			nock.cleanAll();
		},
	);

	it('the record pickers follow a refused limit too', async () => {
		const asked = refusingService('/cards', { max: 20, count: 30, refusal: 'details' });
		const methods = new CompanyPayments().methods.listSearch as unknown as Record<
			string,
			(
				this: ILoadOptionsFunctions,
				filter?: string,
				token?: string,
			) => Promise<INodeListSearchResult>
		>;
		const context = createContext({ parameters: {} }) as unknown as ILoadOptionsFunctions;
		const first = await methods.getCards.call(context);
		expect(asked[0]).toMatchObject({ limit: 50, refused: true });
		expect(asked.slice(1).every((a) => a.limit === 20 && !a.refused)).toBe(true);
		expect(first.results.length).toBeGreaterThan(0);
		nock.cleanAll();
	});
});
