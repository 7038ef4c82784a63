import type { IDataObject } from 'n8n-workflow';
import nock from 'nock';

import {
	datedAt,
	expectUnknownWithSentWrite,
	inProcessRunner,
	isolateMoneyTests,
	moneyRunner,
} from './helpers/money';
import { BASE_URL } from './helpers/n8n';

/*
 * The nineteenth outside read of the money module (/work/outside/r19-money/):
 * F1  Card Request answered 200 with its request (fulfilled, this External ID, made now) but a
 *     card that cannot be this request's: the card carries another External ID, or the request
 *     names another card (request.cardId ≠ card.id). It was a success naming the card shown.
 * F1b The same as a tool.
 * The contract's `ties` (the other records an answer shows as this write's, tied to its `made`
 * record) are checked by the one binding rule (binding.ts brokenTies, write.ts answerProvesOther).
 */
isolateMoneyTests();

const at = (ms: number) => new Date(Date.now() + ms).toISOString();
const run = inProcessRunner(19_000);
const outcome = (item: IDataObject) => (item.paymentOutcome as string | undefined) ?? 'success';

const card = (over: IDataObject = {}) => ({
	id: 'c1',
	externalId: 'emp-7',
	status: 'assigned',
	createdAt: '2026-01-01T00:00:00Z',
	...over,
});
const request = (over: IDataObject = {}) => ({
	id: `r-${Math.random().toString(16).slice(2)}`,
	externalId: 'emp-7',
	status: 'fulfilled',
	cardId: 'c1',
	createdAt: at(50),
	...over,
});

const otherCards: Array<[string, () => IDataObject]> = [
	[
		'the card carries another External ID',
		() => ({ status: 'assigned', card: card({ externalId: 'emp-8' }), request: request() }),
	],
	[
		'the request names another card',
		() => ({ status: 'assigned', card: card(), request: request({ cardId: 'c2' }) }),
	],
];

describe('r19-money F1: Card Request answered with a card that is not this request’s', () => {
	it.each(otherCards)('%s: unknown with its sentWrite, never a success', async (_name, body) => {
		nock(BASE_URL).post('/cards/request').reply(200, body, datedAt(0));
		const [item] = await run({ resource: 'card', operation: 'request', externalId: 'emp-7' });
		expect(outcome(item)).not.toBe('success');
		expectUnknownWithSentWrite(item);
		expect(JSON.stringify(item)).not.toMatch(/A card was issued/);
	});

	it('control: the same answer with the card tied to its request is a success', async () => {
		nock(BASE_URL)
			.post('/cards/request')
			.reply(200, () => ({ status: 'assigned', card: card(), request: request() }), datedAt(0));
		const [item] = await run({ resource: 'card', operation: 'request', externalId: 'emp-7' });
		expect(outcome(item)).toBe('success');
		expect(item.cardId).toBe('c1');
	});

	it('Resolve Outcome on it does not call it paid when the only card carries another External ID', async () => {
		nock(BASE_URL).post('/cards/request').reply(200, otherCards[0][1], datedAt(0));
		const [item] = await run({ resource: 'card', operation: 'request', externalId: 'emp-7' });
		expectUnknownWithSentWrite(item);
		nock(BASE_URL)
			.get('/cards')
			.query(true)
			.reply(200, { cards: [card({ externalId: 'emp-8' })], total: 1 }, datedAt(0));
		nock(BASE_URL)
			.get('/cards/c1')
			.reply(200, card({ externalId: 'emp-8' }), datedAt(0))
			.persist();
		const [resolved] = await run({
			resource: 'payment',
			operation: 'resolveOutcome',
			unknownItem: item as unknown as string,
		});
		nock.cleanAll();
		expect(resolved.paymentOutcome).not.toBe('paid');
	});
});

