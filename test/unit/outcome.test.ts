import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { BASE_URL, derivedKey, runNode, runNodeError } from './helpers/n8n';
import { virtualClock } from './helpers/setup';

/**
 * Money writes have three outcomes (issue 28): paid (the service's answer), not paid (the
 * service's own error body refused it, or nothing was sent) and unknown (the request was sent and
 * no readable answer of the service came back). A write is re-sent only where the interface
 * document promises replay by key (POST /orders/accept/{id}) or where the answer proves nothing
 * was processed (a 429 with the service's error body).
 */
const CARD_ID = 'card_3f9a1c2e';
const QUOTE_ID = '0b6a9a52-4f4e-4a8e-9d39-3f1c8f6f2a11';
const REQUISITE = '2200123456789012';

const payoutCreate = {
	resource: 'payout',
	operation: 'create',
	amountRub: 5000,
	requisiteType: 'card',
	requisite: REQUISITE,
};
const cardRecharge = { resource: 'card', operation: 'recharge', cardId: CARD_ID, targetAmount: 50 };

const NGINX_502 =
	'<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body>\r\n</html>\r\n';
const NGINX_504 =
	'<html><head><title>504 Gateway Time-out</title></head><body><center><h1>504 Gateway Time-out</h1></center></body></html>';

function serviceBody(statusCode: number, errorCode: string, message = 'Ошибка'): IDataObject {
	return { statusCode, error: 'Error', errorCode, message, requestId: `req-${statusCode}` };
}

type Answer =
	| { status: number; body: string | IDataObject; headers?: Record<string, string> }
	| { fail: { code: string; message: string } };

/** The answers that leave a money write's outcome unknown, and must never be re-sent. */
const UNKNOWN_ANSWERS: Array<[string, Answer]> = [
	[
		'a gateway 502 (nginx HTML)',
		{ status: 502, body: NGINX_502, headers: { 'Content-Type': 'text/html' } },
	],
	[
		'a gateway 504 (nginx HTML)',
		{ status: 504, body: NGINX_504, headers: { 'Content-Type': 'text/html' } },
	],
	[
		'a 502 with the service body (BAD_GATEWAY)',
		{ status: 502, body: serviceBody(502, 'BAD_GATEWAY') },
	],
	[
		'a 500 with the service body (INTERNAL_ERROR)',
		{ status: 500, body: serviceBody(500, 'INTERNAL_ERROR') },
	],
	[
		'a 503 with the service body',
		{ status: 503, body: serviceBody(503, 'SERVICE_UNAVAILABLE'), headers: { 'Retry-After': '1' } },
	],
	[
		'a 200 HTML page',
		{ status: 200, body: '<html><body>OK</body></html>', headers: { 'Content-Type': 'text/html' } },
	],
	[
		'a 429 without the service body (a proxy page)',
		{ status: 429, body: '<html>Too Many Requests</html>' },
	],
	[
		'the connection reset after sending (ECONNRESET)',
		{ fail: { code: 'ECONNRESET', message: 'read ECONNRESET' } },
	],
	['a socket hang up', { fail: { code: 'ECONNRESET', message: 'socket hang up' } }],
	['a broken pipe (EPIPE)', { fail: { code: 'EPIPE', message: 'write EPIPE' } }],
	['a timeout', { fail: { code: 'ETIMEDOUT', message: 'read ETIMEDOUT' } }],
	[
		'a TLS record error after the handshake (EPROTO)',
		{ fail: { code: 'EPROTO', message: 'write EPROTO ssl3_read_bytes:bad record mac' } },
	],
	[
		'a TLS decryption failure',
		{
			fail: {
				code: 'ERR_SSL_DECRYPTION_FAILED_OR_BAD_RECORD_MAC',
				message: 'decryption failed or bad record mac',
			},
		},
	],
	[
		'a 409 CONFLICT with the service body (the same request processed before?)',
		{ status: 409, body: serviceBody(409, 'CONFLICT') },
	],
];

