import nock from 'nock';

import { MONEY_WRITES } from '../../nodes/CompanyPayments/payment/writes';
import { resources } from '../../nodes/CompanyPayments/resources';
import { compareSentDetail, companyFingerprint, sealOf } from '../../nodes/shared/money';
import { requisiteDigest } from '../../nodes/shared/money/sentEvidence';
import { API_KEY, BASE_URL, runNode } from './helpers/n8n';

/**
 * Resolve Outcome (issue 44.5): an item that came out unknown, resolved per money operation to
 * paid (with the record), not_paid (only where the record proves it) or still unknown (what is
 * missing, when to look again), by the evidence rules: a detail the found record does not show is
 * no evidence, and masked numbers are no proof of the recipient (r4-money-resolve F6): a number
 * shown in full is compared by the sent write's digest, a masked one only differs or is not shown.
 */
beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const SENT_AT = '2026-11-28T10:00:00.000Z';

/** A sent write as the node seals it for this test's credential (binding.ts). */
export function sealed(
	operation: string,
	identity: string | null,
	details: object,
	more: {
		sentAt?: string;
		skewMs?: number | null;
		apiKey?: string;
		baseUrl?: string;
		/** The whole requisite asked, sealed as its keyed digest (sentEvidence.ts). */
		requisite?: string;
	} = {},
) {
	const apiKey = more.apiKey ?? API_KEY;
	const sent: Record<string, unknown> = {
		operation,
		sentAt: more.sentAt ?? SENT_AT,
		identity,
		details,
		company: companyFingerprint(apiKey, more.baseUrl ?? BASE_URL),
		skewMs: more.skewMs === undefined ? 0 : more.skewMs,
	};
	if (more.requisite) {
		sent.digests = { requisite: requisiteDigest(apiKey, 'requisite', more.requisite) };
	}
	sent.seal = sealOf(apiKey, sent as never);
	return sent;
}

function unknownItem(
	operation: string,
	identity: string | null,
	details: object,
	requisite?: string,
) {
	return {
		error: 'OUTCOME_UNKNOWN: ...',
		paymentOutcome: 'unknown',
		errorCode: 'OUTCOME_UNKNOWN',
		sentWrite: sealed(operation, identity, details, { requisite }),
	};
}

async function resolve(item: unknown) {
	const { output } = await runNode({
		parameters: { resource: 'payment', operation: 'resolveOutcome', unknownItem: item as string },
	});
	expect(nock.isDone()).toBe(true);
	return output[0].json as Record<string, unknown>;
}

// As the node leaves the recipient: its last four digits, and the whole number's keyed digest.
const CARD = '2200123456789012';
const PAYOUT_ITEM = unknownItem(
	'payout.create',
	'salary-77',
	{
		amountRub: 1500,
		requisiteType: 'card',
		requisite: '•••• 9012',
		externalId: 'salary-77',
	},
	CARD,
);

const PAYOUT = {
	id: 'po_1',
	createdAt: '2026-11-28T10:00:01.000Z',
	externalId: 'salary-77',
	status: 'waiting_trader',
	amountRub: 1500,
	chargedUsdt: 16.5,
	requisiteType: 'card',
	requisite: CARD,
	refundedAt: null,
	failReason: null,
};

function listed(records: object[]) {
	nock(BASE_URL)
		.get('/payouts')
		.query((q) => q.externalId === 'salary-77')
		.reply(200, { payouts: records, total: records.length });
}

function read(record: object) {
	nock(BASE_URL).get('/payouts/po_1').reply(200, record);
}

