// Outside read r14-data (the gate's text and field-shape rules): each finding as it was found.
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';
import nock from 'nock';

import {
	gateError,
	gateItems,
	gateJson,
	gateText,
	rememberCredential,
} from '../../nodes/shared/gate';
import { namedIn } from '../../nodes/shared/gate/learned';
import { API_KEY, BASE_URL, runNodeError } from './helpers/n8n';
import { deliver } from './helpers/trigger';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const HEX_40 = '0f3c9a7be21d4c5f8a6b3e2d1c0f9a8b7c6d5e4f';
const CARD = {
	id: 'c1',
	externalId: null,
	status: 'assigned',
	maskedPan: '411111******1111',
	createdAt: '2026-01-01T00:00:00Z',
};

describe('finding 1: a secret sent as a name/value pair is masked as the named field', () => {
	const pairs: [string, unknown][] = [
		[
			'objects',
			{
				attributes: [
					{ name: 'pin', value: '4821' },
					{ name: 'cvv', value: '482' },
				],
			},
		],
		['a list of two', { extra: [['cardPin', '7390']] }],
		['a header pair', { issuerIntegration: [{ name: 'X-API-Key', value: HEX_40 }] }],
		['a list pair', { issuerHeaders: [['secret', HEX_40]] }],
		['key/val', { meta: { key: 'password', val: 'Zx9!wq' } }],
		['a number', { attributes: [{ field: 'pinCode', data: 4821 }] }],
	];
	for (const [name, extra] of pairs) {
		for (const audience of ['user', 'model'] as const) {
			it(`${name}, for the ${audience}`, () => {
				const value = { ...CARD, ...(extra as IDataObject) };
				const shown = JSON.stringify(gateJson(undefined, value, audience));
				for (const secret of ['4821', '"482"', '7390', HEX_40, 'Zx9!wq']) {
					expect(shown).not.toContain(secret);
				}
				// The pair's name stays: it says what was hidden.
				expect(shown).toMatch(/pin|cvv|X-API-Key|secret|password/i);
			});
		}
	}

	it('a pair that names no secret is kept', () => {
		const value = { ...CARD, attributes: [{ name: 'color', value: '4821' }, ['size', 'L']] };
		expect(gateJson(undefined, value)).toEqual(value);
	});

	it('the pair is learned: its value is known elsewhere in the same answer', () => {
		const named = namedIn({ attributes: [{ name: 'X-API-Key', value: HEX_40 }] });
		expect(named.secrets).toContain(HEX_40);
		const shown = gateItems(undefined, [
			[{ json: { a: [['secret', HEX_40]], note: `echo ${HEX_40}` } }],
		]);
		expect(JSON.stringify(shown)).not.toContain(HEX_40);
	});

	it('the webhook trigger item', async () => {
		const body = JSON.stringify({
			event: 'card.assigned',
			externalId: 'emp-7',
			cardId: 'crd_1',
			card: {
				id: 'crd_1',
				status: 'assigned',
				attributes: [
					{ name: 'pin', value: '4821' },
					{ name: 'cvv', value: '482' },
				],
			},
		});
		const { item } = await deliver({ body, parameters: { options: { includeRawBody: true } } });
		const shown = JSON.stringify(item);
		expect(shown).not.toContain('4821');
		expect(shown).not.toContain('"482"');
		expect(item!.rawBody).toBeNull();
	});

	it('generated: a pair naming a secret, at any depth, in any shape, for both readers', () => {
		const names = fc.constantFrom(
			'pin',
			'cvv',
			'cardPin',
			'X-API-Key',
			'secret',
			'password',
			'apiKey',
		);
		const nameKeys = fc.constantFrom('name', 'key', 'field', 'label', 'type', 'id');
		const valueKeys = fc.constantFrom('value', 'val', 'data', 'text', 'content');
		const secret = fc.stringMatching(/^[0-9a-f]{40}$/);
		const pair = fc.oneof(
			fc
				.tuple(nameKeys, valueKeys, names, secret)
				.map(([n, v, name, s]) => [{ [n]: name, [v]: s } as unknown, s] as const),
			fc.tuple(names, secret).map(([name, s]) => [[name, s] as unknown, s] as const),
		);
		const wrap = fc.array(fc.constantFrom('list', 'details', 'meta', 'x', '[]'), { maxLength: 5 });
		fc.assert(
			fc.property(pair, wrap, fc.constantFrom('user', 'model'), ([shape, s], path, audience) => {
				let value: unknown = shape;
				for (const step of path) value = step === '[]' ? [value] : { [step]: value };
				const shown = JSON.stringify(
					gateJson(undefined, { ...CARD, extra: value }, audience as 'user'),
				);
				return !shown.includes(s);
			}),
			{ numRuns: 200 },
		);
	});
});

