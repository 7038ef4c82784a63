import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { KEYS, client, control, expectError, openSandbox } from './helpers.mjs';

const PAYOUT_FIELDS = [
	'amountRub',
	'bank',
	'bankId',
	'chargedUsdt',
	'comment',
	'completedAt',
	'createdAt',
	'dispute',
	'externalId',
	'failReason',
	'id',
	'rate',
	'recipientFirstName',
	'recipientLastName',
	'refundedAt',
	'requisite',
	'requisiteType',
	'status',
	'takenAt',
];

describe('payouts', () => {
	let sandbox;
	let api;
	let ctl;
	let n = 0;
	const key = () => ({ headers: { 'Idempotency-Key': `payout-${++n}` } });
	const input = (extra = {}) => ({
		amountRub: 9750,
		requisiteType: 'phone',
		requisite: '+79001112233',
		bankId: 'sber',
		recipientFirstName: 'Пётр',
		recipientLastName: 'Иванов',
		externalId: 'ext-1',
		...extra,
	});
	const balance = async () => (await api.get('/wallets/balance')).body.usdtBalance;
	before(async () => {
		sandbox = await openSandbox();
		api = client(sandbox, KEYS.legacy);
		ctl = control(sandbox);
	});
	after(() => sandbox.close());
	beforeEach(() => sandbox.reset());

	it('creates a payout in waiting_trader and debits chargedUsdt at the fixed rate', async () => {
		const res = await api.post('/payouts', input(), key());
		assert.equal(res.status, 201, res.text);
		assert.deepEqual(Object.keys(res.body).sort(), PAYOUT_FIELDS);
		assert.equal(res.body.status, 'waiting_trader');
		assert.equal(res.body.chargedUsdt, 100);
		assert.equal(res.body.rate, 97.5);
		assert.equal(res.body.bank, 'Сбербанк');
		assert.equal(res.body.refundedAt, null);
		assert.equal(await balance(), 900);
		assert.deepEqual((await api.get(`/payouts/${res.body.id}`)).body, res.body);
		const [event] = (await ctl.get('/events?event=payout.status_changed')).body.events;
		assert.equal(event.payload.status, 'waiting_trader');
		assert.equal(event.payload.refunded, false);
	});

	it('validates input with the payout codes', async () => {
		expectError(assert, await api.post('/payouts', input()), 400, 'IDEMPOTENCY_KEY_REQUIRED');
		expectError(
			assert,
			await api.post('/payouts', input({ requisiteType: 'iban' }), key()),
			400,
			'VALIDATION_ERROR',
		);
		expectError(
			assert,
			await api.post('/payouts', input({ requisite: '123' }), key()),
			422,
			'PAYOUT_REQUISITE_INVALID',
		);
		expectError(
			assert,
			await api.post('/payouts', input({ bankId: undefined }), key()),
			422,
			'PAYOUT_BANK_REQUIRED',
		);
		expectError(
			assert,
			await api.post('/payouts', input({ bankId: 'nobank' }), key()),
			422,
			'PAYOUT_BANK_UNKNOWN',
		);
		expectError(
			assert,
			await api.post('/payouts', input({ amountRub: 50 }), key()),
			422,
			'AMOUNT_BELOW_MIN',
		);
		expectError(assert, await api.get('/payouts/po_missing'), 404, 'PAYOUT_NOT_FOUND');
	});

	it('cancel while waiting_trader: fail, cancelled_by_merchant, refundedAt set, funds back', async () => {
		const p = (await api.post('/payouts', input(), key())).body;
		const res = await api.post(`/payouts/${p.id}/cancel`);
		assert.equal(res.status, 200);
		assert.equal(res.body.status, 'fail');
		assert.equal(res.body.failReason, 'cancelled_by_merchant');
		assert.ok(res.body.refundedAt);
		assert.equal(await balance(), 1000);
		expectError(assert, await api.post(`/payouts/${p.id}/cancel`), 409, 'PAYOUT_NOT_CANCELABLE');
	});

	it('cannot cancel once a trader has taken the payout', async () => {
		const p = (await api.post('/payouts', input(), key())).body;
		const taken = await ctl.post(`/payouts/${p.id}/status`, { status: 'in_progress' });
		assert.ok(taken.body.takenAt);
		expectError(assert, await api.post(`/payouts/${p.id}/cancel`), 409, 'PAYOUT_NOT_CANCELABLE');
	});

	it('fail without refund keeps the money charged until a later refund', async () => {
		const p = (await api.post('/payouts', input(), key())).body;
		const failed = await ctl.post(`/payouts/${p.id}/status`, {
			status: 'fail',
			failReason: 'timeout',
			refund: false,
		});
		assert.equal(failed.body.refundedAt, null);
		assert.equal(await balance(), 900);
		const refunded = await ctl.post(`/payouts/${p.id}/status`, { status: 'fail', refund: true });
		assert.ok(refunded.body.refundedAt);
		assert.equal(await balance(), 1000);
		const events = (await ctl.get('/events?event=payout.status_changed')).body.events.map(
			(e) => e.payload.refunded,
		);
		assert.deepEqual(events, [true, false, false]);
	});

	it('dispute user_won fails the payout and returns the funds', async () => {
		const p = (await api.post('/payouts', input(), key())).body;
		await ctl.post(`/payouts/${p.id}/status`, { status: 'success' });
		const opened = await ctl.post(`/payouts/${p.id}/dispute`, {
			action: 'open',
			comment: 'не дошло',
		});
		assert.equal(opened.body.dispute.status, 'open');
		const resolved = await ctl.post(`/payouts/${p.id}/dispute`, {
			action: 'resolve',
			resolution: 'user_won',
		});
		assert.equal(resolved.body.status, 'fail');
		assert.equal(resolved.body.failReason, 'dispute_lost');
		assert.equal(resolved.body.dispute.resolution, 'user_won');
		assert.ok(resolved.body.refundedAt);
		assert.equal(await balance(), 1000);
		const last = (await ctl.get('/events?event=payout.status_changed')).body.events[0].payload;
		assert.equal(last.disputeStatus, 'resolved');
		assert.equal(last.disputeResolution, 'user_won');
		assert.equal(last.refunded, true);
	});

	it('recharge after refund: back to success, charged again, payout.recharged emitted', async () => {
		const p = (await api.post('/payouts', input(), key())).body;
		await api.post(`/payouts/${p.id}/cancel`);
		const res = await ctl.post(`/payouts/${p.id}/recharge`);
		assert.equal(res.body.status, 'success');
		assert.equal(res.body.refundedAt, null);
		assert.equal(await balance(), 900);
		const [recharged] = (await ctl.get('/events?event=payout.recharged')).body.events;
		assert.equal(recharged.payload.status, 'success');
		assert.equal(recharged.payload.refunded, false);
		expectError(assert, await ctl.post(`/payouts/${p.id}/recharge`), 409, 'CONFLICT');
	});

	it('recharge after refund with profile rechargeKeepsRefundedAt: refundedAt kept, events say refunded: true', async () => {
		sandbox.setProfile({ rechargeKeepsRefundedAt: true });
		try {
			const p = (await api.post('/payouts', input(), key())).body;
			await api.post(`/payouts/${p.id}/cancel`);
			const res = await ctl.post(`/payouts/${p.id}/recharge`);
			assert.equal(res.body.status, 'success');
			assert.notEqual(res.body.refundedAt, null);
			assert.equal(await balance(), 900);
			const [recharged] = (await ctl.get('/events?event=payout.recharged')).body.events;
			assert.equal(recharged.payload.status, 'success');
			assert.equal(recharged.payload.refunded, true);
		} finally {
			sandbox.setProfile('default');
		}
	});

	it('lists payouts in { payouts, total } with status and externalId filters', async () => {
		await api.post('/payouts', input({ externalId: 'list-me' }), key());
		const all = (await api.get('/payouts')).body;
		assert.equal(all.total, 4);
		assert.equal(all.payouts[0].externalId, 'list-me');
		assert.equal((await api.get('/payouts?externalId=list-me')).body.total, 1);
		const waiting = (await api.get('/payouts?status=waiting_trader')).body;
		assert.ok(waiting.payouts.every((p) => p.status === 'waiting_trader'));
	});
});
