import type { IDataObject } from 'n8n-workflow';
import nock from 'nock';

import { boundTime, createdSince } from '../../nodes/shared/money/binding';
import { skewBounds } from '../../nodes/shared/money/clock';
import { payoutFundsReturned } from '../../nodes/shared/payoutFunds';
import { BASE_URL, runNode, runTool } from './helpers/n8n';
import type { ContextOptions } from './helpers/n8n';

/*
 * The second outside reader of "money truth" (r4-money-resolve, findings 1 to 9): each case is
 * what the reader broke, as the user would meet it.
 */
beforeAll(() => nock.disableNetConnect());
afterEach(() => {
	nock.cleanAll();
	jest.restoreAllMocks();
});

const CARD = '2200123456789012';
const HOUR = 3_600_000;

function iso(offsetMs: number): string {
	return new Date(Date.now() + offsetMs).toISOString();
}

/** An HTTP date `offsetMs` from now. */
function serviceDate(offsetMs = 0): Record<string, string> {
	return { Date: new Date(Date.now() + offsetMs).toUTCString() };
}

function payout(createdAt: string | number | null, more: object = {}) {
	return {
		id: 'po_1',
		externalId: 'inv-42',
		status: 'success',
		amountRub: 1500,
		requisiteType: 'card',
		requisite: CARD,
		refundedAt: null,
		failReason: null,
		createdAt,
		...more,
	};
}

function payoutParameters(more: IDataObject = {}) {
	return {
		resource: 'payout',
		operation: 'create',
		amountRub: '1500',
		requisiteType: 'card',
		requisite: CARD,
		additionalFields: { externalId: 'inv-42' },
		...more,
	};
}

/** Payout Create as the model calls it, under `reference`: its one answer. */
async function toolPayout(reference: string): Promise<IDataObject> {
	const parameters = payoutParameters({ additionalFields: {} });
	return (
		await runTool({
			parameters: { ...parameters, paymentReference: reference, agentMayMoveMoney: true },
		})
	).output[0];
}

const GATEWAY_PAGE = '<html><body>502 Bad Gateway</body></html>';

/** Payout Create answered by a gateway's 502 (with the gateway's headers). */
async function lostPayoutCreate(
	headers: Record<string, string> = serviceDate(),
	parameters: IDataObject = payoutParameters(),
) {
	nock(BASE_URL)
		.post('/payouts')
		.reply(502, GATEWAY_PAGE, { 'Content-Type': 'text/html', ...headers });
	const { output } = await runNode({ parameters, continueOnFail: true });
	expect(output[0].json.paymentOutcome).toBe('unknown');
	return output[0].json as IDataObject;
}

function listing(records: object[], headers: Record<string, string> = serviceDate()) {
	nock(BASE_URL)
		.get('/payouts')
		.query(true)
		.reply(200, { payouts: records, total: records.length }, headers);
}

function reading(record: IDataObject, headers: Record<string, string> = serviceDate()) {
	nock(BASE_URL)
		.get(`/payouts/${String(record.id)}`)
		.reply(200, record, headers);
}

async function resolve(item: unknown, more: Partial<ContextOptions> = {}) {
	const { output } = await runNode({
		parameters: { resource: 'payment', operation: 'resolveOutcome', unknownItem: item as string },
		...more,
	});
	return output[0].json as IDataObject;
}

