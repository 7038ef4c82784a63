import nock from 'nock';
import type { IDataObject, INode } from 'n8n-workflow';

import { CompanyPayments } from '../../nodes/CompanyPayments/CompanyPayments.node';
import { BASE_URL, createContext, toolContext } from './helpers/n8n';
import type { ContextOptions } from './helpers/n8n';

/*
 * Outside round r4-money-resend: an item is judged over every attempt this n8n process knows of
 * (a refusal of a re-send after a lost answer is unknown, and never erases it), a re-send is the
 * identical request on every later try (the quote first accepted under a key is kept until the
 * payment is decided), the memory of sent writes follows the company (a key this node's
 * Regenerate API Key issued keeps it: outside r11-money F1), and the texts name what holds in another process.
 */

const QUOTE_A = '3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b';
const QUOTE_B = '9a7b1c2d-3e4f-4a6b-8c1e-5d4a3f2b4e6f';
const QR = 'https://qr.nspk.ru/AS10001?type=02&sum=150000&cur=RUB';

const reset = (): Error => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
const refusal = (status: number, errorCode: string): IDataObject => ({
	statusCode: status,
	error: 'Error',
	errorCode,
	message: 'отказ',
});
const order = (id: string): IDataObject => ({
	id,
	status: 'created',
	amountRub: 1500,
	amountUsdt: 16.5,
	merchantName: 'Кофейня',
	createdAt: new Date().toISOString(),
});
const quote = (id: string): IDataObject => ({
	id,
	amountRub: 1500,
	amountUsdt: 16.5,
	merchantName: 'Кофейня',
	createdAt: new Date().toISOString(),
});

type Reply = [number, IDataObject | string, IDataObject?] | Error;

/** Answers every request to paths matching `path`; `seen` holds each one's path and key. */
function serve(method: 'post' | 'get', path: RegExp, answer: (n: number, uri: string) => Reply) {
	const seen: Array<{ uri: string; key: unknown }> = [];
	const scope = nock(BASE_URL).persist();
	const interceptor = method === 'post' ? scope.post(path) : scope.get(path);
	interceptor.reply(function (uri, _body, callback) {
		seen.push({ uri, key: this.req.headers['idempotency-key'] });
		const reply = answer(seen.length, uri);
		if (reply instanceof Error) callback(reply, [500, '']);
		else callback(null, [reply[0], reply[1], (reply[2] ?? {}) as Record<string, string>]);
	});
	return seen;
}

const API = { environment: 'staging', baseUrl: BASE_URL, webhookSecret: '' };

/** One run of the node (a tool when `tool`), its credential `credentialId` holding `apiKey`. */
async function run(
	options: Omit<ContextOptions, 'credentials'> & {
		tool?: boolean;
		credentialId?: string;
		apiKey?: string;
	},
): Promise<IDataObject[]> {
	const contextOptions: ContextOptions = {
		...options,
		continueOnFail: true,
		credentials: { ...API, apiKey: options.apiKey ?? 'company-key-1' },
	};
	const context = options.tool ? toolContext(contextOptions) : createContext(contextOptions);
	const node = context.getNode() as INode;
	node.credentials = { companyPaymentsApi: { id: options.credentialId ?? 'cred-1', name: 'Pay' } };
	const result = await new CompanyPayments().execute.call(context);
	return result[0].map((item) => item.json);
}

/** The outcome an item (or a tool's answer) says. */
function outcomeOf(json: IDataObject): unknown {
	const error = json.error as IDataObject | undefined;
	if (typeof error === 'object' && error !== null && 'paymentOutcome' in error) {
		return error.paymentOutcome;
	}
	return json.paymentOutcome ?? 'paid';
}

const acceptParams = { resource: 'order', operation: 'accept', quoteId: QUOTE_A };
const payParams = (more: IDataObject = {}) => ({
	resource: 'order',
	operation: 'pay',
	qrCode: QR,
	...more,
});

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
	nock.cleanAll();
	jest.restoreAllMocks();
});

