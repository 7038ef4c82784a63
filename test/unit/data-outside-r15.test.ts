// Outside read r15-data: each finding as it was found, at the door it was found at.
import fc from 'fast-check';
import nock from 'nock';

import { gateJson, gateText, rememberCredential } from '../../nodes/shared/gate';
import { forgetLearnedSecrets } from '../../nodes/shared/gate/learned';
import { luhn, maskPatterns } from '../../nodes/shared/gate/patterns';
import { madeNow } from './helpers/money';
import { BASE_URL, runNode } from './helpers/n8n';
import { deliver } from './helpers/trigger';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const TEXT = { strong: false, inText: true, identifiers: new Set<string>() };

describe('finding 5: a card number and CVV encoded in a longer base64 or hex word are hidden', () => {
	const pan = '4276550012345674';
	const cvv = '481';

	it('card.assigned with cardData (base64 JSON) and panHex: nothing of the card in any encoding', async () => {
		const blob = Buffer.from(JSON.stringify({ pan, cvv, exp: '12/29' })).toString('base64');
		const hex = Buffer.from(pan).toString('hex');
		const body = JSON.stringify({
			event: 'card.assigned',
			externalId: 'emp-17',
			cardId: 'card_901',
			status: 'assigned',
			cardData: blob,
			panHex: hex,
		});
		const { item } = await deliver({ body, parameters: { options: { includeRawBody: true } } });
		const out = JSON.stringify(item);
		expect(out).not.toContain(blob);
		expect(out).not.toContain(hex);
		expect(out).not.toContain(pan);
		expect(item!.cardId).toBe('card_901');
		expect(item!.rawBody).toBeNull();
		expect(item!.rawBodyMasked).toBe(true);
	});

	it('generated: any card number, base64 (any variant) or hex of a JSON or text holding it: hidden whole', () => {
		const cards = fc
			.tuple(
				fc.constantFrom('4', '5', '2'),
				fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 12, maxLength: 18 }),
			)
			.map(([first, rest]) => first + rest.join(''));
		fc.assert(
			fc.property(
				cards,
				fc.constantFrom('pan', 'cardNumber', 'number', 'card'),
				fc.string({ maxLength: 20 }).filter((s) => !/[\\"]/.test(s)),
				fc.constantFrom('base64', 'base64url', 'hex', 'HEX'),
				(card, name, extra, encoding) => {
					const json = JSON.stringify({ [name]: card, note: extra, cvv: '739' });
					let word =
						encoding === 'hex' || encoding === 'HEX'
							? Buffer.from(json).toString('hex')
							: Buffer.from(json).toString(encoding as BufferEncoding);
					if (encoding === 'HEX') word = word.toUpperCase();
					const masked = maskPatterns(`data ${word} end`, TEXT);
					return !masked.includes(word) && masked.startsWith('data ') && masked.endsWith(' end');
				},
			),
			{ numRuns: 200 },
		);
	});

	it('an encoded word holding nothing secret, a tx hash, a random token: kept', () => {
		const plainNote = Buffer.from('{"note":"thank you for the order"}').toString('base64');
		const hash = 'a3f1c2d4e5b6a7980123456789abcdef0123456789abcdef0123456789abcdef';
		for (const text of [plainNote, hash, 'Zm9vYmFyYmF6cXV4cXV1eHh4eHh4eHh4eA']) {
			expect(maskPatterns(`x ${text} y`, TEXT)).toBe(`x ${text} y`);
		}
	});

	it('a word past the length cap is not decoded (the work stays bounded)', () => {
		const long = Buffer.from(`${'a'.repeat(7000)} ${pan} cvv 481`).toString('base64');
		expect(long.length).toBeGreaterThan(8192);
		expect(() => maskPatterns(long, TEXT)).not.toThrow();
	});
});

