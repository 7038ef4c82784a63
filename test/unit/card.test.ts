import nock from 'nock';

import { CompanyPayments } from '../../nodes/CompanyPayments/CompanyPayments.node';
import { card as cardResource } from '../../nodes/CompanyPayments/card';
import { madeNow } from './helpers/money';
import { API_KEY, BASE_URL, derivedKey, runNode, runNodeError } from './helpers/n8n';

const CARD_ID = 'card_3f9a1c2e';
const DERIVED_KEY = derivedKey(0, 0);

const card = {
	id: CARD_ID,
	externalId: 'employee-42',
	status: 'assigned',
	maskedPan: '400012******1234',
	expiry: '11/29',
	assignedAt: '2026-11-21T12:00:00.000Z',
	createdAt: '2026-11-21T12:00:00.000Z',
};
const fulfilledRequest = {
	id: 'creq_1a2b3c4d',
	externalId: 'employee-42',
	status: 'fulfilled',
	cardId: CARD_ID,
	// Made near the send: a request made well before it proves no Card Request (money/binding.ts).
	createdAt: madeNow(),
};
const pendingRequest = { ...fulfilledRequest, status: 'pending', cardId: null };
/**
 * The answer to a request sent without an External ID: its card carries none (the request's moves
 * to the card when it is issued, so a card carrying one is another request's: outside r21-money F2).
 */
const unnamedAnswer = {
	status: 'assigned',
	card: { ...card, externalId: null },
	request: { ...fulfilledRequest, externalId: null },
};

function serviceErrorBody(
	statusCode: number,
	errorCode: string,
	extra: Record<string, unknown> = {},
) {
	return { statusCode, error: 'Error', errorCode, message: 'Ошибка', ...extra };
}

beforeAll(() => nock.disableNetConnect());
afterAll(() => nock.enableNetConnect());
afterEach(() => {
	expect(nock.pendingMocks()).toEqual([]);
	nock.cleanAll();
});

