import nock from 'nock';
import type { INode, INodeParameters, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { CompanyPayments } from '../../nodes/CompanyPayments/CompanyPayments.node';
import { RESOURCE_LOCATOR_VERSION } from '../../nodes/CompanyPayments/resources';
import { PATH_ID_PATTERN, UUID_PATTERN } from '../../nodes/CompanyPayments/common/validation';
import { BASE_URL, runNode, runNodeError } from './helpers/n8n';

const ORDER_ID = '3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b';
const locator = (value: string, mode = 'list') => ({ __rl: true, mode, value });
const description = new CompanyPayments().description;

beforeAll(() => nock.disableNetConnect());
afterAll(() => nock.enableNetConnect());
afterEach(() => {
	expect(nock.pendingMocks()).toEqual([]);
	nock.cleanAll();
});

/** The parameters n8n fills in for a node of this version, the way it loads a saved one. */
function loaded(parameters: INodeParameters, typeVersion: number): INodeParameters {
	const node: INode = {
		id: 'node-1',
		name: 'Company Payments',
		type: 'n8n-nodes-company-payments.companyPayments',
		typeVersion,
		position: [0, 0],
		parameters,
	};
	return NodeHelpers.getNodeParameters(
		description.properties,
		parameters,
		true,
		false,
		node,
		description,
	) as INodeParameters;
}

/** The field of this name that a node of this version shows. */
function shown(resource: string, operation: string, name: string, typeVersion: number) {
	const node = { typeVersion } as INode;
	return description.properties.find(
		(property) =>
			property.name === name &&
			NodeHelpers.displayParameter({ resource, operation }, property, node, description),
	);
}

const FIELDS: Array<[string, string, string]> = [
	['order', 'get', 'orderId'],
	['dispute', 'create', 'orderId'],
	['card', 'get', 'cardId'],
	['card', 'getBalance', 'cardId'],
	['card', 'getSensitiveData', 'cardId'],
	['card', 'getRechargeQuote', 'cardId'],
	['card', 'recharge', 'cardId'],
	['payout', 'get', 'payoutId'],
	['payout', 'cancel', 'payoutId'],
	['member', 'update', 'userId'],
	['member', 'remove', 'userId'],
	['invite', 'revoke', 'inviteId'],
	['userWallet', 'block', 'walletId'],
	['userWallet', 'replace', 'walletId'],
];

describe('record fields: text before version 1.2, resource locators from 1.2 on', () => {
	it('opens new nodes on version 1.2', () => {
		expect(Math.max(...[description.version].flat())).toBe(RESOURCE_LOCATOR_VERSION);
	});

	it.each(FIELDS)('%s → %s: %s', (resource, operation, name) => {
		for (const version of [1, 1.1]) {
			const old = shown(resource, operation, name, version);
			expect(old?.type).toBe('string');
			expect(old?.placeholder).toBeTruthy();
		}
		const field = shown(resource, operation, name, RESOURCE_LOCATOR_VERSION) as INodeProperties;
		expect(field.type).toBe('resourceLocator');
		expect(field.default).toEqual({ mode: 'list', value: '' });
		const [list, byId] = field.modes ?? [];
		expect(list).toMatchObject({ name: 'list', type: 'list' });
		expect(list.typeOptions?.searchable).toBe(true);
		expect(Object.keys(new CompanyPayments().methods.listSearch)).toContain(
			list.typeOptions?.searchListMethod,
		);
		expect(byId).toMatchObject({ name: 'id', type: 'string' });
		expect(byId.placeholder).toBeTruthy();
		expect(byId.validation).toHaveLength(1);
	});

	it('keeps the string value of a workflow saved on version 1.1', () => {
		const parameters = loaded({ resource: 'card', operation: 'get', cardId: 'card_1' }, 1.1);
		expect(parameters.cardId).toBe('card_1');
	});

	it('gives a new 1.2 node an empty From list locator', () => {
		const parameters = loaded({ resource: 'card', operation: 'get' }, RESOURCE_LOCATOR_VERSION);
		expect(parameters.cardId).toMatchObject({ mode: 'list', value: '' });
	});

	it('the By ID patterns say what the execute checks say', () => {
		const pathId = new RegExp(PATH_ID_PATTERN);
		for (const good of ['card_1', ' card 1 ', 'a.b']) expect(pathId.test(good)).toBe(true);
		for (const bad of ['', '  ', '.', '..', ' .. ']) expect(pathId.test(bad)).toBe(false);
		const uuid = new RegExp(UUID_PATTERN);
		expect(uuid.test(ORDER_ID)).toBe(true);
		expect(uuid.test('order-1')).toBe(false);
	});
});

describe('reading a record ID from a string or a locator', () => {
	it.each([
		['a string (versions 1 and 1.1, expressions)', 'card_1'],
		['a From list locator', locator('card_1')],
		['a By ID locator', locator(' card_1 ', 'id')],
	])('Card → Get with %s', async (_label, cardId) => {
		nock(BASE_URL).get('/cards/card_1').reply(200, { id: 'card_1', status: 'assigned' });
		const { output } = await runNode({
			parameters: { resource: 'card', operation: 'get', cardId },
		});
		expect(output[0].json).toMatchObject({ id: 'card_1' });
	});

	it('Payout → Cancel and Member → Remove take the picked record', async () => {
		nock(BASE_URL)
			.post('/payouts/po_1/cancel')
			.reply(200, () => ({
				id: 'po_1',
				status: 'fail',
				failReason: 'cancelled_by_merchant',
				refundedAt: new Date().toISOString(),
			}));
		await runNode({
			parameters: { resource: 'payout', operation: 'cancel', payoutId: locator('po_1') },
		});
		nock(BASE_URL).delete('/members/usr_b').reply(200, { ok: true });
		const { output } = await runNode({
			parameters: { resource: 'member', operation: 'remove', userId: locator('usr_b') },
		});
		expect(output[0].json).toMatchObject({ ok: true, userId: 'usr_b' });
	});

	it('checks a locator value the way the text field is checked, and sends nothing', async () => {
		const dot = await runNodeError({
			parameters: { resource: 'card', operation: 'get', cardId: locator('..', 'id') },
		});
		expect(dot.message).toBe(
			'Card ID must be an ID, not "." or ".." (those would address another endpoint of the service), got ".."',
		);
		const empty = await runNodeError({
			parameters: { resource: 'userWallet', operation: 'block', walletId: locator('') },
		});
		expect(empty.message).toBe('Wallet ID must not be empty, got ""');
		const notUuid = await runNodeError({
			parameters: { resource: 'order', operation: 'get', orderId: locator('order-1', 'id') },
		});
		expect(notUuid.message).toBe('Order ID must be a UUID, got "order-1"');
	});

	it('Order → Get and Dispute → Create read an order locator', async () => {
		nock(BASE_URL).get(`/orders/${ORDER_ID}`).reply(200, { id: ORDER_ID });
		await runNode({
			parameters: { resource: 'order', operation: 'get', orderId: locator(ORDER_ID) },
		});
		nock(BASE_URL)
			.get('/disputes')
			.query({ orderId: ORDER_ID, limit: '1000', offset: '0' })
			.reply(200, []);
		nock(BASE_URL)
			.post(`/orders/${ORDER_ID}/disputes`, { reason: 'Not delivered' })
			.reply(200, { id: 'd1', orderId: ORDER_ID, reason: 'Not delivered' });
		await runNode({
			parameters: {
				resource: 'dispute',
				operation: 'create',
				orderId: locator(ORDER_ID),
				reason: 'Not delivered',
			},
		});
	});
});

describe('permissions from version 1.2: the documented ones picked, others typed', () => {
	const USER = 'usr_b';

	it('sends the picked and the typed permissions together, each once', async () => {
		nock(BASE_URL)
			.patch(`/members/${USER}`, {
				permissions: ['orders.read', 'cards.recharge', 'payouts.create'],
			})
			.reply(200, { userId: USER });
		await runNode({
			typeVersion: RESOURCE_LOCATOR_VERSION,
			parameters: {
				resource: 'member',
				operation: 'update',
				userId: locator(USER),
				updateFields: {
					permissions: ['orders.read', 'cards.recharge'],
					otherPermissions: 'payouts.create, orders.read',
				},
			},
		});
	});

	it('does not take every permission away when nothing is picked; Remove All Permissions does', async () => {
		const error = await runNodeError({
			typeVersion: RESOURCE_LOCATOR_VERSION,
			parameters: {
				resource: 'member',
				operation: 'update',
				userId: locator(USER),
				updateFields: { permissions: [], otherPermissions: '' },
			},
		});
		expect(error.message).toMatch(/must set Role or Permissions/);
		nock(BASE_URL).patch(`/members/${USER}`, { permissions: [] }).reply(200, { userId: USER });
		await runNode({
			typeVersion: RESOURCE_LOCATOR_VERSION,
			parameters: {
				resource: 'member',
				operation: 'update',
				userId: locator(USER),
				updateFields: { permissions: ['orders.read'], removeAllPermissions: true },
			},
		});
	});

	it('Invite → Create sends picked and typed permissions', async () => {
		nock(BASE_URL)
			.post('/members/invites', { permissions: ['members.read', 'reports.read'] })
			.reply(201, { id: 'inv_1', url: 'https://pay.example/invite/t' });
		await runNode({
			typeVersion: RESOURCE_LOCATOR_VERSION,
			parameters: {
				resource: 'invite',
				operation: 'create',
				email: '',
				additionalFields: { permissions: ['members.read'], otherPermissions: 'reports.read' },
			},
		});
	});

	it('shows Permissions as a multi-select of the documented permissions on 1.2 only', () => {
		const collection = (version: number) =>
			shown('member', 'update', 'updateFields', version)?.options as INodeProperties[];
		const permissions = (version: number) =>
			collection(version).find((option) => option.name === 'permissions');
		expect(permissions(1.1)?.type).toBe('string');
		expect(permissions(RESOURCE_LOCATOR_VERSION)?.type).toBe('multiOptions');
		expect(
			(permissions(RESOURCE_LOCATOR_VERSION)?.options ?? []).map(
				(o) => (o as { value: string }).value,
			),
		).toContain('members.role.write');
		expect(collection(RESOURCE_LOCATOR_VERSION).map((option) => option.name)).toContain(
			'otherPermissions',
		);
	});
});