/** What a text gives back of a key: wrapped base64 blocks decoded, hex bytes read. */
function readsBack(text: string, key: string): boolean {
	const blocks = text.match(/[A-Za-z0-9+/=]{4,}(?:(?:\\{0,3}[rn]|\s)+[A-Za-z0-9+/=]{4,})+/g) ?? [];
	for (const block of blocks) {
		const joined = block.replace(/\\{1,3}[rn]|\s/g, '');
		for (let start = 0; start < 4; start++) {
			if (Buffer.from(joined.slice(start), 'base64').toString('latin1').includes(key)) return true;
		}
	}
	const hex = text
		.replace(/\\+x/g, '')
		.replace(/[^0-9a-fA-F]/g, '')
		.toLowerCase();
	return hex.includes(Buffer.from(key).toString('hex'));
}

describe('finding 2: the API key wrapped in base64 lines or in separated hex is hidden', () => {
	const KEY = API_KEY;
	beforeEach(() => rememberCredential({ apiKey: KEY, baseUrl: BASE_URL }));
	const dump = Buffer.from(
		JSON.stringify({ headers: { 'x-api-key': KEY, accept: 'application/json' } }),
	)
		.toString('base64')
		.replace(/(.{76})/g, '$1\n');
	const hexBytes = Buffer.from(KEY).toString('hex').match(/../g)!;

	for (const [name, text] of [
		['MIME base64, \\n', dump],
		['MIME base64, \\r\\n', dump.replace(/\n/g, '\r\n')],
		['MIME base64, JSON-escaped', JSON.stringify(dump)],
		['hex with colons', hexBytes.join(':')],
		['hex with spaces', hexBytes.join(' ')],
		['hex upper with dashes', hexBytes.join('-').toUpperCase()],
		['hex as \\x escapes', hexBytes.map((byte) => `\\x${byte}`).join('')],
	] as const) {
		for (const audience of ['user', 'model'] as const) {
			it(`${name}, for the ${audience}`, () => {
				expect(readsBack(text, KEY)).toBe(true);
				expect(readsBack(gateText(undefined, `dump: ${text} end`, audience), KEY)).toBe(false);
				const shown = JSON.stringify(
					gateJson(undefined, { details: { requestDump: text } }, audience),
				);
				expect(readsBack(JSON.parse(shown).details.requestDump, KEY)).toBe(false);
			});
		}
	}

	it('the node error (description, context)', async () => {
		nock(BASE_URL)
			.get('/wallets/balance')
			.reply(401, {
				statusCode: 401,
				error: 'Unauthorized',
				errorCode: 'INVALID_API_KEY',
				message: `bytes: ${hexBytes.join(' ')} / ${hexBytes.map((b) => `\\x${b}`).join('')}`,
				details: { requestDump: dump, keyHex: hexBytes.join(':') },
				requestId: 'r1',
			});
		const error = await runNodeError({
			parameters: { resource: 'companyWallet', operation: 'getBalance' },
		});
		const stored = [
			error.message,
			String(error.description),
			JSON.stringify(error.context),
			JSON.stringify((error as unknown as { toJSON: () => unknown }).toJSON()),
		].join(' ');
		expect(stored).toContain('INVALID_API_KEY');
		expect(readsBack(stored, KEY)).toBe(false);
		expect(readsBack(JSON.stringify(gateError(undefined, error, 'model').context), KEY)).toBe(
			false,
		);
	});

	it('generated: base64 of any text holding the key, wrapped at any width and alignment', () => {
		fc.assert(
			fc.property(
				fc.string({ maxLength: 40 }),
				fc.string({ maxLength: 40 }),
				fc.integer({ min: 4, max: 120 }),
				fc.constantFrom('\n', '\r\n', '\\n', '\\r\\n'),
				fc.constantFrom('user', 'model'),
				fc.integer({ min: 0, max: 3 }),
				(before, after, width, newline, audience, drop) => {
					// A dump cut anywhere: the key at any of base64's alignments in the block.
					const base64 = Buffer.from(`${before}${KEY}${after}`).toString('base64').slice(drop);
					const wrapped = base64.match(new RegExp(`.{1,${width}}`, 'g'))!.join(newline);
					const shown = gateText(undefined, `dump ${wrapped} end`, audience as 'user');
					return !readsBack(shown, KEY);
				},
			),
			{ numRuns: 300 },
		);
	});

	it('generated: hex bytes with any separator, any case', () => {
		fc.assert(
			fc.property(
				fc.constantFrom(':', ' ', '-', '.', '\\x', ', '),
				fc.boolean(),
				fc.string({ maxLength: 8 }),
				(separator, upper, before) => {
					const bytes = Buffer.from(`${before}${KEY}`).toString('hex').match(/../g)!;
					let hex =
						separator === '\\x' ? bytes.map((b) => `\\x${b}`).join('') : bytes.join(separator);
					if (upper) hex = hex.toUpperCase();
					return !readsBack(gateText(undefined, `hex ${hex} end`), KEY);
				},
			),
			{ numRuns: 200 },
		);
	});
});

