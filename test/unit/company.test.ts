import nock from 'nock';

import { company } from '../../nodes/CompanyPayments/company';
import { API_KEY, BASE_URL, runNode, runNodeError } from './helpers/n8n';

const NEW_COMPANY_KEY = 'sk_dummy_company_rotated_7e6d5c';
const WEBHOOK_SECRET_VALUE = `whsec_${'0a'.repeat(24)}`;
const PASSWORD = 'dummy-Company-Passw0rd';
const profile = { id: 'c-1', name: 'Acme', webhookUrl: 'https://hooks.example.com/pay' };

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
	expect(nock.pendingMocks()).toEqual([]);
	nock.cleanAll();
});

function notice(operation: string): string | undefined {
	return company.operations
		.find((op) => op.value === operation)
		?.properties.find((property) => property.type === 'notice')?.displayName;
}

describe('company resource', () => {
	it('marks only getProfile as read-only', () => {
		const readOnly = company.operations.filter((op) => op.concurrent).map((op) => op.value);
		expect(readOnly).toEqual(['getProfile']);
	});

	it('warns in the UI that login and regenerate stop the credential key, and that rotation needs the trigger updated', () => {
		expect(notice('login')).toMatch(/API key in this node's credential stops working/);
		expect(notice('regenerateApiKey')).toMatch(/API key in this node's credential stops working/);
		expect(notice('rotateWebhookSecret')).toMatch(
			/Webhook Secret of the credential used by the Company Payments Trigger/,
		);
		expect(notice('updateProfile')).toMatch(
			/Webhook Secret of the credential used by the Company Payments Trigger/,
		);
	});
});

describe('company.getProfile', () => {
	it('gets the profile with the API key', async () => {
		const scope = nock(BASE_URL, { reqheaders: { 'x-api-key': API_KEY } })
			.get('/auth/company/profile')
			.reply(200, profile);
		const { output } = await runNode({
			parameters: { resource: 'company', operation: 'getProfile' },
		});
		expect(output).toEqual([{ json: profile, pairedItem: { item: 0 } }]);
		scope.done();
	});
});

describe('webhook secret in profile output', () => {
	const withSecret = { ...profile, webhookSecret: WEBHOOK_SECRET_VALUE };
	const masked = `whsec_…${WEBHOOK_SECRET_VALUE.slice(-4)}`;

	it('masks the secret of Get Profile to whsec_… and its last 4 characters by default', async () => {
		nock(BASE_URL).get('/auth/company/profile').reply(200, withSecret);
		const { output } = await runNode({
			parameters: { resource: 'company', operation: 'getProfile' },
		});
		expect(output).toEqual([
			{ json: { ...profile, webhookSecret: masked }, pairedItem: { item: 0 } },
		]);
		expect(JSON.stringify(output)).not.toContain(WEBHOOK_SECRET_VALUE.slice(6, 40));
	});

	it('masks any other field named like a credential the profile may carry (its fields are not shown)', async () => {
		const apiKeyValue = ['ak', 'dummy', 'profilekey', '998877'].join('_');
		nock(BASE_URL)
			.get('/auth/company/profile')
			.reply(200, { ...profile, apiKey: apiKeyValue, sessionToken: 'eyJhbGciOi.dummy.value' });
		const { output } = await runNode({
			parameters: { resource: 'company', operation: 'getProfile' },
		});
		const text = JSON.stringify(output);
		expect(text).not.toContain(apiKeyValue);
		expect(text).not.toContain('eyJhbGciOi.dummy');
		expect(output[0].json.apiKey).toBe('[hidden]');
	});

	it('masks a secret nested under a wrapper object and keeps null as null', async () => {
		nock(BASE_URL)
			.get('/auth/company/profile')
			.reply(200, { company: withSecret, previous: { webhookSecret: null } });
		const { output } = await runNode({
			parameters: { resource: 'company', operation: 'getProfile' },
		});
		expect(output[0].json).toEqual({
			company: { ...profile, webhookSecret: masked },
			previous: { webhookSecret: null },
		});
	});

	it('outputs the secret in full only when Reveal Webhook Secret is on', async () => {
		nock(BASE_URL).get('/auth/company/profile').reply(200, withSecret);
		const { output } = await runNode({
			parameters: { resource: 'company', operation: 'getProfile', revealWebhookSecret: true },
		});
		expect(output[0].json.webhookSecret).toBe(WEBHOOK_SECRET_VALUE);
	});

	it('masks the secret that Update Profile echoes back, unless revealed', async () => {
		nock(BASE_URL).patch('/auth/company/profile').twice().reply(200, withSecret);
		const parameters = {
			resource: 'company',
			operation: 'updateProfile',
			updateFields: { webhookSecret: WEBHOOK_SECRET_VALUE },
		};
		const { output } = await runNode({ parameters });
		expect(output[0].json.webhookSecret).toBe(masked);
		expect(JSON.stringify(output)).not.toContain(WEBHOOK_SECRET_VALUE.slice(6, 40));
		const revealed = await runNode({ parameters: { ...parameters, revealWebhookSecret: true } });
		expect(revealed.output[0].json.webhookSecret).toBe(WEBHOOK_SECRET_VALUE);
	});

	it('offers Reveal Webhook Secret off by default on both operations', () => {
		for (const value of ['getProfile', 'updateProfile']) {
			const field = company.operations
				.find((op) => op.value === value)
				?.properties.find((property) => property.name === 'revealWebhookSecret');
			expect(field).toMatchObject({ type: 'boolean', default: false });
		}
	});
});

describe('company.updateProfile', () => {
	it('patches webhook URL and secret with the API key', async () => {
		const scope = nock(BASE_URL, { reqheaders: { 'x-api-key': API_KEY } })
			.patch('/auth/company/profile', {
				webhookUrl: 'https://n8n.example.com/webhook/pay',
				webhookSecret: WEBHOOK_SECRET_VALUE,
			})
			.reply(200, { ...profile, webhookUrl: 'https://n8n.example.com/webhook/pay' });
		const { output } = await runNode({
			parameters: {
				resource: 'company',
				operation: 'updateProfile',
				updateFields: {
					webhookUrl: ' https://n8n.example.com/webhook/pay ',
					webhookSecret: WEBHOOK_SECRET_VALUE,
				},
			},
		});
		expect(output[0].json.webhookUrl).toBe('https://n8n.example.com/webhook/pay');
		scope.done();
	});

	it('sends only the webhook URL when only it is set', async () => {
		nock(BASE_URL)
			.patch('/auth/company/profile', { webhookUrl: 'http://localhost:5678/webhook/x' })
			.reply(200, profile);
		await runNode({
			parameters: {
				resource: 'company',
				operation: 'updateProfile',
				updateFields: { webhookUrl: 'http://localhost:5678/webhook/x' },
			},
		});
	});

	it('refuses an update with neither field before any request', async () => {
		const error = await runNodeError({
			parameters: { resource: 'company', operation: 'updateProfile', updateFields: {} },
		});
		expect(error.message).toBe(
			'Update Fields must set Webhook URL or Webhook Secret (or both), got neither',
		);
	});

	it('refuses a webhook URL that is not http(s) before any request', async () => {
		const error = await runNodeError({
			parameters: {
				resource: 'company',
				operation: 'updateProfile',
				updateFields: { webhookUrl: 'ftp://files.example.com/x' },
			},
		});
		expect(error.message).toBe(
			'Webhook URL must be an http(s) URL, got "ftp://files.example.com/x"',
		);
		const relative = await runNodeError({
			parameters: {
				resource: 'company',
				operation: 'updateProfile',
				updateFields: { webhookUrl: '/webhook/x' },
			},
		});
		expect(relative.message).toBe('Webhook URL must be an http(s) URL, got "/webhook/x"');
	});

	it('refuses an empty webhook secret without showing any value', async () => {
		const error = await runNodeError({
			parameters: {
				resource: 'company',
				operation: 'updateProfile',
				updateFields: { webhookSecret: '' },
			},
		});
		expect(error.message).toBe('Webhook Secret must not be empty');
	});

	it('never shows the webhook secret in a service error', async () => {
		nock(BASE_URL)
			.patch('/auth/company/profile')
			.reply(400, {
				statusCode: 400,
				errorCode: 'VALIDATION_ERROR',
				message: ['webhookSecret must be longer'],
			});
		const error = await runNodeError({
			parameters: {
				resource: 'company',
				operation: 'updateProfile',
				updateFields: { webhookSecret: WEBHOOK_SECRET_VALUE },
			},
		});
		expect(error.message).toBe('VALIDATION_ERROR: The service rejected one or more input fields');
		expect(`${error.message} ${String(error.description)}`).not.toContain(WEBHOOK_SECRET_VALUE);
	});
});

describe('company.regenerateApiKey', () => {
	it('posts with no body and the API key, and outputs the new key with a reminder', async () => {
		const scope = nock(BASE_URL, { reqheaders: { 'x-api-key': API_KEY } })
			.post('/auth/company/regenerate-key', (body) => body === '' || Object.keys(body).length === 0)
			.reply(200, { apiKey: NEW_COMPANY_KEY });
		const { output, context } = await runNode({
			parameters: { resource: 'company', operation: 'regenerateApiKey' },
		});
		expect(context.requests[0].body).toBeUndefined();
		expect(output).toEqual([
			{
				json: {
					notice: expect.stringContaining('the key in the credential no longer works'),
					apiKeyField: 'apiKey',
					apiKey: NEW_COMPANY_KEY,
				},
				pairedItem: { item: 0 },
			},
		]);
		expect(output[0].json.notice).toContain('The key is in the field "apiKey"');
		scope.done();
	});

	it('names another field that holds the key', async () => {
		nock(BASE_URL)
			.post('/auth/company/regenerate-key')
			.reply(200, { key: NEW_COMPANY_KEY, createdAt: '2026-11-21T12:00:00Z' });
		const { output } = await runNode({
			parameters: { resource: 'company', operation: 'regenerateApiKey' },
		});
		expect(output[0].json).toMatchObject({
			apiKeyField: 'key',
			key: NEW_COMPANY_KEY,
			createdAt: '2026-11-21T12:00:00Z',
		});
	});

	it('points at an earlier rotation when the key was already replaced', async () => {
		nock(BASE_URL)
			.post('/auth/company/regenerate-key')
			.reply(401, { statusCode: 401, errorCode: 'INVALID_API_KEY', message: 'Неверный ключ' });
		const error = await runNodeError({
			parameters: { resource: 'company', operation: 'regenerateApiKey' },
		});
		expect(error.message).toMatch(
			/^INVALID_API_KEY: The API key is unknown or was replaced\. If an earlier item/,
		);
	});
});

describe('company.rotateWebhookSecret', () => {
	it('posts with no body and outputs the new secret with a reminder to update the trigger credential', async () => {
		const scope = nock(BASE_URL, { reqheaders: { 'x-api-key': API_KEY } })
			.post(
				'/auth/company/webhook-secret/rotate',
				(body) => body === '' || Object.keys(body).length === 0,
			)
			.reply(201, { webhookSecret: WEBHOOK_SECRET_VALUE });
		const { output, context } = await runNode({
			parameters: { resource: 'company', operation: 'rotateWebhookSecret' },
		});
		expect(context.requests[0].body).toBeUndefined();
		expect(output).toEqual([
			{
				json: {
					webhookSecret: WEBHOOK_SECRET_VALUE,
					notice: expect.stringContaining(
						'Webhook Secret of the Company Payments API credential used by the Company Payments Trigger',
					),
				},
				pairedItem: { item: 0 },
			},
		]);
		scope.done();
	});

	it('names the missing permission webhook.manage', async () => {
		nock(BASE_URL).post('/auth/company/webhook-secret/rotate').reply(403, {
			statusCode: 403,
			errorCode: 'PERMISSION_DENIED',
			message: 'Недостаточно прав',
			required: 'webhook.manage',
		});
		const error = await runNodeError({
			parameters: { resource: 'company', operation: 'rotateWebhookSecret' },
		});
		expect(error.message).toContain('(missing permission webhook.manage)');
	});
});

describe('company.login', () => {
	it('posts e-mail and password with the API key and outputs the rotated key', async () => {
		const answer = { token: 'sess_dummy_0f1e2d3c4b5a6978', apiKey: NEW_COMPANY_KEY };
		const scope = nock(BASE_URL, { reqheaders: { 'x-api-key': API_KEY } })
			.post('/auth/company/login', { email: 'finance@example.com', password: PASSWORD })
			.reply(200, answer);
		const { output } = await runNode({
			parameters: {
				resource: 'company',
				operation: 'login',
				email: 'finance@example.com',
				password: PASSWORD,
			},
		});
		expect(output[0].json).toEqual({
			notice: expect.stringContaining('The company API key was rotated'),
			apiKeyField: 'apiKey',
			...answer,
			// Only the key's own field is opened (Reveal); the session token stays masked.
			token: '[hidden]',
		});
		scope.done();
	});

	it('sends the password exactly as typed (not trimmed)', async () => {
		nock(BASE_URL)
			.post('/auth/company/login', { email: 'finance@example.com', password: ` ${PASSWORD} ` })
			.reply(200, {});
		const { output } = await runNode({
			parameters: {
				resource: 'company',
				operation: 'login',
				email: 'finance@example.com',
				password: ` ${PASSWORD} `,
			},
		});
		expect(output[0].json.apiKeyField).toBeNull();
	});

	it('refuses an invalid e-mail and an empty password before any request', async () => {
		const badEmail = await runNodeError({
			parameters: { resource: 'company', operation: 'login', email: 'finance', password: PASSWORD },
		});
		expect(badEmail.message).toBe(
			'Email must be an e-mail address like name@example.com, got "finance"',
		);
		const noPassword = await runNodeError({
			parameters: {
				resource: 'company',
				operation: 'login',
				email: 'finance@example.com',
				password: '',
			},
		});
		expect(noPassword.message).toBe('Password must not be empty');
	});

	it('explains INVALID_CREDENTIALS and never shows the password', async () => {
		nock(BASE_URL).post('/auth/company/login').reply(401, {
			statusCode: 401,
			errorCode: 'INVALID_CREDENTIALS',
			message: 'Неверный e-mail или пароль',
		});
		const error = await runNodeError({
			parameters: {
				resource: 'company',
				operation: 'login',
				email: 'finance@example.com',
				password: PASSWORD,
			},
		});
		expect(error.message).toBe('INVALID_CREDENTIALS: The e-mail or password is wrong');
		expect(`${error.message} ${String(error.description)}`).not.toContain(PASSWORD);
	});
});
