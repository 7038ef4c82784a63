// The sandbox plays a write that is processed and whose answer is then lost (issue 28): the
// connection closes, a gateway answers 502 or 504, or an HTML page comes back instead of the
// service's JSON. POST /__control/faults `dropAs`, and the generated mode's `lostAnswer` draw.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LOST_FORMS, drawChoices } from '../../sandbox/lib/generated.mjs';
import { KEYS, client, control, openSandbox, seedWhere } from './helpers.mjs';

const PAYOUT = { amountRub: 500, requisiteType: 'card', requisite: '4111111111111111' };

/** POST /payouts that survives a closed connection: `{ status, type, text }` or `{ closed }`. */
async function postPayout(sandbox, key, body = PAYOUT) {
	try {
		const res = await fetch(`${sandbox.url}/payouts`, {
			method: 'POST',
			headers: {
				'X-API-Key': KEYS.legacy,
				'Content-Type': 'application/json',
				'Idempotency-Key': key,
			},
			body: JSON.stringify(body),
		});
		return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
	} catch (error) {
		return { closed: true, code: error.cause?.code ?? error.code ?? error.message };
	}
}

const charges = (sandbox, payoutId) =>
	sandbox.state.balanceHistory.filter(
		(e) => e.type === 'payout_charge' && e.referenceId === payoutId,
	).length;

describe('injected faults: dropAs', () => {
	let sandbox;
	let ctl;
	before(async () => {
		sandbox = await openSandbox();
		ctl = control(sandbox);
	});
	after(() => sandbox.close());

	const expected = {
		reset: (r) => assert.ok(r.closed, `the connection closed, got ${JSON.stringify(r)}`),
		502: (r) => {
			assert.equal(r.status, 502);
			assert.match(r.type, /^text\/html/);
			assert.match(r.text, /502 Bad Gateway/);
		},
		504: (r) => {
			assert.equal(r.status, 504);
			assert.match(r.type, /^text\/html/);
			assert.match(r.text, /504 Gateway Time-out/);
		},
		html: (r) => {
			assert.equal(r.status, 200);
			assert.match(r.type, /^text\/html/);
			assert.throws(() => JSON.parse(r.text));
		},
	};

	for (const form of LOST_FORMS) {
		it(`dropAs ${form}: the payout is made and charged once, and its answer is lost that way`, async () => {
			await ctl.post('/reset');
			const set = await ctl.post('/faults', {
				dropFirstResponses: 1,
				dropAs: form,
				pathPrefix: '/payouts',
			});
			assert.equal(set.status, 200, set.text);
			const before = sandbox.state.payouts.size;
			expected[form](await postPayout(sandbox, `drop-${form}`));
			assert.equal(sandbox.state.payouts.size - before, 1, 'processed once');
			const payout = [...sandbox.state.payouts.values()].at(-1);
			assert.equal(charges(sandbox, payout.id), 1, 'the ledger moved once');
			// The fault is used up: the next request is answered normally (here: replayed by key).
			const again = await postPayout(sandbox, `drop-${form}`);
			assert.equal(again.status, 201, JSON.stringify(again));
			assert.equal(sandbox.state.payouts.size - before, 1);
		});
	}

	it('dropAs json (the default) keeps the JSON error of `status`', async () => {
		await ctl.post('/reset');
		await ctl.post('/faults', { dropFirstResponses: 1, status: 502 });
		const res = await client(sandbox, KEYS.legacy).post('/payouts', PAYOUT, {
			headers: { 'Idempotency-Key': 'drop-json' },
		});
		assert.equal(res.status, 502);
		assert.equal(res.body.errorCode, 'BAD_GATEWAY');
		assert.equal(sandbox.state.payouts.size > 0, true);
	});

	it('an unknown dropAs is refused, naming the allowed forms', async () => {
		const res = await ctl.post('/faults', { dropFirstResponses: 1, dropAs: 'teapot' });
		assert.equal(res.status, 400);
		assert.equal(res.body.errorCode, 'VALIDATION_ERROR');
		assert.match(JSON.stringify(res.body.message), /reset, 502, 504, html/);
	});
});

