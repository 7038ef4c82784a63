import nock from 'nock';

import { readRecordId } from '../../nodes/shared/money/recordId';
import {
	datedAt,
	expectUnknownWithSentWrite,
	inProcessRunner,
	isolateMoneyTests,
	moneyRunner,
	readerCreate,
	readerPayout,
} from './helpers/money';
import { BASE_URL } from './helpers/n8n';

/*
 * The twenty-fifth outside read of the money module (/work/outside/r25-money/, issue 49):
 * F2  A record ID made only of invisible characters that are letters or marks (Hangul fillers
 *     U+3164, U+115F, U+1160, U+FFA0, U+034F, variation selectors, the braille blank U+2800) was
 *     an ID: the rule stripped white space, Cf and Cc only. An ID now must hold a printable ASCII
 *     character (U+0021–U+007E) and no control character.
 */
isolateMoneyTests();

const run = inProcessRunner(26_000);
const runTool = moneyRunner({ tool: true });
const at = (ms: number) => new Date(Date.now() + ms).toISOString();

const INVISIBLE: Array<[string, string]> = [
	['a Hangul filler', '\u3164'],
	['a Hangul choseong filler', '\u115f'],
	['a Hangul jungseong filler', '\u1160'],
	['a halfwidth Hangul filler', '\uffa0'],
	['a combining grapheme joiner', '\u034f'],
	['a variation selector-16', '\ufe0f'],
	['a variation selector-256', '\u{e01ef}'],
	['a braille blank', '\u2800'],
	['a Hangul filler between spaces', ' \u3164 '],
	['two fillers and a joiner', '\u3164\u200d\u3164'],
];

const ORDER_QUOTE = '3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b';

/** One Pay QR Code: its quote, then an accept answered with an order whose id is `id`. */
function orderAnsweredWith(id: string) {
	nock(BASE_URL)
		.post('/orders/prepare')
		.reply(
			200,
			{
				id: ORDER_QUOTE,
				amountRub: 500,
				amountUsdt: 5.5,
				merchantName: 'Shop',
				createdAt: at(0),
			},
			datedAt(0),
		);
	nock(BASE_URL)
		.post(`/orders/accept/${ORDER_QUOTE}`)
		.reply(
			200,
			{
				id,
				amountRub: 500,
				amountUsdt: 5.5,
				merchantName: 'Shop',
				status: 'created',
				paymentType: 'nspk',
				externalOrderId: null,
				createdAt: at(50),
			},
			datedAt(0),
		);
}

describe('r25-money F2: an ID holds a printable ASCII character', () => {
	it.each(INVISIBLE)('%s: not an id', (_n, id) => {
		expect(readRecordId({ id }).kind).toBe('notAnId');
	});

	it.each([['заявка'], ['注文'], ['\u00e9\u00e8']])(
		'a text of non-ASCII letters only (%s): not an id (conservative)',
		(id) => {
			expect(readRecordId({ id })).toEqual(
				expect.objectContaining({ kind: 'notAnId', why: expect.stringContaining('ASCII') }),
			);
		},
	);

	it.each([['p-1'], ['12'], ['заявка-1'], ['a b'], ['\u3164x'], ['~']])(
		'control: %j is an id',
		(id) => {
			expect(readRecordId({ id })).toEqual({ kind: 'id', id });
		},
	);

	it.each([['p-1\u0000'], ['p-1\u007f'], ['p-1\u0085']])('%j holds a control character', (id) => {
		expect(readRecordId({ id }).kind).toBe('notAnId');
	});

	it.each([
		['a Hangul filler', '\u3164'],
		['a combining grapheme joiner', '\u034f'],
	])('Payout Create answered with the id %s: unknown with its sentWrite', async (_n, id) => {
		nock(BASE_URL)
			.post('/payouts')
			.reply(200, readerPayout(id, 'inv-r25-f2', at(50)), datedAt(0));
		const [item] = await run(readerCreate('inv-r25-f2'));
		expectUnknownWithSentWrite(item);
	});

	it.each(INVISIBLE.slice(0, 8))(
		'Pay QR Code answered with an order whose id is %s: unknown (node)',
		async (_n, id) => {
			orderAnsweredWith(id);
			const [item] = await run({ resource: 'order', operation: 'pay', qrCode: 'QR-A' });
			expectUnknownWithSentWrite(item);
		},
	);

	it.each(INVISIBLE.slice(0, 8))(
		'Pay QR Code answered with an order whose id is %s: unknown (tool)',
		async (_n, id) => {
			orderAnsweredWith(id);
			const { item } = await runTool({
				resource: 'order',
				operation: 'pay',
				qrCode: 'QR-A',
				paymentReference: 'R1',
				agentMayMoveMoney: true,
			});
			expect(item.paymentOutcome).toBe('unknown');
			expect(item.sentWrite).toEqual(expect.objectContaining({ seal: expect.any(String) }));
		},
	);

	it('control: an order id of ASCII is paid (node)', async () => {
		orderAnsweredWith('7c0e4f1a-2b3d-4e5f-8a9b-0c1d2e3f4a5b');
		const [item] = await run({ resource: 'order', operation: 'pay', qrCode: 'QR-A' });
		expect(item.error).toBeUndefined();
		expect(item.id).toBe('7c0e4f1a-2b3d-4e5f-8a9b-0c1d2e3f4a5b');
	});
});
