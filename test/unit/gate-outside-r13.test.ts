// Outside read r13-data: each finding as it was found, at the door it was found at.
import fc from 'fast-check';
import type { IDataObject, INode } from 'n8n-workflow';
import nock from 'nock';

import { CompanyPayments } from '../../nodes/CompanyPayments/CompanyPayments.node';
import { documentedFields, fieldSpecIn } from '../../nodes/shared/contract/records';
import {
	gateError,
	gateItems,
	gateJson,
	gateText,
	learnFromAnswer,
	maskForModel,
	openRun,
	rememberCredential,
} from '../../nodes/shared/gate';
import { namedIn } from '../../nodes/shared/gate/learned';
import { API_KEY, BASE_URL, createContext, runNode, runNodeError } from './helpers/n8n';
import type { ContextOptions } from './helpers/n8n';
import { deliver } from './helpers/trigger';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const PAN = ['4111', '1111', '1111', '1111'].join('');
const MIR = ['2200', '1234', '5678', '9092'].join('');
/** Not a card number by its checksum: a requisite all the same, for the model. */
const REQUISITE = ['2200', '1234', '5678', '9012'].join('');
const PAN_B = ['5500', '0000', '0008', '1111'].join('');
const PHONE = '+79991234567';

async function runTool(options: ContextOptions): Promise<unknown> {
	const context = createContext(options);
	const node = context.getNode() as INode;
	node.type = 'n8n-nodes-company-payments.companyPaymentsTool';
	node.parameters = { ...(options.parameters as IDataObject) } as INode['parameters'];
	try {
		const result = await new CompanyPayments().execute.call(context);
		return result[0].map((item) => item.json);
	} catch (error) {
		return { thrown: error, json: (error as { toJSON?: () => unknown }).toJSON?.() };
	}
}

const cardGet = {
	resource: 'card',
	operation: 'get',
	cardId: { __rl: true, mode: 'id', value: 'c1' },
};
const CARD = {
	id: 'c1',
	externalId: null,
	status: 'assigned',
	maskedPan: '411111******1111',
	createdAt: '2026-01-01T00:00:00Z',
};

