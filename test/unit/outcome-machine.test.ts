import fc from 'fast-check';
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { resources } from '../../nodes/CompanyPayments/resources';
import type { OperationDefinition } from '../../nodes/CompanyPayments/types';
import { forgetAllSentWrites } from '../../nodes/shared/money/write';
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

/**
 * The parameters of an operation, made from its description alone, so that a money operation
 * added later is run here with no edit: every required field gets the example its placeholder
 * shows (less "e.g."), options their default, anything else `<name>_1`.
 */
function parametersOf(operation: OperationDefinition): IDataObject {
	const out: IDataObject = {};
	for (const property of operation.properties) {
		if (!property.required || property.name in out) continue;
		if (property.type === 'options') {
			out[property.name] = property.default;
			continue;
		}
		const example = String(property.placeholder ?? '').replace(/^e\.g\.\s*/, '');
		out[property.name] = example !== '' ? example : `${property.name}_1`;
	}
	return out;
}

/**
 * A successful answer any money operation reads as done: an order, a payout, a recharge, a card
 * request (status assigned with its card and a fulfilled request), a quote with an ID.
 */
const OK: IDataObject = {
	id: 'x_1',
	status: 'assigned',
	amountRub: 1000,
	merchantName: 'Shop',
	card: { id: 'card_1', status: 'assigned' },
	request: { id: 'req_1', status: 'fulfilled', cardId: 'card_1' },
};

const MONEY = resources.flatMap((resource) =>
	resource.operations
		.filter((operation) => operation.kind === 'money')
		.map((operation) => ({
			name: `${resource.value}.${operation.value}`,
			resource: resource.value,
			operation: operation.value,
			parameters: parametersOf(operation),
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
	// UNPROCESSABLE names no condition checked before acting (outside r21-money F3): unknown.
	{ kind: 'http', status: 422, body: serviceBody(422, 'UNPROCESSABLE'), proves: 'unknown' },
	{ kind: 'http', status: 422, body: serviceBody(422, 'DEADLINE_EXCEEDED'), proves: 'unknown' },
	{ kind: 'http', status: 422, body: serviceBody(422, 'PAYOUT_ACTIVE_LIMIT'), proves: 'refused' },
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
/**
 * Refusals a write's own earlier attempt may cause (its money contract's ownRefusals, issue 49.2):
 * never proof that nothing was paid.
 */
const OWN_REFUSALS: Record<string, string[]> = { 'card.request': ['CARD_EXTERNAL_ID_TAKEN'] };

function oracle(made: Answer[], own: string[] = []): 'paid' | 'not_paid' | 'unknown' {
	const last = made[made.length - 1];
	if (last.kind === 'ok') return 'paid';
	const code = last.kind === 'http' && typeof last.body === 'object' ? last.body.errorCode : null;
	if (typeof code === 'string' && own.includes(code)) return 'unknown';
	const refusedBeforeActing = made.every(
		(answer) => answer.kind !== 'ok' && (answer.proves === 'refused' || answer.proves === 'unsent'),
	);
	return refusedBeforeActing ? 'not_paid' : 'unknown';
}

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

/**
 * Serves every request: the money write (the one carrying an Idempotency-Key) gets the next
 * answer of `sequence`; anything else (Pay QR Code's prepare) a plain success. Returns how many
 * money writes were sent.
 */
function serve(sequence: Answer[]): () => number {
	let sent = 0;
	nock(BASE_URL)
		.persist()
		.post(/.*/)
		.reply(function (uri, body, callback) {
			if (this.req.headers['idempotency-key'] === undefined) {
				callback(null, [200, { ...OK, id: QUOTE_ID }]);
				return;
			}
			const answer = sequence[Math.min(sent, sequence.length - 1)];
			sent++;
			if (answer.kind === 'net') {
				callback(Object.assign(new Error(answer.code), { code: answer.code }), [0, '']);
				return;
			}
			if (answer.kind === 'ok') {
				// What was asked, done: the record echoes the request, a cancelled payout is fail.
				const cancelled = /\/payouts\/([^/]+)\/cancel$/.exec(uri);
				// A created payout is on its way (waiting_trader): Resolve Outcome's table calls it made.
				// Every record is dated as it is answered, a cancel by its refund (r16-money F1, F2).
				const now = new Date().toISOString();
				const done = cancelled
					? {
							id: decodeURIComponent(cancelled[1]),
							status: 'fail',
							failReason: 'cancelled_by_merchant',
							refundedAt: now,
						}
					: // A recharge that stands (its statuses are not shown: RECHARGE_STANDING_STATUSES).
						uri === '/cards/recharge'
						? { status: 'completed' }
						: uri === '/payouts'
							? { status: 'waiting_trader' }
							: // An accepted order in a status the document lists (r23-money).
								uri.startsWith('/orders/accept/')
								? { status: 'created' }
								: {};
				const dated = {
					createdAt: now,
					request: { ...(OK.request as IDataObject), createdAt: now },
				};
				callback(null, [200, { ...OK, ...dated, ...(body as IDataObject), ...done }]);
				return;
			}
			const headers: Record<string, string> =
				answer.status === 302 ? { Location: 'https://elsewhere.test/x' } : {};
			callback(null, [answer.status, answer.body, headers]);
		});
	return () => sent;
}

it("finds the money operations in the node's description, and each pays once on a plain success", async () => {
	expect(MONEY.length).toBeGreaterThanOrEqual(6);
	for (const { name, resource, operation, parameters } of MONEY) {
		nock.cleanAll();
		forgetAllSentWrites();
		const sent = serve([{ kind: 'ok' }]);
		const { output } = await runNode({ parameters: { resource, operation, ...parameters } });
		expect([name, sent(), output[0].json.error]).toEqual([name, 1, undefined]);
	}
});

describe.each(MONEY)('$name', ({ name, resource, operation, parameters, replayByKey }) => {
	it('reports what the answers prove, never less than unknown after an attempt that may have acted', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(fc.constantFrom(...ANSWERS), { minLength: 1, maxLength: 4 }),
				async (sequence) => {
					nock.cleanAll();
					forgetAllSentWrites();
					const sent = serve(sequence);
					const { output } = await runNode({
						parameters: { resource, operation, ...parameters },
						continueOnFail: true,
					});
					const made = sequence.slice(0, Math.min(sent(), sequence.length));
					// Sent again only where allowed.
					for (const earlier of made.slice(0, -1)) {
						expect([name, earlier, mayResend(earlier, replayByKey)]).toEqual([name, earlier, true]);
					}
					const json = output[0].json;
					const expected = oracle(made, OWN_REFUSALS[`${resource}.${operation}`]);
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
