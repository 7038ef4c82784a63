/**
 * n8n's Simplify on the records with more than 10 fields: their Get and Get Many offer it
 * (the node's "Compact Output", off by default in a workflow so saved workflows keep their
 * output, on by default for an AI agent), and a simplified record keeps fields the contract
 * declares for that record.
 */
import nock from 'nock';

import { CompanyPayments } from '../../nodes/CompanyPayments/CompanyPayments.node';
import { compactRecord, toolCatalog } from '../../nodes/CompanyPayments/tool';
import { PACKAGE_FIELDS, RECORDS } from '../../nodes/shared/contract/records';
import type { RecordName } from '../../nodes/shared/contract/records';
import { BASE_URL, createContext, runTool } from './helpers/n8n';

/** The records whose Get and Get Many return them, by operation. */
const RETURNED: Record<string, RecordName> = {
	'order.get': 'order',
	'order.getMany': 'order',
	'payout.get': 'payout',
	'payout.getMany': 'payout',
	'dispute.getMany': 'dispute',
	'card.get': 'card',
	'card.getMany': 'card',
};

const payout = {
	id: 'po_1',
	externalId: 'refund-7',
	status: 'fail',
	amountRub: 1500,
	chargedUsdt: 15.79,
	rate: 95,
	requisiteType: 'phone',
	requisite: '+79990001122',
	bankId: 'b1',
	bank: 'Sber',
	recipientFirstName: 'Ivan',
	recipientLastName: 'P',
	failReason: 'cancelled_by_merchant',
	comment: null,
	refundedAt: '2026-11-21T12:05:00.000Z',
	dispute: null,
	takenAt: null,
	completedAt: '2026-11-21T12:05:00.000Z',
	createdAt: '2026-11-21T12:00:00.000Z',
};

const order = {
	id: '3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b',
	amountUsdt: 10.5,
	amountRub: 1000,
	status: 'success',
	paymentType: 'qr',
	paymentUntil: '2026-11-21T12:10:00.000Z',
	merchantName: 'Shop',
	externalOrderId: 'inv-9',
	completedAt: '2026-11-21T12:03:00.000Z',
	failureReason: null,
	createdAt: '2026-11-21T12:00:00.000Z',
};

describe('Simplify (Compact Output) on the records with more than 10 fields', () => {
	const catalog = toolCatalog();

	it('every Get and Get Many of a record with more than 10 fields offers it', () => {
		const large = (Object.keys(RECORDS) as RecordName[]).filter(
			(record) => Object.keys(RECORDS[record]).length > 10,
		);
		for (const [operation, record] of Object.entries(RETURNED)) {
			if (!large.includes(record)) continue;
			expect({ operation, simplify: Array.isArray(catalog[operation]?.compact) }).toEqual({
				operation,
				simplify: true,
			});
		}
		// The records the issue names are among them.
		expect(large).toEqual(expect.arrayContaining(['order', 'dispute', 'payout']));
	});

	it('a simplified record keeps only fields its record declares in the contract', () => {
		for (const [operation, record] of Object.entries(RETURNED)) {
			const declared = new Set([...Object.keys(RECORDS[record]), ...Object.keys(PACKAGE_FIELDS)]);
			const fields = catalog[operation]?.compact ?? [];
			expect({ operation, unknown: fields.filter((field) => !declared.has(field)) }).toEqual({
				operation,
				unknown: [],
			});
			expect(fields.length).toBeLessThanOrEqual(Object.keys(RECORDS[record]).length + 1);
		}
	});

	it('offers the choice in a workflow (off by default) and as a tool (on by default)', () => {
		const properties = new CompanyPayments().description.properties.filter(
			(property) => property.name === 'compactOutput',
		);
		for (const operation of ['order.get', 'payout.get', 'card.get']) {
			const [resource, value] = operation.split('.');
			const shownFor = properties.filter(
				(property) =>
					property.displayOptions?.show?.resource?.includes(resource) &&
					property.displayOptions?.show?.operation?.includes(value),
			);
			expect(
				shownFor.map((property) => [property.displayOptions?.show?.['@tool'], property.default]),
			).toEqual([
				[[false], false],
				[[true], true],
			]);
		}
	});

	it.each([
		['payout', `/payouts/${payout.id}`, payout, { payoutId: payout.id }],
		['order', `/orders/${order.id}`, order, { orderId: order.id }],
	])(
		'%s Get: whole by default in a workflow, simplified when asked',
		async (resource, path, record, id) => {
			for (const compactOutput of [undefined, true]) {
				nock(BASE_URL).get(path).reply(200, record);
				const context = createContext({
					parameters: { resource, operation: 'get', ...id, compactOutput },
				});
				const [[item]] = await new CompanyPayments().execute.call(context);
				const keys = Object.keys(item.json);
				if (compactOutput) {
					expect(keys.sort()).toEqual([...(catalog[`${resource}.get`].compact ?? [])].sort());
				} else {
					expect(keys).toEqual(expect.arrayContaining(Object.keys(record)));
				}
			}
		},
	);

	it('payout Get as an AI tool: simplified by default', async () => {
		nock(BASE_URL).get(`/payouts/${payout.id}`).reply(200, payout);
		const {
			output: [json],
		} = await runTool({
			parameters: { resource: 'payout', operation: 'get', payoutId: payout.id },
		});
		expect(Object.keys(json).sort()).toEqual([...(catalog['payout.get'].compact ?? [])].sort());
		expect(json).not.toHaveProperty('recipientFirstName');
	});
});

