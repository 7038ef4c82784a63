import fc from 'fast-check';
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { resources } from '../../nodes/CompanyPayments/resources';
import { forgetAllSentWrites } from '../../nodes/shared/transport/sentWrites';
import { BASE_URL, runNode } from './helpers/n8n';

/**
 * Issue 36.2, generated: every money operation (read from the node's own description, kind
 * 'money') is run against generated sequences of answers, and what it reports is checked against
 * an oracle written here, from the interface document alone:
 *
 * - paid: only when the last attempt got a readable 2xx answer;
 * - not paid: only when every attempt was refused before it acted (it never left n8n, or the
 *   service's own error body refused it with a 4xx that is not an unexplained 409);
 * - unknown otherwise — and then the words never say that nothing was sent;
 * - a write is sent again only where the document allows: after a 429 that carries the
 *   service's body (refused for its rate), or for a write whose replay by key is promised
 *   (Accept Quote, Pay QR Code's accept) after 429, 502, 503 or 504.
 */

const QUOTE_ID = '0b6a9a52-4f4e-4a8e-9d39-3f1c8f6f2a11';

/** How each money operation is called; an operation added without a line here fails below. */
const CALLS: Record<string, { parameters: IDataObject; path: string; ok: IDataObject }> = {
	'order.accept': {
		parameters: { quoteId: QUOTE_ID },
		path: `/orders/accept/${QUOTE_ID}`,
		ok: { id: 'ord_1', status: 'created', amountRub: 1000, merchantName: 'Shop' },
	},
	'order.pay': {
		parameters: { qrCode: 'https://qr.nspk.ru/AS100001' },
		path: `/orders/accept/${QUOTE_ID}`,
		ok: { id: 'ord_1', status: 'created', amountRub: 1000, merchantName: 'Shop' },
	},
	'card.request': {
		parameters: {},
		path: '/cards/request',
		ok: {
			status: 'assigned',
			card: { id: 'card_1', status: 'assigned' },
			request: { id: 'req_1', status: 'fulfilled', cardId: 'card_1' },
		},
	},
	'card.recharge': {
		parameters: { cardId: 'card_1', targetAmount: '50' },
		path: '/cards/recharge',
		ok: { id: 'rch_1', cardId: 'card_1', targetAmount: 50 },
	},
	'payout.create': {
		parameters: { amountRub: '5000', requisiteType: 'card', requisite: '2200123456789012' },
		path: '/payouts',
		ok: { id: 'po_1', status: 'waiting_trader', amountRub: 5000 },
	},
	'payout.cancel': {
		parameters: { payoutId: 'po_1' },
		path: '/payouts/po_1/cancel',
		ok: { id: 'po_1', status: 'fail', failReason: 'cancelled_by_merchant' },
	},
};

const MONEY = resources.flatMap((resource) =>
	resource.operations
		.filter((operation) => operation.kind === 'money')
		.map((operation) => ({
			name: `${resource.value}.${operation.value}`,
			resource: resource.value,
			operation: operation.value,
			replayByKey: operation.money?.replayByKey === true,
		})),
);

function serviceBody(statusCode: number, errorCode: string): IDataObject {
	return { statusCode, error: 'Error', errorCode, message: 'Ошибка', requestId: 'req-x' };
}

/** One answer the service (or what stands before it) may give, and what it proves alone. */
type Answer =
	| { kind: 'ok' }
	| { kind: 'http'; status: number; body: string | IDataObject; proves: 'refused' | 'unknown' }
	| { kind: 'net'; code: string; proves: 'unsent' | 'unknown' };

const HTML = (status: number) => `<html><body><h1>${status}</h1></body></html>`;

const ANSWERS: Answer[] = [
	{ kind: 'ok' },
	{ kind: 'http', status: 200, body: '<html>OK</html>', proves: 'unknown' },
	{ kind: 'http', status: 201, body: 'created', proves: 'unknown' },
	{ kind: 'http', status: 400, body: serviceBody(400, 'VALIDATION_ERROR'), proves: 'refused' },
	{ kind: 'http', status: 402, body: serviceBody(402, 'INSUFFICIENT_BALANCE'), proves: 'refused' },
	{ kind: 'http', status: 403, body: serviceBody(403, 'PERMISSION_DENIED'), proves: 'refused' },
	{ kind: 'http', status: 404, body: serviceBody(404, 'NOT_FOUND'), proves: 'refused' },
	{ kind: 'http', status: 409, body: serviceBody(409, 'CONFLICT'), proves: 'unknown' },
	{
		kind: 'http',
		status: 409,
		body: serviceBody(409, 'CARD_EXTERNAL_ID_TAKEN'),
		proves: 'refused',
	},
	{ kind: 'http', status: 422, body: serviceBody(422, 'UNPROCESSABLE'), proves: 'refused' },
	{ kind: 'http', status: 429, body: serviceBody(429, 'TOO_MANY_REQUESTS'), proves: 'refused' },
	{ kind: 'http', status: 429, body: HTML(429), proves: 'unknown' },
	{ kind: 'http', status: 404, body: HTML(404), proves: 'unknown' },
	{ kind: 'http', status: 500, body: serviceBody(500, 'INTERNAL_ERROR'), proves: 'unknown' },
	{ kind: 'http', status: 502, body: HTML(502), proves: 'unknown' },
	{ kind: 'http', status: 503, body: serviceBody(503, 'SERVICE_UNAVAILABLE'), proves: 'unknown' },
	{ kind: 'http', status: 504, body: HTML(504), proves: 'unknown' },
	{ kind: 'http', status: 302, body: '', proves: 'unknown' },
	{ kind: 'net', code: 'ECONNREFUSED', proves: 'unsent' },
	{ kind: 'net', code: 'ENOTFOUND', proves: 'unsent' },
	{ kind: 'net', code: 'ECONNRESET', proves: 'unknown' },
	{ kind: 'net', code: 'ETIMEDOUT', proves: 'unknown' },
];