describe('finding 1: a secret used as an object key is masked like a value', () => {
	it('a card number key, at any depth, for the user and the model', () => {
		const value = { id: 'c1', limits: { [PAN]: { daily: 100 } }, deep: [{ a: { [MIR]: 1 } }] };
		for (const audience of ['user', 'model'] as const) {
			const shown = gateJson(undefined, value, audience) as IDataObject;
			expect(JSON.stringify(shown)).not.toContain(PAN);
			expect(JSON.stringify(shown)).not.toContain(MIR);
			expect(Object.keys(shown.limits as IDataObject)).toEqual(['•••• 1111']);
			expect((shown.limits as IDataObject)['•••• 1111']).toEqual({ daily: 100 });
		}
	});

	it('a phone key: kept for the user (as a phone value is), gone for the model', () => {
		const value = { details: { cooldownUntil: { [MIR]: 't1', [PHONE]: 't2' } } };
		const user = JSON.stringify(gateJson(undefined, value, 'user'));
		expect(user).not.toContain(MIR);
		expect(user).toContain(PHONE);
		const model = JSON.stringify(gateJson(undefined, value, 'model'));
		expect(model).not.toContain(MIR);
		expect(model).not.toContain(PHONE);
	});

	it('two keys that mask to the same text both stay, and a literal key is never overwritten', () => {
		const value = { m: { [PAN]: 'a', [PAN_B]: 'b', '•••• 1111 (2)': 'c', '•••• 1111': 'd' } };
		const shown = gateJson(undefined, value) as { m: IDataObject };
		expect(Object.values(shown.m).sort()).toEqual(['a', 'b', 'c', 'd']);
		expect(shown.m['•••• 1111']).toBe('d');
		expect(shown.m['•••• 1111 (2)']).toBe('c');
		expect(JSON.stringify(shown)).not.toMatch(/4111111111111111|5500000000081111/);
	});

	it('the credential API key as a key: hidden (known value)', () => {
		rememberCredential({ apiKey: API_KEY, baseUrl: BASE_URL });
		const shown = JSON.stringify(maskForModel({ details: { [API_KEY]: 'revoked' } }, [API_KEY]));
		expect(shown).not.toContain(API_KEY);
		expect(JSON.stringify(gateJson(undefined, { [API_KEY]: 1 }))).not.toContain(API_KEY);
	});

	it('Card → Get output and the AI tool output', async () => {
		nock(BASE_URL)
			.get('/cards/c1')
			.reply(200, { ...CARD, limits: { [PAN]: { daily: 100 } } });
		const { output } = await runNode({ parameters: cardGet });
		expect(JSON.stringify(output)).not.toContain(PAN);
		nock(BASE_URL)
			.get('/cards/c1')
			.reply(200, { ...CARD, limits: { [PAN]: { daily: 100 } } });
		expect(JSON.stringify(await runTool({ parameters: cardGet }))).not.toContain(PAN);
	});

	it('Get Card Number and CVV with masking on', async () => {
		nock(BASE_URL)
			.get(/\/cards\/c1\/.*/)
			.reply(200, {
				cardId: 'c1',
				cardNumberFull: PAN,
				cardCvv: '123',
				expiry: '12/29',
				byPan: { [PAN]: '123' },
			});
		const { output } = await runNode({
			parameters: { ...cardGet, operation: 'getSensitiveData' },
		});
		expect(JSON.stringify(output)).not.toContain(PAN);
	});

	it('the error: context, errorResponse (toJSON) and a continue-on-fail item', async () => {
		const body = {
			statusCode: 400,
			error: 'Bad Request',
			errorCode: 'VALIDATION_ERROR',
			message: ['bad'],
			details: { [API_KEY]: 'revoked', [PAN]: 'x' },
		};
		nock(BASE_URL).get('/cards/c1').reply(400, body);
		const error = await runNodeError({ parameters: cardGet });
		const stored =
			JSON.stringify((error as unknown as { toJSON: () => unknown }).toJSON()) +
			JSON.stringify(error.context) +
			JSON.stringify(error.errorResponse ?? {});
		expect(stored).not.toContain(API_KEY);
		expect(stored).not.toContain(PAN);
		nock(BASE_URL).get('/cards/c1').reply(400, body);
		const { output } = await runNode({ parameters: cardGet, continueOnFail: true });
		expect(JSON.stringify(output)).not.toContain(API_KEY);
		expect(JSON.stringify(output)).not.toContain(PAN);
	});

	it('the AI tool error given to the model (PAYOUT_REQUISITE_COOLDOWN keyed by requisite)', async () => {
		nock(BASE_URL)
			.get('/payouts/p1')
			.reply(429, {
				statusCode: 429,
				error: 'Too Many Requests',
				errorCode: 'PAYOUT_REQUISITE_COOLDOWN',
				message: 'Реквизит на паузе',
				details: {
					cooldownUntil: {
						[MIR]: '2025-01-01T00:10:00Z',
						[REQUISITE]: '2025-01-01T00:15:00Z',
						[PHONE]: '2025-01-01T00:20:00Z',
					},
				},
			});
		const shown = JSON.stringify(
			await runTool({
				parameters: { resource: 'payout', operation: 'get', payoutId: 'p1' },
				credentials: {
					apiKey: API_KEY,
					baseUrl: BASE_URL,
					environment: 'custom',
					maxRetryWaitSeconds: 0,
				},
			}),
		);
		expect(shown).not.toContain(MIR);
		expect(shown).not.toContain(REQUISITE);
		expect(shown).not.toContain(PHONE);
		expect(shown).toContain('PAYOUT_REQUISITE_COOLDOWN');
	});

	it('the webhook trigger item', async () => {
		const { item } = await deliver({
			body: JSON.stringify({
				event: 'card.assigned',
				externalId: 'e1',
				cards: { [PAN]: { status: 'assigned' } },
			}),
		});
		expect(JSON.stringify(item)).not.toContain(PAN);
		expect(Object.keys(item!.cards as IDataObject)).toEqual(['•••• 1111']);
	});

	it('gateError masks keys of an error property in place', () => {
		const error = new Error('x') as Error & { details?: unknown };
		error.details = { cooldownUntil: { [MIR]: 't' } };
		gateError(undefined, error);
		expect(JSON.stringify(error.details)).not.toContain(MIR);
	});
});