describe('generated mode: lostAnswer', () => {
	it('50 seeds draw it present and absent, at both chances; the other choices keep their own streams', () => {
		const all = Array.from({ length: 50 }, (_, i) => drawChoices(i + 1));
		const lost = all.map((c) => c.lostAnswer);
		assert.ok(lost.includes(null) && lost.some(Boolean));
		assert.deepEqual(new Set(lost.filter(Boolean).map((l) => l.chance)), new Set([0.05, 0.1]));
	});

	it('keysIgnored: a repeated key makes a second payout and a second card; Accept Quote (replay promised) still replays', async () => {
		for (const keysIgnored of [true, false]) {
			const seed = seedWhere(
				(c) =>
					c.lostAnswer?.keysIgnored === keysIgnored && !c.rateLimit && !c.redirect && !c.proxy502,
				`lostAnswer with keysIgnored ${keysIgnored}`,
			);
			const sandbox = await openSandbox({ generated: seed });
			try {
				await control(sandbox).post('/generated/pause', { faults: true });
				const api = client(sandbox, KEYS.legacy);
				const before = sandbox.state.payouts.size;
				for (let i = 0; i < 2; i++)
					assert.equal((await postPayout(sandbox, 'same-key')).status, 201);
				assert.equal(
					sandbox.state.payouts.size - before,
					keysIgnored ? 2 : 1,
					`keysIgnored ${keysIgnored}`,
				);
				// The document asks Card Request for a key but promises no stored answer for it.
				const cards = [];
				for (let i = 0; i < 2; i++) {
					const res = await api.post(
						'/cards/request',
						{},
						{ headers: { 'Idempotency-Key': 'card-key' } },
					);
					assert.equal(res.status, 200, res.text);
					cards.push(res.body.card.id);
				}
				assert.equal(cards[0] !== cards[1], keysIgnored, `cards ${cards.join(', ')}`);
				const quote = await api.post('/orders/prepare', {
					qrCode: 'https://qr.nspk.ru/AS1?sum=150000',
				});
				assert.equal(quote.status, 200, quote.text);
				const orders = [];
				for (let i = 0; i < 2; i++) {
					const res = await api.post(`/orders/accept/${quote.body.id}`, undefined, {
						headers: { 'Idempotency-Key': 'accept-key' },
					});
					assert.equal(res.status, 200, res.text);
					orders.push(res.body.id);
				}
				assert.equal(orders[0], orders[1], 'the promised replay holds');
			} finally {
				await sandbox.close();
			}
		}
	});

	it('writes only: each lost answer was processed (money moved once), reads are never lost', async () => {
		const seed = seedWhere(
			(c) => c.lostAnswer?.chance === 0.1 && !c.rateLimit && !c.redirect && !c.proxy502,
			'frequent lost answers and no other fault',
		);
		const sandbox = await openSandbox({ generated: seed });
		try {
			const api = client(sandbox, KEYS.legacy);
			const seen = new Set();
			for (let i = 0; i < 200 && seen.size < LOST_FORMS.length; i++) {
				const before = sandbox.state.payouts.size;
				const res = await postPayout(sandbox, `lost-${i}`);
				assert.equal(sandbox.state.payouts.size - before, 1, `request ${i} processed once`);
				if (res.closed) seen.add('reset');
				else if (res.status === 502 || res.status === 504) seen.add(String(res.status));
				else if (res.status === 200) seen.add('html');
				else assert.equal(res.status, 201, res.text);
			}
			assert.deepEqual([...seen].sort(), [...LOST_FORMS].sort(), 'every form drawn');
			const draws = sandbox.generated.log().draws.filter((d) => d.kind === 'lost');
			assert.equal(draws.length >= LOST_FORMS.length, true);
			assert.ok(draws.every((d) => d.route === 'POST /payouts'));
			for (let i = 0; i < 50; i++) assert.equal((await api.get('/wallets/balance')).status, 200);
			// Paused faults draw none.
			await control(sandbox).post('/generated/pause', { faults: true });
			const seq = sandbox.generated.seq;
			for (let i = 0; i < 30; i++)
				assert.equal((await postPayout(sandbox, `paused-${i}`)).status, 201);
			assert.deepEqual(sandbox.generated.log(seq).draws, []);
		} finally {
			await sandbox.close();
		}
	});
});