/** Counts every request to the path; each is answered as given. */
function answer(
	path: string,
	given: Answer,
	then?: Answer,
): { sent: () => number; keys: string[] } {
	let sent = 0;
	const keys: string[] = [];
	nock(BASE_URL)
		.persist()
		.post(path)
		.reply(function (_uri, _body, callback) {
			sent++;
			keys.push(String(this.req.headers['idempotency-key']));
			const current = sent > 1 && then ? then : given;
			if ('fail' in current) {
				// nock ignores the result of a failed reply.
				callback(Object.assign(new Error(current.fail.message), { code: current.fail.code }), [0]);
				return;
			}
			callback(null, [current.status, current.body, current.headers ?? {}]);
		});
	return { sent: () => sent, keys };
}

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe.each([
	[
		'Payout Create',
		'/payouts',
		payoutCreate,
		'the payout may have been created',
		/Payout > Get Many with the External ID/,
	],
	[
		'Card Recharge',
		'/cards/recharge',
		cardRecharge,
		'the card may have been recharged',
		/Get Balance History/,
	],
	// The document asks Card Request for a key ("unique per attempt") but, unlike Accept Quote,
	// promises no stored answer for a repeated one: a second request may make a second card.
	[
		'Card Request',
		'/cards/request',
		{ resource: 'card', operation: 'request' },
		'the card may have been requested',
		/Card > Get Many/,
	],
])(
	'%s: an unknown outcome is sent once and reported as unknown',
	(_name, path, parameters, what, lookUp) => {
		it.each(UNKNOWN_ANSWERS)(
			'%s: one request, OUTCOME_UNKNOWN, paymentOutcome "unknown"',
			async (_case, given) => {
				const calls = answer(path, given, {
					status: 201,
					body: { id: 'po_1', status: 'waiting_trader' },
				});
				const { output } = await runNode({ parameters, continueOnFail: true });
				expect(calls.sent()).toBe(1);
				expect(virtualClock.slept).toEqual([]);
				expect(output).toHaveLength(1);
				const json = output[0].json;
				expect(json.paymentOutcome).toBe('unknown');
				expect(json.errorCode).toBe('OUTCOME_UNKNOWN');
				expect(String(json.error)).toMatch(new RegExp(`^OUTCOME_UNKNOWN: ${what}.*, or not: `));
				expect(String(json.error)).not.toMatch(/Could not reach/);
				expect(String(json.description)).toMatch(lookUp);
				expect(String(json.description)).toContain('Do not run the node again blindly');
				expect(JSON.stringify(json)).not.toContain(REQUISITE);
			},
		);
	},
);

describe('replay by key where the document promises it', () => {
	it.each([
		['502', { status: 502, body: NGINX_502 }],
		['504', { status: 504, body: NGINX_504 }],
	] as Array<[string, Answer]>)(
		'Accept Quote answered %s is re-sent with the same key, one order',
		async (_s, given) => {
			const calls = answer(`/orders/accept/${QUOTE_ID}`, given, {
				status: 200,
				body: { id: 'ord_1', status: 'created' },
			});
			const { output } = await runNode({
				parameters: { resource: 'order', operation: 'accept', quoteId: QUOTE_ID },
			});
			expect(calls.sent()).toBe(2);
			expect(calls.keys).toEqual([`pay:once:accept:${QUOTE_ID}`, `pay:once:accept:${QUOTE_ID}`]);
			expect(output.map((item) => item.json)).toEqual([{ id: 'ord_1', status: 'created' }]);
		},
	);

	it('Accept Quote answered 502, then refused (404 QUOTE_NOT_FOUND) on the re-send: unknown, not "not paid"', async () => {
		// The first attempt may have paid: the refusal may be about the repeat (the stored answer
		// was not there yet), so it proves nothing about the payment.
		const calls = answer(
			`/orders/accept/${QUOTE_ID}`,
			{ status: 502, body: NGINX_502 },
			{ status: 404, body: serviceBody(404, 'QUOTE_NOT_FOUND') },
		);
		const { output } = await runNode({
			parameters: { resource: 'order', operation: 'accept', quoteId: QUOTE_ID },
			continueOnFail: true,
		});
		expect(calls.sent()).toBe(2);
		expect(output[0].json.paymentOutcome).toBe('unknown');
		expect(output[0].json.errorCode).toBe('OUTCOME_UNKNOWN');
		expect(String(output[0].json.error)).toMatch(/QUOTE_NOT_FOUND/);
	});

	it('Accept Quote refused at once (404 QUOTE_NOT_FOUND, nothing before): not paid', async () => {
		const calls = answer(`/orders/accept/${QUOTE_ID}`, {
			status: 404,
			body: serviceBody(404, 'QUOTE_NOT_FOUND'),
		});
		const { output } = await runNode({
			parameters: { resource: 'order', operation: 'accept', quoteId: QUOTE_ID },
			continueOnFail: true,
		});
		expect(calls.sent()).toBe(1);
		expect(output[0].json.paymentOutcome).toBe('not_paid');
	});

	it('Accept Quote still unknown after the gateway keeps failing: says a re-run with the same key and quote is the identical request', async () => {
		const calls = answer(`/orders/accept/${QUOTE_ID}`, { status: 502, body: NGINX_502 });
		const { output } = await runNode({
			parameters: { resource: 'order', operation: 'accept', quoteId: QUOTE_ID },
			continueOnFail: true,
		});
		expect(calls.sent()).toBe(8);
		expect(output[0].json.paymentOutcome).toBe('unknown');
		expect(output[0].json.errorCode).toBe('OUTCOME_UNKNOWN');
		expect(String(output[0].json.description)).toContain(
			'with the same Idempotency Key and the same Quote ID sends the identical request',
		);
	});
});

