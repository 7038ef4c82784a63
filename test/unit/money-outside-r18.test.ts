import type { IDataObject } from 'n8n-workflow';
import nock from 'nock';

import {
	datedAt,
	expectUnknownWithSentWrite,
	inProcessRunner,
	isolateMoneyTests,
	readerCreate,
	readerPayout,
} from './helpers/money';
import { BASE_URL } from './helpers/n8n';

/*
 * The eighteenth outside read of the money module (/work/outside/r18-money/):
 * F1  Card Request answered 200 with a card and no `request` (its own record) was a success, and
 *     a `request` with no `id` let one card count for two requests: the one rule (write.ts
 *     answerProvesOther) let the answer stand when the contract's record was absent, and skipped
 *     the one-record-one-write check when the record had no id.
 * F2  Payout Create answered with a payout with no `id`: the success of two writes.
 * F3  Card Recharge answered 200 with `{success:false, errorCode}` or a quote's shape (no status,
 *     no id): a completed recharge.
 * F4  A record ID given as a fractional number (Payout ID 1042.50) was sent as "1042.5".
 */
isolateMoneyTests();

const DAY = 24 * 3600e3;
const at = (ms: number) => new Date(Date.now() + ms).toISOString();
const run = inProcessRunner(18_000);
const outcome = (item: IDataObject) => (item.paymentOutcome as string | undefined) ?? 'success';

const cardRequest = { resource: 'card', operation: 'request', externalId: 'emp-9' };
const card = () => ({
	id: 'card-9',
	externalId: 'emp-9',
	status: 'assigned',
	createdAt: at(-30 * DAY),
	assignedAt: at(0),
});

describe('r18-money F1: Card Request is judged by its request record', () => {
	it('an answer with a card and no request: unknown with its sentWrite, both times', async () => {
		nock(BASE_URL)
			.post('/cards/request')
			.times(2)
			.reply(200, () => ({ status: 'assigned', card: card() }), datedAt(0));
		const [first] = await run(cardRequest);
		const [second] = await run(cardRequest);
		expectUnknownWithSentWrite(first);
		expectUnknownWithSentWrite(second);
		expect(String(first.error ?? '') + String(first.message ?? '')).toMatch(/request/);
	});

	it('a request with no id: it cannot prove one write only, so unknown', async () => {
		nock(BASE_URL)
			.post('/cards/request')
			.reply(
				200,
				() => ({
					status: 'assigned',
					card: card(),
					request: { externalId: 'emp-9', status: 'fulfilled', cardId: 'card-9', createdAt: at(0) },
				}),
				datedAt(0),
			);
		const [item] = await run(cardRequest);
		expectUnknownWithSentWrite(item);
	});

	it('control: a fresh request with its id is a success', async () => {
		nock(BASE_URL)
			.post('/cards/request')
			.reply(
				200,
				() => ({
					status: 'assigned',
					card: card(),
					request: {
						id: 'req-9',
						externalId: 'emp-9',
						status: 'fulfilled',
						cardId: 'card-9',
						createdAt: at(0),
					},
				}),
				datedAt(0),
			);
		const [item] = await run(cardRequest);
		expect(outcome(item)).toBe('success');
	});
});

describe('r18-money F2: Payout Create answered with a payout that shows no id', () => {
	it('unknown with its sentWrite, each time (never the success of two writes)', async () => {
		const noId = () => {
			const record = readerPayout('x', 'inv-18', at(0));
			delete record.id;
			return record;
		};
		nock(BASE_URL).post('/payouts').times(2).reply(200, noId, datedAt(0));
		const [first] = await run(readerCreate('inv-18'));
		const [second] = await run(readerCreate('inv-18'));
		expectUnknownWithSentWrite(first);
		expectUnknownWithSentWrite(second);
	});

	it('control: the same payout with its id is a success', async () => {
		nock(BASE_URL)
			.post('/payouts')
			.reply(200, () => readerPayout('p-18', 'inv-18b', at(0)), datedAt(0));
		const [item] = await run(readerCreate('inv-18b'));
		expect(outcome(item)).toBe('success');
	});
});

const recharge = {
	resource: 'card',
	operation: 'recharge',
	cardId: { __rl: true, mode: 'id', value: 'card-1' },
	targetAmount: '50',
	idempotencyKey: '',
};