describe('finding 6: a PIN or CVV URL-encoded in a link, or with spaces between its digits', () => {
	const texts: [string, string, string[]][] = [
		[
			'a link inside a parameter',
			'https://issuer.example/activate?next=%2Fconfirm%3Fpin%3D4821%26cvv%3D123',
			['4821', '123'],
		],
		[
			'encoded twice',
			'https://issuer.example/activate?next=%252Fconfirm%253Fpin%253D4821%2526cvv%253D123',
			['4821', '123'],
		],
		['a Russian text', 'Пин-код карты: 4 8 2 1, CVV 1 2 3', ['4 8 2 1', '1 2 3']],
		[
			'an English text',
			'Your card PIN is 4-8-2-1 and the CVV code is 7 3 9.',
			['4-8-2-1', '7 3 9'],
		],
	];
	for (const [name, text, secrets] of texts) {
		for (const audience of ['user', 'model'] as const) {
			it(`${name}, for the ${audience}`, () => {
				const shown = gateJson(
					undefined,
					{ ...CARD, activationUrl: text, smsText: text },
					audience,
				) as IDataObject;
				for (const field of ['activationUrl', 'smsText']) {
					for (const secret of secrets) expect(String(shown[field])).not.toContain(secret);
				}
			});
		}
	}

	it('what is no PIN stays: an encoded link without one, digits spaced without a PIN word', () => {
		const link = 'https://issuer.example/activate?next=%2Fconfirm%3Fstep%3D2%26lang%3Dru';
		const text = 'Шаг 1 2 3 из 4 8 2 1';
		expect(gateJson(undefined, { ...CARD, activationUrl: link, smsText: text })).toEqual({
			...CARD,
			activationUrl: link,
			smsText: text,
		});
	});

	it('generated: a PIN or CVV with any single separator between its digits, in a sentence', () => {
		fc.assert(
			fc.property(
				fc.constantFrom('PIN', 'ПИН-код', 'pin code', 'CVV', 'CVC', 'код CVC'),
				fc.constantFrom(' ', ': ', ' is ', ' — '),
				fc.stringMatching(/^\d{4,6}$/),
				fc.constantFrom(' ', '-', '\u00a0', '.'),
				fc.constantFrom('user', 'model'),
				(word, between, digits, gap, audience) => {
					const written = digits.split('').join(gap);
					const shown = gateText(
						undefined,
						`Ваш ${word}${between}${written}, спасибо`,
						audience as 'user',
					);
					return (
						!shown.includes(written) && !shown.includes(digits.slice(0, 3).split('').join(gap))
					);
				},
			),
			{ numRuns: 200 },
		);
	});

	it('generated: a PIN or CVV parameter in a link nested once or twice in another', () => {
		fc.assert(
			fc.property(
				fc.constantFrom('pin', 'cvv', 'cvc', 'pinCode', 'cardPin'),
				fc.stringMatching(/^\d{3,6}$/),
				fc.integer({ min: 1, max: 2 }),
				fc.constantFrom('user', 'model'),
				(name, digits, times, audience) => {
					let inner = `/confirm?step=1&${name}=${digits}`;
					for (let n = 0; n < times; n++) inner = encodeURIComponent(inner);
					const link = `https://issuer.example/a?next=${inner}`;
					const shown = gateJson(undefined, { ...CARD, activationUrl: link }, audience as 'user');
					const read = decodeURIComponent(decodeURIComponent(String(shown.activationUrl)));
					return !read.includes(`=${digits}`);
				},
			),
			{ numRuns: 200 },
		);
	});
});