describe('r19-money F1b: the same as an AI tool', () => {
	const runTool = moneyRunner({ tool: true });
	it.each(['cardOtherExternal', 'requestOtherCard'])('%s: never reported as issued', async (v) => {
		nock(BASE_URL).get('/cards').query(true).reply(200, { cards: [], total: 0 }).persist();
		nock(BASE_URL)
			.post('/cards/request')
			.reply(
				200,
				(_uri, sent) => {
					const externalId = (sent as IDataObject).externalId;
					return {
						status: 'assigned',
						card: card({ externalId: v === 'cardOtherExternal' ? 'emp-8' : externalId }),
						request: request({ externalId, cardId: v === 'requestOtherCard' ? 'c2' : 'c1' }),
					};
				},
				datedAt(0),
			);
		const { item } = await runTool({
			resource: 'card',
			operation: 'request',
			paymentReference: `emp-7${v}`,
			agentMayMoveMoney: true,
		});
		nock.cleanAll();
		const error = item.error as IDataObject | undefined;
		expect(error).toBeDefined();
		expect(error?.paymentOutcome).toBe('unknown');
		expect(error?.sentWrite).toEqual(expect.objectContaining({ seal: expect.any(String) }));
	});
});

/*
 * F3  No execution ID (the context gives none): Retry On Fail (same node, same run, same item)
 *     after a lost answer re-sent Payout Create, Card Recharge and Pay QR Code's accept under a
 *     new random key. Without an execution ID the key of an item whose write is still unsettled
 *     (sending or unknown) in this process stays the same (key.ts unexecutedKey), so a re-try is
 *     the same request: not sent again where the document promises no replay by key, sent again
 *     under the same key (the same quote) where it does.
 */
describe('r19-money F3: no execution ID, Retry On Fail after a lost answer', () => {
	const noExecution = moneyRunner({ executionId: undefined, nodeId: 'ne-node' });
	const keysOf = (requests: Array<{ method?: string; url?: string; headers?: IDataObject }>) =>
		requests
			.filter((r) => r.method === 'POST' && !String(r.url).endsWith('/orders/prepare'))
			.map((r) => (r.headers ?? {})['Idempotency-Key']);

	it.each([
		[
			'Payout Create',
			'/payouts',
			{
				resource: 'payout',
				operation: 'create',
				amountRub: '1500',
				requisiteType: 'card',
				requisite: '4276123412341234',
				additionalFields: {},
			},
		],
		[
			'Card Recharge',
			'/cards/recharge',
			{
				resource: 'card',
				operation: 'recharge',
				cardId: { __rl: true, mode: 'id', value: 'card-ne' },
				targetAmount: '50',
			},
		],
	])('%s: sent once, the re-try answers unknown and sends nothing', async (_name, path, params) => {
		nock(BASE_URL).post(path).replyWithError({ code: 'ECONNRESET', message: 'socket hang up' });
		const first = await noExecution({ ...params, idempotencyKey: '' });
		const second = await noExecution({ ...params, idempotencyKey: '' });
		expectUnknownWithSentWrite(first.item);
		expectUnknownWithSentWrite(second.item);
		expect(keysOf(first.requests as never)).toHaveLength(1);
		expect(keysOf(second.requests as never)).toEqual([]);
	});

	it('Pay QR Code: the re-try accepts the same quote under the same key', async () => {
		let prepared = 0;
		nock(BASE_URL)
			.post('/orders/prepare')
			.times(2)
			.reply(
				200,
				() => {
					prepared += 1;
					return {
						id: `44444444-4444-4444-8444-44444444444${prepared}`,
						amountRub: 1500,
						merchantName: 'Shop',
					};
				},
				datedAt(0),
			);
		const accepted: unknown[] = [];
		nock(BASE_URL)
			.post(/^\/orders\/accept/)
			.times(2)
			.reply((uri) => {
				accepted.push(uri);
				return [502, '<html>bad gateway</html>', { 'content-type': 'text/html' }];
			});
		const params = {
			resource: 'order',
			operation: 'pay',
			qrCode: 'https://qr.nspk.ru/AS1000ABCDEF?type=02&sum=150000',
			idempotencyKey: '',
		};
		const first = await noExecution(params);
		const second = await noExecution(params);
		nock.cleanAll();
		const keys = [...keysOf(first.requests as never), ...keysOf(second.requests as never)];
		expect(keys.length).toBeGreaterThan(0);
		expect(new Set(keys).size).toBe(1);
		expect(new Set(accepted.map((b) => JSON.stringify(b))).size).toBe(1);
		expect(first.item.paymentOutcome).not.toBe('paid');
	});

	it('control: a write settled paid frees the item: the next run is a new payment under a new key', async () => {
		const params = {
			resource: 'payout',
			operation: 'create',
			amountRub: '1500',
			requisiteType: 'card',
			requisite: '4276123412341234',
			additionalFields: {},
			idempotencyKey: '',
		};
		let n = 0;
		nock(BASE_URL)
			.post('/payouts')
			.times(2)
			.reply(
				200,
				(_uri, body) => ({
					...(body as IDataObject),
					id: `p-ne-${++n}`,
					status: 'waiting_trader',
					amountRub: 1500,
					requisiteType: 'card',
					requisite: '4276123412341234',
					createdAt: new Date(Date.now() + 50).toISOString(),
				}),
				datedAt(0),
			);
		const first = await noExecution(params);
		const second = await noExecution(params);
		expect(outcome(first.item)).toBe('success');
		expect(outcome(second.item)).toBe('success');
		const keys = [...keysOf(first.requests as never), ...keysOf(second.requests as never)];
		expect(new Set(keys).size).toBe(2);
	});
});

