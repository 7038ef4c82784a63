import nock from 'nock';

import { CompanyPayments } from '../../nodes/CompanyPayments/CompanyPayments.node';
import { payout as payoutResource } from '../../nodes/CompanyPayments/payout';
import { fundsReturned } from '../../nodes/CompanyPayments/payout/fundsReturned';
import { madeNow } from './helpers/money';
import { API_KEY, BASE_URL, derivedKey, runNode, runNodeError } from './helpers/n8n';

const PAYOUT_ID = 'po_7c1d2e3f';
const DERIVED_KEY = derivedKey(0, 0);
const CARD_NUMBER = '2200123456789012';
/** How the output shows the payout's card requisite: its type says card, so it is masked. */
const SHOWN_CARD = '•••• 9012';

const payout = {
	id: PAYOUT_ID,
	externalId: 'salary-42',
	status: 'waiting_trader',
	amountRub: 5000,
	chargedUsdt: 52.63,
	rate: 95,
	requisiteType: 'card',
	requisite: CARD_NUMBER,
	bankId: null,
	bank: null,
	recipientFirstName: 'Ivan',
	recipientLastName: 'Petrov',
	failReason: null,
	comment: null,
	refundedAt: null,
	dispute: null,
	takenAt: null,
	completedAt: null,
	// Made near the send: a record made well before it proves no Create (money/binding.ts).
	createdAt: madeNow(),
};
const cancelled = {
	...payout,
	status: 'fail',
	failReason: 'cancelled_by_merchant',
	// Refunded five minutes after it was made (a refund before its creation proves no return).
	refundedAt: new Date(Date.parse(payout.createdAt) + 5 * 60_000).toISOString(),
};

beforeAll(() => nock.disableNetConnect());
afterAll(() => nock.enableNetConnect());
afterEach(() => {
	expect(nock.pendingMocks()).toEqual([]);
	nock.cleanAll();
});

