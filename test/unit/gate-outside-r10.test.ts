// Issue 50, outside read r10-data: each finding as it was found, at the door it was found at
// (the node's output and the AI tool's, an error's details, the webhook trigger's item and raw
// body, a gateway echoing a short Base URL user and password, a Webhook Secret with an invisible
// character, a lookup key learned as a secret).
import type { IDataObject } from 'n8n-workflow';
import nock from 'nock';

import { unknownFieldKind } from '../../nodes/shared/contract/records';
import {
	forgetLearnedSecrets,
	gateJson,
	gateText,
	maskForModel,
	rememberCredential,
} from '../../nodes/shared/gate';
import { API_KEY, BASE_URL, runNode, runTool } from './helpers/n8n';
import { deliver, hmacHex } from './helpers/trigger';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

/** `prefix` (15 digits) completed with the digit that makes it pass the card checksum. */
function luhnComplete(prefix: string): string {
	let sum = 0;
	for (let i = 0; i < prefix.length; i++) {
		let digit = Number(prefix[prefix.length - 1 - i]);
		if (i % 2 === 0) digit *= 2;
		sum += digit > 9 ? digit - 9 : digit;
	}
	return `${prefix}${(10 - (sum % 10)) % 10}`;
}

const onlyDigits = (value: unknown) => JSON.stringify(value).replace(/\D/g, '');

describe('finding 1: a card number under a name of a time or a count', () => {
	const NAMES = [
		'panSeq',
		'lastPanTs',
		'cardNumberUpdatedAt',
		'issuerPanVersion',
		'panNonce',
		'cardSequence',
		'panCount',
		'lastCardTs',
	];

	it('a name that names a card or a PAN is never a time or a count', () => {
		for (const name of NAMES)
			expect([name, unknownFieldKind(name).kind]).not.toEqual([name, 'time']);
		for (const name of ['createdAtUs', 'ledgerSeq', 'eventTimestamp', 'retryCount']) {
			expect([name, unknownFieldKind(name).kind]).toEqual([name, 'time']);
		}
	});

	it('card get: text, grouped text and JSON number come out masked, for the node and the tool', async () => {
		const card: IDataObject = {
			id: 'c1',
			status: 'assigned',
			maskedPan: '411111******1111',
			createdAt: '2026-01-01T00:00:00Z',
		};
		const pans: string[] = [];
		NAMES.forEach((name, n) => {
			const pan = luhnComplete(`4000001234567${10 + n}`);
			pans.push(pan);
			const form = n % 3;
			card[name] =
				form === 0 ? pan : form === 1 ? pan.replace(/(\d{4})(?=\d)/g, '$1 ') : Number(pan);
		});
		for (const tool of [false, true]) {
			nock(BASE_URL).get('/cards/c1').reply(200, card);
			const parameters = {
				resource: 'card',
				operation: 'get',
				cardId: { __rl: true, mode: 'id', value: 'c1' },
			};
			const shown = tool
				? (await runTool({ parameters })).output
				: (await runNode({ parameters })).output.map((item) => item.json);
			const digits = onlyDigits(shown);
			for (const pan of pans) expect([tool, pan, digits.includes(pan)]).toEqual([tool, pan, false]);
		}
	});

	it('a time name keeps a plain number only when it can be a time', () => {
		// 2023 in µs and ns, passing the card checksum: kept exactly (r9-data).
		const us = luhnComplete('176437440000000');
		const record = { createdAtUs: Number(us), eventTimestamp: us, ledgerSeq: Number(us) };
		expect(gateJson(undefined, record)).toEqual(record);
		// A Mir or Visa card number read as µs is after 2038: not a time, masked.
		for (const pan of [luhnComplete('220070011234567'), luhnComplete('400000123456710')]) {
			for (const value of [pan, Number(pan), pan.replace(/(\d{4})(?=\d)/g, '$1 ')]) {
				for (const shown of [
					gateJson(undefined, { retryAfterTs: value }),
					maskForModel({ retryAfterTs: value }, []),
				]) {
					expect([value, onlyDigits(shown).includes(pan)]).toEqual([value, false]);
				}
			}
		}
		// Grouped digits are never a time, whatever they would read as: searched as a text is, where
		// a scheme's card number is masked. The µs digits fit no card scheme (17…, 16 digits) and
		// stay as written (outside read r17-data, finding 4); a Visa's grouped so is masked.
		const grouped = us.replace(/(\d{4})(?=\d)/g, '$1 ');
		expect(gateJson(undefined, { ledgerClosedAt: grouped })).toEqual({ ledgerClosedAt: grouped });
		const visa = luhnComplete('400000123456710');
		const visaGrouped = visa.replace(/(\d{4})(?=\d)/g, '$1 ');
		expect(onlyDigits(gateJson(undefined, { ledgerClosedAt: visaGrouped }))).not.toContain(visa);
		// An ISO time stays.
		expect(gateJson(undefined, { settledAt: '2026-11-21T12:00:00.000Z' })).toEqual({
			settledAt: '2026-11-21T12:00:00.000Z',
		});
	});

	it('error details.retryAfterTs is masked as the description masks it', async () => {
		const pan = luhnComplete('400000123456711');
		nock(BASE_URL)
			.get('/cards/c1')
			.reply(400, {
				statusCode: 400,
				errorCode: 'VALIDATION_ERROR',
				message: 'bad',
				details: { retryAfterTs: pan, issuedAt: Number(pan), lastPanTs: pan },
			});
		const { output } = await runNode({
			parameters: {
				resource: 'card',
				operation: 'get',
				cardId: { __rl: true, mode: 'id', value: 'c1' },
			},
			continueOnFail: true,
		});
		expect(onlyDigits(output)).not.toContain(pan);
	});

	it('the webhook item and its raw body agree: the card number is masked in both', async () => {
		const grouped = '4000 0012 3456 7105';
		const body = `{"event":"card.assigned","externalId":"e1","cardId":"c1","cardNumberUpdatedAt":"${grouped}","panSeq":4000001234567113}`;
		const { item } = await deliver({ body, parameters: { options: { includeRawBody: true } } });
		const text = JSON.stringify(item);
		expect(text).not.toContain(grouped);
		expect(text).not.toContain('4000001234567113');
		// The raw body is withheld because its fields were masked: the note and the fields agree.
		expect(item?.rawBody).toBeNull();
		expect(item?.cardNumberUpdatedAt).toBe('•••• 7105');
	});
});