describe('finding 1, generated: a secret key at any depth, on every gate path, keeps every entry', () => {
	const SECRETS = [
		PAN,
		MIR,
		PAN_B,
		`${PAN.slice(0, 4)} ${PAN.slice(4, 8)} ${PAN.slice(8, 12)} ${PAN.slice(12)}`,
		API_KEY,
	];
	type Tree = { [key: string]: Tree | string };
	const names = fc.constantFrom('a', 'b', 'limits', 'details', 'meta', 'comment', 'id', 'cards');
	const tree: fc.Arbitrary<Tree> = fc.letrec<{ node: Tree }>((tie) => ({
		node: fc.dictionary(
			fc.oneof(names, fc.constantFrom(...SECRETS)),
			fc.oneof({ depthSize: 'small' }, fc.constant('v'), tie('node')),
			{ maxKeys: 4 },
		),
	})).node;

	function countLeaves(value: unknown): number {
		if (typeof value !== 'object' || value === null) return 1;
		return Object.values(value).reduce((sum: number, child) => sum + countLeaves(child), 0);
	}

	it('no secret key is shown, and no entry is lost', () => {
		rememberCredential({ apiKey: API_KEY, baseUrl: BASE_URL });
		fc.assert(
			fc.property(
				tree,
				fc.constantFrom(...SECRETS),
				fc.constantFrom('user', 'model', 'items', 'tool', 'error'),
				(made, secret, path) => {
					const value: IDataObject = { id: 'r1', x: { [secret]: made, y: made } };
					let shown: unknown;
					if (path === 'user' || path === 'model') shown = gateJson(undefined, value, path);
					else if (path === 'items') shown = gateItems(undefined, [[{ json: value }]])[0][0].json;
					else if (path === 'tool') shown = maskForModel(value, [API_KEY]);
					else {
						const error = new Error('e') as Error & { context?: unknown };
						error.context = value;
						shown = gateError(undefined, error).context;
					}
					const text = JSON.stringify(shown);
					for (const hidden of SECRETS) expect(text).not.toContain(hidden);
					expect(countLeaves(shown)).toBe(countLeaves(value));
				},
			),
			{ numRuns: 200 },
		);
	});
});