describe('findings 1 and 2: a Base URL user name is hidden in links and where named, never inside words', () => {
	const PASSWORD = ['Xk92', 'pq!z'].join('');
	// Built, so that no literal in the test is a credential.
	const keyOf = (tag: string) => ['ck', tag, '9f8e7d6c5b4a3928170'].join('_');
	const order = {
		id: '3f1c2a7e-9b4d-4e2a-8c1f-0a1b2c3d4e5f',
		status: 'success',
		merchantName: 'Merchant Store No.5',
		externalOrderId: 'merchant-2026-11',
		failureReason: 'MERCHANT declined',
	};
	afterEach(() => forgetLearnedSecrets());

	it('finding 1: the user "merchant" leaves keys, names and IDs as they were; the password goes', () => {
		const ctx = {};
		rememberCredential(
			{ baseUrl: `http://merchant:${PASSWORD}@gw.test`, apiKey: keyOf('live') },
			ctx,
		);
		for (const audience of ['user', 'model'] as const) {
			const shown = gateJson(ctx, { ...order, note: `retry with ${PASSWORD}` }, audience);
			expect(shown.merchantName).toBe(order.merchantName);
			expect(shown.externalOrderId).toBe(order.externalOrderId);
			expect(shown.failureReason).toBe(order.failureReason);
			expect(Object.keys(shown)).toContain('merchantName');
			expect(JSON.stringify(shown)).not.toContain(PASSWORD);
			// In a link, named as a user, with the password: hidden.
			const text = gateText(
				ctx,
				`at http://merchant:${PASSWORD}@gw.test/x; user merchant; merchant:${PASSWORD}`,
				audience,
			);
			expect(text).not.toContain(PASSWORD);
			expect(text).not.toMatch(/merchant/i);
		}
	});

	it('finding 2: another credential’s run is not altered by the first one’s user name', () => {
		const a = {};
		rememberCredential({ baseUrl: `http://payments:${PASSWORD}@gw.test`, apiKey: keyOf('a') }, a);
		const b = {};
		rememberCredential({ baseUrl: 'http://gw.test', apiKey: keyOf('b') }, b);
		const given = {
			...order,
			merchantName: 'City Payments Office',
			externalOrderId: 'payments-2026-11',
		};
		expect(gateJson(b, given, 'user')).toEqual(given);
		expect(gateJson(a, given, 'user')).toEqual(given);
	});

	it('generated: any user name of letters (8–20), in any word, key or ID: kept', () => {
		fc.assert(
			fc.property(
				fc
					.stringMatching(/^[a-z]{8,20}$/)
					// Not a word that names a secret field or a user by itself.
					.filter(
						(u) =>
							!/jwt|key|pass|pwd|pin|cvv|cvc|token|secret|sig|auth|card|pan|user|login|otp/.test(u),
					),
				fc.constantFrom('', 'x', 'Name', '-2026-11', ' Store No.5'),
				fc.constantFrom('', 'My ', 'inv-'),
				(user, after, before) => {
					forgetLearnedSecrets();
					const ctx = {};
					rememberCredential(
						{ baseUrl: `http://${user}:${PASSWORD}@gw.test`, apiKey: keyOf('x') },
						ctx,
					);
					const word = `${before}${user[0].toUpperCase()}${user.slice(1)}${after}`;
					const given = { [`${user}${after}`]: word, note: `${before}${user}${after}` };
					return JSON.stringify(gateJson(ctx, given, 'user')) === JSON.stringify(given);
				},
			),
			{ numRuns: 100 },
		);
	});
});

describe('finding 3: Payout → Create to a phone shows the phone typed; a card stays masked', () => {
	const answer = (body: Record<string, unknown>) => ({
		id: 'po_8812',
		status: 'waiting_trader',
		amountRub: 1500,
		requisiteType: body.requisiteType,
		requisite: body.requisite,
		bankId: 'sber',
		comment: null,
		createdAt: madeNow(),
	});
	const create = (requisiteType: string, requisite: string) => ({
		resource: 'payout',
		operation: 'create',
		amountRub: 1500,
		requisiteType,
		requisite,
		additionalFields: { bankId: 'sber', externalId: 'po-ext-1' },
	});

	it.each(['+79001234567', '+7 900 123-45-67', '89001234567'])(
		'phone %p: shown as sent',
		async (phone) => {
			nock(BASE_URL)
				.post('/payouts')
				.reply(201, (_uri, body) => answer(body as Record<string, unknown>));
			const { output } = await runNode({ parameters: create('phone', phone) });
			expect(String(output[0].json.requisite).replace(/\D/g, '')).toBe(phone.replace(/\D/g, ''));
			expect(String(output[0].json.requisite)).not.toContain('•');
		},
	);

	// Not passing the checksum: hidden in the comment only because the run learned it.
	it.each([['card', '4276550012345674']])(
		'type %p with a card number: masked',
		async (type, card) => {
			nock(BASE_URL)
				.post('/payouts')
				.reply(201, (_uri, body) => ({
					...answer(body as Record<string, unknown>),
					// The answer does not carry the requisite: only what the run sent tells it.
					requisiteType: null,
					requisite: null,
					comment: `to ${card}`,
				}));
			const { output } = await runNode({ parameters: create(type, card) });
			expect(output).toHaveLength(1);
			expect(JSON.stringify(output)).not.toContain(card);
		},
	);
});

