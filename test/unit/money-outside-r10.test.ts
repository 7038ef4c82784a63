import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { forgetAllSentWrites, limitSentWrites } from '../../nodes/shared/money/write';
import { API_KEY, BASE_URL } from './helpers/n8n';
import {
	CARD,
	credentials,
	dated,
	expectUnknownWithSentWrite,
	moneyRunner,
	payoutRecord,
	servePayouts,
} from './helpers/money';

/*
 * The tenth outside read of the money module (/work/outside/r10-money): a payout answered in a
 * state Resolve Outcome's table does not call made is no plain success (F1); a card answered
 * `failed` is no card issued (F2); the tool's PAYMENT_REFERENCE_PENDING says the payment is
 * unknown (F3); every unknown of a tool money call carries its sent write (F4); the memory knows
 * one company and environment whichever credential carries its key (F5); a number that is no
 * safe integer names no payment (F6); a payment made in an earlier run is answered as it is now,
 * or marked as an earlier answer (F7).
 */
beforeAll(() => nock.disableNetConnect());
beforeEach(() => forgetAllSentWrites());
afterEach(() => {
	nock.cleanAll();
	limitSentWrites();
});

const run = moneyRunner();

const createPayout = (more: IDataObject = {}): IDataObject => ({
	resource: 'payout',
	operation: 'create',
	amountRub: '1500',
	requisiteType: 'card',
	requisite: CARD,
	additionalFields: { externalId: 'inv-1' },
	...more,
});

describe("F1: a payout answered in a state Resolve Outcome's table does not call made", () => {
	it('Payout Create answered 200 in status fail, refundedAt null: unknown with its sentWrite', async () => {
		nock(BASE_URL)
			.post('/payouts')
			.reply(200, payoutRecord({ status: 'fail', failReason: 'requisites_invalid' }), dated());
		const { item } = await run(createPayout());
		expectUnknownWithSentWrite(item);
		expect(String(item.error)).toMatch(/failed \(failReason requisites_invalid\)/);
	});

	it('Payout Create answered 200 in status fail with refundedAt: unknown, saying its money came back', async () => {
		const createdAt = new Date(Date.now() - 60_000).toISOString();
		nock(BASE_URL)
			.post('/payouts')
			.reply(
				200,
				payoutRecord({
					status: 'fail',
					failReason: 'no_traders',
					createdAt,
					refundedAt: new Date().toISOString(),
				}),
				dated(),
			);
		const { item } = await run(createPayout());
		expectUnknownWithSentWrite(item);
		expect(String(item.error)).toMatch(/money came back/);
	});

	it('Payout Create answered 200 waiting_trader stays a success', async () => {
		nock(BASE_URL).post('/payouts').reply(200, payoutRecord(), dated());
		const { item } = await run(createPayout());
		expect(item.error).toBeUndefined();
		expect(item.status).toBe('waiting_trader');
	});

	it('Payout Cancel answered 200 fail / trader_declined: not paid, the cancel did not act', async () => {
		nock(BASE_URL)
			.post('/payouts/p-2/cancel')
			.reply(200, payoutRecord({ id: 'p-2', status: 'fail', failReason: 'trader_declined' }));
		const { item } = await run({ resource: 'payout', operation: 'cancel', payoutId: 'p-2' });
		expect(item.error).toBeDefined();
		expect(item.paymentOutcome).toBe('not_paid');
		expect(item.errorCode).toBe('PAYOUT_NOT_CANCELABLE');
		expect(String(item.error)).toMatch(/failed for another reason \(failReason trader_declined\)/);
	});

	it('Payout Cancel answered 200 fail / cancelled_by_merchant stays a success', async () => {
		nock(BASE_URL)
			.post('/payouts/p-2/cancel')
			.reply(
				200,
				payoutRecord({
					id: 'p-2',
					status: 'fail',
					failReason: 'cancelled_by_merchant',
					refundedAt: new Date().toISOString(),
				}),
			);
		const { item } = await run({ resource: 'payout', operation: 'cancel', payoutId: 'p-2' });
		expect(item.error).toBeUndefined();
		expect(item.failReason).toBe('cancelled_by_merchant');
	});

	it('Payout Cancel answered 200 fail naming no failReason: unknown (it may be this cancel), with sentWrite', async () => {
		nock(BASE_URL)
			.post('/payouts/p-2/cancel')
			.reply(200, payoutRecord({ id: 'p-2', status: 'fail', failReason: null }));
		const { item } = await run({ resource: 'payout', operation: 'cancel', payoutId: 'p-2' });
		expectUnknownWithSentWrite(item);
		expect(String(item.error)).toMatch(/no failReason/);
	});

	it('Payout Cancel answered 200 still waiting_trader: unknown with its sentWrite', async () => {
		nock(BASE_URL)
			.post('/payouts/p-2/cancel')
			.reply(200, payoutRecord({ id: 'p-2' }));
		const { item } = await run({ resource: 'payout', operation: 'cancel', payoutId: 'p-2' });
		expectUnknownWithSentWrite(item);
	});

	it('tool Payout Create answered 200 in status fail: the model reads unknown, with sentWrite', async () => {
		nock(BASE_URL).get('/payouts').query(true).reply(200, { payouts: [], total: 0 });
		nock(BASE_URL)
			.post('/payouts')
			.reply(200, (_uri, body) => payoutRecord({ ...(body as IDataObject), status: 'fail' }));
		const { item } = await run(
			{
				resource: 'payout',
				operation: 'create',
				amountRub: '1500',
				requisiteType: 'card',
				requisite: CARD,
				additionalFields: {},
				paymentReference: 'INV-77',
				agentMayMoveMoney: true,
			},
			{ tool: true },
		);
		const error = item.error as IDataObject;
		expect(error.paymentOutcome).toBe('unknown');
		expect(error.sentWrite).toEqual(expect.objectContaining({ seal: expect.any(String) }));
	});
});

