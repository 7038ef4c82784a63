import nock from 'nock';

import { BASE_URL, runNode } from './helpers/n8n';

/**
 * Issue 44.5 (its first part): an item that came out `unknown` carries what is needed to find the
 * payment again: the operation, when it was sent, the identity it carries and the details it
 * asked (`sentWrite`). Items whose outcome is known carry none.
 */
beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const PAYOUT = {
	resource: 'payout',
	operation: 'create',
	amountRub: '1500',
	requisiteType: 'card',
	requisite: '2200123456789012',
	additionalFields: { externalId: 'salary-77' },
};

describe('an unknown money item carries its sent write', () => {
	it('Payout Create answered by a gateway 502: operation, sentAt, External ID and details', async () => {
		nock(BASE_URL).post('/payouts').reply(502, '<html>502</html>');
		const before = Date.now();
		const { output } = await runNode({ parameters: PAYOUT, continueOnFail: true });
		const json = output[0].json;
		expect(json.paymentOutcome).toBe('unknown');
		const sent = json.sentWrite as Record<string, unknown>;
		expect(sent).toMatchObject({
			operation: 'payout.create',
			identity: 'salary-77',
			details: { amountRub: 1500, requisiteType: 'card', externalId: 'salary-77' },
		});
		expect(Date.parse(String(sent.sentAt))).toBeGreaterThanOrEqual(before - 1000);
		// The recipient's number as the gate lets an output show it (masked), never in full.
		expect(JSON.stringify(sent)).not.toContain('2200123456789012');
	});

	it('Card Recharge: no identity to look it up by', async () => {
		nock(BASE_URL).post('/cards/recharge').replyWithError({ code: 'ECONNRESET' });
		const { output } = await runNode({
			parameters: { resource: 'card', operation: 'recharge', cardId: 'card_1', targetAmount: '25' },
			continueOnFail: true,
		});
		expect(output[0].json.paymentOutcome).toBe('unknown');
		expect(output[0].json.sentWrite).toMatchObject({
			operation: 'card.recharge',
			identity: null,
			details: { cardId: 'card_1', targetAmount: 25 },
		});
	});

	it('a refused write (not paid) carries none', async () => {
		nock(BASE_URL)
			.post('/payouts')
			.reply(422, {
				statusCode: 422,
				error: 'Unprocessable',
				errorCode: 'INSUFFICIENT_BALANCE',
				message: 'Недостаточно средств',
			});
		// Without an External ID or a key of the user's: nothing names an earlier attempt that could
		// have taken the funds (with one, r5-money F2, it is unknown: money-outside-r5.test.ts).
		const { output } = await runNode({
			parameters: { ...PAYOUT, additionalFields: {} },
			continueOnFail: true,
		});
		expect(output[0].json.paymentOutcome).toBe('not_paid');
		expect(output[0].json.sentWrite).toBeUndefined();
	});
});
