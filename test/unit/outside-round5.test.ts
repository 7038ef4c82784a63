import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { forgetAllSentWrites } from '../../nodes/shared/money/write';
import { BASE_URL, runNode, runTool } from './helpers/n8n';

/**
 * Issue 36.6: what the fifth round's outside reader ("break the money rules", knowing only the
 * document and the built package) found, one case each, written before the fix.
 */
const QUOTE_A = '8521a0b2-3c4d-4e5f-8a9b-0c1d2e3f4a5b';
const QUOTE_B = '789f0a1b-2c3d-4e5f-9a8b-7c6d5e4f3a2b';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe('F1: a tool reference names one payment across tool nodes and workflows', () => {
	it("Pay QR Code with one reference from an agent's tool node and an MCP tool node sends one key", async () => {
		const keys: string[] = [];
		let quotes = 0;
		nock(BASE_URL)
			.persist()
			.post('/orders/prepare')
			.reply(() => [
				200,
				{ id: [QUOTE_A, QUOTE_B][quotes++ % 2], amountRub: 900, merchantName: 'ЖКХ' },
			]);
		nock(BASE_URL)
			.persist()
			.post(/\/orders\/accept\/.*/)
			.reply(function () {
				keys.push(String(this.req.headers['idempotency-key']));
				return [200, { id: 'ord_1', status: 'created', amountRub: 900, merchantName: 'ЖКХ' }];
			});
		const parameters = {
			resource: 'order',
			operation: 'pay',
			qrCode: 'ST00012|Sum=90000',
			agentMayMoveMoney: true,
			paymentReference: 'FLAT-12-NOV',
		};
		await runTool({ parameters, nodeId: 'agent-tool-node' });
		await runTool({ parameters, nodeId: 'mcp-tool-node', workflowId: 'mcp-workflow' });
		expect(keys).toHaveLength(2);
		expect(keys[1]).toBe(keys[0]);
	});
});

describe('F3: a fresh answer whose details differ is not "nothing paid"', () => {
	it('Payout Create answered with the recipient name in capitals: paid (the service writes names its own way)', async () => {
		nock(BASE_URL).get('/payouts').query(true).reply(200, { payouts: [], total: 0 });
		nock(BASE_URL)
			.post('/payouts')
			.reply((_u, body) => [
				201,
				{
					...(body as IDataObject),
					id: 'po-NEW',
					recipientFirstName: 'IVAN',
					status: 'pending',
					createdAt: new Date().toISOString(),
				},
			]);
		const { output } = await runTool({
			parameters: {
				resource: 'payout',
				operation: 'create',
				amountRub: '1500',
				requisiteType: 'card',
				requisite: '2200123456789012',
				additionalFields: { recipientFirstName: 'Ivan' },
				agentMayMoveMoney: true,
				paymentReference: 'INV-77',
			},
		});
		expect(output[0]).toMatchObject({ id: 'po-NEW' });
		expect(output[0].error).toBeUndefined();
	});

	it('a fresh answer with another amount is reported as unknown, never as "Nothing new was paid"', async () => {
		nock(BASE_URL)
			.post('/orders/prepare')
			.reply(200, { id: QUOTE_A, amountRub: 999.99, merchantName: 'Shop' });
		nock(BASE_URL)
			.post(`/orders/accept/${QUOTE_A}`)
			.reply(200, { id: 'ord_9', status: 'created', amountRub: 1000, merchantName: 'Shop' });
		const { output } = await runTool({
			parameters: {
				resource: 'order',
				operation: 'pay',
				qrCode: 'https://qr.nspk.ru/X',
				agentMayMoveMoney: true,
				paymentReference: 'INV-78',
			},
		});
		const text = JSON.stringify(output[0]);
		expect(text).not.toMatch(/Nothing new was paid/);
		expect(text).toMatch(/"paymentOutcome":"unknown"/);
	});
});

