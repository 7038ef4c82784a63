// Issue 50, outside read r9-data: the seven findings, each as it was found, at the door it was
// found at (the AI tool's error, an output item, the credential, the error description, Update
// Profile, a key pasted with a line break, a card number with invisible separators).
import type { IDataObject } from 'n8n-workflow';
import nock from 'nock';

import { CompanyPaymentsApi } from '../../credentials/CompanyPaymentsApi.credentials';
import { normaliseSecret } from '../../nodes/CompanyPaymentsTrigger/signature';
import { gateJson, gateText, maskForModel, rememberCredential } from '../../nodes/shared/gate';
import { networkFailure } from '../../nodes/shared/transport/network';
import {
	describe as describeError,
	readServiceError,
} from '../../nodes/shared/transport/serviceError';
import { API_KEY, BASE_URL, runNode, runTool } from './helpers/n8n';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

// Built, so that no literal in the test is a credential.
const USER = ['acme', 'gw', 'user'].join('-');
const PASSWORD = ['Gw7', 'Pass', 'qk29xz'].join('-');
const GW_HOST = 'gw.payments.test';

describe('finding 1: a Base URL user and password never shown', () => {
	const credentials = {
		environment: 'staging',
		baseUrl: `https://${USER}:${PASSWORD}@${GW_HOST}`,
		apiKey: API_KEY,
		webhookSecret: '',
	};

	it('the AI tool’s error hides the user as well as the password', async () => {
		nock(`https://${GW_HOST}`)
			.get('/wallets/balance')
			.reply(500, { statusCode: 500, errorCode: 'INTERNAL_ERROR', message: 'Ошибка' });
		const tool = (
			await runTool({
				parameters: { resource: 'companyWallet', operation: 'getBalance' },
				credentials,
			})
		).output;
		const text = JSON.stringify(tool);
		expect(text).toContain(GW_HOST);
		expect(text).not.toContain(USER);
		expect(text).not.toContain(PASSWORD);
	});

	it('a text with the link’s password masked first still loses the user', () => {
		rememberCredential(credentials);
		for (const audience of ['user', 'model'] as const) {
			const shown = gateText(undefined, `at https://${USER}:${PASSWORD}@${GW_HOST}/x`, audience);
			expect(shown).not.toContain(USER);
			expect(shown).not.toContain(PASSWORD);
			expect(shown).toContain(GW_HOST);
		}
	});

	it('a short user name (not searched in texts) is hidden in the link after its password was masked', () => {
		const short = { ...credentials, baseUrl: `https://ops:${PASSWORD}@${GW_HOST}` };
		rememberCredential(short);
		for (const audience of ['user', 'model'] as const) {
			const shown = gateText(undefined, `at https://ops:${PASSWORD}@${GW_HOST}/x`, audience);
			expect(shown).toBe(`at https://[hidden]@${GW_HOST}/x`);
		}
	});

	it('the user name echoed by a gateway is known as the credential’s', () => {
		// The test's HTTP stand-in cannot send to a URL with a user part; the outside reader's
		// script (n8n-core's own helper) runs the node end to end. Here the error body as the
		// node shows it, once the credential was read.
		rememberCredential(credentials);
		const body = {
			statusCode: 401,
			errorCode: 'UNAUTHORIZED',
			message: `Basic auth: user ${USER} with password ${PASSWORD} is not allowed`,
			path: `/wallets/balance?login=${USER}`,
		};
		for (const audience of ['user', 'model'] as const) {
			const text = JSON.stringify(gateJson(undefined, body, audience));
			expect(text).toContain('UNAUTHORIZED');
			expect(text).not.toContain(USER);
			expect(text).not.toContain(PASSWORD);
		}
	});
});

