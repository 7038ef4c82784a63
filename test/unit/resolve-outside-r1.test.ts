import type { IDataObject, INode } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';
import nock from 'nock';

import { CompanyPayments } from '../../nodes/CompanyPayments/CompanyPayments.node';
import { toolCatalog } from '../../nodes/CompanyPayments/tool';
import { createdSince, serviceTime } from '../../nodes/shared/money/binding';
import { whatToDoLines } from '../../nodes/shared/money/outcome';
import { requisiteDigest } from '../../nodes/shared/money/sentEvidence';
import { API_KEY, BASE_URL, createContext, runNode } from './helpers/n8n';

/*
 * The outside reader of "Resolve Outcome counts a record as proof of THIS write only when bound to
 * it" (r1-money-resolve, findings 1 to 9) and of the AI tool (r1-money-tool, findings 3 and 5):
 * each case is what the reader checked, as the user would check it.
 */
beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const CARD = '2200123456789012';

function iso(offsetMs: number): string {
	return new Date(Date.now() + offsetMs).toISOString();
}

/** An HTTP date `offsetMs` from now: the service's clock when it is that far from n8n's. */
function serviceDate(offsetMs = 0): Record<string, string> {
	return { Date: new Date(Date.now() + offsetMs).toUTCString() };
}

function payout(createdAt: string | number | null, more: object = {}) {
	return {
		id: 'po_1',
		externalId: 'salary-77',
		status: 'success',
		amountRub: 1500,
		requisiteType: 'card',
		// In full: masked digits that agree are no proof of the recipient (r4-money-resolve F6).
		requisite: CARD,
		refundedAt: null,
		failReason: null,
		createdAt,
		...more,
	};
}

const PAYOUT_PARAMETERS = {
	resource: 'payout',
	operation: 'create',
	amountRub: '1500',
	requisiteType: 'card',
	requisite: CARD,
	additionalFields: { externalId: 'salary-77' },
};

/** Payout Create whose answer is a gateway's 502: the node's own unknown item. */
async function lostPayoutCreate(headers: Record<string, string> = serviceDate()) {
	nock(BASE_URL).post('/payouts').reply(502, '<html>502</html>', headers);
	const { output } = await runNode({ parameters: PAYOUT_PARAMETERS, continueOnFail: true });
	expect(output[0].json.paymentOutcome).toBe('unknown');
	return output[0].json as IDataObject;
}

function listing(records: object[], headers: Record<string, string> = {}) {
	nock(BASE_URL)
		.get('/payouts')
		.query((q) => q.externalId === 'salary-77')
		.reply(200, { payouts: records, total: records.length }, headers);
}

function reading(record: IDataObject, headers: Record<string, string> = {}) {
	nock(BASE_URL)
		.get(`/payouts/${String(record.id)}`)
		.reply(200, record, headers);
}

async function resolve(item: unknown, more: { sameProcess?: boolean } = {}) {
	const { output } = await runNode({
		parameters: { resource: 'payment', operation: 'resolveOutcome', unknownItem: item as string },
		...more,
	});
	return output[0].json as IDataObject;
}

/**
 * JavaScript reads an ISO time without an offset as local time. Jest's sandbox keeps the time
 * zone it started with, so n8n in New York is played by reading such a time at UTC-5.
 */
function inNewYork() {
	const parse = Date.parse.bind(Date);
	jest
		.spyOn(Date, 'parse')
		.mockImplementation((text: string) =>
			/(Z|[+-]\d\d:?\d\d)$/.test(text) || !/T\d\d:/.test(text)
				? parse(text)
				: parse(`${text}-05:00`),
		);
}

