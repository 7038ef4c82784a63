import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import payQrCodeFromForm from '../../examples/pay-qr-code-from-form.json';
import { forgetAllSentWrites, limitSentWrites } from '../../nodes/shared/money/write';
import { expectUnknownWithSentWrite, inProcessRunner } from './helpers/money';
import { BASE_URL, runNode, runTool } from './helpers/n8n';
import type { ContextOptions } from './helpers/n8n';

/*
 * The ninth outside read of the money module (/work/outside/r9-money): a 2xx answer is paid only
 * when it is a record that stands (F1, F10); the tool never calls a refusal a held request (F2);
 * the memory and its traces keep the outcome the item was judged (F5); every unknown of a money
 * write carries its sent write (F6); the shipped form example tells an unknown apart from nothing
 * paid (F8). The docs' F7 is checked in test/docs/money-replay-words.test.mjs.
 */
beforeAll(() => nock.disableNetConnect());
beforeEach(() => forgetAllSentWrites());
afterEach(() => {
	nock.cleanAll();
	limitSentWrites();
});

const CARD = '2200700000000001';
const QUOTE = '11111111-2222-4333-8444-555555555555';
const dated = () => ({ Date: new Date().toUTCString() });

const runInProcess = inProcessRunner(9000);

async function run(parameters: IDataObject, more: Partial<ContextOptions> = {}) {
	return (await runInProcess(parameters, more))[0];
}

const recharge: IDataObject = {
	resource: 'card',
	operation: 'recharge',
	cardId: { __rl: true, mode: 'id', value: 'card-1' },
	targetAmount: '100',
};

describe('F1: a 2xx record that says the write failed is never a plain success', () => {
	it('Card Recharge answered 200 with status failed: unknown with its sentWrite', async () => {
		nock(BASE_URL).post('/cards/recharge').reply(200, {
			id: 'rch-1',
			cardId: 'card-1',
			targetAmount: 100,
			status: 'failed',
			failureReason: 'BRIDGE_ERROR',
		});
		const item = await run(recharge);
		expectUnknownWithSentWrite(item);
		expect(String(item.error)).toMatch(/failed/);
	});

	it('Card Recharge answered with a record that stands (completed) stays a success', async () => {
		nock(BASE_URL).post('/cards/recharge').reply(200, {
			id: 'rch-2',
			cardId: 'card-1',
			targetAmount: 100,
			status: 'completed',
		});
		const item = await run(recharge);
		expect(item.error).toBeUndefined();
		expect(item.id).toBe('rch-2');
	});

	it.each(['failed', 'expired_by_system'])(
		'Accept Quote answered with an order in status %s: unknown with its sentWrite',
		async (status) => {
			nock(BASE_URL).post(`/orders/accept/${QUOTE}`).reply(200, {
				id: '99999999-2222-4333-8444-555555555555',
				amountUsdt: 10,
				amountRub: 900,
				status,
				paymentType: 'nspk',
				paymentUntil: new Date().toISOString(),
				merchantName: 'M',
				externalOrderId: null,
				failureReason: 'QR_RESOLVE_FAILED',
				createdAt: new Date().toISOString(),
			});
			const item = await run({ resource: 'order', operation: 'accept', quoteId: QUOTE });
			expectUnknownWithSentWrite(item);
		},
	);
});

describe('F10: a 2xx answer that is no record is unknown with its sentWrite', () => {
	it.each([
		[200, { ok: true }],
		[202, { message: 'Заявка принята в обработку' }],
		[200, { success: true, data: null }],
		[200, { status: 'pending' }],
	])('Card Request answered %s %j', async (status, body) => {
		nock(BASE_URL).post('/cards/request').reply(status, body);
		const item = await run({ resource: 'card', operation: 'request', externalId: 'emp-5' });
		expectUnknownWithSentWrite(item);
		expect(item.outcome).toBeUndefined();
	});

	it('Card Request answered with a pending request record stays pending', async () => {
		nock(BASE_URL)
			.post('/cards/request')
			.reply(200, {
				status: 'pending',
				card: null,
				request: {
					id: 'req-9',
					externalId: 'emp-6',
					status: 'pending',
					cardId: null,
					createdAt: new Date().toISOString(),
				},
			});
		const item = await run({ resource: 'card', operation: 'request', externalId: 'emp-6' });
		expect(item.error).toBeUndefined();
		expect(item.outcome).toBe('pending');
	});

	it.each([
		[202, { status: 'accepted' }],
		[200, { message: 'принято' }],
	])('Card Recharge answered %s %j', async (status, body) => {
		nock(BASE_URL).post('/cards/recharge').reply(status, body);
		expectUnknownWithSentWrite(await run(recharge));
	});
});

