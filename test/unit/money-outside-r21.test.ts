import type { IDataObject } from 'n8n-workflow';
import nock from 'nock';

import { answeredOutcome } from '../../nodes/shared/money/outcome';
import { forgetSkews } from '../../nodes/shared/money/clock';
import { forgetAllSentWrites } from '../../nodes/shared/money/write';
import { expectUnknownWithSentWrite } from './helpers/money';
import { BASE_URL, runNode } from './helpers/n8n';

/*
 * The twenty-first outside read of the money module (/work/outside/r21-money/):
 * F1  No execution ID, several items: item 0 paid, item 1 failed (500, or 422
 *     INSUFFICIENT_BALANCE); Retry On Fail ran every item again and item 0, whose random key was
 *     dropped once paid, was paid a second time under a new key. A paid item keeps its key
 *     (key.ts unexecutedKey) and gets its first answer back; only a not_paid item gets a new one.
 * F2  Card Request: a card not tied to this request by what the request shows (cardId) or by the
 *     External ID this write sent was a success (an empty end of a tie, a pending request beside
 *     an assigned card, an undocumented top-level externalId read first).
 * F3  A code the document does not list (DEADLINE_EXCEEDED, PAYOUT_TIME_OUT …) at 400/422/429 was
 *     not_paid unless its name matched a word list: every unlisted code is now unknown.
 * F4  2xx failure signs in shapes not read: `errors` as an object, `ok: "false"`, a nested
 *     record's `error` (Card Request's request.error).
 */
beforeAll(() => nock.disableNetConnect());
beforeEach(() => {
	forgetAllSentWrites();
	forgetSkews();
});
afterEach(() => {
	nock.cleanAll();
});

const payoutParams = (amountRub: string): IDataObject => ({
	resource: 'payout',
	operation: 'create',
	amountRub,
	requisiteType: 'card',
	requisite: '4111111111111111',
	idempotencyKey: '',
	additionalFields: {},
});

const payout = (id: string, amountRub: number): IDataObject => ({
	id,
	externalId: null,
	status: 'waiting_trader',
	amountRub,
	chargedUsdt: 16,
	rate: 93,
	requisiteType: 'card',
	requisite: '4111111111111111',
	failReason: null,
	refundedAt: null,
	createdAt: new Date(Date.now() + 1000).toISOString(),
});

const errorBody = (status: number, errorCode: string) => ({
	statusCode: status,
	error: 'x',
	errorCode,
	message: 'm',
});

type Posted = { amountRub: number; key: string };

/** Serves POST /payouts: item 0 (1500) by `first`, item 1 (2000) by `second`; logs each POST. */
function servePayouts(
	first: (n: number) => [number, IDataObject],
	second: [number, IDataObject],
): Posted[] {
	const posted: Posted[] = [];
	let n = 0;
	nock(BASE_URL)
		.post('/payouts')
		.reply(function (_uri, body) {
			const amountRub = (body as IDataObject).amountRub as number;
			posted.push({ amountRub, key: String(this.req.headers['idempotency-key']) });
			n += 1;
			if (amountRub === 2000) return second;
			return first(n);
		})
		.persist();
	nock(BASE_URL)
		.get(/\/payouts\/p-\d+/)
		.reply(200, (uri) => payout(uri.split('/').pop() as string, 1500))
		.persist();
	return posted;
}

/** One try of the node without an execution ID, two items, not continuing on fail. */
async function tryNoExecution(): Promise<IDataObject | undefined> {
	try {
		await runNode({
			parameters: [payoutParams('1500'), payoutParams('2000')],
			items: [{ row: 1 }, { row: 2 }],
			executionId: undefined,
			sameProcess: true,
			continueOnFail: false,
			nodeId: 'r21-node',
		});
		return undefined;
	} catch (error) {
		return error as IDataObject;
	}
}

