import type { IDataObject } from 'n8n-workflow';
import nock from 'nock';
import type { ReplyHeaders } from 'nock';

import {
	datedAt,
	inProcessRunner,
	isolateMoneyTests,
	madeNow,
	readerCreate,
	readerPayout,
} from './helpers/money';
import { BASE_URL, runTool } from './helpers/n8n';

/*
 * The seventeenth outside read of the money module (/work/outside/r17-money/):
 * F1  Payout Create with an External ID, Card Request, Pay QR Code and Card Recharge answered 200
 *     with a record the service already held, whose createdAt is Moscow wall-clock time labelled
 *     `Z` (two hours LATER than the answer's own Date header), came out a plain success, while
 *     Resolve Outcome reads the same record as dated in the future: unknown. A money write's own
 *     answer is now judged by the same rule (binding.ts datedLater): a record dated later than the
 *     service's clock at the answer (the Date header's skew, its lower bound, + SKEW_MARGIN_MS;
 *     without any measured skew, n8n's own clock + UNDATED_PREDATES_MS) is no proof: unknown with
 *     its sentWrite.
 */
isolateMoneyTests();

const HOUR = 3600e3;
const MINUTE = 60e3;
/** A time `ms` from this machine's clock now, labelled UTC. */
const at = (ms: number) => new Date(Date.now() + ms).toISOString();
/** No Date header on the answer. */
const undated = {};

const run = inProcessRunner(17_000);

/** What an output item says of its money: its paymentOutcome, or a success. */
const outcome = (item: IDataObject) => (item.paymentOutcome as string | undefined) ?? 'success';

const ORDER = '33333333-3333-4333-8333-333333333333';
let quotes = 0;

interface Operation {
	name: string;
	parameters: IDataObject;
	/** Serves the operation once: its record dated `createdAt`, its answer with `headers`. */
	serve: (createdAt: () => string, headers: ReplyHeaders) => void;
}

const operations: Operation[] = [
	{
		name: 'Payout Create with an External ID',
		parameters: readerCreate('inv-r17'),
		serve: (createdAt, headers) => {
			nock(BASE_URL)
				.post('/payouts')
				.reply(200, () => readerPayout('p-r17', 'inv-r17', createdAt()), headers);
		},
	},
	{
		name: 'Card Request',
		parameters: { resource: 'card', operation: 'request', externalId: 'ext-r17' },
		serve: (createdAt, headers) => {
			nock(BASE_URL)
				.post('/cards/request')
				.reply(
					200,
					() => ({
						status: 'assigned',
						card: {
							id: 'card-r17',
							externalId: 'ext-r17',
							status: 'assigned',
							createdAt: at(-30 * 24 * HOUR),
						},
						request: {
							id: 'req-r17',
							externalId: 'ext-r17',
							status: 'fulfilled',
							cardId: 'card-r17',
							createdAt: createdAt(),
						},
					}),
					headers,
				);
		},
	},
	{
		name: 'Pay QR Code',
		parameters: { resource: 'order', operation: 'pay', qrCode: 'QR-r17', idempotencyKey: '' },
		serve: (createdAt, headers) => {
			nock(BASE_URL)
				.post('/orders/prepare')
				.reply(200, () => {
					quotes += 1;
					return {
						id: `44444444-4444-4444-8444-${String(quotes).padStart(12, '0')}`,
						amountRub: 900,
						amountUsdt: 10,
						merchantName: 'Shop',
					};
				});
			nock(BASE_URL)
				.post(/\/orders\/accept\//)
				.reply(
					200,
					() => ({
						id: ORDER,
						amountUsdt: 10,
						amountRub: 900,
						status: 'created',
						paymentType: 'nspk',
						paymentUntil: at(10 * MINUTE),
						merchantName: 'Shop',
						externalOrderId: null,
						completedAt: null,
						failureReason: null,
						createdAt: createdAt(),
					}),
					headers,
				);
		},
	},
	{
		name: 'Card Recharge',
		parameters: {
			resource: 'card',
			operation: 'recharge',
			cardId: { __rl: true, mode: 'id', value: 'card-1' },
			targetAmount: '50',
			idempotencyKey: '',
		},
		serve: (createdAt, headers) => {
			nock(BASE_URL)
				.post('/cards/recharge')
				.reply(
					200,
					() => ({
						id: 'rch-r17',
						cardId: 'card-1',
						targetAmount: 50,
						status: 'completed',
						totalDebitUsdt: 52.5,
						createdAt: createdAt(),
					}),
					headers,
				);
		},
	},
];

describe.each(operations)(
	'r17-money F1: $name, its own answer dated later than the service',
	(op) => {
		it('a record made an hour ago in Moscow time labelled Z (2 h after the Date header): unknown with its sentWrite', async () => {
			op.serve(() => at(-HOUR + 3 * HOUR), datedAt(0));
			const [item] = await run(op.parameters);
			expect(outcome(item)).toBe('unknown');
			expect(item.sentWrite).toEqual(expect.objectContaining({ seal: expect.any(String) }));
			expect(String(item.error)).toMatch(/later than the service's clock/);
		});

		it('a record dated 10 s after the Date header (past the 5 s margin): unknown', async () => {
			op.serve(() => at(10_000), datedAt(0));
			const [item] = await run(op.parameters);
			expect(outcome(item)).toBe('unknown');
		});

		it('a record made during the call, the service 90 s ahead of n8n: a success (the measured skew, not n8n’s clock)', async () => {
			op.serve(() => at(90_000), datedAt(90_000));
			const [item] = await run(op.parameters);
			expect(outcome(item)).toBe('success');
		});

		it('no Date header: a record 2 h later than n8n’s clock is unknown (the 15 min margin)', async () => {
			op.serve(() => at(2 * HOUR), undated);
			const [item] = await run(op.parameters);
			expect(outcome(item)).toBe('unknown');
			expect(item.sentWrite).toBeDefined();
			expect(String(item.error)).toMatch(/15 min margin/);
		});

		it('no Date header: a record 10 min later than n8n’s clock stays a success (within the margin)', async () => {
			op.serve(() => at(10 * MINUTE), undated);
			const [item] = await run(op.parameters);
			expect(outcome(item)).toBe('success');
		});
	},
);

describe('r17-money F1: where a stored answer is the payment’s own, a future date still proves nothing', () => {
	it('as a tool, Pay QR Code under its payment reference answered with an order dated 2 h ahead: unknown', async () => {
		operations[2].serve(() => at(2 * HOUR), datedAt(0));
		nock(BASE_URL).get(`/orders/${ORDER}`).optionally().reply(200, {}, datedAt(0));
		const { output } = await runTool({
			parameters: {
				...operations[2].parameters,
				agentMayMoveMoney: true,
				paymentReference: 'INV-r17',
			},
			executionId: '17999',
			sameProcess: true,
		});
		expect(JSON.stringify(output[0])).toMatch(/later than the service's clock/);
		expect(output[0].id).toBeUndefined();
	});

	it('the same tool call answered with an order made during the call: paid', async () => {
		operations[2].serve(madeNow, datedAt(0));
		const { output } = await runTool({
			parameters: {
				...operations[2].parameters,
				agentMayMoveMoney: true,
				paymentReference: 'INV-r17b',
			},
			executionId: '17998',
			sameProcess: true,
		});
		expect(output[0].id).toBe(ORDER);
	});
});
