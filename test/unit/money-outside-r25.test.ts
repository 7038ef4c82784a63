import type { IDataObject } from 'n8n-workflow';
import nock from 'nock';

import { readRecordId } from '../../nodes/shared/money/recordId';
import { limitSentWrites } from '../../nodes/shared/money/write';
import {
	datedAt,
	expectUnknownWithSentWrite,
	inProcessRunner,
	isolateMoneyTests,
	moneyRunner,
	READER_CARD,
	readerCreate,
	readerPayout,
} from './helpers/money';
import { BASE_URL, runNode } from './helpers/n8n';

/*
 * The twenty-fifth outside read of the money module (/work/outside/r25-money/, issue 49):
 * F2  A record ID made only of invisible characters that are letters or marks (Hangul fillers
 *     U+3164, U+115F, U+1160, U+FFA0, U+034F, variation selectors, the braille blank U+2800) was
 *     an ID: the rule stripped white space, Cf and Cc only. An ID now must hold a printable ASCII
 *     character (U+0021–U+007E) and no control character.
 * F3  Accept Quote under a user's key (`INV-5`), its answer lost (unknown), then a re-run in the
 *     same process with a new quote under the same key: the node refused it itself as
 *     IDEMPOTENCY_KEY_REUSED `not_paid` ("give each payment its own key"), dropping the first
 *     send's sentWrite. A refusal under a key whose send is undecided is now `unknown`, carrying
 *     that send's sentWrite; so is one made while that send is still in flight (t8).
 * F1  A sub-workflow's derived key was bound to the item's JSON and its occurrence: with the
 *     payment's fields from expressions on another node and identical items (`{checked:true}`),
 *     the parent's retry in another order swapped keys and both paid payouts came out
 *     IDEMPOTENCY_KEY_REUSED `not_paid`. The key now follows what is sent: the node's evaluated
 *     parameters for the item, and its occurrence among items sending the same.
 */
isolateMoneyTests();

const run = inProcessRunner(26_000);
const runTool = moneyRunner({ tool: true });
const at = (ms: number) => new Date(Date.now() + ms).toISOString();

const INVISIBLE: Array<[string, string]> = [
	['a Hangul filler', '\u3164'],
	['a Hangul choseong filler', '\u115f'],
	['a Hangul jungseong filler', '\u1160'],
	['a halfwidth Hangul filler', '\uffa0'],
	['a combining grapheme joiner', '\u034f'],
	['a variation selector-16', '\ufe0f'],
	['a variation selector-256', '\u{e01ef}'],
	['a braille blank', '\u2800'],
	['a Hangul filler between spaces', ' \u3164 '],
	['two fillers and a joiner', '\u3164\u200d\u3164'],
];

const ORDER_QUOTE = '3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b';

/** One Pay QR Code: its quote, then an accept answered with an order whose id is `id`. */
function orderAnsweredWith(id: string) {
	nock(BASE_URL)
		.post('/orders/prepare')
		.reply(
			200,
			{
				id: ORDER_QUOTE,
				amountRub: 500,
				amountUsdt: 5.5,
				merchantName: 'Shop',
				createdAt: at(0),
			},
			datedAt(0),
		);
	nock(BASE_URL)
		.post(`/orders/accept/${ORDER_QUOTE}`)
		.reply(
			200,
			{
				id,
				amountRub: 500,
				amountUsdt: 5.5,
				merchantName: 'Shop',
				status: 'created',
				paymentType: 'nspk',
				externalOrderId: null,
				createdAt: at(50),
			},
			datedAt(0),
		);
}

const QUOTE_1 = '11111111-2222-4333-8444-555555555555';
const QUOTE_2 = '66666666-7777-4888-9999-aaaaaaaaaaaa';
const QUOTE_3 = 'bbbbbbbb-cccc-4ddd-8eee-ffffffffffff';
const lost = (): Error => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
const acceptQuote = (quoteId: string) => ({
	resource: 'order',
	operation: 'accept',
	quoteId,
	idempotencyKey: 'INV-5',
});
const acceptedOrder = (id: string) => ({
	id,
	amountRub: 500,
	amountUsdt: 5.5,
	merchantName: 'Shop',
	status: 'created',
	paymentType: 'nspk',
	externalOrderId: null,
	createdAt: at(50),
});