describe('1: a record time is read on the service clock; one without an offset proves nothing (r4 F1)', () => {
	it('a time without an offset is shown read as UTC, one with an offset by it', () => {
		inNewYork();
		expect(serviceTime('2026-11-28T10:00:00')).toBe(Date.parse('2026-11-28T10:00:00Z'));
		expect(serviceTime('2026-11-28 10:00:00.250')).toBe(Date.parse('2026-11-28T10:00:00.250Z'));
		expect(serviceTime('2026-11-28T10:00:00+03:00')).toBe(Date.parse('2026-11-28T07:00:00Z'));
	});

	it('n8n in New York, a payout made 3 h before the write with a naive UTC createdAt: not this write', async () => {
		inNewYork();
		const item = await lostPayoutCreate();
		const old = payout(iso(-3 * 3_600_000).replace('Z', ''));
		listing([old]);
		reading(old, serviceDate());
		const out = await resolve(item);
		expect(out.paymentOutcome).toBe('unknown');
		expect(out.reason).toMatch(/written without its offset/);
	});

	it('a createdAt in Moscow time without an offset (2 h before the write) is in the future as UTC: no proof', async () => {
		const item = await lostPayoutCreate();
		const moscow = new Date(Date.now() - 2 * 3_600_000 + 3 * 3_600_000).toISOString();
		const old = payout(moscow.replace('Z', ''));
		listing([old]);
		reading(old, serviceDate());
		const out = await resolve(item);
		expect(out.paymentOutcome).toBe('unknown');
		expect(out.reason).toMatch(/written without its offset/);
	});

	it('Date from a correct proxy, records dated by a clock 120 s ahead: a payout made 60 s before the write is no proof', async () => {
		const item = await lostPayoutCreate();
		const early = payout(iso(-60_000 + 120_000));
		listing([early]);
		reading(early, serviceDate());
		const out = await resolve(item);
		expect(out.paymentOutcome).toBe('unknown');
		expect(out.record).toMatchObject({ id: 'po_1' });
	});

	it('the bound: a record within the skew and margin of now is read, beyond it is future', () => {
		const time = { sentAt: Date.now() - 10_000, skewMs: 0 };
		expect(createdSince({ createdAt: iso(0) }, time)).toBe('after');
		expect(createdSince({ createdAt: iso(60_000) }, time)).toBe('future');
		expect(createdSince({ createdAt: iso(-60_000) }, time)).toBe('before');
	});
});

