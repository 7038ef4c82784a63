import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { BASE_URL, runNode, runNodeError } from './helpers/n8n';

/**
 * n8n's Retry On Fail runs the node again in the same process with the same items, so the same
 * derived Idempotency-Keys. For money writes whose replay by key the document does not promise
 * (Payout Create, Card Recharge, Payout Cancel) the node must not send them again: a key that was
 * paid gets its first answer back, a key whose answer was lost is reported unknown again, and
 * only a key the service refused is sent again. Writes with promised replay (Accept Quote) are
 * sent again, and the service answers with the stored result.
 */
const payout = (n: number): IDataObject => ({
	resource: 'payout',
	operation: 'create',
	amountRub: 1000 + n,
	requisiteType: 'card',
	requisite: '2200123456789012',
	additionalFields: { externalId: `salary-${n}` },
});

/**
 * Answers POST `path` with the answers in turn (the last one again after that). A record (an
 * answer with an `id`) is dated as it is answered, unless it carries its own createdAt: a record
 * proves a write only by a time after it was sent (r16-money F2).
 */
function serve(path: string, answers: Array<[number, IDataObject | string]>): IDataObject[] {
	const seen: IDataObject[] = [];
	nock(BASE_URL)
		.persist()
		.post(path)
		.reply(function (_uri, body) {
			seen.push({ body, key: this.req.headers['idempotency-key'] });
			const [status, answer] = answers[Math.min(seen.length, answers.length) - 1];
			const dated =
				typeof answer === 'object' && 'id' in answer && !('createdAt' in answer)
					? { ...answer, createdAt: new Date().toISOString() }
					: answer;
			return [status, dated];
		});
	return seen;
}

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe('Retry On Fail never sends a money write again that the document promises no replay for', () => {
	it("keys are kept per company (API key): another company with the same key and Base URL is sent, not answered with the first company's payout", async () => {
		const seen = serve('/payouts', [
			[201, { id: 'po_A', externalId: 'salary-0', status: 'waiting_trader' }],
			[201, { id: 'po_B', externalId: 'salary-0', status: 'waiting_trader' }],
		]);
		const company = (apiKey: string) => ({
			environment: 'staging',
			baseUrl: BASE_URL,
			apiKey,
			webhookSecret: '',
		});
		const parameters = { ...payout(0), idempotencyKey: '2026-11-001' };
		const a = await runNode({ parameters, credentials: company('key_company_a') });
		const b = await runNode({
			parameters,
			credentials: company('key_company_b'),
			sameProcess: true,
		});
		expect(seen).toHaveLength(2);
		expect(seen.map((request) => request.key)).toEqual(['2026-11-001', '2026-11-001']);
		expect(a.output[0].json.id).toBe('po_A');
		expect(b.output[0].json.id).toBe('po_B');
		// The same company again (Retry On Fail): its own first answer, nothing sent.
		const again = await runNode({
			parameters,
			credentials: company('key_company_a'),
			sameProcess: true,
		});
		expect(seen).toHaveLength(2);
		expect(again.output[0].json.id).toBe('po_A');
	});

	it('items paid before a later item failed are not paid again: their first answers come back', async () => {
		const seen = serve('/payouts', [
			[201, { id: 'po_0', externalId: 'salary-0', status: 'waiting_trader' }],
			[201, { id: 'po_1', externalId: 'salary-1', status: 'waiting_trader' }],
			[502, '<html>502 Bad Gateway</html>'],
		]);
		const parameters = [payout(0), payout(1), payout(2)];
		const first = await runNodeError({ parameters });
		expect(first.message).toMatch(/^OUTCOME_UNKNOWN: the payout may have been created/);
		expect(seen).toHaveLength(3);

		const retry = await runNodeError({ parameters, sameProcess: true });
		expect(retry.message).toMatch(
			/^OUTCOME_UNKNOWN: .*already sent it once under the same Idempotency-Key/,
		);
		expect(seen).toHaveLength(3);

		const withContinue = await runNode({ parameters, sameProcess: true, continueOnFail: true });
		expect(seen).toHaveLength(3);
		expect(withContinue.output.map((item) => item.json.id ?? item.json.paymentOutcome)).toEqual([
			'po_0',
			'po_1',
			'unknown',
		]);
	});

	const insufficient: [number, IDataObject] = [
		422,
		{
			statusCode: 422,
			error: 'Unprocessable',
			errorCode: 'INSUFFICIENT_BALANCE',
			message: 'Недостаточно средств',
		},
	];

	it('a payout the service refused (not paid) is sent again, under the same key', async () => {
		// Without an External ID or a key of the user's: nothing names an earlier attempt, so the
		// refusal is a refusal (with one, r5-money F2, it is unknown: the next case).
		const seen = serve('/payouts', [
			insufficient,
			[201, { id: 'po_0', externalId: null, status: 'waiting_trader' }],
		]);
		const parameters = { ...payout(0), additionalFields: {} };
		const error = await runNodeError({ parameters });
		expect(error.message).toMatch(/^INSUFFICIENT_BALANCE/);
		const { output } = await runNode({ parameters, sameProcess: true });
		expect(output[0].json.id).toBe('po_0');
		expect(seen).toHaveLength(2);
		expect(seen[1].key).toBe(seen[0].key);
	});

	it('with an External ID, a balance refusal is unknown (an earlier attempt may have taken the funds) and is not sent again', async () => {
		const seen = serve('/payouts', [insufficient]);
		const error = await runNodeError({ parameters: payout(0) });
		expect(error.message).toMatch(/^OUTCOME_UNKNOWN: .*INSUFFICIENT_BALANCE/);
		const retry = await runNodeError({ parameters: payout(0), sameProcess: true });
		expect(retry.message).toMatch(/^OUTCOME_UNKNOWN/);
		expect(seen).toHaveLength(1);
	});

	it('a card recharge whose answer was lost is not sent again', async () => {
		const seen = serve('/cards/recharge', [[504, '<html>504 Gateway Time-out</html>']]);
		const parameters = {
			resource: 'card',
			operation: 'recharge',
			cardId: 'card_1',
			targetAmount: 50,
		};
		await runNodeError({ parameters });
		const retry = await runNodeError({ parameters, sameProcess: true });
		expect(retry.message).toMatch(/^OUTCOME_UNKNOWN: the card may have been recharged/);
		expect(seen).toHaveLength(1);
	});

	it('Accept Quote, whose replay by key the document promises, is sent again with the same key after an unknown outcome', async () => {
		const quoteId = '0b6a9a52-4f4e-4a8e-9d39-3f1c8f6f2a11';
		const order = { id: 'ord_1', status: 'created', amountRub: 1500, amountUsdt: 16.5 };
		let lost = true;
		const seen: IDataObject[] = [];
		nock(BASE_URL)
			.persist()
			.post(`/orders/accept/${quoteId}`)
			.reply(function () {
				seen.push({ key: this.req.headers['idempotency-key'] });
				return lost ? [502, '<html>502 Bad Gateway</html>'] : [200, order];
			});
		const parameters = { resource: 'order', operation: 'accept', quoteId };
		const first = await runNodeError({ parameters });
		expect(first.message).toMatch(/^OUTCOME_UNKNOWN/);
		const sentFirst = seen.length;
		lost = false;
		const { output } = await runNode({ parameters, sameProcess: true });
		expect(seen.length).toBe(sentFirst + 1);
		expect(new Set(seen.map((request) => request.key)).size).toBe(1);
		expect(output[0].json.id).toBe('ord_1');
	});

	it('Accept Quote already paid in this process is not sent again by Retry On Fail (r1-money-resend F1)', async () => {
		const quoteId = '0b6a9a52-4f4e-4a8e-9d39-3f1c8f6f2a11';
		const order = { id: 'ord_1', status: 'created', amountRub: 1500, amountUsdt: 16.5 };
		const seen = serve(`/orders/accept/${quoteId}`, [[200, order]]);
		const parameters = { resource: 'order', operation: 'accept', quoteId };
		await runNode({ parameters });
		const { output } = await runNode({ parameters, sameProcess: true });
		expect(seen).toHaveLength(1);
		expect(output[0].json.id).toBe('ord_1');
	});
});

