import type { ICredentialTestFunctions, INodeCredentialTestResult } from 'n8n-workflow';
import nock from 'nock';

import { CompanyPaymentsApi } from '../../credentials/CompanyPaymentsApi.credentials';
import { CompanyPayments } from '../../nodes/CompanyPayments/CompanyPayments.node';
import { CompanyPaymentsTrigger } from '../../nodes/CompanyPaymentsTrigger/CompanyPaymentsTrigger.node';
import { authenticate } from './helpers/n8n';

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

	it('sends the key as X-API-Key', () => {
		const options = authenticate({ url: 'https://x.test/orders' }, { apiKey: 'sk_dummy_key' });
		expect(options.headers).toEqual({ 'X-API-Key': 'sk_dummy_key' });
	});

	it('leaves the test to the nodes: a `test` request would take precedence in n8n and show generic texts', () => {
		expect((credential as { test?: unknown }).test).toBeUndefined();
		for (const node of [new CompanyPayments(), new CompanyPaymentsTrigger()]) {
			expect(node.description.credentials).toEqual([
				{ name: 'companyPaymentsApi', required: true, testedBy: 'companyPaymentsApiTest' },
			]);
			expect(typeof node.methods?.credentialTest?.companyPaymentsApiTest).toBe('function');
		}
		expect(new CompanyPayments().description.usableAsTool).toBe(true);
	});
});

describe('credential test: says why, the way the editor shows it', () => {
	const context = {} as ICredentialTestFunctions;

	async function test(
		data: Record<string, string> = {},
	): Promise<INodeCredentialTestResult & { message: string }> {
		const method = new CompanyPayments().methods.credentialTest.companyPaymentsApiTest;
		const result = await method.call(context, {
			id: '1',
			name: 'Company Payments account',
			type: 'companyPaymentsApi',
			data: { environment: 'production', baseUrl: BASE, apiKey: KEY, ...data },
		});
		// Whatever it says, it never repeats the key.
		expect(result.message).not.toContain(KEY);
		return result as INodeCredentialTestResult & { message: string };
	}

	function answer(status: number, body: unknown) {
		nock('https://payments.example.com', { reqheaders: { 'x-api-key': KEY } })
			.get(PROFILE)
			.reply(status, body as nock.Body);
	}

	const errorBody = (statusCode: number, errorCode: string, extra: object = {}) => ({
		statusCode,
		errorCode,
		message: 'Ошибка',
		requestId: `req-${errorCode}`,
		...extra,
	});

	it('OK with the profile, the key sent as X-API-Key', async () => {
		answer(200, { id: 'company-1', webhookUrl: null });
		expect(await test()).toEqual({
			status: 'OK',
			message: `Connected to the Production service at ${BASE}`,
		});
	});

	it.each([
		['INVALID_API_KEY', 401, /unknown to the Production service .* or was replaced/],
		['NO_COMPANY_MEMBERSHIP', 401, /member who owns this API key was removed/],
		['COMPANY_INACTIVE', 401, /company of this API key is disabled/],
		['AUTH_REQUIRED', 401, /No API key reached the service/],
	])('%s (HTTP %i) is named for what it means', async (code, status, expected) => {
		answer(status, errorBody(status, code));
		const result = await test();
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(expected);
		expect(result.message).toContain(`Request ID: req-${code}`);
		expect(result.message).toContain('Service message: Ошибка');
	});

	it('a 401 without errorCode lists the possible causes', async () => {
		answer(401, { statusCode: 401, message: 'Unauthorized' });
		expect((await test()).message).toMatch(
			/rejected the API key \(HTTP 401\): it is unknown or was replaced, its member was removed, or the company is disabled/,
		);
	});

	it('a missing permission is named', async () => {
		answer(403, errorBody(403, 'PERMISSION_DENIED', { required: 'company.read' }));
		expect((await test()).message).toMatch(
			/The API key works, but lacks the permission company\.read/,
		);
	});

	it('a wrong Base URL: 404 from something that is not this service', async () => {
		answer(404, '<html><body>Not Found</body></html>');
		expect((await test()).message).toMatch(
			/^Nothing at this Base URL answers like the Company Payments API: GET \/auth\/company\/profile got HTTP 404/,
		);
	});

	it('a wrong Base URL path: the service itself answers 404', async () => {
		answer(404, { statusCode: 404, errorCode: 'NOT_FOUND', message: 'Cannot GET' });
		expect((await test()).message).toMatch(/has no \/auth\/company\/profile \(HTTP 404\)/);
	});

	it('a wrong Base URL: a web page that answers 200 to everything', async () => {
		answer(200, '<!doctype html><title>Welcome</title>');
		expect((await test()).message).toMatch(
			/answers, but not like the Company Payments API: GET \/auth\/company\/profile returned no JSON object/,
		);
	});

	it('a redirect is reported, not followed with the key', async () => {
		nock('https://payments.example.com')
			.get(PROFILE)
			.reply(301, '', { Location: 'https://elsewhere.example.net/login' });
		expect((await test()).message).toMatch(
			/redirects \(HTTP 301 to https:\/\/elsewhere\.example\.net\/login\)/,
		);
	});

	it.each([
		[
			'ECONNREFUSED',
			'connect ECONNREFUSED',
			/nothing is listening at this address \(connection refused\) \[ECONNREFUSED\]/,
		],
		['ENOTFOUND', 'getaddrinfo ENOTFOUND payments.example.com', /host name could not be resolved/],
		['CERT_HAS_EXPIRED', 'certificate has expired', /secure connection \(TLS\) failed/],
		['DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate', /secure connection \(TLS\) failed/],
		['', 'bad port', /the port is one that HTTP clients refuse to connect to/],
	])('no HTTP answer, %s: says so', async (code, message, expected) => {
		nock('https://payments.example.com').get(PROFILE).replyWithError({ code, message });
		const result = await test();
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			/^Could not reach the Production service at https:\/\/payments\.example\.com\/api: /,
		);
		expect(result.message).toMatch(expected);
	});

	it.each([
		[{ baseUrl: 'payments.example.com' }, /Base URL must be an http\(s\) URL/],
		[
			{ baseUrl: 'http://payments.example.com/api' },
			/Production but the Base URL http:\/\/payments\.example\.com is not https/,
		],
		[
			{ baseUrl: 'https://127.0.0.1:3000' },
			/Production but the Base URL https:\/\/127\.0\.0\.1:3000 is this machine/,
		],
		[
			{ baseUrl: 'https://staging.payments.example.com' },
			/Production but the Base URL .* names "staging"/,
		],
		[
			{ environment: 'staging', baseUrl: 'https://api-prod.payments.example.com' },
			/Staging but the Base URL .* names "prod"/,
		],
		[{ apiKey: '  ' }, /API Key is empty/],
	])('fields that cannot work are refused before any request: %j', async (data, expected) => {
		const result = await test(data);
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(expected);
	});

	it('Staging accepts a local http address (the sandbox, a tunnel)', async () => {
		nock('http://127.0.0.1:4010').get('/auth/company/profile').reply(200, { id: 'c' });
		expect(await test({ environment: 'staging', baseUrl: 'http://127.0.0.1:4010' })).toEqual({
			status: 'OK',
			message: 'Connected to the Staging service at http://127.0.0.1:4010',
		});
	});
});