describe('1: a record time without an offset is no proof of "made after the write"', () => {
	it('a payout made 3 h before the write, its createdAt in Moscow time without an offset: unknown, naming the cause', async () => {
		const item = await lostPayoutCreate();
		const moscow = new Date(Date.now() - 3 * HOUR + 2_000 + 3 * HOUR).toISOString();
		const old = payout(moscow.replace('Z', '').replace(/\.\d+$/, ''));
		listing([old]);
		reading(old);
		const out = await resolve(item);
		expect(out.paymentOutcome).toBe('unknown');
		expect(out.reason).toMatch(/without its offset/);
		expect(out.missing).toEqual(['createdAt with its offset (Z or +hh:mm)']);
		expect(out.whatToDo).toMatch(/Check the record/);
	});

	it('the same record with its offset is read by it: made after the write, paid', async () => {
		const item = await lostPayoutCreate();
		const made = payout(
			new Date(Date.now() + 1_000 + 3 * HOUR).toISOString().replace('Z', '+03:00'),
		);
		listing([made]);
		reading(made);
		expect((await resolve(item)).paymentOutcome).toBe('paid');
	});

	it('boundTime: only a time naming its zone is a time', () => {
		expect(boundTime('2026-11-28T10:00:00')).toBe('no_offset');
		expect(boundTime('2026-11-28 10:00:00.250')).toBe('no_offset');
		// Not ISO 8601: no time at all (r16-money F2: one reading, the forms a service plausibly sends).
		expect(boundTime('Sat, 28 Nov 2026 10:00:00')).toBeNaN();
		expect(boundTime('2026-11-28T10:00:00Z')).toBe(Date.parse('2026-11-28T10:00:00Z'));
		expect(boundTime('2026-11-28T10:00:00+0300')).toBe(Date.parse('2026-11-28T07:00:00Z'));
		expect(boundTime('soon')).toBeNaN();
	});
});

describe("2: the clock skew is measured only from the service's own answers", () => {
	it("a gateway's 502 dated 10 min slow is no measure: a payout made 8 min before the write is not this write", async () => {
		const item = await lostPayoutCreate(serviceDate(-10 * 60_000));
		expect((item.sentWrite as IDataObject).skewMs).toBeNull();
		const old = payout(iso(-8 * 60_000));
		listing([old]);
		reading(old);
		const out = await resolve(item);
		expect(out.paymentOutcome).toBe('unknown');
		expect(out.reason).toMatch(/created before this write was sent/);
	});

	it("a Date without its zone is not read (it would be read in n8n's own zone)", () => {
		const now = Date.now();
		const noZone = new Date(now).toUTCString().replace(' GMT', '');
		expect(skewBounds({ date: noZone }, now, now)).toBeUndefined();
		// The Date read as the interval its whole second leaves (r13-money F1).
		const dated = Math.floor(now / 1000) * 1000;
		expect(skewBounds({ date: new Date(now).toUTCString() }, now, now)).toEqual({
			low: dated - now,
			high: dated + 1000 - now,
		});
		expect(skewBounds({ date: '2026-11-28T10:00:00Z' }, now, now)).toBeUndefined();
	});

	it('Resolve prefers the skew its own reads measured to the one the write carries', async () => {
		// The write's own answer was the service's JSON error, dated 10 min slow (a clock since fixed).
		nock(BASE_URL)
			.post('/payouts')
			.reply(500, { errorCode: 'INTERNAL_ERROR', message: 'x' }, serviceDate(-10 * 60_000));
		const { output } = await runNode({ parameters: payoutParameters(), continueOnFail: true });
		const item = output[0].json as IDataObject;
		expect(item.paymentOutcome).toBe('unknown');
		expect((item.sentWrite as IDataObject).skewMs).toBeLessThan(-9 * 60_000);
		const old = payout(iso(-8 * 60_000));
		listing([old]);
		reading(old);
		expect((await resolve(item)).paymentOutcome).toBe('unknown');
	});
});

describe('3: only a card is bound by assignedAt', () => {
	it('a payout made 1 h before the write with an assignedAt after it is not this write', async () => {
		const item = await lostPayoutCreate();
		const old = payout(iso(-HOUR), { status: 'in_progress', assignedAt: iso(2_000) });
		listing([old]);
		reading(old);
		const out = await resolve(item);
		expect(out.paymentOutcome).toBe('unknown');
		expect(out.reason).toMatch(/created before this write was sent/);
	});

	it('createdSince reads assignedAt only when asked to', () => {
		const time = { sentAt: Date.now() - 10_000, skewMs: 0 };
		const record = { createdAt: iso(-HOUR), assignedAt: iso(-1_000) };
		expect(createdSince(record, time)).toBe('before');
		expect(createdSince(record, time, 0, Date.now(), true)).toBe('after');
	});
});

