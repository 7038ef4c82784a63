// The second outside read of secrets (r2-data-secrets): each finding as it was found, through the
// doors a user and a model read (output items, errors, tool results, pickers, the webhook item).
import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import nock from 'nock';

import { CompanyPayments } from '../../nodes/CompanyPayments/CompanyPayments.node';
import { API_KEY, BASE_URL, createContext, runNode, runNodeError, runTool } from './helpers/n8n';
import { SECRET_DUMMY, deliver, hmacHex } from './helpers/trigger';
import { unknownFieldKind } from '../../nodes/shared/contract/records';
import { gateText } from '../../nodes/shared/gate';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

/** Every text a reader can see in a value, an error's own properties too. */
export function allText(value: unknown, seen = new Set<object>()): string {
	if (typeof value === 'string') return value;
	if (typeof value === 'number') return String(value);
	if (typeof value !== 'object' || value === null || seen.has(value)) return '';
	seen.add(value);
	const keys = value instanceof Error ? Object.getOwnPropertyNames(value) : Object.keys(value);
	return keys
		.filter((key) => key !== 'node')
		.map((key) => `${key}=${allText((value as Record<string, unknown>)[key], seen)}`)
		.join(' | ');
}

// Built, so that no literal in the test is a credential.
const WH = ['whsec', 'c0ffee12'.repeat(6)].join('_');
const SESSION = ['sess', 'TOKEN9f8e7d6c5b4a39281'].join('');
const NEW_KEY = ['NEWKEY', '0123456789abcdefABCDEF'].join('');
const PASSWORD = ['Pa55', 'word!xyz'].join('');
const INVITE = ['inv0123456789', 'abcdefTOKEN'].join('');

describe('finding 1: a new key nested in the answer', () => {
	it('Login opens only the nested key, never the session token or the webhook secret', async () => {
		nock(BASE_URL)
			.post('/auth/company/login')
			.reply(200, {
				accessToken: SESSION,
				company: { id: 'c1', apiKey: NEW_KEY, webhookSecret: WH },
			});
		const { output } = await runNode({
			parameters: { resource: 'company', operation: 'login', email: 'a@b.co', password: PASSWORD },
		});
		const json = output[0].json;
		expect(json.apiKeyField).toBe('company.apiKey');
		expect((json.company as IDataObject).apiKey).toBe(NEW_KEY);
		expect((json.company as IDataObject).id).toBe('c1');
		const text = allText(json);
		expect(text).not.toContain(SESSION);
		expect(text).not.toContain(WH);
	});

	it('Invite Accept opens member.apiKey; the echoed password and the session stay masked', async () => {
		nock(BASE_URL)
			.post(/\/auth\/invites\/.*\/accept/)
			.reply(200, {
				session: { token: SESSION },
				member: { userId: 'u1', apiKey: NEW_KEY },
				password: PASSWORD,
			});
		const { output } = await runNode({
			parameters: {
				resource: 'invite',
				operation: 'accept',
				inviteToken: INVITE,
				email: 'a@b.co',
				password: PASSWORD,
			},
		});
		const json = output[0].json;
		expect(json.apiKeyField).toBe('member.apiKey');
		expect((json.member as IDataObject).apiKey).toBe(NEW_KEY);
		const text = allText(json);
		expect(text).not.toContain(SESSION);
		expect(text).not.toContain(PASSWORD);
	});

	it('Regenerate with apiKey as an object opens apiKey.value only', async () => {
		nock(BASE_URL)
			.post('/auth/company/regenerate-key')
			.reply(200, { apiKey: { value: NEW_KEY, createdAt: '2026' }, webhookSecret: WH });
		const { output } = await runNode({
			parameters: { resource: 'company', operation: 'regenerateApiKey' },
		});
		const json = output[0].json;
		expect(json.apiKeyField).toBe('apiKey.value');
		expect((json.apiKey as IDataObject).value).toBe(NEW_KEY);
		expect(allText(json)).not.toContain(WH);
	});

	it('with no key found, reveals nothing and says where to look', async () => {
		nock(BASE_URL)
			.post('/auth/company/regenerate-key')
			.reply(200, {
				credentials: { secretValue: NEW_KEY },
				sessionToken: SESSION,
				webhookSecret: WH,
			});
		const { output } = await runNode({
			parameters: { resource: 'company', operation: 'regenerateApiKey' },
		});
		const json = output[0].json;
		expect(json.apiKeyField).toBeNull();
		expect(json.notice).toContain('credentials.secretValue');
		const text = allText(json);
		for (const secret of [NEW_KEY, SESSION, WH]) expect(text).not.toContain(secret);
	});

	it('the model never gets the key, nested or not', async () => {
		nock(BASE_URL)
			.post('/auth/company/regenerate-key')
			.reply(200, { company: { apiKey: NEW_KEY, webhookSecret: WH } });
		const items = (
			await runTool({
				parameters: { resource: 'company', operation: 'regenerateApiKey' },
			})
		).output;
		const text = allText(items);
		expect(text).not.toContain(NEW_KEY);
		expect(text).not.toContain(WH);
	});
});