describe('Payout Create', () => {
	it('paid: the payout carrying its External ID, read in full, shows every detail agreeing (the card in full, by the digest)', async () => {
		listed([PAYOUT]);
		read(PAYOUT);
		const out = await resolve(PAYOUT_ITEM);
		expect(out.paymentOutcome).toBe('paid');
		expect((out.record as Record<string, unknown>).id).toBe('po_1');
		expect(out.lookAgainAt).toBeNull();
	});

	it('paid from the error output too: the fields inside error, beside the input item', async () => {
		listed([PAYOUT]);
		read(PAYOUT);
		const { error: message, ...fields } = PAYOUT_ITEM;
		const out = await resolve({ body: { amountRub: 1500 }, error: { message, ...fields } });
		expect(out.paymentOutcome).toBe('paid');
	});

	it('paid from a JSON text of the item too', async () => {
		listed([{ ...PAYOUT, status: 'success' }]);
		read({ ...PAYOUT, status: 'success' });
		const out = await resolve(JSON.stringify(PAYOUT_ITEM));
		expect(out.paymentOutcome).toBe('paid');
		expect(out.reason).toMatch(/status success/);
	});

	it('unknown: the amount absent from the listing and from the record read in full is never paid', async () => {
		const noAmount: Record<string, unknown> = { ...PAYOUT };
		delete noAmount.amountRub;
		delete noAmount.chargedUsdt;
		listed([noAmount]);
		read(noAmount);
		const out = await resolve(PAYOUT_ITEM);
		expect(out.paymentOutcome).toBe('unknown');
		expect(out.missing).toEqual(['amountRub']);
	});

	it('paid: the listing hides the amount, the record read in full shows it', async () => {
		const noAmount: Record<string, unknown> = { ...PAYOUT };
		delete noAmount.amountRub;
		listed([noAmount]);
		read(PAYOUT);
		expect((await resolve(PAYOUT_ITEM)).paymentOutcome).toBe('paid');
	});

	it('unknown: a masked card whose shown digits differ is another payment (a conflict)', async () => {
		const other = { ...PAYOUT, requisite: '220012******9999' };
		listed([other]);
		read(other);
		const out = await resolve(PAYOUT_ITEM);
		expect(out.paymentOutcome).toBe('unknown');
		expect(out.differences).toEqual([
			expect.objectContaining({ field: 'requisite', asked: '•••• 9012' }),
		]);
	});

	it('unknown: a masked card showing too few digits both sides proves nothing', async () => {
		const few = { ...PAYOUT, requisite: '2200**********12' };
		listed([few]);
		read(few);
		const out = await resolve(PAYOUT_ITEM);
		expect(out.paymentOutcome).toBe('unknown');
		expect(out.missing).toEqual(['requisite']);
	});

	it('unknown: a masked phone number whose digits agree is no proof of the recipient (r4 F6)', async () => {
		const item = unknownItem('payout.create', 'salary-77', {
			amountRub: 1500,
			requisiteType: 'phone',
			requisite: '•••• 4567',
			externalId: 'salary-77',
		});
		const phone = { ...PAYOUT, requisiteType: 'phone', requisite: '+7 (999) ***-45-67' };
		listed([phone]);
		read(phone);
		const out = await resolve(item);
		expect(out.paymentOutcome).toBe('unknown');
		expect(out.missing).toEqual(['requisite']);
	});

	it('paid with fundsReturned: a failed payout whose money came back ends the loop, never not_paid, and names the recharge', async () => {
		const failed = {
			...PAYOUT,
			status: 'fail',
			failReason: 'no_traders',
			refundedAt: '2026-11-28T10:05:00Z',
		};
		listed([failed]);
		read(failed);
		const out = await resolve(PAYOUT_ITEM);
		expect(out.paymentOutcome).toBe('paid');
		expect(out.fundsReturned).toBe(true);
		expect(out.reason).toMatch(/return to success/);
		expect(out.whatToDo).toMatch(/payout\.recharged/);
		expect(out.whatToDo).toMatch(/new externalId/);
		expect(out.lookAgainAt).toBeNull();
	});

	it('unknown: no payout carries the External ID (the listing proves no absence), with when to look again', async () => {
		listed([{ ...PAYOUT, externalId: 'salary-78' }]);
		const out = await resolve(PAYOUT_ITEM);
		expect(out.paymentOutcome).toBe('unknown');
		expect(out.missing).toEqual(['a record of it']);
		expect(out.reason).toMatch(/does not prove it was not made/);
		expect(Date.parse(String(out.lookAgainAt))).toBeGreaterThan(Date.now());
	});

	it('unknown: sent without an External ID, nothing identifies it (no request)', async () => {
		const item = unknownItem('payout.create', null, { amountRub: 1500, requisiteType: 'card' });
		const out = await resolve(item);
		expect(out.paymentOutcome).toBe('unknown');
		expect(out.missing).toEqual(['externalId']);
	});
});