describe('F4: outside tool mode, a replayed payment for other details is not this payment', () => {
	it("Pay QR Code with a key the service already stored for another QR code: the order for 500 is not the 900 bill's payment", async () => {
		nock(BASE_URL)
			.post('/orders/prepare')
			.reply(200, { id: QUOTE_B, amountRub: 900, merchantName: 'ЖКХ' });
		nock(BASE_URL)
			.post(`/orders/accept/${QUOTE_B}`)
			.reply(200, () => ({
				id: 'ord_first',
				status: 'created',
				amountRub: 500,
				merchantName: 'ЖКХ',
				createdAt: new Date().toISOString(),
			}));
		const { output } = await runNode({
			parameters: {
				resource: 'order',
				operation: 'pay',
				qrCode: 'PersonalAcc=9|Sum=90000',
				idempotencyKey: 'CUST-42',
			},
			continueOnFail: true,
		});
		expect(output[0].json.error).toBeDefined();
		expect(output[0].json.paymentOutcome).toBe('unknown');
		expect(String(output[0].json.error)).toMatch(/CUST-42|another payment/);
	});
});

describe('F5: a reset whose cause mentions a refused connection may have been sent', () => {
	it('Payout Create: ECONNRESET (socket hang up) with a proxy fallback ECONNREFUSED in its cause is unknown, and Retry On Fail sends nothing', async () => {
		let sent = 0;
		nock(BASE_URL)
			.persist()
			.post('/payouts')
			.reply(function (_u, _b, callback) {
				sent++;
				callback(
					Object.assign(new Error('socket hang up'), {
						code: 'ECONNRESET',
						cause: { message: 'connect ECONNREFUSED 10.0.0.9:3128 (proxy fallback)' },
					}),
					[0, ''],
				);
			});
		const parameters = {
			resource: 'payout',
			operation: 'create',
			amountRub: '1500',
			requisiteType: 'card',
			requisite: '2200123456789012',
		};
		const first = await runNode({ parameters, continueOnFail: true, executionId: 'e-p3' });
		expect(first.output[0].json.paymentOutcome).toBe('unknown');
		expect(JSON.stringify(first.output[0].json)).not.toMatch(/Nothing was sent/);
		await runNode({ parameters, continueOnFail: true, executionId: 'e-p3', sameProcess: true });
		expect(sent).toBe(1);
	});
});

describe('F6: a recipient is the same only when its whole number is', () => {
	const found = (requisiteType: string, requisite: string) =>
		nock(BASE_URL)
			.get('/payouts')
			.query(true)
			.reply(200, {
				payouts: [
					{
						id: 'po-UK',
						externalId: 'salary-11',
						status: 'success',
						amountRub: 5000,
						requisiteType,
						requisite,
					},
				],
				total: 1,
			});
	const ask = (requisiteType: string, requisite: string) =>
		runTool({
			parameters: {
				resource: 'payout',
				operation: 'create',
				amountRub: '5000',
				requisiteType,
				requisite,
				agentMayMoveMoney: true,
				paymentReference: 'SALARY-11',
			},
		});

	it('+44 7911 123456 is not +1 791-112-3456', async () => {
		found('phone', '+447911123456');
		const { output } = await ask('phone', '+1 791-112-3456');
		expect(output[0].repeated).toBeUndefined();
		expect(JSON.stringify(output[0])).toMatch(/PAYMENT_REFERENCE_CONFLICT|unknown/);
	});

	it('a card masked in the list (220012******4444) does not prove 5536 9100 0000 4444 was paid', async () => {
		found('card', '220012******4444');
		const { output } = await ask('card', '5536 9100 0000 4444');
		expect(output[0].repeated).toBeUndefined();
	});

	it('8 999 123-45-67 and +7 999 123-45-67 are one phone line', async () => {
		found('phone', '+79991234567');
		const { output } = await ask('phone', '8 999 123-45-67');
		expect(output[0]).toMatchObject({ id: 'po-UK', repeated: true });
	});
});

