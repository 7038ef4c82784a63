import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { recharge } from '../../nodes/CompanyPayments/card/recharge.operation';
import { accept as acceptOperation } from '../../nodes/CompanyPayments/order/accept.operation';
import { RECHARGE_LIMIT } from '../../nodes/CompanyPayments/common/words';
import { BASE_URL, runNode, runNodeError, runTool } from './helpers/n8n';
import type { ContextOptions } from './helpers/n8n';
import { madeNow } from './helpers/money';

/**
 * The outside money test's findings (/work/outside/money/REPORT.md), written before the fixes:
 * a listing that does not show the field a lookup reads proves no absence (F2); an order the
 * service replays for a reused key or reference is never this quote's payment without evidence
 * (F4, F6).
 */
/** A run as an AI agent's tool (the shared runTool) or as a workflow node: each item's JSON. */
async function run(options: ContextOptions, tool: boolean): Promise<IDataObject[]> {
	if (tool) return (await runTool(options)).output;
	return (await runNode(options)).output.map((item) => item.json);
}

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const PAYOUT = {
	id: 'po-42',
	externalId: 'payroll-2026-11-42',
	status: 'waiting_trader',
	amountRub: 1500,
	chargedUsdt: 15,
	rate: 100,
	requisiteType: 'card',
	requisite: '2200701234565678',
	bankId: null,
	bank: null,
	recipientFirstName: null,
	recipientLastName: null,
	// Made near the send: a record made well before it proves no Create (money/binding.ts).
	createdAt: madeNow(),
};

/** The record as a listing that does not show the External ID gives it. */
function withoutExternalId(record: IDataObject): IDataObject {
	const rest = { ...record };
	delete rest.externalId;
	return rest;
}

function toolPayout() {
	return run(
		{
			parameters: {
				resource: 'payout',
				operation: 'create',
				amountRub: '1500',
				requisiteType: 'card',
				requisite: '2200 7012 3456 5678',
				agentMayMoveMoney: true,
				paymentReference: 'PAYROLL-2026-11-42',
			},
		},
		true,
	);
}

describe('F2: a payout listing that does not show externalId proves no absence', () => {
	it('records without externalId: unproven, nothing sent, never a second payout', async () => {
		const listed = withoutExternalId(PAYOUT);
		nock(BASE_URL)
			.get('/payouts')
			.query(true)
			.reply(200, { payouts: [listed], total: 1 });
		// The record read in full does not show it either.
		nock(BASE_URL).get('/payouts/po-42').reply(200, listed);
		let created = 0;
		nock(BASE_URL)
			.post('/payouts')
			.reply(201, () => {
				created++;
				return PAYOUT;
			});
		const output = await toolPayout();
		expect(created).toBe(0);
		const text = JSON.stringify(output[0]);
		expect(text).toMatch(/PAYMENT_REFERENCE_UNPROVEN/);
		expect(text).toMatch(/externalId/);
		expect(output[0].repeated).toBeUndefined();
	});

	it('a record whose listing hides externalId but whose full record carries it is this payout', async () => {
		const listed = withoutExternalId(PAYOUT);
		nock(BASE_URL)
			.get('/payouts')
			.query(true)
			.reply(200, { payouts: [listed], total: 1 });
		nock(BASE_URL).get('/payouts/po-42').reply(200, PAYOUT);
		const output = await toolPayout();
		expect(output[0].repeated).toBe(true);
		expect(output[0].id).toBe('po-42');
	});

	it('records that show externalId null (payouts made without one, a filter ignored) are absence too', async () => {
		nock(BASE_URL)
			.get('/payouts')
			.query(true)
			.reply(200, { payouts: [{ ...PAYOUT, id: 'po-1', externalId: null }], total: 1 });
		const post = nock(BASE_URL).post('/payouts').reply(201, PAYOUT);
		const output = await toolPayout();
		expect(post.isDone()).toBe(true);
		expect(output[0].id).toBe('po-42');
	});

	it('an empty listing, or records showing other External IDs, is absence: the payout is sent', async () => {
		nock(BASE_URL)
			.get('/payouts')
			.query(true)
			.reply(200, { payouts: [{ ...PAYOUT, id: 'po-1', externalId: 'other' }], total: 1 });
		const post = nock(BASE_URL).post('/payouts').reply(201, PAYOUT);
		const output = await toolPayout();
		expect(post.isDone()).toBe(true);
		expect(output[0].id).toBe('po-42');
		expect(output[0].repeated).toBeUndefined();
	});
});

