// Profiles: each open choice of the contract, played both ways.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { KEYS, client, control, expectError, openSandbox, placeOrder } from './helpers.mjs';
import { PROFILES } from '../../sandbox/server.mjs';

const SECRET = `whsec_${'ab12'.repeat(12)}`;
const payout = (amountRub = 9750) => ({
	amountRub,
	requisiteType: 'card',
	requisite: '4111111111111111',
});

describe('profiles', () => {
	let sandbox;
	let api;
	let ctl;
	let n = 0;
	const key = () => `profiles-${++n}`;
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

	it('the named profiles: contrary answers every choice otherwise than default and cap50', () => {
		const choices = Object.keys(PROFILES.default);
		assert.equal(choices.length, 8);
		for (const other of ['default', 'cap50']) {
			for (const choice of choices) {
				assert.notEqual(PROFILES.contrary[choice], PROFILES[other][choice], `${other}.${choice}`);
			}
		}
	});

	describe('pageCap', () => {
		it('default: a page holds up to 100; above 100 is a VALIDATION_ERROR', async () => {
			const res = await api.get('/wallets/deposits?limit=100');
			assert.equal(res.body.deposits.length, 100);
			expectError(assert, await api.get('/wallets/deposits?limit=101'), 400, 'VALIDATION_ERROR');
		});

		for (const cap of [25, 50]) {
			it(`${cap}: a larger limit is cut to ${cap} silently, on every paged list`, async () => {
				await useProfile({ pageCap: cap });
				const first = await api.get('/wallets/deposits?limit=100');
				assert.equal(first.status, 200, 'no error for a limit above the cap');
				assert.equal(first.body.deposits.length, cap);
				assert.equal(first.body.total, 250);
				const next = await api.get(`/wallets/deposits?limit=100&offset=${cap}`);
				assert.notEqual(next.body.deposits[0].id, first.body.deposits[0].id);
				assert.equal((await api.get('/wallets/deposits?limit=10')).body.deposits.length, 10);
				await ctl.post('/payouts/bulk', { count: 120 });
				assert.equal((await api.get('/payouts?limit=100')).body.payouts.length, cap);
				assert.ok((await api.get('/orders?limit=100')).body.length <= cap);
				expectError(assert, await api.get('/wallets/deposits?limit=101'), 400, 'VALIDATION_ERROR');
			});
		}
	});

	describe('listTotal', () => {
		it('true: envelopes carry total', async () => {
			assert.equal((await api.get('/wallets/deposits')).body.total, 250);
			assert.equal(typeof (await api.get('/payouts')).body.total, 'number');
		});

		it('false: envelopes carry only their records; bare arrays and control lists are unchanged', async () => {
			await useProfile({ listTotal: false });
			for (const [path, key] of [
				['/wallets/deposits', 'deposits'],
				['/wallets/balance-history', 'items'],
				['/user-wallets/deposits', 'deposits'],
				['/user-wallets', 'wallets'],
				['/disputes', 'disputes'],
				['/cards', 'cards'],
				['/payouts', 'payouts'],
			]) {
				const res = await api.get(path);
				assert.equal(res.status, 200, res.text);
				assert.deepEqual(Object.keys(res.body), [key], path);
			}
			assert.ok(Array.isArray((await api.get('/orders')).body));
			assert.equal(typeof (await ctl.get('/events')).body.total, 'number');
		});
	});

	describe('profileSecret', () => {
		const setSecret = () =>
			ctl.post('/webhook-url', { url: 'http://127.0.0.1:9/x', secret: SECRET });

		it('masked: profile reads, updates and login show whsec_… and the last 4', async () => {
			await setSecret();
			assert.equal((await api.get('/auth/company/profile')).body.webhookSecret, 'whsec_…ab12');
			const patched = await api.patch('/auth/company/profile', { name: 'Demo Co' });
			assert.equal(patched.body.webhookSecret, 'whsec_…ab12');
			assert.ok(!JSON.stringify(patched.body).includes(SECRET));
		});

		it('full: the same reads show the whole secret', async () => {
			await useProfile({ profileSecret: 'full' });
			await setSecret();
			assert.equal((await api.get('/auth/company/profile')).body.webhookSecret, SECRET);
			const patched = await api.patch('/auth/company/profile', { name: 'Demo Co' });
			assert.equal(patched.body.webhookSecret, SECRET);
			const login = await client(sandbox, null).post('/auth/company/login', {
				email: sandbox.company.email,
				password: sandbox.company.password,
			});
			assert.equal(login.body.company.webhookSecret, SECRET);
		});
	});

	// Outside read r7-data, finding 5: which field of the profile names the company (not shown).
	describe('profileCompanyId', () => {
		it('id (unset), companyId or none: the company ID under that name, or not at all', async () => {
			const id = (await api.get('/auth/company/profile')).body.id;
			assert.ok(id);
			await useProfile({ profileCompanyId: 'companyId' });
			const renamed = (await api.get('/auth/company/profile')).body;
			assert.equal(renamed.companyId, id);
			assert.equal('id' in renamed, false);
			await useProfile({ profileCompanyId: 'none' });
			const none = (await api.get('/auth/company/profile')).body;
			assert.equal('id' in none || 'companyId' in none, false);
			assert.ok(none.name);
		});
	});

	// Outside read r15-data, finding 8: how an invite's creation answers (its envelope not shown).
	describe('inviteAnswer', () => {
		it('bare (unset) or wrapped: the invite itself, or under `invite`', async () => {
			const owner = client(sandbox, KEYS.owner);
			const bare = await owner.post('/members/invites', { role: 'member' });
			assert.equal(bare.status, 201, bare.text);
			assert.ok(bare.body.url);
			await useProfile({ inviteAnswer: 'wrapped' });
			const wrapped = await client(sandbox, KEYS.owner).post('/members/invites', {
				role: 'member',
			});
			assert.equal(wrapped.status, 201, wrapped.text);
			assert.deepEqual(Object.keys(wrapped.body), ['invite']);
			assert.ok(wrapped.body.invite.url);
		});
	});

	// Outside read r16-data, findings 3 to 6: envelopes and bare JSON values where not shown.
	describe('recordEnvelope and valueAnswer', () => {
		it('recordEnvelope data: the sensitive data and the rotated secret under `data`', async () => {
			const owner = client(sandbox, KEYS.owner);
			const bare = await owner.post('/auth/company/webhook-secret/rotate');
			assert.equal(bare.status, 201, bare.text);
			assert.match(bare.body.webhookSecret, /^whsec_[0-9a-f]{48}$/);
			await useProfile({ recordEnvelope: 'data' });
			const wrapped = await client(sandbox, KEYS.owner).post('/auth/company/webhook-secret/rotate');
			assert.deepEqual(Object.keys(wrapped.body), ['data']);
			assert.match(wrapped.body.data.webhookSecret, /^whsec_[0-9a-f]{48}$/);
			const request = await client(sandbox, KEYS.owner).post(
				'/cards/request',
				{},
				{ headers: { 'Idempotency-Key': key() } },
			);
			assert.equal(request.status, 200, request.text);
			const sensitive = await client(sandbox, KEYS.owner).get(
				`/cards/${request.body.card.id}/sensitive`,
			);
			assert.equal(sensitive.status, 200, sensitive.text);
			assert.deepEqual(Object.keys(sensitive.body), ['data']);
			assert.equal(sensitive.body.data.cardId, request.body.card.id);
		});

		it('valueAnswer value: the address, a block, blocked IDs and the rotated secret as bare values', async () => {
			await useProfile({ valueAnswer: 'value' });
			const owner = client(sandbox, KEYS.owner);
			const address = await owner.get('/wallets');
			assert.equal(typeof address.body, 'string');
			assert.match(address.body, /^T/);
			const wallet = await owner.post('/user-wallets', { externalId: `u-${key()}` });
			const blocked = await owner.post(`/user-wallets/${wallet.body.id}/block`);
			assert.equal(blocked.body, true);
			const list = await owner.get('/user-wallets/blocked');
			assert.ok(list.body.wallets.includes(wallet.body.id), list.text);
			const secret = await owner.post('/auth/company/webhook-secret/rotate');
			assert.match(secret.body, /^whsec_[0-9a-f]{48}$/);
		});
	});

	describe('idempotencyScope', () => {
		const twoQuotes = async () => {
			const qr = (sum) => ({ qrCode: `https://qr.nspk.ru/AS1?sum=${sum}` });
			const a = await api.post('/orders/prepare', qr(150000));
			const b = await api.post('/orders/prepare', qr(250000));
			return [a.body.id, b.body.id];
		};
		const headers = (k) => ({ headers: { 'Idempotency-Key': k } });

		it('operation (default): one key on two endpoints is two requests; on two quotes, one', async () => {
			const k = key();
			assert.equal((await api.post('/payouts', payout(), headers(k))).status, 201);
			const card = await api.post('/cards/request', {}, headers(k));
			assert.equal(card.status, 200, card.text);
			assert.equal(card.body.status, 'assigned');
			const [qa, qb] = await twoQuotes();
			const first = await api.post(`/orders/accept/${qa}`, undefined, headers(k));
			const second = await api.post(`/orders/accept/${qb}`, undefined, headers(k));
			assert.equal(second.headers.get('idempotent-replayed'), 'true');
			assert.equal(second.body.id, first.body.id, 'the second quote got the first order back');
		});

		it('path: the same key on another quote is a new request; on the same path, a replay', async () => {
			await useProfile({ idempotencyScope: 'path' });
			const k = key();
			const [qa, qb] = await twoQuotes();
			const first = await api.post(`/orders/accept/${qa}`, undefined, headers(k));
			const second = await api.post(`/orders/accept/${qb}`, undefined, headers(k));
			assert.equal(second.status, 200, second.text);
			assert.equal(second.headers.get('idempotent-replayed'), null);
			assert.notEqual(second.body.id, first.body.id);
			assert.equal(second.body.amountRub, 2500);
			const p1 = await api.post('/payouts', payout(), headers(k));
			const p2 = await api.post('/payouts', payout(20000), headers(k));
			assert.equal(p2.headers.get('idempotent-replayed'), 'true');
			assert.equal(p2.body.id, p1.body.id);
		});

		it('company: one key, one stored answer, even on another endpoint', async () => {
			await useProfile({ idempotencyScope: 'company' });
			const k = key();
			const created = await api.post('/payouts', payout(), headers(k));
			assert.equal(created.status, 201);
			const card = await api.post('/cards/request', {}, headers(k));
			assert.equal(card.headers.get('idempotent-replayed'), 'true');
			assert.equal(card.status, 201);
			assert.equal(card.body.id, created.body.id, 'the card request got the payout back');
		});
	});

	describe('idempotencyStoresFailures', () => {
		const headers = (k) => ({ headers: { 'Idempotency-Key': k } });

		it('false (default): a failure is not stored; the same key then succeeds', async () => {
			const k = key();
			expectError(
				assert,
				await api.post('/payouts', payout(50), headers(k)),
				422,
				'AMOUNT_BELOW_MIN',
			);
			const retry = await api.post('/payouts', payout(), headers(k));
			assert.equal(retry.status, 201, retry.text);
		});

		it('true: the failure is stored and replayed for the same key, with its fields', async () => {
			await useProfile({ idempotencyStoresFailures: true });
			const k = key();
			const first = expectError(
				assert,
				await api.post('/payouts', payout(50), headers(k)),
				422,
				'AMOUNT_BELOW_MIN',
			);
			const retry = await api.post('/payouts', payout(), headers(k));
			const replayed = expectError(assert, retry, 422, 'AMOUNT_BELOW_MIN');
			assert.equal(retry.headers.get('idempotent-replayed'), 'true');
			assert.deepEqual(replayed.details, first.details);
			assert.notEqual(replayed.requestId, first.requestId);
			assert.equal((await api.post('/payouts', payout(), headers(key()))).status, 201);
		});
	});

	describe('staleKeyLogin', () => {
		const login = (apiKey) =>
			client(sandbox, apiKey).post('/auth/company/login', {
				email: sandbox.company.email,
				password: sandbox.company.password,
			});

		it('accept (default): login sent with a revoked key succeeds', async () => {
			const first = await login(KEYS.legacy);
			assert.equal(first.status, 200, first.text);
			expectError(assert, await api.get('/wallets/balance'), 401, 'INVALID_API_KEY');
			const again = await login(KEYS.legacy);
			assert.equal(again.status, 200, again.text);
		});

		it('reject: login sent with a revoked or unknown key is 401 INVALID_API_KEY; without a key it works', async () => {
			await useProfile({ staleKeyLogin: 'reject' });
			const first = await login(KEYS.legacy);
			assert.equal(first.status, 200, first.text);
			expectError(assert, await login(KEYS.legacy), 401, 'INVALID_API_KEY');
			expectError(assert, await login('sk_sandbox_unknown_0000'), 401, 'INVALID_API_KEY');
			assert.equal((await login(first.body.apiKey)).status, 200);
			assert.equal((await login(null)).status, 200);
		});
	});

	describe('listOrder', () => {
		const createdAts = (records) => records.map((r) => r.createdAt);
		const sorted = (list, direction) =>
			[...list].sort((a, b) => (direction === 'newest' ? b.localeCompare(a) : a.localeCompare(b)));

		for (const order of ['newest', 'oldest']) {
			it(`${order}: lists whose order the contract does not show come ${order} first; disputes stay newest first`, async () => {
				await useProfile({ listOrder: order });
				await ctl.post('/payouts/bulk', { count: 30 });
				for (const [path, key] of [
					['/payouts?limit=100', 'payouts'],
					['/wallets/deposits?limit=100', 'deposits'],
					['/orders?limit=100', null],
					['/user-wallets/deposits?limit=100', 'deposits'],
				]) {
					const res = await api.get(path);
					const times = createdAts(key ? res.body[key] : res.body);
					assert.ok(times.length > 2, path);
					assert.deepEqual(times, sorted(times, order), `${path} ${order} first`);
					assert.notDeepEqual(times, sorted(times, order === 'newest' ? 'oldest' : 'newest'));
				}
				const order1 = await placeOrder(api);
				await ctl.post(`/orders/${order1.id}/status`, { status: 'success' });
				await api.post(`/orders/${order1.id}/disputes`, { reason: 'late' });
				const disputes = createdAts((await api.get('/disputes')).body.disputes);
				assert.ok(disputes.length >= 2);
				assert.deepEqual(disputes, sorted(disputes, 'newest'), 'the contract says newest first');
			});
		}
	});

	describe('choosing a profile', () => {
		it('the control API shows and switches it; reset keeps it; a bad choice is named', async () => {
			await useProfile('contrary');
			const shown = await ctl.get('/profile');
			assert.equal(shown.body.profile.name, 'contrary');
			assert.equal(shown.body.profile.pageCap, 25);
			await ctl.post('/reset');
			assert.equal((await ctl.get('/profile')).body.profile.name, 'contrary');
			assert.equal((await api.get('/wallets/deposits?limit=100')).body.deposits.length, 25);
			const custom = await ctl.post('/profile', { profile: { name: 'cap50', listTotal: false } });
			assert.equal(custom.body.profile.name, 'cap50+custom');
			assert.equal(custom.body.profile.pageCap, 50);
			assert.equal(custom.body.profile.listTotal, false);
			const bad = await ctl.post('/profile', {
				profile: { pageCap: 0, idempotencyScope: 'global' },
			});
			const body = expectError(assert, bad, 400, 'VALIDATION_ERROR');
			assert.match(body.message.join(' '), /pageCap/);
			assert.match(body.message.join(' '), /idempotencyScope/);
			expectError(assert, await ctl.post('/profile', { profile: 'nope' }), 400, 'VALIDATION_ERROR');
		});

		it('startSandbox({ profile }) starts with it, and refuses an unknown one', async () => {
			const other = await openSandbox({ profile: 'cap50' });
			try {
				assert.equal(other.profile.name, 'cap50');
				const res = await client(other, KEYS.legacy).get('/wallets/deposits?limit=100');
				assert.equal(res.body.deposits.length, 50);
			} finally {
				await other.close();
			}
			await assert.rejects(openSandbox({ profile: 'nope' }), /profile/);
		});
	});
});
