import type { IDataObject } from 'n8n-workflow';
import nock from 'nock';

import { CompanyPaymentsTrigger } from '../../nodes/CompanyPaymentsTrigger/CompanyPaymentsTrigger.node';
import { fingerprint } from '../../nodes/CompanyPaymentsTrigger/signature';

import type { HookContext } from './helpers/trigger';
import {
	API_KEY,
	BASE_URL,
	createHookContext,
	deliver,
	OLD_SECRET_DUMMY,
	ROTATED_SECRET_DUMMY,
	roundTrip,
	runHook,
	runHookError,
	SECRET_DUMMY,
	TEST_TRIGGER_URL,
	TRIGGER_URL,
} from './helpers/trigger';

const PREVIOUS_URL = 'https://erp.example.com/payments/webhook';
const T0 = Date.parse('2026-11-21T12:00:00.000Z');

const profile = (webhookUrl: string | null) => ({
	id: 'company-1',
	name: 'Example LLC',
	webhookUrl,
	webhookSecret: 'whsec_…dummy',
});

const permissionDenied = {
	statusCode: 403,
	error: 'PERMISSION_DENIED',
	errorCode: 'PERMISSION_DENIED',
	message: 'Недостаточно прав',
	required: 'webhook.manage',
	requestId: 'req-403',
};

const unavailable = {
	statusCode: 503,
	error: 'Service Unavailable',
	errorCode: 'SERVICE_UNAVAILABLE',
	message: 'Сервис недоступен',
	requestId: 'req-503',
};

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
	expect(nock.pendingMocks()).toEqual([]);
	nock.cleanAll();
});

describe('with "Register Webhook URL Automatically" off', () => {
	it('calls nothing in checkExists, create and delete', async () => {
		const context = createHookContext({ parameters: { registerWebhook: false } });
		expect(await runHook('checkExists', context)).toBe(true);
		expect(await runHook('create', context)).toBe(true);
		expect(await runHook('delete', context)).toBe(true);
		expect(context.requests).toEqual([]);
		expect(context.staticData).toEqual({});
	});

	it('shows a notice with where to paste the URL, and how to get a test event', () => {
		const notice = new CompanyPaymentsTrigger().description.properties.find(
			(p) => p.name === 'manualRegistrationNotice',
		);
		expect(notice?.type).toBe('notice');
		expect(notice?.displayOptions).toEqual({ show: { registerWebhook: [false] } });
		expect(notice?.displayName).toContain('Production URL');
		expect(notice?.displayName).toContain('For a test event');
		expect(notice?.displayName).toContain('Test URL');
	});

	it('with registration on, tells that listening points the company at the Test URL for a while', () => {
		const notice = new CompanyPaymentsTrigger().description.properties.find(
			(p) => p.name === 'testEventNotice',
		);
		expect(notice?.type).toBe('notice');
		expect(notice?.displayOptions).toEqual({ show: { registerWebhook: [true] } });
		expect(notice?.displayName).toContain('Test URL');
		expect(notice?.displayName).toContain('put back');
	});
});

