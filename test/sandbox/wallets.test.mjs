import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { KEYS, client, control, expectError, openSandbox } from './helpers.mjs';

const USER_DEPOSIT_FIELDS = [
	'amlCheckId',
	'amlRiskIndicator',
	'amount',
	'blockTimestamp',
	'companyId',
	'createdAt',
	'error',
	'externalId',
	'fromAddress',
	'id',
	'status',
	'sweepTxHash',
	'txHash',
	'walletAddress',
	'walletId',
];

describe('company wallet and user wallets', () => {
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

	it('returns a stable TRON address for the company wallet', async () => {
		const a = await api.get('/wallets');
		const b = await api.get('/wallets');
		assert.equal(a.status, 200);
		assert.match(a.body.address, /^T[1-9A-HJ-NP-Za-km-z]{33}$/);
		assert.equal(a.body.network, 'TRON');
		assert.equal(a.body.token, 'USDT');
		assert.deepEqual(b.body, a.body);
	});

	it('pages through 250 seeded company deposits with a status filter', async () => {
		const seen = new Set();
		for (let offset = 0; offset < 300; offset += 100) {
			const page = await api.get(`/wallets/deposits?limit=100&offset=${offset}`);
			assert.equal(page.body.total, 250);
			for (const d of page.body.deposits) seen.add(d.id);
		}
		assert.equal(seen.size, 250);
		const failed = (await api.get('/wallets/deposits?status=aml_failed&limit=100')).body;
		assert.equal(failed.total, 10);
		assert.ok(failed.deposits.every((d) => d.status === 'aml_failed'));
		expectError(assert, await api.get('/wallets/deposits?status=bogus'), 400, 'VALIDATION_ERROR');
		const readerDenied = await client(sandbox, KEYS.readOnly).get('/wallets/deposits');
		assert.equal(
			expectError(assert, readerDenied, 403, 'PERMISSION_DENIED').required,
			'wallet.read',
		);
	});

	it('a control deposit that passes AML credits the amount minus the fee', async () => {
		const res = await ctl.post('/deposits', { amount: 101, aml: 'pass' });
		assert.equal(res.status, 201, res.text);
		assert.equal(res.body.deposit.status, 'completed');
		assert.equal(res.body.deposit.creditedAmount, 100);
		assert.equal((await api.get('/wallets/balance')).body.usdtBalance, 1100);
		const history = (await api.get('/wallets/balance-history?limit=1')).body;
		assert.deepEqual(Object.keys(history.items[0]).sort(), [
			'amount',
			'balanceAfter',
			'createdAt',
			'id',
			'referenceId',
			'type',
		]);
		assert.equal(history.items[0].referenceId, res.body.deposit.id);
		const events = (await ctl.get('/events')).body.events.map((e) => e.event);
		assert.deepEqual(events, ['deposit.completed', 'deposit.created']);
	});

	it('an AML failure credits nothing and emits deposit.aml_failed', async () => {
		const res = await ctl.post('/deposits', { amount: 50, aml: 'fail' });
		assert.equal(res.body.deposit.status, 'aml_failed');
		assert.equal((await api.get('/wallets/balance')).body.usdtBalance, 1000);
		const [failed] = (await ctl.get('/events?event=deposit.aml_failed')).body.events;
		assert.deepEqual(Object.keys(failed.payload).sort(), [
			'amlCheckId',
			'amlResult',
			'amount',
			'createdAt',
			'depositId',
			'error',
			'event',
			'status',
			'txHash',
		]);
	});

	it('creates or returns a user wallet per externalId; replace blocks the old one', async () => {
		const created = await api.post('/user-wallets', { externalId: 'client-42' });
		assert.equal(created.status, 201);
		assert.equal(created.body.status, 'active');
		const again = await api.post('/user-wallets', { externalId: 'client-42' });
		assert.equal(again.status, 200);
		assert.equal(again.body.id, created.body.id);
		expectError(
			assert,
			await api.post('/user-wallets', { externalId: 'has space' }),
			400,
			'VALIDATION_ERROR',
		);

		const replaced = await api.post(`/user-wallets/${created.body.id}/replace`);
		assert.equal(replaced.status, 201);
		assert.equal(replaced.body.oldWallet.status, 'blocked');
		assert.equal(replaced.body.wallet.status, 'active');
		assert.equal(replaced.body.wallet.externalId, 'client-42');
		assert.notEqual(replaced.body.wallet.address, created.body.address);
		expectError(
			assert,
			await api.post(`/user-wallets/${created.body.id}/replace`),
			409,
			'CONFLICT',
		);

		const blocked = (await api.get('/user-wallets/blocked?limit=100')).body;
		assert.ok(blocked.wallets.some((w) => w.id === created.body.id));
		assert.ok(blocked.wallets.every((w) => w.status === 'blocked'));
		const blockedNew = await api.post(`/user-wallets/${replaced.body.wallet.id}/block`);
		assert.equal(blockedNew.body.status, 'blocked');
		const all = (await api.get('/user-wallets?externalId=client-42')).body;
		assert.equal(all.total, 2);
		expectError(assert, await api.post('/user-wallets/nope/block'), 404, 'NOT_FOUND');
	});

	it('user-wallet deposits carry exactly the contract fields and events add externalId', async () => {
		await ctl.post('/deposits', { externalId: 'client-7', amount: 30, aml: 'pass' });
		const list = (await api.get('/user-wallets/deposits?externalId=client-7')).body;
		assert.equal(list.total, 1);
		assert.deepEqual(Object.keys(list.deposits[0]).sort(), USER_DEPOSIT_FIELDS);
		assert.equal(list.deposits[0].companyId, 'cmp_demo');
		const seeded = (await api.get('/user-wallets/deposits?status=aml_pass')).body;
		assert.equal(seeded.total, 1, 'legacy status values are kept as they are');
		const [created] = (await ctl.get('/events?event=deposit.created')).body.events;
		assert.equal(created.payload.externalId, 'client-7');
		assert.equal(created.payload.status, 'new');
		assert.equal(created.payload.tokenSymbol, 'USDT');
	});
});

