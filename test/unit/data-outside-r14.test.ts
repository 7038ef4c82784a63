// Outside read r14-data: each finding as it was found, at the door it was found at.
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';
import nock from 'nock';

import {
	cutDeep,
	DEPTH_CUT_MARKER,
	gateJson,
	MAX_GATE_DEPTH,
	RAW_BODY_DEPTH_NOTE,
} from '../../nodes/shared/gate';
import * as jsonModule from '../../nodes/shared/transport/json';
import { readJsonLossless } from '../../nodes/shared/transport/json';
import { sameDecimal } from '../../nodes/shared/decimal';
import { BALANCE_NUMBER_INEXACT_NOTE } from '../../nodes/CompanyPayments/card/getBalance.operation';
import { BASE_URL, runNode, runTool } from './helpers/n8n';
import { deliver } from './helpers/trigger';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const PAN = ['4111', '1111', '1111', '1111'].join('');
const PHONE = '+79001234567';
const ORDER_ID = '7d0c3c1e-1111-4111-8111-111111111111';
const AUDIENCES = ['user', 'model'] as const;

/** The webhook trigger given `body` with Include Raw Body on. */
const deliverWithRawBody = (body: string) =>
	deliver({ body, parameters: { options: { includeRawBody: true } } });

/** Order Get of ORDER_ID, the service answering `body` as JSON text. */
async function orderGet(body: string) {
	nock(BASE_URL)
		.get(`/orders/${ORDER_ID}`)
		.reply(200, body, { 'content-type': 'application/json' });
	return runNode({
		parameters: {
			resource: 'order',
			operation: 'get',
			orderId: { __rl: true, mode: 'id', value: ORDER_ID },
			options: {},
		},
	});
}

/** A run of digits: `first`, then `minLength` to `maxLength` digits drawn (fast-check options kept). */
function digitRun(
	first: fc.Arbitrary<string | number>,
	rest: { minLength: number; maxLength: number; size?: fc.SizeForArbitrary },
) {
	return fc
		.tuple(first, fc.array(fc.integer({ min: 0, max: 9 }), rest))
		.map(([head, tail]) => String(head) + tail.join(''));
}

function payout(requisiteType: unknown, requisite: unknown): IDataObject {
	return {
		id: 'po_1',
		status: 'success',
		amountRub: 5000,
		requisiteType: requisiteType as string,
		requisite: requisite as string,
		bank: 'Сбербанк',
		comment: null,
		createdAt: '2026-01-01T00:00:00Z',
	};
}

describe('finding 5: a requisite is masked by what it holds, whatever requisiteType says', () => {
	it.each([null, 'CARD', 'Card', 'bank_card', 'phone', 'card'])(
		'Payout Get, requisiteType %p: the card number with a bank name is masked',
		async (type) => {
			nock(BASE_URL)
				.get('/payouts/po_1')
				.reply(200, payout(type, `${PAN} Сбербанк`));
			const { output } = await runNode({
				parameters: {
					resource: 'payout',
					operation: 'get',
					payoutId: { __rl: true, mode: 'id', value: 'po_1' },
					options: {},
				},
			});
			expect(JSON.stringify(output)).not.toContain(PAN);
			expect(output[0].json.requisite).toBe('•••• 1111');
		},
	);

	it('a phone requisite stays a phone for the user, whatever the type says', () => {
		for (const type of [null, 'phone', 'PHONE', 'sbp']) {
			expect(gateJson(undefined, payout(type, PHONE)).requisite).toBe(PHONE);
		}
	});

	it('the webhook trigger: requisiteType CARD, rawBody withheld', async () => {
		const body = JSON.stringify({
			event: 'payout.status_changed',
			payoutId: 'po_1',
			status: 'success',
			requisiteType: 'CARD',
			requisite: `${PAN} Сбербанк`,
			refunded: false,
			updatedAt: '2026-01-01T00:00:00Z',
		});
		const { item } = await deliverWithRawBody(body);
		expect(JSON.stringify(item)).not.toContain(PAN);
		expect(item!.rawBody).toBeNull();
	});

	it('generated: any type spelling, any text beside a card number, any grouping: never shown', () => {
		// A card number passing the checksum (13–19 digits), or any 16–19 digits (no phone has more than 15).
		const cards = fc.oneof(
			digitRun(fc.constantFrom('4', '5', '2'), { minLength: 11, maxLength: 17 }).map(
				withCheckDigit,
			),
			digitRun(fc.constantFrom('4', '5', '2'), { minLength: 15, maxLength: 18 }),
		);
		const types = fc.oneof(
			fc.constant(null),
			fc.constantFrom('card', 'phone', 'sbp', 'account'),
			fc.string({ maxLength: 12 }),
			fc
				.tuple(
					fc.constantFrom('card', 'bank_card', 'cardNumber'),
					fc.array(fc.boolean(), { maxLength: 12 }),
				)
				.map(([word, upper]) => [...word].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join('')),
		);
		const separators = fc.constantFrom('', ' ', '-');
		fc.assert(
			fc.property(
				cards,
				types,
				separators,
				fc.constantFrom('', ' Сбербанк', 'Tinkoff: ', ' (main)'),
				fc.boolean(),
				fc.constantFrom('string', 'array', 'object'),
				(card, type, gap, words, before, shape) => {
					const grouped = card.match(/.{1,4}/g)!.join(gap);
					const text = before ? `${words}${grouped}` : `${grouped}${words}`;
					const requisite =
						shape === 'string' ? text : shape === 'array' ? [text] : { number: text };
					for (const shown of [
						gateJson(undefined, payout(type, requisite)),
						gateJson(undefined, payout(type, requisite), 'model'),
					]) {
						expect(JSON.stringify(shown)).not.toContain(card.slice(0, 9));
					}
				},
			),
			{ numRuns: 400 },
		);
	});
});

