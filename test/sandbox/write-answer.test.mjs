// The profile choice `writeAnswer` (outside r9-money F1, F10): a money write the service carried
// out answers with its record as it stands, with the record in status failed, (Card Recharge)
// 202 {"status":"accepted"} with no record, or the record made but in a status the document does
// not list (`unlisted`: an order `cancelled`, a recharge `on_hold`; outside r23-money). The node reads the last two as unknown. `failed` also
// fails a payout at once after Create and answers a Cancel with the payout declined before it
// (outside r10-money F1).
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { KEYS, client, control, openSandbox, placeOrder } from './helpers.mjs';

describe('writeAnswer: how a carried-out money write answers', () => {
	let sandbox;
	let api;
	let ctl;
	let n = 0;
	const recharge = async () => {
		const cards = (await api.get('/cards')).body.cards;
		const card = cards.find((c) => c.status === 'assigned');
		return api.post(
			'/cards/recharge',
			{ cardId: card.id, targetAmount: 10 },
			{ headers: { 'Idempotency-Key': `write-answer-${++n}` } },
		);
	};
	const useProfile = async (profile) => {
		const res = await ctl.post('/profile', { profile });
		assert.equal(res.status, 200, res.text);
		sandbox.reset();
	};

	before(async () => {
		sandbox = await openSandbox();
		api = client(sandbox, KEYS.legacy);
		ctl = control(sandbox);
	});
	after(() => sandbox.close());
	beforeEach(() => useProfile({}));

	it('record (unset): the recharge completed, the order created', async () => {
		const made = await recharge();
		assert.equal(made.status, 201, made.text);
		assert.equal(made.body.status, 'completed');
		assert.equal((await placeOrder(api)).status, 'created');
	});

	it('failed: the recharge answered failed with its debit kept, the order failed at once', async () => {
		await useProfile({ writeAnswer: 'failed' });
		const before = (await api.get('/wallets/balance')).body.usdtBalance;
		const made = await recharge();
		assert.equal(made.status, 201, made.text);
		assert.equal(made.body.status, 'failed');
		assert.ok((await api.get('/wallets/balance')).body.usdtBalance < before);
		assert.equal((await placeOrder(api)).status, 'failed');
	});

	it('failed: a payout made is failed at once, charged, no refundedAt; a cancel answers with the payout declined before it', async () => {
		await useProfile({ writeAnswer: 'failed' });
		const payout = (externalId) =>
			api.post(
				'/payouts',
				{ amountRub: 500, requisiteType: 'card', requisite: '2200700000000001', externalId },
				{ headers: { 'Idempotency-Key': `write-answer-${++n}` } },
			);
		const made = await payout(`wa-${n}`);
		assert.equal(made.status, 201, made.text);
		assert.equal(made.body.status, 'fail');
		assert.equal(made.body.failReason, 'requisites_invalid');
		assert.equal(made.body.refundedAt, null);
		// A payout still waiting (made under the record answer) is declined, not cancelled.
		await ctl.post('/profile', { profile: {} });
		const waiting = await payout(`wa-${n}`);
		assert.equal(waiting.body.status, 'waiting_trader', waiting.text);
		await ctl.post('/profile', { profile: { writeAnswer: 'failed' } });
		const cancelled = await api.post(`/payouts/${waiting.body.id}/cancel`, {});
		assert.equal(cancelled.status, 200, cancelled.text);
		assert.equal(cancelled.body.status, 'fail');
		assert.equal(cancelled.body.failReason, 'trader_declined');
	});

	it('accepted: the recharge answered 202 {"status":"accepted"}, made all the same', async () => {
		await useProfile({ writeAnswer: 'accepted' });
		const before = (await api.get('/wallets/balance')).body.usdtBalance;
		const made = await recharge();
		assert.equal(made.status, 202, made.text);
		assert.deepEqual(made.body, { status: 'accepted' });
		assert.ok((await api.get('/wallets/balance')).body.usdtBalance < before);
	});

	it('unlisted (r23-money): the order made and its funds reserved, answered cancelled; read again it stands', async () => {
		await useProfile({ writeAnswer: 'unlisted' });
		const frozen = (await api.get('/wallets/balance')).body.frozenBalance;
		const order = await placeOrder(api);
		assert.equal(order.status, 'cancelled');
		assert.equal((await api.get(`/orders/${order.id}`)).body.status, 'created');
		assert.ok((await api.get('/wallets/balance')).body.frozenBalance > frozen);
		const made = await recharge();
		assert.equal(made.status, 201, made.text);
		assert.equal(made.body.status, 'on_hold');
	});
});
