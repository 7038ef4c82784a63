import type {
	IDataObject,
	INode,
	INodeParameters,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';
import nock from 'nock';

import { CompanyPayments } from '../../nodes/CompanyPayments/CompanyPayments.node';
import { resources } from '../../nodes/CompanyPayments/resources';
import { HIDDEN, differences, toolCatalog } from '../../nodes/CompanyPayments/tool';
import { normaliseArgument, runsAsAgentTool, toolExternalId } from '../../nodes/shared/money';
import { forgetAllSentWrites } from '../../nodes/shared/money/write';
import { moneyKey, referenceKey } from '../../nodes/shared/money/key';
import type { MoneyContract } from '../../nodes/shared/money';

const PER_ITEM = { key: 'perItem', details: [] } as unknown as MoneyContract;
const toolIdentity = (ctx: Parameters<typeof moneyKey>[0], itemIndex: number) =>
	moneyKey(ctx, itemIndex, PER_ITEM);
import { madeNow } from './helpers/money';
import type { ContextOptions } from './helpers/n8n';
import {
	API_KEY,
	BASE_URL,
	createContext,
	derivedKey,
	runTool,
	TOOL_TYPE,
	toolContext,
} from './helpers/n8n';

const CARD_NUMBER = '2200123456789012';
/** An invite token as the service shows it in links. */
const INVITE_TOKEN = ['inv', '0123456789abcdef01'].join('_');
const WEBHOOK_SECRET = `whsec_${'ab12'.repeat(12)}`;

const payout = {
	id: 'po_1',
	externalId: 'refund-7',
	status: 'waiting_trader',
	amountRub: 1500,
	chargedUsdt: 15.79,
	rate: 95,
	requisiteType: 'card',
	requisite: CARD_NUMBER,
	bankId: null,
	bank: 'Sber',
	recipientFirstName: null,
	recipientLastName: null,
	failReason: null,
	comment: null,
	refundedAt: null,
	dispute: null,
	takenAt: null,
	completedAt: null,
	// Made near the send: a record made well before it proves no Create (money/binding.ts).
	createdAt: madeNow(),
};

const REFERENCE = 'INV-1042';

const createPayout = (extra: IDataObject = {}): IDataObject => ({
	resource: 'payout',
	operation: 'create',
	amountRub: '1500',
	requisiteType: 'card',
	requisite: CARD_NUMBER,
	agentMayMoveMoney: true,
	paymentReference: REFERENCE,
	...extra,
});

/** Payout Create's money contract, as the operation declares it. */
const PAYOUT_CREATE = resources
	.find((resource) => resource.value === 'payout')
	?.operations.find((operation) => operation.value === 'create')?.money as MoneyContract;

/** The External ID a tool call's payout carries: the reference as it names the payment. */
const identityOf = (reference: unknown = REFERENCE, options: Partial<ContextOptions> = {}) =>
	toolExternalId(
		toolContext({
			parameters: createPayout({ paymentReference: reference as IDataObject[string] }),
			...options,
		}),
		0,
		64,
	) as string;

/** The payout lookup a tool makes before creating one: none made under this identity yet. */
const noPayoutYet = (externalId = identityOf()) =>
	nock(BASE_URL)
		.get('/payouts')
		.query({ externalId, limit: 1000, offset: 0 })
		.reply(200, { payouts: [], total: 0 });

beforeAll(() => nock.disableNetConnect());
afterAll(() => nock.enableNetConnect());
afterEach(() => {
	expect(nock.pendingMocks()).toEqual([]);
	nock.cleanAll();
});

describe('knowing it runs as a tool', () => {
	it.each([
		['the derived tool type (every n8n version)', { type: TOOL_TYPE }, true],
		['the action type', { type: 'n8n-nodes-company-payments.companyPayments' }, false],
		[
			'rewireOutputLogTo ai_tool (engine-run tools)',
			{ type: 'x.companyPayments', rewireOutputLogTo: 'ai_tool' },
			true,
		],
	])('%s', (_name, node, expected) => {
		const context = createContext({ parameters: {} });
		Object.assign(context.getNode(), node);
		expect(runsAsAgentTool(context)).toBe(expected);
	});

	it("believes the context's isToolExecution() where n8n offers it", () => {
		const context = createContext({ parameters: {} });
		(context as unknown as IDataObject).isToolExecution = () => true;
		expect(runsAsAgentTool(context)).toBe(true);
	});
});

describe('the catalog', () => {
	it('names every operation of every resource, and nothing else', () => {
		const operations = resources.flatMap((resource) =>
			resource.operations.map((operation) => `${resource.value}.${operation.value}`),
		);
		expect(Object.keys(toolCatalog()).sort()).toEqual(operations.sort());
	});

	// Money is what an operation says it is (its `kind`); an operation moves money exactly when it
	// sends an Idempotency-Key, so the two must agree (no list of names here to drift).
	it('marks as money exactly the operations that send an Idempotency-Key', () => {
		for (const resource of resources) {
			for (const operation of resource.operations) {
				const key = `${resource.value}.${operation.value}`;
				const sendsKey = operation.properties.some((field) => field.name === 'idempotencyKey');
				expect([key, toolCatalog()[key].kind === 'money']).toEqual([key, sendsKey]);
			}
		}
	});

	it('gives the model what each operation does, needs and returns', () => {
		for (const [key, entry] of Object.entries(toolCatalog())) {
			if (entry.kind === 'credentials') continue;
			expect([key, /Needs/.test(entry.text)]).toEqual([key, true]);
			expect([key, /Returns/.test(entry.text)]).toEqual([key, true]);
		}
	});
});

describe('the tool description n8n hands to the model', () => {
	const action = new CompanyPayments();
	/** The node type n8n derives for agents: same properties, name ending in Tool. */
	const toolType = {
		...action,
		description: { ...action.description, name: 'companyPaymentsTool' } as INodeTypeDescription,
	} as INodeType;

	function describedAs(parameters: IDataObject): string {
		const node = { typeVersion: 1.1, parameters } as unknown as INode;
		// As n8n's Workflow constructor does: parameters with their defaults.
		node.parameters = NodeHelpers.getNodeParameters(
			toolType.description.properties,
			node.parameters,
			true,
			false,
			node,
			toolType.description,
		) as INode['parameters'];
		return NodeHelpers.getToolDescriptionForNode(node, toolType);
	}

	it('is the operation text from the catalog, per operation', () => {
		expect(describedAs({ resource: 'payout', operation: 'get' })).toBe(
			toolCatalog()['payout.get'].text,
		);
		expect(describedAs({ resource: 'dispute', operation: 'create' })).toBe(
			toolCatalog()['dispute.create'].text,
		);
	});

	it('is what the user wrote, when they edited it', () => {
		expect(
			describedAs({ resource: 'payout', operation: 'get', toolDescription: 'Find a payout' }),
		).toBe('Find a payout');
	});

	it('shows the tool fields only in the tool variant', () => {
		const shown = (name: string, tool: boolean) =>
			NodeHelpers.getNodeParameters(
				action.description.properties,
				{ resource: 'payout', operation: 'create' },
				true,
				false,
				{ typeVersion: 1.1 },
				{ ...action.description, name: tool ? 'companyPaymentsTool' : 'companyPayments' },
			)?.[name];
		expect(shown('agentMayMoveMoney', true)).toBe(false);
		expect(shown('agentMayMoveMoney', false)).toBeUndefined();
		expect(shown('toolDescription', false)).toBeUndefined();
	});

	/** A workflow saved as it is stored: only the values the user set, the rest from defaults. */
	function savedTool(parameters: IDataObject) {
		return NodeHelpers.getNodeParameters(
			action.description.properties,
			parameters as INodeParameters,
			true,
			false,
			{ typeVersion: 1.2 },
			{ ...action.description, name: 'companyPaymentsTool' },
		) as IDataObject;
	}

	it('asks the model for a payment reference in a money tool saved without one', () => {
		const saved = savedTool({ resource: 'payout', operation: 'create', idempotencyKey: 'x' });
		expect(saved.paymentReference).toMatch(
			/^=\{\{ \$fromAI\('paymentReference', '[^']+', 'string'\) \}\}$/,
		);
		// As a tool the key follows the reference: the Idempotency Key field is not there.
		expect(saved.idempotencyKey).toBeUndefined();
		expect(savedTool({ resource: 'payout', operation: 'get' }).paymentReference).toBeUndefined();
	});

	it('tells the user what to add when the payment reference was cleared', () => {
		const notice = action.description.properties.find(
			(property) =>
				property.name === 'agentReferenceNotice' &&
				property.displayOptions?.show?.operation?.includes('create') &&
				property.displayOptions?.show?.resource?.includes('payout'),
		);
		const visible = (paymentReference: string) =>
			NodeHelpers.displayParameter(
				{ resource: 'payout', operation: 'create', paymentReference },
				notice!,
				{ typeVersion: 1.2 } as INode,
				{ ...action.description, name: 'companyPaymentsTool' },
			);
		expect(notice?.displayName).toMatch(/Payment Reference is empty/);
		expect(visible('')).toBe(true);
		expect(visible('INV-1')).toBe(false);
	});
});

describe('money-moving operations as a tool', () => {
	it.each([
		['payout', 'create', createPayout({ agentMayMoveMoney: false })],
		['payout', 'cancel', { payoutId: 'po_1' }],
		['order', 'pay', { qrCode: 'https://qr.nspk.ru/AS1' }],
		['order', 'accept', { quoteId: '0b6a5f3e-1d2c-4b5a-9e8f-7a6b5c4d3e2f' }],
		['card', 'request', {}],
		['card', 'recharge', { cardId: 'card_1', targetAmount: '10' }],
	])(
		'%s %s is refused without "Let the Agent Move Money", and nothing is sent',
		async (resource, operation, parameters) => {
			const { output, context } = await runTool({
				parameters: { ...parameters, resource, operation },
			});
			expect(context.requests).toEqual([]);
			expect(output).toEqual([
				expect.objectContaining({
					refused: true,
					error: expect.stringMatching(/moves money/),
					whatToDo: expect.stringMatching(/a person must make or approve/),
				}),
			]);
		},
	);

	it('runs with the option on, and the requisite comes back masked', async () => {
		noPayoutYet();
		nock(BASE_URL)
			.post('/payouts')
			.reply(200, { ...payout, externalId: identityOf() });
		const { output, context } = await runTool({ parameters: createPayout() });
		expect(context.requests).toHaveLength(2);
		expect(output[0]).toMatchObject({ id: 'po_1', requisite: '•••• 9012', fundsReturned: false });
		expect(JSON.stringify(output)).not.toContain(CARD_NUMBER);
	});
});

describe('a money tool is keyed by its payment reference, not by the run', () => {
	async function keyOf(parameters: IDataObject, options: Partial<ContextOptions> = {}) {
		forgetAllSentWrites();
		nock(BASE_URL).get('/payouts').query(true).reply(200, { payouts: [], total: 0 });
		nock(BASE_URL)
			.post('/payouts')
			.reply((_uri, body) => [200, { ...payout, ...(body as IDataObject) }]);
		const { context, output } = await runTool({ parameters, ...options });
		expect(output[0].error).toBeUndefined();
		return String(context.requests[1].headers?.['Idempotency-Key']);
	}

	it('is the same for the same reference in another run, execution, or with no execution (MCP)', async () => {
		const first = await keyOf(createPayout(), { runIndex: 0 });
		const again = await keyOf(createPayout(), { runIndex: 3, executionId: '2002' });
		const mcp = await keyOf(createPayout(), { executionId: undefined });
		expect(first).toMatch(/^ref:payout\.create:inv-1042$/);
		expect(again).toBe(first);
		expect(mcp).toBe(first);
	});

	it('is the same however the reference is written: letter case, spaces, full-width forms', () => {
		const key = (reference: string) => referenceKey(reference, 'payout.create');
		for (const written of ['inv-1042', ' INV-1042 ', 'ＩＮＶ-１０４２']) {
			expect([written, key(written)]).toEqual([written, key(REFERENCE)]);
		}
		expect(key('INV 1042')).not.toBe(key(REFERENCE));
	});

	it('finds the payout made under the reference written another way, and pays nothing more', async () => {
		nock(BASE_URL)
			.get('/payouts')
			.query(true)
			.reply(200, { payouts: [{ ...payout, externalId: identityOf('INV-1042') }], total: 1 });
		const { output, context } = await runTool({
			parameters: createPayout({ paymentReference: 'inv-1042 ' }),
		});
		expect(context.requests.map((request) => request.method)).toEqual(['GET']);
		expect(output[0]).toMatchObject({ repeated: true });
	});

	it("across processes, against a service that filters External ID exactly and ignores the key: one reference written two ways is one payout, and an External ID of the model's own is refused", async () => {
		const stored: IDataObject[] = [];
		nock(BASE_URL)
			.persist()
			.get('/payouts')
			.query(true)
			.reply(function (uri) {
				const wanted = new URL(uri, BASE_URL).searchParams.get('externalId');
				const payouts = stored.filter((record) => record.externalId === wanted);
				return [200, { payouts, total: payouts.length }];
			});
		nock(BASE_URL)
			.persist()
			.post('/payouts')
			.reply(function (_uri, body) {
				const record = { ...payout, id: `po_${stored.length + 1}`, ...(body as IDataObject) };
				stored.push(record);
				return [200, record];
			});
		const first = await runTool({
			parameters: createPayout({
				paymentReference: 'INV-1042',
				additionalFields: { bankId: 'tbank' },
			}),
		});
		expect(first.output[0]).toMatchObject({ id: 'po_1' });
		forgetAllSentWrites(); // another n8n process: nothing remembered
		const again = await runTool({ parameters: createPayout({ paymentReference: 'inv-1042' }) });
		expect(again.output[0]).toMatchObject({ id: 'po_1', repeated: true });
		forgetAllSentWrites();
		const ownId = await runTool({
			parameters: createPayout({
				paymentReference: 'INV-1042',
				additionalFields: { externalId: 'salary-nov' },
			}),
		});
		expect(ownId.output[0].error).toMatchObject({
			message: expect.stringMatching(/External ID cannot be set when an AI agent/),
		});
		expect(stored.map((record) => record.id)).toEqual(['po_1']);
	});

	it("a payout found by lookup is this payment only when it carries this reference's identity: last month's payout with the same amount, recipient and the model's old External ID is not \"already paid\"", async () => {
		// A service that ignores the External ID filter (or filters loosely) answers with every
		// payout: last month's salary (the same amount and card) under another reference, and one
		// under a lookalike External ID.
		const lastMonth = { ...payout, id: 'po_oct', externalId: identityOf('salary-2026-10') };
		const lookalike = { ...payout, id: 'po_x', externalId: 'salary-2026-1' };
		const oldOwnId = { ...payout, id: 'po_emp', externalId: 'emp-42' };
		nock(BASE_URL)
			.get('/payouts')
			.query(true)
			.reply(200, { payouts: [lastMonth, lookalike, oldOwnId], total: 3 });
		nock(BASE_URL)
			.post('/payouts', (body) => body.externalId === identityOf('salary-2026-11'))
			.reply((_uri, body) => [200, { ...payout, id: 'po_nov', ...(body as IDataObject) }]);
		const { output } = await runTool({
			parameters: createPayout({ paymentReference: 'salary-2026-11' }),
		});
		expect(output[0]).toMatchObject({ id: 'po_nov' });
		expect(output[0].repeated).toBeUndefined();
	});

	it('a phone number the service writes its own way (+7 for 8) is the same recipient, not a conflict', () => {
		expect(
			differences(
				toolContext({
					parameters: createPayout({ requisiteType: 'phone', requisite: '8 999 123-45-67' }),
				}),
				PAYOUT_CREATE,
				0,
				{ ...payout, externalId: identityOf(), requisiteType: 'phone', requisite: '+79991234567' },
			),
		).toEqual([]);
	});

	it('differs for another reference, and is the same from another node, workflow or instance (one payment of the company)', async () => {
		const first = await keyOf(createPayout());
		expect(await keyOf(createPayout({ paymentReference: 'INV-1043' }))).not.toBe(first);
		for (const elsewhere of [
			{ nodeId: 'another-node' },
			{ workflowId: 'another-workflow' },
			{ instanceId: 'another-instance' },
		]) {
			expect(await keyOf(createPayout(), elsewhere)).toBe(first);
		}
	});

	it('scopes the reference to the operation', () => {
		expect(referenceKey(REFERENCE, 'payout.create')).not.toBe(
			referenceKey(REFERENCE, 'card.recharge'),
		);
	});

	it('hashes a reference that is not printable or too long', () => {
		expect(referenceKey('Счёт 42', 'payout.create')).toMatch(
			/^ref:payout\.create:%sha256-[0-9a-f]{64}$/,
		);
	});

	it('sends the reference as it names the payment (inv-1042) as the External ID', async () => {
		noPayoutYet();
		nock(BASE_URL)
			.post('/payouts', (body) => body.externalId === identityOf())
			.reply(200, { ...payout, externalId: identityOf() });
		await runTool({ parameters: createPayout() });
	});

	it('refuses a money call without a reference, telling the model what to pass; nothing is sent', async () => {
		for (const paymentReference of ['', '   ', undefined]) {
			const { output, context } = await runTool({ parameters: createPayout({ paymentReference }) });
			expect(context.requests).toEqual([]);
			expect(output[0]).toMatchObject({
				refused: true,
				error: expect.stringMatching(/needs a paymentReference/),
				whatToDo: expect.stringMatching(/paymentReference set to what this payment is/),
			});
		}
	});

	it('answers a reference already paid with that payout, sending no second payout', async () => {
		nock(BASE_URL)
			.get('/payouts')
			.query(true)
			.reply(200, { payouts: [{ ...payout, externalId: identityOf() }], total: 1 });
		const { output, context } = await runTool({ parameters: createPayout() });
		expect(context.requests.map((r) => r.method ?? 'GET')).toEqual(['GET']);
		expect(output[0]).toMatchObject({ id: 'po_1', repeated: true, requisite: '•••• 9012' });
	});

	it('refuses the same reference with another amount or recipient as a conflict, paying nothing', async () => {
		for (const other of [{ amountRub: '2000' }, { requisite: '2200123456780000' }]) {
			nock(BASE_URL)
				.get('/payouts')
				.query(true)
				.reply(200, { payouts: [{ ...payout, externalId: identityOf() }], total: 1 });
			const { output, context } = await runTool({ parameters: createPayout(other) });
			expect(context.requests).toHaveLength(1);
			expect(output[0].error).toMatchObject({
				message: expect.stringMatching(/^Conflict: payment reference "INV-1042"/),
				errorCode: 'PAYMENT_REFERENCE_CONFLICT',
			});
			expect(JSON.stringify(output)).not.toContain('2200123456780000');
		}
	});

	it('reports a conflict when the service answers a reused key with an earlier payment', async () => {
		nock(BASE_URL)
			.post('/cards/recharge')
			.reply(200, { id: 'rch_1', cardId: 'card_1', targetAmount: 10, status: 'completed' });
		const { output } = await runTool({
			parameters: {
				resource: 'card',
				operation: 'recharge',
				cardId: 'card_1',
				targetAmount: '25',
				agentMayMoveMoney: true,
				paymentReference: 'topup-7',
			},
		});
		expect(output[0].error).toMatchObject({
			errorCode: 'PAYMENT_REFERENCE_CONFLICT',
			differences: [{ field: 'targetAmount', asked: '25', paid: '10' }],
		});
	});

	it('takes a number mapped by an expression as its exact text, and refuses what has none', () => {
		const key = (value: unknown) =>
			moneyKey(
				createContext({ parameters: { idempotencyKey: value as IDataObject[string] } }),
				0,
				PER_ITEM,
			);
		expect(key(1042)).toBe('1042');
		// A fraction has no one exact text a payment is named by (r7-money-b F1): refused.
		for (const bad of [10.5, 2 ** 53, Number.NaN, Infinity, true, ['a'], { id: 1 }]) {
			expect(() => key(bad)).toThrow(/Idempotency Key must be text/);
		}
		const reference = (value: unknown) => identityOf(value);
		expect(reference(1042)).toBe('1042');
		expect(
			toolIdentity(toolContext({ parameters: createPayout({ paymentReference: 1042 }) }), 0),
		).toMatch(/:1042$/);
		expect(() => reference(2 ** 53 + 1)).toThrow(
			/Payment Reference must be text or a whole number, got number: 9007199254740992/,
		);
	});

	it('stays the run-based key outside tool mode', async () => {
		nock(BASE_URL).post('/payouts').reply(200, payout);
		const context = createContext({ parameters: createPayout({ paymentReference: undefined }) });
		await new CompanyPayments().execute.call(context);
		expect(context.requests[0].headers?.['Idempotency-Key']).toBe(derivedKey(0, 0));
	});

	it('normalises details the way the service reads them', () => {
		expect(normaliseArgument({ b: ' 1500.50 ', a: '', c: null, d: [' x '] })).toEqual({
			b: '1500.5',
			d: ['x'],
		});
		expect(normaliseArgument('+7 (999) 123-45-67')).toBe('+79991234567');
		expect(normaliseArgument('0B6A5F3E-1D2C-4B5A-9E8F-7A6B5C4D3E2F')).toBe(
			'0b6a5f3e-1d2c-4b5a-9e8f-7a6b5c4d3e2f',
		);
		expect(normaliseArgument(1500)).toBe(normaliseArgument('1500.00'));
	});
});

describe('over MCP (no execution yet) a failure is thrown, so n8n sets isError', () => {
	const mcp = { executionId: undefined };

	it('a 404 throws the error JSON: message, errorCode, requestId, whatToDo', async () => {
		nock(BASE_URL).get('/payouts/po_404').reply(404, {
			statusCode: 404,
			errorCode: 'PAYOUT_NOT_FOUND',
			message: 'Выплата не найдена',
			requestId: 'req-1',
		});
		const context = toolContext({
			parameters: { resource: 'payout', operation: 'get', payoutId: 'po_404' },
			...mcp,
		});
		const thrown = await new CompanyPayments().execute.call(context).catch((e: Error) => e);
		expect(thrown).toBeInstanceOf(Error);
		expect(JSON.parse((thrown as Error).message)).toEqual({
			error: expect.objectContaining({
				message: expect.any(String),
				errorCode: 'PAYOUT_NOT_FOUND',
				requestId: 'req-1',
				whatToDo: expect.any(String),
			}),
		});
	});

	it('a refusal and a missing reference throw too', async () => {
		for (const parameters of [
			createPayout({ agentMayMoveMoney: false }),
			createPayout({ paymentReference: '' }),
		]) {
			const context = toolContext({ parameters, ...mcp });
			const thrown = await new CompanyPayments().execute.call(context).catch((e: Error) => e);
			expect(JSON.parse((thrown as Error).message).error).toMatchObject({ refused: true });
			expect(context.requests).toEqual([]);
		}
	});

	it('a success is returned as usual', async () => {
		nock(BASE_URL).get('/payouts/po_1').reply(200, payout);
		const { output } = await runTool({
			parameters: { resource: 'payout', operation: 'get', payoutId: 'po_1' },
			...mcp,
		});
		expect(output[0]).toMatchObject({ id: 'po_1' });
	});
});

describe('secrets never reach the model', () => {
	it.each([
		['company', 'login', { email: 'a@b.c', password: 'pw' }],
		['company', 'regenerateApiKey', {}],
		['company', 'rotateWebhookSecret', {}],
		['company', 'updateProfile', { updateFields: { webhookUrl: 'https://x.test' } }],
		['invite', 'accept', { inviteToken: 'inv_1', email: 'a@b.c', password: 'pw' }],
		['card', 'getSensitiveData', { cardId: 'card_1', maskSensitiveData: false }],
	])('%s %s is unavailable, whatever its options', async (resource, operation, parameters) => {
		const { output, context } = await runTool({
			parameters: { ...parameters, resource, operation, agentMayMoveMoney: true },
		});
		expect(context.requests).toEqual([]);
		expect(output).toEqual([
			expect.objectContaining({ refused: true, error: expect.stringMatching(/not available/) }),
		]);
	});

	it('card data comes back masked', async () => {
		nock(BASE_URL)
			.get('/cards/card_1/sensitive')
			.reply(200, { cardId: 'card_1', cardNumberFull: '4000123412341234', cardCvv: '321' });
		const { output } = await runTool({
			parameters: { resource: 'card', operation: 'getSensitiveData', cardId: 'card_1' },
		});
		expect(output[0]).toMatchObject({ cardNumberFull: '•••• •••• •••• 1234', cardCvv: '•••' });
	});

	it('the webhook secret is masked even with Reveal Webhook Secret on', async () => {
		nock(BASE_URL)
			.get('/auth/company/profile')
			.reply(200, { webhookUrl: 'https://n8n.test/webhook/x', webhookSecret: WEBHOOK_SECRET });
		const { output } = await runTool({
			parameters: { resource: 'company', operation: 'getProfile', revealWebhookSecret: true },
		});
		expect(JSON.stringify(output)).not.toContain(WEBHOOK_SECRET);
		expect(output[0].webhookUrl).toBe('https://n8n.test/webhook/x');
	});

	it("the credential's own secrets are hidden wherever an answer echoes them", async () => {
		nock(BASE_URL)
			.get('/payouts/po_1')
			.reply(200, { ...payout, comment: `key ${API_KEY} and ${WEBHOOK_SECRET}`, token: 'USDT' });
		const { output } = await runTool({
			// The whole record (Simplify off), so the echoing comment and the token field are in it.
			parameters: { resource: 'payout', operation: 'get', payoutId: 'po_1', compactOutput: false },
			credentials: {
				environment: 'staging',
				baseUrl: BASE_URL,
				apiKey: API_KEY,
				webhookSecret: WEBHOOK_SECRET,
			},
		});
		const text = JSON.stringify(output);
		expect(text).not.toContain(API_KEY);
		expect(text).not.toContain(WEBHOOK_SECRET);
		expect(output[0].comment).toBe(`key ${HIDDEN} and ${HIDDEN}`);
		expect(output[0].token).toBe('USDT');
	});
});

describe('errors are tool results the model can read', () => {
	it('a 404 says what was wrong and what to do, and does not throw', async () => {
		nock(BASE_URL).get('/payouts/po_404').reply(404, {
			statusCode: 404,
			error: 'Not Found',
			errorCode: 'PAYOUT_NOT_FOUND',
			message: 'Выплата не найдена',
			requestId: 'req-1',
		});
		const { output } = await runTool({
			parameters: { resource: 'payout', operation: 'get', payoutId: 'po_404' },
		});
		expect(output).toEqual([
			expect.objectContaining({
				error: expect.objectContaining({
					message: expect.any(String),
					errorCode: 'PAYOUT_NOT_FOUND',
					requestId: 'req-1',
					whatToDo: expect.any(String),
				}),
				whatToDo: expect.any(String),
				errorCode: 'PAYOUT_NOT_FOUND',
				httpCode: 404,
				requestId: 'req-1',
			}),
		]);
	});

	it('invalid input is answered before anything is sent, with the rule broken', async () => {
		const { output, context } = await runTool({
			parameters: createPayout({ amountRub: 'a lot' }),
		});
		expect(context.requests).toEqual([]);
		expect((output[0].error as IDataObject).message).toMatch(/Amount \(RUB\)/);
		expect(output[0].whatToDo).toMatch(/Nothing was sent/);
	});

	it('a requisite in an error is masked', async () => {
		const { output } = await runTool({ parameters: createPayout({ requisite: '2200-1234' }) });
		expect(JSON.stringify(output)).not.toContain('22001234');
	});

	it('still stops the workflow when the user chose On Error: Stop Workflow', async () => {
		const context = toolContext({
			parameters: createPayout({ amountRub: 'a lot' }),
			onError: 'stopWorkflow',
		});
		await expect(new CompanyPayments().execute.call(context)).rejects.toThrow(/Amount \(RUB\)/);
	});
});

describe('compact list output', () => {
	const listed = (count: number) =>
		Array.from({ length: count }, (_, index) => ({ ...payout, id: `po_${index}` }));

	it('is on by default in a tool: only the fields a person would read', async () => {
		nock(BASE_URL)
			.get('/payouts')
			.query(true)
			.reply(200, { payouts: listed(2), total: 2 });
		const { output } = await runTool({
			parameters: { resource: 'payout', operation: 'getMany', limit: 2 },
		});
		expect(output).toHaveLength(2);
		expect(Object.keys(output[0])).toEqual(toolCatalog()['payout.getMany'].compact);
		expect(output[0].requisite).toBe('•••• 9012');
	});

	it('is off by default in a workflow, and offered there', async () => {
		for (const compactOutput of [undefined, true]) {
			nock(BASE_URL)
				.get('/payouts')
				.query(true)
				.reply(200, { payouts: listed(1), total: 1 });
			const context = createContext({
				parameters: { resource: 'payout', operation: 'getMany', limit: 1, compactOutput },
			});
			const [[item]] = await new CompanyPayments().execute.call(context);
			expect(Object.keys(item.json).includes('rate')).toBe(compactOutput === undefined);
		}
	});

	it('says so when nothing matched, rather than answering nothing', async () => {
		nock(BASE_URL).get('/payouts').query(true).reply(200, { payouts: [], total: 0 });
		const { output } = await runTool({
			parameters: { resource: 'payout', operation: 'getMany', limit: 5 },
		});
		expect(output).toEqual([{ results: 0, message: 'Nothing matched.' }]);
	});
});

describe('masking for the model', () => {
	it('masks raw card secrets and keeps values an operation masked already', async () => {
		const { maskForModel } = await import('../../nodes/CompanyPayments/tool');
		expect(
			maskForModel(
				{
					cardCvv: '321',
					cardNumberFull: '4000123412341234',
					requisite: '•••• 9012',
					nested: { apiKey: 'sk_live_x', password: 'pw', token: INVITE_TOKEN },
					url: `https://pay.test/auth/invites/${INVITE_TOKEN}`,
					error: 'call +79991234567 back',
				},
				[],
			),
		).toEqual({
			cardCvv: '•••',
			cardNumberFull: '•••• •••• •••• 1234',
			requisite: '•••• 9012',
			nested: { apiKey: HIDDEN, password: HIDDEN, token: HIDDEN },
			url: 'https://pay.test/[hidden]',
			error: 'call •••• 4567 back',
		});
	});
});

describe("Card Request as a tool carries the reference's identity as its External ID", () => {
	const requestCard = (extra: IDataObject = {}): IDataObject => ({
		resource: 'card',
		operation: 'request',
		agentMayMoveMoney: true,
		paymentReference: 'card-for-anna',
		...extra,
	});
	const cardIdentity = () =>
		toolExternalId(toolContext({ parameters: requestCard() }), 0, 64) as string;

	it('asked again from another n8n process, finds the card made under the reference and requests none', async () => {
		const cards: IDataObject[] = [];
		nock(BASE_URL)
			.persist()
			.get('/cards')
			.query(true)
			.reply(function (uri) {
				const wanted = new URL(uri, BASE_URL).searchParams.get('externalId');
				const found = cards.filter((card) => card.externalId === wanted);
				return [200, { cards: found, total: found.length }];
			});
		nock(BASE_URL)
			.persist()
			.post('/cards/request')
			.reply(function (_uri, body) {
				const card = {
					id: `card_${cards.length + 1}`,
					status: 'assigned',
					externalId: (body as IDataObject).externalId,
					createdAt: '2026-11-21T12:00:00.000Z',
				};
				cards.push(card);
				return [
					200,
					{
						status: 'assigned',
						card,
						request: {
							id: 'rq',
							status: 'fulfilled',
							// A fulfilled request names its card (outside r21-money F2: one that names none is no proof).
							cardId: card.id,
							externalId: card.externalId,
							createdAt: new Date().toISOString(),
						},
					},
				];
			});
		const first = await runTool({ parameters: requestCard() });
		expect(first.output[0]).toMatchObject({ outcome: 'assigned', cardId: 'card_1' });
		expect(cards[0].externalId).toBe(cardIdentity());
		forgetAllSentWrites(); // another n8n process
		const again = await runTool({
			parameters: requestCard({ paymentReference: ' CARD-for-Anna' }),
		});
		expect(again.output[0]).toMatchObject({ id: 'card_1', repeated: true });
		expect(cards).toHaveLength(1);
	});

	it("refuses an External ID of the model's own, sending nothing", async () => {
		const { output, context } = await runTool({
			parameters: requestCard({ externalId: 'anna-1' }),
		});
		expect(context.requests).toEqual([]);
		expect(JSON.stringify(output[0])).toMatch(/External ID cannot be set when an AI agent/);
	});
});

it('Card Request as a tool, repeated when no card carries the reference yet: the service refuses the External ID as taken, which shows no request held (a failed one keeps it too): unknown, never pending (r9-money F2)', async () => {
	nock(BASE_URL).get('/cards').query(true).reply(200, { cards: [], total: 0 });
	nock(BASE_URL).post('/cards/request').reply(409, {
		statusCode: 409,
		error: 'Conflict',
		errorCode: 'CARD_EXTERNAL_ID_TAKEN',
		message: 'externalId уже используется',
	});
	const { output } = await runTool({
		parameters: {
			resource: 'card',
			operation: 'request',
			agentMayMoveMoney: true,
			paymentReference: 'card-for-bob',
		},
	});
	expect(output[0].outcome).toBeUndefined();
	expect(output[0].error).toMatchObject({ paymentOutcome: 'unknown' });
});
