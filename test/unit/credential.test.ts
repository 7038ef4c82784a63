import type { INodeCredentialTestResult } from 'n8n-workflow';
import nock from 'nock';

import { CompanyPaymentsApi } from '../../credentials/CompanyPaymentsApi.credentials';
import { CompanyPayments } from '../../nodes/CompanyPayments/CompanyPayments.node';
import { CompanyPaymentsTrigger } from '../../nodes/CompanyPaymentsTrigger/CompanyPaymentsTrigger.node';
import {
	CREDENTIAL_TEST,
	CREDENTIAL_TEST_PATH,
	TEST_ERROR_CODES,
	TEST_STATUS_ANSWERS,
	testStatusAnswer,
} from '../../nodes/shared/credentialTest';
import { authenticate, runCredentialTest } from './helpers/n8n';

const BASE = 'https://payments.example.com/api';
const KEY = 'sk_dummy_credential_test_0123456789';
const PROFILE = '/api/auth/company/profile';

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
	expect(nock.pendingMocks()).toEqual([]);
	nock.cleanAll();
});

describe('credential companyPaymentsApi', () => {
	const credential = new CompanyPaymentsApi();
	const fields = Object.fromEntries(
		credential.properties.map((property) => [property.name, property]),
	);

	it('has the fields the package documents, secrets as optional password fields', () => {
		expect(Object.keys(fields)).toEqual([
			'environment',
			'baseUrl',
			'apiKey',
			'webhookSecret',
			'previousWebhookSecret',
			'maxRetryWaitSeconds',
		]);
		expect(fields.maxRetryWaitSeconds.default).toBe(60);
		expect(
			fields.environment.options?.map((option) => (option as { value: string }).value),
		).toEqual(['production', 'staging']);
		expect(fields.apiKey.typeOptions?.password).toBe(true);
		for (const name of ['webhookSecret', 'previousWebhookSecret']) {
			expect(fields[name].typeOptions?.password).toBe(true);
			expect(fields[name].required).toBeFalsy();
			expect(fields[name].default).toBe('');
		}
		expect(fields.previousWebhookSecret.displayName).toBe('Previous Webhook Secret');
		expect(fields.previousWebhookSecret.description).toMatch(/until you clear it/);
	});

	it('sends the key as X-API-Key, to its Base URL only (outside read r9-data, finding 3)', async () => {
		const credentials = {
			apiKey: 'sk_dummy_key',
			baseUrl: 'https://x.test',
			environment: 'staging',
		};
		const options = await authenticate(
			{ url: 'https://x.test/orders', headers: { Accept: 'application/json' } },
			credentials,
		);
		expect(options.headers).toEqual({ Accept: 'application/json', 'X-API-Key': 'sk_dummy_key' });
		const elsewhere = await authenticate(
			{ url: 'https://y.test/orders', headers: { Accept: 'application/json' } },
			credentials,
		);
		expect(elsewhere.headers).toEqual({ Accept: 'application/json' });
	});

	it('is tested by its own `test` request through n8n, no node-side test function', () => {
		expect(credential.test).toBe(CREDENTIAL_TEST);
		for (const node of [new CompanyPayments(), new CompanyPaymentsTrigger()]) {
			expect(node.description.credentials).toEqual([
				{ name: 'companyPaymentsApi', required: true },
			]);
			const methods = node.methods as { credentialTest?: object } | undefined;
			expect(methods?.credentialTest ?? {}).toEqual({});
		}
		expect(new CompanyPayments().description.usableAsTool).toBe(true);
	});
});