describe("from the node's own unknown item (Continue On Fail), not a hand-written one", () => {
	it("a Payout Create answered by the service's 500 resolves paid once the payout is found", async () => {
		nock(BASE_URL)
			.post('/payouts')
			.reply(
				500,
				{ errorCode: 'INTERNAL_ERROR', message: 'x' },
				{ Date: new Date().toUTCString() },
			);
		const { output } = await runNode({
			parameters: {
				resource: 'payout',
				operation: 'create',
				amountRub: '1500',
				requisiteType: 'card',
				requisite: '2200123456789012',
				additionalFields: { externalId: 'salary-77' },
			},
			continueOnFail: true,
		});
		const item = output[0].json;
		expect(item.paymentOutcome).toBe('unknown');
		const made = { ...PAYOUT, createdAt: new Date().toISOString() };
		listed([made]);
		read(made);
		const out = await resolve(item);
		expect(out.paymentOutcome).toBe('paid');
		expect(out.operation).toBe('payout.create');
	});
});

describe('Payout Cancel', () => {
	const item = unknownItem('payout.cancel', null, { payoutId: 'po_1' });

	it('paid: the payout is fail with failReason cancelled_by_merchant', async () => {
		read({ ...PAYOUT, status: 'fail', failReason: 'cancelled_by_merchant', refundedAt: SENT_AT });
		const out = await resolve(item);
		expect(out.paymentOutcome).toBe('paid');
		expect(out.reason).toMatch(/cancelled/);
	});

	it('unknown: the payout is still waiting_trader, so the cancel may still act (r4 F9; a repeat cancel is harmless)', async () => {
		read(PAYOUT);
		const out = await resolve(item);
		expect(out.paymentOutcome).toBe('unknown');
		expect(out.lookAgainAt).not.toBeNull();
		expect(out.reason).toMatch(/still waiting_trader/);
		expect(out.whatToDo).toMatch(/sending the cancel again is harmless/);
	});

	it('not_paid: an executor took the payout', async () => {
		read({ ...PAYOUT, status: 'in_progress' });
		expect((await resolve(item)).paymentOutcome).toBe('not_paid');
	});

	it('unknown: the record read does not show the payout ID asked (absent detail)', async () => {
		const noId: Record<string, unknown> = { ...PAYOUT };
		delete noId.id;
		nock(BASE_URL).get('/payouts/po_1').reply(200, noId);
		const out = await resolve(item);
		expect(out.paymentOutcome).toBe('unknown');
		expect(out.missing).toEqual(['payoutId']);
	});
});

describe('Card Request', () => {
	const item = unknownItem('card.request', 'employee-42', { externalId: 'employee-42' });
	const card = {
		id: 'card_1',
		externalId: 'employee-42',
		status: 'assigned',
		maskedPan: '•••• 1111',
		createdAt: '2026-11-28T10:00:02.000Z',
	};

	function cards(records: object[]) {
		nock(BASE_URL)
			.get('/cards')
			.query((q) => q.externalId === 'employee-42')
			.reply(200, { cards: records, total: records.length });
	}

	it("paid: a card carries the request's External ID", async () => {
		cards([card]);
		nock(BASE_URL).get('/cards/card_1').reply(200, card);
		const out = await resolve(item);
		expect(out.paymentOutcome).toBe('paid');
		expect((out.record as Record<string, unknown>).id).toBe('card_1');
	});

	it('paid: its card is queued (requested), the reserve held', async () => {
		cards([{ ...card, status: 'requested' }]);
		nock(BASE_URL)
			.get('/cards/card_1')
			.reply(200, { ...card, status: 'requested' });
		expect((await resolve(item)).paymentOutcome).toBe('paid');
	});

	it('unknown: a failed card does not say whether the reserve was released', async () => {
		cards([{ ...card, status: 'failed' }]);
		nock(BASE_URL)
			.get('/cards/card_1')
			.reply(200, { ...card, status: 'failed' });
		const out = await resolve(item);
		expect(out.paymentOutcome).toBe('unknown');
		expect(out.reason).toMatch(/frozenBalance/);
	});

	it('unknown: no card carries it (a pending request is not listed)', async () => {
		cards([]);
		const out = await resolve(item);
		expect(out.paymentOutcome).toBe('unknown');
		expect(out.reason).toMatch(/pending/);
	});

	it('unknown: the card found does not show the External ID even in full (absent detail)', async () => {
		// Listed as carrying it, but the card read in full writes it back nowhere: no evidence.
		// (Listed exactly as sent: another spelling, EMPLOYEE-42, is another External ID and is
		// not read at all since outside r22-money F2.)
		cards([{ ...card }]);
		nock(BASE_URL)
			.get('/cards/card_1')
			.reply(200, { ...card, externalId: null });
		const hidden = await resolve(item);
		expect(hidden.paymentOutcome).toBe('unknown');
	});
});

