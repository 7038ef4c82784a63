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

	it('sends the key as X-API-Key', async () => {
		const options = await authenticate(
			{ url: 'https://x.test/orders', headers: { Accept: 'application/json' } },
			{ apiKey: 'sk_dummy_key' },
		);
		expect(options.headers).toEqual({ Accept: 'application/json', 'X-API-Key': 'sk_dummy_key' });
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
			/^INVALID_API_KEY: The API key is unknown or was replaced.*Put the current key/,
		],
		['NO_COMPANY_MEMBERSHIP', 401, /^NO_COMPANY_MEMBERSHIP: .*Use the key of a current member/],
		['COMPANY_INACTIVE', 401, /^COMPANY_INACTIVE: The company is disabled/],
		['AUTH_REQUIRED', 401, /^AUTH_REQUIRED: /],
		['PERMISSION_DENIED', 403, /^PERMISSION_DENIED: The API key lacks a permission/],
	])('%s (HTTP %i) is named for what it means', async (code, status, expected) => {
		answer(status, { statusCode: status, errorCode: code, message: 'Ошибка', requestId: 'r-1' });
		const result = await test();
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(expected);
	});

	it.each([
		[
			401,
			/rejected the API key \(HTTP 401\): it is unknown or was replaced, its member was removed/,
		],
		[403, /may not read the company profile \(HTTP 403\)/],
		[
			404,
			/Nothing at this Base URL answers GET \/auth\/company\/profile like the Company Payments API/,
		],
		[429, /Too many requests/],
		[500, /The service failed \(HTTP 500\)/],
		[503, /unavailable \(HTTP 503\)/],
	])("the service's HTTP %i without a known errorCode is explained", async (status, expected) => {
		answer(status, { statusCode: status, error: 'X', message: 'Ошибка' });
		const result = await test();
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(expected);
	});

	it('a web page (a wrong Base URL) is not taken for the service', async () => {
		answer(404, '<html><body>Not Found</body></html>', { 'Content-Type': 'text/html' });
		expect((await test()).message).toMatch(/^Nothing at this Base URL answers/);
		answer(200, '<!doctype html><title>Welcome</title>', { 'Content-Type': 'text/html' });
		expect((await test()).message).toMatch(/^Nothing at this Base URL answers/);
	});

	it('a redirect is not followed with the key, and not taken for the service', async () => {
		answer(301, '', { Location: 'https://elsewhere.example.net/login' });
		const result = await test();
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/a redirect or another service answered/);
	});

	it('the errorCode rules come first, one message per errorCode', () => {
		const rules = (CREDENTIAL_TEST.rules ?? []).map(
			(rule) => rule.properties as { key?: string; value: unknown; message: string },
		);
		const codes = rules.filter((rule) => rule.key === 'errorCode').map((rule) => rule.value);
		expect(codes).toEqual([...TEST_ERROR_CODES]);
		const firstStatus = rules.findIndex((rule) => rule.key === 'statusCode');
		expect(rules.slice(0, firstStatus).every((rule) => rule.key === 'errorCode')).toBe(true);
		expect(new Set(rules.slice(0, firstStatus).map((rule) => rule.message)).size).toBe(
			codes.length,
		);
	});

	it('reads the profile, keeps every answer for the rules, follows no redirect', () => {
		expect(CREDENTIAL_TEST.request.url).toBe(CREDENTIAL_TEST_PATH);
		expect(CREDENTIAL_TEST.request.disableFollowRedirect).toBe(true);
		expect(CREDENTIAL_TEST.request.ignoreHttpStatusErrors).toBe(true);
		expect(Object.keys(TEST_STATUS_ANSWERS).length).toBeGreaterThan(0);
	});
});
