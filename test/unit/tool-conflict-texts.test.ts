import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { toolCatalog } from '../../nodes/CompanyPayments/tool';
import { BASE_URL, runTool } from './helpers/n8n';
import type { ContextOptions } from './helpers/n8n';

/*
 * What a tool's description promises about a payment reference used again with other details,
 * checked against the answer the model gets (outside r6-money-b F2). The second call is refused by
 * this process's memory of sent writes before anything is sent: the answer must be the conflict the
 * text names (PAYMENT_REFERENCE_CONFLICT, nothing new paid), naming the earlier payment where the
 * text says it does, with advice a model can follow: never the workflow's Idempotency Key field.
 */
const Q1 = '11111111-1111-4111-8111-111111111111';
const Q2 = '22222222-2222-4222-8222-222222222222';

async function callTool(parameters: IDataObject, options: Partial<ContextOptions> = {}) {
	const { output, context } = await runTool({ parameters, ...options });
	return { json: output[0], requests: context.requests };
}

/** A stand-in service answering each money write with one record (no replay by key). */
function service(): void {
	const order = {
		id: 'o-1',
		status: 'created',
		amountRub: 100,
		amountUsdt: 1.1,
		merchantName: 'M',
	};
	let quotes = 0;
	nock(BASE_URL)
		.persist()
		.post('/cards/recharge')
		.reply(200, (_uri, body) => ({ id: 'rc-1', ...(body as IDataObject) }))
		.post('/orders/prepare')
		.reply(200, (_uri, body) => {
			quotes += 1;
			const qr = (body as IDataObject).qrCode;
			return {
				id: `3333333${quotes}-3333-4333-8333-333333333333`,
				amountRub: qr === 'QR1' ? 100 : 250,
				merchantName: 'M',
			};
		})
		.post(/^\/orders\/accept\//)
		.reply(200, order)
		.get(/^\/orders\//)
		.reply(200, order)
		.post(/^\/payouts\/[^/]+\/cancel$/)
		.reply(200, (uri) => ({
			id: uri.split('/')[2],
			status: 'fail',
			failReason: 'cancelled_by_merchant',
			// Cancelled as the cancel is answered: the refund dates the cancel (r16-money F1).
			refundedAt: new Date().toISOString(),
		}))
		.get(/^\/payouts\/[^/]+$/)
		.reply(200, (uri) => ({
			id: uri.split('/')[2],
			status: 'fail',
			failReason: 'cancelled_by_merchant',
			// Cancelled as the cancel is answered: the refund dates the cancel (r16-money F1).
			refundedAt: new Date().toISOString(),
		}))
		.get(/.*/)
		.reply(200, {});
}

const rl = (value: string) => ({ __rl: true, mode: 'id', value });
const MONEY = { agentMayMoveMoney: true, paymentReference: 'INV-77' };

/** Each tool: its first call, and a second under the same reference with other details. */
const CASES: Array<{ tool: string; first: IDataObject; second: IDataObject; earlierId: string }> = [
	{
		tool: 'card.recharge',
		first: { cardId: rl('card-1'), targetAmount: '10' },
		second: { cardId: rl('card-1'), targetAmount: '25' },
		earlierId: 'rc-1',
	},
	{ tool: 'order.pay', first: { qrCode: 'QR1' }, second: { qrCode: 'QR2' }, earlierId: 'o-1' },
	{ tool: 'order.accept', first: { quoteId: Q1 }, second: { quoteId: Q2 }, earlierId: 'o-1' },
	{
		tool: 'payout.cancel',
		first: { payoutId: rl('po-1') },
		second: { payoutId: rl('po-2') },
		earlierId: 'po-1',
	},
];

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe('a reference used again with other details is answered as the tool text says', () => {
	it.each(CASES)('$tool', async ({ tool, first, second, earlierId }) => {
		const text = toolCatalog()[tool].text;
		// Every one of these texts promises a conflict for the same reference with other details.
		expect(text).toMatch(/refused as a conflict|PAYMENT_REFERENCE_CONFLICT/);
		service();
		const [resource, operation] = tool.split('.');
		const base = { resource, operation, ...MONEY };
		const a = await callTool({ ...base, ...first }, { executionId: 'call-1' });
		expect(a.json.error).toBeUndefined();
		const b = await callTool({ ...base, ...second }, { executionId: 'call-2', sameProcess: true });
		const error = b.json.error as IDataObject;
		expect(
			b.requests.filter((r) => r.method === 'POST' && /cancel|accept|recharge/.test(String(r.url))),
		).toHaveLength(0);
		expect(error.errorCode).toBe('PAYMENT_REFERENCE_CONFLICT');
		expect(error.paymentOutcome).toBe('not_paid');
		// At the top level too, as every failed tool call has them.
		expect(b.json.errorCode).toBe('PAYMENT_REFERENCE_CONFLICT');
		expect(b.json.paymentOutcome).toBe('not_paid');
		// What differs is named, never "details" alone.
		expect((error.differences as IDataObject[])[0].field).not.toBe('details');
		// A text that says the earlier payment is named, or answered with, gets its ID.
		if (/naming it|answered with that earlier order|conflict/.test(text)) {
			expect(error.existingPaymentId).toBe(earlierId);
		}
		// Advice for a model: the same details, ask the person for a correction, never a new reference.
		const todo = String(error.whatToDo);
		expect(todo).not.toMatch(/Idempotency Key|leave the field empty/);
		expect(todo).toMatch(/exactly its earlier details/);
		expect(todo).toMatch(/ask/);
		expect(todo).toMatch(/Never invent a reference/);
		expect(JSON.stringify(b.json)).not.toMatch(/Idempotency Key \(e\.g\./);
	});
});