describe('r21-money F1: no execution ID, Retry On Fail after item 1 failed', () => {
	it.each([
		['500 INTERNAL_ERROR', [500, errorBody(500, 'INTERNAL_ERROR')]],
		['422 INSUFFICIENT_BALANCE', [422, errorBody(422, 'INSUFFICIENT_BALANCE')]],
	] as Array<[string, [number, IDataObject]]>)(
		'item 1 answered %s: item 0 is paid once, its first key only',
		async (_name, second) => {
			const posted = servePayouts((n) => [200, payout(`p-${n}`, 1500)], second);
			expect(await tryNoExecution()).toBeDefined();
			expect(await tryNoExecution()).toBeDefined();
			const item0 = posted.filter((p) => p.amountRub === 1500);
			expect(item0).toHaveLength(1);
		},
	);

	it('a not_paid item gets a new key and is sent again (safe)', async () => {
		const posted = servePayouts(
			(n) =>
				n === 1 ? [422, errorBody(422, 'INSUFFICIENT_BALANCE')] : [200, payout(`p-${n}`, 1500)],
			[422, errorBody(422, 'INSUFFICIENT_BALANCE')],
		);
		await tryNoExecution();
		await tryNoExecution();
		const item0 = posted.filter((p) => p.amountRub === 1500);
		expect(item0).toHaveLength(2);
		expect(new Set(item0.map((p) => p.key)).size).toBe(2);
	});

	it('another item (other JSON) is another payment under another key', async () => {
		const posted = servePayouts((n) => [200, payout(`p-${n}`, 1500)], [200, payout('p-x', 2000)]);
		const once = (row: number) =>
			runNode({
				parameters: payoutParams('1500'),
				items: [{ row }],
				executionId: undefined,
				sameProcess: true,
				continueOnFail: true,
				nodeId: 'r21-other',
			});
		await once(1);
		await once(2);
		expect(posted).toHaveLength(2);
		expect(new Set(posted.map((p) => p.key)).size).toBe(2);
	});
});

const now = () => new Date(Date.now() + 2000).toISOString();
const cardAnswer = (card: IDataObject, request: IDataObject, top: IDataObject = {}) => ({
	status: 'assigned',
	...top,
	card: { status: 'assigned', createdAt: now(), ...card },
	request: { id: `r-${Math.random().toString(16).slice(2)}`, createdAt: now(), ...request },
});

async function cardRequest(externalId: string, answer: IDataObject): Promise<IDataObject> {
	nock(BASE_URL).post('/cards/request').reply(200, answer, { Date: new Date().toUTCString() });
	const { output } = await runNode({
		parameters: { resource: 'card', operation: 'request', externalId, idempotencyKey: '' },
		continueOnFail: true,
		executionId: `r21-${Math.random()}`,
	});
	return output[0].json as IDataObject;
}

describe('r21-money F2: Card Request answered with a card not tied to this request', () => {
	it.each([
		[
			'A: no External ID sent, the card carries "emp-7"',
			'',
			cardAnswer(
				{ id: 'c-1', externalId: 'emp-7' },
				{ externalId: null, status: 'fulfilled', cardId: 'c-1' },
			),
		],
		[
			'B: request fulfilled naming no card (cardId null), card c-9 shown',
			'emp-42',
			cardAnswer(
				{ id: 'c-9', externalId: 'emp-42' },
				{ externalId: 'emp-42', status: 'fulfilled', cardId: null },
			),
		],
		[
			'C: request pending (cardId null) beside an assigned card carrying "emp-7"',
			'',
			cardAnswer(
				{ id: 'c-1', externalId: 'emp-7' },
				{ externalId: null, status: 'pending', cardId: null },
			),
		],
		[
			'D: "emp-42" sent, request and card carry "emp-7", top-level externalId "emp-42"',
			'emp-42',
			cardAnswer(
				{ id: 'c-1', externalId: 'emp-7' },
				{ externalId: 'emp-7', status: 'fulfilled', cardId: 'c-1' },
				{ externalId: 'emp-42' },
			),
		],
	])('%s: unknown with its sentWrite, never a success', async (_name, externalId, answer) => {
		expectUnknownWithSentWrite(await cardRequest(externalId, answer));
	});

	it('D2: "emp-42" sent, no card, the request carries "emp-7", top-level externalId "emp-42": the request\'s own field decides', async () => {
		const answer = {
			status: 'assigned',
			externalId: 'emp-42',
			card: null,
			request: {
				id: 'r-d2',
				externalId: 'emp-7',
				status: 'fulfilled',
				cardId: 'c-1',
				createdAt: now(),
			},
		};
		expectUnknownWithSentWrite(await cardRequest('emp-42', answer));
	});

	it.each([
		[
			'"emp-42" sent: the request names the card, the card carries "emp-42"',
			'emp-42',
			cardAnswer(
				{ id: 'c-1', externalId: 'emp-42' },
				{ externalId: null, status: 'fulfilled', cardId: 'c-1' },
			),
		],
		[
			'none sent: the request names the card, the card carries none',
			'',
			cardAnswer(
				{ id: 'c-1', externalId: null },
				{ externalId: null, status: 'fulfilled', cardId: 'c-1' },
			),
		],
	])('control, %s: a success', async (_name, externalId, answer) => {
		const item = await cardRequest(externalId, answer);
		expect(item.paymentOutcome).toBeUndefined();
		expect(item.cardId).toBe('c-1');
	});
});

