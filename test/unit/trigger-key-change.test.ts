// Issue 50, item 5: the webhook trigger's state survives the company's own key changes
// (Regenerate API Key, then the new key put into the credential), keeps every secret that can
// still sign a retry (a second rotation), says at error level what to do with a secret it cannot
// open, and a copied workflow never unregisters another workflow's webhook URL.
import type { IDataObject } from 'n8n-workflow';
import nock from 'nock';

import { openedRotated, secretCache } from '../../nodes/CompanyPaymentsTrigger/secretCache';
import { UNOPENED_SECRET } from '../../nodes/CompanyPaymentsTrigger/receive';
import { clearSaid, profileSecrets } from '../../nodes/CompanyPaymentsTrigger/profileSecret';
import {
	credentialSecrets,
	fingerprint,
	openRotated,
	sealRotated,
} from '../../nodes/CompanyPaymentsTrigger/signature';
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
	TRIGGER_URL,
} from './helpers/trigger';

const T0 = Date.parse('2026-11-21T12:00:00.000Z');
const NEW_API_KEY = ['dummy', 'regenerated', 'key', '7Hq2Lx9'].join('-');
const SECOND_ROTATED = 'whsec_dummy2222222222222222222222222222222222222222222222';
const NODE_ID = 'c0ffee00-0000-4000-8000-00000000abcd';

const profile = (webhookUrl: string | null) => ({ webhookUrl, webhookSecret: null });

beforeAll(() => nock.disableNetConnect());
beforeEach(() => {
	openedRotated.clear();
	secretCache.clear();
	profileSecrets.clear();
	clearSaid();
});
afterEach(() => {
	nock.cleanAll();
	jest.restoreAllMocks();
});

/** Activation with Register and Rotate on: the company's secret becomes `rotated`. */
async function activate(
	rotated: string,
	webhookSecret: string,
	staticData: IDataObject = {},
): Promise<HookContext> {
	nock(BASE_URL)
		.get('/auth/company/profile')
		.reply(200, profile(null))
		.patch('/auth/company/profile', { webhookUrl: TRIGGER_URL })
		.reply(200, profile(TRIGGER_URL))
		.post('/auth/company/webhook-secret/rotate')
		.reply(201, { webhookSecret: rotated });
	const context = createHookContext({
		parameters: { rotateSecret: true },
		webhookSecret,
		staticData,
		nodeId: NODE_ID,
	});
	expect(await runHook('create', context)).toBe(true);
	return context;
}

/** A delivery after the credential got the regenerated API key. */
async function afterKeyChange(staticData: IDataObject, signWith: string, webhookSecret: string) {
	return await deliver({
		staticData,
		nodeId: NODE_ID,
		signWith,
		webhookSecret,
		credentials: {
			companyPaymentsApi: { baseUrl: BASE_URL, apiKey: NEW_API_KEY, webhookSecret },
		},
	});
}

describe('Regenerate API Key, then the new key in the credential', () => {
	it('the credential has a Webhook Secret: the rotated secret still opens, in a new process too', async () => {
		jest.spyOn(Date, 'now').mockReturnValue(T0);
		const context = await activate(ROTATED_SECRET_DUMMY, OLD_SECRET_DUMMY);
		openedRotated.clear(); // n8n restarted: nothing in memory
		const signed = await afterKeyChange(
			roundTrip(context.staticData),
			ROTATED_SECRET_DUMMY,
			OLD_SECRET_DUMMY,
		);
		expect(signed.response.statusCode).toBe(200);
		expect(signed.result.workflowData).toBeDefined();
	});

	it('no Webhook Secret in the credential: opened from memory and sealed again with the new key', async () => {
		jest.spyOn(Date, 'now').mockReturnValue(T0);
		const context = await activate(ROTATED_SECRET_DUMMY, '');
		const staticData = roundTrip(context.staticData);
		const first = await afterKeyChange(staticData, ROTATED_SECRET_DUMMY, '');
		expect(first.response.statusCode).toBe(200);
		// Sealed again with the new key: after a restart the static data alone opens it.
		openedRotated.clear();
		const later = await afterKeyChange(roundTrip(first.staticData), ROTATED_SECRET_DUMMY, '');
		expect(later.response.statusCode).toBe(200);
		expect(JSON.stringify(later.staticData)).not.toContain(ROTATED_SECRET_DUMMY.slice(6, 30));
	});

	it('a secret it cannot open: 401, logged at error level with what to do', async () => {
		jest.spyOn(Date, 'now').mockReturnValue(T0);
		const context = await activate(ROTATED_SECRET_DUMMY, '');
		openedRotated.clear(); // restarted before any delivery: the old key's seal alone
		const refused = await afterKeyChange(roundTrip(context.staticData), ROTATED_SECRET_DUMMY, '');
		expect(refused.response.statusCode).toBe(401);
		const errors = refused.logs.filter((log) => log.level === 'error');
		expect(errors.map((log) => log.message).join('\n')).toContain(UNOPENED_SECRET.slice(0, 60));
		expect(UNOPENED_SECRET).toMatch(
			/What to do: check that the credential holds the company's current API key .*deactivate and activate the workflow again/,
		);
	});
});

