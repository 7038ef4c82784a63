import type { IDataObject } from 'n8n-workflow';
import nock from 'nock';

import { readRecordId } from '../../nodes/shared/money/recordId';
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
 * The twenty-fourth outside read of the money module (/work/outside/r24-money/, issue 49):
 * F1  In tool mode the look-up answered "already made" from a payout whose External ID differed
 *     from the sent canonical reference only in white space (" inv-41 ", "inv-42\n", NBSP, U+3000).
 * F2  Resolve Outcome answered `paid` from such a record for a tool's write.
 *     A tool's External ID is the canonical reference, one spelling: a record is compared with it
 *     exactly; only the user's given reference is made canonical, never the record's value.
 * F3  A record id made only of invisible characters ("\u200b", "\u0000", "\u2060") was an id.
 * F4  A Card Request answered `fulfilled` with card.id / request.cardId 12.5, -3, true or "\u200b"
 *     came out `assigned`: an issued card carries an identifier by the same rule, else unknown.
 * F5  A user's External ID " INV 42 " was trimmed before sending: identities are sent exactly as
 *     given or refused before anything is sent.
 * Obs A sub-workflow receiving the same items in another order on the parent's Retry On Fail sent
 *     every payout again: its key is bound to the item's content and its occurrence, not its index.
 */
isolateMoneyTests();

const run = inProcessRunner(25_000);
const runTool = moneyRunner({ tool: true });
const at = (ms: number) => new Date(Date.now() + ms).toISOString();

const toolCreate = (reference: string): IDataObject => ({
	resource: 'payout',
	operation: 'create',
	amountRub: '1500',
	requisiteType: 'card',
	requisite: READER_CARD,
	agentMayMoveMoney: true,
	paymentReference: reference,
});

const SPELLINGS: Array<[string, string]> = [
	['spaces around', ' inv-41 '],
	['a trailing newline', 'inv-41\n'],
	['a leading tab', '\tinv-41'],
	['a trailing no-break space', 'inv-41\u00a0'],
	['a trailing ideographic space', 'inv-41\u3000'],
];

describe('r24-money F1: the tool’s look-up compares the External ID exactly with the canonical reference', () => {
	function listing(externalId: string) {
		nock(BASE_URL)
			.get('/payouts')
			.query(true)
			.reply(
				200,
				{ payouts: [readerPayout('p-old', externalId, at(-86_400_000))], total: 1 },
				datedAt(0),
			)
			.persist();
		nock(BASE_URL)
			.get('/payouts/p-old')
			.reply(200, readerPayout('p-old', externalId, at(-86_400_000)), datedAt(0))
			.persist();
	}

	it.each(SPELLINGS)('%s: never "already made"', async (_n, stored) => {
		listing(stored);
		nock(BASE_URL)
			.post('/payouts')
			.reply(
				200,
				(_u, body) => readerPayout('p-new', String((body as IDataObject).externalId), at(50)),
				datedAt(0),
			);
		const { item } = await runTool(toolCreate('INV-41'));
		nock.cleanAll();
		expect(item.repeated).toBeUndefined();
		expect(item.id).not.toBe('p-old');
	});

	it('control: the canonical spelling itself is "already made", nothing sent', async () => {
		listing('inv-41');
		const { item, requests } = await runTool(toolCreate('INV-41'));
		nock.cleanAll();
		expect(item.repeated).toBe(true);
		expect(item.id).toBe('p-old');
		expect((requests as Array<{ method?: string }>).filter((r) => r.method === 'POST')).toEqual([]);
	});
});