describe('4: a record without its id proves no write', () => {
	/** The service's own error answer: the write measures the skew from it. */
	async function failedPayoutCreate() {
		nock(BASE_URL)
			.post('/payouts')
			.reply(500, { errorCode: 'INTERNAL_ERROR', message: 'x' }, serviceDate());
		const { output } = await runNode({ parameters: payoutParameters(), continueOnFail: true });
		expect(output[0].json.paymentOutcome).toBe('unknown');
		return output[0].json as IDataObject;
	}

	it('one payout listed without an id, two writes under one External ID: neither is paid by it', async () => {
		const first = await failedPayoutCreate();
		const second = await failedPayoutCreate();
		const idless: IDataObject = payout(iso(1_000));
		delete idless.id;
		listing([idless]);
		const a = await resolve(first, { sameProcess: true });
		listing([idless]);
		const b = await resolve(second, { sameProcess: true });
		expect([a.paymentOutcome, b.paymentOutcome]).toEqual(['unknown', 'unknown']);
		expect(a.reason).toMatch(/without its id/);
	});
});

describe('5: a refundedAt that is no time is not money returned', () => {
	it.each([['0001-01-01T00:00:00Z'], [false], ['null']])(
		'refundedAt %p on a failed payout: fundsReturned null with a note, never paid',
		async (refundedAt) => {
			const item = await lostPayoutCreate();
			const failed = payout(iso(1_000), {
				status: 'fail',
				failReason: 'trader_declined',
				refundedAt,
			});
			listing([failed]);
			reading(failed);
			const out = await resolve(item);
			expect(out.paymentOutcome).toBe('unknown');
			expect(out.fundsReturned).toBeNull();
			expect(out.reason).toMatch(/not a time after it was created/);
		},
	);

	it('the shared rule: a real time after createdAt is returned, anything else not or unknown', () => {
		const createdAt = '2026-11-28T10:00:00Z';
		const fail = { status: 'fail', createdAt };
		expect(payoutFundsReturned({ ...fail, refundedAt: '2026-11-28T11:00:00Z' })).toBe(true);
		expect(payoutFundsReturned({ ...fail, refundedAt: '2026-11-28T09:00:00Z' })).toBeNull();
		expect(payoutFundsReturned({ ...fail, refundedAt: '0001-01-01T00:00:00Z' })).toBeNull();
		expect(payoutFundsReturned({ status: 'fail', refundedAt: '0001-01-01T00:00:00Z' })).toBeNull();
		expect(payoutFundsReturned({ ...fail, refundedAt: false })).toBeNull();
		expect(payoutFundsReturned({ ...fail, refundedAt: null })).toBe(false);
	});

	it('Payout > Get says so on its output: fundsReturned null and a note', async () => {
		const failed = payout(iso(-HOUR), { status: 'fail', refundedAt: '0001-01-01T00:00:00Z' });
		reading(failed);
		const { output } = await runNode({
			parameters: { resource: 'payout', operation: 'get', payoutId: 'po_1' },
		});
		expect(output[0].json.fundsReturned).toBeNull();
		expect(output[0].json.fundsReturnedNote).toMatch(/refundedAt/);
	});
});

describe('6: masked digits that agree are no proof of the recipient', () => {
	it('as a tool, a payout to another card with the same last four, shown masked: never "already made"', async () => {
		const other = payout(iso(-24 * HOUR), {
			externalId: 'inv-1042',
			requisite: '•••• 9012',
		});
		nock(BASE_URL)
			.get('/payouts')
			.query(true)
			.reply(200, { payouts: [other], total: 1 }, serviceDate());
		reading(other);
		const out = await toolPayout('INV-1042');
		expect(out.repeated).not.toBe(true);
		expect(JSON.stringify(out)).toMatch(/PAYMENT_REFERENCE_UNPROVEN/);
	});

	it('Resolve Outcome: a record that shows the number masked even read by its ID stays unknown', async () => {
		const item = await lostPayoutCreate();
		const masked = payout(iso(1_000), { requisite: '220012******9012' });
		listing([masked]);
		reading(masked);
		const out = await resolve(item);
		expect(out.paymentOutcome).toBe('unknown');
		expect(out.missing).toEqual(['requisite']);
	});
});

