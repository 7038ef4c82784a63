// Outside read r16-data (issue 50): each finding as it was found, at the door it was found at.
import nock from 'nock';
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { BASE_URL, runNode, runNodeError, runTool } from './helpers/n8n';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const JSON_TYPE = { 'content-type': 'application/json' };
// Dummy values, built so that no literal reads as a secret in the source.
const NEW_KEY = ['cpk', 'live', 'NEWab12cd34ef56ab78cd90ef12ab34cd56'].join('_');
const MEMBER_KEY = ['mk', '0123456789abcdef'].join('_');
const KEY_LIKE = ['kx', '9f8e7d6c5b4a3928'].join('_');
const ORDER_ID = 'c0b1a2f3-0000-4000-8000-000000000001';
const orderGet = {
	resource: 'order',
	operation: 'get',
	orderId: { __rl: true, mode: 'id', value: ORDER_ID },
};

/** A list path answered `first` on its first page and an empty page after it. */
function listOnce(path: string, first: string, empty = '[]'): void {
	let calls = 0;
	nock(BASE_URL)
		.get(path)
		.query(true)
		.times(5)
		.reply(() => {
			calls += 1;
			return [200, calls === 1 ? first : empty, JSON_TYPE];
		});
}

describe('finding 2: a number past 2^53 in an error’s details reaches the model exactly', () => {
	const BIG = '12345678901234567890';

	it('details.sbpTrace (not a card number): exact in details and in whatToDo, as in a record', async () => {
		nock(BASE_URL)
			.get(`/orders/${ORDER_ID}`)
			.reply(
				422,
				`{"statusCode":422,"error":"Unprocessable Entity","errorCode":"DISPUTE_NOT_ALLOWED","message":"Спор невозможен","details":{"sbpTrace":${BIG}}}`,
				JSON_TYPE,
			);
		const { output } = await runTool({ parameters: orderGet });
		const json = output[0];
		expect((json.details as IDataObject).sbpTrace).toBe(BIG);
		expect(((json.error as IDataObject).details as IDataObject).sbpTrace).toBe(BIG);
		expect(json.whatToDo).toContain(BIG);
		expect((json.error as IDataObject).whatToDo).toContain(BIG);
	});

	it('the same record field as the model reads it in a record', async () => {
		nock(BASE_URL)
			.get(`/orders/${ORDER_ID}`)
			.reply(200, `{"id":"${ORDER_ID}","status":"success","sbpTrace":${BIG}}`, JSON_TYPE);
		const { output } = await runTool({ parameters: orderGet });
		expect(output[0].sbpTrace).toBe(BIG);
	});

	it('a card number, a phone requisite and a CVV in details stay masked for the model, in details and whatToDo', async () => {
		nock(BASE_URL)
			.get(`/orders/${ORDER_ID}`)
			.reply(
				422,
				JSON.stringify({
					statusCode: 422,
					errorCode: 'DISPUTE_NOT_ALLOWED',
					message: 'x',
					details: {
						cardHint: '4111111111111111',
						requisite: '+79991234567',
						cvv: '737',
						note: 'карта 4276 3800 1234 5678',
					},
				}),
				JSON_TYPE,
			);
		const { output } = await runTool({ parameters: orderGet });
		const text = JSON.stringify(output);
		for (const secret of ['4111111111111111', '79991234567', '737', '4276 3800 1234 5678']) {
			expect(text).not.toContain(secret);
		}
	});
});

