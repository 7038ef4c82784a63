import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { cutWhole, gateText, quoteJson, quoteText } from '../../nodes/shared/gate';
import { deliver } from './helpers/trigger';
import { BASE_URL, runNodeError } from './helpers/n8n';
import { readServiceError } from '../../nodes/shared/transport/serviceError';
import { FakeService, runPollError } from './helpers/poll';

/*
 * Outside read r5-data, findings 1–3: a PIN, a CVV, a key or a card number written in free text
 * (a body that is not JSON, an error message, a webhook's comment) is masked wherever the text
 * reaches the user; and a quote cut to a length is masked whole first, its cut never leaving
 * the first characters of a secret.
 */

const PIN = '482913';
const PAN = '5500005555555559';
/** A member's key as the service writes it (a dummy): prefix, live marker, random part. */
const LIVE_MARKED = ['mk', 'live', '9f8e7d6c5b4a39281706f5e4d3c2b1a0'].join('_');

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe('secrets written in free text (finding 1)', () => {
	it.each([
		[`PIN: ${PIN}`, PIN],
		[`pin=${PIN}`, PIN],
		['card PIN 4829 rejected by bank', '4829'],
		['PIN 4829 is not valid for this card', '4829'],
		['pin code 4829', '4829'],
		[`{"cardPin":"${PIN}"`, PIN],
		['cvv 739 for card', '739'],
		['CVV2: 739', '739'],
		[`member key ${LIVE_MARKED} revoked`, LIVE_MARKED],
		[`the key ${LIVE_MARKED}`, LIVE_MARKED],
		[`api_key=${LIVE_MARKED}`, LIVE_MARKED],
		[`Authorization: Bearer ${LIVE_MARKED}`, LIVE_MARKED],
		[`card ${PAN} declined`, PAN],
	])('%j is masked', (text, secret) => {
		expect(gateText(undefined, text)).not.toContain(secret);
	});

	it.each([
		'order 12345 amount 1500.50 USDT',
		'spin 2024 and pinned 12345 items',
		'deposit 9007199254740993 of USDT-TRC20',
		'shipping 4829 units',
		'pinboard 2026-01-01',
		'mk_order_20261142',
	])('ordinary text %j stays as it is', (text) => {
		expect(gateText(undefined, text)).toBe(text);
	});

	it.each([
		['PIN: 482913', PIN],
		['pin=4829 must not be sent', '4829'],
		[`member key ${LIVE_MARKED} revoked`, LIVE_MARKED],
	])('a body that is not JSON (%j) reaches no error text', async (body, secret) => {
		nock(BASE_URL).get('/cards/c1').reply(400, body, { 'Content-Type': 'text/plain' });
		const error = await runNodeError({
			parameters: { resource: 'card', operation: 'get', cardId: 'c1' },
		});
		expect(errorJson(error)).not.toContain(secret);
		expect(error.message + String(error.description)).not.toContain(secret);
	});

	it('a webhook comment quoting a PIN is masked in the item', async () => {
		const result = await deliver({
			body: {
				event: 'payout.status_changed',
				payoutId: 'p-1',
				status: 'fail',
				requisiteType: 'phone',
				requisite: '+79160000000',
				comment: 'card PIN 4829 rejected by bank; pin=4829',
				refunded: true,
				createdAt: '2026-01-01T00:00:00Z',
				updatedAt: '2026-01-01T00:05:00Z',
			},
		});
		const text = JSON.stringify(result.item);
		expect(text).toContain('rejected by bank');
		expect(text).not.toContain('4829');
	});
});

/**
 * The error as n8n saves it, without the `timestamp` n8n stamps on it (Date.now(), not from the
 * answer): its 13 digits hold a run of a secret's digits now and then (`…4829…`, `…12345…`),
 * which made these checks fail by the clock alone.
 */
function errorJson(error: object): string {
	return JSON.stringify(error, (key, value: unknown) =>
		key === 'timestamp' && typeof value === 'number' ? undefined : value,
	);
}

/** The longest run of the secret's characters (from `from`) that `text` shows. */
function longestPart(text: string, secret: string, from = 0): number {
	let best = 0;
	for (let i = from; i < secret.length; i++) {
		for (let j = secret.length; j > i + best; j--) {
			if (text.includes(secret.slice(i, j))) {
				best = j - i;
				break;
			}
		}
	}
	return best;
}