describe('r21-money F3: a code the document does not list is unknown, whatever its name', () => {
	it.each([
		[400, 'DEADLINE_EXCEEDED'],
		[400, 'PAYOUT_TIME_OUT'],
		[422, 'PAYOUT_SERVICE_DOWN'],
		[400, 'DOWNSTREAM_ERROR'],
		[422, 'PAYMENT_PROVIDER_ERROR'],
		[400, 'CARD_ISSUER_ERROR'],
		[400, 'BACK_END_ERROR'],
		[429, 'PAYOUT_TIME_OUT'],
		[429, 'PAYOUTS_SLOW'],
		[400, 'SOMETHING_NEW'],
	])('HTTP %i %s: unknown', (status, code) => {
		expect(answeredOutcome(status, errorBody(status, code))).toBe('unknown');
	});

	it.each([
		[429, 'TOO_MANY_REQUESTS'],
		[429, 'RATE_LIMITED'],
		[429, 'PAYOUT_ACTIVE_LIMIT'],
		[422, 'INSUFFICIENT_BALANCE'],
	])('control, HTTP %i %s: not_paid', (status, code) => {
		expect(answeredOutcome(status, errorBody(status, code))).toBe('not_paid');
	});

	it('Payout Create answered 400 DEADLINE_EXCEEDED: unknown with its sentWrite, sent once', async () => {
		let posts = 0;
		nock(BASE_URL)
			.post('/payouts')
			.reply(() => {
				posts += 1;
				return [400, errorBody(400, 'DEADLINE_EXCEEDED')];
			})
			.persist();
		const run = () =>
			runNode({
				parameters: payoutParams('1500'),
				continueOnFail: true,
				sameProcess: true,
				executionId: 'r21-f3',
			});
		const first = (await run()).output[0].json as IDataObject;
		const again = (await run()).output[0].json as IDataObject;
		expectUnknownWithSentWrite(first);
		expect(again.paymentOutcome).toBe('unknown');
		expect(posts).toBe(1);
	});
});

describe('r21-money F4: 2xx failure signs in other shapes', () => {
	const payoutOnce = async (answer: IDataObject) => {
		nock(BASE_URL).post('/payouts').reply(200, answer, { Date: new Date().toUTCString() });
		const { output } = await runNode({
			parameters: payoutParams('1500'),
			continueOnFail: true,
			executionId: `r21-f4-${Math.random()}`,
		});
		return output[0].json as IDataObject;
	};

	it.each([
		['errors as an object', { errors: { requisite: ['declined by bank'] } }],
		['ok: "false"', { ok: 'false' }],
		['success: "false"', { success: 'false' }],
	])('payout with %s: unknown with its sentWrite', async (_name, extra) => {
		expectUnknownWithSentWrite(await payoutOnce({ ...payout('p-1', 1500), ...extra }));
	});

	it('control: payout with an empty errors object is a success', async () => {
		const item = await payoutOnce({ ...payout('p-1', 1500), errors: {} });
		expect(item.paymentOutcome).toBeUndefined();
	});

	it('Card Request whose request carries error "BRIDGE_ERROR": unknown with its sentWrite', async () => {
		const answer = cardAnswer(
			{ id: 'c-1', externalId: null },
			{ externalId: null, status: 'fulfilled', cardId: 'c-1', error: 'BRIDGE_ERROR' },
		);
		expectUnknownWithSentWrite(await cardRequest('', answer));
	});
});