/** Accepts of `quoteId` counted in `sent`, answered by `answer` (a lost answer when 'lost'). */
function accepts(quoteId: string, sent: string[], answer: 'lost' | 'paid' | 'invalid') {
	if (answer === 'lost') {
		// Every try lost (the transport re-sends an accept on a lost answer: replay by key).
		nock(BASE_URL)
			.persist()
			.post(`/orders/accept/${quoteId}`)
			.reply((_uri, _body, callback) => {
				sent.push(quoteId);
				callback(lost(), [500, '']);
			});
		return;
	}
	nock(BASE_URL)
		.post(`/orders/accept/${quoteId}`)
		.reply(() => {
			sent.push(quoteId);
			return answer === 'paid'
				? [200, acceptedOrder(`order-${quoteId.slice(0, 4)}`), datedAt(0)]
				: [
						400,
						{ statusCode: 400, error: 'x', errorCode: 'VALIDATION_ERROR', message: 'quoteId' },
						datedAt(0),
					];
		});
}

describe('r25-money F3: another quote under a key whose send is undecided is unknown', () => {
	it('a re-run with a new quote after a lost answer: unknown with the first send’s sentWrite, nothing sent', async () => {
		const sent: string[] = [];
		accepts(QUOTE_1, sent, 'lost');
		const [first] = await run(acceptQuote(QUOTE_1));
		expectUnknownWithSentWrite(first);
		const firstTries = sent.length;
		const [second] = await run(acceptQuote(QUOTE_2));
		expect(new Set(sent)).toEqual(new Set([QUOTE_1]));
		expect(sent.length).toBe(firstTries);
		expectUnknownWithSentWrite(second);
		expect(second.sentWrite).toEqual(first.sentWrite);
		expect(String(second.error)).toContain('undecided');
		expect(String(second.error)).not.toContain('Give each payment its own Idempotency Key');
		expect(JSON.stringify(second)).toContain('Resolve it first');
		// A third try is judged the same way: the earlier unknown is never erased.
		const [third] = await run(acceptQuote(QUOTE_3));
		expectUnknownWithSentWrite(third);
		expect(third.sentWrite).toEqual(first.sentWrite);
		expect(sent.length).toBe(firstTries);
	});

	it('control: a new quote under a key whose send was paid is IDEMPOTENCY_KEY_REUSED, not_paid', async () => {
		const sent: string[] = [];
		accepts(QUOTE_1, sent, 'paid');
		const [first] = await run(acceptQuote(QUOTE_1));
		expect(first.error).toBeUndefined();
		const [second] = await run(acceptQuote(QUOTE_2));
		expect(second.paymentOutcome).toBe('not_paid');
		expect(String(second.error)).toContain('IDEMPOTENCY_KEY_REUSED');
		expect(sent).toEqual([QUOTE_1]);
	});

	it('at once: the second waits for the first, lost: unknown with its sentWrite, one accept sent', async () => {
		const sent: string[] = [];
		let release = (): void => undefined;
		const held = new Promise<void>((resolve) => {
			release = resolve;
		});
		let arrive = (): void => undefined;
		const arrived = new Promise<void>((resolve) => {
			arrive = resolve;
		});
		nock(BASE_URL)
			.persist()
			.post(`/orders/accept/${QUOTE_1}`)
			.reply((_uri, _body, callback) => {
				sent.push(QUOTE_1);
				arrive();
				void held.then(() => callback(lost(), [500, '']));
			});
		const firstRun = run(acceptQuote(QUOTE_1));
		// The second starts while the first is in flight (its accept arrived at the service).
		await arrived;
		const secondRun = run(acceptQuote(QUOTE_2));
		release();
		const [[first], [second]] = await Promise.all([firstRun, secondRun]);
		expectUnknownWithSentWrite(first);
		expectUnknownWithSentWrite(second);
		expect(second.sentWrite).toEqual(first.sentWrite);
		expect(new Set(sent)).toEqual(new Set([QUOTE_1]));
	});

	it('once only the key’s trace is left: still unknown, nothing sent, naming the first send’s item', async () => {
		limitSentWrites({ maxKept: 1, heldMs: 0 });
		try {
			const sent: string[] = [];
			accepts(QUOTE_1, sent, 'lost');
			const [first] = await run(acceptQuote(QUOTE_1));
			expectUnknownWithSentWrite(first);
			const firstTries = sent.length;
			// Another payment pushes the first out of the memory: only its trace stays.
			accepts(QUOTE_3, sent, 'paid');
			const [other] = await run({ ...acceptQuote(QUOTE_3), idempotencyKey: 'INV-6' });
			expect(other.error).toBeUndefined();
			const [second] = await run(acceptQuote(QUOTE_2));
			expect(second.paymentOutcome).toBe('unknown');
			expect(String(second.error)).toContain('undecided');
			expect(JSON.stringify(second)).toContain('on the item of that earlier send');
			expect(sent.filter((q) => q === QUOTE_2)).toEqual([]);
			expect(sent.filter((q) => q === QUOTE_1).length).toBe(firstTries);
		} finally {
			limitSentWrites();
		}
	});

	it('control: the first refused (not_paid), the second is sent and paid', async () => {
		const sent: string[] = [];
		accepts(QUOTE_1, sent, 'invalid');
		accepts(QUOTE_2, sent, 'paid');
		const [first] = await run(acceptQuote(QUOTE_1));
		expect(first.paymentOutcome).toBe('not_paid');
		const [second] = await run(acceptQuote(QUOTE_2));
		expect(second.error).toBeUndefined();
		expect(sent).toEqual([QUOTE_1, QUOTE_2]);
	});
});

