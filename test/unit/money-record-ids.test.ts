import type { IDataObject } from 'n8n-workflow';
import nock from 'nock';

import { parseJsonLossless, writtenAsNumber } from '../../nodes/shared/transport/json';
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
import { BASE_URL } from './helpers/n8n';

/*
 * Issue 49, outside r19-money t2 `decimalId`: a money write answered with a record whose `id` is
 * not an ID the interface document gives its records (Payout, Card request, Order: a string; the
 * recharge record's fields are not shown) was a success naming it. The transport reads every
 * identifier as text (transport/json.ts), so `{"id": 12.5}` came to the money module as "12.5".
 * The reader now notes which identifiers were written as JSON numbers (writtenAsNumber), and the
 * money module's one rule (money/recordId.ts readRecordId) takes a number only when it is a whole
 * number of digits (read to the digit, as text). Anything else is unknown with the sent write,
 * never paid, and never sent again.
 */
isolateMoneyTests();

const run = inProcessRunner(24_000);
const outcome = (item: IDataObject) => (item.paymentOutcome as string | undefined) ?? 'success';
const at = (ms: number) => new Date(Date.now() + ms).toISOString();

/** The reader's payout as JSON text, its `id` written as the raw token given. */
function payoutText(idToken: string, externalId: string): string {
	const record = readerPayout('ID', externalId, at(50));
	return JSON.stringify(record).replace('"id":"ID"', `"id":${idToken}`);
}

describe('the lossless reader notes an identifier written as a JSON number', () => {
	it('keeps the text and marks the field, also in a list and in a nested record', () => {
		const parsed = parseJsonLossless(
			'{"id":12.5,"payoutId":"p-1","orderIds":[1,"2"],"request":{"id":7},"n":3}',
		) as IDataObject;
		expect(parsed.id).toBe('12.5');
		expect(writtenAsNumber(parsed, 'id')).toBe(true);
		expect(writtenAsNumber(parsed, 'payoutId')).toBe(false);
		expect(writtenAsNumber(parsed.orderIds as object, 0)).toBe(true);
		expect(writtenAsNumber(parsed.orderIds as object, 1)).toBe(false);
		expect(writtenAsNumber(parsed.request as object, 'id')).toBe(true);
		// A number kept as a number is a number: its type says so.
		expect(writtenAsNumber(parsed, 'n')).toBe(false);
	});

	it('a 19-digit integer still comes out as its exact text, marked', () => {
		const parsed = parseJsonLossless('{"id":12345678901234567890}') as IDataObject;
		expect(parsed.id).toBe('12345678901234567890');
		expect(writtenAsNumber(parsed, 'id')).toBe(true);
	});

	it('a string that looks like a number is not marked (JSON.parse fast path)', () => {
		const parsed = parseJsonLossless('{"id":"12.5"}') as IDataObject;
		expect(writtenAsNumber(parsed, 'id')).toBe(false);
	});
});

const badIds: Array<[string, string]> = [
	['a fractional number', '12.5'],
	['a negative number', '-3'],
	['a negative zero', '-0'],
	['a number written with an exponent', '1e3'],
	['a whole number written with a decimal point', '12.0'],
	['true', 'true'],
	['false', 'false'],
	['an object', '{"value":"p-1"}'],
	['a list', '["p-1"]'],
	['an empty text', '""'],
	['a text of spaces', '"   "'],
];

describe('Payout Create answered with a record whose id is no ID', () => {
	it.each(badIds)(
		'%s: unknown with its sentWrite, never paid, not sent again',
		async (_n, token) => {
			let posts = 0;
			nock(BASE_URL)
				.post('/payouts')
				.reply(
					200,
					() => {
						posts += 1;
						return payoutText(token, 'inv-ids');
					},
					{ ...datedAt(0), 'Content-Type': 'application/json' },
				)
				.persist();
			const execution = { executionId: `ids-${token}` };
			const [item] = await run(readerCreate('inv-ids'), execution);
			expect(outcome(item)).not.toBe('success');
			expectUnknownWithSentWrite(item);
			expect(String(item.error)).toMatch(/\bid\b/);
			// Retry On Fail in the same process: nothing is sent again, still unknown.
			const [again] = await run(readerCreate('inv-ids'), execution);
			nock.cleanAll();
			expect(posts).toBe(1);
			expect(outcome(again)).toBe('unknown');
		},
	);

	it.each([
		['a text', '"p-24"', 'p-24'],
		['a whole JSON number', '12', '12'],
		['a zero', '0', '0'],
		['a 20-digit JSON number, to the digit', '12345678901234567890', '12345678901234567890'],
	])('control: %s is a success naming that id', async (_n, token, id) => {
		nock(BASE_URL)
			.post('/payouts')
			.reply(200, () => payoutText(token, 'inv-ok'), {
				...datedAt(0),
				'Content-Type': 'application/json',
			});
		const [item] = await run(readerCreate('inv-ok'));
		expect(outcome(item)).toBe('success');
		expect(item.id).toBe(id);
	});
});

