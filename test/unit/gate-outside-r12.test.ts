// Issue 50, outside read r12-data: each finding as it was found, at the door it was found at.
import type { IDataObject } from 'n8n-workflow';
import nock from 'nock';

import * as gate from '../../nodes/shared/gate';
import {
	DEPTH_CUT_MARKER,
	gateItems,
	gateJson,
	gateText,
	MAX_GATE_DEPTH,
} from '../../nodes/shared/gate';
import { BASE_URL, runNode, runNodeError } from './helpers/n8n';
import { deliver } from './helpers/trigger';

const PAN = ['4276', '3800', '1234', '5679'].join('');
/** Test dummies in the forms the service gives (no real secret). */
const NEW_KEY_DUMMY = ['k_new', '0123456789abcdef'].join('_');
const WHSEC_DUMMY = ['whsec', '0123456789abcdef'.repeat(3)].join('_');

function nested(depth: number, leaf: string): string {
	return '['.repeat(depth) + JSON.stringify(leaf) + ']'.repeat(depth);
}

/** How many levels of lists a value holds before something else. */
function listDepth(value: unknown): number {
	let depth = 0;
	let at = value;
	while (Array.isArray(at)) {
		depth += 1;
		at = at[0];
	}
	return depth;
}

describe('finding 1: a delivery answered 200 and recorded is emitted (a body nested thousands deep)', () => {
	for (const depth of [500, 2100, 5000, 20000]) {
		it(`depth ${depth}: one item, once, the deep part cut with a marker`, async () => {
			const body =
				'{"event":"order.status_changed","orderId":"o-1","status":"success","createdAt":"2026-01-01T00:00:00Z","meta":' +
				nested(depth, PAN) +
				'}';
			const staticData: IDataObject = {};
			const nodeId = `deep-node-${depth}`;
			const first = await deliver({
				body,
				deliveryId: `deep-${depth}`,
				nodeId,
				staticData,
				parameters: { options: { includeRawBody: true } },
			});
			expect(first.response.statusCode).toBe(200);
			expect(first.outputs?.flat()).toHaveLength(1);
			const item = first.item!;
			expect(item.orderId).toBe('o-1');
			expect(item.deliveryId).toBe(`deep-${depth}`);
			const shown = JSON.stringify(item);
			// No card number, below the cut or in the raw body.
			expect(shown).not.toContain(PAN);
			if (depth > MAX_GATE_DEPTH) {
				expect(shown).toContain(DEPTH_CUT_MARKER);
				expect(listDepth(item.meta)).toBeLessThanOrEqual(MAX_GATE_DEPTH);
				expect(item.rawBody).toBeNull();
				expect(item.rawBodyMasked).toBe(true);
			}
			// The retry is a duplicate: the first was the one emission.
			const retry = await deliver({ body, deliveryId: `deep-${depth}`, staticData, nodeId });
			expect(retry.outputs).toBeUndefined();
		});
	}

	it('the action node and poll outputs (gateItems, gateJson) cut the depth too, never overflow', () => {
		const deep = JSON.parse(nested(20000, `card ${PAN}`)) as unknown;
		const [[out]] = gateItems(undefined, [[{ json: { id: 'x', deep } as IDataObject }]]);
		expect(out.json.id).toBe('x');
		expect(JSON.stringify(out.json)).toContain(DEPTH_CUT_MARKER);
		const viaJson = gateJson(undefined, { deep }) as IDataObject;
		expect(JSON.stringify(viaJson)).toContain(DEPTH_CUT_MARKER);
		// A shallow value is unchanged (data exact).
		const shallow = JSON.parse(nested(50, 'ok')) as unknown;
		expect(gateJson(undefined, { shallow })).toEqual({ shallow });
	});

	it('a failure after the 200 still emits an item naming the error, the body withheld', async () => {
		const spy = jest.spyOn(gate, 'gateItems').mockImplementation(() => {
			throw new RangeError('Maximum call stack size exceeded');
		});
		try {
			const staticData: IDataObject = {};
			const first = await deliver({
				body: { event: 'order.status_changed', orderId: 'o-2', comment: `card ${PAN}` },
				deliveryId: 'fails-after-200',
				staticData,
				nodeId: 'fails-node',
			});
			expect(first.response.statusCode).toBe(200);
			expect(first.outputs?.flat()).toHaveLength(1);
			expect(first.item).toMatchObject({
				event: 'order.status_changed',
				deliveryId: 'fails-after-200',
				bodyWithheld: true,
			});
			expect(String(first.item!.error)).toContain('Maximum call stack size exceeded');
			expect(JSON.stringify(first.item)).not.toContain(PAN);
		} finally {
			spy.mockRestore();
		}
	});
});