/*
 * The reader's observations, each decided by the interface document:
 * - a 2xx carrying `ok:false`, a list `errors`, an `error` (the document's error body) or, on a
 *   record the write makes, a `failReason`: a body that says it failed, unknown, never paid;
 * - a card closed (or closing, retired) in its own request's answer: no card issued by it.
 */
describe('r19-money observations', () => {
	const payout = (over: IDataObject) => ({
		id: 'p-19',
		externalId: 'inv-19',
		amountRub: 1500,
		requisiteType: 'card',
		requisite: '4276123412341234',
		status: 'waiting_trader',
		failReason: null,
		createdAt: at(50),
		...over,
	});
	const create = {
		resource: 'payout',
		operation: 'create',
		amountRub: '1500',
		requisiteType: 'card',
		requisite: '4276123412341234',
		additionalFields: { externalId: 'inv-19' },
	};
	it.each([
		['ok:false', { ok: false }],
		['a list of errors', { errors: [{ code: 'X', message: 'no' }] }],
		['an error', { error: 'Bad Request' }],
		['a failReason', { failReason: 'service_unavailable' }],
	])('Payout Create answered 200 with %s: unknown with its sentWrite', async (_name, over) => {
		nock(BASE_URL).post('/payouts').reply(200, payout(over), datedAt(0));
		const [item] = await run(create);
		expect(outcome(item)).not.toBe('success');
		expectUnknownWithSentWrite(item);
	});

	it('control: the same payout with failReason null and its id is a success', async () => {
		nock(BASE_URL).post('/payouts').reply(200, payout({}), datedAt(0));
		const [item] = await run(create);
		expect(outcome(item)).toBe('success');
	});

	it('Card Recharge answered 200 with ok:false: unknown', async () => {
		nock(BASE_URL)
			.post('/cards/recharge')
			.reply(
				200,
				{
					ok: false,
					id: 'rch-19',
					cardId: 'card-1',
					targetAmount: 50,
					status: 'completed',
					createdAt: at(50),
				},
				datedAt(0),
			);
		const [item] = await run({
			resource: 'card',
			operation: 'recharge',
			cardId: { __rl: true, mode: 'id', value: 'card-1' },
			targetAmount: '50',
			idempotencyKey: '',
		});
		expectUnknownWithSentWrite(item);
	});

	it.each(['closing', 'closed', 'retired'])(
		'Card Request answered with its card %s: unknown, never "a card was issued"',
		async (status) => {
			nock(BASE_URL)
				.post('/cards/request')
				.reply(
					200,
					() => ({ status: 'assigned', card: card({ status }), request: request() }),
					datedAt(0),
				);
			const [item] = await run({ resource: 'card', operation: 'request', externalId: 'emp-7' });
			expectUnknownWithSentWrite(item);
			expect(JSON.stringify(item)).not.toMatch(/A card was issued/);
		},
	);
});