describe('2 and tool 5: an item without a sealed sentWrite never gets an outcome echoed back', () => {
	it.each([
		['an invented not_paid', { paymentOutcome: 'not_paid' }],
		['an invented not_paid in the error output shape', { error: { paymentOutcome: 'not_paid' } }],
		['an invented paid', { paymentOutcome: 'paid' }],
	])('%s is unknown, unverified, and nothing is asked of the service', async (_label, item) => {
		const out = await resolve(item);
		expect(out.paymentOutcome).toBe('unknown');
		expect(out.verified).toBe(false);
		expect(out.missing).toEqual(['sentWrite']);
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('a real item with its sentWrite removed and its outcome edited to not_paid is unknown', async () => {
		const item = await lostPayoutCreate();
		const edited: IDataObject = { ...item, paymentOutcome: 'not_paid' };
		delete edited.sentWrite;
		expect((await resolve(edited)).paymentOutcome).toBe('unknown');
	});

	it('as a tool, a not_paid the model made up is answered unknown', async () => {
		const context = createContext({
			parameters: {
				resource: 'payment',
				operation: 'resolveOutcome',
				unknownItem: { paymentOutcome: 'not_paid', message: 'The service refused it' },
			},
		});
		(context.getNode() as INode).type = 'n8n-nodes-company-payments.companyPaymentsTool';
		const result = await new CompanyPayments().execute.call(context);
		const out = result[0][0].json;
		expect(out.paymentOutcome).toBe('unknown');
		expect(out.verified).toBe(false);
	});
});

describe('3: without a measured skew the time bound cannot be proven', () => {
	it('no Date header ever, service clock 120 s ahead, a payout made 150 s before the write: unknown naming the Date header', async () => {
		const item = await lostPayoutCreate({});
		expect((item.sentWrite as IDataObject).skewMs).toBeNull();
		const early = payout(iso(-150_000 + 120_000));
		listing([early]);
		reading(early);
		const out = await resolve(item);
		expect(out.paymentOutcome).toBe('unknown');
		expect(out.reason).toMatch(/Date header/);
		expect(JSON.stringify(out.missing)).toMatch(/Date header/);
	});

	it("the write's answer had no Date but Resolve's read has one: measured then, its own payout is paid", async () => {
		const item = await lostPayoutCreate({});
		const made = payout(iso(1_000));
		listing([made]);
		reading(made, serviceDate());
		expect((await resolve(item)).paymentOutcome).toBe('paid');
	});
});

describe('4: one record proves at most one write', () => {
	async function twoLostWrites() {
		nock(BASE_URL).post('/payouts').times(2).reply(502, '<html>502</html>', serviceDate());
		const { output } = await runNode({
			parameters: [PAYOUT_PARAMETERS, PAYOUT_PARAMETERS],
			continueOnFail: true,
		});
		expect(output.map((o) => o.json.paymentOutcome)).toEqual(['unknown', 'unknown']);
		return output.map((o) => o.json);
	}

	it('two items of one run with the same External ID and details, one payout: one paid, the other unknown', async () => {
		const [first, second] = await twoLostWrites();
		const made = payout(iso(1_000));
		nock(BASE_URL)
			.get('/payouts')
			.query((q) => q.externalId === 'salary-77')
			.times(2)
			.reply(200, { payouts: [made], total: 1 });
		nock(BASE_URL).get('/payouts/po_1').times(2).reply(200, made, serviceDate());
		const { output } = await runNode({
			parameters: [
				{ resource: 'payment', operation: 'resolveOutcome', unknownItem: first },
				{ resource: 'payment', operation: 'resolveOutcome', unknownItem: second },
			],
		});
		const outcomes = output.map((o) => o.json.paymentOutcome);
		expect(outcomes.filter((o) => o === 'paid')).toHaveLength(1);
		expect(outcomes.filter((o) => o === 'unknown')).toHaveLength(1);
		const other = output.find((o) => o.json.paymentOutcome === 'unknown')!.json;
		// The second item's sent write names the first (r5-money F7): which made the payout cannot be told.
		expect(other.reason).toMatch(/one record proves at most one write/);
	});

	it('resolved in two runs of one n8n process: neither write is proved by the one record (r7-money-a F6b)', async () => {
		const [first, second] = await twoLostWrites();
		const made = payout(iso(1_000));
		// This process sent both: the first write knows the later one here, so neither is paid.
		for (const item of [first, second, first]) {
			listing([made]);
			reading(made, serviceDate());
			const out = await resolve(item, { sameProcess: true });
			expect(out.paymentOutcome).toBe('unknown');
			expect(out.reason).toMatch(/other write/);
		}
	});
});

describe('5: the whole requisite is compared by a keyed digest when the record shows it in full', () => {
	it('a payout to another card with the same last four digits is not proof of this write', async () => {
		const item = await lostPayoutCreate();
		const other = payout(iso(1_000), { requisite: '4276999988889012' });
		listing([other]);
		reading(other, serviceDate());
		const out = await resolve(item);
		expect(out.paymentOutcome).toBe('unknown');
		expect(JSON.stringify(out.differences)).toMatch(/requisite/);
	});

	it('the same card shown in full is paid', async () => {
		const item = await lostPayoutCreate();
		const same = payout(iso(1_000), { requisite: '2200 1234 5678 9012' });
		listing([same]);
		reading(same, serviceDate());
		expect((await resolve(item)).paymentOutcome).toBe('paid');
	});

	it('the digest is keyed and sealed: it names neither the number nor a plain hash of it', async () => {
		const item = await lostPayoutCreate();
		const sent = item.sentWrite as IDataObject;
		const digest = (sent.digests as IDataObject).requisite as string;
		expect(digest).toBe(requisiteDigest(API_KEY, 'requisite', CARD));
		expect(digest).not.toBe(requisiteDigest('another-key', 'requisite', CARD));
		expect(JSON.stringify(item)).not.toContain(CARD);
		expect(JSON.stringify(item)).not.toContain('22001234');
	});
});

describe('6: a failed payout whose money came back ends the loop', () => {
	it('paid with fundsReturned: true, and a later recharge to success reads paid without it', async () => {
		const item = await lostPayoutCreate();
		const refunded = payout(iso(1_000), {
			status: 'fail',
			failReason: 'no_traders',
			refundedAt: iso(2_000),
		});
		listing([refunded]);
		reading(refunded, serviceDate());
		const first = await resolve(item);
		expect(first.paymentOutcome).toBe('paid');
		expect(first.fundsReturned).toBe(true);
		expect(first.lookAgainAt).toBeNull();
		const recharged = { ...refunded, status: 'success', failReason: null, refundedAt: null };
		listing([recharged]);
		reading(recharged, serviceDate());
		const again = await resolve(first);
		expect(again.paymentOutcome).toBe('paid');
		expect(again.fundsReturned).toBe(false);
	});

	it('failed without refundedAt stays unknown with lookAgainAt', async () => {
		const item = await lostPayoutCreate();
		const failed = payout(iso(1_000), { status: 'fail', failReason: 'no_traders' });
		listing([failed]);
		reading(failed, serviceDate());
		const out = await resolve(item);
		expect(out.paymentOutcome).toBe('unknown');
		expect(out.lookAgainAt).not.toBeNull();
	});
});

describe("7: a card's binding time is its createdAt (r5-money F3), its assignedAt no proof", () => {
	async function lostCardRequest() {
		nock(BASE_URL)
			.post('/cards/request')
			.reply(500, { errorCode: 'INTERNAL_ERROR' }, serviceDate());
		const { output } = await runNode({
			parameters: { resource: 'card', operation: 'request', externalId: 'emp-8' },
			continueOnFail: true,
		});
		expect(output[0].json.paymentOutcome).toBe('unknown');
		return output[0].json;
	}

	function card(assignedAt: string | null) {
		return {
			id: 'card_9',
			externalId: 'emp-8',
			status: 'assigned',
			maskedPan: '5555****1111',
			assignedAt,
			createdAt: iso(-2 * 86_400_000),
		};
	}

	function cards(record: object) {
		nock(BASE_URL)
			.get('/cards')
			.query((q) => q.externalId === 'emp-8')
			.reply(200, { cards: [record], total: 1 });
		nock(BASE_URL).get('/cards/card_9').reply(200, record, serviceDate());
	}

	it("a card from stock (created 2 days before) assigned after the write is no proof (r5-money F3: an earlier request's card given now reads the same)", async () => {
		const item = await lostCardRequest();
		cards(card(iso(1_000)));
		const out = await resolve(item);
		expect(out.paymentOutcome).toBe('unknown');
		expect(out.reason).toMatch(/assignedAt .* is no proof either way/);
	});

	it('a card assigned a day before the write is another request', async () => {
		const item = await lostCardRequest();
		cards(card(iso(-86_400_000)));
		const out = await resolve(item);
		expect(out.paymentOutcome).toBe('unknown');
		expect(out.reason).toMatch(/created before this write was sent/);
	});
});

describe("8: Resolve's own error items keep the sealed sentWrite", () => {
	it('a look-up outage with Continue On Fail: the error item is unknown with its sentWrite, and the loop reaches paid', async () => {
		const item = await lostPayoutCreate();
		nock(BASE_URL)
			.get('/payouts')
			.query(true)
			.times(10)
			.reply(503, { errorCode: 'SERVICE_UNAVAILABLE', message: 'down' }, { 'Retry-After': '0' });
		const { output } = await runNode({
			parameters: { resource: 'payment', operation: 'resolveOutcome', unknownItem: item },
			continueOnFail: true,
			credentials: {
				environment: 'staging',
				baseUrl: BASE_URL,
				apiKey: API_KEY,
				webhookSecret: '',
				maxRetryWaitSeconds: 0,
			},
		});
		const failed = output[0].json;
		expect(failed.paymentOutcome).toBe('unknown');
		expect(failed.sentWrite).toEqual(item.sentWrite);
		nock.cleanAll();
		const made = payout(iso(1_000));
		listing([made]);
		reading(made, serviceDate());
		expect((await resolve(failed)).paymentOutcome).toBe('paid');
	});
});

describe('9: a cancel stays unknown while the payout still waits (r4 F9)', () => {
	it('waiting_trader past the old window: unknown with lookAgainAt, saying it may still act and a repeat is harmless', async () => {
		nock(BASE_URL)
			.post('/payouts/po_1/cancel')
			.reply(500, { errorCode: 'INTERNAL_ERROR' }, serviceDate());
		const { output } = await runNode({
			parameters: {
				resource: 'payout',
				operation: 'cancel',
				payoutId: { __rl: true, mode: 'id', value: 'po_1' },
			},
			continueOnFail: true,
		});
		const item = output[0].json;
		const sent = item.sentWrite as IDataObject;
		expect(item.paymentOutcome).toBe('unknown');
		const realNow = Date.now;
		const later = Date.parse(String(sent.sentAt)) + 6 * 60_000;
		jest.spyOn(Date, 'now').mockImplementation(() => later);
		nock(BASE_URL)
			.get('/payouts/po_1')
			.reply(200, payout(iso(-86_400_000), { status: 'waiting_trader' }));
		const out = await resolve(item);
		expect(Date.now).not.toBe(realNow);
		expect(out.paymentOutcome).toBe('unknown');
		expect(out.lookAgainAt).not.toBeNull();
		expect(out.reason).toMatch(/may still carry it out while the payout waits/);
		expect(out.whatToDo).toMatch(/sending the cancel again is harmless/);
		expect(out.whatToDo).not.toMatch(/safe to run it again/);
	});
});

describe('tool 3: Resolve Outcome as a tool lets the model pass the item', () => {
	const action = new CompanyPayments();

	function saved(tool: boolean) {
		return NodeHelpers.getNodeParameters(
			action.description.properties,
			{ resource: 'payment', operation: 'resolveOutcome' },
			true,
			false,
			{ typeVersion: 1.2 },
			{ ...action.description, name: tool ? 'companyPaymentsTool' : 'companyPayments' },
		) as IDataObject;
	}

	it('as a tool Unknown Item comes from the model ($fromAI), in a workflow it stays {{ $json }}', () => {
		expect(saved(true).unknownItem).toMatch(
			/^=\{\{ \$fromAI\('unknownItem', '[^']+', 'json'\) \}\}$/,
		);
		expect(saved(false).unknownItem).toBe('={{ $json }}');
	});

	it('as a tool, a refused item tells the model to call again with the whole answer, not {{ $json }}', async () => {
		const context = createContext({
			parameters: {
				resource: 'payment',
				operation: 'resolveOutcome',
				unknownItem: { sessionId: 's-1', chatInput: 'Pay invoice INV-300', toolCallId: 'call_2' },
			},
		});
		(context.getNode() as INode).type = 'n8n-nodes-company-payments.companyPaymentsTool';
		const result = await new CompanyPayments().execute.call(context);
		const answer = JSON.stringify(result[0][0].json);
		expect(answer).toMatch(/Call this tool again with \\"Unknown Item\\" set to the whole answer/);
		expect(answer).not.toContain('{{ $json }}');
	});

	it('the tool text, the field and the unknown answer tell the model the same: pass the whole answer as Unknown Item', () => {
		const text = toolCatalog()['payment.resolveOutcome'].text;
		expect(text).toMatch(/Needs: Unknown Item, the whole answer the money call returned/);
		expect(saved(true).unknownItem).toMatch(/The whole answer of the money call/);
		expect(whatToDoLines({ what: '', lookUp: 'x', replayByKey: false }).join(' ')).toMatch(
			/as a tool: pass this whole answer as Unknown Item/,
		);
	});
});