describe('finding 2: a short Base URL user name and password echoed by a gateway', () => {
	const USER = ['ops', 'bot'].join('');
	const PASSWORD = ['Zq7', '!xw'].join('');
	const credentials = {
		environment: 'staging',
		baseUrl: `https://${USER}:${encodeURIComponent(PASSWORD)}@gw.short.test/api`,
		apiKey: API_KEY,
	};

	it('hidden in the message and the details, for the user and the model', () => {
		// The test's HTTP stand-in cannot send to a URL with a user part (the outside reader's
		// script runs the node end to end): the error body as the node's doors show it once the
		// credential was read, with and without a run.
		const body = {
			statusCode: 403,
			errorCode: 'FORBIDDEN',
			message: `Gateway user ${USER} (password ${PASSWORD}) may not call /api/wallets/balance`,
			details: { user: USER, login: USER, pass: PASSWORD },
		};
		const run = {};
		rememberCredential(credentials, run);
		for (const ctx of [run, undefined]) {
			for (const audience of ['user', 'model'] as const) {
				const text = JSON.stringify(gateJson(ctx, body, audience));
				expect(text).toContain('FORBIDDEN');
				expect(text).toContain('may not call');
				expect([audience, text.includes(USER), text.includes(PASSWORD)]).toEqual([
					audience,
					false,
					false,
				]);
				const description = gateText(ctx, `Details: ${JSON.stringify(body.details)}`, audience);
				expect([description.includes(USER), description.includes(PASSWORD)]).toEqual([
					false,
					false,
				]);
			}
		}
	});

	it('a short user name is not hidden where it is an ordinary word', () => {
		rememberCredential({ baseUrl: 'https://admin:Zq7!xw@gw.short.test/api', apiKey: API_KEY });
		expect(gateText(undefined, 'the admin role is required')).toBe('the admin role is required');
		expect(gateText(undefined, 'login admin refused')).not.toContain('admin');
		expect(gateText(undefined, 'password Zq7!xw refused')).not.toContain('Zq7!xw');
	});
});

