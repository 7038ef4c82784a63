// Every state change the sandbox simulates shows in its lists (GET /orders, /disputes,
// /wallets/deposits, /user-wallets/deposits, /cards, /payouts), so a client that polls the
// lists (the poll trigger) sees what a webhook would have announced, and what none announces.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { KEYS, client, control, openSandbox, placeOrder } from './helpers.mjs';

/** Reads a whole list, 100 a page; `key` is the envelope key, or null for a bare array. */
async function listAll(api, path, key) {
	const out = [];
	for (let offset = 0; ; offset += 100) {
		const sep = path.includes('?') ? '&' : '?';
		const res = await api.get(`${path}${sep}limit=100&offset=${offset}`);
		assert.equal(res.status, 200, res.text);
		const page = key ? res.body[key] : res.body;
		out.push(...page);
		if (page.length < 100) return out;
	}
}

async function listed(api, path, key, id) {
	const found = (await listAll(api, path, key)).filter((r) => r.id === id);
	assert.equal(found.length, 1, `${id} is listed once in ${path}`);
	return found[0];
}

describe('lists reflect every simulated state change', () => {
	let sandbox;
	let api;
	let ctl;
	let n = 0;
	const idem = () => ({ headers: { 'Idempotency-Key': `lists-${++n}` } });
	before(async () => {
		sandbox = await openSandbox();
		api = client(sandbox, KEYS.legacy);
		ctl = control(sandbox);
	});
	after(() => sandbox.close());
	beforeEach(() => sandbox.reset());

	it('order status changes by control show in GET /orders and its status filter', async () => {
		const order = await placeOrder(api);
		assert.equal((await listed(api, '/orders', null, order.id)).status, 'created');
		await ctl.post(`/orders/${order.id}/status`, { status: 'in_progress' });
		assert.equal((await listed(api, '/orders', null, order.id)).status, 'in_progress');
		await ctl.post(`/orders/${order.id}/status`, { status: 'success' });
		assert.equal((await listed(api, '/orders?status=success', null, order.id)).status, 'success');
	});

	for (const [resolution, orderStatus, failureReason, extra] of [
		['refund', 'failed', 'dispute_refund', {}],
		['partial_refund', 'failed', 'dispute_partial_refund', { refundAmount: 5 }],
		['confirm', 'success', null, {}],
	]) {
		it(`dispute resolved with ${resolution}: GET /disputes and GET /orders show the outcome`, async () => {
			const order = await placeOrder(api);
			await ctl.post(`/orders/${order.id}/status`, { status: 'success' });
			const opened = await api.post(`/orders/${order.id}/disputes`, { reason: 'not received' });
			assert.equal(opened.status, 201, opened.text);
			const before = await listed(api, '/disputes', 'disputes', opened.body.id);
			assert.equal(before.status, 'submitted');
			assert.equal((await listed(api, '/orders', null, order.id)).status, 'disputed');

			const res = await ctl.post(`/disputes/${opened.body.id}/resolve`, { resolution, ...extra });
			assert.equal(res.status, 200, res.text);
			const dispute = await listed(api, '/disputes?status=resolved', 'disputes', opened.body.id);
			assert.equal(dispute.status, 'resolved');
			assert.equal(dispute.resolution, resolution);
			assert.equal(dispute.order.status, orderStatus, 'the embedded order is current');
			const listedOrder = await listed(api, `/orders?status=${orderStatus}`, null, order.id);
			assert.equal(listedOrder.status, orderStatus);
			assert.equal(listedOrder.failureReason, failureReason);
		});
	}

	it('dispute rejected: the order returns to its earlier status in GET /orders', async () => {
		const order = await placeOrder(api);
		await ctl.post(`/orders/${order.id}/status`, { status: 'success' });
		const opened = await api.post(`/orders/${order.id}/disputes`, { reason: 'not received' });
		await ctl.post(`/disputes/${opened.body.id}/review`);
		assert.equal((await listed(api, '/disputes', 'disputes', opened.body.id)).status, 'in_review');
		await ctl.post(`/disputes/${opened.body.id}/reject`, { adminComment: 'paid' });
		assert.equal((await listed(api, '/disputes', 'disputes', opened.body.id)).status, 'rejected');
		assert.equal((await listed(api, '/orders', null, order.id)).status, 'success');
	});

	const payoutInput = {
		amountRub: 9750,
		requisiteType: 'card',
		requisite: '4111111111111111',
		externalId: 'lists-payout',
	};

	it('payout refund sets refundedAt in GET /payouts, and recharge clears it (back to success)', async () => {
		const created = await api.post('/payouts', payoutInput, idem());
		assert.equal(created.status, 201, created.text);
		const id = created.body.id;
		await ctl.post(`/payouts/${id}/status`, { status: 'success' });
		assert.equal((await listed(api, '/payouts', 'payouts', id)).status, 'success');

		await ctl.post(`/payouts/${id}/status`, { status: 'fail', failReason: 'trader_declined' });
		const failed = await listed(api, '/payouts?status=fail', 'payouts', id);
		assert.equal(failed.failReason, 'trader_declined');
		assert.equal(typeof failed.refundedAt, 'string', 'refundedAt is set');

		const recharged = await ctl.post(`/payouts/${id}/recharge`);
		assert.equal(recharged.status, 200, recharged.text);
		const back = await listed(api, '/payouts?status=success', 'payouts', id);
		assert.equal(back.refundedAt, null);
		assert.equal(back.failReason, null);
	});

	it('payout failed without refund, then refunded: refundedAt appears only at the refund step', async () => {
		const { body } = await api.post('/payouts', payoutInput, idem());
		await ctl.post(`/payouts/${body.id}/status`, { status: 'fail', refund: false });
		const unrefunded = await listed(api, '/payouts', 'payouts', body.id);
		assert.equal(unrefunded.status, 'fail');
		assert.equal(unrefunded.refundedAt, null);
		await ctl.post(`/payouts/${body.id}/status`, { status: 'fail', refund: true });
		assert.equal(typeof (await listed(api, '/payouts', 'payouts', body.id)).refundedAt, 'string');
	});

	it('payout dispute won by the user: GET /payouts shows fail, dispute_lost, refunded', async () => {
		const { body } = await api.post('/payouts', payoutInput, idem());
		await ctl.post(`/payouts/${body.id}/status`, { status: 'success' });
		await ctl.post(`/payouts/${body.id}/dispute`, { action: 'open' });
		assert.equal((await listed(api, '/payouts', 'payouts', body.id)).dispute.status, 'open');
		await ctl.post(`/payouts/${body.id}/dispute`, { action: 'resolve', resolution: 'user_won' });
		const payout = await listed(api, '/payouts', 'payouts', body.id);
		assert.equal(payout.status, 'fail');
		assert.equal(payout.failReason, 'dispute_lost');
		assert.equal(payout.dispute.resolution, 'user_won');
		assert.equal(typeof payout.refundedAt, 'string');
	});

	it('a company deposit held in AML shows aml_pending, then completed or aml_failed', async () => {
		const held = await ctl.post('/deposits', { amount: 100, aml: 'pending' });
		assert.equal(held.status, 201, held.text);
		const ok = held.body.deposit.id;
		assert.equal((await listed(api, '/wallets/deposits', 'deposits', ok)).status, 'aml_pending');
		const balance = (await api.get('/wallets/balance')).body.usdtBalance;

		const done = await ctl.post(`/deposits/${ok}/status`, { status: 'completed' });
		assert.equal(done.status, 200, done.text);
		const completed = await listed(api, '/wallets/deposits?status=completed', 'deposits', ok);
		assert.equal(completed.creditedAmount, 99);
		assert.equal((await api.get('/wallets/balance')).body.usdtBalance, balance + 99);

		const bad = (await ctl.post('/deposits', { amount: 50, aml: 'pending' })).body.deposit.id;
		await ctl.post(`/deposits/${bad}/status`, { status: 'aml_failed' });
		const failed = await listed(api, '/wallets/deposits?status=aml_failed', 'deposits', bad);
		assert.equal(failed.amlRiskIndicator, 'high');
		const again = await ctl.post(`/deposits/${bad}/status`, { status: 'completed' });
		assert.equal(again.status, 409, 'a failed deposit cannot complete');
	});

	it('a user-wallet deposit moves through aml_pending and aml_passed to completed in its list', async () => {
		const res = await ctl.post('/deposits', { amount: 30, aml: 'pending', externalId: 'u-lists' });
		const id = res.body.deposit.id;
		const path = '/user-wallets/deposits?externalId=u-lists';
		assert.equal((await listed(api, path, 'deposits', id)).status, 'aml_pending');
		await ctl.post(`/deposits/${id}/status`, { status: 'aml_passed' });
		assert.equal((await listed(api, path, 'deposits', id)).status, 'aml_passed');
		await ctl.post(`/deposits/${id}/status`, { status: 'completed' });
		assert.equal((await listed(api, path, 'deposits', id)).status, 'completed');
	});

	it('a pending card request is listed as a requested card that becomes assigned (same id)', async () => {
		await ctl.post('/cards/stock', { count: 0 });
		const req = await api.post('/cards/request', { externalId: 'lists-card' }, idem());
		assert.equal(req.status, 202, req.text);
		const [queued] = await listAll(api, '/cards?externalId=lists-card', 'cards');
		assert.equal(queued.status, 'requested');
		assert.equal(queued.maskedPan, null);

		const done = await ctl.post(`/card-requests/${req.body.request.id}/fulfill`);
		assert.equal(done.status, 200, done.text);
		assert.equal(done.body.card.id, queued.id);
		const card = await listed(api, '/cards?status=assigned', 'cards', queued.id);
		assert.equal(card.externalId, 'lists-card');
		assert.match(card.maskedPan, /^\d{6}\*{6}\d{4}$/);
		const request = await api.get(`/cards/requests/${req.body.request.id}`);
		assert.equal(request.body.status, 'fulfilled');
		assert.equal(request.body.cardId, queued.id);
		const [event] = (await ctl.get('/events?event=card.assigned')).body.events;
		assert.equal(event.payload.cardId, queued.id);
	});

	it('a requested card the issuer fails shows failed, its request failed and the reserve freed', async () => {
		await ctl.post('/cards/stock', { count: 0 });
		const before = (await api.get('/wallets/balance')).body;
		const req = await api.post('/cards/request', { externalId: 'lists-card-2' }, idem());
		const [queued] = await listAll(api, '/cards?externalId=lists-card-2', 'cards');
		const res = await ctl.post(`/cards/${queued.id}/status`, { status: 'failed' });
		assert.equal(res.status, 200, res.text);
		assert.equal((await listed(api, '/cards?status=failed', 'cards', queued.id)).status, 'failed');
		assert.equal((await api.get(`/cards/requests/${req.body.request.id}`)).body.status, 'failed');
		assert.deepEqual((await api.get('/wallets/balance')).body, before);
	});

	it('POST /__control/payouts/bulk adds 10,000 payouts listed newest first', async () => {
		const res = await ctl.post('/payouts/bulk', { count: 10_000 });
		assert.equal(res.status, 201, res.text);
		const all = await listAll(api, '/payouts', 'payouts');
		assert.equal(all.length, res.body.total);
		assert.ok(all.length >= 10_000);
		for (let i = 1; i < all.length; i++) {
			assert.ok(all[i - 1].createdAt >= all[i].createdAt, `newest first at ${i}`);
		}
		const bulk = all.filter((p) => p.externalId?.startsWith('bulk-'));
		assert.equal(bulk.length, 10_000);
		const refunded = bulk.filter((p) => p.status === 'fail' && p.refundedAt);
		assert.equal(refunded.length, 1000);
		// Bulk payouts are ordinary records: control transitions work on them.
		const waiting = bulk.find((p) => p.status === 'waiting_trader');
		await ctl.post(`/payouts/${waiting.id}/status`, { status: 'success' });
		assert.equal(
			(await listed(api, '/payouts?status=success', 'payouts', waiting.id)).status,
			'success',
		);
	});
});