describe('F2: a card answered failed is no card issued', () => {
	it('Card Request answered request fulfilled with its card failed: unknown, not "a card was issued"', async () => {
		nock(BASE_URL)
			.post('/cards/request')
			.reply(200, {
				status: 'assigned',
				request: {
					id: 'rq-1',
					externalId: 'emp-1',
					status: 'fulfilled',
					cardId: 'c-1',
					createdAt: new Date().toISOString(),
				},
				card: { id: 'c-1', externalId: 'emp-1', status: 'failed' },
			});
		const { item } = await run({ resource: 'card', operation: 'request', externalId: 'emp-1' });
		expectUnknownWithSentWrite(item);
		expect(item.outcome).toBeUndefined();
		expect(JSON.stringify(item)).not.toMatch(/A card was issued/);
	});
});

const toolPayout: IDataObject = {
	resource: 'payout',
	operation: 'create',
	amountRub: '1500',
	requisiteType: 'card',
	requisite: CARD,
	additionalFields: {},
	paymentReference: 'INV-7',
	agentMayMoveMoney: true,
};

describe('F3: PAYMENT_REFERENCE_PENDING tells the model the payment is unknown', () => {
	it('a second call before lookAgainAt: paymentOutcome unknown, resolve first, nothing sent', async () => {
		nock(BASE_URL).get('/payouts').query(true).reply(200, { payouts: [], total: 0 }).persist();
		nock(BASE_URL).post('/payouts').replyWithError({ code: 'ECONNRESET' });
		const first = (await run(toolPayout, { tool: true })).item.error as IDataObject;
		expect(first.paymentOutcome).toBe('unknown');
		const second = (await run(toolPayout, { tool: true })).item.error as IDataObject;
		expect(second.errorCode).toBe('PAYMENT_REFERENCE_PENDING');
		expect(second.paymentOutcome).toBe('unknown');
		expect(second.sentByThisCall).toBe(false);
		expect(String(second.whatToDo)).toMatch(/Resolve Outcome/);
		expect(second.sentWrite).toEqual(first.sentWrite);
		expect(nock.pendingMocks().filter((m) => m.startsWith('POST'))).toEqual([]);
	});
});

describe('F4: a tool money call answered with another payment carries its sentWrite', () => {
	it('Payout Create answered with amount 5000 for 1500: conflict, unknown, sentWrite, Resolve Outcome named', async () => {
		nock(BASE_URL).get('/payouts').query(true).reply(200, { payouts: [], total: 0 }).persist();
		nock(BASE_URL)
			.post('/payouts')
			.reply(200, (_uri, body) => payoutRecord({ ...(body as IDataObject), amountRub: 5000 }));
		const { item } = await run(toolPayout, { tool: true });
		const error = item.error as IDataObject;
		expect(error.errorCode).toBe('PAYMENT_REFERENCE_CONFLICT');
		expect(error.paymentOutcome).toBe('unknown');
		expect(error.sentWrite).toEqual(expect.objectContaining({ seal: expect.any(String) }));
		expect(String(error.whatToDo)).toMatch(/Resolve Outcome/);
		// The same call again sends nothing: the reference waits for Resolve Outcome.
		const again = (await run(toolPayout, { tool: true })).item.error as IDataObject;
		expect(again.paymentOutcome).toBe('unknown');
		expect(nock.pendingMocks().filter((m) => m.startsWith('POST'))).toEqual([]);
	});
});

