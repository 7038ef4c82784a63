// Outside read 2 of the webhook trigger's state ("keeps working and loses nothing across the
// company's own key and secret changes"): when no secret the trigger holds verifies a delivery,
// it reads the company's current secret from GET /auth/company/profile (rate-limited), keeps it
// sealed, and every secret that can still sign a retry stays accepted for one grace period;
// a deactivated trigger hands the company's own URL over to the copy registered over it.
import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';
import nock from 'nock';

import { clearHandedOver } from '../../nodes/CompanyPaymentsTrigger/lifecycle';
import {
	clearSaid,
	PROFILE_MASKED,
	PROFILE_NO_SECRET,
	PROFILE_READ_MIN_INTERVAL_MS,
	PROFILE_UNREAD,
	profileSecrets,
} from '../../nodes/CompanyPaymentsTrigger/profileSecret';
import { openedRotated, secretCache } from '../../nodes/CompanyPaymentsTrigger/secretCache';
import type { DeliveryResult, HookContext } from './helpers/trigger';
import {
	API_KEY,
	BASE_URL,
	createHookContext,
	deliver,
	hmacHex,
	OLD_SECRET_DUMMY,
	roundTrip,
	runHook,
	TRIGGER_URL,
} from './helpers/trigger';

const T0 = Date.parse('2026-11-28T12:00:00.000Z');
const MINUTE = 60_000;
const NEW_API_KEY = ['dummy', 'regenerated', 'key', 'Q4w8'].join('-');
const S1 = 'whsec_dummy1111111111111111111111111111111111111111111111';
const S2 = 'whsec_dummy2222222222222222222222222222222222222222222222';
const S3 = 'whsec_dummy3333333333333333333333333333333333333333333333';
const NODE_ID = 'c0ffee00-0000-4000-8000-00000000beef';
const OWN_URL = 'https://erp.example.com/payments/webhook';
const COPY_URL = 'https://n8n.example.com/webhook/copy-of-the-workflow/webhook';
const body = '{"event":"card.assigned","externalId":"c-state"}';

const profile = (webhookUrl: string | null, webhookSecret: string | null = null) => ({
	webhookUrl,
	webhookSecret,
});

beforeAll(() => nock.disableNetConnect());
let clock: jest.SpyInstance<number, []>;
beforeEach(() => {
	openedRotated.clear();
	secretCache.clear();
	profileSecrets.clear();
	clearSaid();
	clearHandedOver();
	clock = jest.spyOn(Date, 'now').mockReturnValue(T0);
});
afterEach(() => {
	nock.cleanAll();
	jest.restoreAllMocks();
});

/** n8n restarted: nothing of this process's memory is left, only the saved static data. */
function restart(): void {
	openedRotated.clear();
	secretCache.clear();
	profileSecrets.clear();
}

/** Activation with Register and Rotate on; the company's secret becomes `rotated`. */
async function activate(
	rotated: string,
	webhookSecret: string,
	options: {
		staticData?: IDataObject;
		before?: string | null;
		shown?: string;
		apiKey?: string;
	} = {},
): Promise<HookContext> {
	const url = TRIGGER_URL;
	nock(BASE_URL)
		.get('/auth/company/profile')
		.reply(200, profile(options.before ?? null, options.shown ?? null))
		.patch('/auth/company/profile', { webhookUrl: url })
		.reply(200, profile(url))
		.post('/auth/company/webhook-secret/rotate')
		.reply(201, { webhookSecret: rotated });
	const context = createHookContext({
		parameters: { rotateSecret: true },
		webhookSecret,
		staticData: options.staticData ?? {},
		nodeId: NODE_ID,
	});
	if (options.apiKey !== undefined) {
		((await context.getCredentials('companyPaymentsApi')) as IDataObject).apiKey = options.apiKey;
	}
	expect(await runHook('create', context)).toBe(true);
	return context;
}

interface Send {
	staticData: IDataObject;
	signWith?: string;
	signature?: string;
	webhookSecret?: string;
	apiKey?: string;
	/** What the company profile shows as webhookSecret (undefined: the profile read fails). */
	shown?: string | null;
	requests?: IHttpRequestOptions[];
}