describe('not paid', () => {
	it.each([
		['connection refused', 'ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:443'],
		['host not found', 'ENOTFOUND', 'getaddrinfo ENOTFOUND api.payments.test'],
		['TLS certificate', 'CERT_HAS_EXPIRED', 'certificate has expired'],
	])(
		'Payout Create, %s: "Could not reach", paymentOutcome "not_paid"',
		async (_case, code, message) => {
			const calls = answer('/payouts', { fail: { code, message } });
			const { output } = await runNode({ parameters: payoutCreate, continueOnFail: true });
			expect(calls.sent()).toBe(1);
			expect(String(output[0].json.error)).toMatch(/^Could not reach the Staging service/);
			expect(output[0].json.paymentOutcome).toBe('not_paid');
			expect(output[0].json.errorCode).toBeUndefined();
			expect(String(output[0].json.description)).toContain('Nothing was sent');
		},
	);

	it('Card Recharge refused by the service (422 with its error body): not_paid, its errorCode kept', async () => {
		answer('/cards/recharge', { status: 422, body: serviceBody(422, 'INSUFFICIENT_BALANCE') });
		const { output } = await runNode({ parameters: cardRecharge, continueOnFail: true });
		expect(output[0].json).toMatchObject({
			paymentOutcome: 'not_paid',
			errorCode: 'INSUFFICIENT_BALANCE',
			httpCode: 422,
			requestId: 'req-422',
		});
	});

	it('Payout Create refused with the requisite in the service message: masked, and still not_paid', async () => {
		answer('/payouts', {
			status: 400,
			body: serviceBody(400, 'PAYOUT_REQUISITE_INVALID', `Реквизит ${REQUISITE} неверен`),
		});
		const { output } = await runNode({ parameters: payoutCreate, continueOnFail: true });
		expect(output[0].json.paymentOutcome).toBe('not_paid');
		expect(JSON.stringify(output[0].json)).not.toContain(REQUISITE);
	});

	it('Payout Create answered 500 with the requisite in the message: masked, and still unknown', async () => {
		answer('/payouts', {
			status: 500,
			body: serviceBody(500, 'INTERNAL_ERROR', `Ошибка для ${REQUISITE}`),
		});
		const { output } = await runNode({ parameters: payoutCreate, continueOnFail: true });
		expect(output[0].json.paymentOutcome).toBe('unknown');
		expect(output[0].json.errorCode).toBe('OUTCOME_UNKNOWN');
		expect(JSON.stringify(output[0].json)).not.toContain(REQUISITE);
	});

	it('Payout Create answered 429 with the service body: refused, not_paid, and not sent again (no replay promised)', async () => {
		const calls = answer('/payouts', {
			status: 429,
			body: serviceBody(429, 'RATE_LIMITED'),
			headers: { 'Retry-After': '1' },
		});
		const { output } = await runNode({ parameters: payoutCreate, continueOnFail: true });
		expect(calls.sent()).toBe(1);
		expect(calls.keys).toEqual([derivedKey(0, 0)]);
		expect(output[0].json.paymentOutcome).toBe('not_paid');
		expect(output[0].json.retryAfter).toBe('1');
	});
});

describe('a run of several items', () => {
	it('stops at the unknown outcome and says which items went through', async () => {
		let sent = 0;
		nock(BASE_URL)
			.persist()
			.post('/payouts')
			.reply(() => {
				sent++;
				return sent === 2
					? [502, NGINX_502, { 'Content-Type': 'text/html' }]
					: [
							201,
							{ id: `po_${sent}`, status: 'waiting_trader', createdAt: new Date().toISOString() },
						];
			});
		const error = await runNodeError({ parameters: [payoutCreate, payoutCreate, payoutCreate] });
		expect(sent).toBe(2);
		expect(error.message).toMatch(/^OUTCOME_UNKNOWN/);
		expect(String(error.description)).toContain('Item 0 was already processed by the service');
		expect((error.context as IDataObject).paymentOutcome).toBe('unknown');
	});

	it('with "Continue (using error output)" the outcome travels inside error', async () => {
		answer('/payouts', { status: 504, body: NGINX_504 });
		const { output } = await runNode({
			parameters: payoutCreate,
			continueOnFail: true,
			onError: 'continueErrorOutput',
		});
		expect((output[0].json.error as IDataObject).paymentOutcome).toBe('unknown');
		expect((output[0].json.error as IDataObject).errorCode).toBe('OUTCOME_UNKNOWN');
	});
});

describe('reads keep retrying', () => {
	it('Payout Get answered 502 then 200: retried', async () => {
		let sent = 0;
		nock(BASE_URL)
			.persist()
			.get('/payouts/po_1')
			.reply(() => (++sent === 1 ? [502, NGINX_502] : [200, { id: 'po_1', status: 'success' }]));
		const { output } = await runNode({
			parameters: { resource: 'payout', operation: 'get', payoutId: 'po_1' },
		});
		expect(sent).toBe(2);
		expect(output[0].json).toMatchObject({ id: 'po_1' });
	});
});