describe('finding 7: a short secret of an answer is masked in the texts of the same answer', () => {
	const answer = {
		...CARD,
		pin: '4821',
		activation: { code: '4821', message: 'Код активации: 4821' },
		smsText: 'Your card code 4821',
	};
	for (const audience of ['user', 'model'] as const) {
		it(`the PIN held by \`pin\`, in texts beside it, for the ${audience}`, () => {
			expect(JSON.stringify(gateJson(undefined, answer, audience))).not.toContain('4821');
			const items = gateItems(undefined, [[{ json: answer }]], audience);
			expect(JSON.stringify(items)).not.toContain('4821');
		});
	}

	it('a CVV of the answer, in its message', () => {
		const shown = gateJson(undefined, { ...CARD, cvv: 739, note: 'check 739 on the back' });
		expect(JSON.stringify(shown)).not.toContain('739');
	});

	it('only as a whole digit run: inside a longer number, a decimal, a grouped number, a word, it stays', () => {
		const texts = [
			'order 48210',
			'order 14821',
			'paid 4821.50 RUB',
			'paid 12,4821 USDT',
			'phone 900 4821 123',
			'ref A4821',
			'card •••• 4821',
		];
		const shown = gateJson(undefined, {
			...CARD,
			maskedPan: '411111******4821',
			pin: '4821',
			amountRub: 4821,
			notes: texts,
		}) as IDataObject;
		expect(shown.notes).toEqual(texts);
		expect(shown.amountRub).toBe(4821);
		expect(shown.maskedPan).toBe('411111******4821');
		expect(shown.pin).not.toBe('4821');
	});

	it('not in another answer: the digits mean nothing without the field beside them', () => {
		const other = { ...CARD, smsText: 'Your card code 4821' };
		expect(gateJson(undefined, other)).toEqual(other);
	});

	it('generated: a PIN or CVV of the answer, anywhere in a text beside it, as a whole run', () => {
		fc.assert(
			fc.property(
				fc.constantFrom('pin', 'cvv', 'cardPin', 'pinCode'),
				fc.stringMatching(/^\d{3,6}$/),
				// A currency sign before the digits, or a unit after them, makes them an amount (outside
				// read r20-data, finding 3b: `Лимит 250 USD` beside the CVV 250): kept apart here.
				fc
					.string({ maxLength: 20 })
					.map((s) => s.replace(/[\p{N}\p{L}_•*.,\s-]+$/u, ''))
					.map((s) => (/[$€₽£¥]$/u.test(s) ? `${s}!` : s)),
				fc
					.string({ maxLength: 20 })
					.map((s) => s.replace(/^[\p{N}\p{L}_.,\s-]+/u, ''))
					.map((s) => (/^[%₽$€]/u.test(s) ? `!${s}` : s)),
				fc.constantFrom('user', 'model'),
				(field, digits, before, after, audience) => {
					const text = `${before} ${digits} ${after}`;
					const shown = gateJson(
						undefined,
						{ ...CARD, [field]: digits, message: text },
						audience as 'user',
					);
					return !String(shown.message).includes(` ${digits} `);
				},
			),
			{ numRuns: 200 },
		);
	});
});