describe('checkExists', () => {
	it('is true when the company already points at this trigger', async () => {
		nock(BASE_URL, { reqheaders: { 'x-api-key': API_KEY } })
			.get('/auth/company/profile')
			.reply(200, profile(TRIGGER_URL));
		expect(await runHook('checkExists', createHookContext())).toBe(true);
	});

	it('is false when the company points elsewhere or nowhere', async () => {
		nock(BASE_URL).get('/auth/company/profile').reply(200, profile(PREVIOUS_URL));
		expect(await runHook('checkExists', createHookContext())).toBe(false);
		nock(BASE_URL).get('/auth/company/profile').reply(200, profile(null));
		expect(await runHook('checkExists', createHookContext())).toBe(false);
	});

	it('reads webhookUrl from a wrapped profile answer', async () => {
		nock(BASE_URL)
			.get('/auth/company/profile')
			.reply(200, { company: profile(TRIGGER_URL) });
		expect(await runHook('checkExists', createHookContext())).toBe(true);
	});

	it('trusts its own earlier registration when the profile cannot be read (restart during an outage)', async () => {
		nock(BASE_URL).get('/auth/company/profile').reply(503, unavailable);
		const context = createHookContext({
			staticData: {
				registration: {
					url: TRIGGER_URL,
					previousUrl: PREVIOUS_URL,
					registeredAt: '2026-11-20T10:00:00.000Z',
				},
			},
		});
		expect(await runHook('checkExists', context)).toBe(true);
		expect(context.logs).toContainEqual({
			level: 'warn',
			message: expect.stringContaining(`assuming the webhook URL still points at ${TRIGGER_URL}`),
		});
	});

	it('fails with the service error when it has no registration to fall back on', async () => {
		nock(BASE_URL).get('/auth/company/profile').times(8).reply(503, unavailable);
		const error = await runHookError('checkExists', createHookContext());
		expect(error.message).toBe('Could not read the company profile to register the webhook URL');
		expect(error.description).toContain('Nothing was changed');
		expect(error.description).toContain('SERVICE_UNAVAILABLE');
		expect(error.description).toContain('Request ID: req-503');
		expect(error.httpCode).toBe('503');
	});
});