describe('r4 F1: a refusal of a re-send after a lost answer is unknown, and never erases it', () => {
	const refusals: Array<[string, Reply]> = [
		['the service 429', [429, refusal(429, 'TOO_MANY_REQUESTS'), { 'retry-after': '30' }]],
		['422 INSUFFICIENT_BALANCE', [422, refusal(422, 'INSUFFICIENT_BALANCE')]],
	];
	it.each(refusals)(
		'Accept Quote, Retry On Fail re-send refused by %s: unknown, then unknown again',
		async (_what, refused) => {
			const seen = serve('post', /\/orders\/accept\//, (n) => (n === 1 ? reset() : refused));
			const first = await run({ parameters: acceptParams });
			expect(outcomeOf(first[0])).toBe('unknown');
			const second = await run({ parameters: acceptParams, sameProcess: true });
			expect(seen.length).toBeGreaterThanOrEqual(2);
			expect(outcomeOf(second[0])).toBe('unknown');
			expect(second[0].errorCode).toBe('OUTCOME_UNKNOWN');
			expect(second[0].sentWrite).toBeDefined();
			// The not_paid of the re-send did not erase the first lost answer: a third try is unknown too.
			const third = await run({ parameters: acceptParams, sameProcess: true });
			expect(outcomeOf(third[0])).toBe('unknown');
		},
	);

	it.each(refusals)(
		'Pay QR Code, Retry On Fail re-send refused by %s: unknown',
		async (_what, refused) => {
			serve('post', /\/orders\/prepare/, () => [200, quote(QUOTE_A)]);
			const accepts = serve('post', /\/orders\/accept\//, (n) => (n === 1 ? reset() : refused));
			expect(outcomeOf((await run({ parameters: payParams() }))[0])).toBe('unknown');
			const second = await run({ parameters: payParams(), sameProcess: true });
			expect(accepts.length).toBeGreaterThanOrEqual(2);
			expect(outcomeOf(second[0])).toBe('unknown');
			expect(second[0].sentWrite).toBeDefined();
		},
	);

	it('a first send refused 429 is still not_paid', async () => {
		serve('post', /\/orders\/accept\//, () => [429, refusal(429, 'TOO_MANY_REQUESTS')]);
		expect(outcomeOf((await run({ parameters: acceptParams }))[0])).toBe('not_paid');
	});
});

describe('r4 F2/F4: every later try of an item re-sends the quote first accepted under its key', () => {
	it('Pay QR Code, three Retry On Fail tries: one prepare, every accept for quote A under one key', async () => {
		const prepares = serve('post', /\/orders\/prepare/, (n) => [
			200,
			quote(n === 1 ? QUOTE_A : QUOTE_B),
		]);
		const accepts = serve('post', /\/orders\/accept\//, (n, uri) =>
			n <= 2 ? reset() : [200, order(uri.endsWith(QUOTE_A) ? 'order-a' : 'order-b')],
		);
		const params = payParams({ idempotencyKey: 'INV-1042' });
		const outcomes = [];
		for (let attempt = 0; attempt < 3; attempt++) {
			const [json] = await run({ parameters: params, sameProcess: attempt > 0 });
			outcomes.push(outcomeOf(json));
		}
		expect(outcomes).toEqual(['unknown', 'unknown', 'paid']);
		expect(prepares.length).toBe(1);
		expect(accepts.map((a) => a.uri.split('/').pop())).toEqual([QUOTE_A, QUOTE_A, QUOTE_A]);
		expect(new Set(accepts.map((a) => a.key)).size).toBe(1);
	});

	it('the tool, three calls with one reference after lookAgainAt: every accept is for quote A', async () => {
		serve('post', /\/orders\/prepare/, (n) => [200, quote(n === 1 ? QUOTE_A : QUOTE_B)]);
		const accepts = serve('post', /\/orders\/accept\//, (n) =>
			n <= 2 ? reset() : [200, order('order-a')],
		);
		serve('get', /\/orders/, () => [200, order('order-a')]);
		let shift = 0;
		const realNow = Date.now.bind(Date);
		jest.spyOn(Date, 'now').mockImplementation(() => realNow() + shift);
		const params = payParams({ paymentReference: 'INV-1042', agentMayMoveMoney: true });
		for (let call = 0; call < 3; call++) {
			await run({
				parameters: params,
				tool: true,
				sameProcess: call > 0,
				executionId: `agent-${call}`,
			});
			shift += 6 * 60_000;
		}
		expect(accepts.map((a) => a.uri.split('/').pop())).toEqual([QUOTE_A, QUOTE_A, QUOTE_A]);
	});
});

/** Company > Regenerate API Key sent with `from`, answered with `to` (the same company's new key). */
async function regenerate(from: string, to: string): Promise<void> {
	nock(BASE_URL).post('/auth/company/regenerate-key').reply(200, { apiKey: to });
	await run({
		parameters: { resource: 'company', operation: 'regenerateApiKey' },
		apiKey: from,
		sameProcess: true,
	});
}

describe("r4 F5: the memory of sent writes follows the company, through this node's Regenerate API Key", () => {
	const payout = {
		resource: 'payout',
		operation: 'create',
		amountRub: 1500,
		requisiteType: 'card',
		requisite: '2200123456789012',
		idempotencyKey: 'PAYROLL-7',
	};
	it('Payout Create re-run after Regenerate API Key gave the credential a new key: not sent again, unknown', async () => {
		const writes = serve('post', /\/payouts/, () => reset());
		expect(outcomeOf((await run({ parameters: payout, apiKey: 'key-old' }))[0])).toBe('unknown');
		await regenerate('key-old', 'key-new');
		const again = await run({ parameters: payout, apiKey: 'key-new', sameProcess: true });
		expect(writes.length).toBe(1);
		expect(outcomeOf(again[0])).toBe('unknown');
	});

	it('another credential (another member) is another memory: sent', async () => {
		const writes = serve('post', /\/payouts/, () => reset());
		await run({ parameters: payout, apiKey: 'key-a' });
		await run({ parameters: payout, apiKey: 'key-b', credentialId: 'cred-2', sameProcess: true });
		expect(writes.length).toBe(2);
	});

	it('the tool Card Recharge after lookAgainAt with a key Regenerate API Key issued: not sent again', async () => {
		const writes = serve('post', /\/cards\//, () => reset());
		serve('get', /\/cards/, () => [200, { cards: [], total: 0 }]);
		let shift = 0;
		const realNow = Date.now.bind(Date);
		jest.spyOn(Date, 'now').mockImplementation(() => realNow() + shift);
		const params = {
			resource: 'card',
			operation: 'recharge',
			cardId: 'card_1',
			targetAmount: '100',
			paymentReference: 'TOPUP-5',
			agentMayMoveMoney: true,
		};
		await run({ parameters: params, tool: true, apiKey: 'key-old' });
		await regenerate('key-old', 'key-new');
		shift += 6 * 60_000;
		const [again] = await run({
			parameters: params,
			tool: true,
			apiKey: 'key-new',
			sameProcess: true,
		});
		expect(writes.length).toBe(1);
		expect(outcomeOf(again)).toBe('unknown');
	});
});

describe('r4 F3: the texts of Pay QR Code name what another process does', () => {
	it('an unknown Pay QR Code with a set key does not call a run in another process safe', async () => {
		serve('post', /\/orders\/prepare/, () => [200, quote(QUOTE_A)]);
		serve('post', /\/orders\/accept\//, () => reset());
		const [json] = await run({ parameters: payParams({ idempotencyKey: 'INV-1042' }) });
		const text = `${String(json.error)} ${String(json.description)}`;
		expect(text).not.toMatch(/is safe/);
		expect(text).not.toMatch(/nothing is paid twice/);
		expect(text).toMatch(/another n8n process/);
		expect(text).toMatch(/new quote/);
	});

	it('Accept Quote still says a run with the same key and quote is answered with the stored result', async () => {
		serve('post', /\/orders\/accept\//, () => reset());
		const [json] = await run({ parameters: acceptParams });
		expect(String(json.description)).toMatch(/same Quote ID/);
	});
});