describe('F2: tool Card Request refused CARD_EXTERNAL_ID_TAKEN is unknown, not pending', () => {
	it('a new process, no card carries the reference, the service refuses the repeat', async () => {
		nock(BASE_URL).get('/cards').query(true).reply(200, { cards: [], total: 0 }).persist();
		nock(BASE_URL).post('/cards/request').reply(409, {
			statusCode: 409,
			error: 'Conflict',
			errorCode: 'CARD_EXTERNAL_ID_TAKEN',
			message: 'externalId уже используется',
		});
		const { output } = await runTool({
			parameters: {
				resource: 'card',
				operation: 'request',
				paymentReference: 'EMP-42',
				agentMayMoveMoney: true,
			},
		});
		const answer = output[0];
		expect(answer.outcome).not.toBe('pending');
		const error = answer.error as IDataObject;
		expect(error).toBeDefined();
		expect(error.paymentOutcome).toBe('unknown');
		expect(String(error.whatToDo)).toMatch(/Resolve Outcome/);
		expect(JSON.stringify(answer)).not.toMatch(/still pending/);
	});
});

const payout = (externalId: string): IDataObject => ({
	resource: 'payout',
	operation: 'create',
	amountRub: '1500',
	requisiteType: 'card',
	requisite: CARD,
	idempotencyKey: externalId,
	additionalFields: { externalId },
});

function paidPayout(externalId: string, amountRub: number, createdAt: string): IDataObject {
	return {
		id: `p-${externalId}-${amountRub}`,
		externalId,
		status: 'waiting_trader',
		amountRub,
		requisiteType: 'card',
		requisite: CARD,
		refundedAt: null,
		failReason: null,
		createdAt,
	};
}