describe('finding 4: a token contract after the word token is kept; the raw-body note says what was masked', () => {
	const TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
	const EVM = '0xdAC17F958D2ee523a2206206994597C13D831ec7';
	const event = (comment: string) => ({
		event: 'payout.status_changed',
		payoutId: 'po_1',
		externalId: 'ext-1',
		status: 'fail',
		amountRub: 1500,
		requisiteType: 'phone',
		requisite: '+79001234567',
		comment,
		createdAt: '2026-11-29T05:00:00Z',
		updatedAt: '2026-11-29T05:10:00Z',
	});

	it.each([TRON, EVM])(
		'comment "Refund sent in token %s…": kept, rawBody exact',
		async (address) => {
			const body = JSON.stringify(event(`Refund sent in token ${address} to your wallet`));
			const { item } = await deliver({ body, parameters: { options: { includeRawBody: true } } });
			expect(item!.comment).toBe(`Refund sent in token ${address} to your wallet`);
			expect(item!.rawBody).toBe(body);
			expect(item!.rawBodyMasked).toBe(false);
		},
	);

	it('a secret after the word token is still hidden, and the note names the field masked', async () => {
		const secret = ['sk', 'Zq7Kp2Lm9Xw4Rt8Vb3Nc'].join('');
		const body = JSON.stringify(event(`use token ${secret} to retry`));
		const { item } = await deliver({ body, parameters: { options: { includeRawBody: true } } });
		expect(JSON.stringify(item)).not.toContain(secret);
		expect(item!.rawBody).toBeNull();
		expect(String(item!.rawBodyNote)).toContain("masked in this item's field comment)");
		expect(String(item!.rawBodyNote)).not.toMatch(/a card number, a key, a PIN/);
	});

	it('generated: a TRON or EVM address after token/tokens/токен: kept; a random token with digits: hidden', () => {
		const base58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
		const tron = fc
			.array(fc.constantFrom(...base58.split('')), { minLength: 33, maxLength: 33 })
			.map((chars) => `T${chars.join('')}`);
		const evm = fc
			.array(fc.constantFrom(...'0123456789abcdefABCDEF'.split('')), {
				minLength: 40,
				maxLength: 40,
			})
			.map((chars) => `0x${chars.join('')}`);
		fc.assert(
			fc.property(
				fc.oneof(tron, evm),
				fc.constantFrom('token', 'Token', 'tokens', 'токен'),
				fc.constantFrom('Refund sent in', 'Paid with', ''),
				(address, word, before) => {
					const text = `${before} ${word} ${address} to your wallet`;
					return maskPatterns(text, TEXT) === text;
				},
			),
			{ numRuns: 200 },
		);
		fc.assert(
			fc.property(fc.stringMatching(/^[A-Za-z]{6}[0-9]{2}[A-Za-z0-9]{8,20}$/), (secret) => {
				return !maskPatterns(`your token ${secret} expires`, TEXT).includes(secret);
			}),
			{ numRuns: 200 },
		);
	});
});

describe('finding 6: a card-checksum run glued to letters on both sides of a long identifier is the identifier', () => {
	const op = 'A41561222316145C0000050011400501';

	it('Order Get: the SBP operation ID in a text and a field not shown stays to the character', async () => {
		nock(BASE_URL)
			.get('/orders/3f1c2a7e-9b4d-4e2a-8c1f-0a1b2c3d4e5f')
			.reply(200, {
				id: '3f1c2a7e-9b4d-4e2a-8c1f-0a1b2c3d4e5f',
				amountUsdt: 12.5,
				amountRub: 1000,
				status: 'failed',
				failureReason: `Bank declined SBP operation ${op}`,
				sbpOperation: op,
				createdAt: '2026-11-29T05:59:00Z',
			});
		const { output } = await runNode({
			parameters: {
				resource: 'order',
				operation: 'get',
				orderId: { __rl: true, mode: 'id', value: '3f1c2a7e-9b4d-4e2a-8c1f-0a1b2c3d4e5f' },
			},
		});
		expect(output[0].json.failureReason).toBe(`Bank declined SBP operation ${op}`);
		expect(output[0].json.sbpOperation).toBe(op);
	});

	it('generated: letters both sides, word of 24+ letters and digits: kept; one side, `_`, or a shorter word: masked', () => {
		const cards = fc
			.tuple(
				// A real scheme's leading digits and length (outside read r17-data, finding 4: a run
				// no scheme issues is no card by its look); 15–19 digits: a 13-digit run may be a
				// time in milliseconds (kept before this finding too).
				fc.constantFrom<[string, number]>(
					['4', 16],
					['4', 19],
					['52', 16],
					['2200', 17],
					['2200', 19],
				),
				fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 18, maxLength: 18 }),
			)
			.map(([[first, length], rest]) => first + rest.join('').slice(0, length - first.length))
			.filter((digits) => luhn(digits));
		const letters = fc.stringMatching(/^[A-Za-z]{1,4}$/);
		const tail = fc.stringMatching(/^[A-Za-z0-9]{0,12}$/);
		fc.assert(
			fc.property(cards, letters, letters, tail, tail, (card, left, right, head, end) => {
				const word = `${head}${left}${card}${right}${end}`;
				const shown = maskPatterns(`op ${word} declined`, TEXT);
				const shownHead = /^[A-Za-z0-9]*$/.test(head) ? head : '';
				// The run is glued to letters both sides inside one alphanumeric word.
				if (word.length >= 24 && /[A-Za-z]$/.test(shownHead + left)) {
					return shown === `op ${word} declined`;
				}
				return true;
			}),
			{ numRuns: 300 },
		);
		fc.assert(
			fc.property(cards, letters, (card, word) => {
				for (const form of [`${word}${card}`, `${card}${word}`, `card_${card}_x`, `x${card}y`]) {
					if (maskPatterns(`x ${form} y`, TEXT).replace(/\D/g, '').includes(card)) return false;
				}
				return true;
			}),
			{ numRuns: 200 },
		);
	});
});