describe('card resource definition', () => {
	it('runs only the reads concurrently; request and recharge run one item at a time', () => {
		const readOnly = Object.fromEntries(
			cardResource.operations.map((op) => [op.value, op.concurrent === true]),
		);
		expect(readOnly).toEqual({
			request: false,
			get: true,
			getMany: true,
			getBalance: true,
			getSensitiveData: true,
			getRechargeQuote: true,
			recharge: false,
		});
	});

	it('is listed as a resource with Get Many preselected (requesting a card is chosen on purpose)', () => {
		const { properties } = new CompanyPayments().description;
		const resource = properties.find((p) => p.name === 'resource');
		expect(resource?.options).toContainEqual(
			expect.objectContaining({ name: 'Card', value: 'card' }),
		);
		const selectors = properties.filter(
			(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.[0] === 'card',
		);
		// Version 1 keeps Request for its saved workflows; newer nodes start on Get Many.
		expect(selectors.map((selector) => selector.default)).toEqual(['request', 'getMany']);
	});
});

describe('card.request', () => {
	it('posts the external ID with the API key and the derived Idempotency-Key; outcome assigned', async () => {
		const scope = nock(BASE_URL)
			.post('/cards/request', { externalId: 'employee-42' })
			.matchHeader('x-api-key', API_KEY)
			.matchHeader('idempotency-key', DERIVED_KEY)
			.reply(200, { status: 'assigned', card, request: fulfilledRequest });
		const { output } = await runNode({
			parameters: { resource: 'card', operation: 'request', externalId: 'employee-42' },
		});
		expect(output).toEqual([
			{
				json: {
					outcome: 'assigned',
					status: 'assigned',
					cardId: CARD_ID,
					card,
					request: fulfilledRequest,
					note: `A card was issued: card ${CARD_ID}. Use Card > Get or Get Card Number and CVV with this ID.`,
				},
				pairedItem: { item: 0 },
			},
		]);
		scope.done();
	});

	it('outputs outcome pending with card null and a note about the card.assigned event', async () => {
		nock(BASE_URL)
			.post('/cards/request')
			.reply(202, { status: 'pending', card: null, request: pendingRequest });
		const { output } = await runNode({
			parameters: { resource: 'card', operation: 'request', externalId: 'employee-42' },
		});
		expect(output[0].json).toEqual({
			outcome: 'pending',
			status: 'pending',
			cardId: null,
			card: null,
			request: pendingRequest,
			note: expect.stringContaining('card.assigned'),
		});
	});

	it('treats an answer without card and with a pending request as pending', async () => {
		nock(BASE_URL).post('/cards/request').reply(200, { request: pendingRequest });
		const { output } = await runNode({ parameters: { resource: 'card', operation: 'request' } });
		expect(output[0].json).toMatchObject({ outcome: 'pending', status: 'pending', card: null });
	});

	it('reports a fulfilled request with a cardId and no card object as a card issued, not as no card', async () => {
		nock(BASE_URL).post('/cards/request').reply(200, { request: fulfilledRequest });
		const { output } = await runNode({ parameters: { resource: 'card', operation: 'request' } });
		expect(output[0].json).toEqual({
			outcome: 'assigned',
			status: 'fulfilled',
			cardId: CARD_ID,
			card: null,
			request: fulfilledRequest,
			note: `A card was issued: card ${CARD_ID}. Use Card > Get or Get Card Number and CVV with this ID.`,
		});
	});

	it('reports a fulfilled request without a card ID as issued, and says how to find the card', async () => {
		nock(BASE_URL)
			.post('/cards/request')
			.reply(200, { status: 'fulfilled', request: { ...fulfilledRequest, cardId: null } });
		const { output } = await runNode({ parameters: { resource: 'card', operation: 'request' } });
		expect(output[0].json).toMatchObject({ outcome: 'assigned', cardId: null, card: null });
		expect(output[0].json.note).toMatch(/fulfilled but names no card ID.*external ID/);
	});

	it.each([
		['cancelled', 'No card was issued: the card request was cancelled', /frozenBalance/],
		['failed', 'No card was issued: the card request failed', /issuer could not issue a card/],
		[
			'on_hold',
			'No card is known to be issued: the answer names request status "on_hold", card status "null" and status "on_hold", a combination this node does not read as issued or pending',
			/pending, fulfilled, cancelled and failed/,
		],
	])('says in plain words that a %s request issued no card', async (status, message, words) => {
		nock(BASE_URL)
			.post('/cards/request')
			.reply(200, { status, card: null, request: { ...pendingRequest, status } });
		const error = await runNodeError({ parameters: { resource: 'card', operation: 'request' } });
		expect(error.message).toBe(message);
		expect(error.description).toMatch(words);
		expect(error.description).toContain('(request creq_1a2b3c4d)');
	});

	// The document says the top-level status is always `assigned`: the request's own status and
	// the card's decide what happened.
	it.each([
		[
			'status assigned, request pending, no card',
			{ status: 'assigned', card: null, request: { ...pendingRequest, status: 'pending' } },
			'pending',
		],
		[
			'status assigned, request cancelled, card requested',
			{
				status: 'assigned',
				card: { ...card, status: 'requested' },
				request: { ...pendingRequest, status: 'cancelled' },
			},
			'no card',
		],
		[
			'status assigned, request failed, card closed',
			{
				status: 'assigned',
				card: { ...card, status: 'closed' },
				request: { ...pendingRequest, status: 'failed' },
			},
			'no card',
		],
		[
			'status assigned, card failed',
			{
				status: 'assigned',
				card: { ...card, status: 'failed' },
				request: { ...pendingRequest, status: 'pending' },
			},
			'no card',
		],
	])('%s: %s', async (_case, answer, expected) => {
		nock(BASE_URL).post('/cards/request').reply(200, answer);
		const { output } = await runNode({
			parameters: { resource: 'card', operation: 'request' },
			continueOnFail: true,
		});
		if (expected === 'pending') {
			expect(output[0].json.outcome).toBe('pending');
			return;
		}
		expect(output[0].json.outcome).toBeUndefined();
		expect(String(output[0].json.error)).toMatch(/^No card/);
		// The reserve taken at the request may still be held: not "not paid".
		expect(output[0].json.paymentOutcome).toBe('unknown');
		expect(String(output[0].json.description)).toMatch(/frozenBalance|balance/);
	});

	it('sends no body without an external ID, but still an Idempotency-Key', async () => {
		nock(BASE_URL)
			.post('/cards/request', (body) => body === '' || Object.keys(body).length === 0)
			.matchHeader('idempotency-key', DERIVED_KEY)
			.reply(200, unnamedAnswer);
		const { context } = await runNode({
			parameters: { resource: 'card', operation: 'request', externalId: '' },
		});
		expect(context.requests[0].body).toBeUndefined();
	});

	it('uses the Idempotency Key the user set', async () => {
		nock(BASE_URL)
			.post('/cards/request')
			.matchHeader('idempotency-key', 'example-card-for-employee-42')
			.reply(200, unnamedAnswer);
		await runNode({
			parameters: {
				resource: 'card',
				operation: 'request',
				idempotencyKey: 'example-card-for-employee-42',
			},
		});
	});

	it('sends the same derived key when n8n retries the same item, and a new one in a new execution', async () => {
		const keys: string[] = [];
		nock(BASE_URL)
			.post('/cards/request')
			.times(3)
			.reply(function () {
				keys.push(String(this.req.headers['idempotency-key']));
				return [200, { status: 'assigned', card, request: fulfilledRequest }];
			});
		const parameters = { resource: 'card', operation: 'request', externalId: 'employee-42' };
		await runNode({ parameters, executionId: '1001' });
		await runNode({ parameters, executionId: '1001' });
		await runNode({ parameters, executionId: '1002' });
		expect(keys).toEqual([DERIVED_KEY, DERIVED_KEY, derivedKey(0, 0, '1002')]);
	});

	it.each([
		['emp 42', 'character 4 is a space'],
		['emp\t42', 'character 4 is U+0009'],
		['карта-1', 'character 1 is U+043A'],
	])('refuses the external ID %j before any request', async (externalId, detail) => {
		const error = await runNodeError({
			parameters: { resource: 'card', operation: 'request', externalId },
		});
		expect(error.constructor.name).toBe('NodeOperationError');
		expect(error.message).toBe(
			`External ID must be printable ASCII without spaces (characters 0x21 to 0x7E; ${detail}), got "${externalId}"`,
		);
	});

	it('names the external ID that is taken on 409 CARD_EXTERNAL_ID_TAKEN', async () => {
		nock(BASE_URL)
			.post('/cards/request')
			.reply(
				409,
				serviceErrorBody(409, 'CARD_EXTERNAL_ID_TAKEN', { details: { externalId: 'employee-42' } }),
			);
		const error = await runNodeError({
			parameters: { resource: 'card', operation: 'request', externalId: 'employee-42' },
		});
		// Its own earlier attempt (a re-run) may have taken it: unknown, never not paid (issue 49.2).
		expect(error.message).toMatch(/^OUTCOME_UNKNOWN: .*CARD_EXTERNAL_ID_TAKEN/);
		expect((error.context as { paymentOutcome?: unknown } | undefined)?.paymentOutcome).toBe(
			'unknown',
		);
		expect(error.httpCode).toBe('409');
	});

	it('requests cards for items one after another, each with its own key', async () => {
		const keys: string[] = [];
		nock(BASE_URL)
			.post('/cards/request')
			.times(2)
			.reply(function (_uri, body) {
				keys.push(String(this.req.headers['idempotency-key']));
				const { externalId } = body as { externalId: string };
				return [
					200,
					{
						status: 'assigned',
						card: { ...card, externalId },
						// Each request its own record: one record proves one write.
						request: { ...fulfilledRequest, id: `creq_${externalId}`, externalId },
					},
				];
			});
		const { output } = await runNode({
			parameters: [
				{ resource: 'card', operation: 'request', externalId: 'a-1' },
				{ resource: 'card', operation: 'request', externalId: 'a-2' },
			],
		});
		expect(keys).toEqual([DERIVED_KEY, derivedKey(0, 1)]);
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});
});

describe('card.get and card.getMany', () => {
	it('gets one card by ID with the API key', async () => {
		nock(BASE_URL).get(`/cards/${CARD_ID}`).matchHeader('x-api-key', API_KEY).reply(200, card);
		const { output } = await runNode({
			parameters: { resource: 'card', operation: 'get', cardId: CARD_ID },
		});
		expect(output).toEqual([{ json: card, pairedItem: { item: 0 } }]);
	});

	it('encodes the card ID as one path segment', async () => {
		nock(BASE_URL).get('/cards/a%2Fb').reply(200, card);
		await runNode({ parameters: { resource: 'card', operation: 'get', cardId: 'a/b' } });
	});

	it('explains 404 CARD_NOT_FOUND', async () => {
		nock(BASE_URL).get('/cards/nope').reply(404, serviceErrorBody(404, 'CARD_NOT_FOUND'));
		const error = await runNodeError({
			parameters: { resource: 'card', operation: 'get', cardId: 'nope' },
		});
		expect(error.message).toBe('CARD_NOT_FOUND: The card does not exist in this company');
		expect(error.httpCode).toBe('404');
	});

	it('refuses an empty card ID before any request', async () => {
		const error = await runNodeError({
			parameters: { resource: 'card', operation: 'get', cardId: ' ' },
		});
		expect(error.message).toBe('Card ID must not be empty, got " "');
	});

	it('lists cards filtered by external ID from the cards envelope, up to the limit', async () => {
		nock(BASE_URL)
			.get('/cards')
			.query({ externalId: 'employee-42', limit: '5', offset: '0' })
			.matchHeader('x-api-key', API_KEY)
			.reply(200, { cards: [card], total: 1 });
		const { output } = await runNode({
			parameters: {
				resource: 'card',
				operation: 'getMany',
				returnAll: false,
				limit: 5,
				filters: { externalId: 'employee-42' },
			},
		});
		expect(output).toEqual([{ json: card, pairedItem: { item: 0 } }]);
	});

	it('pages through all cards with Return All', async () => {
		const page = Array.from({ length: 100 }, (_, i) => ({ ...card, id: `card_${i}` }));
		nock(BASE_URL)
			.get('/cards')
			.query({ limit: '1000', offset: '0' })
			.reply(200, { cards: page, total: 101 });
		nock(BASE_URL)
			.get('/cards')
			.query({ limit: '100', offset: '98' })
			.reply(200, { cards: [...page.slice(98), { ...card, id: 'card_100' }], total: 101 });
		const { output } = await runNode({
			parameters: { resource: 'card', operation: 'getMany', returnAll: true },
		});
		expect(output).toHaveLength(101);
		expect(output[100].json.id).toBe('card_100');
	});
});

describe('card.getBalance', () => {
	it('keeps balance as the decimal string and adds balanceNumber beside it', async () => {
		nock(BASE_URL)
			.get(`/cards/${CARD_ID}/balance`)
			.matchHeader('x-api-key', API_KEY)
			.reply(200, { balance: '123.45', currency: 'USD', fetchedAt: '2026-11-21T12:00:00.000Z' });
		const { output } = await runNode({
			parameters: { resource: 'card', operation: 'getBalance', cardId: CARD_ID },
		});
		expect(output[0].json).toEqual({
			balance: '123.45',
			balanceNumber: 123.45,
			currency: 'USD',
			fetchedAt: '2026-11-21T12:00:00.000Z',
		});
		expect(Object.keys(output[0].json).slice(0, 2)).toEqual(['balance', 'balanceNumber']);
	});

	it('sets balanceNumber to null when balance is not a number', async () => {
		nock(BASE_URL).get(`/cards/${CARD_ID}/balance`).reply(200, { balance: 'n/a', currency: 'USD' });
		const { output } = await runNode({
			parameters: { resource: 'card', operation: 'getBalance', cardId: CARD_ID },
		});
		expect(output[0].json.balanceNumber).toBeNull();
	});

	it.each([422, 400])('says the card must be assigned on %i CARD_NOT_ACTIVE', async (status) => {
		nock(BASE_URL)
			.get(`/cards/${CARD_ID}/balance`)
			.reply(
				status,
				serviceErrorBody(status, 'CARD_NOT_ACTIVE', { details: { status: 'closing' } }),
			);
		const error = await runNodeError({
			parameters: { resource: 'card', operation: 'getBalance', cardId: CARD_ID },
		});
		expect(error.message).toMatch(
			/^CARD_NOT_ACTIVE: The card is not in status assigned\. Only an assigned/,
		);
		expect(error.description).toContain('Details: {"status":"closing"}');
		expect(error.httpCode).toBe(String(status));
	});

	it.each([
		['CARD_NOT_FOUND', 'CARD_NOT_FOUND'],
		['NOT_FOUND', 'NOT_FOUND'],
		['', 'HTTP 404'],
	])('says the card must exist and be assigned on 404 with errorCode %j', async (code, label) => {
		nock(BASE_URL).get(`/cards/${CARD_ID}/balance`).reply(404, serviceErrorBody(404, code));
		const error = await runNodeError({
			parameters: { resource: 'card', operation: 'getBalance', cardId: CARD_ID },
		});
		expect(error.message).toBe(
			`${label}: No assigned card with this ID in this company: the card does not exist, or it is not in status assigned (only an assigned card has a live balance)`,
		);
	});

	it.each([
		[422, 'UNPROCESSABLE'],
		[400, 'BAD_REQUEST'],
	])('says the card must be assigned on %i with the generic code %s', async (status, code) => {
		nock(BASE_URL).get(`/cards/${CARD_ID}/balance`).reply(status, serviceErrorBody(status, code));
		const error = await runNodeError({
			parameters: { resource: 'card', operation: 'getBalance', cardId: CARD_ID },
		});
		expect(error.message).toMatch(new RegExp(`^${code}: The card is not in status assigned\\.`));
	});

	it('keeps the explanation of a specific code such as CARDS_NOT_ENABLED', async () => {
		nock(BASE_URL)
			.get(`/cards/${CARD_ID}/balance`)
			.reply(400, serviceErrorBody(400, 'CARDS_NOT_ENABLED'));
		const error = await runNodeError({
			parameters: { resource: 'card', operation: 'getBalance', cardId: CARD_ID },
		});
		expect(error.message).toBe('CARDS_NOT_ENABLED: Cards are not enabled for this company');
	});
});

describe('card.getSensitiveData', () => {
	const sensitive = {
		cardId: CARD_ID,
		cardNumberFull: '4000123456781234',
		cardCvv: '987',
		expiry: '11/29',
	};

	it('warns in the UI and masks by default', () => {
		const { properties } = new CompanyPayments().description;
		const forOperation = properties.filter(
			(p) => p.displayOptions?.show?.operation?.[0] === 'getSensitiveData',
		);
		const notice = forOperation.find((p) => p.type === 'notice');
		expect(notice?.displayName).toContain('card number and CVV are stored with the execution');
		expect(notice?.displayName).toContain('execution');
		const mask = forOperation.find((p) => p.name === 'maskSensitiveData');
		expect(mask).toMatchObject({
			displayName: 'Mask Card Number and CVV',
			type: 'boolean',
			default: true,
		});
	});

	it('masks the card number and CVV when the option is left on', async () => {
		nock(BASE_URL)
			.get(`/cards/${CARD_ID}/sensitive`)
			.matchHeader('x-api-key', API_KEY)
			.reply(200, sensitive);
		const { output } = await runNode({
			parameters: { resource: 'card', operation: 'getSensitiveData', cardId: CARD_ID },
		});
		expect(output[0].json).toEqual({
			cardId: CARD_ID,
			cardNumberFull: '•••• •••• •••• 1234',
			cardCvv: '•••',
			expiry: '11/29',
			masked: true,
		});
		expect(JSON.stringify(output)).not.toContain('4000123456781234');
		expect(JSON.stringify(output)).not.toContain('987');
	});

	it('keeps null values null when masking', async () => {
		nock(BASE_URL)
			.get(`/cards/${CARD_ID}/sensitive`)
			.reply(200, { cardId: CARD_ID, cardNumberFull: null, cardCvv: null, expiry: null });
		const { output } = await runNode({
			parameters: {
				resource: 'card',
				operation: 'getSensitiveData',
				cardId: CARD_ID,
				maskSensitiveData: true,
			},
		});
		expect(output[0].json).toMatchObject({ cardNumberFull: null, cardCvv: null, masked: true });
	});

	it('outputs the full values when masking is turned off', async () => {
		nock(BASE_URL).get(`/cards/${CARD_ID}/sensitive`).reply(200, sensitive);
		const { output } = await runNode({
			parameters: {
				resource: 'card',
				operation: 'getSensitiveData',
				cardId: CARD_ID,
				maskSensitiveData: false,
			},
		});
		expect(output[0].json).toEqual({ ...sensitive, masked: false });
	});

	it.each([
		['CARD_NOT_FOUND', 'CARD_NOT_FOUND'],
		['NOT_FOUND', 'NOT_FOUND'],
		['', 'HTTP 404'],
	])('says the card must be assigned on 404 with errorCode %j', async (code, label) => {
		nock(BASE_URL).get(`/cards/${CARD_ID}/sensitive`).reply(404, serviceErrorBody(404, code));
		const error = await runNodeError({
			parameters: { resource: 'card', operation: 'getSensitiveData', cardId: CARD_ID },
		});
		expect(error.message).toMatch(
			new RegExp(
				`^${label}: No assigned card with this ID in this company: .* not in status assigned`,
			),
		);
		expect(error.message).toContain('requested, retired and failed cards answer 404');
	});
});

describe('card.getRechargeQuote', () => {
	const quote = {
		cardId: CARD_ID,
		targetAmount: 100,
		processorFeeBps: 150,
		processorGrossAmount: 101.5,
		ourFeeBps: 100,
		ourFee: 1,
		userCharge: 102.5,
		commissionUsdt: 2.5,
		totalDebitUsdt: 102.5,
		currency: 'USDT',
	};

	it('posts card ID and target amount and outputs the quote', async () => {
		const scope = nock(BASE_URL)
			.post('/cards/recharge/quote', { cardId: CARD_ID, targetAmount: 100 })
			.matchHeader('x-api-key', API_KEY)
			.reply(200, quote);
		const { output, context } = await runNode({
			parameters: {
				resource: 'card',
				operation: 'getRechargeQuote',
				cardId: CARD_ID,
				targetAmount: 100,
			},
		});
		expect(output).toEqual([{ json: quote, pairedItem: { item: 0 } }]);
		expect(context.requests[0].headers).not.toHaveProperty('Idempotency-Key');
		scope.done();
	});

	it.each([0, -5, '0', '0.00'])(
		'refuses the target amount %j before any request',
		async (targetAmount) => {
			const error = await runNodeError({
				parameters: {
					resource: 'card',
					operation: 'getRechargeQuote',
					cardId: CARD_ID,
					targetAmount,
				},
			});
			expect(error.constructor.name).toBe('NodeOperationError');
			expect(error.message).toBe(
				`Target Amount (USD) must be a number greater than 0, got ${JSON.stringify(targetAmount)}`,
			);
		},
	);

	it.each(['0x10', '0b11', '1e3', ' 5 ', 'Infinity', '5,5', 'abc', Number.POSITIVE_INFINITY])(
		'refuses the target amount %j, not plain decimal notation, before any request',
		async (targetAmount) => {
			const error = await runNodeError({
				parameters: { resource: 'card', operation: 'recharge', cardId: CARD_ID, targetAmount },
			});
			expect(error.constructor.name).toBe('NodeOperationError');
			expect(error.message).toMatch(
				/^Target Amount \(USD\) must be a plain decimal number such as 1500 or 1500\.50 .*, got /,
			);
			// A number as JavaScript prints it (Infinity, not JSON's null), text in quotes.
			const shown = typeof targetAmount === 'number' ? String(targetAmount) : `"${targetAmount}"`;
			expect(error.message).toContain(`got ${shown}`);
		},
	);

	it('sends a target amount typed as text as the number it says', async () => {
		const scope = nock(BASE_URL)
			.post('/cards/recharge/quote', { cardId: CARD_ID, targetAmount: 100.5 })
			.reply(200, quote);
		await runNode({
			parameters: {
				resource: 'card',
				operation: 'getRechargeQuote',
				cardId: CARD_ID,
				targetAmount: '100.50',
			},
		});
		scope.done();
	});
});

describe('card.recharge', () => {
	const rechargeRecord = {
		id: 'rch_01',
		cardId: CARD_ID,
		targetAmount: 50,
		totalDebitUsdt: 51.25,
		status: 'completed',
	};

	it('posts to /cards/recharge with card ID, target amount and the derived Idempotency-Key', async () => {
		const scope = nock(BASE_URL)
			.post('/cards/recharge', { cardId: CARD_ID, targetAmount: 50 })
			.matchHeader('x-api-key', API_KEY)
			.matchHeader('idempotency-key', DERIVED_KEY)
			.reply(200, rechargeRecord);
		const { output } = await runNode({
			parameters: { resource: 'card', operation: 'recharge', cardId: CARD_ID, targetAmount: 50 },
		});
		expect(output).toEqual([{ json: rechargeRecord, pairedItem: { item: 0 } }]);
		scope.done();
	});

	it('keeps the derived key across a retry of the same item', async () => {
		const keys: string[] = [];
		nock(BASE_URL)
			.post('/cards/recharge')
			.times(2)
			.reply(function () {
				keys.push(String(this.req.headers['idempotency-key']));
				return [200, rechargeRecord];
			});
		const parameters = {
			resource: 'card',
			operation: 'recharge',
			cardId: CARD_ID,
			targetAmount: 50,
		};
		await runNode({ parameters });
		await runNode({ parameters });
		expect(keys).toEqual([DERIVED_KEY, DERIVED_KEY]);
	});

	it('names the missing permission cards.recharge on 403 PERMISSION_DENIED', async () => {
		nock(BASE_URL)
			.post('/cards/recharge')
			.reply(403, {
				statusCode: 403,
				error: 'PERMISSION_DENIED',
				errorCode: 'PERMISSION_DENIED',
				message: 'Недостаточно прав',
				required: 'cards.recharge',
				details: { required: 'cards.recharge' },
			});
		const error = await runNodeError({
			parameters: { resource: 'card', operation: 'recharge', cardId: CARD_ID, targetAmount: 50 },
		});
		expect(error.message).toBe(
			'PERMISSION_DENIED: The API key lacks a permission this operation needs (missing permission cards.recharge)',
		);
		expect(error.description).toContain('Required permission: cards.recharge');
	});

	it('says the card must be assigned on CARD_NOT_ACTIVE', async () => {
		nock(BASE_URL).post('/cards/recharge').reply(422, serviceErrorBody(422, 'CARD_NOT_ACTIVE'));
		const error = await runNodeError({
			parameters: { resource: 'card', operation: 'recharge', cardId: CARD_ID, targetAmount: 50 },
		});
		expect(error.message).toBe(
			'CARD_NOT_ACTIVE: The card is not in status assigned; only an assigned (active) card can be recharged',
		);
	});

	it('refuses a non-positive target amount before any request', async () => {
		const error = await runNodeError({
			parameters: { resource: 'card', operation: 'recharge', cardId: CARD_ID, targetAmount: 0 },
		});
		expect(error.message).toBe('Target Amount (USD) must be a number greater than 0, got 0');
	});
});