describe('finding 2: a Luhn-valid card number in text, whatever stands around it or joins its groups', () => {
	const groups = PAN.match(/.{4}/g)!;
	const forms: Record<string, string> = {
		hash: `#${PAN}`,
		numero: `карта №${PAN}`,
		lettersBefore: `card${PAN}`,
		lettersAfter: `${PAN}RUB`,
		underscore: `card_${PAN}`,
		underscoreAfter: `${PAN}_1229`,
		underscoreBoth: `card_${PAN}_x`,
		hex: `card=0x${PAN}`,
		crlf: groups.join('\r\n'),
		brackets: `[${groups.join('][')}]`,
	};
	for (const separator of ['|', ',', ';', '*', '~', "'", '•', '·', ', ']) {
		forms[`joined by ${JSON.stringify(separator)}`] = groups.join(separator);
	}
	for (const [name, form] of Object.entries(forms)) {
		it(`${name}: masked in a text and in a free-text field`, () => {
			const text = `x ${form} y`;
			const digits = (shown: string) => shown.replace(/\D/g, '');
			expect([name, digits(gateText(undefined, text)).includes(PAN)]).toEqual([name, false]);
			const json = gateJson(undefined, { comment: text, note: form });
			expect([name, digits(JSON.stringify(json)).includes(PAN)]).toEqual([name, false]);
		});
	}

	it('not a card: no checksum, an amount, a time in milliseconds, mixed separators', () => {
		for (const text of [
			'order 4276380012345674 done', // fails the checksum
			'sum 1 234 567 890 123 RUB',
			'at 1732147200000 ms',
			'4276-3800;1234|5679',
		]) {
			expect(gateText(undefined, text)).toBe(text);
		}
	});
});

describe("finding 3: the node's own fields keep the service's same-named values under serviceFields", () => {
	beforeAll(() => nock.disableNetConnect());
	afterEach(() => nock.cleanAll());
	const cases: Array<[string, IDataObject, 'get' | 'post', string, IDataObject, string[]]> = [
		[
			'Get Card Number and CVV (masked)',
			{
				resource: 'card',
				operation: 'getSensitiveData',
				cardId: { __rl: true, mode: 'id', value: 'c1' },
				maskSensitiveData: true,
			},
			'get',
			'/cards/c1/sensitive',
			{ cardId: 'c1', cardNumberFull: PAN, cardCvv: '739', expiry: '12/29', masked: 'partial' },
			['masked'],
		],
		[
			'Get Card Number and CVV (unmasked)',
			{
				resource: 'card',
				operation: 'getSensitiveData',
				cardId: { __rl: true, mode: 'id', value: 'c1' },
				maskSensitiveData: false,
			},
			'get',
			'/cards/c1/sensitive',
			{ cardId: 'c1', cardNumberFull: PAN, cardCvv: '739', expiry: '12/29', masked: 'partial' },
			['masked'],
		],
		[
			'Regenerate API Key',
			{ resource: 'company', operation: 'regenerateApiKey' },
			'post',
			'/auth/company/regenerate-key',
			{ apiKey: NEW_KEY_DUMMY, notice: 'old key valid 24h more', apiKeyField: 'svc' },
			['notice', 'apiKeyField'],
		],
		[
			'Rotate Webhook Secret',
			{ resource: 'company', operation: 'rotateWebhookSecret' },
			'post',
			'/auth/company/webhook-secret/rotate',
			{
				webhookSecret: WHSEC_DUMMY,
				notice: 'retries keep the old signature 1h',
			},
			['notice'],
		],
	];
	for (const [name, parameters, method, path, body, moved] of cases) {
		it(`${name}: ${moved.join(', ')} kept under serviceFields, the node's own in place`, async () => {
			nock(BASE_URL)[method](path).query(true).reply(200, body);
			const { output } = await runNode({ parameters });
			const json = output[0].json;
			const kept = json.serviceFields as IDataObject | undefined;
			expect(Object.keys(kept ?? {}).sort()).toEqual([...moved].sort());
			for (const field of moved) expect(json[field]).not.toEqual(body[field]);
		});
	}
});

describe('finding 4: Card → Request keeps every field of the answer, its own outcome and note too', () => {
	beforeAll(() => nock.disableNetConnect());
	afterEach(() => nock.cleanAll());
	const card = {
		id: 'card_1',
		externalId: null,
		status: 'assigned',
		maskedPan: '427638******5679',
		expiry: '12/29',
		assignedAt: '2026-11-29T00:00:00Z',
		createdAt: '2026-11-29T00:00:00Z',
	};
	const cases: Array<[string, IDataObject]> = [
		[
			'assigned',
			{
				status: 'assigned',
				card,
				request: {
					id: 'req_1',
					status: 'fulfilled',
					cardId: 'card_1',
					createdAt: new Date().toISOString(),
				},
			},
		],
		[
			'pending',
			{
				status: 'pending',
				card: null,
				request: { id: 'req_2', status: 'pending', createdAt: new Date().toISOString() },
			},
		],
	];
	for (const [outcome, answer] of cases) {
		it(`${outcome}: reservedUsdt, openingFeeUsdt, balanceAfter kept; service outcome/note under serviceFields`, async () => {
			nock(BASE_URL)
				.post('/cards/request')
				.reply(200, {
					...answer,
					reservedUsdt: 25.5,
					openingFeeUsdt: 5,
					balanceAfter: '1234.5600000000000001',
					outcome: 'svc-outcome',
					note: 'svc-note',
				});
			const { output } = await runNode({ parameters: { resource: 'card', operation: 'request' } });
			const json = output[0].json;
			expect(json).toMatchObject({
				outcome,
				reservedUsdt: 25.5,
				openingFeeUsdt: 5,
				balanceAfter: '1234.5600000000000001',
				serviceFields: { outcome: 'svc-outcome', note: 'svc-note' },
			});
			expect(json.note).not.toBe('svc-note');
		});
	}
});

