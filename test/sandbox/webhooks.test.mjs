import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { KEYS, client, control, openSandbox, placeOrder, startReceiver } from './helpers.mjs';

const SECRET = `whsec_${'ab12'.repeat(12)}`;
const hmac = (secret, bytes) => createHmac('sha256', secret).update(bytes).digest('hex');
const DELAYS = [0, 40, 80, 160];

describe('webhook delivery', () => {
	let sandbox;
	let api;
	let ctl;
	let receivers = [];
	const receiver = async (respond) => {
		const r = await startReceiver(respond);
		receivers.push(r);
		return r;
	};
	before(async () => {
		sandbox = await openSandbox({ retryDelaysMs: DELAYS });
		api = client(sandbox, KEYS.legacy);
		ctl = control(sandbox);
	});
	after(() => sandbox.close());
	beforeEach(() => sandbox.reset());
	afterEach(async () => {
		await Promise.all(receivers.map((r) => r.close()));
		receivers = [];
	});

	it('signs the exact body bytes with the company secret and sends the documented headers', async () => {
		const rx = await receiver();
		await api.patch('/auth/company/profile', { webhookUrl: rx.url, webhookSecret: SECRET });
		const p = await api.post(
			'/payouts',
			{
				amountRub: 975,
				requisiteType: 'card',
				requisite: '2200700012345678',
				recipientFirstName: 'Ёлка',
				externalId: 'sig',
			},
			{ headers: { 'Idempotency-Key': 'sig-1' } },
		);
		assert.equal(p.status, 201);
		const [req] = await rx.waitFor(1);
		assert.equal(req.method, 'POST');
		assert.equal(req.headers['content-type'], 'application/json');
		assert.equal(req.headers['x-service-signature'], hmac(SECRET, req.raw));
		assert.match(req.headers['x-service-delivery-id'], /^[0-9a-f-]{36}$/);
		assert.deepEqual(Object.keys(req.json).sort(), [
			'amountRub',
			'bank',
			'bankId',
			'chargedUsdt',
			'comment',
			'completedAt',
			'createdAt',
			'disputeResolution',
			'disputeStatus',
			'event',
			'externalId',
			'failReason',
			'payoutId',
			'rate',
			'refunded',
			'requisite',
			'requisiteType',
			'status',
			'updatedAt',
		]);
		assert.equal(req.json.event, 'payout.status_changed');
	});

	it('signs with an empty key while no secret is set; every delivery has its own id', async () => {
		const rx = await receiver();
		await ctl.post('/webhook-url', { url: rx.url });
		await placeOrder(api);
		await ctl.post('/deposits', { amount: 10 });
		const reqs = await rx.waitFor(3);
		for (const r of reqs) assert.equal(r.headers['x-service-signature'], hmac('', r.raw));
		assert.equal(new Set(reqs.map((r) => r.headers['x-service-delivery-id'])).size, 3);
		const order = reqs.find((r) => r.json.event === 'order.status_changed').json;
		assert.deepEqual(Object.keys(order).sort(), [
			'amountRub',
			'amountUsdt',
			'completedAt',
			'createdAt',
			'event',
			'failureReason',
			'orderId',
			'status',
			'walletOrderId',
		]);
		assert.equal(order.status, 'created');
	});

	it('retries a failing receiver 4 times with the configured delays, then marks the delivery failed', async () => {
		const rx = await receiver(() => 500);
		await ctl.post('/webhook-url', { url: rx.url, secret: SECRET });
		await ctl.post('/deposits', { amount: 10, aml: 'fail' });
		await sandbox.webhooksIdle();
		assert.equal(rx.requests.length, 8, 'two events, four attempts each');
		const byId = new Map();
		for (const r of rx.requests) {
			const id = r.headers['x-service-delivery-id'];
			byId.set(id, [...(byId.get(id) ?? []), r]);
		}
		assert.equal(byId.size, 2);
		for (const attempts of byId.values()) {
			assert.equal(attempts.length, 4);
			assert.equal(new Set(attempts.map((a) => a.headers['x-service-signature'])).size, 1);
			assert.ok(attempts.every((a) => a.raw.equals(attempts[0].raw)));
			const gaps = attempts.slice(1).map((a, i) => a.at - attempts[i].at);
			gaps.forEach((gap, i) => assert.ok(gap >= DELAYS[i + 1] - 5, `gap ${i + 1} was ${gap} ms`));
		}
		const list = (await ctl.get('/deliveries')).body;
		assert.equal(list.total, 2);
		for (const d of list.deliveries) {
			assert.equal(d.state, 'failed');
			assert.deepEqual(
				d.attempts.map((a) => a.status),
				[500, 500, 500, 500],
			);
		}
	});

	it('stops retrying after the first 2xx', async () => {
		const rx = await receiver((_r, i) => (i < 2 ? 503 : 204));
		await ctl.post('/webhook-url', { url: rx.url });
		await ctl.post('/webhooks/send', { event: 'custom.test', payload: { a: 1 } });
		await sandbox.webhooksIdle();
		assert.equal(rx.requests.length, 3);
		const [d] = (await ctl.get('/deliveries')).body.deliveries;
		assert.equal(d.state, 'delivered');
		assert.deepEqual(
			d.attempts.map((a) => a.status),
			[503, 503, 204],
		);
	});

	it('records network errors as failed attempts', async () => {
		const closed = await startReceiver();
		const deadUrl = closed.url;
		await closed.close();
		await ctl.post('/webhook-url', { url: deadUrl });
		await ctl.post('/webhooks/send', { event: 'custom.test', payload: {} });
		await sandbox.webhooksIdle();
		const [d] = (await ctl.get('/deliveries')).body.deliveries;
		assert.equal(d.state, 'failed');
		assert.equal(d.attempts.length, 4);
		assert.ok(d.attempts.every((a) => typeof a.error === 'string' && a.status === undefined));
	});

	it('replay re-sends the same bytes with the same delivery id and signature', async () => {
		const rx = await receiver();
		await ctl.post('/webhook-url', { url: rx.url, secret: SECRET });
		await ctl.post('/deposits', { externalId: 'u-1', amount: 5, aml: 'fail' });
		await sandbox.webhooksIdle();
		const delivery = (await ctl.get('/deliveries?event=deposit.aml_failed')).body.deliveries[0];
		await api.post('/auth/company/webhook-secret/rotate');
		const replay = await ctl.post(`/deliveries/${delivery.id}/replay`);
		assert.equal(replay.status, 200);
		assert.equal(replay.body.attempt.replay, true);
		const copies = rx.requests.filter((r) => r.headers['x-service-delivery-id'] === delivery.id);
		assert.equal(copies.length, 2);
		assert.ok(copies[1].raw.equals(copies[0].raw));
		assert.equal(
			copies[1].headers['x-service-signature'],
			copies[0].headers['x-service-signature'],
		);
		assert.equal(copies[1].headers['x-service-signature'], hmac(SECRET, copies[1].raw));
		assert.equal(copies[0].json.externalId, 'u-1');
		assert.equal((await ctl.post('/deliveries/nope/replay')).status, 404);
	});

	it('a retry of a delivery started before a secret rotation keeps the old signature', async () => {
		let rotatedNow;
		const rotated = new Promise((r) => (rotatedNow = r));
		// The first attempt is answered 500 only after the rotation, so its retry surely follows it.
		const rx = await receiver(async (_r, i) => (i === 0 ? rotated.then(() => 500) : 200));
		await api.patch('/auth/company/profile', { webhookUrl: rx.url, webhookSecret: SECRET });
		await ctl.post('/webhooks/send', { event: 'custom.before', payload: { n: 1 } });
		await rx.waitFor(1);
		const newSecret = (await api.post('/auth/company/webhook-secret/rotate')).body.webhookSecret;
		rotatedNow();
		await ctl.post('/webhooks/send', { event: 'custom.after', payload: { n: 2 } });
		await sandbox.webhooksIdle();
		const before = rx.requests.filter((r) => r.json.event === 'custom.before');
		const afterRotation = rx.requests.find((r) => r.json.event === 'custom.after');
		assert.equal(before.length, 2);
		assert.equal(
			before[1].headers['x-service-signature'],
			hmac(SECRET, before[1].raw),
			'retry signed with old secret',
		);
		assert.equal(
			afterRotation.headers['x-service-signature'],
			hmac(newSecret, afterRotation.raw),
			'new event uses new secret',
		);
	});

	it('control can forge deliveries: wrong signature, no signature, exact raw bytes, chosen id', async () => {
		const rx = await receiver();
		await ctl.post('/webhook-url', { url: rx.url, secret: SECRET });
		const raw = '{"event":"order.status_changed",  "orderId":"x","note":"пробел"}';
		await ctl.post('/webhooks/send', {
			event: 'order.status_changed',
			rawBody: raw,
			deliveryId: 'dup-1',
			wait: true,
		});
		await ctl.post('/webhooks/send', {
			event: 'order.status_changed',
			rawBody: raw,
			deliveryId: 'dup-1',
			wait: true,
		});
		await ctl.post('/webhooks/send', { event: 'x.wrong', signWith: 'wrong', wait: true });
		await ctl.post('/webhooks/send', { event: 'x.none', signWith: 'none', wait: true });
		const [a, b, wrong, none] = rx.requests;
		assert.equal(a.text, raw);
		assert.equal(a.headers['x-service-signature'], hmac(SECRET, Buffer.from(raw, 'utf8')));
		assert.equal(b.headers['x-service-delivery-id'], 'dup-1');
		assert.notEqual(wrong.headers['x-service-signature'], hmac(SECRET, wrong.raw));
		assert.equal(none.headers['x-service-signature'], undefined);
	});
});
