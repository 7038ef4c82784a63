import type { IDataObject } from 'n8n-workflow';
import nock from 'nock';

import { forgetSkews } from '../../nodes/shared/money/clock';
import { forgetAllSentWrites } from '../../nodes/shared/money/write';
import { datedAt, expectUnknownWithSentWrite, inProcessRunner, moneyRunner } from './helpers/money';
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
beforeAll(() => nock.disableNetConnect());
beforeEach(() => {
	forgetAllSentWrites();
	forgetSkews();
});
afterEach(() => {
	expect(nock.pendingMocks()).toEqual([]);
	nock.cleanAll();
});

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
