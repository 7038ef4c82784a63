import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { KEYS, client, control, expectError, openSandbox } from './helpers.mjs';

describe('cards', () => {
	let sandbox;
	let api;
	let ctl;
	let n = 0;
	const key = () => ({ headers: { 'Idempotency-Key': `card-req-${++n}` } });
	before(async () => {
		sandbox = await openSandbox();
		api = client(sandbox, KEYS.legacy);
		ctl = control(sandbox);
	});
	after(() => sandbox.close());
	beforeEach(() => sandbox.reset());

	it('requires an Idempotency-Key and validates externalId', async () => {
		expectError(assert, await api.post('/cards/request', {}), 400, 'IDEMPOTENCY_KEY_REQUIRED');
		expectError(
			assert,
			await api.post('/cards/request', { externalId: 'with space' }, key()),
			400,
			'VALIDATION_ERROR',
		);
		expectError(
			assert,
			await api.post('/cards/request', { externalId: 'кириллица' }, key()),
			400,
			'VALIDATION_ERROR',
		);
		const taken = await api.post('/cards/request', { externalId: 'demo-card-001' }, key());
		assert.deepEqual(expectError(assert, taken, 409, 'CARD_EXTERNAL_ID_TAKEN').details, {
			externalId: 'demo-card-001',
		});
	});

	it('in stock: assigns at once, reserves 25 and debits the 5 USDT opening fee', async () => {
		const res = await api.post('/cards/request', { externalId: 'emp-1' }, key());
		assert.equal(res.status, 200, res.text);
		assert.equal(res.body.status, 'assigned');
		assert.equal(res.body.card.status, 'assigned');
		assert.equal(res.body.card.externalId, 'emp-1');
		assert.match(res.body.card.expiry, /^\d{2}\/\d{2}$/);
		assert.equal(res.body.request.status, 'fulfilled');
		assert.equal(res.body.request.cardId, res.body.card.id);
		assert.deepEqual((await api.get('/wallets/balance')).body, {
			usdtBalance: 995,
			frozenBalance: 20,
			availableBalance: 975,
			currency: 'USDT',
		});
	});

	it('same Idempotency-Key returns the stored response; no second card', async () => {
		const headers = { headers: { 'Idempotency-Key': 'same-card' } };
		const a = await api.post('/cards/request', { externalId: 'emp-2' }, headers);
		const b = await api.post('/cards/request', { externalId: 'emp-2' }, headers);
		assert.deepEqual(b.body, a.body);
		assert.equal((await api.get('/cards?externalId=emp-2')).body.total, 1);
	});

	it('out of stock: 202 pending with the reserve held; fulfil emits card.assigned', async () => {
		await ctl.post('/cards/stock', { count: 0 });
		const res = await api.post('/cards/request', { externalId: 'emp-3' }, key());
		assert.equal(res.status, 202);
		assert.equal(res.body.status, 'pending');
		assert.equal(res.body.card, null);
		assert.equal(res.body.request.status, 'pending');
		assert.equal((await api.get('/wallets/balance')).body.frozenBalance, 25);
		const dup = await api.post('/cards/request', { externalId: 'emp-3' }, key());
		expectError(assert, dup, 409, 'CARD_EXTERNAL_ID_TAKEN');

		const done = await ctl.post(`/card-requests/${res.body.request.id}/fulfill`);
		assert.equal(done.body.card.externalId, 'emp-3');
		const [event] = (await ctl.get('/events?event=card.assigned')).body.events;
		assert.equal(event.payload.externalId, 'emp-3');
		assert.equal(event.payload.cardId, done.body.card.id);
		const req = await api.get(`/cards/requests/${res.body.request.id}`);
		assert.equal(req.body.status, 'fulfilled');
		assert.equal((await api.get('/wallets/balance')).body.frozenBalance, 20);
	});

	it('lists cards in { cards, total } and reads one card', async () => {
		const list = await api.get('/cards');
		assert.equal(list.body.total, 1);
		const [card] = list.body.cards;
		assert.deepEqual(Object.keys(card).sort(), [
			'assignedAt',
			'createdAt',
			'expiry',
			'externalId',
			'id',
			'maskedPan',
			'status',
		]);
		assert.deepEqual((await api.get(`/cards/${card.id}`)).body, card);
		expectError(assert, await api.get('/cards/card_missing'), 404, 'CARD_NOT_FOUND');
	});

	it('balance and sensitive data only for assigned cards', async () => {
		const [card] = (await api.get('/cards')).body.cards;
		const balance = await api.get(`/cards/${card.id}/balance`);
		assert.equal(balance.body.balance, '50.00');
		assert.equal(balance.body.currency, 'USD');
		assert.ok(balance.body.fetchedAt);
		const sensitive = await api.get(`/cards/${card.id}/sensitive`);
		assert.deepEqual(Object.keys(sensitive.body).sort(), [
			'cardCvv',
			'cardId',
			'cardNumberFull',
			'expiry',
		]);
		assert.equal(sensitive.body.cardNumberFull.slice(-4), card.maskedPan.slice(-4));
		assert.equal((await ctl.get('/state')).body.sensitiveReveals.length, 1);

		await api.patch('/auth/company/profile', { cardsTestMode: true });
		assert.equal((await api.get(`/cards/${card.id}/balance`)).body.balance, '123.45');

		await ctl.post(`/cards/${card.id}/status`, { status: 'retired' });
		expectError(assert, await api.get(`/cards/${card.id}/balance`), 422, 'CARD_NOT_ACTIVE');
		expectError(assert, await api.get(`/cards/${card.id}/sensitive`), 404, 'CARD_NOT_FOUND');
	});

	it('recharge quote has the contract fields; recharge debits totalDebitUsdt once per key', async () => {
		const [card] = (await api.get('/cards')).body.cards;
		const quote = await api.post('/cards/recharge/quote', { cardId: card.id, targetAmount: 100 });
		assert.deepEqual(quote.body, {
			cardId: card.id,
			targetAmount: 100,
			processorFeeBps: 150,
			processorGrossAmount: 101.5,
			ourFeeBps: 100,
			ourFee: 1,
			userCharge: 102.5,
			commissionUsdt: 2.5,
			totalDebitUsdt: 102.5,
			currency: 'USDT',
		});
		const reader = client(sandbox, KEYS.readOnly);
		const denied = await reader.post('/cards/recharge/quote', {
			cardId: card.id,
			targetAmount: 100,
		});
		assert.equal(expectError(assert, denied, 403, 'PERMISSION_DENIED').required, 'cards.recharge');
		const headers = { headers: { 'Idempotency-Key': 'recharge-1' } };
		const r1 = await api.post('/cards/recharge', { cardId: card.id, targetAmount: 100 }, headers);
		const r2 = await api.post('/cards/recharge', { cardId: card.id, targetAmount: 100 }, headers);
		assert.equal(r1.status, 201, r1.text);
		assert.equal(r1.body.status, 'completed');
		assert.equal(r1.body.totalDebitUsdt, 102.5);
		assert.deepEqual(r2.body, r1.body);
		assert.equal((await api.get('/wallets/balance')).body.usdtBalance, 897.5);
		expectError(
			assert,
			await api.post('/cards/recharge/quote', { cardId: card.id, targetAmount: 5 }),
			422,
			'CARD_RECHARGE_INVALID',
		);
		expectError(
			assert,
			await api.post('/cards/recharge', { cardId: card.id, targetAmount: 100 }),
			400,
			'IDEMPOTENCY_KEY_REQUIRED',
		);
	});

	it('card balance is cached for about 60 s like the bridge', async () => {
		const [card] = (await api.get('/cards')).body.cards;
		const first = (await api.get(`/cards/${card.id}/balance`)).body;
		await api.post('/cards/recharge', { cardId: card.id, targetAmount: 10 }, key());
		assert.deepEqual((await api.get(`/cards/${card.id}/balance`)).body, first);
		await ctl.post('/clock/advance', { ms: 60_000 });
		assert.equal((await api.get(`/cards/${card.id}/balance`)).body.balance, '60.00');
	});
});