describe("finding 2: a deposit's token is the crypto token, whatever its shape, never a secret", () => {
	const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
	const SHAPES = [
		USDT,
		'USDT',
		'0xdAC17F958D2ee523a2206206994597C13D831ec7',
		'Xk9fQ2mP7rT4vW8yZ1aB3cD5',
	];
	const deposit = (token: unknown) => ({
		id: 'd1',
		status: 'completed',
		amount: 10,
		txHash: 'a'.repeat(64),
		createdAt: '2025-01-01T00:00:00Z',
		token,
		tokenInfo: { symbol: 'USDT', address: token },
	});

	it("shown as it is in a deposit, for the user and the model; an invite's token stays hidden", () => {
		for (const token of SHAPES) {
			for (const audience of ['user', 'model'] as const) {
				const shown = gateJson(undefined, deposit(token), audience) as IDataObject;
				expect([token, audience, shown.token]).toEqual([token, audience, token]);
				expect((shown.tokenInfo as IDataObject).address).toBe(token);
			}
		}
		const invite = gateJson(undefined, { id: 'i1', status: 'pending', token: USDT }) as IDataObject;
		expect(invite.token).toBe('[hidden]');
		expect(fieldSpecIn({ event: 'deposit.created' }, 'token').kind).toBe('state');
		expect(fieldSpecIn({ id: 'i1' }, 'token').kind).toBe('secret');
	});

	it('never learned: a later run of another operation shows the same value', () => {
		const run = {};
		openRun(run);
		learnFromAnswer(run, { deposits: [deposit(USDT)], total: 1 });
		const later = gateJson(run, { id: 'b1', type: 'deposit', asset: USDT }) as IDataObject;
		expect(later.asset).toBe(USDT);
		expect(gateText(run, `asset ${USDT}`)).toContain(USDT);
		expect(namedIn({ deposits: [deposit(USDT)] }).secrets).toEqual([]);
	});

	it('the webhook item keeps it, and its raw body is given exactly', async () => {
		const body = JSON.stringify({
			event: 'deposit.created',
			depositId: 'd1',
			txHash: 'a'.repeat(64),
			walletAddress: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8',
			fromAddress: null,
			amount: 10,
			tokenSymbol: 'USDT',
			token: USDT,
			status: 'new',
			createdAt: '2025-01-01T00:00:00Z',
			updatedAt: '2025-01-01T00:00:00Z',
		});
		const { item } = await deliver({ body, parameters: { options: { includeRawBody: true } } });
		expect(item!.token).toBe(USDT);
		expect(item!.rawBody).toBe(body);
		expect(item!.rawBodyMasked).toBe(false);
	});

	it('generated: a value under a declared non-secret kind is never learned, at any depth', () => {
		const plain = documentedFields()
			.filter(([, spec]) => ['identifier', 'amount', 'state', 'time'].includes(spec.kind))
			.map(([name]) => name);
		const value = fc.oneof(
			fc.stringMatching(/^[A-Za-z0-9]{12,40}$/),
			fc.stringMatching(/^[A-Za-z0-9]{12,24}$/).map((token) => `https://pay.test/invite/${token}`),
			fc.stringMatching(/^[A-Za-z0-9]{12,24}$/).map((token) => `/join/${token}?token=${token}`),
		);
		fc.assert(
			fc.property(
				fc.array(fc.tuple(fc.constantFrom(...plain), value), { minLength: 1, maxLength: 4 }),
				fc.constantFrom(...SHAPES),
				fc.array(fc.constantFrom('data', 'items', 'deposits', 'meta'), { maxLength: 4 }),
				(fields, token, path) => {
					let body: IDataObject = { ...Object.fromEntries(fields), deposit: deposit(token) };
					for (const step of path) body = { [step]: [body] };
					const learned = namedIn(body).secrets.join(' ');
					for (const [, shown] of fields) {
						for (const part of shown.split(/[/?=]/).filter((p) => p.length >= 12)) {
							expect(learned).not.toContain(part);
						}
					}
					expect(learned).not.toContain(token);
				},
			),
			{ numRuns: 200 },
		);
	});
});

describe('finding 3: a masked proxy header does not withhold the raw body', () => {
	const body = JSON.stringify({
		event: 'order.status_changed',
		orderId: '3b241101-e2bb-4255-8caf-4136c566a962',
		walletOrderId: 'w1',
		status: 'success',
		amountUsdt: 10.5,
		amountRub: 1000,
		completedAt: null,
		failureReason: null,
		createdAt: '2025-01-01T00:00:00Z',
	});
	const JWT = ['eyJhbGciOiJSUzI1NiJ9', 'eyJzdWIiOiIxMjMifQ', 'c2lnbmF0dXJlMTIzNDU2Nzg5MA'].join(
		'.',
	);
	const options = { options: { includeRawBody: true, includeHeaders: true } };

	for (const [name, value] of [
		['cf-access-jwt-assertion', JWT],
		['x-auth-token', 'tok_9f8e7d6c5b4a39281706'],
		['x-forwarded-client-cert', `Hash=abc;card=${PAN}`],
	]) {
		it(`${name}: masked in headers, the raw body exact`, async () => {
			const { item } = await deliver({ body, parameters: options, headers: { [name]: value } });
			expect(item!.rawBody).toBe(body);
			expect(item!.rawBodyMasked).toBe(false);
			expect(JSON.stringify(item!.headers)).not.toContain(value);
		});
	}

	it('a secret in the body still withholds it, headers or not', async () => {
		const secretBody = JSON.stringify({ ...JSON.parse(body), comment: `card ${PAN}` });
		const { item } = await deliver({
			body: secretBody,
			parameters: options,
			headers: { 'cf-access-jwt-assertion': JWT },
		});
		expect(item!.rawBody).toBeNull();
		expect(item!.rawBodyMasked).toBe(true);
	});

	it('a body field named headers is the body: its secret withholds the raw body', async () => {
		const KEY_DUMMY = ['Qx7pLm2N', 'vB8kRt4w'].join('');
		const secretBody = JSON.stringify({
			...JSON.parse(body),
			headers: { apiKey: KEY_DUMMY },
		});
		const { item } = await deliver({ body: secretBody, parameters: options });
		expect(item!.rawBody).toBeNull();
		expect(JSON.stringify(item)).not.toContain(KEY_DUMMY);
	});
});