describe('finding 3: a Webhook Secret with an invisible character inside', () => {
	const SECRET = `whsec_${'0123456789abcdef'.repeat(2)}`;
	const stored = `${SECRET.slice(0, 20)}\u200b${SECRET.slice(20)}`;

	it('a genuine delivery is verified (the secret read as Update Profile sends it), and a warning names the position', async () => {
		const body = JSON.stringify({
			event: 'order.status_changed',
			orderId: 'o1',
			walletOrderId: 'w1',
			status: 'success',
			amountUsdt: 1,
			amountRub: 90,
			completedAt: null,
			failureReason: null,
			createdAt: '2026-11-21T12:00:00.000Z',
		});
		const { item, logs } = await deliver({
			body,
			webhookSecret: stored,
			signature: hmacHex(body, SECRET),
		});
		expect(item?.orderId).toBe('o1');
		const warned = logs.filter((entry) => entry.level === 'warn').map((entry) => entry.message);
		expect(warned.join('\n')).toMatch(/Webhook Secret.*U\+200B.*position 21/);
		expect(warned.join('\n')).not.toContain(SECRET.slice(8));
	});

	it('Update Profile sends the secret without the invisible character', async () => {
		let sent: unknown;
		nock(BASE_URL)
			.patch('/auth/company/profile', (patch: IDataObject) => {
				sent = patch.webhookSecret;
				return true;
			})
			.reply(200, { id: 'c1' });
		await runNode({
			parameters: {
				resource: 'company',
				operation: 'updateProfile',
				updateFields: { webhookSecret: stored },
			},
		});
		expect(sent).toBe(SECRET);
	});
});

describe('finding 4: a lookup value under a key-ish name is no secret', () => {
	beforeEach(() => forgetLearnedSecrets());

	it('is shown and not learned: later runs of the credential show the word', async () => {
		const params = { resource: 'companyWallet', operation: 'getBalanceHistory', returnAll: true };
		nock(BASE_URL)
			.get('/wallets/balance-history')
			.query(true)
			.reply(200, [
				{
					referenceId: 'r1',
					amount: -5,
					category: { key: 'order_payment', label: 'Order payment' },
					createdAt: '2026-11-01T00:00:00Z',
				},
			])
			.get('/wallets/balance-history')
			.query(true)
			.reply(200, [])
			.persist(false);
		const first = await runNode({ parameters: params });
		expect((first.output[0].json.category as IDataObject).key).toBe('order_payment');
		nock.cleanAll();
		nock(BASE_URL)
			.get('/wallets/balance-history')
			.query(true)
			.reply(200, [
				{
					referenceId: 'r2',
					amount: -7,
					type: 'order_payment',
					description: 'order_payment for order 42',
					createdAt: '2026-11-02T00:00:00Z',
				},
			])
			.get('/wallets/balance-history')
			.query(true)
			.reply(200, []);
		const second = await runNode({ parameters: params });
		expect(second.output[0].json.type).toBe('order_payment');
		expect(second.output[0].json.description).toBe('order_payment for order 42');
	});

	it('a real key under such a name is still masked and learned', () => {
		const key = ['mk', '9f8e7d6c5b4a39281706'].join('_');
		for (const name of ['key', 'memberKey', 'sessionToken', 'lookupToken']) {
			const shown = gateJson(undefined, { [name]: key });
			expect([name, JSON.stringify(shown).includes(key)]).toEqual([name, false]);
		}
		expect(gateJson(undefined, { key: 'order_payment', memberKey: 'wallet.deposit' })).toEqual({
			key: 'order_payment',
			memberKey: 'wallet.deposit',
		});
	});
});