describe('a second rotation keeps every secret that can still sign a retry', () => {
	it('deactivated and activated again: a retry signed with the first rotated secret passes', async () => {
		jest.spyOn(Date, 'now').mockReturnValue(T0);
		const first = await activate(ROTATED_SECRET_DUMMY, OLD_SECRET_DUMMY);
		nock(BASE_URL)
			.get('/auth/company/profile')
			.reply(200, profile(TRIGGER_URL))
			.patch('/auth/company/profile', { webhookUrl: null })
			.reply(200, profile(null));
		expect(await runHook('delete', first)).toBe(true);
		expect(first.staticData).not.toHaveProperty('rotatedSecret');
		jest.spyOn(Date, 'now').mockReturnValue(T0 + 60_000);
		const second = await activate(SECOND_ROTATED, OLD_SECRET_DUMMY, roundTrip(first.staticData));
		const staticData = roundTrip(second.staticData);
		for (const signWith of [SECOND_ROTATED, ROTATED_SECRET_DUMMY]) {
			const delivery = await deliver({
				staticData,
				nodeId: NODE_ID,
				signWith,
				webhookSecret: OLD_SECRET_DUMMY,
			});
			expect({ signWith, status: delivery.response.statusCode }).toEqual({ signWith, status: 200 });
		}
	});

	it('two rotations within the grace period, the key regenerated between: all three sign retries', async () => {
		jest.spyOn(Date, 'now').mockReturnValue(T0);
		const first = await activate(ROTATED_SECRET_DUMMY, OLD_SECRET_DUMMY);
		// The credential now holds the regenerated API key; activation again rotates anew.
		const credentials = (await first.getCredentials('companyPaymentsApi')) as IDataObject;
		credentials.apiKey = NEW_API_KEY;
		openedRotated.clear();
		jest.spyOn(Date, 'now').mockReturnValue(T0 + 60_000);
		nock(BASE_URL)
			.get('/auth/company/profile')
			.reply(200, profile(TRIGGER_URL))
			.patch('/auth/company/profile', { webhookUrl: TRIGGER_URL })
			.reply(200, profile(TRIGGER_URL))
			.post('/auth/company/webhook-secret/rotate')
			.reply(201, { webhookSecret: SECOND_ROTATED });
		expect(await runHook('create', first)).toBe(true);
		const staticData = roundTrip(first.staticData);
		for (const signWith of [SECOND_ROTATED, ROTATED_SECRET_DUMMY, OLD_SECRET_DUMMY]) {
			const delivery = await afterKeyChange(staticData, signWith, OLD_SECRET_DUMMY);
			expect({ signWith, status: delivery.response.statusCode }).toEqual({ signWith, status: 200 });
		}
		// After the grace period only the current secret signs.
		jest.spyOn(Date, 'now').mockReturnValue(T0 + 60_000 + 11 * 60_000);
		const late = await afterKeyChange(staticData, ROTATED_SECRET_DUMMY, OLD_SECRET_DUMMY);
		expect(late.response.statusCode).toBe(401);
	});
});

describe('a copied workflow', () => {
	it('with the original’s static data and registration off: deactivating it leaves the company alone', async () => {
		const copy = createHookContext({
			parameters: { registerWebhook: false },
			webhookUrl: 'https://n8n.example.com/webhook/copy-of-the-workflow',
			staticData: {
				registration: {
					url: TRIGGER_URL,
					previousUrl: 'https://erp.example.com/payments/webhook',
					registeredAt: '2026-11-20T10:00:00.000Z',
				},
			},
		});
		expect(await runHook('delete', copy)).toBe(true);
		expect(copy.requests).toEqual([]);
		expect(copy.staticData).not.toHaveProperty('registration');
	});

	it('with registration on: the original’s URL is not put back either', async () => {
		const scope = nock(BASE_URL).get('/auth/company/profile').reply(200, profile(TRIGGER_URL));
		const copy = createHookContext({
			webhookUrl: 'https://n8n.example.com/webhook/copy-of-the-workflow',
			staticData: {
				registration: {
					url: TRIGGER_URL,
					previousUrl: 'https://erp.example.com/payments/webhook',
					registeredAt: '2026-11-20T10:00:00.000Z',
				},
			},
		});
		expect(await runHook('delete', copy)).toBe(true);
		scope.done();
		expect(copy.requests.map((request) => request.method)).toEqual(['GET']);
	});
});

