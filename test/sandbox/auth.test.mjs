import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { KEYS, client, control, expectError, openSandbox } from './helpers.mjs';

describe('auth, permissions and the error body', () => {
	let sandbox;
	let api;
	before(async () => {
		sandbox = await openSandbox();
		api = client(sandbox, KEYS.legacy);
	});
	after(() => sandbox.close());
	beforeEach(() => sandbox.reset());

	it('accepts X-API-Key, Authorization: Bearer and ?api_key', async () => {
		const anon = client(sandbox, null);
		const viaHeader = await anon.get('/wallets/balance', { headers: { 'X-API-Key': KEYS.legacy } });
		const viaBearer = await anon.get('/wallets/balance', {
			headers: { Authorization: `Bearer ${KEYS.owner}` },
		});
		const viaQuery = await anon.get(`/wallets/balance?api_key=${KEYS.admin}`);
		for (const res of [viaHeader, viaBearer, viaQuery]) {
			assert.equal(res.status, 200, res.text);
			assert.deepEqual(res.body, {
				usdtBalance: 1000,
				frozenBalance: 0,
				availableBalance: 1000,
				currency: 'USDT',
			});
		}
	});

	it('answers 401 AUTH_REQUIRED without a credential and 401 INVALID_API_KEY for an unknown key', async () => {
		expectError(assert, await client(sandbox, null).get('/orders'), 401, 'AUTH_REQUIRED');
		const bad = expectError(
			assert,
			await client(sandbox, 'sk_nope').get('/orders?limit=5'),
			401,
			'INVALID_API_KEY',
		);
		assert.equal(bad.error, 'Unauthorized');
		assert.equal(bad.path, '/orders?limit=5');
	});

	it('hides the api_key query value in the echoed path', async () => {
		const res = await client(sandbox, null).get('/orders?api_key=sk_wrong&limit=1');
		assert.equal(
			expectError(assert, res, 401, 'INVALID_API_KEY').path,
			'/orders?api_key=***&limit=1',
		);
	});

	it('answers 403 PERMISSION_DENIED with required and details.required', async () => {
		const reader = client(sandbox, KEYS.readOnly);
		assert.equal((await reader.get('/orders')).status, 200);
		const res = await reader.post('/orders/prepare', { qrCode: 'https://qr.nspk.ru/X?sum=50000' });
		const body = expectError(assert, res, 403, 'PERMISSION_DENIED');
		assert.equal(body.error, 'PERMISSION_DENIED');
		assert.equal(body.required, 'orders.create');
		assert.deepEqual(body.details, { required: 'orders.create' });
		assert.match(body.message, /orders\.create/);
	});

	it('puts X-Request-Id on every response, success or failure, and unique per request', async () => {
		const ok = await api.get('/wallets');
		const notFound = await api.get('/no/such/route');
		const controlRes = await control(sandbox).get('/health');
		const ids = [ok, notFound, controlRes].map((r) => r.headers.get('x-request-id'));
		assert.ok(ids.every((id) => typeof id === 'string' && id.startsWith('req_')));
		assert.equal(new Set(ids).size, 3);
		expectError(assert, notFound, 404, 'NOT_FOUND');
	});

	it('answers 400 VALIDATION_ERROR with a message array for invalid JSON', async () => {
		const res = await api.post('/orders/prepare', undefined, { raw: '{"qrCode": ' });
		const body = expectError(assert, res, 400, 'VALIDATION_ERROR');
		assert.ok(Array.isArray(body.message));
		assert.equal(body.error, 'Bad Request');
		assert.equal(body.path, '/orders/prepare');
	});

	it('answers 401 COMPANY_INACTIVE when the company is disabled', async () => {
		await control(sandbox).post('/company', { active: false });
		expectError(assert, await client(sandbox, KEYS.owner).get('/orders'), 401, 'COMPANY_INACTIVE');
		expectError(assert, await api.get('/orders'), 401, 'COMPANY_INACTIVE');
	});

	it('login rotates the company key; the old key then gets 401; the session token works', async () => {
		const anon = client(sandbox, null);
		const wrong = await anon.post('/auth/company/login', {
			email: 'finance@demo-co.example',
			password: 'nope',
		});
		expectError(assert, wrong, 401, 'INVALID_CREDENTIALS');
		const login = await anon.post('/auth/company/login', {
			email: 'finance@demo-co.example',
			password: 'sandbox-password',
		});
		assert.equal(login.status, 200, login.text);
		assert.match(login.body.apiKey, /^sk_sandbox_company_/);
		assert.match(login.body.token, /^sess_/);
		expectError(assert, await api.get('/orders'), 401, 'INVALID_API_KEY');
		assert.equal((await client(sandbox, login.body.apiKey).get('/orders')).status, 200);
		assert.equal((await client(sandbox, login.body.token).get('/orders')).status, 200);
	});

	it('regenerate-key returns a new key and invalidates the old one', async () => {
		const res = await api.post('/auth/company/regenerate-key');
		assert.equal(res.status, 200);
		assert.notEqual(res.body.apiKey, KEYS.legacy);
		expectError(assert, await api.get('/wallets'), 401, 'INVALID_API_KEY');
		assert.equal((await client(sandbox, res.body.apiKey).get('/wallets')).status, 200);
	});

	it('session tokens expire with the clock (SESSION_INVALID)', async () => {
		const login = await client(sandbox, null).post('/auth/company/login', {
			email: 'finance@demo-co.example',
			password: 'sandbox-password',
		});
		await control(sandbox).post('/clock/advance', { ms: 13 * 60 * 60 * 1000 });
		expectError(
			assert,
			await client(sandbox, login.body.token).get('/orders'),
			401,
			'SESSION_INVALID',
		);
		expectError(
			assert,
			await client(sandbox, 'sess_garbage').get('/orders'),
			401,
			'SESSION_INVALID',
		);
	});

	it('rotates the webhook secret only with webhook.manage and answers 201', async () => {
		const reader = client(sandbox, KEYS.readOnly);
		const denied = expectError(
			assert,
			await reader.post('/auth/company/webhook-secret/rotate'),
			403,
			'PERMISSION_DENIED',
		);
		assert.equal(denied.required, 'webhook.manage');
		const res = await api.post('/auth/company/webhook-secret/rotate');
		assert.equal(res.status, 201);
		assert.match(res.body.webhookSecret, /^whsec_[0-9a-f]{48}$/);
		const profile = await api.get('/auth/company/profile');
		assert.equal(profile.body.webhookSecret, `whsec_…${res.body.webhookSecret.slice(-4)}`);
	});

	it('profile PATCH validates fields and needs webhook.manage for webhook fields', async () => {
		const bad = await api.patch('/auth/company/profile', { webhookUrl: 'ftp://x', color: 'red' });
		assert.equal(expectError(assert, bad, 400, 'VALIDATION_ERROR').message.length, 2);
		const reader = client(sandbox, KEYS.readOnly);
		const denied = await reader.patch('/auth/company/profile', {
			webhookUrl: 'http://127.0.0.1:9/x',
		});
		expectError(assert, denied, 403, 'PERMISSION_DENIED');
		const ok = await api.patch('/auth/company/profile', {
			webhookUrl: 'http://127.0.0.1:9/x',
			cardsTestMode: true,
		});
		assert.equal(ok.status, 200);
		assert.equal(ok.body.webhookUrl, 'http://127.0.0.1:9/x');
		assert.equal(ok.body.webhookSecret, null);
		assert.equal(ok.body.cardsTestMode, true);
	});

	it('keeps companies apart: another company cannot read Demo Co orders', async () => {
		const [order] = (await api.get('/orders?limit=1')).body;
		const other = client(sandbox, KEYS.otherCompany);
		expectError(assert, await other.get(`/orders/${order.id}`), 404, 'ORDER_NOT_FOUND');
		assert.deepEqual((await other.get('/orders')).body, []);
	});

	it('injected faults: rejected requests do nothing, dropped responses hide a done effect', async () => {
		const ctl = control(sandbox);
		await ctl.post('/faults', { rejectFirstRequests: 1, pathPrefix: '/wallets' });
		const rejected = await api.get('/wallets/balance');
		expectError(assert, rejected, 503, 'SERVICE_UNAVAILABLE');
		assert.equal(rejected.headers.get('retry-after'), '1');
		assert.equal((await api.get('/wallets/balance')).status, 200);
		await ctl.post('/faults', { dropFirstResponses: 1, pathPrefix: '/user-wallets' });
		expectError(
			assert,
			await api.post('/user-wallets', { externalId: 'fault-user' }),
			503,
			'SERVICE_UNAVAILABLE',
		);
		const again = await api.post('/user-wallets', { externalId: 'fault-user' });
		assert.equal(again.status, 200, 'the first call did create the wallet');
	});
});
