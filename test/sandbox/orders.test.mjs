import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { KEYS, client, control, expectError, openSandbox, placeOrder } from './helpers.mjs';

const ST = (sum) =>
	`ST00012|Name=ООО «Тест»|PersonalAcc=40702810900000000001${sum === undefined ? '' : `|Sum=${sum}`}|Purpose=test`;

describe('quotes and orders', () => {
	let sandbox;
	let api;
	let ctl;
	before(async () => {
		sandbox = await openSandbox();
		api = client(sandbox, KEYS.legacy);
		ctl = control(sandbox);
	});
	after(() => sandbox.close());
	beforeEach(() => sandbox.reset());

	it('detects the payment type and the amount from the qrCode', async () => {
		const nspk = await api.post('/orders/prepare', {
			qrCode: 'https://qr.nspk.ru/AS100001?type=02&sum=191000&cur=RUB',
		});
		assert.equal(nspk.status, 200, nspk.text);
		assert.equal(nspk.body.paymentType, 'nspk');
		assert.equal(nspk.body.amountRub, 1910);
		assert.equal(nspk.body.rate, 95.5);
		assert.equal(nspk.body.amountUsdt, 20);
		assert.match(nspk.body.id, /^[0-9a-f-]{36}$/);
		for (const field of ['qrCode', 'expiresAt', 'merchantName'])
			assert.ok(field in nspk.body, field);
		assert.equal(Date.parse(nspk.body.expiresAt) - Date.parse(nspk.body.createdAt), 30_000);

		const st = await api.post('/orders/prepare', { qrCode: ST(250000) });
		assert.equal(st.body.paymentType, 'st00012');
		assert.equal(st.body.amountRub, 2500);
		assert.equal(st.body.merchantName, 'ООО «Тест»');

		const uin = await api.post('/orders/prepare', { qrCode: '18810177240000123456' });
		assert.equal(uin.body.paymentType, 'gibdd_uin');
		assert.equal(uin.body.amountRub, 956);
	});

	it('rejects bad QR codes with the documented codes', async () => {
		expectError(assert, await api.post('/orders/prepare', { qrCode: 'hello' }), 400, 'QR_INVALID');
		expectError(
			assert,
			await api.post('/orders/prepare', { qrCode: 'http://qr.nspk.ru/A?sum=100000' }),
			400,
			'QR_INVALID',
		);
		expectError(
			assert,
			await api.post('/orders/prepare', { qrCode: 'https://qr.nspk.ru/A' }),
			422,
			'QR_AMOUNT_MISSING',
		);
		expectError(
			assert,
			await api.post('/orders/prepare', { qrCode: ST() }),
			422,
			'QR_AMOUNT_MISSING',
		);
		const low = expectError(
			assert,
			await api.post('/orders/prepare', { qrCode: 'https://qr.nspk.ru/A?sum=9999' }),
			422,
			'AMOUNT_BELOW_MIN',
		);
		assert.equal(low.details.minAmountRub, 100);
		const missing = expectError(
			assert,
			await api.post('/orders/prepare', {}),
			400,
			'VALIDATION_ERROR',
		);
		assert.ok(Array.isArray(missing.message));
	});

	it('expires a quote after 30 s on the sandbox clock (410 QUOTE_EXPIRED)', async () => {
		const quote = (await api.post('/orders/prepare', { qrCode: 'https://qr.nspk.ru/A?sum=100000' }))
			.body;
		await ctl.post('/clock/advance', { ms: 29_000 });
		const quote2 = (
			await api.post('/orders/prepare', { qrCode: 'https://qr.nspk.ru/B?sum=100000' })
		).body;
		assert.equal((await api.post(`/orders/accept/${quote.id}`)).status, 200, 'still valid at 29 s');
		await ctl.post('/clock/advance', { ms: 31_000 });
		expectError(assert, await api.post(`/orders/accept/${quote2.id}`), 410, 'QUOTE_EXPIRED');
	});

	it('validates the accept path id and answers 404 QUOTE_NOT_FOUND for an unknown quote', async () => {
		expectError(assert, await api.post('/orders/accept/not-a-uuid'), 400, 'VALIDATION_ERROR');
		expectError(
			assert,
			await api.post('/orders/accept/6f1c8a52-3b7e-4d9a-8c21-5e4f3a2b1c0d'),
			404,
			'QUOTE_NOT_FOUND',
		);
	});

	it('accept reserves the amount in frozenBalance and returns every Order field', async () => {
		const order = await placeOrder(api, { kopecks: 955000 });
		assert.deepEqual(Object.keys(order).sort(), [
			'amountRub',
			'amountUsdt',
			'completedAt',
			'createdAt',
			'externalOrderId',
			'failureReason',
			'id',
			'merchantName',
			'paymentType',
			'paymentUntil',
			'rate',
			'status',
		]);
		assert.equal(order.status, 'created');
		assert.equal(order.amountUsdt, 100);
		const balance = (await api.get('/wallets/balance')).body;
		assert.deepEqual(balance, {
			usdtBalance: 1000,
			frozenBalance: 100,
			availableBalance: 900,
			currency: 'USDT',
		});
		const history = (await api.get(`/wallets/balance-history?referenceId=${order.id}`)).body;
		assert.equal(history.total, 1);
		assert.equal(history.items[0].type, 'order_hold');
	});

	it('same Idempotency-Key returns the stored order without a second reservation', async () => {
		const quote = (await api.post('/orders/prepare', { qrCode: 'https://qr.nspk.ru/A?sum=955000' }))
			.body;
		const headers = { 'Idempotency-Key': 'accept-1' };
		const first = await api.post(`/orders/accept/${quote.id}`, undefined, { headers });
		const second = await api.post(`/orders/accept/${quote.id}`, undefined, { headers });
		assert.equal(first.status, 200);
		assert.equal(second.status, 200);
		assert.deepEqual(second.body, first.body);
		assert.equal(second.headers.get('idempotent-replayed'), 'true');
		assert.equal((await api.get('/wallets/balance')).body.frozenBalance, 100);
		const withoutKey = await api.post(`/orders/accept/${quote.id}`);
		expectError(assert, withoutKey, 409, 'CONFLICT');
		const tooLong = await api.post(`/orders/accept/${quote.id}`, undefined, {
			headers: { 'Idempotency-Key': 'k'.repeat(256) },
		});
		expectError(assert, tooLong, 400, 'VALIDATION_ERROR');
	});

	it('a lost accept response retried with the same key does not pay twice', async () => {
		const quote = (await api.post('/orders/prepare', { qrCode: 'https://qr.nspk.ru/A?sum=955000' }))
			.body;
		await ctl.post('/faults', { dropFirstResponses: 1, pathPrefix: '/orders/accept' });
		const headers = { 'Idempotency-Key': 'lost-response' };
		expectError(
			assert,
			await api.post(`/orders/accept/${quote.id}`, undefined, { headers }),
			503,
			'SERVICE_UNAVAILABLE',
		);
		const retry = await api.post(`/orders/accept/${quote.id}`, undefined, { headers });
		assert.equal(retry.status, 200);
		assert.equal((await api.get('/wallets/balance')).body.frozenBalance, 100);
	});

	it('answers 422 INSUFFICIENT_BALANCE when the available balance is too small', async () => {
		const quote = (
			await api.post('/orders/prepare', { qrCode: 'https://qr.nspk.ru/A?sum=99000000' })
		).body;
		const body = expectError(
			assert,
			await api.post(`/orders/accept/${quote.id}`),
			422,
			'INSUFFICIENT_BALANCE',
		);
		assert.equal(body.details.availableUsdt, 1000);
	});

	it('success debits the balance and releases the hold; failure releases it', async () => {
		const a = await placeOrder(api, { kopecks: 955000 });
		const b = await placeOrder(api, { kopecks: 477500 });
		assert.equal(
			(await ctl.post(`/orders/${a.id}/status`, { status: 'in_progress' })).body.status,
			'in_progress',
		);
		const done = await ctl.post(`/orders/${a.id}/status`, { status: 'success' });
		assert.ok(done.body.completedAt);
		const failed = await ctl.post(`/orders/${b.id}/status`, {
			status: 'failed',
			failureReason: 'bank_rejected',
		});
		assert.equal(failed.body.failureReason, 'bank_rejected');
		assert.deepEqual((await api.get('/wallets/balance')).body, {
			usdtBalance: 900,
			frozenBalance: 0,
			availableBalance: 900,
			currency: 'USDT',
		});
		expectError(
			assert,
			await ctl.post(`/orders/${a.id}/status`, { status: 'in_progress' }),
			409,
			'CONFLICT',
		);
		const got = await api.get(`/orders/${a.id}`);
		assert.equal(got.body.status, 'success');
	});

	it('GET /orders answers a bare array with limit/offset and filters', async () => {
		const page = await api.get('/orders?limit=2&offset=1');
		assert.ok(Array.isArray(page.body));
		assert.equal(page.body.length, 2);
		const all = (await api.get('/orders?limit=100')).body;
		assert.equal(page.body[0].id, all[1].id);
		const disputed = (await api.get('/orders?status=disputed')).body;
		assert.ok(disputed.length >= 1 && disputed.every((o) => o.status === 'disputed'));
		expectError(assert, await api.get('/orders?limit=1000'), 400, 'VALIDATION_ERROR');
		expectError(
			assert,
			await api.get('/orders/6f1c8a52-3b7e-4d9a-8c21-5e4f3a2b1c0d'),
			404,
			'ORDER_NOT_FOUND',
		);
	});

	it('orderSchedule moves orders by itself on the sandbox clock', async () => {
		const scheduled = await openSandbox({
			orderSchedule: { inProgressAfterMs: 1000, successAfterMs: 2000 },
		});
		try {
			const sApi = client(scheduled, KEYS.legacy);
			const order = await placeOrder(sApi, { kopecks: 955000 });
			await control(scheduled).post('/clock/advance', { ms: 1000 });
			assert.equal((await sApi.get(`/orders/${order.id}`)).body.status, 'in_progress');
			await control(scheduled).post('/clock/advance', { ms: 1000 });
			assert.equal((await sApi.get(`/orders/${order.id}`)).body.status, 'success');
			assert.equal((await sApi.get('/wallets/balance')).body.usdtBalance, 900);
		} finally {
			await scheduled.close();
		}
	});
});