describe('finding 2: a number in a field named a time or a count is kept exactly', () => {
	// 1764374400000009 and 1764374400000000018 pass the card checksum; a card number does too.
	const US = 1764374400000009;
	const NS = '1764374400000000018';

	it('Luhn-valid µs and ns timestamps come out as sent, JSON type kept, for user and model', () => {
		const record = {
			id: 'bh_1',
			createdAtUs: US,
			createdAtNs: NS,
			confirmedAtUs: US,
			ledgerSeq: US,
			eventTimestamp: NS,
		};
		for (const shown of [gateJson(undefined, record), maskForModel(record, [])]) {
			expect(shown).toEqual(record);
		}
	});

	it('a card number in an unknown field, or in free text, is still masked', () => {
		expect(maskForModel({ value: 4111111111111111 }, [])).toEqual({ value: '•••• 1111' });
		expect(gateJson(undefined, { note: 'card 4111 1111 1111 1111' })).toEqual({
			note: 'card •••• 1111',
		});
		// A card number under a time's name is masked by its value where the record declares it.
		expect(
			JSON.stringify(gateJson(undefined, { requisiteType: 'card', requisite: '4111111111111111' })),
		).not.toContain('4111111111111111');
	});
});

describe('finding 3: the credential sends X-API-Key only to its Base URL', () => {
	const data = { environment: 'staging', baseUrl: 'http://127.0.0.1:4010/api', apiKey: API_KEY };
	const auth = new CompanyPaymentsApi().authenticate as unknown as (
		credentials: IDataObject,
		options: IDataObject,
	) => Promise<IDataObject>;

	it.each([
		'https://collector.example.net/x',
		'http://127.0.0.1:4011/api/payouts',
		'http://localhost:4010/api/payouts',
		'http://127.0.0.1:4010/apiother/payouts',
		'http://127.0.0.1:4010/',
	])('no key for %s', async (url) => {
		const out = await auth(data, { url, headers: {} });
		expect((out.headers as IDataObject)['X-API-Key']).toBeUndefined();
	});

	it('the key for the Base URL, redirects not followed (either request shape)', async () => {
		const modern = await auth(data, { url: 'http://127.0.0.1:4010/api/payouts', headers: {} });
		expect((modern.headers as IDataObject)['X-API-Key']).toBe(API_KEY);
		expect(modern.disableFollowRedirect).toBe(true);
		const relative = await auth(data, {
			baseURL: 'http://127.0.0.1:4010/api',
			url: '/company/profile',
			headers: {},
		});
		expect((relative.headers as IDataObject)['X-API-Key']).toBe(API_KEY);
		const legacy = await auth(data, {
			uri: 'http://127.0.0.1:4010/api/payouts',
			headers: {},
			followRedirect: true,
			followAllRedirects: true,
		});
		expect((legacy.headers as IDataObject)['X-API-Key']).toBe(API_KEY);
		expect(legacy.followRedirect).toBe(false);
		expect(legacy.followAllRedirects).toBe(false);
	});
});

describe('finding 4: every part of the service’s error body is kept', () => {
	it('a message that is an object, a list of objects; details that are a list', () => {
		const objectMessage = readServiceError(422, {
			errorCode: 'AMOUNT_BELOW_MIN',
			message: { ru: 'Сумма ниже минимальной: 100 RUB', en: 'Amount below minimum' },
		});
		expect(objectMessage.serviceMessage).toContain('Сумма ниже минимальной');
		const listMessage = readServiceError(400, {
			errorCode: 'VALIDATION_ERROR',
			message: [{ field: 'qrCode', error: 'QR-код не распознан' }, 'too short'],
		});
		expect(listMessage.serviceMessage).toContain('QR-код не распознан');
		expect(listMessage.serviceMessage).toContain('too short');
		expect(listMessage.serviceMessage).not.toContain('[object Object]');
		const listDetails = readServiceError(400, {
			errorCode: 'VALIDATION_ERROR',
			message: 'Ошибка валидации',
			details: [{ field: 'qrCode', minLength: 10 }],
		});
		expect(listDetails.details).toEqual([{ field: 'qrCode', minLength: 10 }]);
		expect(describeError(listDetails)).toContain('minLength');
	});
});

describe('finding 5: the webhook secret Update Profile sends is the one the trigger verifies with', () => {
	it('a pasted secret with a line break is sent trimmed', async () => {
		const pasted = `whsec_${'0123456789abcdef'.repeat(3)}\n`;
		let sent: unknown;
		nock(BASE_URL)
			.patch('/auth/company/profile', (body: IDataObject) => {
				sent = body.webhookSecret;
				return true;
			})
			.reply(200, { id: 'c1', webhookSecret: pasted.trim() });
		await runNode({
			parameters: {
				resource: 'company',
				operation: 'updateProfile',
				updateFields: { webhookSecret: pasted },
			},
		});
		expect(sent).toBe(normaliseSecret(pasted));
		expect(sent).toBe(pasted.trim());
	});
});