describe('finding 4: a webhook body in UTF-16 is read to the digit, by its charset', () => {
	const text =
		'{"event":"deposit.completed","depositId":123456789012345678901,"txHash":"ab","walletAddress":"T1","amount":1.000000000000000001,"status":"completed","sweepTxHash":null,"createdAt":"2025-01-01T00:00:00Z","updatedAt":"2025-01-01T00:00:00Z"}';
	const le = (value: string) => Buffer.from(value, 'utf16le');
	const be = (value: string) => {
		const bytes = le(value);
		for (let at = 0; at < bytes.length; at += 2) {
			const first = bytes[at];
			bytes[at] = bytes[at + 1];
			bytes[at + 1] = first;
		}
		return bytes;
	};
	const BOM_LE = Buffer.from([0xff, 0xfe]);
	const BOM_BE = Buffer.from([0xfe, 0xff]);
	const BOM_8 = Buffer.from([0xef, 0xbb, 0xbf]);
	/** n8n's own parse, which rounds: what getBodyData() gives. */
	const rounded = JSON.parse(text) as IDataObject;
	const encodings = (value: string): Array<[string, string | undefined, Buffer]> => [
		['utf-16le', 'application/json; charset=utf-16le', le(value)],
		[
			'UTF-16LE with a BOM',
			'application/json; charset=UTF-16LE',
			Buffer.concat([BOM_LE, le(value)]),
		],
		['utf-16be', 'application/json; charset="utf-16be"', be(value)],
		['utf-16 with a LE BOM', 'application/json;charset=utf-16', Buffer.concat([BOM_LE, le(value)])],
		['utf-16 without a BOM (BE)', 'application/json; charset=utf-16', be(value)],
		['no charset, a BE BOM', 'application/json', Buffer.concat([BOM_BE, be(value)])],
		[
			'utf-8 with a BOM',
			'application/json; charset=utf-8',
			Buffer.concat([BOM_8, Buffer.from(value)]),
		],
	];

	for (const [name, contentType, body] of encodings(text)) {
		it(`${name}: every digit kept, the raw body decoded and said so`, async () => {
			const { response, item } = await deliver({
				body,
				parsed: rounded,
				headers: contentType === undefined ? {} : { 'content-type': contentType },
				parameters: { options: { includeRawBody: true } },
			});
			expect(response.statusCode).toBe(200);
			expect(item!.depositId).toBe('123456789012345678901');
			expect(item!.amount).toBe('1.000000000000000001');
			expect(String(item!.changeKey)).toContain('123456789012345678901');
			expect(item!.rawBody).toBe(text);
			expect(item!.rawBodyMasked).toBe(true);
			expect(String(item!.rawBodyNote)).toMatch(/decoded from/);
		});
	}

	it('plain UTF-8 is unchanged: the raw body exact', async () => {
		const { item } = await deliver({
			body: Buffer.from(text),
			parsed: rounded,
			headers: { 'content-type': 'application/json; charset=utf-8' },
			parameters: { options: { includeRawBody: true } },
		});
		expect(item!.depositId).toBe('123456789012345678901');
		expect(item!.rawBody).toBe(text);
		expect(item!.rawBodyMasked).toBe(false);
	});

	it('a charset it does not decode is refused clearly (415), never read by a rounding parse', async () => {
		const { response, outputs } = await deliver({
			body: Buffer.from(text, 'latin1'),
			parsed: rounded,
			headers: { 'content-type': 'application/json; charset=windows-1251' },
		});
		expect(response.statusCode).toBe(415);
		expect(String(response.body)).toMatch(/charset is not supported/);
		expect(outputs).toBeUndefined();
	});

	it('generated: a big ID and a long decimal survive every charset and BOM', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.bigInt({ min: BigInt(10) ** BigInt(18), max: BigInt(10) ** BigInt(25) }),
				// Beyond a double: 18 to 24 significant digits.
				fc.stringMatching(/^[1-9]\d{0,3}\.\d{17,20}[1-9]$/),
				fc.constantFrom(...encodings('').map((_, index) => index)),
				fc.stringMatching(/^[A-Za-z0-9 а-яё€𝄞]{0,12}$/u),
				async (id, amount, index, note) => {
					const body = `{"event":"deposit.completed","depositId":${id},"txHash":"ab","amount":${amount},"status":"completed","error":${JSON.stringify(note)},"updatedAt":"2025-01-01T00:00:00Z"}`;
					const [, contentType, bytes] = encodings(body)[index];
					const { item } = await deliver({
						body: bytes,
						parsed: JSON.parse(body) as IDataObject,
						headers: contentType === undefined ? {} : { 'content-type': contentType },
						parameters: { options: { includeRawBody: true } },
					});
					expect(item!.depositId).toBe(String(id));
					expect(String(item!.amount)).toBe(amount);
					// The text decoded exactly; withheld only where its digits read as a card number.
					if (item!.rawBody !== null) expect(item!.rawBody).toBe(body);
				},
			),
			{ numRuns: 100 },
		);
	});
});