/** `digits` with a card check digit appended. */
function withCheckDigit(digits: string): string {
	let sum = 0;
	for (let index = 0; index < digits.length; index++) {
		let digit = Number(digits[digits.length - 1 - index]);
		if (index % 2 === 0) {
			digit *= 2;
			if (digit > 9) digit -= 9;
		}
		sum += digit;
	}
	return digits + String((10 - (sum % 10)) % 10);
}

describe('finding 4: a deeply nested body is read to the digit, never by the rounding parse', () => {
	const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
	const payoutBody = (payoutId: string, updatedAt: string, depth: number) =>
		`{"event":"payout.status_changed","payoutId":${payoutId},"status":"success","requisiteType":"phone","requisite":"+79001234567","refunded":false,"updatedAt":${updatedAt},"trace":${deep(depth)}}`;

	it.each([3000, 5000, 20000])('depth %i: payoutId past 2^53 exact', async (depth) => {
		const { response, item } = await deliver({
			body: payoutBody('9007199254740993', '"2026-01-01T00:01:00Z"', depth),
			parsed: undefined,
		});
		expect(response.statusCode).toBe(200);
		expect(item!.payoutId).toBe('9007199254740993');
		expect(JSON.stringify(item)).toContain(DEPTH_CUT_MARKER);
	});

	it('two numeric updatedAt past a double, deep: two change keys', async () => {
		const keys: unknown[] = [];
		for (const at of ['1767225600000.000123', '1767225600000.000124']) {
			const { item } = await deliver({ body: payoutBody('"po_1"', at, 5000), parsed: undefined });
			keys.push(item!.changeKey);
		}
		expect(keys[0]).not.toBe(keys[1]);
	});

	it('a body the reader fails on for any reason but its syntax: refused (422), never n8n’s parse', async () => {
		const spy = jest.spyOn(jsonModule, 'readJsonLossless').mockImplementation(() => {
			throw new RangeError('Maximum call stack size exceeded');
		});
		try {
			const { response, outputs } = await deliver({
				body: payoutBody('9007199254740993', '"2026-01-01T00:01:00Z"', 1),
			});
			expect(response.statusCode).toBe(422);
			expect(outputs).toBeUndefined();
		} finally {
			spy.mockRestore();
		}
	});

	it('the reader: deeper parts stand as the gate’s cut marker, and it says it cut', () => {
		const { value, cut } = readJsonLossless(`{"a":1,"b":${deep(5000)},"id":12345678901234567890}`);
		expect(cut).toBe(true);
		expect((value as IDataObject).id).toBe('12345678901234567890');
		expect(JSON.stringify(value)).toContain(DEPTH_CUT_MARKER);
		expect(readJsonLossless('{"a":[[1]]}')).toEqual({ value: { a: [[1]] }, cut: false });
	});

	it('invalid JSON below the depth read is still a syntax error', () => {
		for (const text of [
			`{"a":${'['.repeat(200)}1,${']'.repeat(200)}}`,
			`{"a":${'['.repeat(200)}"x${']'.repeat(200)}}`,
			`{"a":${'['.repeat(200)}}${']'.repeat(199)}}`,
			`{"a":${'['.repeat(200)}`,
		]) {
			expect(() => JSON.parse(text)).toThrow(SyntaxError);
			expect(() => readJsonLossless(text)).toThrow(SyntaxError);
		}
	});

	it('generated: any depth, any nesting of objects and lists, both readers paths: never throws, equals the gate’s cut of JSON.parse', () => {
		const nesting = fc.array(fc.constantFrom('[', '{"k":', '{"n":1,"x":'), {
			minLength: 0,
			maxLength: 400,
		});
		fc.assert(
			fc.property(
				nesting,
				fc.constantFrom('1', '"s"', '12345678901234567', '[]', '{}', '0.5'),
				fc.integer({ min: 0, max: 8000 }),
				(opens, leaf, extra) => {
					const chain = [...opens, ...Array<string>(extra % 3 === 0 ? extra : 0).fill('[')];
					const closers = chain.map((open) => (open === '[' ? ']' : '}')).reverse();
					const text = `{"head":${chain.join('')}${leaf}${closers.join('')},"orderId":5}`;
					const { value, cut } = readJsonLossless(text);
					const expected = cutDeep(JSON.parse(text) as IDataObject);
					expect(cut).toBe(chain.length + 1 > MAX_GATE_DEPTH || leafTooDeep(chain.length, leaf));
					expect((value as IDataObject).orderId).toBe('5');
					// Past a double, the reader keeps the text; anything else is JSON.parse's, cut.
					const plain = JSON.stringify(value).replace('"12345678901234567"', '12345678901234568');
					expect(plain).toBe(JSON.stringify({ ...(expected as object), orderId: '5' }));
				},
			),
			{ numRuns: 200 },
		);
	});
});

