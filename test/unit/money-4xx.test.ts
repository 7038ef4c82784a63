import type { IDataObject } from 'n8n-workflow';
import nock from 'nock';

import { ERROR_EXPLANATIONS } from '../../nodes/shared/transport/errorCodes';
import {
	ACTED_MAYBE_CODES,
	ANSWERED_UNSURE_STATUSES,
	STATUS_MEANING_CODES,
	REFUSAL_CODES,
	answerClass,
} from '../../nodes/shared/money/answered';
import { answeredOutcome } from '../../nodes/shared/money/outcome';
import { forgetSkews } from '../../nodes/shared/money/clock';
import { forgetAllSentWrites } from '../../nodes/shared/money/write';
import { expectUnknownWithSentWrite } from './helpers/money';
import { BASE_URL, runNode, runTool } from './helpers/n8n';

/*
 * The twentieth outside read of the money module (/work/outside/r20-money/, t1–t8, t13): a 4xx
 * answer carrying the service's own error body was read as "nothing was done" whatever its
 * errorCode said. A 408 (a timeout interceptor answers while the handler finishes the write), or
 * a backend code (BRIDGE_ERROR, WALLET_BACKEND_ERROR, PAYOUT_SERVICE_UNAVAILABLE, INTERNAL_ERROR)
 * at 400/422/424, may come after the service acted: such an answer is unknown with its sentWrite,
 * and Retry On Fail (or the tool called again under the same reference) sends nothing again.
 */
beforeAll(() => nock.disableNetConnect());
beforeEach(() => {
	forgetAllSentWrites();
	forgetSkews();
});
afterEach(() => {
	nock.cleanAll();
});

const body = (status: number, errorCode: string): IDataObject => ({
	statusCode: status,
	error: 'Error',
	errorCode,
	message: 'Сервис не ответил вовремя',
});

const payoutCreate = (externalId: string): IDataObject => ({
	resource: 'payout',
	operation: 'create',
	amountRub: '1500',
	requisiteType: 'card',
	requisite: '4111111111111111',
	idempotencyKey: '',
	additionalFields: { externalId },
});
const cardRequest = (externalId: string): IDataObject => ({
	resource: 'card',
	operation: 'request',
	externalId,
	idempotencyKey: '',
});
const cardRecharge: IDataObject = {
	resource: 'card',
	operation: 'recharge',
	cardId: { __rl: true, mode: 'id', value: 'card-1' },
	targetAmount: '100',
	idempotencyKey: '',
};
const payoutCancel: IDataObject = {
	resource: 'payout',
	operation: 'cancel',
	payoutId: { __rl: true, mode: 'id', value: 'p-1' },
	idempotencyKey: '',
};
const QUOTE = '11111111-2222-4333-8444-555555555555';

/** Every POST to `path` answered by `answer` (its number from 1); returns the count. */
function serve(
	path: string,
	answer: (n: number) => [number, IDataObject],
): { posts: () => number } {
	let posts = 0;
	nock(BASE_URL)
		.persist()
		.post(path)
		.reply(() => {
			posts += 1;
			return answer(posts);
		});
	return { posts: () => posts };
}

/** One run of the node (Continue On Fail) in this process, as `executionId`. */
async function run(parameters: IDataObject, executionId: string): Promise<IDataObject> {
	const { output } = await runNode({
		parameters,
		continueOnFail: true,
		sameProcess: true,
		executionId,
	});
	return output[0].json as IDataObject;
}