describe('finding 6: an API key with a line break', () => {
	it('is sent trimmed, as the Base URL is', async () => {
		let key: unknown;
		nock(BASE_URL)
			.get('/wallets/balance')
			.reply(function () {
				key = this.req.headers['x-api-key'];
				return [200, { usdtBalance: 1 }];
			});
		const { output } = await runNode({
			parameters: { resource: 'companyWallet', operation: 'getBalance' },
			credentials: { environment: 'staging', baseUrl: BASE_URL, apiKey: `${API_KEY}\n` },
		});
		expect(key).toBe(API_KEY);
		expect(output[0].json.usdtBalance).toBe(1);
	});

	it('a key with a character no header may carry is refused before sending, naming the field', async () => {
		const scope = nock(BASE_URL).post('/payouts').reply(200, {});
		const { output } = await runNode({
			parameters: {
				resource: 'payout',
				operation: 'create',
				amountRub: '1500',
				requisiteType: 'card',
				requisite: '2200700112345672',
				idempotencyKey: 'inv-77',
				additionalFields: { externalId: 'inv-77' },
			},
			credentials: {
				environment: 'staging',
				baseUrl: BASE_URL,
				apiKey: 'ck_9f8e\n7d6c5b4a39281706',
			},
			continueOnFail: true,
		});
		expect(scope.isDone()).toBe(false);
		const json = output[0].json;
		expect(`${String(json.error)} ${String(json.description)}`).toMatch(/API Key/);
		expect(json.paymentOutcome).not.toBe('unknown');
	});

	it('Node’s refusal of a header value is read as nothing sent', () => {
		const error = Object.assign(
			new TypeError('Invalid character in header content ["X-API-Key"]'),
			{
				code: 'ERR_INVALID_CHAR',
			},
		);
		expect(networkFailure(error).maybeSent).toBe(false);
	});
});

describe('finding 7: invisible separators and other digits do not hide a card number', () => {
	const PAN = '4111111111111111';
	it.each([
		['zero-width space', '4111\u200b1111\u200b1111\u200b1111'],
		['word joiner', '4111\u20601111\u20601111\u20601111'],
		['soft hyphen', '4111\u00ad1111\u00ad1111\u00ad1111'],
		['zero-width inside groups', '41\u200b11 1111 11\u200d11 1111'],
		['Arabic-Indic digits', '٤١١١ ١١١١ ١١١١ ١١١١'],
		['Extended Arabic-Indic digits', '۴۱۱۱۱۱۱۱۱۱۱۱۱۱۱۱'],
	])('%s', (_name, written) => {
		const reason = `Клиент: списали дважды с карты ${written}`;
		for (const audience of ['user', 'model'] as const) {
			const shown = gateJson(undefined, { reason }, audience).reason as string;
			const digits = shown
				.replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x660))
				.replace(/[\u06f0-\u06f9]/g, (d) => String(d.charCodeAt(0) - 0x6f0))
				.replace(/\D/g, '');
			expect(digits).not.toContain(PAN);
			// The last four as written (r18-data, finding 4: what is shown comes out as sent).
			expect(digits).toBe('1111');
		}
	});

	it('the API key with a zero-width space inside', () => {
		rememberCredential({ apiKey: API_KEY });
		const inside = `${API_KEY.slice(0, 8)}\u200b${API_KEY.slice(8)}`;
		const shown = gateText(undefined, `key ${inside} refused`);
		expect(shown.replace(/\u200b/g, '')).not.toContain(API_KEY.slice(8));
	});
});

describe('finding 4: a secret inside a message of another type stays masked', () => {
	it('a key under a secret name inside an object message', () => {
		const hexKey = '9f8e7d6c5b4a39281706f5e4d3c2b1a0'.repeat(2);
		const info = readServiceError(400, {
			errorCode: 'VALIDATION_ERROR',
			message: { error: 'key rejected', memberKey: hexKey },
		});
		expect(info.serviceMessage).toContain('key rejected');
		expect(info.serviceMessage).not.toContain(hexKey.slice(-12));
	});
});