async function send(options: Send): Promise<DeliveryResult> {
	const webhookSecret = options.webhookSecret ?? '';
	return await deliver({
		body,
		staticData: options.staticData,
		nodeId: NODE_ID,
		signWith: options.signWith,
		signature: options.signature,
		webhookSecret,
		credentials: {
			companyPaymentsApi: {
				baseUrl: BASE_URL,
				apiKey: options.apiKey ?? API_KEY,
				webhookSecret,
			},
		},
		profile: options.shown === undefined ? undefined : profile(TRIGGER_URL, options.shown),
		profileRequests: options.requests,
	});
}

const status = (outcome: DeliveryResult) => outcome.response.statusCode;

function noSecretShown(outcome: DeliveryResult, ...secrets: string[]): void {
	const shown = JSON.stringify([outcome.logs, outcome.outputs, outcome.staticData]);
	for (const secret of secrets) expect(shown).not.toContain(secret.slice(6));
}

describe('finding 1: the API key regenerated and n8n restarted, no Webhook Secret in the credential', () => {
	it('reads the company’s current secret from the profile, verifies with it and keeps it sealed under the new key', async () => {
		const context = await activate(S1, '');
		restart(); // before the new key reaches the credential, or after: nothing in memory either way
		const requests: IHttpRequestOptions[] = [];
		const first = await send({
			staticData: roundTrip(context.staticData),
			signWith: S1,
			shown: S1,
			requests,
			apiKey: NEW_API_KEY,
		});
		expect(status(first)).toBe(200);
		expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual([
			`GET ${BASE_URL}/auth/company/profile`,
		]);
		noSecretShown(first, S1);
		// Sealed under the new key: after one more restart the static data alone verifies, no read.
		restart();
		const later = await send({
			staticData: roundTrip(first.staticData),
			signWith: S1,
			requests,
			apiKey: NEW_API_KEY,
		});
		expect(status(later)).toBe(200);
		expect(requests).toHaveLength(1);
	});

	it('a profile it cannot read: 401, said once at error level with what to do', async () => {
		const context = await activate(S1, '');
		restart();
		const staticData = roundTrip(context.staticData);
		const first = await send({ staticData, signWith: S1, apiKey: NEW_API_KEY });
		expect(status(first)).toBe(401);
		const errors = first.logs.filter((log) => log.level === 'error').map((log) => log.message);
		expect(errors.join('\n')).toContain(PROFILE_UNREAD);
		clock.mockReturnValue(T0 + PROFILE_READ_MIN_INTERVAL_MS);
		const second = await send({ staticData, signWith: S1, apiKey: NEW_API_KEY });
		expect(status(second)).toBe(401);
		expect(second.logs.filter((log) => log.level === 'error')).toEqual([]);
	});

	it('a profile that shows the secret masked: nothing kept, said once at error level', async () => {
		const context = await activate(S1, '');
		restart();
		const staticData = roundTrip(context.staticData);
		const before = JSON.stringify(staticData);
		const first = await send({
			staticData,
			signWith: S1,
			shown: 'whsec_…1111',
			apiKey: NEW_API_KEY,
		});
		expect(status(first)).toBe(401);
		expect(
			first.logs
				.filter((log) => log.level === 'error')
				.map((l) => l.message)
				.join('\n'),
		).toContain(PROFILE_MASKED);
		expect(JSON.stringify(first.staticData)).toBe(before);
	});

	it('a profile that shows no webhookSecret: 401, said once at error level', async () => {
		const context = await activate(S1, '');
		restart();
		const staticData = roundTrip(context.staticData);
		const first = await send({ staticData, signWith: S1, shown: null, apiKey: NEW_API_KEY });
		expect(status(first)).toBe(401);
		const errors = (outcome: DeliveryResult) =>
			outcome.logs.filter((log) => log.level === 'error').map((log) => log.message);
		expect(errors(first).join('\n')).toContain(PROFILE_NO_SECRET);
		clock.mockReturnValue(T0 + PROFILE_READ_MIN_INTERVAL_MS);
		const second = await send({ staticData, signWith: S1, shown: null, apiKey: NEW_API_KEY });
		expect(errors(second)).toEqual([]);
	});

	it('activating again after such a change keeps the secret the profile showed for retries', async () => {
		const context = await activate(S1, '');
		restart(); // the new key in the credential, n8n restarted: the kept seal does not open
		clock.mockReturnValue(T0 + MINUTE);
		const again = await activate(S3, '', {
			staticData: roundTrip(context.staticData),
			before: TRIGGER_URL,
			shown: S1,
			apiKey: NEW_API_KEY,
		});
		const staticData = roundTrip(again.staticData);
		restart();
		for (const signWith of [S3, S1]) {
			const outcome = await send({ staticData, signWith, apiKey: NEW_API_KEY });
			expect({ signWith: signWith.slice(0, 12), status: status(outcome) }).toEqual({
				signWith: signWith.slice(0, 12),
				status: 200,
			});
		}
		clock.mockReturnValue(T0 + MINUTE + 10 * MINUTE);
		expect(status(await send({ staticData, signWith: S1, apiKey: NEW_API_KEY }))).toBe(401);
	});
});

