import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { BASE_URL, runTool } from './helpers/n8n';

/*
 * Promises the mechanism keeps (issue 49.3): after an unknown outcome the tool refuses a new send
 * under that reference until lookAgainAt and tells the model to resolve first; a refunded payment
 * is reported as refunded, never "already made".
 */

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const CALL = {
	resource: 'payout',
	operation: 'create',
	amountRub: '45000',
	requisiteType: 'card',
	requisite: '2200701234565678',
	agentMayMoveMoney: true,
	paymentReference: 'INV-8001',
};

function listing(records: object[]) {
	nock(BASE_URL)
		.get('/payouts')
		.query((q) => q.externalId === 'inv-8001')
		.reply(200, { payouts: records, total: records.length });
}

function payout(more: object = {}) {
	return {
		id: 'po-8001',
		externalId: 'inv-8001',
		status: 'success',
		amountRub: 45000,
		requisiteType: 'card',
		requisite: '2200701234565678',
		createdAt: new Date(Date.now() + 1000).toISOString(),
		refundedAt: null,
		...more,
	};
}

describe('after an unknown outcome', () => {
	it('a second call with the reference in the same process, while the listing lags, sends nothing and says to resolve first', async () => {
		listing([]);
		nock(BASE_URL).post('/payouts').reply(502, '<html>502</html>');
		const first = await runTool({ parameters: CALL });
		const firstError = first.output[0].error as IDataObject;
		expect(firstError.paymentOutcome).toBe('unknown');
		expect(String(firstError.whatToDo)).toMatch(/Resolve Outcome/);
		// The listing still lags: nothing shows the payout yet.
		listing([]);
		const second = await runTool({ parameters: CALL, sameProcess: true });
		const error = second.output[0].error as IDataObject;
		expect(error.errorCode).toBe('PAYMENT_REFERENCE_PENDING');
		expect(error.whatToDo).toMatch(/Resolve Outcome/);
		expect(Date.parse(String(error.lookAgainAt))).toBeGreaterThan(Date.now());
		expect(second.context.requests.map((r) => r.method)).toEqual(['GET']);
		expect(nock.isDone()).toBe(true);
	});

	it('once the listing shows the payout, the same reference answers with it (nothing sent)', async () => {
		listing([]);
		nock(BASE_URL).post('/payouts').reply(502, '<html>502</html>');
		await runTool({ parameters: CALL });
		listing([payout()]);
		const again = await runTool({ parameters: CALL, sameProcess: true });
		expect(again.output[0].repeated).toBe(true);
		expect(again.context.requests.every((r) => r.method === 'GET')).toBe(true);
	});

	it('Resolve Outcome deciding not_paid lets the reference be sent again before lookAgainAt', async () => {
		nock(BASE_URL).post('/payouts/po_9/cancel').reply(502, '<html>502</html>');
		const cancel = { ...CALL, resource: 'payout', operation: 'cancel', payoutId: 'po_9' };
		const first = await runTool({ parameters: cancel });
		const unknown = first.output[0].error as IDataObject;
		expect(unknown.paymentOutcome).toBe('unknown');
		const blocked = await runTool({ parameters: cancel, sameProcess: true });
		expect((blocked.output[0].error as IDataObject).errorCode).toBe('PAYMENT_REFERENCE_PENDING');
		// Resolve: an executor took the payout, the cancel did not act.
		nock(BASE_URL)
			.get('/payouts/po_9')
			.reply(200, { id: 'po_9', status: 'in_progress', createdAt: new Date().toISOString() });
		const resolved = await runTool({
			parameters: {
				resource: 'payment',
				operation: 'resolveOutcome',
				unknownItem: JSON.stringify(first.output[0]),
			},
			sameProcess: true,
		});
		expect(resolved.output[0].paymentOutcome).toBe('not_paid');
		nock(BASE_URL)
			.post('/payouts/po_9/cancel')
			.reply(409, { errorCode: 'PAYOUT_NOT_CANCELABLE', message: 'нельзя' });
		const again = await runTool({ parameters: cancel, sameProcess: true });
		expect((again.output[0].error as IDataObject).errorCode).toBe('PAYOUT_NOT_CANCELABLE');
	});
});

describe('a refunded payment', () => {
	it('is reported as refunded with what a new payment needs, never "already made"', async () => {
		listing([
			payout({
				status: 'fail',
				failReason: 'no_traders',
				refundedAt: new Date(Date.now() + 60_000).toISOString(),
			}),
		]);
		nock(BASE_URL)
			.get('/payouts/po-8001')
			.reply(
				200,
				payout({
					status: 'fail',
					failReason: 'no_traders',
					refundedAt: new Date(Date.now() + 60_000).toISOString(),
				}),
			);
		const { output, context } = await runTool({ parameters: CALL });
		const error = output[0].error as IDataObject;
		expect(error.errorCode).toBe('PAYMENT_REFERENCE_REFUNDED');
		expect(error.alreadyMade).toBe('refunded');
		expect(JSON.stringify(output[0])).not.toMatch(/already made/);
		expect(error.whatToDo).toMatch(/new reference/);
		expect(context.requests.every((r) => r.method === 'GET')).toBe(true);
	});

	it('a paid one is still "already made"', async () => {
		listing([payout()]);
		const { output } = await runTool({ parameters: CALL });
		expect(output[0].repeated).toBe(true);
		expect(String(output[0].note)).toMatch(/already made/);
	});
});