describe('legacy deposit statuses (legacyDepositStatuses)', () => {
	let sandbox;
	let api;
	let ctl;
	before(async () => {
		sandbox = await openSandbox({ legacyDepositStatuses: true, seed: { payouts: 500 } });
		api = client(sandbox, KEYS.legacy);
		ctl = control(sandbox);
	});
	after(() => sandbox.close());

	it('user-wallet deposits store aml_pass / aml_fail, and the aml_failed event carries it', async () => {
		const path = '/user-wallets/deposits?externalId=u-legacy';
		const pass = (
			await ctl.post('/deposits', { amount: 30, aml: 'pending', externalId: 'u-legacy' })
		).body.deposit.id;
		await ctl.post(`/deposits/${pass}/status`, { status: 'aml_passed' });
		assert.equal((await listed(api, path, 'deposits', pass)).status, 'aml_pass');
		await ctl.post(`/deposits/${pass}/status`, { status: 'completed' });
		assert.equal((await listed(api, path, 'deposits', pass)).status, 'completed');

		const fail = (await ctl.post('/deposits', { amount: 30, aml: 'fail', externalId: 'u-legacy' }))
			.body.deposit.id;
		assert.equal(
			(await listed(api, `${path}&status=aml_fail`, 'deposits', fail)).status,
			'aml_fail',
		);
		const [event] = (await ctl.get('/events?event=deposit.aml_failed')).body.events;
		assert.equal(event.payload.depositId, fail);
		assert.equal(event.payload.status, 'aml_fail');
	});

	it('company deposits keep the normalised values (their status list has no legacy forms)', async () => {
		const id = (await ctl.post('/deposits', { amount: 30, aml: 'fail' })).body.deposit.id;
		assert.equal((await listed(api, '/wallets/deposits', 'deposits', id)).status, 'aml_failed');
	});

	it('seed.payouts adds that many payouts at start', async () => {
		const res = await api.get('/payouts?externalId=bulk-500');
		assert.equal(res.body.total, 1);
		const all = await listAll(api, '/payouts', 'payouts');
		assert.equal(all.filter((p) => p.externalId?.startsWith('bulk-')).length, 500);
	});
});