describe('r18-money F3: Card Recharge answered 200 with a failure or a quote', () => {
	it.each([
		[
			'success:false with an errorCode',
			{
				success: false,
				errorCode: 'INSUFFICIENT_BALANCE',
				message: 'Недостаточно средств',
				cardId: 'card-1',
				targetAmount: 50,
			},
		],
		['success:false alone', { success: false, cardId: 'card-1', targetAmount: 50 }],
		[
			'an errorCode alone',
			{ errorCode: 'CARD_NOT_ACTIVE', message: 'x', cardId: 'card-1', targetAmount: 50 },
		],
		[
			'a record with its id, status and createdAt, and success:false',
			{
				id: 'rch-18',
				cardId: 'card-1',
				targetAmount: 50,
				status: 'completed',
				createdAt: new Date(Date.now() + 1_000).toISOString(),
				success: false,
			},
		],
		[
			'a record with its id, status and createdAt, and an errorCode',
			{
				id: 'rch-18b',
				cardId: 'card-1',
				targetAmount: 50,
				status: 'completed',
				createdAt: new Date(Date.now() + 1_000).toISOString(),
				errorCode: 'BRIDGE_ERROR',
			},
		],
		[
			'a quote (no status, no id)',
			{ cardId: 'card-1', targetAmount: 50, fees: 2.5, totalDebitUsdt: 52.5, currency: 'USDT' },
		],
	])('%s: never a success, unknown with its sentWrite', async (_name, body) => {
		nock(BASE_URL).post('/cards/recharge').reply(200, body, datedAt(0));
		const [item] = await run(recharge);
		expect(outcome(item)).not.toBe('success');
		expectUnknownWithSentWrite(item);
	});

	it('the errorCode, message and requestId the body names are kept', async () => {
		nock(BASE_URL).post('/cards/recharge').reply(
			200,
			{
				success: false,
				errorCode: 'INSUFFICIENT_BALANCE',
				message: 'no funds',
				requestId: 'rq-18',
				cardId: 'card-1',
			},
			datedAt(0),
		);
		const [item] = await run(recharge);
		const said = JSON.stringify(item);
		expect(said).toMatch(/INSUFFICIENT_BALANCE/);
		expect(said).toMatch(/no funds/);
		expect(said).toMatch(/rq-18/);
	});

	it('control: the named window stands where a status is shown (no id, no createdAt)', async () => {
		nock(BASE_URL)
			.post('/cards/recharge')
			.reply(200, { cardId: 'card-1', targetAmount: 50, status: 'completed' }, datedAt(0));
		const [item] = await run(recharge);
		expect(outcome(item)).toBe('success');
	});
});

describe('r18-money F4: a record ID given as a number that has no one exact text is refused', () => {
	it.each([
		[
			'Payout Cancel, Payout ID 1042.50',
			{ resource: 'payout', operation: 'cancel', payoutId: 1042.5 },
		],
		['Payout Cancel, Payout ID -0', { resource: 'payout', operation: 'cancel', payoutId: -0 }],
		[
			'Payout Cancel, Payout ID (locator) 1042.50',
			{
				resource: 'payout',
				operation: 'cancel',
				payoutId: { __rl: true, mode: 'id', value: 1042.5 },
			},
		],
		[
			'Card Recharge, Card ID 77.10',
			{
				resource: 'card',
				operation: 'recharge',
				cardId: 77.1,
				targetAmount: '5',
				idempotencyKey: '',
			},
		],
		[
			'Card Recharge, Card ID 0.1 + 0.2',
			{
				resource: 'card',
				operation: 'recharge',
				cardId: 0.1 + 0.2,
				targetAmount: '5',
				idempotencyKey: '',
			},
		],
		['Payout Get, Payout ID 1042.50', { resource: 'payout', operation: 'get', payoutId: 1042.5 }],
	])('%s: refused naming the field, nothing sent', async (_name, parameters) => {
		const [item] = await run(parameters as IDataObject);
		expect(String(item.error)).toMatch(/ID/);
		expect(String(item.error)).toMatch(/number/);
		expect(item.paymentOutcome === undefined || item.paymentOutcome === 'not_paid').toBe(true);
	});

	it('control: a whole-number ID is sent as its digits', async () => {
		nock(BASE_URL)
			.post('/payouts/1042/cancel')
			.reply(400, { statusCode: 400, errorCode: 'VALIDATION_ERROR', message: ['stop'] });
		const [item] = await run({ resource: 'payout', operation: 'cancel', payoutId: 1042 });
		expect(item.paymentOutcome).toBe('not_paid');
	});
});
