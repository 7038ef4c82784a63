// Outside read r21-data, finding 3 (issue 50): for the AI model, every path segment of 8
// characters or more that mixed letters and digits was hidden as a token, so an order reference
// or an invoice number in a link (`/orders/ORD-2026-0042`, `/invoices/INV20260042`) reached the
// model as `[hidden]`, while docs/ai-agents.md promises identifiers exactly and hides only links
// carrying a token. The token rule (gate/patterns.ts tokenByLook) reads what a token looks like:
// random (many switches between letters and digits or cases, a UUID, a long unbroken run), or
// named by the path word or query parameter before it.
import crypto from 'node:crypto';

import fc from 'fast-check';
import nock from 'nock';

import { gateJson, maskForModel } from '../../nodes/shared/gate';
import { tokenByLook } from '../../nodes/shared/gate/patterns';
import { API_KEY, BASE_URL, runTool } from './helpers/n8n';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

/** Links people write with references in them: each reaches the model exactly. */
const REFERENCE_LINKS = [
	'https://shop.example.com/orders/ORD-2026-0042',
	'https://shop.example.com/invoices/INV20260042',
	'https://wallet.example.com/qr/QR20260042',
	'https://wallet.example.com/qr/wal_20260042',
	'https://erp.example.com/payroll/PAYROLL-11/lines/2026-11-29',
	'https://shop.example.com/orders?orderId=ORD-2026-0042&invoice=INV20260042',
	'https://docs.example.com/guides/getting-started-with-payouts-2026',
	'https://shop.example.com/p/iPhone15/McDonalds',
	'https://cabinet.example.com/password/reset',
	'https://cabinet.example.com/auth/callback',
];

/** Links carrying a token: the token never reaches the model. */
const TOKEN_LINKS: [string, string][] = [
	[
		'https://pay.example.com/t/3f9a1c2e4b6d8f00a1b2c3d4e5f60718',
		'3f9a1c2e4b6d8f00a1b2c3d4e5f60718',
	],
	['https://pay.example.com/s/QwErTyUiOpAsDfGhJk/view', 'QwErTyUiOpAsDfGhJk'],
	['https://pay.example.com/r/a1b2c3d4', 'a1b2c3d4'],
	[
		'https://pay.example.com/d/550e8400-e29b-41d4-a716-446655440000',
		'550e8400-e29b-41d4-a716-446655440000',
	],
	[
		'https://pay.example.com/x/dGhpc19pc19hX3Rva2Vu_Zm9yX3Rlc3Q',
		'dGhpc19pc19hX3Rva2Vu_Zm9yX3Rlc3Q',
	],
	// Named by the path word before it, whatever it looks like.
	['https://cabinet.example.com/password/reset/K7Q2', 'K7Q2'],
	['https://cabinet.example.com/reset/abcdefghijklmnopq', 'abcdefghijklmnopq'],
	['https://cabinet.example.com/verify/Xy12', 'Xy12'],
	['https://cabinet.example.com/api/tokens/tk2026', 'tk2026'],
	['https://cabinet.example.com/invite/ORD-2026-0042', 'ORD-2026-0042'],
	// Named by its query parameter.
	['https://pay.example.com/confirm?code=ORD2026&orderId=ORD-2026-0042', 'ORD2026'],
	['https://pay.example.com/q?sig=INV20260042', 'INV20260042'],
	// Random by look in a query value.
	['https://pay.example.com/q?state=9f8e7d6c5b4a39281706', '9f8e7d6c5b4a39281706'],
];