/** Whether a leaf list or object at this many levels below `head` is itself cut. */
function leafTooDeep(levels: number, leaf: string): boolean {
	return (leaf === '[]' || leaf === '{}') && levels + 1 >= MAX_GATE_DEPTH;
}

describe('finding 10: a raw body withheld for the depth cut says so', () => {
	it('a secret-free body 150 levels deep: rawBody null, the note names the depth', async () => {
		const body = `{"event":"order.status_changed","orderId":"${ORDER_ID}","status":"success","amountUsdt":10.5,"amountRub":1000,"createdAt":"2026-01-01T00:00:00Z","meta":${'['.repeat(150)}"x"${']'.repeat(150)}}`;
		const { item } = await deliverWithRawBody(body);
		expect(item!.rawBody).toBeNull();
		expect(item!.rawBodyMasked).toBe(true);
		expect(item!.rawBodyNote).toBe(RAW_BODY_DEPTH_NOTE);
		expect(String(item!.rawBodyNote)).not.toMatch(/carries secrets/);
	});

	it('a shallow body with a card number still says it carries secrets', async () => {
		const body = JSON.stringify({
			event: 'order.status_changed',
			orderId: ORDER_ID,
			status: 'success',
			comment: `card ${PAN}`,
		});
		const { item } = await deliverWithRawBody(body);
		expect(item!.rawBody).toBeNull();
		expect(String(item!.rawBodyNote)).toMatch(/carries secrets/);
	});
});

describe('finding 11: an action answer nested thousands of levels deep is read', () => {
	it('Order Get, 5,000 levels: the amount past 2^53 exact, the deeper part cut', async () => {
		const { output } = await orderGet(
			`{"id":"${ORDER_ID}","amountUsdt":9007199254740993,"status":"success","trace":${'['.repeat(5000)}${']'.repeat(5000)}}`,
		);
		const text = JSON.stringify(output);
		expect(text).not.toContain('9007199254740992');
		expect(text).toContain('9007199254740993');
		expect(text).toContain(DEPTH_CUT_MARKER);
	});
});

