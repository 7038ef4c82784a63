// Issue 50: the seventh outside read's secret and data cases, each as it was found, through the
// doors a user and a model read (output items, errors, tool results, the webhook item).
import nock from 'nock';

import { gateText, rememberCredential } from '../../nodes/shared/gate';
import { withoutUserinfo } from '../../nodes/shared/transport/environment';
import { API_KEY, BASE_URL, runNode, runNodeError, runTool } from './helpers/n8n';
import { SAMPLE_EVENTS, SECRET_DUMMY, deliver, hmacHex } from './helpers/trigger';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

/** Every text a reader can see in a value, an error's own properties too. */
function allText(value: unknown, seen = new Set<object>()): string {
	if (typeof value === 'string') return value;
	if (typeof value === 'number') return String(value);
	if (typeof value !== 'object' || value === null || seen.has(value)) return '';
	seen.add(value);
	const keys = value instanceof Error ? Object.getOwnPropertyNames(value) : Object.keys(value);
	return keys
		.filter((key) => key !== 'node')
		.map((key) => `${key}=${allText((value as Record<string, unknown>)[key], seen)}`)
		.join(' | ');
}

// Built, so that no literal in the test is a credential.
const PASSWORD = ['Stg', 'Pass', '9x7Q'].join('');
const MEMBER_KEY = ['mk', 'live', 'Zx8cV7bN6mQ5wE4r'].join('_');
const OTHER_KEY = ['key', 'value', 'Pq9Wo8Ei7Ru6Ty5'].join('_');
const CARD = '2200700012345678';
const ORDER_ID = '7d3c2b1a-1111-4222-8333-944455566677';

describe('a Base URL with a user and password', () => {
	const credentials = {
		environment: 'staging',
		baseUrl: `https://ops:${PASSWORD}@api.payments.test`,
		apiKey: API_KEY,
		webhookSecret: '',
	};

	it('is never shown in an error, for the user or the model', async () => {
		const error = await runNodeError({
			parameters: { resource: 'order', operation: 'get', orderId: ORDER_ID },
			credentials,
		});
		const text = allText(error);
		expect(text).toContain('api.payments.test');
		expect(text).not.toContain(PASSWORD);
		const tool = (
			await runTool({
				parameters: { resource: 'order', operation: 'get', orderId: ORDER_ID },
				credentials,
			})
		).output;
		expect(allText(tool)).not.toContain(PASSWORD);
		expect(allText(tool)).toContain('api.payments.test');
	});

	it('its password alone in a text is known as the credential’s', () => {
		rememberCredential(credentials);
		expect(gateText(undefined, `login failed for ops with ${PASSWORD}`)).not.toContain(PASSWORD);
	});

	it('withoutUserinfo (for the credential test) hides it in a URL and a text, also JSON-escaped', () => {
		expect(withoutUserinfo(`https://ops:${PASSWORD}@api.example.com/x`)).toBe(
			'https://[hidden]@api.example.com/x',
		);
		expect(withoutUserinfo(`at http:\\/\\/ops:${PASSWORD}@h.test\\/api`)).not.toContain(PASSWORD);
		expect(withoutUserinfo('mail ops@example.com')).toBe('mail ops@example.com');
	});
});

describe('records the document says carry secrets are closed by default', () => {
	it('Member Get Many: memberKey and keys[].value masked for the user and the model; role, e-mail kept', async () => {
		const members = [
			{
				userId: 'usr_1',
				email: 'ops@example.com',
				role: 'admin',
				permissions: ['members.read'],
				memberKey: MEMBER_KEY,
				keys: [{ value: OTHER_KEY, active: true }],
			},
		];
		nock(BASE_URL)
			.persist()
			.get('/members')
			.query(true)
			.reply((uri) => [200, uri.includes('offset=0') ? members : []]);
		const parameters = { resource: 'member', operation: 'getMany', returnAll: true };
		const { output } = await runNode({ parameters });
		expect(output[0].json).toMatchObject({
			userId: 'usr_1',
			email: 'ops@example.com',
			role: 'admin',
			keys: [{ active: true }],
		});
		expect(allText(output)).not.toContain(MEMBER_KEY.slice(-12));
		expect(allText(output)).not.toContain(OTHER_KEY.slice(-12));
		const tool = (await runTool({ parameters: { ...parameters, compactOutput: false } })).output;
		expect(allText(tool)).not.toContain(MEMBER_KEY.slice(-12));
		expect(allText(tool)).not.toContain(OTHER_KEY.slice(-12));
	});

	it('Get Card Number and CVV: a cardPin beyond the four fields is masked, as a number too', async () => {
		nock(BASE_URL).persist().get('/cards/card_1/sensitive').reply(200, {
			cardId: 'card_1',
			cardNumberFull: CARD,
			cardCvv: '123',
			expiry: '12/29',
			cardPin: '4821',
			pinNumeric: 4821,
		});
		const { output } = await runNode({
			parameters: { resource: 'card', operation: 'getSensitiveData', cardId: 'card_1' },
		});
		expect(output[0].json.masked).toBe(true);
		expect(output[0].json.cardPin).not.toContain('4821');
		expect(output[0].json.pinNumeric).not.toBe(4821);
		expect(allText(output)).not.toContain('4821');
		expect(output[0].json.cardId).toBe('card_1');
	});

	it('Get Profile: an unknown field (a signing key the document does not show) is masked', async () => {
		nock(BASE_URL)
			.get('/auth/company/profile')
			.reply(200, { id: 'c_1', name: 'Acme', webhookUrl: null, hmacMaterial: OTHER_KEY });
		const { output } = await runNode({
			parameters: { resource: 'company', operation: 'getProfile' },
		});
		expect(output[0].json).toMatchObject({ id: 'c_1', name: 'Acme', webhookUrl: null });
		expect(allText(output)).not.toContain(OTHER_KEY.slice(-12));
	});
});