describe('r24-money F2: Resolve Outcome of a tool’s write compares the External ID exactly', () => {
	async function lostToolWrite(): Promise<IDataObject> {
		nock(BASE_URL).get('/payouts').query(true).reply(200, { payouts: [], total: 0 }, datedAt(0));
		nock(BASE_URL).post('/payouts').replyWithError({ code: 'ECONNRESET', message: 'reset' });
		const { item } = await runTool(toolCreate('INV-42'));
		const error = item.error as IDataObject;
		expect(error.paymentOutcome).toBe('unknown');
		expect((error.sentWrite as IDataObject).identity).toBe('inv-42');
		return item;
	}

	async function resolve(item: IDataObject, externalId: string): Promise<IDataObject> {
		const record = readerPayout('po_1', externalId, at(1000));
		nock(BASE_URL)
			.get('/payouts')
			.query(true)
			.reply(200, { payouts: [record], total: 1 }, datedAt(0))
			.persist();
		nock(BASE_URL).get('/payouts/po_1').reply(200, record, datedAt(0)).persist();
		const [resolved] = await run({
			resource: 'payment',
			operation: 'resolveOutcome',
			unknownItem: item as never,
		});
		nock.cleanAll();
		return resolved;
	}

	it.each([
		...SPELLINGS.map(([n, s]): [string, string] => [n, s.replace('41', '42')]),
		['upper case', 'INV-42'],
	])('%s: not paid', async (_n, stored) => {
		const resolved = await resolve(await lostToolWrite(), stored);
		expect(resolved.paymentOutcome).not.toBe('paid');
	});

	it('control: the canonical reference exactly: paid', async () => {
		const resolved = await resolve(await lostToolWrite(), 'inv-42');
		expect(resolved.paymentOutcome).toBe('paid');
	});
});

describe('r24-money F3: an id made only of invisible characters is no id', () => {
	it.each([
		['a zero-width space', '\u200b'],
		['NUL', '\u0000'],
		['a word joiner', '\u2060'],
		['a BOM', '\ufeff'],
		['two zero-width spaces', '\u200b\u200b'],
		['an ideographic space', '\u3000'],
		['a visible id with a control character', 'p-1\u0000'],
	])('%s: not an id', (_n, id) => {
		expect(readRecordId({ id }).kind).toBe('notAnId');
	});

	it.each([['p-1'], ['12'], ['заявка-1'], ['a b']])('control: %s is an id', (id) => {
		expect(readRecordId({ id })).toEqual({ kind: 'id', id });
	});

	it('Payout Create answered with id "\\u200b": unknown with its sentWrite', async () => {
		nock(BASE_URL)
			.post('/payouts')
			.reply(200, readerPayout('\u200b', 'inv-r24-f3', at(50)), datedAt(0));
		const [item] = await run(readerCreate('inv-r24-f3'));
		expectUnknownWithSentWrite(item);
	});
});

describe('r24-money F4: an issued card carries an identifier by the same rule', () => {
	const fulfilled = (token: string, n: number) => {
		const now = at(50);
		return `{"status":"assigned","card":{"id":${token},"externalId":"card-${n}","status":"assigned","maskedPan":"220070******1234","expiry":"12/29","assignedAt":"${now}","createdAt":"${now}"},"request":{"id":"r-${n}","externalId":"card-${n}","status":"fulfilled","cardId":${token},"createdAt":"${now}"}}`;
	};

	it.each([['12.5'], ['-3'], ['true'], ['"\\u200b"']])(
		'card.id and request.cardId %s: unknown with its sentWrite',
		async (token) => {
			nock(BASE_URL)
				.post('/cards/request')
				.reply(200, fulfilled(token, 1), { ...datedAt(0), 'Content-Type': 'application/json' });
			const [item] = await run({ resource: 'card', operation: 'request', externalId: 'card-1' });
			expectUnknownWithSentWrite(item);
			expect(item.outcome).not.toBe('assigned');
		},
	);

	it.each([
		['"c-1"', 'c-1'],
		['12345678901234567890', '12345678901234567890'],
	])('control: %s is assigned', async (token, id) => {
		nock(BASE_URL)
			.post('/cards/request')
			.reply(200, fulfilled(token, 2), { ...datedAt(0), 'Content-Type': 'application/json' });
		const [item] = await run({ resource: 'card', operation: 'request', externalId: 'card-2' });
		expect(item.paymentOutcome).toBeUndefined();
		expect(item.outcome).toBe('assigned');
		expect(item.cardId).toBe(id);
	});
});