describe('finding 3: a wallet’s token contract is the crypto token, never a secret', () => {
	const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
	const ADDRESS = 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8';
	const URI = `tron:${ADDRESS}?token=${USDT}`;
	const wallet = {
		address: ADDRESS,
		network: 'TRON',
		standard: 'TRC-20',
		token: USDT,
		tokenContract: USDT,
		paymentUri: URI,
		createdAt: '2026-01-01T00:00:00Z',
	};

	it.each([false, true])(
		'Get Deposit Address (tool %p): token, tokenContract, paymentUri kept',
		async (tool) => {
			nock(BASE_URL).get('/wallets').reply(200, wallet);
			const parameters = {
				resource: 'companyWallet',
				operation: 'getAddress',
				simplify: false,
				compactOutput: false,
				options: {},
			};
			const json = tool
				? (await runTool({ parameters })).output[0]
				: (await runNode({ parameters })).output[0].json;
			expect(json).toMatchObject({ token: USDT, tokenContract: USDT, paymentUri: URI });
			expect(gateJson(undefined, wallet, 'model')).toMatchObject({
				token: USDT,
				tokenContract: USDT,
			});
		},
	);

	it('a deposit named hash/address/from: its token kept', () => {
		const deposit = {
			id: 'dep_1',
			hash: 'a3f5'.padEnd(64, '0'),
			address: ADDRESS,
			from: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf',
			token: USDT,
			amount: '150.25',
		};
		expect(gateJson(undefined, { deposits: [deposit], total: 1 })).toEqual({
			deposits: [deposit],
			total: 1,
		});
	});

	it('learned across executions: a later Get Deposits keeps contractAddress', async () => {
		const deposits = {
			deposits: [
				{
					depositId: 'dep_1',
					txHash: 'ab'.repeat(32),
					walletAddress: ADDRESS,
					amount: '10.5',
					status: 'completed',
					contractAddress: USDT,
				},
			],
			total: 1,
		};
		nock(BASE_URL).get('/wallets').reply(200, { address: ADDRESS, network: 'TRON', token: USDT });
		nock(BASE_URL).get('/wallets/deposits').query(true).reply(200, deposits);
		await runNode({
			parameters: { resource: 'companyWallet', operation: 'getAddress', options: {} },
		});
		const { output } = await runNode({
			parameters: {
				resource: 'companyWallet',
				operation: 'getDeposits',
				returnAll: true,
				limit: 50,
				filters: {},
				options: {},
			},
		});
		expect(JSON.stringify(output)).toContain(USDT);
	});

	it('generated: a session or invite token with no chain beside it stays hidden; a wallet’s token in any named field is kept', () => {
		const tokenLike = fc.stringMatching(/^[A-Za-z0-9]{24,40}$/).filter((t) => /\d/.test(t));
		fc.assert(
			fc.property(
				tokenLike,
				fc.constantFrom('token', 'tokenContract', 'contractAddress'),
				fc.constantFrom('network', 'hash', 'standard', 'chainAddress'),
				(session, name, beside) => {
					// A login answer: a session token, an expiry, a company; no address.
					const login = {
						token: session,
						expiresAt: '2026-01-02T00:00:00Z',
						company: { id: 'c1' },
					};
					expect(JSON.stringify(gateJson(undefined, login))).not.toContain(session);
					// A postal address beside a token is no chain.
					const postal = { token: session, address: 'Moscow, Tverskaya 1' };
					expect(JSON.stringify(gateJson(undefined, postal))).not.toContain(session);
					const record: IDataObject =
						beside === 'chainAddress'
							? { address: ADDRESS, [name]: USDT }
							: { address: 'deposit-address-1', [beside]: 'x', [name]: USDT };
					for (const audience of AUDIENCES) {
						expect(gateJson(undefined, record, audience)[name]).toBe(USDT);
					}
				},
			),
			{ numRuns: 200 },
		);
	});
});