it('the credential API key is part of no state key (the dummy stays out of the static data)', async () => {
	jest.spyOn(Date, 'now').mockReturnValue(T0);
	const context = await activate(ROTATED_SECRET_DUMMY, OLD_SECRET_DUMMY);
	expect(JSON.stringify(context.staticData)).not.toContain(API_KEY);
});

describe('no Webhook Secret in the credential, the key regenerated, n8n restarted (r6-data-b F5)', () => {
	const CREDENTIAL_ID = 'cred-7';

	async function activateWithIdentity(): Promise<HookContext> {
		nock(BASE_URL)
			.get('/auth/company/profile')
			.reply(200, profile(null))
			.patch('/auth/company/profile', { webhookUrl: TRIGGER_URL })
			.reply(200, profile(TRIGGER_URL))
			.post('/auth/company/webhook-secret/rotate')
			.reply(201, { webhookSecret: ROTATED_SECRET_DUMMY });
		const context = createHookContext({
			parameters: { rotateSecret: true },
			webhookSecret: '',
			nodeId: NODE_ID,
			credentialId: CREDENTIAL_ID,
		});
		expect(await runHook('create', context)).toBe(true);
		return context;
	}

	async function deliverAfterRestart(staticData: IDataObject, instanceId?: string) {
		// n8n restarted: nothing in memory.
		openedRotated.clear();
		secretCache.clear();
		profileSecrets.clear();
		return await deliver({
			staticData: roundTrip(staticData),
			nodeId: NODE_ID,
			credentialId: CREDENTIAL_ID,
			instanceId,
			signWith: ROTATED_SECRET_DUMMY,
			webhookSecret: '',
			credentials: {
				companyPaymentsApi: { baseUrl: BASE_URL, apiKey: NEW_API_KEY, webhookSecret: '' },
			},
		});
	}

	it('the rotated secret opens from the static data alone (sealed under the instance and credential too)', async () => {
		jest.spyOn(Date, 'now').mockReturnValue(T0);
		const context = await activateWithIdentity();
		expect(JSON.stringify(context.staticData)).not.toContain(ROTATED_SECRET_DUMMY.slice(6, 30));
		const signed = await deliverAfterRestart(context.staticData);
		expect(signed.response.statusCode).toBe(200);
		expect(signed.result.workflowData).toBeDefined();
	});

	it('also after the grace period trimmed the kept secrets', async () => {
		jest.spyOn(Date, 'now').mockReturnValue(T0);
		const context = await activateWithIdentity();
		// A delivery past the grace period, before the key change: the old secrets are dropped.
		jest.spyOn(Date, 'now').mockReturnValue(T0 + 60 * 60_000);
		const before = await deliver({
			staticData: roundTrip(context.staticData),
			nodeId: NODE_ID,
			credentialId: CREDENTIAL_ID,
			signWith: ROTATED_SECRET_DUMMY,
			webhookSecret: '',
		});
		expect(before.response.statusCode).toBe(200);
		expect(before.staticData.rotatedSecret).not.toHaveProperty('previous');
		const signed = await deliverAfterRestart(before.staticData);
		expect(signed.response.statusCode).toBe(200);
	});

	it('the same static data in another n8n instance does not open: 401', async () => {
		jest.spyOn(Date, 'now').mockReturnValue(T0);
		const context = await activateWithIdentity();
		const refused = await deliverAfterRestart(context.staticData, 'another-instance');
		expect(refused.response.statusCode).toBe(401);
	});
});

describe('the API key sealing the rotated secret is read as the node sends it', () => {
	// No Webhook Secret and no identity: the API-key seal is the only one, so the key alone opens it.
	const secrets = (apiKey: string) => credentialSecrets({ apiKey, webhookSecret: '' });
	const sealedWith = (apiKey: string) =>
		sealRotated(
			{
				current: ROTATED_SECRET_DUMMY,
				previous: OLD_SECRET_DUMMY,
				rotatedAt: T0,
				credentialFingerprint: fingerprint(''),
			},
			secrets(apiKey),
		);

	it.each([
		['sealed plain, opened with spaces around', API_KEY, `  ${API_KEY} `],
		['sealed plain, opened with a line break after', API_KEY, `${API_KEY}\n`],
		['sealed with a tab and line break around, opened plain', `\t${API_KEY}\r\n`, API_KEY],
	])('%s: it opens', (_case, sealedKey, openingKey) => {
		const kept = sealedWith(sealedKey);
		expect(kept.bySecret).toBeUndefined();
		expect(kept.byIdentity).toBeUndefined();
		const opened = openRotated(kept, secrets(openingKey));
		expect(opened?.current).toBe(ROTATED_SECRET_DUMMY);
		expect(opened?.previous).toBe(OLD_SECRET_DUMMY);
	});

	it('another key, or a space inside the key: it does not open', () => {
		const kept = sealedWith(API_KEY);
		expect(openRotated(kept, secrets(NEW_API_KEY))).toBeUndefined();
		expect(
			openRotated(kept, secrets(`${API_KEY.slice(0, 5)} ${API_KEY.slice(5)}`)),
		).toBeUndefined();
	});
});