describe('F5: one company and environment is one sender, whichever credential carries it', () => {
	const named = createPayout({ idempotencyKey: 'INV-1042' });
	it('two credentials holding the same API key at the same Base URL: sent once', async () => {
		const posts = servePayouts();
		expect((await run(named, { credentialId: 'cred-A' })).item.error).toBeUndefined();
		const second = await run(named, { credentialId: 'cred-B' });
		expect(second.item.id).toBe('p-1');
		expect(posts()).toBe(1);
	});

	it('the same Base URL written with a trailing slash or another case: the same environment', async () => {
		const posts = servePayouts();
		await run(named, { credentialId: 'cred-A' });
		await run(named, { credentialId: 'cred-B', credentials: credentials(API_KEY, `${BASE_URL}/`) });
		await run(named, {
			credentialId: 'cred-C',
			credentials: credentials(API_KEY, BASE_URL.toUpperCase().replace('HTTPS', 'https')),
		});
		expect(posts()).toBe(1);
	});

	it('the same credential after Regenerate API Key rotated its key: still the same sender', async () => {
		const posts = servePayouts();
		await run(named, { credentialId: 'cred-A' });
		nock(BASE_URL).post('/auth/company/regenerate-key').reply(200, { apiKey: 'new-key' });
		await run({ resource: 'company', operation: 'regenerateApiKey' }, { credentialId: 'cred-A' });
		await run(named, { credentialId: 'cred-A', credentials: credentials('new-key') });
		expect(posts()).toBe(1);
	});

	it('the same credential edited to another key got elsewhere: another sender (outside r11-money F1), the same key refused', async () => {
		const posts = servePayouts();
		await run(named, { credentialId: 'cred-A' });
		const again = await run(named, {
			credentialId: 'cred-A',
			credentials: credentials('new-key'),
		});
		// Neither sent again nor answered from the earlier key's memory (money-outside-r11b).
		expect(again.item.errorCode).toBe('CREDENTIAL_KEY_CHANGED');
		expect(posts()).toBe(1);
		await run(
			{ ...named, idempotencyKey: 'INV-2000' },
			{ credentialId: 'cred-A', credentials: credentials('new-key') },
		);
		expect(posts()).toBe(2);
	});

	it('another API key in another credential: another sender, its own payment', async () => {
		const posts = servePayouts();
		await run(named, { credentialId: 'cred-A' });
		await run(named, { credentialId: 'cred-B', credentials: credentials('other-key') });
		expect(posts()).toBe(2);
	});
});

describe('F6: a number that is no safe integer names no payment', () => {
	it.each([
		['External ID', { additionalFields: { externalId: 12345.1 } }, '12345.1'],
		['External ID', { additionalFields: { externalId: 0.1 + 0.2 } }, '0.30000000000000004'],
		['Bank ID', { additionalFields: { externalId: 'inv-1', bankId: 0.1 + 0.2 } }, '0.3'],
		['Idempotency Key', { idempotencyKey: 12.5 }, '12.5'],
	])('Payout Create %s %j: refused before anything is sent', async (field, more, value) => {
		const { item, requests } = await run(createPayout(more));
		expect(requests).toEqual([]);
		expect(String(item.error)).toContain(`${field} must be text or a whole number`);
		expect(String(item.error)).toContain(value);
		expect(item.paymentOutcome).toBe('not_paid');
	});

	it('Card Request External ID 12345.1: refused before anything is sent', async () => {
		const { item, requests } = await run({
			resource: 'card',
			operation: 'request',
			externalId: 12345.1,
		});
		expect(requests).toEqual([]);
		expect(String(item.error)).toContain('External ID must be text or a whole number');
	});

	it('tool Payment Reference 12345.1: refused before anything is sent', async () => {
		const { item, requests } = await run(
			{ ...toolPayout, paymentReference: 12345.1 },
			{ tool: true },
		);
		expect(requests).toEqual([]);
		expect(JSON.stringify(item)).toContain('must be text or a whole number');
	});

	it('a whole number stays its digits: External ID 12345 is sent as "12345"', async () => {
		nock(BASE_URL)
			.post('/payouts', (body: IDataObject) => body.externalId === '12345')
			.reply(200, payoutRecord({ externalId: '12345' }), dated());
		const { item } = await run(createPayout({ additionalFields: { externalId: 12345 } }));
		expect(item.error).toBeUndefined();
	});
});