describe('r24-money F5: an identity is sent exactly as given, or refused before anything is sent', () => {
	it.each([[' INV 42 '], ['INV 42\n'], ['\tINV 42'], ['INV 42\u00a0']])(
		'payout External ID %j: refused, naming the field and the value, nothing sent',
		async (given) => {
			// No POST is mocked: a request sent would fail as a network error (unknown).
			const [item] = await run(readerCreate(given));
			expect(item.paymentOutcome).toBe('not_paid');
			expect(String(item.error)).toContain('External ID must not start or end with white space, got');
			expect(String(item.error)).toContain(JSON.stringify(given));
		},
	);

	it('payout Bank ID with a trailing space: refused', async () => {
		const [item] = await run({
			...readerCreate('inv-bank'),
			additionalFields: { externalId: 'inv-bank', bankId: 'sber ' },
		});
		expect(String(item.error)).toContain('Bank ID must not start or end with white space, got');
	});

	it('Idempotency Key " key-1 ": refused', async () => {
		const [item] = await run({ ...readerCreate('inv-key'), idempotencyKey: ' key-1 ' });
		expect(String(item.error)).toContain('Idempotency Key must not start or end with white space, got');
	});

	it('card External ID " emp-1 ": refused', async () => {
		const [item] = await run({ resource: 'card', operation: 'request', externalId: ' emp-1 ' });
		expect(String(item.error)).toContain('External ID must not start or end with white space, got');
	});

	it('control: "INV 42" is sent as given', async () => {
		let sent: unknown;
		nock(BASE_URL)
			.post('/payouts')
			.reply(
				200,
				(_u, body) => {
					sent = (body as IDataObject).externalId;
					return readerPayout('p-42', 'INV 42', at(50));
				},
				datedAt(0),
			);
		const [item] = await run(readerCreate('INV 42'));
		expect(sent).toBe('INV 42');
		expect(item.id).toBe('p-42');
	});

	it('as a tool the model’s reference " INV-7 " is still its canonical reference (not refused)', async () => {
		nock(BASE_URL).get('/payouts').query(true).reply(200, { payouts: [], total: 0 }, datedAt(0));
		let sent: unknown;
		nock(BASE_URL)
			.post('/payouts')
			.reply(
				200,
				(_u, body) => {
					sent = (body as IDataObject).externalId;
					return readerPayout('p-7', 'inv-7', at(50));
				},
				datedAt(0),
			);
		const { item } = await runTool(toolCreate(' INV-7 '));
		expect(sent).toBe('inv-7');
		expect(item.id).toBe('p-7');
	});
});

describe('r24-money observation: a sub-workflow’s key follows the item, not its index', () => {
	const SAVED = {
		resource: 'payout',
		operation: 'create',
		amountRub: '={{ $json.amt }}',
		requisiteType: 'card',
		requisite: READER_CARD,
		additionalFields: {},
	};

	function serve(): string[] {
		const keys: string[] = [];
		nock(BASE_URL)
			.post('/payouts')
			.reply(function (_u, body) {
				keys.push(
					`${String((body as IDataObject).amountRub)} ${String(this.req.headers['idempotency-key'])}`,
				);
				return [200, readerPayout(`p-${keys.length}`, '', at(50)), datedAt(0)];
			})
			.persist();
		return keys;
	}

	async function subRun(executionId: string, parent: string, items: IDataObject[]) {
		await runNode({
			parameters: items.map((item) => ({ ...SAVED, amountRub: String(item.amt) })),
			items,
			executionId,
			sameProcess: true,
			continueOnFail: true,
			nodeId: 'pay1',
			workflowId: 'subwf000000000024',
			nodeParameters: SAVED,
			executionContext: { version: 1, source: 'integrated', parentExecutionId: parent },
		});
	}

	it('the parent’s retry hands the items over in another order: nothing is sent again', async () => {
		const keys = serve();
		await subRun('24001', 'P24a', [{ amt: '100' }, { amt: '200' }]);
		await subRun('24002', 'P24a', [{ amt: '200' }, { amt: '100' }]);
		nock.cleanAll();
		expect(keys).toHaveLength(2);
	});

	it('two identical items are two payments (the first and the second of that content), also reordered', async () => {
		const keys = serve();
		await subRun('24011', 'P24b', [{ amt: '100' }, { amt: '300' }, { amt: '100' }]);
		expect(keys).toHaveLength(3);
		expect(new Set(keys).size).toBe(3);
		await subRun('24012', 'P24b', [{ amt: '100' }, { amt: '100' }, { amt: '300' }]);
		nock.cleanAll();
		expect(keys).toHaveLength(3);
	});

	it('control: another parent execution derives new keys', async () => {
		const keys = serve();
		await subRun('24021', 'P24c', [{ amt: '100' }]);
		await subRun('24022', 'P24d', [{ amt: '100' }]);
		nock.cleanAll();
		expect(keys).toHaveLength(2);
	});
});