describe('r25-money F2: an ID holds a printable ASCII character', () => {
	it.each(INVISIBLE)('%s: not an id', (_n, id) => {
		expect(readRecordId({ id }).kind).toBe('notAnId');
	});

	it.each([['заявка'], ['注文'], ['\u00e9\u00e8']])(
		'a text of non-ASCII letters only (%s): not an id (conservative)',
		(id) => {
			expect(readRecordId({ id })).toEqual(
				expect.objectContaining({ kind: 'notAnId', why: expect.stringContaining('ASCII') }),
			);
		},
	);

	it.each([['p-1'], ['12'], ['заявка-1'], ['a b'], ['\u3164x'], ['~']])(
		'control: %j is an id',
		(id) => {
			expect(readRecordId({ id })).toEqual({ kind: 'id', id });
		},
	);

	it.each([['p-1\u0000'], ['p-1\u007f'], ['p-1\u0085']])('%j holds a control character', (id) => {
		expect(readRecordId({ id }).kind).toBe('notAnId');
	});

	it.each([
		['a Hangul filler', '\u3164'],
		['a combining grapheme joiner', '\u034f'],
	])('Payout Create answered with the id %s: unknown with its sentWrite', async (_n, id) => {
		nock(BASE_URL)
			.post('/payouts')
			.reply(200, readerPayout(id, 'inv-r25-f2', at(50)), datedAt(0));
		const [item] = await run(readerCreate('inv-r25-f2'));
		expectUnknownWithSentWrite(item);
	});

	it.each(INVISIBLE.slice(0, 8))(
		'Pay QR Code answered with an order whose id is %s: unknown (node)',
		async (_n, id) => {
			orderAnsweredWith(id);
			const [item] = await run({ resource: 'order', operation: 'pay', qrCode: 'QR-A' });
			expectUnknownWithSentWrite(item);
		},
	);

	it.each(INVISIBLE.slice(0, 8))(
		'Pay QR Code answered with an order whose id is %s: unknown (tool)',
		async (_n, id) => {
			orderAnsweredWith(id);
			const { item } = await runTool({
				resource: 'order',
				operation: 'pay',
				qrCode: 'QR-A',
				paymentReference: 'R1',
				agentMayMoveMoney: true,
			});
			expect(item.paymentOutcome).toBe('unknown');
			expect(item.sentWrite).toEqual(expect.objectContaining({ seal: expect.any(String) }));
		},
	);

	it.each([['\u0661\u0662\u0663'], ['\uff11\uff12\uff13'], ['\u3164']])(
		'Payout Cancel of Payout ID %j: refused before anything is sent (no answer could bind it)',
		async (payoutId) => {
			// No POST is mocked: a request sent would fail as a network error (unknown).
			const [item] = await run({
				resource: 'payout',
				operation: 'cancel',
				payoutId: { __rl: true, mode: 'id', value: payoutId },
			});
			expect(item.paymentOutcome).toBe('not_paid');
			expect(String(item.error)).toContain('Payout ID must hold a printable ASCII character');
			expect(String(item.error)).toContain(JSON.stringify(payoutId));
		},
	);

	it('control: an order id of ASCII is paid (node)', async () => {
		orderAnsweredWith('7c0e4f1a-2b3d-4e5f-8a9b-0c1d2e3f4a5b');
		const [item] = await run({ resource: 'order', operation: 'pay', qrCode: 'QR-A' });
		expect(item.error).toBeUndefined();
		expect(item.id).toBe('7c0e4f1a-2b3d-4e5f-8a9b-0c1d2e3f4a5b');
	});
});