const MEMBER_KEY = ['mbr', 'Q1w2E3r4T5y6U7i8O9p0AsDf'].join('_');
const PWD = ['Hunter2', 'Hunter2!'].join('');

describe('finding 8: a member operation error body is closed like a member', () => {
	const shapes: Array<[string, IDataObject | null, string]> = [
		['memberKey', { member: { userId: 'u2', role: 'owner', memberKey: MEMBER_KEY } }, MEMBER_KEY],
		['userKey', { userKey: MEMBER_KEY }, MEMBER_KEY],
		['keyValue', { keyValue: MEMBER_KEY }, MEMBER_KEY],
		['members[].access', { members: [{ userId: 'u2', access: MEMBER_KEY }] }, MEMBER_KEY],
		['pwd', { pwd: PWD }, PWD],
		['passcode', { passcode: PWD }, PWD],
		['message only', null, MEMBER_KEY],
	];
	for (const tool of [false, true]) {
		for (const [name, details, secret] of shapes) {
			it(`${tool ? 'tool' : 'user'}: ${name}`, async () => {
				nock(BASE_URL)
					.delete(/\/members\//)
					.reply(403, {
						statusCode: 403,
						errorCode: 'FORBIDDEN',
						message:
							details === null
								? `Ключ участника ${MEMBER_KEY} принадлежит последнему владельцу`
								: 'Нельзя удалить последнего владельца',
						...(details ? { details } : {}),
						requestId: 'req-77',
					});
				const parameters = {
					resource: 'member',
					operation: 'remove',
					userId: { __rl: true, mode: 'id', value: 'u2' },
				};
				const shown = tool
					? (await runTool({ parameters })).output
					: await runNodeError({ parameters });
				const text = allText(shown);
				expect(text).not.toContain(secret);
				expect(text).toContain('req-77');
				expect(text).toContain('FORBIDDEN');
				if (name === 'memberKey') expect(text).toContain('u2');
			});
		}
	}
});

const BASE_PASSWORD = ['Pw9x', 'BaseUrlSecret77'].join('');

describe('finding 9: a From list picker that fails', () => {
	type Search = (this: ILoadOptionsFunctions, filter?: string) => Promise<INodeListSearchResult>;
	const methods = new CompanyPayments().methods.listSearch as unknown as Record<string, Search>;
	const credentials = {
		environment: 'staging',
		baseUrl: `https://ops:${BASE_PASSWORD}@api.payments.test`,
		apiKey: API_KEY,
		webhookSecret: '',
	};

	async function failed(baseUrl = credentials.baseUrl): Promise<string> {
		const context = createContext({
			parameters: { resource: 'member', operation: 'remove' },
			credentials: { ...credentials, baseUrl },
		}) as unknown as ILoadOptionsFunctions;
		try {
			await methods.getMembers.call(context, '');
		} catch (error) {
			return allText(error);
		}
		throw new Error('the picker did not fail');
	}

	it('hides the Base URL password and the key a service echoes', async () => {
		nock(BASE_URL)
			.get(/\/members/)
			.reply(500, {
				statusCode: 500,
				errorCode: 'INTERNAL_ERROR',
				message: `key ${API_KEY} failed at https://ops:${BASE_PASSWORD}@api.payments.test/members`,
			});
		const text = await failed(BASE_URL);
		expect(text).toContain('INTERNAL_ERROR');
		expect(text).not.toContain(BASE_PASSWORD);
		expect(text).not.toContain(API_KEY);
	});

	it('hides the Base URL password when the service cannot be reached', async () => {
		const text = await failed();
		expect(text).not.toContain(BASE_PASSWORD);
	});
});

describe('finding 3: a PIN under any name', () => {
	const names = ['pinCode', 'cardPin', 'pin_code', 'pinNumber', 'card_pin', 'atmPin', 'PIN'];

	it('is a secret by its name words, not by letters inside a word', () => {
		for (const name of names) expect([name, unknownFieldKind(name).kind]).toEqual([name, 'secret']);
		for (const name of ['shipping', 'pinned', 'spinner', 'opinion', 'pinId', 'pinSet']) {
			expect([name, unknownFieldKind(name).kind]).not.toEqual([name, 'secret']);
		}
	});

	for (const tool of [false, true]) {
		it(`Card Get hides each (${tool ? 'tool' : 'user'})`, async () => {
			const card: IDataObject = { id: 'c1', status: 'assigned', externalId: 'emp-7' };
			names.forEach((name, index) => (card[name] = String(8101 + index)));
			nock(BASE_URL).get('/cards/c1').reply(200, card);
			const parameters = { resource: 'card', operation: 'get', cardId: 'c1' };
			const json = tool
				? (await runTool({ parameters })).output[0]
				: (await runNode({ parameters })).output[0].json;
			const text = allText(json);
			names.forEach((_name, index) => expect(text).not.toContain(String(8101 + index)));
			expect(text).toContain('emp-7');
		});
	}

	it('the trigger card.assigned item hides the PIN, with or without the raw body', async () => {
		const payload = {
			event: 'card.assigned',
			externalId: 'emp-7',
			cardId: 'c1',
			card: {
				id: 'c1',
				status: 'assigned',
				pinCode: '4829',
				cvv: '737',
				cardNumber: '4111111111111111',
			},
		};
		for (const includeRawBody of [false, true]) {
			const { item } = await deliver({
				body: JSON.stringify(payload),
				parameters: { options: { includeRawBody } },
			});
			const text = JSON.stringify(item);
			expect(text).not.toContain('4829');
			expect(text).not.toContain('4111111111111111');
			expect(item?.externalId).toBe('emp-7');
		}
	});
});

describe('findings 6 and 7: Include Raw Body is exact, or withheld and says why', () => {
	const PAN = '4111111111111111';
	const escape = (text: string) =>
		text
			.split('')
			.map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
			.join('');
	const variants: Record<string, string> = {
		allEscaped: escape(PAN),
		spaceEscaped: (PAN.match(/.{4}/g) ?? []).join('\\u0020'),
		halfEscaped: PAN.slice(0, 8) + escape(PAN.slice(8)),
	};
	for (const [name, written] of Object.entries(variants)) {
		it(`a card number written with JSON escapes (${name}) is in no part of rawBody`, async () => {
			const raw = `{"event":"payout.status_changed","payoutId":"p1","status":"success","amountRub":1000,"requisiteType":"card","requisite":"${written}","comment":"paid to ${written}"}`;
			const { item } = await deliver({
				body: raw,
				parameters: { options: { includeRawBody: true } },
			});
			expect(item?.rawBody).toBeNull();
			expect(item?.rawBodyMasked).toBe(true);
			expect(item?.rawBodyNote).toMatch(/withheld/);
			expect(JSON.stringify(item)).not.toContain(PAN);
		});
	}

	it('a body that is not UTF-8 is flagged, never passed as the signed bytes', async () => {
		const raw = Buffer.concat([
			Buffer.from('{"event":"payout.status_changed","payoutId":"p1","status":"fail","comment":"'),
			Buffer.from([0xce, 0xf2, 0xea, 0xe0, 0xe7]),
			Buffer.from('"}'),
		]);
		const { item } = await deliver({
			body: raw,
			parameters: { options: { includeRawBody: true } },
		});
		expect(item?.rawBodyMasked).toBe(true);
		expect(item?.rawBodyNote).toMatch(/not UTF-8/);
	});

	it('a plain UTF-8 body without secrets stays exact (its HMAC matches)', async () => {
		const raw =
			'{"event":"order.status_changed","orderId":"o1","status":"success","failureReason":"Отказ"}';
		const { item } = await deliver({
			body: raw,
			signWith: SECRET_DUMMY,
			parameters: { options: { includeRawBody: true } },
		});
		expect(item?.rawBody).toBe(raw);
		expect(item?.rawBodyMasked).toBe(false);
		expect(hmacHex(String(item?.rawBody), SECRET_DUMMY)).toBe(hmacHex(raw, SECRET_DUMMY));
	});
});

describe('finding 4: a closed record keeps each known field to its shape; service fields never pass as the node own', () => {
	const SECRET = ['Zq7R', 'member0000secretVALUE99'].join('');
	const cases: Array<[string, string, (value: string) => unknown]> = [
		[
			'member',
			'getMany',
			(v) => [
				{
					userId: 'u1',
					role: 'admin',
					permissions: ['members.read'],
					status: { since: '2026', grant: v },
				},
			],
		],
		[
			'member',
			'getMany',
			(v) => [{ userId: 'u1', role: { name: 'admin', grant: v }, permissions: [] }],
		],
		[
			'member',
			'getMany',
			(v) => [{ userId: 'u1', role: 'admin', permissions: [{ name: 'members.read', grant: v }] }],
		],
		[
			'member',
			'getMany',
			(v) => [{ userId: 'u1', role: 'admin', permissions: [], description: v }],
		],
		['member', 'getMany', (v) => [{ userId: 'u1', role: 'admin', permissions: [], source: v }]],
		['member', 'getMany', (v) => [{ userId: 'u1', role: 'admin', permissions: [], changeKey: v }]],
		[
			'member',
			'getMany',
			(v) => [{ userId: 'u1', role: 'admin', permissions: [], name: { first: 'A', recovery: v } }],
		],
		[
			'company',
			'getProfile',
			(v) => ({ id: 'c1', name: 'Acme', createdAt: { at: '2026', signingKeyMaterial: v } }),
		],
		['company', 'getProfile', (v) => ({ id: 'c1', hint: v })],
		['company', 'getProfile', (v) => ({ id: 'c1', idempotencyKey: v })],
		[
			'invite',
			'getMany',
			(v) => [{ id: 'i1', status: 'pending', permissions: [], paymentReference: v }],
		],
	];
	const paths: Record<string, string> = {
		member: '/members',
		company: '/auth/company/profile',
		invite: '/members/invites',
	};
	for (const tool of [false, true]) {
		for (const [index, [resource, operation, body]] of cases.entries()) {
			it(`${tool ? 'tool' : 'user'} ${resource}.${operation} case ${index + 1}`, async () => {
				nock(BASE_URL)
					.get(paths[resource])
					.query(true)
					.reply(200, body(SECRET) as IDataObject)
					.get(paths[resource])
					.query(true)
					.optionally()
					.reply(200, []);
				const parameters = { resource, operation, returnAll: true, compactOutput: false };
				const shown = tool
					? (await runTool({ parameters })).output
					: (await runNode({ parameters })).output;
				const text = allText(shown);
				expect(text).not.toContain(SECRET);
				expect(text).toMatch(/u1|c1|i1/);
			});
		}
	}

	it('plain declared values stay as they are', async () => {
		nock(BASE_URL)
			.get('/members')
			.query(true)
			.reply(200, [
				{
					userId: 'u1',
					email: 'm@x.co',
					role: 'admin',
					permissions: ['members.read'],
					status: 'active',
				},
			])
			.get('/members')
			.query(true)
			.optionally()
			.reply(200, []);
		const { output } = await runNode({
			parameters: { resource: 'member', operation: 'getMany', returnAll: true },
		});
		expect(output[0].json).toMatchObject({
			userId: 'u1',
			email: 'm@x.co',
			role: 'admin',
			permissions: ['members.read'],
			status: 'active',
		});
	});
});

describe('finding 2: the credential key and the Base URL password in any encoding', () => {
	const KEY = ['k3yAbCdEf', 'Gh1234567890zzQQ'].join('');
	const SLASH_KEY = ['AbC1/dEf2', '+gHi3/jKl4+mNo5=='].join('');
	const forms = (key: string): Record<string, string> => ({
		upper: key.toUpperCase(),
		lower: key.toLowerCase(),
		base64: Buffer.from(key).toString('base64'),
		base64Basic: Buffer.from(`${key}:`).toString('base64'),
		base64User: Buffer.from(`ops:${key}`).toString('base64'),
		grouped: (key.match(/.{1,5}/g) ?? []).join('-'),
		groupedSpace: (key.match(/.{1,5}/g) ?? []).join(' '),
		uEscaped: key
			.split('')
			.map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
			.join(''),
		pctAll: key
			.split('')
			.map((char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)
			.join(''),
		hex: Buffer.from(key).toString('hex'),
		pctDouble: encodeURIComponent(encodeURIComponent(key)),
		pctMixed: encodeURIComponent(key).replace(/%2F/g, '%2f'),
		plusAsSpace: key.replace(/\+/g, ' '),
		formEncoded: encodeURIComponent(key).replace(/%2B/g, '+'),
	});
	for (const key of [KEY, SLASH_KEY]) {
		for (const [name, form] of Object.entries(forms(key))) {
			for (const tool of [false, true]) {
				it(`${key === KEY ? 'key' : 'key with / and +'} ${name} (${tool ? 'tool' : 'user'})`, async () => {
					nock(BASE_URL)
						.get('/wallets/balance')
						.reply(401, `Unauthorized: key ${form} is not valid`, {
							'content-type': 'text/plain',
						});
					const parameters = { resource: 'companyWallet', operation: 'getBalance' };
					const credentials = {
						environment: 'staging',
						baseUrl: BASE_URL,
						apiKey: key,
						webhookSecret: '',
					};
					const shown = tool
						? (await runTool({ parameters, credentials })).output
						: await runNodeError({ parameters, credentials });
					expect(allText(shown)).not.toContain(form);
				});
			}
		}
	}

	it('a Base URL password echoed upper-case', async () => {
		nock('https://api.payments.test')
			.get('/wallets/balance')
			.reply(401, {
				errorCode: 'UNAUTHORIZED',
				message: `bad basic auth ${BASE_PASSWORD.toUpperCase()}`,
			});
		const error = await runNodeError({
			parameters: { resource: 'companyWallet', operation: 'getBalance' },
			credentials: {
				environment: 'staging',
				baseUrl: `https://ops:${BASE_PASSWORD}@api.payments.test`,
				apiKey: API_KEY,
				webhookSecret: '',
			},
		});
		expect(allText(error).toLowerCase()).not.toContain(BASE_PASSWORD.toLowerCase());
	});
});

describe('finding 10: a short password the run knows, echoed in an error text', () => {
	for (const password of [
		['Qw3', 'rty!'].join(''),
		['S3c', 'r3t'].join(''),
		['Passw0rd', '!long'].join(''),
	]) {
		for (const [resource, operation, path] of [
			['company', 'login', '/auth/company/login'],
			['invite', 'accept', `/auth/invites/${INVITE}/accept`],
		]) {
			for (const shape of ['message list', 'details']) {
				it(`${resource}.${operation}, ${password.length} characters, ${shape}`, async () => {
					nock(BASE_URL)
						.post(path)
						.reply(400, {
							statusCode: 400,
							errorCode: 'VALIDATION_ERROR',
							...(shape === 'details'
								? { message: 'invalid', details: { field: 'password', value: password } }
								: { message: [`password "${password}" is too weak`, 'email ok'] }),
						});
					const error = await runNodeError({
						parameters: { resource, operation, email: 'a@b.co', password, inviteToken: INVITE },
					});
					const text = allText(error);
					expect(text).not.toContain(password);
					expect(text).toContain('too weak'.slice(0, shape === 'details' ? 0 : 8));
				});
			}
		}
	}

	it('a short number is not hidden in a text (an amount, a count)', async () => {
		nock(BASE_URL)
			.post('/auth/company/login')
			.reply(400, { errorCode: 'VALIDATION_ERROR', message: 'at most 1234 attempts; try again' });
		const error = await runNodeError({
			parameters: { resource: 'company', operation: 'login', email: 'a@b.co', password: '1234' },
		});
		expect(allText(error)).toContain('at most 1234 attempts');
	});
});

describe('finding 5: a card number in other groupings and encodings', () => {
	const PAN = '4111111111111111';
	const group = (separator: string) => (PAN.match(/.{4}/g) ?? []).join(separator);
	const forms: Record<string, string> = {
		underscores: group('_'),
		slashes: group('/'),
		colons: group(':'),
		twoGroups8: `${PAN.slice(0, 8)} ${PAN.slice(8)}`,
		uEscapedInString: `{"pan":"${group('\\u0020')}"}`,
		base64: Buffer.from(PAN).toString('base64'),
		fullWidth: PAN.split('')
			.map((digit) => String.fromCharCode(0xff10 + Number(digit)))
			.join(''),
	};
	const ORDER = '11111111-1111-4111-8111-111111111111';
	for (const tool of [false, true]) {
		for (const [name, form] of Object.entries(forms)) {
			it(`${name} in an error message and an unknown field (${tool ? 'tool' : 'user'})`, async () => {
				nock(BASE_URL)
					.get(`/orders/${ORDER}`)
					.reply(422, { errorCode: 'UNPROCESSABLE', message: `карта ${form} отклонена` })
					.get(`/orders/${ORDER}`)
					.reply(200, {
						id: ORDER,
						status: 'success',
						amountRub: 90,
						payerCard: form,
						note: `paid with ${form}`,
					});
				const parameters = {
					resource: 'order',
					operation: 'get',
					orderId: ORDER,
					compactOutput: false,
				};
				const failed = tool
					? (await runTool({ parameters })).output
					: await runNodeError({ parameters });
				const ok = tool
					? (await runTool({ parameters })).output
					: (await runNode({ parameters })).output;
				for (const shown of [failed, ok]) {
					const text = allText(shown);
					expect(text).not.toContain(form);
					const digits = text
						.replace(/\\u0020/g, '')
						.replace(/[\uff10-\uff19]/g, (digit) => String(digit.charCodeAt(0) - 0xff10))
						.replace(/\D/g, '');
					expect(digits).not.toContain(PAN);
				}
				expect(allText(ok)).toContain(ORDER);
			});
		}
	}

	it('ordinary values stay: a UUID, a tx hash, a TRON address, dates, an amount, base64 of a word', () => {
		const ordinary = [
			'9b2f6c1e-0a4d-4e8b-9c7f-1a2b3c4d5e6f',
			'a7c9d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6',
			'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8',
			'2026/11/21 12:00:00',
			'1500.25',
			Buffer.from('hello world, this is fine').toString('base64'),
		];
		for (const value of ordinary)
			expect(gateText(undefined, `value ${value} here`)).toBe(`value ${value} here`);
	});
});
