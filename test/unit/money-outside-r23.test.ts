import nock from 'nock';
import type { IDataObject, INode } from 'n8n-workflow';

import { CompanyPayments } from '../../nodes/CompanyPayments/CompanyPayments.node';
import { paymentWaits } from '../../nodes/shared/money/claim';
import { forgetAllSentWrites } from '../../nodes/shared/money/write';
import { BASE_URL, createContext, toolContext } from './helpers/n8n';
import type { ContextOptions } from './helpers/n8n';

/*
 * The twenty-third outside read of the money module (/work/outside/r23-money/):
 * F1  Pay QR Code, two runs at once under one payment reference or Idempotency Key, the first
 *     accept's answer lost: the second run prepared its own quote while the first was still
 *     preparing, waited on the first accept, then accepted its NEW quote under the same key (two
 *     orders where the service replays a key only for the same request). A run now claims its
 *     key before it prepares (money/claim.ts): the second decides from the first's result.
 * F2  The first accept answered: the second run output the first's order with its own quote,
 *     which was never accepted. It now outputs the quote that became the order.
 * Observation: an order answered in a status the document does not list (cancelled, rejected,
 *     refunded) was a plain success in a workflow and unknown as a tool: unknown in both now.
 */

const QUOTES = ['3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b', '9a7b1c2d-3e4f-4a6b-8c1e-5d4a3f2b4e6f'];
const QR = 'https://qr.nspk.ru/AD10006M?type=02&bank=100000000111&sum=50000&cur=RUB&crc=AB75';

const reset = (): Error => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
const quote = (id: string): IDataObject => ({
	id,
	amountRub: 500,
	amountUsdt: 5.5,
	merchantName: 'Shop',
	createdAt: new Date().toISOString(),
});
const order = (id: string, status = 'created'): IDataObject => ({
	id,
	amountRub: 500,
	amountUsdt: 5.5,
	merchantName: 'Shop',
	status,
	paymentType: 'nspk',
	externalOrderId: null,
	failureReason: status === 'created' ? null : 'declined',
	createdAt: new Date(Date.now() + 1000).toISOString(),
});


/**
 * The stand-in service: each prepare makes the next quote; the first prepare's answer is held until
 * a second run is under way (its own prepare arrived, or it waits on the first run's claim), so the
 * two runs overlap as they did for the reader. Accept makes one order per key and quote (a service
 * that replays only the same request) and answers the first by `firstAccept`.
 */