describe('finding 5: a secret-named field keeps no characters (only a card number alone keeps its last four)', () => {
	beforeAll(() => nock.disableNetConnect());
	afterEach(() => nock.cleanAll());
	const extra: IDataObject = {
		secretWord: 'Malinovka',
		pinBlock: '0412AC89ABCDEF67',
		apiSecret: 'S3cr3tWord99',
		sessionToken: ['tok', '9876543210abc'].join(''),
	};
	const cases: Array<[string, IDataObject, string, IDataObject]> = [
		[
			'card sensitive data (closed)',
			{
				resource: 'card',
				operation: 'getSensitiveData',
				cardId: { __rl: true, mode: 'id', value: 'c1' },
				maskSensitiveData: true,
			},
			'/cards/c1/sensitive',
			{ cardId: 'c1', cardNumberFull: PAN, cardCvv: '739', expiry: '12/29', ...extra },
		],
		[
			'payout (open)',
			{ resource: 'payout', operation: 'get', payoutId: 'po_1' },
			'/payouts/po_1',
			{
				id: 'po_1',
				status: 'pending',
				amountRub: 1,
				chargedUsdt: 1,
				rate: 1,
				requisiteType: 'phone',
				requisite: '+79001234567',
				createdAt: '2026-11-29T00:00:00Z',
				refundedAt: null,
				...extra,
			},
		],
	];
	for (const [name, parameters, path, body] of cases) {
		it(`${name}: no three characters of any such field shown`, async () => {
			nock(BASE_URL).get(path).query(true).reply(200, body);
			const { output } = await runNode({ parameters });
			const json = output[0].json;
			for (const [field, secret] of Object.entries(extra) as Array<[string, string]>) {
				const shown = String(json[field]);
				const parts = Array.from({ length: secret.length - 2 }, (_, i) => secret.slice(i, i + 3));
				expect([field, shown, parts.some((part) => shown.includes(part))]).toEqual([
					field,
					shown,
					false,
				]);
			}
			if (json.cardNumberFull !== undefined) expect(json.cardNumberFull).toContain(PAN.slice(-4));
		});
	}
});

describe("finding 7: a deposit event's externalId the trigger replaces is kept under serviceFields", () => {
	const deposit = {
		event: 'deposit.created',
		depositId: 'dep-1',
		txHash: 'abc',
		walletAddress: 'TXYZ',
		amount: 10.5,
		status: 'new',
		createdAt: '2026-11-29T00:00:00Z',
	};
	for (const externalId of ['', { id: 'u-1' }]) {
		it(`externalId ${JSON.stringify(externalId)}: null in the item, the service's under serviceFields`, async () => {
			const { item } = await deliver({ body: { ...deposit, externalId } });
			expect(item!.externalId).toBeNull();
			expect((item!.serviceFields as IDataObject | undefined)?.externalId).toEqual(externalId);
		});
	}
	it('a text externalId stays in place, no serviceFields', async () => {
		const { item } = await deliver({ body: { ...deposit, externalId: 'user-1' } });
		expect(item!.externalId).toBe('user-1');
		expect(item!.serviceFields).toBeUndefined();
	});
});

describe('finding 6: a Login password echoed in base64 (also email:password) or spelt with spaces', () => {
	beforeAll(() => nock.disableNetConnect());
	afterEach(() => nock.cleanAll());
	const EMAIL = 'a@b.example';
	const PASSWORDS = [['Winter', '2026', 'pass'].join(''), ['Секрет', '2026'].join('')];
	const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
	for (const password of PASSWORDS) {
		const forms = {
			base64: b64(password),
			unpadded: b64(password).replace(/=+$/, ''),
			basicAuth: b64(`${EMAIL}:${password}`),
			spaced: Array.from(password).join(' '),
		};
		for (const [name, form] of Object.entries(forms)) {
			it(`${name} of a ${password.length}-character password is masked in the error`, async () => {
				nock(BASE_URL)
					.post('/auth/company/login')
					.reply(401, {
						statusCode: 401,
						error: 'Unauthorized',
						errorCode: 'INVALID_CREDENTIALS',
						message: `bad credentials: ${form}`,
					});
				const error = await runNodeError({
					parameters: { resource: 'company', operation: 'login', email: EMAIL, password },
				});
				const shown = JSON.stringify({ ...error, message: error.message });
				expect([name, shown.includes(form)]).toEqual([name, false]);
			});
		}
	}
});