describe('finding 3: Get Card Number and CVV, masking off, answer wrapped in {"data":{…}}', () => {
	const rec = {
		cardId: 'crd_1',
		cardNumberFull: '4111111111111111',
		cardCvv: '737',
		expiry: '12/29',
	};
	const params = (mask: boolean) => ({
		resource: 'card',
		operation: 'getSensitiveData',
		cardId: { __rl: true, mode: 'id', value: 'crd_1' },
		maskSensitiveData: mask,
	});

	it('off: the values come out exactly where the service put them, masked:false', async () => {
		nock(BASE_URL).get('/cards/crd_1/sensitive').reply(200, { data: rec });
		const { output } = await runNode({ parameters: params(false) });
		expect(output[0].json).toEqual({ data: rec, masked: false });
	});

	it('off, number and CVV sent as JSON numbers inside the envelope: exact, as numbers', async () => {
		nock(BASE_URL)
			.get('/cards/crd_1/sensitive')
			.reply(
				200,
				'{"data":{"cardId":"crd_1","cardNumberFull":4111111111111111,"cardCvv":737,"expiry":"12/29"}}',
				JSON_TYPE,
			);
		const { output } = await runNode({ parameters: params(false) });
		expect(output[0].json).toEqual({
			data: { cardId: 'crd_1', cardNumberFull: 4111111111111111, cardCvv: 737, expiry: '12/29' },
			masked: false,
		});
	});

	it('on: number and CVV masked, cardId and expiry kept, masked:true', async () => {
		nock(BASE_URL).get('/cards/crd_1/sensitive').reply(200, { data: rec });
		const { output } = await runNode({ parameters: params(true) });
		expect(output[0].json).toEqual({
			data: {
				cardId: 'crd_1',
				cardNumberFull: '•••• •••• •••• 1111',
				cardCvv: '•••',
				expiry: '12/29',
			},
			masked: true,
		});
	});

	it('off, an undeclared field in the envelope (a PIN) stays masked', async () => {
		nock(BASE_URL)
			.get('/cards/crd_1/sensitive')
			.reply(200, { data: { ...rec, cardPin: '4821' } });
		const { output } = await runNode({ parameters: params(false) });
		expect(JSON.stringify(output)).not.toContain('4821');
		expect((output[0].json.data as IDataObject).cardNumberFull).toBe(rec.cardNumberFull);
	});

	it('off, no field of the card’s number or CVV anywhere: never masked:false, and it says so', async () => {
		nock(BASE_URL)
			.get('/cards/crd_1/sensitive')
			.reply(200, { card: { id: 'crd_1', pan: '4111111111111111', code: '737' } });
		const { output } = await runNode({ parameters: params(false) });
		const json = output[0].json;
		expect(json.masked).toBe(true);
		expect(json.notice).toMatch(/cardNumberFull.*cardCvv|no field/);
		expect(JSON.stringify(output)).not.toContain('4111111111111111');
	});
});

describe('finding 4: Rotate Webhook Secret answered in another shape', () => {
	const NEW = `whsec_${'cd34'.repeat(12)}`;
	const rotate = { resource: 'company', operation: 'rotateWebhookSecret' };

	it.each([
		['a bare JSON string', `"${NEW}"`],
		['{"data":{"webhookSecret":…}}', `{"data":{"webhookSecret":"${NEW}"}}`],
		['{"webhookSecret":…}', `{"webhookSecret":"${NEW}"}`],
	])('%s: the user gets the new secret in full', async (_name, body) => {
		nock(BASE_URL).post('/auth/company/webhook-secret/rotate').reply(201, body, JSON_TYPE);
		const { output } = await runNode({ parameters: rotate });
		expect(JSON.stringify(output[0].json)).toContain(NEW);
		expect(output[0].json.notice).toMatch(/rotated/);
	});

	it.each([
		['an answer with no webhookSecret', `{"ok":true,"secretValue":"${NEW}"}`],
		['a bare text that is no secret', '"done"'],
		['true', 'true'],
	])('%s: a clear error that the secret was rotated and could not be shown', async (_n, body) => {
		nock(BASE_URL).post('/auth/company/webhook-secret/rotate').reply(201, body, JSON_TYPE);
		const error = await runNodeError({ parameters: rotate });
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toMatch(/holds no webhookSecret/);
		expect(`${error.message} ${String(error.description)}`).toMatch(/rotated/);
		expect(JSON.stringify(error)).not.toContain(NEW);
	});

	it('the model never gets the secret of a nested answer', async () => {
		nock(BASE_URL)
			.post('/auth/company/webhook-secret/rotate')
			.reply(201, `{"data":{"webhookSecret":"${NEW}"}}`, JSON_TYPE);
		// Credentials operations are refused to a tool: nothing is sent, nothing shown.
		const { output } = await runTool({ parameters: rotate });
		expect(JSON.stringify(output)).not.toContain(NEW);
	});
});