describe("7 and 8: the node's own sentWrite passes the output gate intact", () => {
	it.each([
		[
			'a phone as External ID',
			{
				requisiteType: 'phone',
				requisite: '+7 999 123-45-67',
				additionalFields: { externalId: '79991234567' },
			},
		],
		[
			'a card number inside the External ID',
			{ additionalFields: { externalId: 'card-2200123456789012' } },
		],
		['a test card number as External ID', { additionalFields: { externalId: '4111111111111111' } }],
	])('%s: the unknown item resolves to paid', async (_name, more) => {
		const parameters = payoutParameters(more);
		const item = await lostPayoutCreate(serviceDate(), parameters);
		const sent = item.sentWrite as IDataObject;
		const externalId = (parameters.additionalFields as IDataObject).externalId;
		expect(sent.identity).toBe(externalId);
		const made = payout(iso(1_000), {
			externalId,
			requisiteType: parameters.requisiteType,
			requisite: parameters.requisite,
		});
		listing([made]);
		reading(made);
		expect((await resolve(item)).paymentOutcome).toBe('paid');
	});

	it('as a tool: its own unknown answer, passed back as it came, resolves; the digest is not masked', async () => {
		nock(BASE_URL).get('/payouts').query(true).reply(200, { payouts: [], total: 0 }, serviceDate());
		nock(BASE_URL)
			.post('/payouts')
			.reply(502, GATEWAY_PAGE, { 'Content-Type': 'text/html', ...serviceDate() });
		const answer = await toolPayout('INV-2001');
		const sent = (answer.sentWrite ?? (answer.error as IDataObject)?.sentWrite) as IDataObject;
		expect(String((sent.digests as IDataObject).requisite)).toMatch(/^d1\.[\w-]{20,}$/);
		expect(JSON.stringify(answer)).not.toContain(CARD);
		const made = payout(iso(1_000), { externalId: String(sent.identity) });
		listing([made]);
		reading(made);
		const out = (
			await runTool({
				parameters: {
					resource: 'payment',
					operation: 'resolveOutcome',
					unknownItem: JSON.stringify(answer),
				},
			})
		).output[0];
		expect(out.paymentOutcome).toBe('paid');
	});
});

describe('9: a cancel stays unknown while the payout still waits', () => {
	async function lostCancel() {
		nock(BASE_URL)
			.post('/payouts/po_1/cancel')
			.reply(502, GATEWAY_PAGE, { 'Content-Type': 'text/html', ...serviceDate() });
		const { output } = await runNode({
			parameters: {
				resource: 'payout',
				operation: 'cancel',
				payoutId: { __rl: true, mode: 'id', value: 'po_1' },
			},
			continueOnFail: true,
		});
		expect(output[0].json.paymentOutcome).toBe('unknown');
		return output[0].json as IDataObject;
	}

	it('still waiting_trader long after the cancel: unknown with lookAgainAt, then paid once cancelled', async () => {
		const item = await lostCancel();
		const waiting = payout(iso(-HOUR), { status: 'waiting_trader' });
		const later = Date.now() + 6 * 60_000;
		jest.spyOn(Date, 'now').mockReturnValue(later);
		reading(waiting);
		const first = await resolve(item);
		expect(first.paymentOutcome).toBe('unknown');
		expect(first.lookAgainAt).not.toBeNull();
		// Cancelled after the cancel was sent: the refund the cancel sets dates it (r16-money F1).
		const refundedAt = new Date(later).toISOString();
		reading({ ...waiting, status: 'fail', failReason: 'cancelled_by_merchant', refundedAt });
		expect((await resolve(first)).paymentOutcome).toBe('paid');
	});

	it('taken by an executor: not_paid', async () => {
		const item = await lostCancel();
		reading(payout(iso(-HOUR), { status: 'in_progress' }));
		expect((await resolve(item)).paymentOutcome).toBe('not_paid');
	});
});