describe('F7: a payment made in an earlier run is answered as it is now', () => {
	const named = createPayout({ idempotencyKey: 'SAL-42' });
	const refunded = () =>
		payoutRecord({
			status: 'fail',
			failReason: 'no_traders',
			createdAt: new Date(Date.now() - 60_000).toISOString(),
			refundedAt: new Date().toISOString(),
		});

	it('a re-run after the payout failed and was refunded: unknown with sentWrite, never the old record', async () => {
		nock(BASE_URL).post('/payouts').reply(200, payoutRecord(), dated());
		const first = await run(named);
		const firstDone = Date.now();
		expect(first.item.status).toBe('waiting_trader');
		nock(BASE_URL).get('/payouts/p-1').reply(200, refunded());
		const again = await run(named);
		expectUnknownWithSentWrite(again.item);
		// The sent write names the first send, made before the re-run.
		expect(Date.parse(String((again.item.sentWrite as IDataObject).sentAt))).toBeLessThanOrEqual(
			firstDone,
		);
		expect(again.item.earlierAnswer).toEqual(
			expect.objectContaining({ status: 'fail', readAgainAt: expect.any(String) }),
		);
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('a re-run while the payout still stands: its current record, marked as an earlier answer read again', async () => {
		nock(BASE_URL).post('/payouts').reply(200, payoutRecord(), dated());
		await run(named);
		nock(BASE_URL)
			.get('/payouts/p-1')
			.reply(200, payoutRecord({ status: 'in_progress' }));
		const again = await run(named);
		expect(again.item.error).toBeUndefined();
		expect(again.item.status).toBe('in_progress');
		expect(again.item.earlierAnswer).toEqual(
			expect.objectContaining({ sentAt: expect.any(String), readAgainAt: expect.any(String) }),
		);
	});

	it('a re-run whose read fails: the answer kept, marked as not read again', async () => {
		nock(BASE_URL).post('/payouts').reply(200, payoutRecord(), dated());
		await run(named);
		// A 404 says no such record for this key: unknown (outside r11-money, money-outside-r11).
		nock(BASE_URL).get('/payouts/p-1').reply(400, {
			statusCode: 400,
			error: 'Bad Request',
			errorCode: 'VALIDATION_ERROR',
			message: 'no',
		});
		const again = await run(named);
		expect(again.item.error).toBeUndefined();
		const mark = again.item.earlierAnswer as IDataObject;
		expect(mark.readAgainAt).toBeNull();
		expect(String(mark.note)).toMatch(/not read again|Reading it again failed/);
	});

	it('Card Request re-run in a new execution: the answer kept, marked as an earlier answer not read again', async () => {
		nock(BASE_URL)
			.post('/cards/request')
			.reply(200, {
				status: 'assigned',
				card: { id: 'c-1', externalId: 'emp-1', status: 'assigned' },
				request: {
					id: 'rq-1',
					externalId: 'emp-1',
					status: 'fulfilled',
					cardId: 'c-1',
					createdAt: new Date().toISOString(),
				},
			});
		const params = {
			resource: 'card',
			operation: 'request',
			externalId: 'emp-1',
			idempotencyKey: 'card-emp-1',
		};
		expect((await run(params)).item.outcome).toBe('assigned');
		const again = await run(params);
		expect(again.item.outcome).toBe('assigned');
		expect(again.item.earlierAnswer).toEqual(expect.objectContaining({ readAgainAt: null }));
		expect(again.requests).toEqual([]);
	});

	it('only its trace left (PAID_BEFORE) and the payout since refunded: unknown, never "paid"', async () => {
		limitSentWrites({ maxKept: 1, heldMs: 0 });
		nock(BASE_URL).post('/payouts').reply(200, payoutRecord(), dated());
		await run(named);
		nock(BASE_URL)
			.post('/payouts')
			.reply(200, payoutRecord({ id: 'p-9', externalId: 'inv-9' }), dated());
		await run(
			createPayout({ idempotencyKey: 'SAL-43', additionalFields: { externalId: 'inv-9' } }),
		);
		nock(BASE_URL).get('/payouts/p-1').reply(200, refunded());
		const again = await run(named);
		expectUnknownWithSentWrite(again.item);
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('only its trace left and the payout still stands: PAID_BEFORE, saying it was read again', async () => {
		limitSentWrites({ maxKept: 1, heldMs: 0 });
		nock(BASE_URL).post('/payouts').reply(200, payoutRecord(), dated());
		await run(named);
		nock(BASE_URL)
			.post('/payouts')
			.reply(200, payoutRecord({ id: 'p-9', externalId: 'inv-9' }), dated());
		await run(
			createPayout({ idempotencyKey: 'SAL-43', additionalFields: { externalId: 'inv-9' } }),
		);
		nock(BASE_URL)
			.get('/payouts/p-1')
			.reply(200, payoutRecord({ status: 'success' }));
		const again = await run(named);
		expect(again.item.errorCode).toBe('PAID_BEFORE');
		expect(again.item.paymentOutcome).toBe('paid');
		expect(String(again.item.error)).toMatch(/Read again now/);
	});
});
