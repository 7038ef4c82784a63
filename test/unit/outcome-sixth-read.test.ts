import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { BASE_URL, runTool } from './helpers/n8n';

/**
 * Issue 44.2: the sixth outside read's money cases, written before the fix. A detail the found
 * record does not show is not evidence; a masked detail is compared by the digits it shows.
 */

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const PAID_45000 = {
	id: 'po-8001',
	externalId: 'inv-8001',
	status: 'success',
	amountRub: 45000,
	chargedUsdt: 461.54,
	rate: 97.5,
	requisiteType: 'card',
	requisite: '2200701234565678',
	bankId: null,
	bank: null,
	recipientFirstName: null,
	recipientLastName: null,
	createdAt: '2026-11-28T09:00:00.000Z',
};

/** The payout listing as a service that shows no amounts and masks the requisite would give it. */
function listed(record: IDataObject): IDataObject {
	const rest = { ...record };
	for (const field of ['amountRub', 'chargedUsdt', 'rate']) delete rest[field];
	return rest;
}

function payout(amountRub: string, requisiteType: string, requisite: string, reference: string) {
	return runTool({
		parameters: {
			resource: 'payout',
			operation: 'create',
			amountRub,
			requisiteType,
			requisite,
			agentMayMoveMoney: true,
			paymentReference: reference,
		},
	});
}

describe('a detail the found record does not show is not evidence', () => {
	it('a corrected invoice (54,000 after 45,000 paid, listing without amounts) is not "already made"', async () => {
		nock(BASE_URL)
			.get('/payouts')
			.query(true)
			.reply(200, { payouts: [listed(PAID_45000)], total: 1 });
		const byId = nock(BASE_URL).get('/payouts/po-8001').reply(200, PAID_45000);
		let created = 0;
		nock(BASE_URL)
			.post('/payouts')
			.reply(201, () => {
				created++;
				return { ...PAID_45000, amountRub: 54000 };
			});
		const { output } = await payout('54000', 'card', '2200 7012 3456 5678', 'INV-8001');
		expect(byId.isDone()).toBe(true);
		expect(output[0].repeated).toBeUndefined();
		expect(JSON.stringify(output[0])).not.toMatch(/already made/);
		expect(JSON.stringify(output[0])).toMatch(/PAYMENT_REFERENCE_CONFLICT/);
		expect(JSON.stringify(output[0])).toMatch(/45000/);
		expect(created).toBe(0);
	});

	it('when the full record does not show the amount either, the answer is unknown, never "already made"', async () => {
		nock(BASE_URL)
			.get('/payouts')
			.query(true)
			.reply(200, { payouts: [listed(PAID_45000)], total: 1 });
		nock(BASE_URL).get('/payouts/po-8001').reply(200, listed(PAID_45000));
		let created = 0;
		nock(BASE_URL)
			.post('/payouts')
			.reply(201, () => {
				created++;
				return PAID_45000;
			});
		const { output } = await payout('54000', 'card', '2200701234565678', 'INV-8001');
		expect(output[0].repeated).toBeUndefined();
		const text = JSON.stringify(output[0]);
		expect(text).not.toMatch(/already made/);
		expect(text).toMatch(/amountRub/);
		expect(text).toMatch(/PAYMENT_REFERENCE_UNPROVEN/);
		expect(text).toMatch(/"alreadyMade":"unknown"/);
		expect(created).toBe(0);
	});
});

describe('a masked detail is compared by the digits the mask shows (agreeing digits are no proof: r4 F6)', () => {
	it('a repeat of the same card payout, the service showing the card masked even by its ID: unproven, nothing sent, never "already made"', async () => {
		const masked = { ...PAID_45000, requisite: '220070******5678' };
		nock(BASE_URL)
			.get('/payouts')
			.query(true)
			.reply(200, { payouts: [masked], total: 1 });
		nock(BASE_URL).get('/payouts/po-8001').reply(200, masked);
		let created = 0;
		nock(BASE_URL)
			.post('/payouts')
			.reply(201, () => {
				created++;
				return masked;
			});
		const { output } = await payout('45000', 'card', '2200 7012 3456 5678', 'INV-8001');
		expect(output[0].repeated).toBeUndefined();
		expect(JSON.stringify(output[0])).toMatch(/PAYMENT_REFERENCE_UNPROVEN/);
		expect(created).toBe(0);
	});

	it('a card masked with other digits is a conflict', async () => {
		const masked = { ...PAID_45000, requisite: '220070******9999' };
		nock(BASE_URL)
			.get('/payouts')
			.query(true)
			.reply(200, { payouts: [masked], total: 1 });
		nock(BASE_URL).get('/payouts/po-8001').reply(200, masked);
		const { output } = await payout('45000', 'card', '2200701234565678', 'INV-8001');
		expect(output[0].repeated).toBeUndefined();
		expect(JSON.stringify(output[0])).toMatch(/PAYMENT_REFERENCE_CONFLICT/);
	});

	it.each([
		['+7 999 ***-**-67', '8 999 123-45-67'],
		['8 999 *** ** 67', '+7 999 123 45 67'],
		['+7******4567', '9991234567'],
	])(
		'a payout to a phone the service shows as %s is not proof of this recipient (asked %s): unproven',
		async (shown, asked) => {
			const made = {
				...PAID_45000,
				id: 'po-ph',
				externalId: 'salary-12',
				amountRub: 5000,
				requisiteType: 'phone',
				requisite: shown,
			};
			nock(BASE_URL)
				.get('/payouts')
				.query(true)
				.reply(200, { payouts: [made], total: 1 });
			nock(BASE_URL).get('/payouts/po-ph').reply(200, made);
			const { output } = await payout('5000', 'phone', asked, 'SALARY-12');
			expect(output[0].repeated).toBeUndefined();
			expect(JSON.stringify(output[0])).toMatch(/PAYMENT_REFERENCE_UNPROVEN/);
		},
	);

	it('a masked phone is read as a phone number, not as its last four digits', async () => {
		const made = {
			...PAID_45000,
			id: 'po-ph',
			externalId: 'salary-13',
			amountRub: 5000,
			requisiteType: 'phone',
			requisite: '+7 916 ***-45-67',
		};
		nock(BASE_URL)
			.get('/payouts')
			.query(true)
			.reply(200, { payouts: [made], total: 1 });
		nock(BASE_URL).get('/payouts/po-ph').reply(200, made);
		// Same last four digits, another line (999, not 916).
		const { output } = await payout('5000', 'phone', '+7 999 123-45-67', 'SALARY-13');
		expect(output[0].repeated).toBeUndefined();
		expect(JSON.stringify(output[0])).toMatch(/PAYMENT_REFERENCE_CONFLICT/);
	});
});