describe('disputes', () => {
	let sandbox;
	let api;
	let ctl;
	before(async () => {
		sandbox = await openSandbox();
		api = client(sandbox, KEYS.legacy);
		ctl = control(sandbox);
	});
	after(() => sandbox.close());
	beforeEach(() => sandbox.reset());

	async function completedOrder(status = 'success') {
		const order = await placeOrder(api, { kopecks: 955000 });
		await ctl.post(`/orders/${order.id}/status`, { status });
		return order;
	}

	it('allows a dispute only on a completed order and requires a reason', async () => {
		const open = await placeOrder(api);
		const refused = await api.post(`/orders/${open.id}/disputes`, { reason: 'x' });
		expectError(assert, refused, 422, 'DISPUTE_NOT_ALLOWED');
		const done = await completedOrder();
		expectError(
			assert,
			await api.post(`/orders/${done.id}/disputes`, { reason: '  ' }),
			400,
			'VALIDATION_ERROR',
		);
		expectError(
			assert,
			await api.post('/orders/nope/disputes', { reason: 'x' }),
			400,
			'VALIDATION_ERROR',
		);
	});

	it('returns the existing open dispute instead of creating a second one', async () => {
		const order = await completedOrder();
		const first = await api.post(`/orders/${order.id}/disputes`, { reason: 'Товар не получен' });
		assert.equal(first.status, 201);
		assert.equal(first.body.status, 'submitted');
		assert.equal(first.body.order.id, order.id);
		assert.equal(first.body.order.status, 'disputed');
		for (const f of [
			'externalOrderId',
			'amountUsdt',
			'amountRub',
			'rate',
			'nspkBrandName',
			'createdAt',
		]) {
			assert.ok(f in first.body.order, f);
		}
		const second = await api.post(`/orders/${order.id}/disputes`, { reason: 'ещё раз' });
		assert.equal(second.status, 200);
		assert.equal(second.body.id, first.body.id);
		assert.equal(second.body.reason, 'Товар не получен');
		assert.equal((await api.get(`/orders/${order.id}`)).body.status, 'disputed');
	});

	it('refund resolution sends the order to failed and credits a charged amount back', async () => {
		const order = await completedOrder();
		const dispute = (await api.post(`/orders/${order.id}/disputes`, { reason: 'r' })).body;
		assert.equal((await api.get('/wallets/balance')).body.usdtBalance, 900);
		const resolved = await ctl.post(`/disputes/${dispute.id}/resolve`, { resolution: 'refund' });
		assert.equal(resolved.body.status, 'resolved');
		assert.equal(resolved.body.resolution, 'refund');
		assert.equal(resolved.body.refundAmount, 100);
		assert.ok(resolved.body.resolvedAt);
		assert.equal((await api.get(`/orders/${order.id}`)).body.status, 'failed');
		assert.equal((await api.get('/wallets/balance')).body.usdtBalance, 1000);
		const newDispute = await api.post(`/orders/${order.id}/disputes`, { reason: 'again' });
		assert.equal(newDispute.status, 201, 'a closed dispute does not block a new one');
	});

	it('confirm keeps the payment and sends the order back to success', async () => {
		const order = await completedOrder();
		const dispute = (await api.post(`/orders/${order.id}/disputes`, { reason: 'r' })).body;
		const resolved = await ctl.post(`/disputes/${dispute.id}/resolve`, { resolution: 'confirm' });
		assert.equal(resolved.body.refundAmount, null);
		assert.equal((await api.get(`/orders/${order.id}`)).body.status, 'success');
		assert.equal((await api.get('/wallets/balance')).body.usdtBalance, 900);
	});

	it('partial_refund credits refundAmount; reject returns the order to its prior status', async () => {
		const order = await completedOrder();
		const dispute = (await api.post(`/orders/${order.id}/disputes`, { reason: 'r' })).body;
		const missing = await ctl.post(`/disputes/${dispute.id}/resolve`, {
			resolution: 'partial_refund',
		});
		expectError(assert, missing, 400, 'VALIDATION_ERROR');
		const partial = await ctl.post(`/disputes/${dispute.id}/resolve`, {
			resolution: 'partial_refund',
			refundAmount: 30,
		});
		assert.equal(partial.body.refundAmount, 30);
		assert.equal(partial.body.order.status, 'failed');
		assert.equal((await api.get('/wallets/balance')).body.usdtBalance, 930);
		expectError(
			assert,
			await ctl.post(`/disputes/${dispute.id}/resolve`, { resolution: 'refund' }),
			409,
			'CONFLICT',
		);

		const other = await completedOrder('failed');
		const second = (await api.post(`/orders/${other.id}/disputes`, { reason: 'r' })).body;
		assert.equal((await ctl.post(`/disputes/${second.id}/review`)).body.status, 'in_review');
		const rejected = await ctl.post(`/disputes/${second.id}/reject`, {});
		assert.equal(rejected.body.status, 'rejected');
		assert.equal(rejected.body.order.status, 'failed');
	});

	it('lists disputes newest first in { disputes, total }', async () => {
		const order = await completedOrder();
		const mine = (await api.post(`/orders/${order.id}/disputes`, { reason: 'r' })).body;
		const list = await api.get('/disputes?limit=1');
		assert.equal(list.status, 200);
		assert.equal(list.body.total, 3);
		assert.equal(list.body.disputes.length, 1);
		assert.equal(list.body.disputes[0].id, mine.id);
	});
});