describe('operations that carry nothing to look up by', () => {
	it.each([
		['card.recharge', { cardId: 'card_1', targetAmount: 25 }],
		['order.accept', {}],
		['order.pay', { amountRub: 1500, merchantName: 'Shop' }],
	])('%s: unknown, said plainly, no request', async (operation, details) => {
		const out = await resolve(unknownItem(operation, null, details));
		expect(out.paymentOutcome).toBe('unknown');
		expect(out.reason).toMatch(/carries nothing the node can look it up by/);
		expect(out.missing).toEqual(['a way to look it up']);
		expect(out.lookAgainAt).toBeNull();
	});
});

it('takes the unknown items of every money operation of the node', () => {
	const money = resources.flatMap((resource) =>
		resource.operations
			.filter((operation) => operation.kind === 'money')
			.map((operation) => `${resource.value}.${operation.value}`),
	);
	expect(Object.keys(MONEY_WRITES).sort()).toEqual(money.sort());
});

describe('the input', () => {
	it('an unknown item without sentWrite (e.g. Card Request answered "no card"): unknown, sentWrite missing', async () => {
		const out = await resolve({ paymentOutcome: 'unknown', error: 'No card was issued' });
		expect(out.paymentOutcome).toBe('unknown');
		expect(out.missing).toEqual(['sentWrite']);
	});

	it('an item that claims not_paid without a sealed sentWrite is never echoed: unknown, unverified, nothing asked', async () => {
		const out = await resolve({ paymentOutcome: 'not_paid', error: 'INSUFFICIENT_BALANCE' });
		expect(out.paymentOutcome).toBe('unknown');
		expect(out.lookAgainAt).toBeNull();
		expect(out.verified).toBe(false);
		expect(out.reason).toMatch(/checked nothing/);
	});

	it.each([
		[{ error: 'x' }, /paymentOutcome none and no sentWrite/],
		[{ paymentOutcome: 'maybe' }, /paymentOutcome "maybe" and no sentWrite/],
		['not json', /got "not json"/],
		['', /must not be empty/],
		[[1], /got a list/],
	])('refuses %j before any request, naming the field', async (value, message) => {
		await expect(resolve(value)).rejects.toThrow(message);
	});

	it('refuses a sentWrite of an operation that moves no money', async () => {
		await expect(resolve(unknownItem('payout.get', null, {}))).rejects.toThrow(
			/must come from a money operation/,
		);
	});
});

describe('masked on both sides (sentEvidence.ts)', () => {
	it.each([
		['•••• 9012', '220012******9012', 'not_shown'],
		['•••• 9012', '•••• 9012', 'not_shown'],
		['•••• 9012', '2200123456789012', 'not_shown'],
		['•••• 9012', '220012******9013', 'differs'],
		['•••• 9012', '22001234567890**', 'not_shown'],
		['•••• 4567', '8 (999) ***-45-67', 'not_shown'],
		['•••• 4567', '+7 999 ***-**-67', 'not_shown'],
		['•••• 4567', null, 'not_shown'],
	])('asked %s, shown %s: %s', (asked, shown, verdict) => {
		expect(compareSentDetail('requisite', asked, shown)).toBe(verdict);
	});
});