describe('two rotations within the grace period, then the key regenerated and n8n restarted (r21-data F4)', () => {
	const CREDENTIAL_ID = 'cred-9';
	const THIRD_ROTATED = 'whsec_dummy3333333333333333333333333333333333333333333333';

	/** Activation with Register and Rotate on, under the n8n credential CREDENTIAL_ID. */
	async function activateOnce(rotated: string, webhookSecret: string, staticData: IDataObject) {
		nock(BASE_URL)
			.get('/auth/company/profile')
			.reply(200, profile(null))
			.patch('/auth/company/profile', { webhookUrl: TRIGGER_URL })
			.reply(200, profile(TRIGGER_URL))
			.post('/auth/company/webhook-secret/rotate')
			.reply(201, { webhookSecret: rotated });
		const context = createHookContext({
			parameters: { rotateSecret: true },
			webhookSecret,
			staticData,
			nodeId: NODE_ID,
			credentialId: CREDENTIAL_ID,
		});
		expect(await runHook('create', context)).toBe(true);
		return context;
	}

	/** Deactivation (the company's URL is put back), keeping the rotated secrets as retired. */
	async function deactivate(context: HookContext) {
		nock(BASE_URL)
			.get('/auth/company/profile')
			.reply(200, profile(TRIGGER_URL))
			.patch('/auth/company/profile', { webhookUrl: null })
			.reply(200, profile(null));
		expect(await runHook('delete', context)).toBe(true);
	}

	it.each([
		['without a Webhook Secret in the credential (the instance-and-credential seal)', ''],
		['with a Webhook Secret in the credential (its seal too)', OLD_SECRET_DUMMY],
	])('%s: the current, previous and older secret all sign a retry', async (_case, webhookSecret) => {
		jest.spyOn(Date, 'now').mockReturnValue(T0);
		const first = await activateOnce(ROTATED_SECRET_DUMMY, webhookSecret, {});
		await deactivate(first);
		jest.spyOn(Date, 'now').mockReturnValue(T0 + 60_000);
		const second = await activateOnce(SECOND_ROTATED, webhookSecret, roundTrip(first.staticData));
		await deactivate(second);
		jest.spyOn(Date, 'now').mockReturnValue(T0 + 120_000);
		const third = await activateOnce(THIRD_ROTATED, webhookSecret, roundTrip(second.staticData));
		const kept = roundTrip(third.staticData);
		// Three secrets that may still sign a retry, none of them in clear.
		for (const secret of [THIRD_ROTATED, SECOND_ROTATED, ROTATED_SECRET_DUMMY]) {
			expect(JSON.stringify(kept)).not.toContain(secret.slice(6, 30));
		}
		for (const signWith of [THIRD_ROTATED, SECOND_ROTATED, ROTATED_SECRET_DUMMY]) {
			// A fresh process (a restart, or another webhook process) that holds the new key.
			openedRotated.clear();
			secretCache.clear();
			profileSecrets.clear();
			const delivery = await deliver({
				staticData: roundTrip(kept),
				nodeId: NODE_ID,
				credentialId: CREDENTIAL_ID,
				signWith,
				webhookSecret,
				credentials: {
					companyPaymentsApi: { baseUrl: BASE_URL, apiKey: NEW_API_KEY, webhookSecret },
				},
			});
			expect({ signWith, status: delivery.response.statusCode }).toEqual({ signWith, status: 200 });
		}
	});

	it('each seal holds the older secrets too: opened by the identity seal alone, all three come out', () => {
		const identity = `instance-1\n${CREDENTIAL_ID}`;
		const sealed = sealRotated(
			{
				current: THIRD_ROTATED,
				previous: SECOND_ROTATED,
				older: [{ secret: ROTATED_SECRET_DUMMY, retiredAt: T0 }],
				rotatedAt: T0 + 120_000,
				credentialFingerprint: fingerprint(''),
			},
			credentialSecrets({ apiKey: API_KEY, webhookSecret: '' }, identity),
		);
		const opened = openRotated(
			JSON.parse(JSON.stringify(sealed)),
			credentialSecrets({ apiKey: NEW_API_KEY, webhookSecret: '' }, identity),
		);
		expect(opened?.current).toBe(THIRD_ROTATED);
		expect(opened?.previous).toBe(SECOND_ROTATED);
		expect(opened?.older).toEqual([{ secret: ROTATED_SECRET_DUMMY, retiredAt: T0 }]);
	});
});