describe('Card Request and Card Recharge answered with a record whose id is no ID', () => {
	it('Card Request whose request.id is 12.5: unknown with its sentWrite', async () => {
		const text = JSON.stringify({
			status: 'pending',
			request: {
				id: 'RID',
				externalId: 'emp-24',
				status: 'pending',
				cardId: null,
				createdAt: at(50),
			},
		}).replace('"id":"RID"', '"id":12.5');
		nock(BASE_URL)
			.post('/cards/request')
			.reply(200, text, { ...datedAt(0), 'Content-Type': 'application/json' });
		const [item] = await run({ resource: 'card', operation: 'request', externalId: 'emp-24' });
		expectUnknownWithSentWrite(item);
	});

	it('control: the same request with a text id is a success', async () => {
		nock(BASE_URL)
			.post('/cards/request')
			.reply(
				200,
				() => ({
					status: 'pending',
					request: {
						id: 'r-24',
						externalId: 'emp-24b',
						status: 'pending',
						cardId: null,
						createdAt: at(50),
					},
				}),
				datedAt(0),
			);
		const [item] = await run({ resource: 'card', operation: 'request', externalId: 'emp-24b' });
		expect(outcome(item)).toBe('success');
	});

	const recharge = {
		resource: 'card',
		operation: 'recharge',
		cardId: { __rl: true, mode: 'id', value: 'card-1' },
		targetAmount: '50',
		idempotencyKey: '',
	};
	const rechargeText = (token: string) =>
		JSON.stringify({
			id: 'RID',
			cardId: 'card-1',
			targetAmount: 50,
			status: 'completed',
			createdAt: at(50),
		}).replace('"id":"RID"', `"id":${token}`);

	it.each([
		['12.5', '12.5'],
		['false', 'false'],
	])('Card Recharge whose id is %s: unknown with its sentWrite', async (_n, token) => {
		nock(BASE_URL)
			.post('/cards/recharge')
			.reply(200, rechargeText(token), { ...datedAt(0), 'Content-Type': 'application/json' });
		const [item] = await run(recharge);
		expectUnknownWithSentWrite(item);
	});

	it('control: a recharge whose id is a whole JSON number is a success', async () => {
		nock(BASE_URL)
			.post('/cards/recharge')
			.reply(200, rechargeText('981'), { ...datedAt(0), 'Content-Type': 'application/json' });
		const [item] = await run(recharge);
		expect(outcome(item)).toBe('success');
	});
});

describe('Resolve Outcome never proves a write by a record whose id is no ID', () => {
	it('a listed payout with every detail, made after the send, id 7.5: not paid', async () => {
		nock(BASE_URL).post('/payouts').replyWithError({ code: 'ECONNRESET', message: 'reset' });
		const [item] = await run(readerCreate('inv-res'));
		expectUnknownWithSentWrite(item);
		const listed = JSON.stringify({
			payouts: [readerPayout('ID', 'inv-res', at(2_000))],
			total: 1,
		}).replace('"id":"ID"', '"id":7.5');
		nock(BASE_URL)
			.get('/payouts')
			.query(true)
			.reply(200, listed, { ...datedAt(3_000), 'Content-Type': 'application/json' })
			.persist();
		nock(BASE_URL)
			.get(/\/payouts\/.+/)
			.reply(
				200,
				JSON.stringify(readerPayout('ID', 'inv-res', at(2_000))).replace('"id":"ID"', '"id":7.5'),
				{
					...datedAt(3_000),
					'Content-Type': 'application/json',
				},
			)
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

describe('the tool’s look-up never calls a record whose id is no ID the payment already made', () => {
	const runTool = moneyRunner({ tool: true });
	const toolCreate = {
		resource: 'payout',
		operation: 'create',
		amountRub: '1500',
		requisiteType: 'card',
		requisite: READER_CARD,
		agentMayMoveMoney: true,
		paymentReference: 'T-ids',
	};

	it.each([
		['7.5', false],
		['"p-ids"', true],
	])('listed with id %s: already made only for an ID', async (token, made) => {
		const listed = (uri: string) => {
			const externalId = new URL(uri, BASE_URL).searchParams.get('externalId') ?? 't-ids';
			return JSON.stringify({
				payouts: [readerPayout('ID', externalId, at(-60_000))],
				total: 1,
			}).replace('"id":"ID"', `"id":${token}`);
		};
		nock(BASE_URL)
			.get('/payouts')
			.query(true)
			.reply(200, listed, { ...datedAt(0), 'Content-Type': 'application/json' })
			.persist();
		const { item, requests } = await runTool(toolCreate);
		nock.cleanAll();
		const error = item.error as IDataObject | undefined;
		// Nothing is sent either way: the reference names a payment.
		expect((requests as Array<{ method?: string }>).filter((r) => r.method === 'POST')).toEqual([]);
		if (made) {
			expect(item.repeated).toBe(true);
		} else {
			expect(item.repeated).toBeUndefined();
			expect(error?.errorCode).toBe('PAYMENT_REFERENCE_UNPROVEN');
			expect(error?.alreadyMade).toBe('unknown');
		}
	});
});