describe('seeded deposit count and the one-page option (Return All benchmark)', () => {
	it('seeds 10,000 deposits and pages them 100 at a time by default', async () => {
		const sandbox = await openSandbox({ seed: { companyDeposits: 10_000 } });
		try {
			const api = client(sandbox, KEYS.legacy);
			const first = (await api.get('/wallets/deposits?limit=100')).body;
			assert.equal(first.total, 10_000);
			assert.equal(first.deposits.length, 100);
			const last = (await api.get('/wallets/deposits?limit=100&offset=9900')).body;
			assert.equal(last.deposits.length, 100);
			assert.notEqual(last.deposits[0].id, first.deposits[0].id);
			expectError(assert, await api.get('/wallets/deposits?limit=101'), 400, 'VALIDATION_ERROR');
		} finally {
			await sandbox.close();
		}
	});

	it('depositsInOnePage answers every deposit at once, ignoring limit and offset', async () => {
		const sandbox = await openSandbox({
			seed: { companyDeposits: 10_000 },
			depositsInOnePage: true,
		});
		try {
			const api = client(sandbox, KEYS.legacy);
			const all = (await api.get('/wallets/deposits?limit=100&offset=0')).body;
			assert.equal(all.total, 10_000);
			assert.equal(all.deposits.length, 10_000);
			assert.equal(new Set(all.deposits.map((d) => d.id)).size, 10_000);
			const again = (await api.get('/wallets/deposits?limit=5&offset=9000')).body;
			assert.deepEqual(
				again.deposits.map((d) => d.id),
				all.deposits.map((d) => d.id),
			);
			const aml = (await api.get('/wallets/deposits?status=aml_failed')).body;
			assert.ok(aml.deposits.length > 100);
			assert.ok(aml.deposits.every((d) => d.status === 'aml_failed'));
			expectError(assert, await api.get('/wallets/deposits?limit=0'), 400, 'VALIDATION_ERROR');
		} finally {
			await sandbox.close();
		}
	});
});