describe('one Idempotency Key names one payment', () => {
	it('two items given the same key for different payouts: the second is refused, not answered with the first', async () => {
		const seen = serve('/payouts', [
			[201, { id: 'po_1', externalId: 'salary-0', status: 'waiting_trader', amountRub: 1000 }],
		]);
		const first = { ...payout(0), idempotencyKey: 'INV-9' };
		const second = { ...payout(1), amountRub: 90000, idempotencyKey: 'INV-9' };
		const { output } = await runNode({ parameters: [first, second], continueOnFail: true });
		expect(seen).toHaveLength(1);
		expect(output[0].json.id).toBe('po_1');
		expect(output[1].json.id).toBeUndefined();
		expect(String(output[1].json.error)).toMatch(
			/^IDEMPOTENCY_KEY_REUSED: the Idempotency-Key "INV-9"/,
		);
		expect(output[1].json.paymentOutcome).toBe('not_paid');
	});

	it('the same key for another quote (Accept Quote) is refused before it is sent', async () => {
		const quotes = ['0b6a9a52-4f4e-4a8e-9d39-3f1c8f6f2a11', '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f'];
		const seen = serve(`/orders/accept/${quotes[0]}`, [[200, { id: 'ord_1', status: 'created' }]]);
		const parameters = quotes.map((quoteId) => ({
			resource: 'order',
			operation: 'accept',
			quoteId,
			idempotencyKey: 'PAY-1',
		}));
		const { output } = await runNode({ parameters, continueOnFail: true });
		expect(seen).toHaveLength(1);
		expect(String(output[1].json.error)).toMatch(/^IDEMPOTENCY_KEY_REUSED/);
	});
});