describe('finding 7: a link parameter is a credential by a word of its name, not a substring', () => {
	const USER = { strong: false, inText: true, identifiers: new Set<string>() };

	it('Company Get Profile: webhookUrl with design, author, preferred, keyword: as set', async () => {
		const webhookUrl =
			'https://hooks.example.com/in?design=v2&author=ops&preferred=eu&keyword=payments&source=company';
		nock(BASE_URL).get('/auth/company/profile').reply(200, {
			id: 'c-1',
			name: 'Acme',
			email: 'ops@acme.example',
			webhookUrl,
			cardsTestMode: false,
		});
		const { output } = await runNode({
			parameters: { resource: 'company', operation: 'getProfile' },
		});
		expect(output[0].json.webhookUrl).toBe(webhookUrl);
	});

	it('names that are (or end in, or are glued to) a credential word: hidden', () => {
		for (const name of [
			'token',
			'access_token',
			'authToken',
			'auth',
			'Authorization',
			'sig',
			'X-Signature',
			'api.key',
			'apikey',
			'webhooksecret',
			'hmac',
			'ref',
			'invite_code',
			'password',
		]) {
			const link = `https://h.example.com/x?${name}=v2abc&source=company`;
			expect([name, maskPatterns(link, USER)]).toEqual([
				name,
				`https://h.example.com/x?${name}=[hidden]&source=company`,
			]);
		}
	});

	it('generated: a name that merely contains sig/auth/ref/key inside a longer word: kept', () => {
		const words = fc.constantFrom(
			'design',
			'author',
			'preferred',
			'keyword',
			'signal',
			'authority',
			'reference',
			'referrer',
			'monkeys',
			'assign',
			'keynote',
			'prefix',
		);
		fc.assert(
			fc.property(
				words,
				fc.constantFrom('', 'my_', 'x-'),
				fc.stringMatching(/^[a-z0-9]{1,10}$/),
				(word, prefix, value) => {
					const link = `https://hooks.example.com/in?${prefix}${word}=${value}&source=company`;
					return maskPatterns(link, USER) === link;
				},
			),
			{ numRuns: 200 },
		);
	});
});

describe('finding 8: Invite → Create answered {"invite":{…}} gives the invite and its link', () => {
	const url = 'https://cabinet.example.com/invite/Zq7vK2mP9xR4tL8w';
	const invite = {
		id: 'inv-1',
		url,
		status: 'pending',
		role: 'member',
		permissions: ['orders.read'],
		expiresAt: '2026-12-06T06:00:00Z',
	};
	const create = () =>
		runNode({
			parameters: {
				resource: 'invite',
				operation: 'create',
				email: '',
				additionalFields: { role: 'member' },
			},
		});

	it('wrapped and bare answers give the same item, url first', async () => {
		nock(BASE_URL).post('/members/invites').reply(201, { invite });
		const wrapped = (await create()).output[0].json;
		nock(BASE_URL).post('/members/invites').reply(201, invite);
		const bare = (await create()).output[0].json;
		expect(wrapped).toEqual(bare);
		expect(wrapped.url).toBe(url);
		expect(Object.keys(wrapped)[0]).toBe('url');
		expect(wrapped.status).toBe('pending');
	});

	it('an answer of another shape stays as it stands (two keys, or `invite` not an object)', async () => {
		nock(BASE_URL).post('/members/invites').reply(201, { invite: 'x', id: 'inv-1' });
		const other = (await create()).output[0].json;
		expect(other.url).toBeNull();
		expect(other.id).toBe('inv-1');
	});
});