describe('a quote cut to a length never shows part of a secret (findings 2 and 3)', () => {
	const LIMIT = 300;
	const SECRETS: Array<[string, string, number]> = [
		['pin', PIN, 2],
		['cardCvv', '739', 2],
		['cardNumberFull', PAN, 4],
		['cardNumber', '5500 0055 5555 5559', 4],
	];

	it.each(SECRETS)('a text body with %s, cut at every position of it', (name, secret, most) => {
		for (let inside = 0; inside <= secret.length; inside++) {
			const head = `upstream error; partial answer: {"cardId":"c1","${name}":"`;
			const body = `${'.'.repeat(LIMIT - head.length - inside)}${head}${secret}","expiry":"12/29"`;
			const quoted = quoteText(body, LIMIT);
			expect(quoted.length).toBeLessThanOrEqual(LIMIT + 1);
			expect(
				longestPart(quoted.replace(/[ -]/g, ''), secret.replace(/\D/g, '')),
			).toBeLessThanOrEqual(most);
		}
	});

	it("the action node's error quotes a text body cut at 300 by no part of a secret in it", async () => {
		const WHSEC = `whsec_${'c0ffee1234567890deadbeef'.repeat(2)}`;
		for (const [name, secret, prefix] of [
			['webhookSecret', WHSEC, 6],
			['pin', PIN, 0],
		] as Array<[string, string, number]>) {
			for (let inside = 1; inside < secret.length; inside++) {
				const head = `upstream error; partial answer: {"cardId":"c1","${name}":"`;
				const body = `${'.'.repeat(LIMIT - head.length - inside)}${head}${secret}"}`;
				nock(BASE_URL).get('/cards/c1').reply(400, body, { 'Content-Type': 'text/plain' });
				const error = await runNodeError({
					parameters: { resource: 'card', operation: 'get', cardId: 'c1' },
				});
				const saved = errorJson(error) + String(error.description);
				expect(saved).toContain('partial answer');
				// At most the last four characters a mask shows (`whsec_…beef`).
				expect(longestPart(saved, secret, prefix)).toBeLessThanOrEqual(4);
			}
		}
	});

	it('readServiceError quotes a text body masked whole before its cut, whoever calls it', () => {
		const WHSEC = `whsec_${'c0ffee1234567890deadbeef'.repeat(2)}`;
		for (let inside = 1; inside < WHSEC.length; inside++) {
			const head = `partial answer: {"webhookSecret":"`;
			const body = `${'.'.repeat(LIMIT - head.length - inside)}${head}${WHSEC}"}`;
			const { serviceMessage } = readServiceError(400, body);
			expect(serviceMessage).toContain('partial answer');
			expect(longestPart(String(serviceMessage), WHSEC, 6)).toBeLessThanOrEqual(4);
		}
	});

	it('a text quoted whole when it fits, and never cut inside a word', () => {
		expect(cutWhole('short text', 300)).toBe('short text');
		expect(cutWhole('aaaa bbbbbbbb', 8)).toBe('aaaa …');
		expect(cutWhole('aaaa bbbbbbbb', 5)).toBe('aaaa …');
		expect(cutWhole('card 5500 0055 5555 5559', 15)).toBe('card …');
	});

	it("a quote shows no key's kept end (`whsec_…beef` as `whsec_…`)", () => {
		const WHSEC = `whsec_${'c0ffee1234567890deadbeef'.repeat(2)}`;
		expect(quoteText(`rejected ${WHSEC} for this company`, LIMIT)).toBe(
			'rejected whsec_… for this company',
		);
		expect(quoteJson(undefined, { webhookSecret: WHSEC }, LIMIT)).not.toContain('beef');
	});

	const JSON_SECRETS: Array<[string, string, number]> = [
		['webhookSecret', `whsec_${'c0ffee1234567890deadbeef'.repeat(2)}`, 6],
		['apiKey', `${LIVE_MARKED}ZZQQ`, 8],
		['cardNumberFull', PAN, 0],
		['pin', PIN, 0],
	];

	it.each(JSON_SECRETS)(
		'a JSON answer with %s, cut at every position of it',
		(name, secret, prefix) => {
			for (let inside = 1; inside < secret.length; inside++) {
				const probe = JSON.stringify({ meta: '', [name]: secret });
				const pad = LIMIT - probe.indexOf(secret) - inside;
				const body: IDataObject = {
					meta: 'x'.repeat(pad),
					[name]: secret,
					data: { usdt: '10.00' },
				};
				const quoted = quoteJson(undefined, body, LIMIT);
				// At most the last four characters a mask shows (`whsec_…beef`, `•••• 5559`).
				expect(longestPart(quoted, secret, prefix)).toBeLessThanOrEqual(4);
			}
		},
	);

	it("the poll trigger's balance error quotes no part of a secret", async () => {
		const service = new FakeService();
		service.balance = { meta: 'x'.repeat(262), cardNumberFull: PAN, data: { usdt: '10.00' } };
		const error = await runPollError({
			parameters: { watch: ['balance'], balanceThreshold: 100 },
		});
		expect(
			longestPart(JSON.stringify({ ...error, message: error.message }), PAN),
		).toBeLessThanOrEqual(4);
	});
});