describe('Pay QR Code: the key names the payment of the QR code, not the quote made for it', () => {
	/** The first accept's answer is lost (a gateway's 502) while set. */
	const lost = { answer: false };
	const qrCode = 'https://qr.nspk.ru/AS1000ABCDEF?type=02&sum=150000&cur=RUB';
	function serveQuotes(): IDataObject[] {
		let quotes = 0;
		nock(BASE_URL)
			.persist()
			.post('/orders/prepare')
			.reply(() => [
				200,
				{
					id: `0b6a9a52-4f4e-4a8e-9d39-3f1c8f6f2a1${quotes++}`,
					amountRub: 1500,
					merchantName: 'Coffee Point',
				},
			]);
		const seen: IDataObject[] = [];
		nock(BASE_URL)
			.persist()
			.post(/^\/orders\/accept\//)
			.reply(function (uri) {
				seen.push({ uri, key: this.req.headers['idempotency-key'] });
				if (lost.answer) return [502, '<html>502 Bad Gateway</html>'];
				// A key set by the user is this QR code's payment only when every detail agrees.
				return [
					200,
					{
						id: 'ord_1',
						status: 'created',
						amountRub: 1500,
						merchantName: 'Coffee Point',
						createdAt: new Date().toISOString(),
					},
				];
			});
		return seen;
	}

	it('Retry On Fail accepts again the quote it first accepted, under the same key: the same request (issue 49.2)', async () => {
		const seen = serveQuotes();
		const parameters = { resource: 'order', operation: 'pay', qrCode };
		lost.answer = true;
		await runNodeError({ parameters });
		lost.answer = false;
		const sentFirst = seen.length;
		const { output, context } = await runNode({ parameters, sameProcess: true });
		expect(output[0].json.id).toBe('ord_1');
		expect(seen).toHaveLength(sentFirst + 1);
		expect(new Set(seen.map((request) => request.key)).size).toBe(1);
		expect(new Set(seen.map((request) => request.uri)).size).toBe(1);
		// No new quote was prepared for the re-send.
		expect(context.requests.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual([
			`POST ${String(seen[0].uri)}`,
		]);
	});

	it('the same payment reference for another QR code is refused', async () => {
		serveQuotes();
		const { output } = await runNode({
			parameters: [
				{ resource: 'order', operation: 'pay', qrCode, idempotencyKey: 'fines-nov' },
				{
					resource: 'order',
					operation: 'pay',
					qrCode: qrCode.replace('ABCDEF', 'GHIJKL'),
					idempotencyKey: 'fines-nov',
				},
			],
			continueOnFail: true,
		});
		expect(output[0].json.id).toBe('ord_1');
		expect(String(output[1].json.error)).toMatch(/^IDEMPOTENCY_KEY_REUSED/);
	});
});

describe('the same key in flight twice at once in one process', () => {
	it('two parallel calls (MCP sessions, deliveries) send one payout and both get its answer', async () => {
		let sent = 0;
		nock(BASE_URL)
			.persist()
			.post('/payouts')
			.delay(50)
			.reply(() => {
				sent++;
				const createdAt = new Date().toISOString();
				return [
					201,
					{ id: `po_${sent}`, externalId: 'salary-0', status: 'waiting_trader', createdAt },
				];
			});
		const parameters = { ...payout(0), idempotencyKey: 'dlv_1' };
		const [a, b] = await Promise.all([
			runNode({ parameters }),
			runNode({ parameters, sameProcess: true }),
		]);
		expect(sent).toBe(1);
		expect(a.output[0].json.id).toBe('po_1');
		expect(b.output[0].json.id).toBe('po_1');
	});
});