describe('r21-data finding 3: references in a link reach the model; tokens do not', () => {
	it.each(REFERENCE_LINKS)('%s, as a link field and in a text', (link) => {
		expect(maskForModel({ receiptUrl: link }, [])).toEqual({ receiptUrl: link });
		const comment = `Returned: duplicate, see ${link} and the order`;
		expect(maskForModel({ comment }, [])).toEqual({ comment });
	});

	it.each(TOKEN_LINKS)('%s: its token is hidden, as a link field and in a text', (link, token) => {
		const field = JSON.stringify(maskForModel({ receiptUrl: link }, []));
		const text = JSON.stringify(maskForModel({ comment: `see ${link} now` }, []));
		for (const shown of [field, text]) {
			expect(shown).not.toContain(token);
			expect(shown).toContain('[hidden]');
		}
	});

	it('the user keeps references too (unchanged)', () => {
		for (const link of REFERENCE_LINKS) {
			expect(gateJson(undefined, { receiptUrl: link })).toEqual({ receiptUrl: link });
		}
	});

	it('Payout Get as an AI tool: the comment with links to an order and an invoice', async () => {
		const comment =
			'Returned: duplicate of order ORD-2026-0042, see https://shop.example.com/orders/ORD-2026-0042 and invoice https://shop.example.com/invoices/INV20260042';
		nock(BASE_URL).get('/payouts/po_3301').reply(200, {
			id: 'po_3301',
			externalId: 'PAYROLL-11',
			status: 'fail',
			amountRub: 1500,
			requisiteType: 'phone',
			requisite: '+79161234567',
			failReason: 'other',
			comment,
			refundedAt: '2026-11-29T10:00:00Z',
			createdAt: '2026-11-29T09:00:00Z',
		});
		const { output } = await runTool({
			parameters: {
				resource: 'payout',
				operation: 'get',
				payoutId: { __rl: true, mode: 'id', value: 'po_3301' },
				compactOutput: false,
			},
			credentials: {
				environment: 'staging',
				baseUrl: BASE_URL,
				apiKey: API_KEY,
				webhookSecret: '',
			},
		});
		expect(output[0].comment).toBe(comment);
	});

	it.each([
		['ORD-2026-0042', false],
		['INV20260042', false],
		['PAYROLL-11', false],
		['iPhone15', false],
		['getting-started-with-payouts-2026', false],
		['2026-11-29', false],
		['a1b2c3d4', true],
		['QwErTyUiOp', true],
		['550e8400-e29b-41d4-a716-446655440000', true],
		['companypaymentsdashboardoverview', true],
		['JZBPDZMUJWFBJATHJ', true],
	])('tokenByLook(%s) is %s', (value, token) => {
		expect(tokenByLook(value)).toBe(token);
	});

	it('generated: a random token (base64url, hex, UUID) in any path or query place is hidden', () => {
		// Random bytes drawn from a seed (fast-check's own byte arrays favour zeros, no token's look).
		const bytes = (seed: number, n: number) =>
			crypto.createHash('sha512').update(String(seed)).digest().subarray(0, n);
		const uuid = (seed: number) => {
			const hex = bytes(seed, 16).toString('hex');
			return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`;
		};
		const seed = fc.integer();
		const token = fc.oneof(
			fc
				.tuple(seed, fc.integer({ min: 16, max: 32 }))
				.map(([s, n]) => bytes(s, n).toString('base64url')),
			fc.tuple(seed, fc.integer({ min: 16, max: 31 })).map(([s, n]) => bytes(s, n).toString('hex')),
			seed.map(uuid),
		);
		const place = fc.constantFrom(
			(t: string) => `https://pay.example.com/${t}`,
			(t: string) => `https://pay.example.com/orders/ORD-2026-0042/${t}/receipt`,
			(t: string) => `https://pay.example.com/view?id=${t}&orderId=ORD-2026-0042`,
			(t: string) => `https://pay.example.com/#/receipt/${t}`,
		);
		fc.assert(
			fc.property(token, place, fc.boolean(), (t, at, inText) => {
				const link = at(t);
				const shown = JSON.stringify(
					maskForModel(inText ? { comment: `see ${link}` } : { receiptUrl: link }, []),
				);
				return !shown.includes(t) && shown.includes('ORD-2026-0042') === link.includes('ORD');
			}),
			{ numRuns: 300 },
		);
	});
});