/** Whether the node may send the write again after this answer (the document's rules). */
function mayResend(answer: Answer, replayByKey: boolean): boolean {
	if (answer.kind !== 'http') return false;
	if (answer.status === 429 && answer.proves === 'refused') return true;
	return replayByKey && [429, 502, 503, 504].includes(answer.status);
}

/** The oracle: the outcome the attempts made prove. */
function oracle(made: Answer[]): 'paid' | 'not_paid' | 'unknown' {
	if (made[made.length - 1].kind === 'ok') return 'paid';
	const refusedBeforeActing = made.every(
		(answer) => answer.kind !== 'ok' && (answer.proves === 'refused' || answer.proves === 'unsent'),
	);
	return refusedBeforeActing ? 'not_paid' : 'unknown';
}

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

it('covers every money operation of the node', () => {
	expect(MONEY.map((money) => money.name).sort()).toEqual(Object.keys(CALLS).sort());
});

describe.each(MONEY)('$name', ({ name, resource, operation, replayByKey }) => {
	it('reports what the answers prove, never less than unknown after an attempt that may have acted', async () => {
		const call = CALLS[name];
		await fc.assert(
			fc.asyncProperty(
				fc.array(fc.constantFrom(...ANSWERS), { minLength: 1, maxLength: 4 }),
				async (sequence) => {
					nock.cleanAll();
					forgetAllSentWrites();
					if (name === 'order.pay') {
						nock(BASE_URL)
							.post('/orders/prepare')
							.reply(200, { id: QUOTE_ID, amountRub: 1000, merchantName: 'Shop' });
					}
					let sent = 0;
					nock(BASE_URL)
						.persist()
						.post(call.path)
						.reply(function (_uri, _body, callback) {
							const answer = sequence[Math.min(sent, sequence.length - 1)];
							sent++;
							if (answer.kind === 'net') {
								callback(Object.assign(new Error(answer.code), { code: answer.code }), [0, '']);
								return;
							}
							if (answer.kind === 'ok') {
								callback(null, [200, call.ok]);
								return;
							}
							const headers = answer.status === 302 ? { Location: 'https://elsewhere.test/x' } : {};
							callback(null, [answer.status, answer.body, headers]);
						});
					const { output } = await runNode({
						parameters: { resource, operation, ...call.parameters },
						continueOnFail: true,
					});
					const made = sequence.slice(0, Math.min(sent, sequence.length));
					// Sent again only where allowed.
					for (const earlier of made.slice(0, -1)) {
						expect([name, earlier, mayResend(earlier, replayByKey)]).toEqual([name, earlier, true]);
					}
					const json = output[0].json;
					const expected = oracle(made);
					const reported = json.error === undefined ? 'paid' : json.paymentOutcome;
					expect([name, made, reported]).toEqual([name, made, expected]);
					if (expected !== 'not_paid') {
						const words = `${String(json.error ?? '')} ${String(json.description ?? '')}`;
						expect([name, made, words]).not.toEqual([
							name,
							made,
							expect.stringMatching(/[Nn]othing was sent|running it again is safe/),
						]);
					}
				},
			),
			{ numRuns: 60, seed: 36 },
		);
	});
});

it('a Pay QR Code accept answered 504 by a gateway, whose repeat finds the service unreachable, is unknown (the fifth read)', async () => {
	nock(BASE_URL)
		.post('/orders/prepare')
		.reply(200, { id: QUOTE_ID, amountRub: 1000, merchantName: 'Shop' });
	nock(BASE_URL).post(`/orders/accept/${QUOTE_ID}`).reply(504, HTML(504));
	nock(BASE_URL)
		.post(`/orders/accept/${QUOTE_ID}`)
		.replyWithError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
	const { output } = await runNode({
		parameters: { resource: 'order', operation: 'pay', qrCode: 'https://qr.nspk.ru/AS1' },
		continueOnFail: true,
	});
	const json = output[0].json;
	expect(json.paymentOutcome).toBe('unknown');
	expect(json.errorCode).toBe('OUTCOME_UNKNOWN');
	expect(`${String(json.error)} ${String(json.description)}`).not.toMatch(/Nothing was sent/);
	expect(String(json.error)).toMatch(/earlier attempt \(HTTP 504\) may have acted/);
});
