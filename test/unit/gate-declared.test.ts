// A payout's requisite is what its requisiteType declares, whatever the number looks like: a card
// number is masked for the user even when it fails the card checksum (the service does not
// promise Luhn-valid numbers), and a phone is kept for the user. Found while taking the Resolve
// Outcome picture: a card requisite that is not Luhn-valid came out in full.
import type { IDataObject } from 'n8n-workflow';
import nock from 'nock';

import { BASE_URL, runNode } from './helpers/n8n';

/** 16 digits that fail the card checksum (Luhn). */
const NOT_LUHN_CARD = '2200700011114321';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

function payout(requisiteType: string, requisite: string): IDataObject {
	return {
		id: 'po_declared_1',
		externalId: 'inv-2077',
		status: 'success',
		amountRub: 1500,
		chargedUsdt: 17.2,
		rate: 87.2,
		requisiteType,
		requisite,
		createdAt: '2026-11-21T12:00:00.000Z',
	};
}

async function readPayout(record: IDataObject): Promise<IDataObject> {
	nock(BASE_URL).get('/payouts/po_declared_1').reply(200, record);
	const { output } = await runNode({
		parameters: { resource: 'payout', operation: 'get', payoutId: 'po_declared_1' },
	});
	return output[0].json;
}

describe('a requisite is masked by its declared type, not by its look', () => {
	it('a card requisite that fails the checksum is masked for the user', async () => {
		const out = await readPayout(payout('card', NOT_LUHN_CARD));
		expect(JSON.stringify(out)).not.toContain(NOT_LUHN_CARD);
		expect(out.requisite).toBe('•••• 4321');
		expect(out.id).toBe('po_declared_1');
	});

	it('a phone requisite is kept for the user', async () => {
		const out = await readPayout(payout('phone', '+79991234567'));
		expect(out.requisite).toBe('+79991234567');
	});
});