describe('F5, F6: the memory and its traces keep the outcome the item was judged', () => {
	beforeEach(() => limitSentWrites({ maxKept: 1, heldMs: 0 }));

	it('Payout Create answered with another payment: still unknown (with sentWrite) once only its trace is left', async () => {
		nock(BASE_URL)
			.post('/payouts')
			.reply(
				200,
				paidPayout('inv-9', 15000, new Date(Date.now() - 86_400_000).toISOString()),
				dated(),
			);
		const first = await run(payout('inv-9'));
		expectUnknownWithSentWrite(first);
		// Another write pushes the first out of the memory: only its trace stays.
		nock(BASE_URL)
			.post('/payouts')
			.reply(200, paidPayout('inv-10', 1500, new Date().toISOString()), dated());
		expect((await run(payout('inv-10'))).error).toBeUndefined();
		const again = await run(payout('inv-9'));
		expect(nock.pendingMocks()).toEqual([]);
		expectUnknownWithSentWrite(again);
		expect(again.existingPaymentId).toBeUndefined();
		// The sent write names the first send.
		expect((again.sentWrite as IDataObject).sentAt).toBe((first.sentWrite as IDataObject).sentAt);
	});

	it('Card Request answered "request failed": still unknown once only its trace is left', async () => {
		nock(BASE_URL)
			.post('/cards/request')
			.reply(200, {
				status: 'assigned',
				card: null,
				request: { id: 'req-1', externalId: 'emp-1', status: 'failed', cardId: null },
			});
		const params = (externalId: string): IDataObject => ({
			resource: 'card',
			operation: 'request',
			externalId,
			idempotencyKey: `card-for-${externalId}`,
		});
		const first = await run(params('emp-1'));
		expectUnknownWithSentWrite(first);
		nock(BASE_URL)
			.post('/cards/request')
			.reply(200, {
				status: 'assigned',
				card: { id: 'c-2', externalId: 'emp-2', status: 'assigned' },
				request: {
					id: 'req-2',
					externalId: 'emp-2',
					status: 'fulfilled',
					cardId: 'c-2',
					createdAt: new Date().toISOString(),
				},
			});
		expect((await run(params('emp-2'))).error).toBeUndefined();
		const again = await run(params('emp-1'));
		expectUnknownWithSentWrite(again);
	});

	it('Retry On Fail of a judged unknown (still in memory) sends nothing and stays unknown', async () => {
		limitSentWrites();
		nock(BASE_URL)
			.post('/cards/recharge')
			.reply(200, { id: 'rch-3', cardId: 'card-1', targetAmount: 100, status: 'failed' });
		// One execution run twice (n8n's Retry On Fail), numbered apart from the runner's.
		const options = {
			parameters: recharge,
			continueOnFail: true,
			sameProcess: true,
			executionId: '9900',
		};
		const first = (await runNode(options)).output[0].json as IDataObject;
		expectUnknownWithSentWrite(first);
		const retried = (await runNode(options)).output[0].json as IDataObject;
		expectUnknownWithSentWrite(retried);
	});

	it('F6: a lost write repeated after it left the memory is unknown with the first send’s sentWrite, which Resolve Outcome decides', async () => {
		nock(BASE_URL).post('/payouts').replyWithError({ code: 'ECONNRESET' });
		const first = await run(payout('inv-20'));
		expectUnknownWithSentWrite(first);
		nock(BASE_URL)
			.post('/payouts')
			.reply(200, paidPayout('inv-21', 1500, new Date().toISOString()), dated());
		await run(payout('inv-21'));
		const again = await run(payout('inv-20'));
		expectUnknownWithSentWrite(again);
		const sentAt = (first.sentWrite as IDataObject).sentAt as string;
		expect((again.sentWrite as IDataObject).sentAt).toBe(sentAt);
		// Resolve Outcome can look it up: the payout made by the first send.
		const made = paidPayout('inv-20', 1500, new Date(Date.parse(sentAt) + 500).toISOString());
		nock(BASE_URL)
			.get('/payouts')
			.query(true)
			.reply(200, { payouts: [made], total: 1 }, dated())
			.persist();
		nock(BASE_URL)
			.get(`/payouts/${String(made.id)}`)
			.reply(200, made, dated())
			.persist();
		const resolved = await run({
			resource: 'payment',
			operation: 'resolveOutcome',
			unknownItem: again as never,
		});
		expect(resolved.paymentOutcome).toBe('paid');
	});
});

describe('F8: the form example has three endings, routed on paymentOutcome', () => {
	const workflow = payQrCodeFromForm as unknown as {
		nodes: Array<{ name: string; type: string; parameters: IDataObject }>;
		connections: Record<string, { main: Array<Array<{ node: string }>> }>;
	};
	const node = (name: string) => workflow.nodes.find((n) => n.name === name);

	it('routes paid, not paid and unknown to their own form endings', () => {
		const [branch] = workflow.connections['Pay QR code'].main[0];
		const router = node(branch.node)!;
		expect(router.type).toBe('n8n-nodes-base.switch');
		expect(JSON.stringify(router.parameters)).toMatch(/paymentOutcome/);
		const endings = workflow.connections[router.name].main.map(
			([next]) => node(next.node)!.parameters,
		);
		expect(endings).toHaveLength(3);
		const titles = endings.map((p) => String(p.completionTitle));
		expect(titles[1]).toMatch(/Nothing was paid/);
		expect(titles[2]).not.toMatch(/nothing was paid/i);
		expect(String(endings[2].completionMessage)).toMatch(/do not pay (it )?again/i);
	});
});