describe('credential test: says why, the way the editor shows it', () => {
	async function test(data: Record<string, string> = {}): Promise<INodeCredentialTestResult> {
		const result = await runCredentialTest({
			environment: 'production',
			baseUrl: BASE,
			apiKey: KEY,
			...data,
		});
		// Whatever it says, it never repeats the key.
		expect(result.message).not.toContain(KEY);
		return result;
	}

	function answer(status: number, body: unknown, headers: Record<string, string> = {}) {
		nock('https://payments.example.com', { reqheaders: { 'x-api-key': KEY } })
			.get(PROFILE)
			.reply(status, body as nock.Body, headers);
	}

	it('OK with the profile, the key sent as X-API-Key to the Base URL (trailing slash or not)', async () => {
		answer(200, { id: 'company-1', webhookUrl: null });
		expect((await test()).status).toBe('OK');
		answer(200, { id: 'company-1', webhookUrl: null });
		expect((await test({ baseUrl: `${BASE}/ ` })).status).toBe('OK');
	});

	it.each([
		[
			'INVALID_API_KEY',
			401,
			/^HTTP 401: the API key was refused \(the service says INVALID_API_KEY/,
		],
		['NO_COMPANY_MEMBERSHIP', 401, /^HTTP 401: .*NO_COMPANY_MEMBERSHIP/],
		['COMPANY_INACTIVE', 401, /^HTTP 401: .*COMPANY_INACTIVE/],
		['AUTH_REQUIRED', 401, /^HTTP 401: .*AUTH_REQUIRED/],
		['SESSION_INVALID', 401, /^HTTP 401: .*SESSION_INVALID/],
		['PERMISSION_DENIED', 403, /^HTTP 403: .*PERMISSION_DENIED/],
	])('%s (HTTP %i) fails, named with its status', async (code, status, expected) => {
		answer(status, { statusCode: status, errorCode: code, message: 'Ошибка', requestId: 'r-1' });
		const result = await test();
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(expected);
	});

	it('every errorCode a key can get is named by the message of its status', () => {
		const named = [401, 403].map((status) => TEST_STATUS_ANSWERS[status]).join(' ');
		for (const code of TEST_ERROR_CODES) expect(named).toContain(code);
	});

	// What a gateway, proxy or firewall in front of the service answers: JSON without the
	// service's statusCode or errorCode, or nothing at all. None of it is the profile.
	it.each([
		[401, { message: 'Unauthorized' }, /^HTTP 401: the API key was refused/],
		[401, '', /^HTTP 401: the API key was refused/],
		[403, { message: 'Forbidden', code: 'WAF_BLOCK' }, /^HTTP 403: /],
		[429, { message: 'API rate limit exceeded' }, /^HTTP 429: too many requests/],
		[500, { error: 'Internal Server Error' }, /^HTTP 500: /],
		[502, { id: 'gw-1', message: 'Bad Gateway' }, /^HTTP 502: /],
		[
			503,
			{ statusCode: 503, error: 'X', message: 'Ошибка' },
			/^HTTP 503: the service is unavailable/,
		],
		[
			404,
			{ statusCode: 404, error: 'X', message: 'Ошибка' },
			/^HTTP 404: nothing at this Base URL/,
		],
	])('HTTP %i with %j fails the test, naming the status', async (status, body, expected) => {
		answer(status, body);
		const result = await test();
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(expected);
	});

	// A status none of the answers above is written for: n8n would show the answer's reason
	// phrase as it came (a gateway that echoes the key there shows the key, and "Conflict" names
	// no status). Every one gets a message of this package's, naming the status (r21-data F2).
	it.each([300, 304, 402, 409, 410, 418, 422, 451, 499, 501, 505, 599])(
		'HTTP %i (no answer written for it) fails the test, named by its status in our words',
		async (status) => {
			answer(status, { statusCode: status, errorCode: 'UNPROCESSABLE', message: KEY });
			const result = await test();
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(new RegExp(`^HTTP ${status}[: ]`));
		},
	);

	it('every status an HTTP answer can carry outside 2xx (100-999) has its own rule naming it', () => {
		const rules = new Map(
			(CREDENTIAL_TEST.rules ?? [])
				.filter((rule) => rule.type === 'responseCode')
				.map((rule) => [rule.properties.value, rule.properties.message]),
		);
		const unnamed: number[] = [];
		for (let status = 100; status <= 999; status++) {
			if (status >= 200 && status <= 299) continue;
			const message = rules.get(status);
			if (message === undefined || !message.startsWith(`HTTP ${status}`)) unnamed.push(status);
		}
		expect(unnamed).toEqual([]);
		// A 2xx answer is never a failed request: no rule for it.
		for (let status = 200; status <= 299; status++) expect(rules.has(status)).toBe(false);
	});

	it('a 401 is never explained as a wrong Base URL: the key was refused', () => {
		expect(TEST_STATUS_ANSWERS[401]).not.toMatch(/Base URL/);
		expect(TEST_STATUS_ANSWERS[403]).not.toMatch(/Base URL/);
	});

	it('Production with a plain http Base URL: refused before anything is sent, as the nodes refuse it', async () => {
		// No answer is registered: a request would fail on nock's disabled network instead.
		const result = await test({ baseUrl: 'http://payments.example.com/api' });
		expect(result.status).toBe('Error');
		expect(result.message).toBe(
			'The credential does not fit together: Environment is Production but the Base URL http://payments.example.com is not https: production keys must not travel unencrypted. For a test or local service choose Environment: Staging',
		);
		const local = await test({ baseUrl: 'https://127.0.0.1:8443/api' });
		expect(local.message).toMatch(/^The credential does not fit together: .* is this machine/);
	});

	it('authenticate refuses an unfit credential for every request (the HTTP Request node too)', async () => {
		await expect(
			authenticate(
				{ url: 'http://payments.example.com/api/orders' },
				{ environment: 'production', baseUrl: 'http://payments.example.com/api', apiKey: KEY },
			),
		).rejects.toThrow(/^The credential does not fit together: .*not https/);
		const staging = await authenticate(
			{ url: 'http://127.0.0.1:5721/api/orders' },
			{ environment: 'staging', baseUrl: 'http://127.0.0.1:5721/api', apiKey: KEY },
		);
		expect(staging.headers).toMatchObject({ 'X-API-Key': KEY });
	});

	it('a web page (a wrong Base URL) is not taken for the service', async () => {
		answer(404, '<html><body>Not Found</body></html>', { 'Content-Type': 'text/html' });
		expect((await test()).message).toMatch(/^HTTP 404: nothing at this Base URL answers/);
		answer(200, '<!doctype html><title>Welcome</title>', { 'Content-Type': 'text/html' });
		expect((await test()).message).toMatch(
			/^A web page answered: nothing at this Base URL answers/,
		);
	});

	it('a redirect is not followed with the key, and not taken for the service', async () => {
		answer(301, '', { Location: 'https://elsewhere.example.net/login' });
		const result = await test();
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			/^HTTP 301 \(a redirect, not followed with the key\): nothing at this Base URL/,
		);
	});

	it('one status rule per status, then the body rule for a 2xx web page', () => {
		const rules = CREDENTIAL_TEST.rules ?? [];
		const statuses = rules.filter((rule) => rule.type === 'responseCode');
		const values = statuses.map((rule) => rule.properties.value);
		expect(new Set(values).size).toBe(values.length);
		for (const rule of statuses) {
			expect(rule.properties.message).toContain(`HTTP ${rule.properties.value}`);
			expect(rule.properties.message).toBe(testStatusAnswer(rule.properties.value));
		}
		// The statuses with an answer written for them keep it.
		for (const [status, message] of Object.entries(TEST_STATUS_ANSWERS)) {
			expect(statuses.find((rule) => rule.properties.value === Number(status))).toEqual({
				type: 'responseCode',
				properties: { value: Number(status), message },
			});
		}
		expect(rules.filter((rule) => rule.type === 'responseSuccessBody')).toHaveLength(1);
	});

	it("reads the profile, keeps n8n's status check (no answer outside 2xx passes), follows no redirect", () => {
		expect(CREDENTIAL_TEST.request.url).toBe(CREDENTIAL_TEST_PATH);
		expect(CREDENTIAL_TEST.request.disableFollowRedirect).toBe(true);
		expect(CREDENTIAL_TEST.request.ignoreHttpStatusErrors).toBeUndefined();
		expect(Object.keys(TEST_STATUS_ANSWERS).length).toBeGreaterThan(0);
	});
});