describe('r25-money F1: a sub-workflow’s key follows what the item sends, not its JSON', () => {
	const SAVED = {
		resource: 'payout',
		operation: 'create',
		amountRub: "={{ $('Trigger').item.json.amount }}",
		requisiteType: 'card',
		requisite: READER_CARD,
		additionalFields: {},
		idempotencyKey: '',
	};

	function serve(): string[] {
		const sent: string[] = [];
		nock(BASE_URL)
			.persist()
			.post('/payouts')
			.reply((_u, body) => {
				const amountRub = String((body as { amountRub?: unknown }).amountRub);
				sent.push(amountRub);
				const made = {
					...readerPayout(`p-${sent.length}`, '', at(50)),
					amountRub: Number(amountRub),
				};
				return [200, made, datedAt(0)];
			});
		return sent;
	}

	/** One sub-workflow run: identical items ({checked:true}), each item's amount resolved. */
	async function subRun(executionId: string, parent: string, amounts: string[]) {
		const { output } = await runNode({
			parameters: amounts.map((amountRub) => ({ ...SAVED, amountRub })),
			items: amounts.map(() => ({ checked: true })),
			executionId,
			sameProcess: true,
			continueOnFail: true,
			nodeId: 'pay25',
			workflowId: 'subwf000000000025',
			nodeParameters: SAVED,
			executionContext: { version: 1, source: 'integrated', parentExecutionId: parent },
		});
		return output.map((o) => o.json as IDataObject);
	}

	it('identical items, the parent’s retry in another order: each payout answered as paid, nothing sent again', async () => {
		const sent = serve();
		const first = await subRun('25001', 'P25a', ['1000', '2500']);
		expect(first.map((item) => item.error)).toEqual([undefined, undefined]);
		const again = await subRun('25002', 'P25a', ['2500', '1000']);
		nock.cleanAll();
		expect(sent).toEqual(['1000', '2500']);
		expect(again.map((item) => item.paymentOutcome ?? 'paid')).toEqual(['paid', 'paid']);
		expect(again.map((item) => item.amountRub)).toEqual([2500, 1000]);
	});

	it('two items sending the same are two payments, also reordered among other items', async () => {
		const sent = serve();
		await subRun('25011', 'P25b', ['1000', '3000', '1000']);
		expect(sent).toEqual(['1000', '3000', '1000']);
		const again = await subRun('25012', 'P25b', ['1000', '1000', '3000']);
		nock.cleanAll();
		expect(sent).toHaveLength(3);
		expect(again.map((item) => item.paymentOutcome ?? 'paid')).toEqual(['paid', 'paid', 'paid']);
	});

	it('control: another parent execution derives new keys', async () => {
		const sent = serve();
		await subRun('25021', 'P25c', ['1000']);
		await subRun('25022', 'P25d', ['1000']);
		nock.cleanAll();
		expect(sent).toHaveLength(2);
	});
});