const QUOTE = { id: '33333333-3333-4333-8333-333333333333', amountRub: 500, merchantName: 'GIBDD' };
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
/** Order A, paid earlier under the key or reference that is now reused for another QR code. */
function orderA(createdAt: string) {
	return {
		id: 'order-a',
		amountUsdt: 5,
		amountRub: 500,
		status: 'created',
		paymentType: 'gibdd_uin',
		paymentUntil: createdAt,
		merchantName: 'GIBDD',
		externalOrderId: null,
		createdAt,
	};
}

function payQr(quote: IDataObject, order: IDataObject, options: { tool: boolean; key?: string }) {
	nock(BASE_URL).post('/orders/prepare').reply(201, quote);
	nock(BASE_URL)
		.post(`/orders/accept/${String(quote.id)}`)
		.reply(200, order);
	const parameters: IDataObject = { resource: 'order', operation: 'pay', qrCode: 'QR-B' };
	if (options.tool)
		Object.assign(parameters, { agentMayMoveMoney: true, paymentReference: 'FINES-NOV' });
	if (options.key) parameters.idempotencyKey = options.key;
	return run({ parameters, continueOnFail: true }, options.tool);
}

describe('F4: Pay QR Code never reports an earlier order as this QR code paid', () => {
	// r1-money-resend F5/F9: decided by the details the order shows, never by a clock. The earlier order
	// here is of another amount than this call's quote.
	const other = (createdAt: string) => ({ ...orderA(createdAt), amountRub: 750 });

	it('workflow, reused Idempotency Key: an order of another amount than this quote is never this payment: unknown', async () => {
		const output = await payQr(QUOTE, other(minutesAgo(10)), { tool: false, key: 'INV-77' });
		expect(output[0].id).toBeUndefined();
		expect(output[0].paymentOutcome).toBe('unknown');
	});

	it('tool, reused reference, an order of another amount: PAYMENT_REFERENCE_CONFLICT naming it, unknown (never success, never a guessed not_paid)', async () => {
		const output = await payQr(QUOTE, other(minutesAgo(10)), { tool: true });
		const error = output[0].error as IDataObject;
		expect(error.errorCode).toBe('PAYMENT_REFERENCE_CONFLICT');
		expect(JSON.stringify(error)).toMatch(/order-a/);
		expect(error.paymentOutcome).toBe('unknown');
	});

	it('an order created before the quote (by its own time) whose details match is this payment (a re-run in another process), not IDEMPOTENCY_KEY_REUSED', async () => {
		const prepared = new Date(Date.now() - 20_000);
		const quote = { ...QUOTE, createdAt: prepared.toISOString() };
		const earlier = new Date(prepared.getTime() - 10 * 60_000).toISOString();
		const output = await payQr(quote, orderA(earlier), { tool: false, key: 'INV-77' });
		expect(output[0].id).toBe('order-a');
		expect(JSON.stringify(output[0])).not.toMatch(/IDEMPOTENCY_KEY_REUSED/);
	});

	it('tool, a quote that shows no amount or merchant: unknown, never success', async () => {
		const output = await payQr({ id: QUOTE.id }, orderA(new Date().toISOString()), { tool: true });
		const text = JSON.stringify(output[0]);
		expect(output[0].id).toBeUndefined();
		expect(text).toMatch(/"paymentOutcome":"unknown"/);
		expect(text).toMatch(/amountRub/);
	});

	it('a merchant shown as none (null) on the quote and the order is shown, and agrees', async () => {
		const order = { ...orderA(new Date().toISOString()), merchantName: null };
		const output = await payQr({ ...QUOTE, merchantName: null }, order, {
			tool: false,
			key: 'INV-80',
		});
		expect(output[0].id).toBe('order-a');
	});

	it('a fresh order under a key set by the user, details shown and agreeing, is this payment', async () => {
		const output = await payQr(QUOTE, orderA(new Date().toISOString()), {
			tool: false,
			key: 'INV-78',
		});
		expect(output[0].id).toBe('order-a');
	});

	it('Retry On Fail in the same process under a key set by the user: the older replayed order is this payment', async () => {
		const quote = { ...QUOTE, createdAt: new Date().toISOString() };
		const parameters = {
			resource: 'order',
			operation: 'pay',
			qrCode: 'QR-B',
			idempotencyKey: 'INV-79',
		};
		nock(BASE_URL).post('/orders/prepare').reply(201, quote);
		nock(BASE_URL).post(`/orders/accept/${QUOTE.id}`).reply(502, 'Bad Gateway');
		const first = await run({ parameters, continueOnFail: true }, false);
		expect(first[0].paymentOutcome).toBe('unknown');
		nock(BASE_URL).post('/orders/prepare').reply(201, quote);
		nock(BASE_URL)
			.post(`/orders/accept/${QUOTE.id}`)
			.reply(200, orderA(minutesAgo(10)));
		const retry = await run({ parameters, continueOnFail: true, sameProcess: true }, false);
		expect(retry[0].id).toBe('order-a');
	});

	it("a derived key (Retry On Fail replays the first run's order of this item) is not judged by time", async () => {
		const output = await payQr({ id: QUOTE.id }, orderA(minutesAgo(10)), { tool: false });
		expect(output[0].id).toBe('order-a');
	});
});