describe('payout resource definition', () => {
	it('runs get and getMany concurrently; create and cancel one item at a time', () => {
		const readOnly = Object.fromEntries(
			payoutResource.operations.map((op) => [op.value, op.concurrent === true]),
		);
		expect(readOnly).toEqual({ create: false, get: true, getMany: true, cancel: false });
	});

	it('is listed as a resource with Get preselected', () => {
		const { properties } = new CompanyPayments().description;
		const resource = properties.find((p) => p.name === 'resource');
		expect(resource?.options).toContainEqual(
			expect.objectContaining({ name: 'Payout', value: 'payout' }),
		);
		const selector = properties.find(
			(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.[0] === 'payout',
		);
		expect(selector?.default).toBe('get');
	});

	it('asks Create for the recipient in plain English, with a placeholder that follows Pay To', () => {
		const fields = payoutResource.operations.find((op) => op.value === 'create')?.properties ?? [];
		const shown = (type: string) =>
			fields.filter(
				(field) =>
					field.name === 'requisite' &&
					(field.displayOptions?.show?.requisiteType as string[] | undefined)?.includes(type),
			);
		const [card] = shown('card');
		const [phone] = shown('phone');
		expect(shown('card')).toHaveLength(1);
		expect(shown('phone')).toHaveLength(1);
		expect(card).toMatchObject({ displayName: 'Recipient Card Number', required: true });
		expect(card.placeholder).toMatch(/^e\.g\. \d{4} \d{4} \d{4} \d{4}$/);
		expect(phone).toMatchObject({ displayName: 'Recipient Phone Number', required: true });
		expect(phone.placeholder).toMatch(/^e\.g\. \+7 /);
		expect(JSON.stringify(fields)).not.toMatch(/"displayName":"Requisite/);
	});

	it('gives Amount (RUB) no default that the node would then refuse', () => {
		const fields = payoutResource.operations.find((op) => op.value === 'create')?.properties ?? [];
		const amount = fields.find((field) => field.name === 'amountRub');
		expect(amount).toMatchObject({ default: '', required: true, placeholder: 'e.g. 1500.00' });
	});
});

describe('fundsReturned', () => {
	it('follows refundedAt on a payout record, never status', () => {
		expect(fundsReturned({ status: 'fail', refundedAt: null })).toBe(false);
		expect(fundsReturned({ status: 'fail', refundedAt: '2026-11-21T12:05:00.000Z' })).toBe(true);
		// Refunded, then back in success and charged again (payout.recharged): not returned, even
		// when the service keeps refundedAt.
		expect(fundsReturned({ status: 'success', refundedAt: '2026-11-21T12:05:00.000Z' })).toBe(
			false,
		);
		expect(fundsReturned({ status: 'fail' })).toBe(false);
	});

	it('follows refunded on a webhook payload', () => {
		expect(fundsReturned({ status: 'fail', refunded: true })).toBe(true);
		expect(fundsReturned({ status: 'fail', refunded: false })).toBe(false);
		expect(fundsReturned({ status: 'fail', refunded: 'yes' })).toBe(false);
	});
});

describe('payout.get', () => {
	it('gets one payout with the API key and adds fundsReturned false while refundedAt is null', async () => {
		nock(BASE_URL)
			.get(`/payouts/${PAYOUT_ID}`)
			.matchHeader('x-api-key', API_KEY)
			.reply(200, payout);
		const { output } = await runNode({
			parameters: { resource: 'payout', operation: 'get', payoutId: PAYOUT_ID },
		});
		expect(output).toEqual([
			{ json: { ...payout, requisite: SHOWN_CARD, fundsReturned: false }, pairedItem: { item: 0 } },
		]);
	});

	it('does not call a failed payout refunded until refundedAt is set', async () => {
		nock(BASE_URL)
			.get(`/payouts/${PAYOUT_ID}`)
			.reply(200, { ...payout, status: 'fail', failReason: 'no_traders', refundedAt: null });
		const { output } = await runNode({
			parameters: { resource: 'payout', operation: 'get', payoutId: PAYOUT_ID },
		});
		expect(output[0].json.fundsReturned).toBe(false);
	});

	it('explains 404 PAYOUT_NOT_FOUND', async () => {
		nock(BASE_URL).get('/payouts/nope').reply(404, {
			statusCode: 404,
			error: 'Not Found',
			errorCode: 'PAYOUT_NOT_FOUND',
			message: 'Не найдено',
		});
		const error = await runNodeError({
			parameters: { resource: 'payout', operation: 'get', payoutId: 'nope' },
		});
		expect(error.message).toBe('PAYOUT_NOT_FOUND: The payout does not exist in this company');
	});
});

describe('payout.cancel', () => {
	it('posts no body with the derived Idempotency-Key and outputs the payout with fundsReturned', async () => {
		const scope = nock(BASE_URL)
			.post(`/payouts/${PAYOUT_ID}/cancel`, (body) => body === '' || Object.keys(body).length === 0)
			.matchHeader('x-api-key', API_KEY)
			.matchHeader('idempotency-key', DERIVED_KEY)
			.reply(200, cancelled);
		const { output, context } = await runNode({
			parameters: { resource: 'payout', operation: 'cancel', payoutId: PAYOUT_ID },
		});
		expect(output).toEqual([
			{
				json: { ...cancelled, requisite: SHOWN_CARD, fundsReturned: true },
				pairedItem: { item: 0 },
			},
		]);
		expect(context.requests[0].body).toBeUndefined();
		scope.done();
	});

	it('keeps the derived key across a retry of the same item', async () => {
		const keys: string[] = [];
		nock(BASE_URL)
			.post(`/payouts/${PAYOUT_ID}/cancel`)
			.times(2)
			.reply(function () {
				keys.push(String(this.req.headers['idempotency-key']));
				return [200, cancelled];
			});
		const parameters = { resource: 'payout', operation: 'cancel', payoutId: PAYOUT_ID };
		await runNode({ parameters });
		await runNode({ parameters });
		expect(keys).toEqual([DERIVED_KEY, DERIVED_KEY]);
	});

	it('says the payout is no longer waiting_trader on PAYOUT_NOT_CANCELABLE, without claiming an executor took it', async () => {
		nock(BASE_URL).post(`/payouts/${PAYOUT_ID}/cancel`).reply(409, {
			statusCode: 409,
			error: 'Conflict',
			errorCode: 'PAYOUT_NOT_CANCELABLE',
			message: 'Выплату нельзя отменить',
		});
		const error = await runNodeError({
			parameters: { resource: 'payout', operation: 'cancel', payoutId: PAYOUT_ID },
		});
		expect(error.message).toMatch(
			new RegExp(
				`^PAYOUT_NOT_CANCELABLE: Payout "${PAYOUT_ID}" is no longer waiting_trader, so it cannot be cancelled now: an executor may have taken it, or it already ended`,
			),
		);
		expect(error.description).toContain('Service message: Выплату нельзя отменить');
	});
});

describe('payout.create', () => {
	const base = {
		resource: 'payout',
		operation: 'create',
		amountRub: 5000,
		requisiteType: 'card',
		requisite: '2200 1234-5678 9012',
	};

	it('posts the payout fields with the cleaned requisite and the derived Idempotency-Key', async () => {
		const scope = nock(BASE_URL)
			.post('/payouts', {
				amountRub: 5000,
				requisiteType: 'card',
				requisite: CARD_NUMBER,
				bankId: 'sber',
				recipientFirstName: 'Ivan',
				recipientLastName: 'Petrov',
				externalId: 'salary-42',
			})
			.matchHeader('x-api-key', API_KEY)
			.matchHeader('idempotency-key', DERIVED_KEY)
			.reply(201, { ...payout, bankId: 'sber' });
		const { output } = await runNode({
			parameters: {
				...base,
				additionalFields: {
					bankId: 'sber',
					recipientFirstName: ' Ivan ',
					recipientLastName: 'Petrov',
					externalId: 'salary-42',
				},
			},
		});
		// The card number it sent is a secret the gate knows by value: the output shows its last four digits.
		expect(output).toEqual([
			{
				json: { ...payout, requisite: '•••• 9012', bankId: 'sber', fundsReturned: false },
				pairedItem: { item: 0 },
			},
		]);
		scope.done();
	});

	it('sends only the fields that are set, and a phone number with its leading +', async () => {
		nock(BASE_URL)
			.post('/payouts', { amountRub: 1500.5, requisiteType: 'phone', requisite: '+79991234567' })
			.reply(201, {
				...payout,
				amountRub: 1500.5,
				requisiteType: 'phone',
				requisite: '+79991234567',
			});
		await runNode({
			parameters: {
				...base,
				amountRub: 1500.5,
				requisiteType: 'phone',
				requisite: '+7 999 123-45-67',
				additionalFields: { bankId: '' },
			},
		});
	});

	it('uses the Idempotency Key the user set, and the derived one stays stable across a retry', async () => {
		const keys: string[] = [];
		nock(BASE_URL)
			.post('/payouts')
			.times(3)
			.reply(function () {
				keys.push(String(this.req.headers['idempotency-key']));
				return [201, payout];
			});
		await runNode({ parameters: { ...base, idempotencyKey: 'example-salary-42' } });
		await runNode({ parameters: base });
		await runNode({ parameters: base });
		expect(keys).toEqual(['example-salary-42', DERIVED_KEY, DERIVED_KEY]);
	});

	it.each([
		[
			'card',
			'2200 1234 5678 901',
			'Recipient Card Number must be a card number of 16 to 19 digits, got "•••• 8901" (15 characters, 15 digits)',
		],
		[
			'card',
			'2200 1234 5678 9012 3456',
			'Recipient Card Number must be a card number of 16 to 19 digits, got "•••• 3456" (20 characters, 20 digits)',
		],
		[
			'card',
			'2200-1234-5678-90AB',
			'Recipient Card Number must be a card number of 16 to 19 digits, got "•••• 7890" (16 characters, 14 digits)',
		],
		[
			'phone',
			'999 12 34',
			'Recipient Phone Number must be a phone number of 10 to 15 digits with an optional leading +, got "•••• 1234" (7 characters, 7 digits)',
		],
		[
			'phone',
			'7(999)1234567',
			'Recipient Phone Number must be a phone number of 10 to 15 digits with an optional leading +, got "•••• 4567" (13 characters, 11 digits)',
		],
		[
			'phone',
			'',
			'Recipient Phone Number must be a phone number of 10 to 15 digits with an optional leading +, got an empty value',
		],
	])(
		'refuses the %s requisite %j before any request, showing only its last digits',
		async (requisiteType, requisite, message) => {
			const error = await runNodeError({ parameters: { ...base, requisiteType, requisite } });
			expect(error.constructor.name).toBe('NodeOperationError');
			expect(error.message).toBe(message);
			const digits = requisite.replace(/\D/g, '');
			if (digits.length > 4)
				expect(`${error.message} ${String(error.description)}`).not.toContain(digits);
		},
	);

	const PLAIN_DECIMAL_RULE =
		'must be a plain decimal number such as 1500 or 1500.50 (digits and an optional decimal point only: no spaces, signs, exponents, hex or binary notation, at most 15 digits before the point)';

	it.each([
		['0x10', '"0x10"'],
		['0b11', '"0b11"'],
		['0o17', '"0o17"'],
		['1e3', '"1e3"'],
		[' 5 ', '" 5 "'],
		['Infinity', '"Infinity"'],
		['+5', '"+5"'],
		['-5', '"-5"'],
		['1,500', '"1,500"'],
		['1500,50', '"1500,50"'],
		['.5', '".5"'],
		['5.', '"5."'],
		['007', '"007"'],
		['1_000', '"1_000"'],
		['1234567890123456', '"1234567890123456"'],
		[Infinity, 'Infinity'],
		[Number.NaN, 'NaN'],
		[true, 'true'],
	])(
		'refuses the amount %j (not plain decimal notation) before any request',
		async (amountRub, shown) => {
			const error = await runNodeError({ parameters: { ...base, amountRub } });
			expect(error.constructor.name).toBe('NodeOperationError');
			expect(error.message).toBe(`Amount (RUB) ${PLAIN_DECIMAL_RULE}, got ${shown}`);
			expect(error.description).toMatch(/^Nothing was sent to the service/);
		},
	);

	it('refuses the number 1e21: n8n may have rounded it, so it must come as text (r16-money F3)', async () => {
		const error = await runNodeError({ parameters: { ...base, amountRub: 1e21 } });
		expect(error.message).toMatch(
			/^Amount \(RUB\) must be given as text when it is a number of 10000000000000 or more: .*, got 1e\+21$/,
		);
	});

	it.each([
		['12.345', '"12.345"'],
		[0.1 + 0.2, '0.30000000000000004'],
	])('refuses the amount %j with more than 2 decimal places', async (amountRub, shown) => {
		const error = await runNodeError({ parameters: { ...base, amountRub } });
		expect(error.message).toBe(`Amount (RUB) must have at most 2 decimal places, got ${shown}`);
	});

	it('refuses an empty amount (the field has no default to fall back on)', async () => {
		const error = await runNodeError({ parameters: { ...base, amountRub: '' } });
		expect(error.message).toBe('Amount (RUB) must not be empty, got ""');
	});

	it.each([
		['1500', 1500],
		['1500.5', 1500.5],
		['1500.50', 1500.5],
		['0.01', 0.01],
		[250, 250],
	])('sends the plain decimal amount %j as the number %j', async (amountRub, sent) => {
		const scope = nock(BASE_URL)
			.post('/payouts', { amountRub: sent, requisiteType: 'card', requisite: CARD_NUMBER })
			.reply(201, { ...payout, amountRub: sent });
		await runNode({ parameters: { ...base, amountRub } });
		scope.done();
	});

	it.each([0, -100])('refuses the amount %j before any request', async (amountRub) => {
		const error = await runNodeError({ parameters: { ...base, amountRub } });
		expect(error.message).toBe(`Amount (RUB) must be a number greater than 0, got ${amountRub}`);
	});

	it('masks the requisite in a service error that echoes it', async () => {
		nock(BASE_URL)
			.post('/payouts')
			.reply(422, {
				statusCode: 422,
				error: 'Unprocessable Entity',
				errorCode: 'PAYOUT_REQUISITE_INVALID',
				message: `Реквизит ${CARD_NUMBER} не прошёл проверку (2200 1234 5678 9012)`,
				details: { requisite: CARD_NUMBER, attempts: 1 },
				requestId: 'req-77',
			});
		const error = await runNodeError({ parameters: base });
		expect(error.message).toBe(
			"PAYOUT_REQUISITE_INVALID: The service rejected the recipient's card number •••• 9012 as invalid",
		);
		const shown = `${error.message}\n${String(error.description)}\n${JSON.stringify(error.context)}`;
		expect(shown).not.toContain(CARD_NUMBER);
		expect(shown).not.toContain('2200 1234 5678 9012');
		expect(error.description).toContain(
			'Service message: Реквизит •••• 9012 не прошёл проверку (•••• 9012)',
		);
		expect(error.description).toContain('Details: {"requisite":"•••• 9012","attempts":1}');
		expect(error.description).toContain('Request ID: req-77');
		expect(error.httpCode).toBe('422');
	});

	it('keeps a service error without numbers as it is', async () => {
		nock(BASE_URL).post('/payouts').reply(400, {
			statusCode: 400,
			error: 'Bad Request',
			errorCode: 'PAYOUT_OUTSIDE_WORKING_HOURS',
			message: 'Выплаты не принимаются',
		});
		const error = await runNodeError({ parameters: base });
		expect(error.message).toBe(
			'PAYOUT_OUTSIDE_WORKING_HOURS: Payouts are not accepted at this hour',
		);
	});
});

describe('payout.getMany', () => {
	it('lists payouts with status and external ID filters from the payouts envelope', async () => {
		nock(BASE_URL)
			.get('/payouts')
			.query({ status: 'fail', externalId: 'salary-42', limit: '10', offset: '0' })
			.matchHeader('x-api-key', API_KEY)
			.reply(200, {
				payouts: [
					{ ...payout, status: 'fail' },
					{ ...cancelled, id: 'po_8d2e3f40', externalId: 'salary-42' },
				],
				total: 2,
			});
		const { output } = await runNode({
			parameters: {
				resource: 'payout',
				operation: 'getMany',
				returnAll: false,
				limit: 10,
				filters: { status: 'fail', externalId: 'salary-42' },
			},
		});
		expect(output.map((item) => [item.json.id, item.json.fundsReturned])).toEqual([
			[PAYOUT_ID, false],
			['po_8d2e3f40', true],
		]);
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 0 }]);
	});

	it('pages with Return All and no filters', async () => {
		nock(BASE_URL).get('/payouts').query({ limit: '1000', offset: '0' }).reply(200, [payout]);
		// A short page without total may be the service's page cap: one more page ends the list.
		nock(BASE_URL).get('/payouts').query({ limit: '1', offset: '1' }).reply(200, []);
		const { output } = await runNode({
			parameters: { resource: 'payout', operation: 'getMany', returnAll: true },
		});
		expect(output).toEqual([
			{ json: { ...payout, requisite: SHOWN_CARD, fundsReturned: false }, pairedItem: { item: 0 } },
		]);
	});
});