describe('the classification is one table of every documented code', () => {
	it('every errorCode of the document stands in exactly one class', () => {
		for (const code of Object.keys(ERROR_EXPLANATIONS)) {
			const classes = [REFUSAL_CODES, ACTED_MAYBE_CODES, STATUS_MEANING_CODES].filter((c) =>
				c.includes(code),
			);
			expect([code, classes.length]).toEqual([code, 1]);
		}
	});

	it.each([
		[424, 'PAYOUT_SERVICE_UNAVAILABLE'],
		[422, 'PAYOUT_SERVICE_UNAVAILABLE'],
		[400, 'INTERNAL_ERROR'],
		[424, 'BRIDGE_ERROR'],
		[400, 'BRIDGE_ERROR'],
		[422, 'WALLET_BACKEND_ERROR'],
		[400, 'DRIVER_HELPER_TRANSIENT'],
		[422, 'SERVICE_UNAVAILABLE'],
		[400, 'BAD_GATEWAY'],
		[408, 'REQUEST_TIMEOUT'],
		[408, 'VALIDATION_ERROR'],
		[423, 'INSUFFICIENT_BALANCE'],
		[424, 'VALIDATION_ERROR'],
		[425, 'PERMISSION_DENIED'],
		[499, 'VALIDATION_ERROR'],
		[500, 'VALIDATION_ERROR'],
		[503, 'INSUFFICIENT_BALANCE'],
		[409, 'CONFLICT'],
		[409, 'SOMETHING_NEW'],
		[422, 'CARD_ISSUER_TIMEOUT'],
		[400, 'UPSTREAM_UNAVAILABLE'],
		// Outside r21-money F3: a code the document does not list, and a documented one that names
		// no condition, say nothing of when the service answered (were not_paid before).
		[400, 'SOMETHING_NEW'],
		[422, 'UNPROCESSABLE'],
		[429, 'PAYOUT_TIME_OUT'],
	])('HTTP %i %s with the service body: unknown', (status, code) => {
		expect(answeredOutcome(status, body(status, code))).toBe('unknown');
	});

	it.each([
		[400, 'VALIDATION_ERROR'],
		[401, 'INVALID_API_KEY'],
		[403, 'PERMISSION_DENIED'],
		[404, 'CARD_NOT_FOUND'],
		[422, 'INSUFFICIENT_BALANCE'],
		[422, 'PAYOUT_ACTIVE_LIMIT'],
		[422, 'PAYOUT_OUTSIDE_WORKING_HOURS'],
		[403, 'CARDS_NOT_ENABLED'],
		[410, 'QUOTE_EXPIRED'],
		[404, 'QUOTE_NOT_FOUND'],
		[409, 'CARD_EXTERNAL_ID_TAKEN'],
		[409, 'PAYOUT_NOT_CANCELABLE'],
		[429, 'TOO_MANY_REQUESTS'],
	])('HTTP %i %s with the service body: not_paid (a refusal before acting)', (status, code) => {
		expect(answeredOutcome(status, body(status, code))).toBe('not_paid');
	});

	it('the unsure statuses are named once', () => {
		expect([...ANSWERED_UNSURE_STATUSES].sort()).toEqual([408, 423, 424, 425, 499]);
		expect(answerClass(424, 'VALIDATION_ERROR')).toBe('unsure');
	});
});

describe('r20-money t1: a 4xx with a backend code is unknown with its sentWrite', () => {
	it.each([
		['payout', 424, 'PAYOUT_SERVICE_UNAVAILABLE'],
		['payout', 422, 'PAYOUT_SERVICE_UNAVAILABLE'],
		['payout', 400, 'INTERNAL_ERROR'],
		['card', 424, 'BRIDGE_ERROR'],
		['card', 400, 'BRIDGE_ERROR'],
		['card', 422, 'WALLET_BACKEND_ERROR'],
	])('%s answered HTTP %i %s', async (op, status, code) => {
		const path = op === 'payout' ? '/payouts' : '/cards/request';
		const calls = serve(path, () => [status, body(status, code)]);
		const parameters =
			op === 'payout' ? payoutCreate(`inv-${status}${code}`) : cardRequest(`c-${status}${code}`);
		const item = await run(parameters, `t1-${op}-${status}-${code}`);
		expect(calls.posts()).toBe(1);
		expectUnknownWithSentWrite(item);
		expect(JSON.stringify(item)).toContain(code);
	});
});

describe('r20-money t2–t4, t7: Retry On Fail after a 4xx backend answer or a 408 sends nothing again', () => {
	const ops: Array<[string, string, IDataObject]> = [
		['Payout Create', '/payouts', payoutCreate('inv-r20')],
		['Card Request', '/cards/request', cardRequest('c-r20')],
		['Card Recharge', '/cards/recharge', cardRecharge],
		['Payout Cancel', '/payouts/p-1/cancel', payoutCancel],
	];
	const answers: Array<[number, string]> = [
		[424, 'BRIDGE_ERROR'],
		[400, 'BRIDGE_ERROR'],
		[424, 'PAYOUT_SERVICE_UNAVAILABLE'],
		[422, 'WALLET_BACKEND_ERROR'],
		[408, 'REQUEST_TIMEOUT'],
	];
	for (const [name, path, parameters] of ops) {
		it.each(answers)(`${name} answered HTTP %i %s, then Retry On Fail`, async (status, code) => {
			// The second answer would be a success (or the cancel's 409): it must never be asked.
			const calls = serve(path, (n) =>
				n === 1 ? [status, body(status, code)] : [409, body(409, 'PAYOUT_NOT_CANCELABLE')],
			);
			const execution = `retry-${name}-${status}-${code}`;
			const first = await run(parameters, execution);
			const second = await run(parameters, execution);
			expect(calls.posts()).toBe(1);
			expectUnknownWithSentWrite(first);
			expect(second.paymentOutcome).toBe('unknown');
		});
	}
});