describe('Compact Output: at most 10 fields, whatever the record', () => {
	const catalog = toolCatalog();

	it('no operation lists more than 10 fields (n8n: a simplified record has at most 10)', () => {
		const over = Object.entries(catalog)
			.filter(([, entry]) => (entry.compact?.length ?? 0) > 10)
			.map(([operation, entry]) => `${operation}: ${entry.compact?.length}`);
		expect(over).toEqual([]);
	});

	it('payout Get and Get Many keep status and fundsReturned', () => {
		for (const operation of ['payout.get', 'payout.getMany']) {
			expect(catalog[operation].compact).toEqual(
				expect.arrayContaining(['id', 'status', 'fundsReturned']),
			);
		}
	});

	// The answers' fields are not shown: a service may spell them otherwise.
	const snakeDeposit = {
		deposit_id: 'd1',
		company_id: 'c',
		wallet_address: 'T',
		tx_hash: 'h',
		from_address: 'f',
		amount_usdt: 5,
		fee_usdt: 1,
		credited_usdt: 4,
		token_symbol: 'USDT',
		state: 'completed',
		aml_check_id: 'a',
		aml_result: 'ok',
		sweep_tx_hash: 's',
		created_at: '2026-01-01',
		updated_at: '2026-01-02',
	};
	const otherMember = {
		memberId: 'm1',
		user: { id: 'u1', email: 'a@b.c' },
		roleName: 'admin',
		permissionList: ['members.read'],
		apiKeyPrefix: 'ak_12',
		status: 'active',
		invitedBy: 'u0',
		joinedAt: '2026-01-01',
		lastSeenAt: '2026-01-02',
		createdAt: '2026-01-01',
		updatedAt: '2026-01-02',
		companyId: 'c',
	};

	it.each([
		['companyWallet', 'getDeposits', '/wallets/deposits', { deposits: [snakeDeposit], total: 1 }],
		['member', 'getMany', '/members', { members: [otherMember] }],
	])('%s %s with fields named otherwise: at most 10', async (resource, operation, path, body) => {
		nock(BASE_URL).get(path).query(true).reply(200, body);
		nock(BASE_URL).get(path).query(true).reply(200, { deposits: [], members: [] }).persist();
		const context = createContext({
			parameters: { resource, operation, returnAll: false, limit: 5, compactOutput: true },
		});
		const [[item]] = await new CompanyPayments().execute.call(context);
		const keys = Object.keys(item.json);
		expect(keys.length).toBeGreaterThan(0);
		expect(keys.length).toBeLessThanOrEqual(10);
		nock.cleanAll();
	});

	it('a field spelled in snake_case is kept by the name the service used', () => {
		const compact = compactRecord(snakeDeposit, [
			'id',
			'status',
			'amount',
			'creditedAmount',
			'txHash',
			'createdAt',
			'updatedAt',
		]);
		expect(Object.keys(compact)).toHaveLength(10);
		expect(compact).toMatchObject({
			tx_hash: 'h',
			created_at: '2026-01-01',
			updated_at: '2026-01-02',
		});
		expect(compact).toMatchObject({ deposit_id: 'd1', amount_usdt: 5, credited_usdt: 4 });
	});

	it('a record that matches well is cut to the listed names, in their order', () => {
		expect(compactRecord(payout, ['status', 'id', 'missing'])).toEqual({
			status: 'fail',
			id: 'po_1',
		});
	});

	it('never more than 10, for records of 0 to 40 fields named anyhow', () => {
		for (let size = 0; size <= 40; size++) {
			const record = Object.fromEntries(
				Array.from({ length: size }, (_, index) => [`f${index}_x`, index]),
			);
			const compact = compactRecord(record, ['f1X', 'id', 'status']);
			expect(Object.keys(compact).length).toBe(Math.min(size, 10));
		}
	});
});

describe('Company > Get Profile: Compact Output as for other records', () => {
	const WEBHOOK_SECRET_VALUE = `whsec_${'0a'.repeat(24)}`;
	const profile = {
		id: 'c1',
		name: 'Acme LLC',
		email: 'ops@acme.example',
		inn: '7700000000',
		isActive: true,
		webhookUrl: 'https://n8n.example.com/webhook/x',
		webhookSecret: WEBHOOK_SECRET_VALUE,
		cardsEnabled: true,
		cardsTestMode: false,
		payoutsEnabled: true,
		feePercent: 1.5,
		timezone: 'Europe/Moscow',
		createdAt: '2025-01-01T00:00:00Z',
		updatedAt: '2026-01-01T00:00:00Z',
		ownerId: 'u1',
	};

	it('is offered (off in a workflow, on for an agent)', () => {
		const shown = new CompanyPayments().description.properties.filter(
			(property) =>
				property.name === 'compactOutput' &&
				property.displayOptions?.show?.resource?.includes('company') &&
				property.displayOptions?.show?.operation?.includes('getProfile'),
		);
		expect(shown.map((property) => property.default)).toEqual([false, true]);
	});

	it('at most 10 fields, and it reveals nothing the whole profile hides', async () => {
		const run = async (compactOutput: boolean) => {
			nock(BASE_URL).get('/auth/company/profile').reply(200, profile);
			const context = createContext({
				parameters: { resource: 'company', operation: 'getProfile', compactOutput },
			});
			const [[item]] = await new CompanyPayments().execute.call(context);
			return item.json;
		};
		const whole = await run(false);
		const compact = await run(true);
		expect(Object.keys(compact).length).toBeLessThanOrEqual(10);
		expect(Object.keys(compact)).toEqual(expect.arrayContaining(['id', 'name', 'webhookUrl']));
		for (const [key, value] of Object.entries(compact)) expect(whole[key]).toEqual(value);
		expect(JSON.stringify(compact)).not.toContain(WEBHOOK_SECRET_VALUE.slice(6, -4));
	});
});
