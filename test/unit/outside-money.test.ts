import nock from 'nock';
import type { IDataObject, INode } from 'n8n-workflow';

import { CompanyPayments } from '../../nodes/CompanyPayments/CompanyPayments.node';
import { BASE_URL, createContext } from './helpers/n8n';
import type { ContextOptions } from './helpers/n8n';

/**
 * The outside money test's findings (/work/outside/money/REPORT.md), written before the fixes:
 * a listing that does not show the field a lookup reads proves no absence (F2); an order the
 * service replays for a reused key or reference is never this quote's payment without evidence
 * (F4, F6).
 */
const TOOL_TYPE = 'n8n-nodes-company-payments.companyPaymentsTool';

async function run(options: ContextOptions, tool: boolean) {
	const context = createContext(options);
	const node = context.getNode() as INode;
	if (tool) node.type = TOOL_TYPE;
	node.parameters = { ...(options.parameters as IDataObject) } as INode['parameters'];
	const result = await new CompanyPayments().execute.call(context);
	return result[0].map((item) => item.json);
}

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const PAYOUT = {
	id: 'po-42',
	externalId: 'payroll-2026-11-42',
	status: 'waiting_trader',
	amountRub: 1500,
	chargedUsdt: 15,
	rate: 100,
	requisiteType: 'card',
	requisite: '2200701234565678',
	bankId: null,
	bank: null,
	recipientFirstName: null,
	recipientLastName: null,
	createdAt: '2026-11-28T09:00:00.000Z',
};

function toolPayout() {
	return run(
		{
			parameters: {
				resource: 'payout',
				operation: 'create',
				amountRub: '1500',
				requisiteType: 'card',
				requisite: '2200 7012 3456 5678',
				agentMayMoveMoney: true,
				paymentReference: 'PAYROLL-2026-11-42',
			},
		},
		true,
	);
}

describe('F2: a payout listing that does not show externalId proves no absence', () => {
	it('records without externalId: unproven, nothing sent, never a second payout', async () => {
		const { externalId: _hidden, ...listed } = PAYOUT;
		nock(BASE_URL)
			.get('/payouts')
			.query(true)
			.reply(200, { payouts: [listed], total: 1 });
		// The record read in full does not show it either.
		nock(BASE_URL).get('/payouts/po-42').reply(200, listed);
		let created = 0;
		nock(BASE_URL)
			.post('/payouts')
			.reply(201, () => {
				created++;
				return PAYOUT;
			});
		const output = await toolPayout();
		expect(created).toBe(0);
		const text = JSON.stringify(output[0]);
		expect(text).toMatch(/PAYMENT_REFERENCE_UNPROVEN/);
		expect(text).toMatch(/externalId/);
		expect(output[0].repeated).toBeUndefined();
	});

	it('a record whose listing hides externalId but whose full record carries it is this payout', async () => {
		const { externalId: _hidden, ...listed } = PAYOUT;
		nock(BASE_URL)
			.get('/payouts')
			.query(true)
			.reply(200, { payouts: [listed], total: 1 });
		nock(BASE_URL).get('/payouts/po-42').reply(200, PAYOUT);
		const output = await toolPayout();
		expect(output[0].repeated).toBe(true);
		expect(output[0].id).toBe('po-42');
	});

	it('an empty listing, or records showing other External IDs, is absence: the payout is sent', async () => {
		nock(BASE_URL)
			.get('/payouts')
			.query(true)
			.reply(200, { payouts: [{ ...PAYOUT, id: 'po-1', externalId: 'other' }], total: 1 });
		const post = nock(BASE_URL).post('/payouts').reply(201, PAYOUT);
		const output = await toolPayout();
		expect(post.isDone()).toBe(true);
		expect(output[0].id).toBe('po-42');
		expect(output[0].repeated).toBeUndefined();
	});
});