describe('create', () => {
	it('remembers the current URL and points the company at this trigger', async () => {
		const scope = nock(BASE_URL, { reqheaders: { 'x-api-key': API_KEY } })
			.get('/auth/company/profile')
			.reply(200, profile(PREVIOUS_URL))
			.patch('/auth/company/profile', { webhookUrl: TRIGGER_URL })
			.reply(200, profile(TRIGGER_URL));
		const context = createHookContext();
		expect(await runHook('create', context)).toBe(true);
		expect(context.staticData.registration).toEqual({
			url: TRIGGER_URL,
			previousUrl: PREVIOUS_URL,
			registeredAt: expect.any(String),
		});
		expect(context.staticData).not.toHaveProperty('rotatedSecret');
		scope.done();
	});

	it('rotates the secret when asked and keeps it, with the old one for the grace period', async () => {
		jest.spyOn(Date, 'now').mockReturnValue(T0);
		nock(BASE_URL)
			.get('/auth/company/profile')
			.reply(200, profile(null))
			.patch('/auth/company/profile', { webhookUrl: TRIGGER_URL })
			.reply(200, profile(TRIGGER_URL))
			.post('/auth/company/webhook-secret/rotate')
			.reply(201, { webhookSecret: ROTATED_SECRET_DUMMY });
		const context = createHookContext({
			parameters: { rotateSecret: true },
			webhookSecret: OLD_SECRET_DUMMY,
		});
		expect(await runHook('create', context)).toBe(true);
		expect(context.staticData.registration).toMatchObject({ url: TRIGGER_URL, previousUrl: null });
		// Outside read F6: kept sealed with a key derived from the credential's API key, so the
		// static data (saved in the workflow, exported with it) never holds either secret in clear.
		// Issue 50: sealed a second time with the credential's Webhook Secret, which survives a
		// regenerated API key.
		expect(context.staticData.rotatedSecret).toEqual({
			current: expect.stringMatching(/^sealed:v1:/),
			previous: expect.stringMatching(/^sealed:v1:/),
			rotatedAt: T0,
			credentialFingerprint: fingerprint(OLD_SECRET_DUMMY),
			bySecret: {
				current: expect.stringMatching(/^sealed:v1:/),
				previous: expect.stringMatching(/^sealed:v1:/),
			},
		});
		const kept = JSON.stringify(context.staticData);
		for (const secret of [ROTATED_SECRET_DUMMY, OLD_SECRET_DUMMY]) {
			expect(kept).not.toContain(secret.slice(6, 30));
			expect(kept).not.toContain(Buffer.from(secret).toString('base64').slice(0, 24));
		}

		// Deliveries signed with the new secret pass; so do retries signed with the old one, for now.
		const staticData = context.staticData;
		const signedNew = await deliver({
			staticData,
			webhookSecret: OLD_SECRET_DUMMY,
			signWith: ROTATED_SECRET_DUMMY,
		});
		expect(signedNew.result.workflowData).toBeDefined();
		const signedOld = await deliver({
			staticData,
			webhookSecret: OLD_SECRET_DUMMY,
			signWith: OLD_SECRET_DUMMY,
		});
		expect(signedOld.result.workflowData).toBeDefined();
		// A copy of the static data (another workflow) without the credential's API key or
		// Webhook Secret opens nothing.
		const otherKey = await deliver({
			staticData: roundTrip(staticData),
			workflowId: 'wf-copied-elsewhere',
			webhookSecret: 'whsec_dummy-another-secret-000000000000',
			signWith: ROTATED_SECRET_DUMMY,
			credentials: {
				companyPaymentsApi: {
					baseUrl: BASE_URL,
					apiKey: 'dummy-another-api-key-0000',
					webhookSecret: 'whsec_dummy-another-secret-000000000000',
				},
			},
		});
		expect(otherKey.result.workflowData).toBeUndefined();
		expect(otherKey.response.statusCode).toBe(401);
	});

	it('rotates with a credential secret typed with spaces, and deliveries then verify', async () => {
		jest.spyOn(Date, 'now').mockReturnValue(T0);
		nock(BASE_URL)
			.get('/auth/company/profile')
			.reply(200, profile(null))
			.patch('/auth/company/profile', { webhookUrl: TRIGGER_URL })
			.reply(200, profile(TRIGGER_URL))
			.post('/auth/company/webhook-secret/rotate')
			.reply(201, { webhookSecret: ROTATED_SECRET_DUMMY });
		const typed = `  ${OLD_SECRET_DUMMY}\t\n`;
		const context = createHookContext({
			parameters: { rotateSecret: true },
			webhookSecret: typed,
		});
		expect(await runHook('create', context)).toBe(true);
		expect(context.staticData.rotatedSecret).toMatchObject({
			previous: expect.stringMatching(/^sealed:v1:/),
			credentialFingerprint: fingerprint(OLD_SECRET_DUMMY),
		});
		const staticData = context.staticData;
		const signedNew = await deliver({
			staticData,
			webhookSecret: typed,
			signWith: ROTATED_SECRET_DUMMY,
		});
		expect(signedNew.response.statusCode).toBe(200);
		expect(signedNew.result.workflowData).toBeDefined();
		const retryOld = await deliver({
			staticData,
			webhookSecret: typed,
			signWith: OLD_SECRET_DUMMY,
		});
		expect(retryOld.result.workflowData).toBeDefined();
	});

	it('does not rotate while listening for a test event', async () => {
		nock(BASE_URL)
			.get('/auth/company/profile')
			.reply(200, profile(TRIGGER_URL))
			.patch('/auth/company/profile', { webhookUrl: TEST_TRIGGER_URL })
			.reply(200, profile(TEST_TRIGGER_URL));
		const context = createHookContext({ parameters: { rotateSecret: true }, mode: 'manual' });
		expect(await runHook('create', context)).toBe(true);
		expect(context.staticData.registration).toMatchObject({
			url: TEST_TRIGGER_URL,
			previousUrl: TRIGGER_URL,
		});
		expect(context.staticData).not.toHaveProperty('rotatedSecret');
	});

	it('points the company at the Test URL while listening and puts the Production URL back after', async () => {
		// n8n runs checkExists/create when "Listen for test event" starts and delete when it stops,
		// in manual mode, with the Test URL as the node's webhook URL and a static data of its own.
		const scope = nock(BASE_URL)
			.get('/auth/company/profile')
			.reply(200, profile(TRIGGER_URL))
			.get('/auth/company/profile')
			.reply(200, profile(TRIGGER_URL))
			.patch('/auth/company/profile', { webhookUrl: TEST_TRIGGER_URL })
			.reply(200, profile(TEST_TRIGGER_URL))
			.get('/auth/company/profile')
			.reply(200, profile(TEST_TRIGGER_URL))
			.patch('/auth/company/profile', { webhookUrl: TRIGGER_URL })
			.reply(200, profile(TRIGGER_URL));
		const listening = createHookContext({ mode: 'manual' });
		expect(await runHook('checkExists', listening)).toBe(false);
		expect(await runHook('create', listening)).toBe(true);
		expect(await runHook('delete', listening)).toBe(true);
		expect(
			listening.requests.map(
				(r) => `${r.method} ${String((r.body as IDataObject | undefined)?.webhookUrl ?? '')}`,
			),
		).toEqual(['GET ', 'GET ', `PATCH ${TEST_TRIGGER_URL}`, 'GET ', `PATCH ${TRIGGER_URL}`]);
		expect(listening.staticData).not.toHaveProperty('registration');
		scope.done();
	});

	it('keeps the URL from before its own earlier registration when it is already registered', async () => {
		nock(BASE_URL)
			.get('/auth/company/profile')
			.reply(200, profile(TRIGGER_URL))
			.patch('/auth/company/profile', { webhookUrl: TRIGGER_URL })
			.reply(200, profile(TRIGGER_URL));
		const context = createHookContext({
			staticData: {
				registration: { url: TRIGGER_URL, previousUrl: PREVIOUS_URL, registeredAt: 'x' },
			},
		});
		await runHook('create', context);
		expect(context.staticData.registration).toMatchObject({ previousUrl: PREVIOUS_URL });
	});

	it('changes nothing when the profile cannot be read', async () => {
		nock(BASE_URL).get('/auth/company/profile').times(8).reply(503, unavailable);
		const context = createHookContext();
		const error = await runHookError('create', context);
		expect(error.message).toBe(
			'Could not read the company profile before registering the webhook URL',
		);
		// The read is retried (503), and nothing but reads was sent.
		expect(new Set(context.requests.map((r) => r.method))).toEqual(new Set(['GET']));
		expect(context.staticData).toEqual({});
	});

	it('says the URL was not changed when the PATCH is refused', async () => {
		nock(BASE_URL)
			.get('/auth/company/profile')
			.reply(200, profile(PREVIOUS_URL))
			.patch('/auth/company/profile')
			.reply(403, permissionDenied);
		const context = createHookContext();
		const error = await runHookError('create', context);
		expect(error.message).toBe('Could not point the company webhook URL at this trigger');
		expect(error.description).toContain(
			`The company's webhook URL was not changed (${PREVIOUS_URL})`,
		);
		expect(error.description).toContain(
			'Setting the webhook URL needs the webhook.manage permission',
		);
		expect(error.description).toContain('Required permission: webhook.manage');
		expect(error.httpCode).toBe('403');
		expect(context.staticData).toEqual({});
	});

	it('sets the URL back when the rotation fails', async () => {
		nock(BASE_URL)
			.get('/auth/company/profile')
			.reply(200, profile(PREVIOUS_URL))
			.patch('/auth/company/profile', { webhookUrl: TRIGGER_URL })
			.reply(200, profile(TRIGGER_URL))
			.post('/auth/company/webhook-secret/rotate')
			.reply(403, permissionDenied)
			.patch('/auth/company/profile', { webhookUrl: PREVIOUS_URL })
			.reply(200, profile(PREVIOUS_URL));
		const context = createHookContext({ parameters: { rotateSecret: true } });
		const error = await runHookError('create', context);
		expect(error.message).toBe('Could not rotate the webhook secret');
		expect(error.description).toContain(
			`The company's webhook URL was set back to ${PREVIOUS_URL}`,
		);
		expect(error.description).toContain(
			'Rotating the webhook secret needs the webhook.manage permission',
		);
		expect(context.staticData).toEqual({});
	});

	it('treats a rotation answer without webhookSecret as a failure', async () => {
		nock(BASE_URL)
			.get('/auth/company/profile')
			.reply(200, profile(null))
			.patch('/auth/company/profile', { webhookUrl: TRIGGER_URL })
			.reply(200, profile(TRIGGER_URL))
			.post('/auth/company/webhook-secret/rotate')
			.reply(201, { ok: true })
			.patch('/auth/company/profile', { webhookUrl: null })
			.reply(200, profile(null));
		const error = await runHookError(
			'create',
			createHookContext({ parameters: { rotateSecret: true } }),
		);
		expect(error.message).toBe('Could not rotate the webhook secret');
		expect(error.description).toContain('holds no webhookSecret');
		expect(error.description).toContain('set back to no URL');
	});

	it('says the company still points at the inactive trigger when the rollback fails too', async () => {
		nock(BASE_URL)
			.get('/auth/company/profile')
			.reply(200, profile(PREVIOUS_URL))
			.patch('/auth/company/profile', { webhookUrl: TRIGGER_URL })
			.reply(200, profile(TRIGGER_URL))
			.post('/auth/company/webhook-secret/rotate')
			.reply(503, unavailable)
			.patch('/auth/company/profile', { webhookUrl: PREVIOUS_URL })
			.reply(503, unavailable);
		const context = createHookContext({ parameters: { rotateSecret: true } });
		const error = await runHookError('create', context);
		expect(error.message).toBe(
			`Could not rotate the webhook secret, and the company's webhook URL still points at this trigger (${TRIGGER_URL}), which is not active`,
		);
		expect(error.description).toContain(`Setting it back to ${PREVIOUS_URL} failed too`);
	});
});