describe('finding 2: a copy of the workflow rotated the company’s secret', () => {
	it('the original learns the new secret; its own stays accepted for the grace period only', async () => {
		const original = await activate(S1, '');
		// The copy rotated again on the service: the company now signs with S2.
		let staticData = roundTrip(original.staticData);
		const learned = await send({ staticData, signWith: S2, shown: S2 });
		expect(status(learned)).toBe(200);
		expect(
			learned.logs.some(
				(log) => log.level === 'warn' && /changed outside this trigger/.test(log.message),
			),
		).toBe(true);
		noSecretShown(learned, S1, S2);
		staticData = roundTrip(learned.staticData);
		restart();
		clock.mockReturnValue(T0 + 10 * MINUTE - 1);
		expect(status(await send({ staticData, signWith: S1 }))).toBe(200);
		expect(status(await send({ staticData, signWith: S2 }))).toBe(200);
		clock.mockReturnValue(T0 + 10 * MINUTE);
		expect(status(await send({ staticData, signWith: S1 }))).toBe(401);
		expect(status(await send({ staticData, signWith: S2 }))).toBe(200);
	});
});

describe('the profile read is rate-limited', () => {
	it('a flood of forged signatures: one profile read per interval; a genuine delivery between still passes', async () => {
		const context = await activate(S1, '');
		let staticData = roundTrip(context.staticData);
		const requests: IHttpRequestOptions[] = [];
		const forged = hmacHex(body, 'whsec_guessed');
		for (let i = 0; i < 200; i++) {
			clock.mockReturnValue(T0 + i * 10); // 200 forgeries within 2 s
			expect(status(await send({ staticData, signature: forged, shown: S2, requests }))).toBe(401);
		}
		expect(requests).toHaveLength(1);
		// The company's secret changed meanwhile (S2): a genuine delivery uses the answer kept.
		clock.mockReturnValue(T0 + 2_500);
		const genuine = await send({ staticData, signWith: S2, shown: S2, requests });
		expect(status(genuine)).toBe(200);
		expect(requests).toHaveLength(1);
		staticData = roundTrip(genuine.staticData);
		clock.mockReturnValue(T0 + PROFILE_READ_MIN_INTERVAL_MS - 1);
		await send({ staticData, signature: forged, shown: S2, requests });
		expect(requests).toHaveLength(1);
		clock.mockReturnValue(T0 + PROFILE_READ_MIN_INTERVAL_MS);
		await send({ staticData, signature: forged, shown: S2, requests });
		expect(requests).toHaveLength(2);
	});

	it('concurrent failing deliveries share one read', async () => {
		const context = await activate(S1, '');
		const staticData = roundTrip(context.staticData);
		const requests: IHttpRequestOptions[] = [];
		const outcomes = await Promise.all(
			Array.from(
				{ length: 20 },
				async () => await send({ staticData, signWith: S2, shown: S2, requests }),
			),
		);
		expect(outcomes.map(status)).toEqual(Array(20).fill(200));
		expect(requests).toHaveLength(1);
	});
});