describe('r20-money t5: the tool recharges once per payment reference after a 424 BRIDGE_ERROR', () => {
	it('called again with the same reference: no second POST, never not_paid', async () => {
		const calls = serve('/cards/recharge', (n) =>
			n === 1
				? [424, body(424, 'BRIDGE_ERROR')]
				: [200, { id: `rc-${n}`, cardId: 'card-1', targetAmount: 100, status: 'completed' }],
		);
		nock(BASE_URL).persist().get(/.*/).reply(200, { cards: [], total: 0 });
		const parameters = {
			...cardRecharge,
			paymentReference: 'INV-1042',
			agentMayMoveMoney: true,
			compactOutput: false,
		};
		const first = await runTool({ parameters, sameProcess: true, executionId: 'agent-1' });
		const second = await runTool({ parameters, sameProcess: true, executionId: 'agent-1' });
		expect(calls.posts()).toBe(1);
		const said = (out: IDataObject[]) => JSON.stringify(out[0]);
		expect(said(first.output)).not.toContain('"not_paid"');
		expect(said(first.output)).toContain('"unknown"');
		expect(said(second.output)).not.toContain('"not_paid"');
	});
});

describe('r20-money t8: Accept Quote and Pay QR Code answered 408 are unknown', () => {
	it('Accept Quote', async () => {
		serve(`/orders/accept/${QUOTE}`, () => [408, body(408, 'REQUEST_TIMEOUT')]);
		const item = await run(
			{ resource: 'order', operation: 'accept', quoteId: QUOTE, idempotencyKey: '' },
			't8-accept',
		);
		expectUnknownWithSentWrite(item);
	});

	it('Pay QR Code', async () => {
		nock(BASE_URL).post('/orders/prepare').reply(200, {
			id: QUOTE,
			amountRub: 1000,
			merchantName: 'Shop',
			createdAt: new Date().toISOString(),
		});
		serve(`/orders/accept/${QUOTE}`, () => [408, body(408, 'REQUEST_TIMEOUT')]);
		const item = await run(
			{
				resource: 'order',
				operation: 'pay',
				qrCode: 'https://qr.nspk.ru/AD10006M8KA3KTVF8QS8G5ET5AKQ1234?type=02&sum=100000',
				idempotencyKey: '',
			},
			't8-pay',
		);
		expectUnknownWithSentWrite(item);
	});
});

describe('r20-money t13: a cancel answered 408/424 then PAYOUT_NOT_CANCELABLE is never not_paid', () => {
	it.each([
		[408, 'REQUEST_TIMEOUT'],
		[424, 'PAYOUT_SERVICE_UNAVAILABLE'],
	])('first answer HTTP %i %s', async (status, code) => {
		const calls = serve('/payouts/p-1/cancel', (n) =>
			n === 1 ? [status, body(status, code)] : [409, body(409, 'PAYOUT_NOT_CANCELABLE')],
		);
		const execution = `t13-${status}`;
		const first = await run(payoutCancel, execution);
		const second = await run(payoutCancel, execution);
		expect(first.paymentOutcome).toBe('unknown');
		expect(second.paymentOutcome).not.toBe('not_paid');
		expect(calls.posts()).toBeLessThanOrEqual(2);
	});
});

describe('controls: a documented refusal before acting stays not_paid, and is not held', () => {
	it.each([
		[422, 'INSUFFICIENT_BALANCE'],
		[400, 'VALIDATION_ERROR'],
		[403, 'PERMISSION_DENIED'],
		[422, 'PAYOUT_OUTSIDE_WORKING_HOURS'],
	])('Payout Create answered HTTP %i %s: not_paid, sent once', async (status, code) => {
		const calls = serve('/payouts', () => [status, body(status, code)]);
		// No External ID and a derived key: a first send, which no earlier attempt can have caused.
		const first = { ...payoutCreate(''), additionalFields: {} };
		const item = await run(first, `ctl-${code}`);
		expect(item.paymentOutcome).toBe('not_paid');
		expect(calls.posts()).toBe(1);
	});
});