describe('delete', () => {
	const registered = () => ({
		registration: {
			url: TRIGGER_URL,
			previousUrl: PREVIOUS_URL,
			registeredAt: '2026-11-20T10:00:00.000Z',
		},
		rotatedSecret: {
			current: ROTATED_SECRET_DUMMY,
			rotatedAt: T0,
			credentialFingerprint: fingerprint(SECRET_DUMMY),
		},
	});

	it('puts back the previous URL and forgets the rotated secret (outside read F6)', async () => {
		const scope = nock(BASE_URL, { reqheaders: { 'x-api-key': API_KEY } })
			.get('/auth/company/profile')
			.reply(200, profile(TRIGGER_URL))
			.patch('/auth/company/profile', { webhookUrl: PREVIOUS_URL })
			.reply(200, profile(PREVIOUS_URL));
		const context = createHookContext({ staticData: registered() });
		expect(await runHook('delete', context)).toBe(true);
		expect(context.staticData).not.toHaveProperty('registration');
		expect(context.staticData).not.toHaveProperty('rotatedSecret');
		scope.done();
	});

	it('clears the URL when there was none before', async () => {
		nock(BASE_URL)
			.get('/auth/company/profile')
			.reply(200, profile(TRIGGER_URL))
			.patch('/auth/company/profile', { webhookUrl: null })
			.reply(200, profile(null));
		const context = createHookContext({
			staticData: { registration: { url: TRIGGER_URL, previousUrl: null, registeredAt: 'x' } },
		});
		expect(await runHook('delete', context)).toBe(true);
	});

	it('clears the URL when it points here but the trigger did not set it', async () => {
		nock(BASE_URL)
			.get('/auth/company/profile')
			.reply(200, profile(TRIGGER_URL))
			.patch('/auth/company/profile', { webhookUrl: null })
			.reply(200, profile(null));
		expect(await runHook('delete', createHookContext())).toBe(true);
	});

	it('leaves alone a URL someone else set since', async () => {
		const elsewhere = 'https://other.example.com/hook';
		nock(BASE_URL).get('/auth/company/profile').reply(200, profile(elsewhere));
		const context = createHookContext({ staticData: registered() });
		expect(await runHook('delete', context)).toBe(true);
		expect(context.requests.map((r) => r.method)).toEqual(['GET']);
		expect(context.staticData).not.toHaveProperty('registration');
	});

	it('restores its registration even after the option was turned off', async () => {
		nock(BASE_URL)
			.get('/auth/company/profile')
			.reply(200, profile(TRIGGER_URL))
			.patch('/auth/company/profile', { webhookUrl: PREVIOUS_URL })
			.reply(200, profile(PREVIOUS_URL));
		const context = createHookContext({
			staticData: registered(),
			parameters: { registerWebhook: false },
		});
		expect(await runHook('delete', context)).toBe(true);
	});

	it('says the company still points at the deactivated workflow when the PATCH fails', async () => {
		nock(BASE_URL)
			.get('/auth/company/profile')
			.reply(200, profile(TRIGGER_URL))
			.patch('/auth/company/profile', { webhookUrl: PREVIOUS_URL })
			.reply(403, permissionDenied);
		const context = createHookContext({ staticData: registered() });
		const error = await runHookError('delete', context);
		expect(error.message).toBe(
			`The company's webhook URL still points at this deactivated workflow (${TRIGGER_URL})`,
		);
		expect(error.description).toContain(`Putting back ${PREVIOUS_URL} failed`);
		expect(error.description).toContain('PERMISSION_DENIED');
		expect(context.logs).toContainEqual({
			level: 'error',
			message: expect.stringContaining(error.message),
		});
		// The registration stays, so the next activation or deactivation still knows the old URL.
		expect(context.staticData).toHaveProperty('registration');
	});

	it('says the company may still point at it when the profile cannot be read', async () => {
		nock(BASE_URL)
			.get('/auth/company/profile')
			.replyWithError({ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' });
		const context = createHookContext({ staticData: registered() });
		const error = await runHookError('delete', context);
		expect(error.message).toBe(
			`The company's webhook URL may still point at this deactivated workflow (${TRIGGER_URL})`,
		);
		expect(error.description).toContain(`put back ${PREVIOUS_URL}`);
		expect(error.description).toContain('ECONNREFUSED');
		expect(context.logs.map((l) => l.level)).toContain('error');
	});

	it('never puts a secret into an error or the log', async () => {
		nock(BASE_URL).get('/auth/company/profile').reply(503, unavailable);
		const context = createHookContext({ staticData: registered() });
		const error = await runHookError('delete', context);
		expect(secretsIn(error, context)).toEqual([]);
	});
});

/** Every secret (and the API key) that shows up in an error, its context or the log. */
function secretsIn(error: Error & IDataObject, context: HookContext): string[] {
	const text = [
		error.message,
		String(error.description),
		JSON.stringify(error),
		JSON.stringify(error.context ?? {}),
		String(error.stack),
		...context.logs.map((entry) => entry.message),
	].join('\n');
	return [SECRET_DUMMY, OLD_SECRET_DUMMY, ROTATED_SECRET_DUMMY, API_KEY].filter((secret) =>
		text.includes(secret),
	);
}

describe('secrets in failures', () => {
	it('keeps every secret out of the errors and the log of a failed rotation and rollback', async () => {
		// The credential and the static data hold three secrets and the API key; the rotation is
		// refused and putting the URL back fails too, so every error path of create runs.
		jest.spyOn(Date, 'now').mockReturnValue(T0);
		nock(BASE_URL)
			.get('/auth/company/profile')
			.reply(200, profile(PREVIOUS_URL))
			.patch('/auth/company/profile', { webhookUrl: TRIGGER_URL })
			.reply(200, profile(TRIGGER_URL))
			.post('/auth/company/webhook-secret/rotate')
			.reply(403, permissionDenied)
			.patch('/auth/company/profile', { webhookUrl: PREVIOUS_URL })
			.reply(503, unavailable);
		const context = createHookContext({
			parameters: { rotateSecret: true },
			webhookSecret: ` ${SECRET_DUMMY} `,
			staticData: {
				rotatedSecret: {
					current: ROTATED_SECRET_DUMMY,
					previous: OLD_SECRET_DUMMY,
					rotatedAt: T0 - 60_000,
					credentialFingerprint: fingerprint(SECRET_DUMMY),
				},
			},
		});
		const error = await runHookError('create', context);
		expect(error.message).toContain('Could not rotate the webhook secret');
		expect(secretsIn(error, context)).toEqual([]);
	});
});