function service(firstAccept: 'lost' | 'ok' | 'refused') {
	const prepared: string[] = [];
	const accepted: Array<{ quoteId: string; key: string }> = [];
	const orders = new Map<string, IDataObject>();
	let secondPrepare = (): void => undefined;
	const secondPrepared = new Promise<void>((resolve) => {
		secondPrepare = resolve;
	});
	nock(BASE_URL)
		.persist()
		.post('/orders/prepare')
		.reply(function (_uri, _body, callback) {
			const id = QUOTES[prepared.length] ?? `quote-${prepared.length}`;
			prepared.push(id);
			if (prepared.length > 1) secondPrepare();
			// The first prepare answers once the second run is under way: its own prepare came, or it
			// waits on the first run's claim of the key.
			const held = prepared.length === 1 ? Promise.race([secondPrepared, paymentWaits()]) : null;
			void (held ?? Promise.resolve()).then(() => callback(null, [200, quote(id)]));
		});
	nock(BASE_URL)
		.persist()
		.post(/\/orders\/accept\//)
		.reply(function (uri, _body, callback) {
			const quoteId = uri.split('/').pop() as string;
			const key = String(this.req.headers['idempotency-key']);
			accepted.push({ quoteId, key });
			const stored = orders.get(`${key} ${quoteId}`);
			if (stored) return callback(null, [200, stored]);
			if (accepted.length === 1 && firstAccept === 'refused') {
				return callback(null, [
					422,
					{ statusCode: 422, error: 'x', errorCode: 'QUOTE_EXPIRED', message: 'expired' },
				]);
			}
			const made = order(`order-${orders.size + 1}`);
			orders.set(`${key} ${quoteId}`, made);
			if (orders.size === 1 && firstAccept === 'lost') return callback(reset(), [500, '']);
			return callback(null, [200, made]);
		});
	nock(BASE_URL)
		.persist()
		.get(/\/orders\/order-\d+$/)
		.reply(200, (uri) => [...orders.values()].find((o) => uri.endsWith(String(o.id))) ?? {});
	return { prepared, accepted, orders };
}

/** One run of the node (a tool when `tool`), continuing on fail, in this same process. */
async function run(
	options: Omit<ContextOptions, 'credentials'> & { tool?: boolean },
): Promise<IDataObject> {
	const contextOptions: ContextOptions = {
		...options,
		sameProcess: true,
		continueOnFail: true,
		credentials: {
			environment: 'staging',
			baseUrl: BASE_URL,
			apiKey: 'company-key-1',
			webhookSecret: '',
		},
	};
	const context = options.tool ? toolContext(contextOptions) : createContext(contextOptions);
	(context.getNode() as INode).credentials = { companyPaymentsApi: { id: 'cred-1', name: 'P' } };
	const result = await new CompanyPayments().execute.call(context);
	return result[0][0].json;
}

const toolCall = {
	resource: 'order',
	operation: 'pay',
	qrCode: QR,
	paymentReference: 'INV-777',
	agentMayMoveMoney: true,
};
const workflowCall = { resource: 'order', operation: 'pay', qrCode: QR, idempotencyKey: 'INV-777' };

/** What an item or a tool answer says of its payment. */
function outcomeOf(json: IDataObject): unknown {
	const error = json.error as IDataObject | undefined;
	if (typeof error === 'object' && error !== null && 'paymentOutcome' in error) {
		return error.paymentOutcome;
	}
	return json.paymentOutcome ?? 'paid';
}

beforeAll(() => nock.disableNetConnect());
beforeEach(() => forgetAllSentWrites());
afterEach(() => nock.cleanAll());

describe('r23-money F1: two Pay QR Code runs at once, the first accept answer lost', () => {
	it('as a tool: one quote accepted, one order; the second call is refused as PAYMENT_REFERENCE_PENDING', async () => {
		const seen = service('lost');
		const [a, b] = await Promise.all([
			run({ tool: true, parameters: toolCall, executionId: '3001' }),
			run({ tool: true, parameters: toolCall, executionId: '3002' }),
		]);
		expect(seen.orders.size).toBe(1);
		expect(new Set(seen.accepted.map((x) => x.quoteId))).toEqual(new Set([QUOTES[0]]));
		expect(outcomeOf(a)).toBe('unknown');
		expect((b.error as IDataObject).errorCode).toBe('PAYMENT_REFERENCE_PENDING');
		expect(seen.prepared).toEqual([QUOTES[0]]);
	});

	it('in a workflow under one Idempotency Key: the second run re-sends the first quote, never a new one', async () => {
		const seen = service('lost');
		const [a, b] = await Promise.all([
			run({ parameters: workflowCall, executionId: '3101' }),
			run({ parameters: workflowCall, executionId: '3102' }),
		]);
		expect(seen.orders.size).toBe(1);
		expect(seen.accepted.map((x) => x.quoteId)).toEqual([QUOTES[0], QUOTES[0]]);
		expect(new Set(seen.accepted.map((x) => x.key)).size).toBe(1);
		expect(outcomeOf(a)).toBe('unknown');
		// The re-send of the same request is replayed: the order the first accept made, its quote.
		expect(b.id).toBe('order-1');
		expect((b.quote as IDataObject).id).toBe(QUOTES[0]);
	});

	it('the first accept refused (not paid): the second run pays with a fresh quote of its own', async () => {
		const seen = service('refused');
		const [a, b] = await Promise.all([
			run({ parameters: workflowCall, executionId: '3201' }),
			run({ parameters: workflowCall, executionId: '3202' }),
		]);
		expect(outcomeOf(a)).toBe('not_paid');
		expect(seen.accepted.map((x) => x.quoteId)).toEqual([QUOTES[0], QUOTES[1]]);
		expect(b.id).toBe('order-1');
		expect((b.quote as IDataObject).id).toBe(QUOTES[1]);
		expect(seen.orders.size).toBe(1);
	});
});

describe('r23-money F2: the first accept answered, the second run outputs the quote that became the order', () => {
	it.each([
		['in a workflow', false, workflowCall],
		['as a tool', true, toolCall],
	])('%s: one order, and its quote is the one accepted', async (_how, tool, parameters) => {
		const seen = service('ok');
		const [a, b] = await Promise.all([
			run({ tool, parameters, executionId: '3301' }),
			run({ tool, parameters, executionId: '3302' }),
		]);
		expect(seen.orders.size).toBe(1);
		expect(a.id).toBe('order-1');
		expect(b.id).toBe('order-1');
		const accepted = new Set(seen.accepted.map((x) => x.quoteId));
		expect(accepted).toEqual(new Set([QUOTES[0]]));
		expect((a.quote as IDataObject).id).toBe(QUOTES[0]);
		expect((b.quote as IDataObject).id).toBe(QUOTES[0]);
	});
});

describe('r23-money observation: an order status the document does not list', () => {
	const statuses = ['cancelled', 'rejected', 'refunded', 'on_hold'];
	it.each(statuses.flatMap((status) => [
		[status, 'pay'],
		[status, 'accept'],
	]))('accepted in status %s (%s, workflow): unknown with its sentWrite, never a success', async (status, operation) => {
		nock(BASE_URL).post('/orders/prepare').reply(200, quote(QUOTES[0]));
		nock(BASE_URL)
			.post(`/orders/accept/${QUOTES[0]}`)
			.reply(200, order('order-9', status));
		const parameters =
			operation === 'pay'
				? { resource: 'order', operation, qrCode: QR, idempotencyKey: `u-${status}` }
				: { resource: 'order', operation, quoteId: QUOTES[0] };
		const item = await run({ parameters, executionId: '3401' });
		expect(item.paymentOutcome).toBe('unknown');
		expect(item.errorCode).toBe('OUTCOME_UNKNOWN');
		expect(item.sentWrite).toBeDefined();
		expect(String(item.error)).not.toBe('');
	});

	it.each(['created', 'in_progress', 'success'])(
		'accepted in the listed status %s: a plain success',
		async (status) => {
			nock(BASE_URL).post('/orders/prepare').reply(200, quote(QUOTES[0]));
			nock(BASE_URL)
				.post(`/orders/accept/${QUOTES[0]}`)
				.reply(200, order('order-9', status));
			const item = await run({
				parameters: { resource: 'order', operation: 'pay', qrCode: QR, idempotencyKey: 'listed' },
				executionId: '3501',
			});
			expect(item.id).toBe('order-9');
			expect(item.paymentOutcome).toBeUndefined();
		},
	);
});