describe('F8: a 2xx that carries no record does not prove a payment', () => {
	it.each([
		[
			'Pay QR Code accept answered 200 with nothing',
			'order',
			'pay',
			`/orders/accept/${QUOTE_A}`,
			200,
			'',
		],
		['Payout Create answered 204', 'payout', 'create', '/payouts', 204, ''],
		['Card Request answered 200 null', 'card', 'request', '/cards/request', 200, 'null'],
	])('%s: unknown', async (_n, resource, operation, path, status, body) => {
		nock(BASE_URL)
			.post('/orders/prepare')
			.reply(200, { id: QUOTE_A, amountRub: 900, merchantName: 'Shop' });
		nock(BASE_URL).post(path).reply(status, body, { 'Content-Type': 'application/json' });
		const { output } = await runNode({
			parameters: {
				resource,
				operation,
				qrCode: 'X',
				amountRub: '1500',
				requisiteType: 'card',
				requisite: '2200123456789012',
			},
			continueOnFail: true,
		});
		expect(output[0].json.paymentOutcome).toBe('unknown');
	});
});

describe('F9: every failed money item says whether money moved', () => {
	it('Pay QR Code whose prepare is refused: not paid', async () => {
		nock(BASE_URL)
			.post('/orders/prepare')
			.reply(400, { statusCode: 400, errorCode: 'QR_INVALID', message: 'QR' });
		const { output } = await runNode({
			parameters: { resource: 'order', operation: 'pay', qrCode: 'bad' },
			continueOnFail: true,
		});
		expect(output[0].json.paymentOutcome).toBe('not_paid');
	});

	it('Payout Create refused by its input check: not paid', async () => {
		const { output } = await runNode({
			parameters: {
				resource: 'payout',
				operation: 'create',
				amountRub: '15,00',
				requisiteType: 'card',
				requisite: '2200123456789012',
			},
			continueOnFail: true,
		});
		expect(output[0].json.paymentOutcome).toBe('not_paid');
	});
});

describe('F10: a cancel answered with a payout that is not cancelled is not a success', () => {
	it('Payout Cancel answered 200 with status in_progress', async () => {
		nock(BASE_URL)
			.post('/payouts/po-1/cancel')
			.reply(200, { id: 'po-1', status: 'in_progress', refundedAt: null });
		const { output } = await runNode({
			parameters: { resource: 'payout', operation: 'cancel', payoutId: 'po-1' },
			continueOnFail: true,
		});
		expect(output[0].json.error).toBeDefined();
		// Judged by Resolve Outcome's cancel table (outside r10-money F1): taken by an executor, the
		// cancel did not act and never will.
		expect(output[0].json.paymentOutcome).toBe('not_paid');
		expect(output[0].json.errorCode).toBe('PAYOUT_NOT_CANCELABLE');
	});
});

describe('the process-boundary reader (fifth round)', () => {
	it('over MCP (no execution) a lost answer reaches the client as OUTCOME_UNKNOWN, not as n8n\'s "retry the request immediately"', async () => {
		nock(BASE_URL)
			.post('/cards/recharge')
			.replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
		const thrown = await runTool({
			parameters: {
				resource: 'card',
				operation: 'recharge',
				cardId: 'card-1',
				targetAmount: '100',
				agentMayMoveMoney: true,
				paymentReference: 'TOPUP-80',
			},
			executionId: undefined,
		}).catch((error: Error) => error);
		expect(thrown).toBeInstanceOf(Error);
		const message = (thrown as Error).message;
		expect(message).toMatch(/OUTCOME_UNKNOWN/);
		expect(message).toMatch(/"paymentOutcome":"unknown"/);
		expect(message).not.toMatch(/retry the request immediately/);
	});

	it.each([
		['INV\u2010100'],
		['INV\u2013100'],
		['INV\u2212100'],
		['INV-100\u200b'],
		['\u0130NV-100'],
	])('the reference %j is INV-100', async (written) => {
		const keys: string[] = [];
		nock(BASE_URL)
			.persist()
			.post('/cards/recharge')
			.reply(function (_u, body) {
				keys.push(String(this.req.headers['idempotency-key']));
				return [200, { id: 'rc-1', ...(body as IDataObject) }];
			});
		const parameters = {
			resource: 'card',
			operation: 'recharge',
			cardId: 'card-1',
			targetAmount: '10',
			agentMayMoveMoney: true,
		};
		await runTool({ parameters: { ...parameters, paymentReference: 'INV-100' } });
		forgetAllSentWrites(); // another n8n process
		await runTool({ parameters: { ...parameters, paymentReference: written } });
		expect(keys[1]).toBe(keys[0]);
	});
});