describe('finding 4: the user rotated by hand and put the new secret into the credential', () => {
	for (const restarted of [false, true]) {
		it(`a retry signed with the trigger's own secret passes for the grace period (${restarted ? 'after a restart' : 'same process'})`, async () => {
			const context = await activate(S1, '');
			let staticData = roundTrip(context.staticData);
			if (restarted) restart();
			clock.mockReturnValue(T0 + MINUTE);
			// The credential now holds S2 (Company → Rotate Webhook Secret): its first delivery.
			const fresh = await send({ staticData, signWith: S2, webhookSecret: S2 });
			expect(status(fresh)).toBe(200);
			staticData = roundTrip(fresh.staticData);
			if (restarted) restart();
			const retry = { staticData, signWith: S1, webhookSecret: S2 };
			clock.mockReturnValue(T0 + MINUTE + 10 * MINUTE - 1);
			expect(status(await send(retry))).toBe(200);
			clock.mockReturnValue(T0 + MINUTE + 10 * MINUTE);
			expect(status(await send(retry))).toBe(401);
		});
	}

	it('only a genuine delivery signed with the new secret opens that window, never a forged one or one signed with the old', async () => {
		const context = await activate(S1, '');
		let staticData = roundTrip(context.staticData);
		const forged = hmacHex(body, 'whsec_guessed');
		clock.mockReturnValue(T0 + 60 * MINUTE);
		// A day's worth of forged or old-secret deliveries after the change opens nothing.
		expect(status(await send({ staticData, signature: forged, webhookSecret: S2 }))).toBe(401);
		const old = await send({ staticData, signWith: S1, webhookSecret: S2 });
		expect(status(old)).toBe(401);
		staticData = roundTrip(old.staticData);
		expect(JSON.stringify(staticData)).not.toContain('supersededAt');
		clock.mockReturnValue(T0 + 61 * MINUTE);
		const genuine = await send({ staticData, signWith: S2, webhookSecret: S2 });
		expect(status(genuine)).toBe(200);
		expect(
			status(
				await send({ staticData: roundTrip(genuine.staticData), signWith: S1, webhookSecret: S2 }),
			),
		).toBe(200);
	});
});