describe('finding 8: …Uid, uid, guid are identifiers (seq a count), kept exact', () => {
	const UID = '1795930886339551237';

	it('Order Get: orderUid as a JSON number and sbpOperationUid as text, exact; a short one as text', async () => {
		const { output } = await orderGet(
			`{"id":"${ORDER_ID}","orderUid":${UID},"sbpOperationUid":"${UID}","guid":${UID},"uid":1234,"seq":${UID},"amountUsdt":10.5,"amountRub":1000,"status":"success","createdAt":"2026-01-01T00:00:00Z"}`,
		);
		expect(output[0].json).toMatchObject({
			orderUid: UID,
			sbpOperationUid: UID,
			guid: UID,
			uid: '1234',
			seq: UID,
		});
	});

	it('the webhook trigger: orderUid exact, rawBody exact', async () => {
		const body = `{"event":"order.status_changed","orderId":"${ORDER_ID}","status":"success","amountUsdt":10.5,"orderUid":${UID}}`;
		const { item } = await deliverWithRawBody(body);
		expect(item!.orderUid).toBe(UID);
		expect(item!.rawBody).toBe(body);
		expect(item!.rawBodyMasked).toBe(false);
	});

	it('generated: any Luhn-valid 15–19 digit value under any uid/guid spelling, text or number: exact', () => {
		const names = fc.oneof(
			fc.constantFrom('uid', 'guid', 'UID', 'GUID', 'Uid'),
			fc
				.tuple(
					fc.constantFrom('order', 'sbp_operation', 'sbpOperation', 'payment', 'transfer'),
					fc.constantFrom('Uid', 'UID', '_uid', 'Guid', '_guid', 'GUID'),
				)
				.map(([before, word]) => before + word),
		);
		const ids = digitRun(fc.integer({ min: 1, max: 9 }), { minLength: 13, maxLength: 17 }).map(
			withCheckDigit,
		);
		fc.assert(
			fc.property(names, ids, fc.boolean(), (name, id, asNumber) => {
				const read = readJsonLossless(
					`{${JSON.stringify(name)}:${asNumber ? id : JSON.stringify(id)}}`,
				).value as IDataObject;
				for (const audience of AUDIENCES) {
					expect(gateJson(undefined, read, audience)[name]).toBe(id);
				}
			}),
			{ numRuns: 300 },
		);
	});
});

describe('finding 12: Card Get Balance never gives a rounded balanceNumber', () => {
	async function balanceOf(raw: string): Promise<IDataObject> {
		nock(BASE_URL)
			.get('/cards/crd_1/balance')
			.reply(200, `{"balance":${raw},"currency":"USD","fetchedAt":"2026-01-01T00:00:00Z"}`, {
				'content-type': 'application/json',
			});
		const { output } = await runNode({
			parameters: {
				resource: 'card',
				operation: 'getBalance',
				cardId: { __rl: true, mode: 'id', value: 'crd_1' },
				options: {},
			},
		});
		return output[0].json;
	}

	it('"9007199254740993.01": balance exact, balanceNumber null with a note', async () => {
		const json = await balanceOf('"9007199254740993.01"');
		expect(json.balance).toBe('9007199254740993.01');
		expect(json.balanceNumber).toBeNull();
		expect(json.balanceNumberNote).toBe(BALANCE_NUMBER_INEXACT_NOTE);
	});

	it('"100.50" and 123.45: the number, no note', async () => {
		expect(await balanceOf('"100.50"')).toMatchObject({ balance: '100.50', balanceNumber: 100.5 });
		const json = await balanceOf('123.45');
		expect(json.balanceNumber).toBe(123.45);
		expect(json).not.toHaveProperty('balanceNumberNote');
	});

	it('generated: any decimal text, balanceNumber is either null or a number equal to it to the digit', async () => {
		await fc.assert(
			fc.asyncProperty(
				digitRun(fc.integer({ min: 1, max: 9 }), { minLength: 0, maxLength: 21, size: 'max' }),
				fc.integer({ min: 0, max: 6 }),
				async (units, scale) => {
					const digits = units.padStart(scale + 1, '0');
					const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
					const json = await balanceOf(JSON.stringify(text));
					expect(json.balance).toBe(text);
					if (json.balanceNumber === null) {
						expect(json.balanceNumberNote).toBe(BALANCE_NUMBER_INEXACT_NOTE);
					} else {
						expect(sameDecimal(String(json.balanceNumber), text)).toBe(true);
					}
				},
			),
			{ numRuns: 100 },
		);
	});
});