describe('findings 5 and 6: answers and list entries that are JSON values, not records', () => {
	const ADDR = 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE';

	it.each([
		[
			{ resource: 'companyWallet', operation: 'getAddress' },
			'GET',
			'/wallets',
			JSON.stringify(ADDR),
			ADDR,
		],
		[
			{ resource: 'userWallet', operation: 'block', walletId: 'w1' },
			'POST',
			'/user-wallets/w1/block',
			'true',
			true,
		],
		[{ resource: 'companyWallet', operation: 'getAddress' }, 'GET', '/wallets', '42', 42],
	])(
		'%j answered %s %s with %s: one item {value}',
		async (parameters, method, path, body, value) => {
			const scope = nock(BASE_URL);
			(method === 'GET' ? scope.get(path) : scope.post(path)).reply(200, body, JSON_TYPE);
			const { output } = await runNode({ parameters });
			expect(output.map((item) => item.json)).toEqual([{ value }]);
		},
	);

	it('as a tool too: the value under `value`', async () => {
		nock(BASE_URL).get('/wallets').reply(200, JSON.stringify(ADDR), JSON_TYPE);
		const { output } = await runTool({
			parameters: { resource: 'companyWallet', operation: 'getAddress' },
		});
		expect(output).toEqual([{ value: ADDR }]);
	});

	it('blocked wallets as a list of IDs: one item per ID, exact', async () => {
		listOnce('/user-wallets/blocked', '{"wallets":["w_1","w_2"],"total":2}', '{"wallets":[]}');
		const { output } = await runNode({
			parameters: { resource: 'userWallet', operation: 'getBlocked', returnAll: true },
		});
		expect(output.map((item) => item.json)).toEqual([{ value: 'w_1' }, { value: 'w_2' }]);
	});

	it('balance history entries as bare numbers: kept exactly', async () => {
		listOnce('/wallets/balance-history', '{"items":[12.5,-3.25],"total":2}', '{"items":[]}');
		const { output } = await runNode({
			parameters: { resource: 'companyWallet', operation: 'getBalanceHistory', returnAll: true },
		});
		expect(output.map((item) => item.json)).toEqual([{ value: 12.5 }, { value: -3.25 }]);
	});

	it('a null entry beside a record: no TypeError, the record kept', async () => {
		listOnce(
			'/user-wallets',
			'{"items":[null,{"id":"w1","externalId":"u1"}],"total":2}',
			'{"items":[]}',
		);
		const { output } = await runNode({
			parameters: { resource: 'userWallet', operation: 'getMany', returnAll: true },
		});
		expect(output.map((item) => item.json)).toEqual([
			{ value: null },
			{ id: 'w1', externalId: 'u1' },
		]);
	});
});

