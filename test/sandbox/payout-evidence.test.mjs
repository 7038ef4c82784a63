// Issue 44.2: the payout choices that test evidence of a payment, played both ways: a listing
// without amounts (`payoutListing`) and masked requisites (`payoutRequisite`).
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { KEYS, client, control, openSandbox } from './helpers.mjs';

describe('payout evidence choices', () => {
	let sandbox;
	let api;
	let ctl;
	let n = 0;
	const create = (body) =>
		api.post('/payouts', body, { headers: { 'Idempotency-Key': `evidence-${++n}` } });
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
	beforeEach(() => useProfile('default'));

	it('unset: the listing shows amounts and the requisite as sent', async () => {
		const made = await create({
			amountRub: 45000,
			requisiteType: 'card',
			requisite: '2200701234565678',
			externalId: 'inv-8001',
		});
		assert.equal(made.status, 201, made.text);
		const listed = await api.get('/payouts?externalId=inv-8001');
		assert.equal(listed.body.payouts[0].amountRub, 45000);
		assert.equal(listed.body.payouts[0].requisite, '2200701234565678');
	});

	it('payoutListing noAmounts: the listing shows no amounts, the payout itself does', async () => {
		await useProfile({ payoutListing: 'noAmounts' });
		const made = await create({
			amountRub: 45000,
			requisiteType: 'card',
			requisite: '2200701234565678',
			externalId: 'inv-8001',
		});
		const listed = (await api.get('/payouts?externalId=inv-8001')).body.payouts[0];
		for (const field of ['amountRub', 'chargedUsdt', 'rate'])
			assert.equal(field in listed, false, field);
		assert.equal(listed.id, made.body.id);
		const one = await api.get(`/payouts/${made.body.id}`);
		assert.equal(one.body.amountRub, 45000);
	});

	it('payoutRequisite masked: a card and a phone masked in every answer', async () => {
		await useProfile({ payoutRequisite: 'masked' });
		const card = await create({
			amountRub: 1000,
			requisiteType: 'card',
			requisite: '2200701234565678',
		});
		assert.equal(card.body.requisite, '220070******5678');
		const phone = await create({
			amountRub: 1000,
			requisiteType: 'phone',
			requisite: '+79991234567',
			bankId: 'sber',
		});
		assert.equal(phone.status, 201, phone.text);
		assert.equal(phone.body.requisite, '+7 999 ***-**-67');
		assert.equal((await api.get(`/payouts/${phone.body.id}`)).body.requisite, '+7 999 ***-**-67');
		const listed = (await api.get('/payouts?limit=100')).body.payouts;
		const shown = (id) => listed.find((p) => p.id === id)?.requisite;
		assert.equal(shown(card.body.id), '220070******5678');
		assert.equal(shown(phone.body.id), '+7 999 ***-**-67');
		assert.ok(
			listed.every((p) => /\*/.test(p.requisite)),
			'every payout masked, seeded ones too',
		);
	});
});

// Outside read F1: which times payouts show decides whether the two triggers can name a second
// refund alike (nodes/shared/changeKey.ts CHANGE_TIMES). Played both ways.
describe('payout times (choice repeatTransitions)', () => {
	let sandbox;
	let api;
	let ctl;
	let n = 0;
	const useProfile = async (profile) => {
		const res = await ctl.post('/profile', { profile });
		assert.equal(res.status, 200, res.text);
		sandbox.reset();
	};
	const cancelled = async () => {
		const made = await api.post(
			'/payouts',
			{ amountRub: 9750, requisiteType: 'phone', requisite: '+79001112233', bankId: 'sber' },
			{ headers: { 'Idempotency-Key': `times-${++n}` } },
		);
		assert.equal(made.status, 201, made.text);
		assert.equal((await api.post(`/payouts/${made.body.id}/cancel`)).status, 200);
		const listed = (await api.get('/payouts')).body.payouts.find((p) => p.id === made.body.id);
		const events = (await ctl.get('/events?event=payout.status_changed')).body.events;
		return { listed, refund: events.find((e) => e.payload.refunded === true).payload };
	};

	before(async () => {
		sandbox = await openSandbox();
		api = client(sandbox, KEYS.legacy);
		ctl = control(sandbox);
	});
	after(() => sandbox.close());

	it('documented (unset): the record shows refundedAt and no updatedAt; the event updatedAt and no refundedAt', async () => {
		await useProfile('default');
		const { listed, refund } = await cancelled();
		assert.ok(listed.refundedAt);
		assert.equal('updatedAt' in listed, false);
		assert.ok(refund.updatedAt);
		assert.equal('refundedAt' in refund, false);
	});

	it('sharedTimes: each side shows the other’s time too', async () => {
		await useProfile({ repeatTransitions: 'sharedTimes' });
		const { listed, refund } = await cancelled();
		assert.ok(listed.updatedAt);
		assert.equal(refund.refundedAt, listed.refundedAt);
	});
});