describe('finding 9: the model gets decimals and transaction hashes in a text as they are', () => {
	const HASH = 'a3f50123456789abcdef0123456789abcdef0123456789abcdef0123456789ab';
	const payout = {
		id: 'po_1',
		status: 'fail',
		amountRub: 5000,
		chargedUsdt: '51.4833240611',
		requisiteType: 'phone',
		requisite: '+79001234567',
		comment: `Returned 51.4833240611 USDT at rate 97.1194567890; refund tx https://tronscan.org/#/transaction/${HASH}`,
	};

	it('a payout comment: its amounts and the tronscan link whole', () => {
		const shown = gateJson(undefined, payout, 'model') as IDataObject;
		expect(shown.comment).toBe(payout.comment);
		expect(shown.requisite).not.toBe(payout.requisite);
	});

	it('an error message with decimals', () => {
		const text = 'Недостаточно средств: доступно 12.3456789012 USDT, нужно 51.4833240611 USDT';
		expect(gateText(undefined, text, 'model')).toBe(text);
	});

	it('a hash in a query or as 0x…, for the model', () => {
		for (const link of [
			`https://tronscan.org/#/transaction/${HASH}`,
			`https://etherscan.io/tx/0x${HASH}`,
			`https://explorer.example/tx?hash=${HASH}`,
		]) {
			expect(gateText(undefined, `see ${link}`, 'model')).toBe(`see ${link}`);
		}
	});

	it('phones and card numbers in a text are still masked for the model', () => {
		for (const text of [
			'call +79001234567 now',
			'call 79001234567 now',
			'phones 79001234567,79001234568',
			'card 4111111111111111',
			'requisite 2200123456789012',
		]) {
			const shown = gateText(undefined, text, 'model');
			expect(shown).not.toMatch(/\d{10,}/);
		}
	});

	it('a decimal whose fraction passes the card checksum keeps the raw body exact', async () => {
		const fraction = '3955894714034447869';
		const body = JSON.stringify({
			event: 'payout.status_changed',
			payoutId: 'p1',
			externalId: 'e1',
			status: 'success',
			comment: `rate 1.${fraction} applied`,
		});
		const { item } = await deliver({ body, parameters: { options: { includeRawBody: true } } });
		expect(item!.rawBody).toBe(body);
		expect(item!.rawBodyMasked).toBe(false);
		expect(gateText(undefined, `rate 1.${fraction} applied`)).toBe(`rate 1.${fraction} applied`);
	});

	it('generated: a decimal with a long fraction, in a text, for both readers', () => {
		fc.assert(
			fc.property(
				fc.stringMatching(/^[1-9]\d{0,8}$/),
				fc.stringMatching(/^\d{10,19}$/),
				fc.constantFrom('.', ','),
				fc.constantFrom('user', 'model'),
				(whole, fraction, point, audience) => {
					const text = `Списано ${whole}${point}${fraction} USDT`;
					return gateText(undefined, text, audience as 'user') === text;
				},
			),
			{ numRuns: 300 },
		);
	});

	it('generated: a 64-hex transaction hash in a link path, fragment or query, for the model', () => {
		fc.assert(
			fc.property(
				fc.stringMatching(/^[0-9a-f]{64}$/),
				fc.constantFrom(
					'https://tronscan.org/#/transaction/',
					'https://etherscan.io/tx/0x',
					'https://x.example/tx?hash=',
				),
				(hash, prefix) => {
					const text = `tx ${prefix}${hash}`;
					return gateText(undefined, text, 'model') === text;
				},
			),
			{ numRuns: 100 },
		);
	});
});