describe('finding 7: documented non-secret fields of the closed records come out exactly', () => {
	const profile = {
		id: ORDER_ID,
		name: 'ООО Ромашка',
		webhookUrl: 'https://hooks.example.ru/pay',
		usdtBalance: '1000.123456789012345678',
		cardOpeningFeeUsdt: 5,
		role: 'owner',
		permissions: ['orders.read'],
		webhookSecretSetAt: '2026-01-01T00:00:00Z',
		isActive: true,
	};

	it('Get Profile: every documented or plainly timed field exact', async () => {
		nock(BASE_URL).get('/auth/company/profile').reply(200, JSON.stringify(profile), JSON_TYPE);
		const { output } = await runNode({
			parameters: { resource: 'company', operation: 'getProfile' },
		});
		expect(output[0].json).toEqual(profile);
	});

	it('Regenerate API Key: message and the times exact, the key opened', async () => {
		const answer = {
			message: 'API key regenerated',
			apiKey: NEW_KEY,
			expiresAt: null,
			createdAt: '2026-11-29T08:00:00Z',
			previousKeyValidUntil: '2026-11-29T09:00:00Z',
		};
		nock(BASE_URL).post('/auth/company/regenerate-key').reply(200, answer);
		const { output } = await runNode({
			parameters: { resource: 'company', operation: 'regenerateApiKey' },
		});
		expect(output[0].json).toMatchObject(answer);
	});

	it('Rotate Webhook Secret: rotatedAt, previousSecretValidUntil and message exact', async () => {
		const NEW = `whsec_${'cd34'.repeat(12)}`;
		const answer = {
			webhookSecret: NEW,
			rotatedAt: '2026-11-29T08:00:00Z',
			previousSecretValidUntil: '2026-11-29T09:00:00.000+03:00',
			message: 'Секрет обновлён',
		};
		nock(BASE_URL).post('/auth/company/webhook-secret/rotate').reply(201, answer);
		const { output } = await runNode({
			parameters: { resource: 'company', operation: 'rotateWebhookSecret' },
		});
		expect(output[0].json).toMatchObject(answer);
	});

	it('still closed: a secret under a time’s name, an undeclared PIN or key, a non-time under a time’s name', async () => {
		const hidden = {
			rotatedAt: 'whsec_00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff',
			keyValidUntil: KEY_LIKE,
			cardPin: '4821',
			memberKey: MEMBER_KEY,
			webhookSecret: `whsec_${'ab'.repeat(24)}`,
		};
		nock(BASE_URL)
			.get('/auth/company/profile')
			.reply(200, { ...profile, ...hidden });
		const { output } = await runNode({
			parameters: { resource: 'company', operation: 'getProfile' },
		});
		const text = JSON.stringify(output);
		for (const value of Object.values(hidden)) expect(text).not.toContain(value);
		expect(output[0].json.usdtBalance).toBe(profile.usdtBalance);
	});

	it('a documented name holding an object in a closed record stays masked (its shape is not declared)', async () => {
		nock(BASE_URL)
			.get('/auth/company/profile')
			.reply(200, { ...profile, message: { pin: '4821', text: 'ok' } });
		const { output } = await runNode({
			parameters: { resource: 'company', operation: 'getProfile' },
		});
		expect(JSON.stringify(output)).not.toContain('4821');
	});

	// DOCUMENTED_PLAIN (contract/records.ts) declares in every closed record the names the
	// document gives a field of any record, but only those of a plain kind (fixer dfix23: the
	// filter had no test). A name the document gives a secret elsewhere (an invite's `token`) or
	// leaves open (a payout's `dispute`) declares nothing in a member, which stays closed: read by
	// its kind there, `token: "qwerty"` would be kept as a token's code and a key under `dispute`
	// read only by the patterns, which find no secret in a bare random word.
	it('a name the document gives a secret or leaves open in another record is no declaration: hidden in a member', async () => {
		const weak = 'qwerty';
		const opaque = 'k3Jd9sLq0PzX7mNv2Wb';
		const members = [{ userId: 'u1', role: 'admin', token: weak, dispute: opaque }];
		for (const audience of ['user', 'model'] as const) {
			nock(BASE_URL).get('/members').query(true).reply(200, members);
			nock(BASE_URL).get('/members').query(true).reply(200, []);
			const run = audience === 'user' ? runNode : runTool;
			const { output } = await run({
				parameters: { resource: 'member', operation: 'getMany', returnAll: true, simplify: false },
			});
			const text = JSON.stringify(output);
			expect([audience, text.includes(weak), text.includes(opaque)]).toEqual([
				audience,
				false,
				false,
			]);
			expect(text).toContain('"role":"admin"');
		}
	});

	it('for the model a closed record keeps the documented fields too, and no secret', async () => {
		nock(BASE_URL)
			.get('/members')
			.query(true)
			.reply(200, [
				{
					userId: 'u1',
					role: 'admin',
					permissions: ['members.read'],
					usdtBalance: '10.5',
					memberKey: MEMBER_KEY,
				},
			]);
		nock(BASE_URL).get('/members').query(true).reply(200, []);
		const { output } = await runTool({
			parameters: { resource: 'member', operation: 'getMany', returnAll: true, simplify: false },
		});
		const text = JSON.stringify(output);
		expect(text).not.toContain(MEMBER_KEY);
		expect(text).toContain('"role":"admin"');
	});
});