describe('finding 5: a credential in base64 is hidden whole, its last quad and padding too', () => {
	const KEYS = [
		API_KEY,
		`${API_KEY}x`,
		`${API_KEY}xy`,
		['ck_live', '7f3a9b2c4d5e6f708192a3b4c5d6e7'].join('_'),
	];

	it('Authorization: Basic <base64(key)> in a message', () => {
		for (const key of KEYS) {
			rememberCredential({ apiKey: key, baseUrl: BASE_URL });
			const b64 = Buffer.from(key).toString('base64');
			expect(gateText(undefined, `Service message: Authorization: Basic ${b64}`)).toBe(
				'Service message: Authorization: Basic [hidden]',
			);
			expect(gateText(undefined, `echo ${b64}.`, 'model')).toBe('echo [hidden from the AI model].');
		}
	});

	it('generated: any alignment, padding, URL-safe form and neighbours: no quad of it shown', () => {
		fc.assert(
			fc.property(
				fc.stringMatching(/^[A-Za-z0-9_]{16,40}$/),
				fc.stringMatching(/^[a-z0-9@.]{0,5}$/),
				fc.constantFrom('', ':', ':x', ':xy'),
				fc.boolean(),
				fc.boolean(),
				(key, before, after, urlSafe, unpadded) => {
					rememberCredential({ apiKey: key, baseUrl: BASE_URL });
					let b64 = Buffer.from(`${before}${before ? ':' : ''}${key}${after}`).toString('base64');
					if (urlSafe) b64 = b64.replace(/\+/g, '-').replace(/\//g, '_');
					if (unpadded) b64 = b64.replace(/=+$/, '');
					const shown = gateText(undefined, `Authorization: Basic ${b64} (rejected)`);
					expect(shown).not.toContain(key);
					// The whole base64 word goes: no quad of it (the last decodes to the key's end).
					expect(shown).toBe('Authorization: Basic [hidden] (rejected)');
				},
			),
			{ numRuns: 300 },
		);
	});
});