describe('F6: Accept Quote, which reads no quote, reports the order its key answers, whatever its time (r1-money-resend F9)', () => {
	const B = '22222222-2222-4222-8222-222222222222';
	function accept(order: IDataObject, tool: boolean, key?: string) {
		nock(BASE_URL).post(`/orders/accept/${B}`).reply(200, order);
		const parameters: IDataObject = { resource: 'order', operation: 'accept', quoteId: B };
		if (tool) Object.assign(parameters, { agentMayMoveMoney: true, paymentReference: 'ORDER-5' });
		if (key) parameters.idempotencyKey = key;
		return run({ parameters, continueOnFail: true }, tool);
	}

	it('tool: an older order (a service clock behind, an earlier attempt) is never called an earlier payment from a clock', async () => {
		const output = await accept(orderA(minutesAgo(10)), true);
		const text = JSON.stringify(output[0]);
		expect(text).not.toMatch(/PAYMENT_REFERENCE_CONFLICT/);
		expect(text).not.toMatch(/"paymentOutcome":"not_paid"/);
	});

	it('workflow, Idempotency Key set, an older order: the order, not IDEMPOTENCY_KEY_REUSED', async () => {
		const output = await accept(orderA(minutesAgo(10)), false, 'ORDER-5');
		expect(output[0].id).toBe('order-a');
		expect(JSON.stringify(output[0])).not.toMatch(/IDEMPOTENCY_KEY_REUSED/);
	});

	it('its tool text says a reference reused for another quote cannot be told apart', () => {
		expect(acceptOperation.tool?.text).toMatch(
			/cannot be told apart from this quote's: give each quote its own reference/,
		);
	});

	it("an order created just now is this quote's", async () => {
		const output = await accept(orderA(new Date().toISOString()), true);
		expect(output[0].id).toBe('order-a');
	});
});

describe('F1: Card Recharge as a tool promises only what the node can keep', () => {
	const text = recharge.tool?.text ?? '';

	it('its description does not promise that a repeated reference never pays twice', () => {
		expect(text).not.toMatch(/never pays twice/);
		expect(text).not.toMatch(/refused as a conflict, and nothing is paid/);
		expect(text).toContain(RECHARGE_LIMIT);
	});

	it('the limit says it holds within one n8n process only, and what to do after an unknown outcome', () => {
		expect(RECHARGE_LIMIT).toMatch(/only within (this|one) n8n process/);
		expect(RECHARGE_LIMIT).toMatch(/another queue-mode worker/);
		expect(RECHARGE_LIMIT).toMatch(/do not call it again/);
	});
	// docs/ai-agents.md says it word for word: test/docs/reference-rule.test.mjs.
});

describe('F5: a Retry of the execution forms new keys, and the failed item says so', () => {
	const cards = ['2200701111115678', '2200702222226789'];
	function twoPayouts(idempotencyKey?: string) {
		nock(BASE_URL)
			.post('/payouts', (body: IDataObject) => body.requisite === cards[0])
			.reply(201, { ...PAYOUT, requisite: cards[0] });
		nock(BASE_URL)
			.post('/payouts', (body: IDataObject) => body.requisite === cards[1])
			.reply(422, {
				statusCode: 422,
				error: 'Unprocessable Entity',
				errorCode: 'INSUFFICIENT_BALANCE',
				message: 'Insufficient balance',
			});
		return runNodeError({
			parameters: cards.map((requisite, i) => ({
				resource: 'payout',
				operation: 'create',
				amountRub: '1500',
				requisiteType: 'card',
				requisite,
				...(idempotencyKey ? { idempotencyKey: `${idempotencyKey}-${i}` } : {}),
			})),
		});
	}

	it('with derived keys: a Retry from the Executions list forms new keys and may pay item 0 again', async () => {
		const error = await twoPayouts();
		const text = String(error.description);
		expect(text).toMatch(/Retry of this execution/);
		expect(text).toMatch(/new execution ID/);
		expect(text).toMatch(/Idempotency Key to a business reference/);
		expect(text).toMatch(
			/https:\/\/www\.npmjs\.com\/package\/n8n-nodes-company-payments#operations/,
		);
	});

	it('with keys the user set, the note says the re-run sends the same keys', async () => {
		const error = await twoPayouts('INV-100');
		const text = String(error.description);
		expect(text).not.toMatch(/new execution ID/);
		expect(text).toMatch(/same Idempotency Key/);
	});
});