describe('a requisite is masked by requisiteType, whatever its JSON type', () => {
	it('Payout Get Many: a card requisite sent as a JSON number', async () => {
		const body = `[{"id":"po_1","status":"success","amountRub":1500,"requisiteType":"card","requisite":${CARD},"createdAt":"2026-11-21T12:00:00.000Z"}]`;
		nock(BASE_URL)
			.persist()
			.get('/payouts')
			.query(true)
			.reply((uri) => [
				200,
				uri.includes('offset=0') ? body : '[]',
				{ 'Content-Type': 'application/json' },
			]);
		const { output } = await runNode({
			parameters: { resource: 'payout', operation: 'getMany', returnAll: true },
		});
		expect(output[0].json.requisite).toBe('•••• 5678');
		expect(allText(output)).not.toContain(CARD);
	});

	it('the webhook item: a card requisite sent as a JSON number', async () => {
		const raw = `{"event":"payout.status_changed","payoutId":"po_1","status":"success","requisiteType":"card","requisite":${CARD},"completedAt":"2026-11-21T12:20:00.000Z"}`;
		const { item } = await deliver({ body: raw });
		expect(item?.requisite).toBe('•••• 5678');
	});
});

describe('an escaped form of a known secret is masked whole', () => {
	const slashed = ['sk', 'live', 'AbC/dEf9/GhIjKlMnOpQrStUv/Wx'].join('_');
	const credentials = {
		environment: 'staging',
		baseUrl: BASE_URL,
		apiKey: slashed,
		webhookSecret: '',
	};
	const forms = [
		slashed.replace(/\//g, '\\/'),
		slashed.replace(/\//g, '\\u002f'),
		slashed.replace(/\//g, '\\u002F'),
		slashed.replace(/\//g, '\\\\/'),
		slashed.replace(/\//g, '\\u002f').replace(/_/g, '\\u005f'),
	];

	it.each(forms)('%s as the error details show it (after parsing)', async (form) => {
		nock(BASE_URL)
			.get(`/orders/${ORDER_ID}`)
			.reply(
				400,
				`{"statusCode":400,"errorCode":"VALIDATION_ERROR","message":"bad","details":${JSON.stringify(`key ${form} rejected`)}}`,
				{ 'Content-Type': 'application/json' },
			);
		const error = await runNodeError({
			parameters: { resource: 'order', operation: 'get', orderId: ORDER_ID },
			credentials,
		});
		const text = allText(error);
		for (const part of slashed.split('/')) if (part.length >= 4) expect(text).not.toContain(part);
		expect(text).not.toContain(slashed.slice(-8));
	});
});

describe('data kept to the digit and in its kind', () => {
	it('a deposit token "USDT-TRC20" or "usdt" is the crypto token, not a secret', async () => {
		const first = await deliver({
			body: { ...SAMPLE_EVENTS['deposit.completed'], token: 'USDT-TRC20' },
		});
		expect(first.item?.token).toBe('USDT-TRC20');
		const second = await deliver({
			body: { ...SAMPLE_EVENTS['deposit.completed'], token: 'usdt' },
		});
		expect(second.item?.token).toBe('usdt');
	});

	it('two deposits with 19-digit numeric IDs: two IDs as sent, two change keys', async () => {
		const ids = ['1790123400012345600', '1790123400012345601'];
		const items = [];
		for (const id of ids) {
			const raw = `{"event":"deposit.completed","depositId":${id},"txHash":"0xabc${id.slice(-3)}","amount":2500,"status":"completed"}`;
			items.push((await deliver({ body: raw })).item);
		}
		expect(items.map((item) => item?.depositId)).toEqual(ids);
		expect(items[0]?.changeKey).not.toBe(items[1]?.changeKey);
		expect(items[1]?.changeKey).toContain(ids[1]);
	});
});

describe('Include Raw Body: the signed bytes exactly, or the item says they were masked', () => {
	it('a body with a card number: rawBody withheld, rawBodyMasked true and a note saying why', async () => {
		const raw = `{"event":"payout.status_changed","payoutId":"po_1","status":"success","requisiteType":"card","requisite":"${CARD}","completedAt":"2026-11-21T12:20:00.000Z"}`;
		const { item } = await deliver({
			body: raw,
			parameters: { options: { includeRawBody: true } },
		});
		// Withheld whole (outside read r2): a masked text is not the signed body either.
		expect(item?.rawBody).toBeNull();
		expect(JSON.stringify(item)).not.toContain(CARD);
		expect(item?.rawBodyMasked).toBe(true);
		expect(item?.rawBodyNote).toMatch(/withheld.*not be the signed body.*HMAC would not match/);
	});

	it('a body without secrets: rawBody is the signed bytes, its HMAC matches, rawBodyMasked false', async () => {
		const raw = `{"event":"deposit.completed","depositId":1790123400012345601,"txHash":"0xabc","amount":2500,"status":"completed"}`;
		const { item } = await deliver({
			body: raw,
			signWith: SECRET_DUMMY,
			parameters: { options: { includeRawBody: true } },
		});
		expect(item?.rawBody).toBe(raw);
		expect(item?.rawBodyMasked).toBe(false);
		expect(item).not.toHaveProperty('rawBodyNote');
		expect(hmacHex(String(item?.rawBody), SECRET_DUMMY)).toBe(hmacHex(raw, SECRET_DUMMY));
	});
});