describe('finding 3: two registering workflows (a copy with the original’s static data)', () => {
	/** Deactivation while the company points at `current`; returns what was PATCHed, if anything. */
	async function deactivate(context: HookContext, current: string | null): Promise<unknown> {
		let patched: unknown = 'nothing';
		nock.cleanAll(); // an optional PATCH left from an earlier deactivation
		nock(BASE_URL)
			.get('/auth/company/profile')
			.reply(200, profile(current))
			.patch('/auth/company/profile', (b: IDataObject) => {
				patched = b.webhookUrl;
				return true;
			})
			.optionally()
			.reply(200, profile(null));
		expect(await runHook('delete', context)).toBe(true);
		return patched;
	}

	async function register(url: string, before: string, staticData: IDataObject = {}) {
		nock(BASE_URL)
			.get('/auth/company/profile')
			.reply(200, profile(before))
			.patch('/auth/company/profile', { webhookUrl: url })
			.reply(200, profile(url));
		const context = createHookContext({
			webhookSecret: OLD_SECRET_DUMMY,
			staticData,
			webhookUrl: url,
		});
		expect(await runHook('create', context)).toBe(true);
		return context;
	}

	it('A then B deactivated: the company’s own URL comes back', async () => {
		const a = await register(TRIGGER_URL, OWN_URL);
		const b = await register(COPY_URL, TRIGGER_URL, roundTrip(a.staticData));
		expect(await deactivate(a, COPY_URL)).toBe('nothing');
		expect(await deactivate(b, COPY_URL)).toBe(OWN_URL);
	});

	it('B then A deactivated: A gets the URL back while active, then the company’s own URL', async () => {
		const a = await register(TRIGGER_URL, OWN_URL);
		const b = await register(COPY_URL, TRIGGER_URL, roundTrip(a.staticData));
		expect(await deactivate(b, COPY_URL)).toBe(TRIGGER_URL);
		expect(await deactivate(a, TRIGGER_URL)).toBe(OWN_URL);
	});

	it('A deactivated, then activated again before B: B puts back A, which is live', async () => {
		const a = await register(TRIGGER_URL, OWN_URL);
		const b = await register(COPY_URL, TRIGGER_URL, roundTrip(a.staticData));
		expect(await deactivate(a, COPY_URL)).toBe('nothing');
		await register(TRIGGER_URL, COPY_URL, roundTrip(a.staticData));
		expect(await deactivate(b, TRIGGER_URL)).toBe('nothing');
	});

	it('B registered again over A, which is live again: B puts back A, not the company’s own URL', async () => {
		const a = await register(TRIGGER_URL, OWN_URL);
		const b = await register(COPY_URL, TRIGGER_URL, roundTrip(a.staticData));
		expect(await deactivate(a, COPY_URL)).toBe('nothing');
		await register(TRIGGER_URL, COPY_URL, roundTrip(a.staticData));
		expect(await deactivate(b, TRIGGER_URL)).toBe('nothing');
		const again = await register(COPY_URL, TRIGGER_URL, roundTrip(b.staticData));
		expect(await deactivate(again, COPY_URL)).toBe(TRIGGER_URL);
	});

	it('A deactivated, activated again over B, B deactivated, then A: the company’s own URL comes back', async () => {
		const a = await register(TRIGGER_URL, OWN_URL);
		const b = await register(COPY_URL, TRIGGER_URL, roundTrip(a.staticData));
		expect(await deactivate(a, COPY_URL)).toBe('nothing');
		const a2 = await register(TRIGGER_URL, COPY_URL, roundTrip(a.staticData));
		expect(await deactivate(b, TRIGGER_URL)).toBe('nothing');
		expect(await deactivate(a2, TRIGGER_URL)).toBe(OWN_URL);
	});

	it('A registered again over B while both are active: A puts back B, then B the company’s own URL', async () => {
		const a = await register(TRIGGER_URL, OWN_URL);
		const b = await register(COPY_URL, TRIGGER_URL, roundTrip(a.staticData));
		const a2 = await register(TRIGGER_URL, COPY_URL, roundTrip(a.staticData));
		expect(await deactivate(a2, TRIGGER_URL)).toBe(COPY_URL);
		expect(await deactivate(b, COPY_URL)).toBe(OWN_URL);
	});

	it('three copies in a chain, deactivated out of order: the company’s own URL comes back', async () => {
		const third = 'https://n8n.example.com/webhook/third-copy/webhook';
		const a = await register(TRIGGER_URL, OWN_URL);
		const b = await register(COPY_URL, TRIGGER_URL, roundTrip(a.staticData));
		expect(await deactivate(a, COPY_URL)).toBe('nothing');
		const a2 = await register(TRIGGER_URL, COPY_URL, roundTrip(a.staticData));
		const c = await register(third, TRIGGER_URL, roundTrip(a2.staticData));
		expect(await deactivate(a2, third)).toBe('nothing');
		expect(await deactivate(b, third)).toBe('nothing');
		expect(await deactivate(c, third)).toBe(OWN_URL);
	});

	it('the documented limit: an n8n restart between the two deactivations leaves A’s URL', async () => {
		const a = await register(TRIGGER_URL, OWN_URL);
		const b = await register(COPY_URL, TRIGGER_URL, roundTrip(a.staticData));
		expect(await deactivate(a, COPY_URL)).toBe('nothing');
		clearHandedOver(); // what a restart forgets
		expect(await deactivate(b, COPY_URL)).toBe(TRIGGER_URL);
	});
});
