import type { IDataObject, INode, INodeTypeDescription, INodeTypes } from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';

import { CompanyPaymentsTrigger } from '../../nodes/CompanyPaymentsTrigger/CompanyPaymentsTrigger.node';
import {
	configuredOutputs,
	EVENT_VALUES,
	OUTPUT_LAYOUT,
	ROUTED_EVENTS_BY_VERSION,
} from '../../nodes/CompanyPaymentsTrigger/events';
import { webhookChangeKey } from '../../nodes/shared/changeKey';
import { EVENT_NAMES } from '../../nodes/shared/contract/events';
import { payoutFundsReturnedOrUnknown } from '../../nodes/shared/payoutFunds';
import { deliver, hmacHex, SAMPLE_EVENTS, SECRET_DUMMY } from './helpers/trigger';

/** A time as it stands in a change key (`:` escaped, shared/identity.ts). */
function keyTime(value: unknown): string {
	return String(value).replace(/:/g, '%3A');
}

const T0 = Date.parse('2026-11-21T12:00:00.000Z');

const FIXED_ORDER = [
	'order.status_changed',
	'deposit.created',
	'deposit.completed',
	'deposit.aml_failed',
	'payout.status_changed',
	'payout.recharged',
	'card.assigned',
];

/** The output labels in the fixed order: short words, not event codes. */
const FIXED_LABELS = ['Order', 'Deposit', 'Credited', 'AML failed', 'Payout', 'Recharged', 'Card'];

function outputSizes(outputs: unknown[][] | undefined): number[] | undefined {
	return outputs?.map((items) => items.length);
}

describe('output item', () => {
	it.each(Object.keys(SAMPLE_EVENTS))(
		'passes %s through with the delivery fields',
		async (event) => {
			jest.spyOn(Date, 'now').mockReturnValue(T0);
			const body = SAMPLE_EVENTS[event];
			const { item, outputs } = await deliver({ body, deliveryId: `d-${event}` });
			expect(outputSizes(outputs)).toEqual([1]);
			expect(item).toMatchObject({
				...body,
				event,
				deliveryId: `d-${event}`,
				receivedAt: '2026-11-21T12:00:00.000Z',
				deduplicationChecked: true,
			});
		},
	);

	it.each([
		// A success can repeat (confirmed after a dispute) and the body tells no repeat: the delivery names it.
		[
			'order.status_changed',
			'order:company:7d3c2b1a-1111-4222-8333-944455566677:success:delivery:d-order.status_changed',
		],
		// Deposits by updatedAt too (outside read 2, finding 5), as their records show it.
		[
			'deposit.created',
			`deposit:company:dep_0192:new:updatedAt:${keyTime(SAMPLE_EVENTS['deposit.created'].updatedAt)}`,
		],
		[
			'deposit.completed',
			`deposit:user-wallet/user-42:dep_0192:completed:updatedAt:${keyTime(SAMPLE_EVENTS['deposit.completed'].updatedAt)}`,
		],
		// deposit.aml_failed shows no updatedAt: an AML check failed twice is told by the delivery
		// (outside read r7-data, finding 2).
		['deposit.aml_failed', 'deposit:company:dep_0193:aml_failed:delivery:d-deposit.aml_failed'],
		[
			'payout.status_changed',
			'payout:company:po_3301:fail:refunded:updatedAt:2026-11-21T12%3A20%3A00.000Z',
		],
		[
			'payout.recharged',
			'payout:company:po_3301:success:recharged:updatedAt:2026-11-22T09%3A00%3A00.000Z',
		],
		// card.assigned shows no time: a card assigned again is told by the delivery (outside read
		// r8-data, finding 4).
		['card.assigned', 'card:company:ext:card-for-user-42:assigned:delivery:d-card.assigned'],
	])(
		'gives %s the changeKey the poll trigger computes, and source "webhook"',
		async (event, key) => {
			const body = SAMPLE_EVENTS[event];
			const { item } = await deliver({ body, deliveryId: `d-${event}` });
			expect(item?.changeKey).toBe(key);
			expect(item?.changeKey).toBe(webhookChangeKey(event, body, `d-${event}`));
			expect(item?.source).toBe('webhook');
		},
	);

	it('gives an unknown event the delivery\'s changeKey (never null), and source "webhook"', async () => {
		const { item } = await deliver({
			body: { event: 'wallet.frozen', walletId: 'w1' },
			deliveryId: 'd-frozen',
		});
		expect(item).toMatchObject({
			event: 'wallet.frozen',
			changeKey: 'delivery:webhook:delivery:d-frozen',
			source: 'webhook',
		});
	});

	it('answers an accepted delivery itself with a small JSON acknowledgement', async () => {
		const { result, response, outputs } = await deliver({ deliveryId: 'dlv_ack_1' });
		expect(outputSizes(outputs)).toEqual([1]);
		// Written by the node before n8n starts the execution (so n8n saves the static data at once).
		expect(result.noWebhookResponse).toBe(true);
		expect(result.webhookResponse).toBeUndefined();
		expect(response.statusCode).toBe(200);
		expect(response.ended).toBe(true);
		expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
		expect(JSON.parse(response.body ?? '')).toEqual({
			received: true,
			executed: true,
			deliveryId: 'dlv_ack_1',
		});
	});

	it('gives a user-wallet deposit its externalId', async () => {
		const { item } = await deliver({ body: SAMPLE_EVENTS['deposit.completed'] });
		expect(item).toMatchObject({ externalId: 'user-42', walletType: 'user' });
	});

	it('marks company-wallet deposits with externalId null', async () => {
		for (const event of ['deposit.created', 'deposit.aml_failed']) {
			const { item } = await deliver({ body: SAMPLE_EVENTS[event] });
			expect(item).toMatchObject({ externalId: null, walletType: 'company' });
		}
	});

	it.each([
		['fail with refunded true', { status: 'fail', refunded: true }, true],
		['fail with refunded false', { status: 'fail', refunded: false }, false],
		['fail without refunded', { status: 'fail' }, false],
		// Not a boolean: unknown, never false (outside read 2, finding 10).
		['refunded as the string "true"', { status: 'fail', refunded: 'true' }, null],
		// Back in success after a refund: charged again, whatever refunded still says.
		['success with refunded true (charged again)', { status: 'success', refunded: true }, false],
	])(
		'sets fundsReturned from refunded, never for a payout back in success: %s',
		async (_label, fields, expected) => {
			const body: IDataObject = { ...SAMPLE_EVENTS['payout.status_changed'], ...fields };
			if (!('refunded' in fields)) delete body.refunded;
			const { item } = await deliver({ body });
			expect(item?.fundsReturned).toBe(expected);
			expect(payoutFundsReturnedOrUnknown(body)).toBe(expected);
		},
	);

	it('sets fundsReturned false on payout.recharged, also when its body still says refunded: true', async () => {
		const { item } = await deliver({ body: SAMPLE_EVENTS['payout.recharged'] });
		expect(item).toMatchObject({ status: 'success', fundsReturned: false });
		const stale = { ...SAMPLE_EVENTS['payout.recharged'], refunded: true };
		const { item: again } = await deliver({ body: stale, deliveryId: 'd-recharged-stale' });
		expect(again).toMatchObject({ fundsReturned: false });
	});

	it('adds no derived fields to order and card events', async () => {
		const { item } = await deliver({ body: SAMPLE_EVENTS['order.status_changed'] });
		expect(item).not.toHaveProperty('fundsReturned');
		expect(item).not.toHaveProperty('walletType');
	});

	it('includes the headers on request, without credentials a proxy may add', async () => {
		const { item } = await deliver({
			deliveryId: 'd-headers',
			headers: { authorization: 'Bearer proxy-token', cookie: 'a=b', 'x-request-id': 'r-1' },
			parameters: { options: { includeHeaders: true } },
		});
		const headers = item?.headers as IDataObject;
		expect(headers).toMatchObject({
			'content-type': 'application/json',
			'x-service-delivery-id': 'd-headers',
			'x-request-id': 'r-1',
		});
		expect(headers['x-service-signature']).toMatch(/^[0-9a-f]{64}$/);
		expect(headers).not.toHaveProperty('authorization');
		expect(headers).not.toHaveProperty('cookie');
		expect(JSON.stringify(item)).not.toContain(SECRET_DUMMY);
	});

	it('includes the exact raw body on request', async () => {
		const raw = '{ "event": "card.assigned",\n  "externalId": "c-9" }';
		const { item } = await deliver({
			body: Buffer.from(raw),
			parameters: { options: { includeRawBody: true } },
		});
		expect(item?.rawBody).toBe(raw);
		const without = await deliver({ body: raw });
		expect(without.item).not.toHaveProperty('rawBody');
		expect(without.item).not.toHaveProperty('headers');
	});

	it('parses the raw body when n8n did not (other Content-Type)', async () => {
		const raw = JSON.stringify(SAMPLE_EVENTS['card.assigned']);
		const { item } = await deliver({
			body: raw,
			parsed: {},
			headers: { 'content-type': 'text/plain' },
		});
		expect(item).toMatchObject({ event: 'card.assigned', externalId: 'card-for-user-42' });
	});

	it('copies a body with a "__proto__" key as plain data', async () => {
		const raw = '{"event":"card.assigned","__proto__":{"polluted":true},"externalId":"c-1"}';
		const { item } = await deliver({ body: raw });
		expect(Object.getPrototypeOf(item)).toBe(Object.prototype);
		expect(Object.prototype.hasOwnProperty.call(item, '__proto__')).toBe(true);
		expect((item as IDataObject).polluted).toBeUndefined();
		expect(item).toMatchObject({ event: 'card.assigned', externalId: 'c-1' });
	});

	it('passes a verified body that is not JSON with its raw text and event null', async () => {
		const raw = 'not json at all';
		const { item } = await deliver({ body: raw, parsed: undefined });
		expect(item).toMatchObject({ event: null, rawBody: raw, deduplicationChecked: true });
	});
});

describe('event filter', () => {
	it('answers 200 and starts nothing for an event that is not selected', async () => {
		const outcome = await deliver({
			body: SAMPLE_EVENTS['order.status_changed'],
			parameters: { events: ['deposit.completed', 'payout.status_changed'] },
		});
		expect(outcome.result).toEqual({
			webhookResponse: {
				received: true,
				executed: false,
				reason: 'event order.status_changed is not selected',
			},
		});
		expect(outcome.response.ended).toBe(false);
	});

	it('passes a selected event', async () => {
		const outcome = await deliver({
			body: SAMPLE_EVENTS['payout.status_changed'],
			parameters: { events: ['deposit.completed', 'payout.status_changed'] },
		});
		expect(outputSizes(outcome.outputs)).toEqual([1]);
	});

	it('passes an unknown future event with "All Events" and drops it otherwise', async () => {
		const body = { event: 'refund.created', refundId: 'r-1' };
		const all = await deliver({ body });
		expect(all.item).toMatchObject({ event: 'refund.created', refundId: 'r-1' });
		expect(all.item).not.toHaveProperty('fundsReturned');

		const picked = await deliver({ body, parameters: { events: ['order.status_changed'] } });
		expect(picked.result.workflowData).toBeUndefined();
	});

	it('passes a body without an event as event null with "All Events" only', async () => {
		const body = { orderId: 'o-1' };
		expect((await deliver({ body })).item).toMatchObject({ event: null, orderId: 'o-1' });
		expect(
			(await deliver({ body, parameters: { events: ['order.status_changed'] } })).result
				.workflowData,
		).toBeUndefined();
	});

	it('treats "All Events" next to single events as all', async () => {
		const outcome = await deliver({
			body: SAMPLE_EVENTS['card.assigned'],
			parameters: { events: ['order.status_changed', '*'] },
		});
		expect(outputSizes(outcome.outputs)).toEqual([1]);
	});
});

describe('routing to outputs', () => {
	it('puts each selected event on its own output, in the fixed order', async () => {
		const parameters = {
			routeByEvent: true,
			events: ['payout.status_changed', 'order.status_changed'],
		};
		const order = await deliver({ body: SAMPLE_EVENTS['order.status_changed'], parameters });
		expect(outputSizes(order.outputs)).toEqual([1, 0]);
		const payout = await deliver({ body: SAMPLE_EVENTS['payout.status_changed'], parameters });
		expect(outputSizes(payout.outputs)).toEqual([0, 1]);
		expect(payout.item).toMatchObject({ fundsReturned: true });
		const card = await deliver({ body: SAMPLE_EVENTS['card.assigned'], parameters });
		expect(card.result.workflowData).toBeUndefined();
	});

	it('with "All Events" has one output per known event plus "other" for unknown kinds', async () => {
		const parameters = { routeByEvent: true, events: ['*'] };
		for (const [index, event] of FIXED_ORDER.entries()) {
			const outcome = await deliver({ body: SAMPLE_EVENTS[event], parameters });
			const expected = Array(8).fill(0);
			expected[index] = 1;
			expect(outputSizes(outcome.outputs)).toEqual(expected);
		}
		const unknown = await deliver({ body: { event: 'payout.disputed' }, parameters });
		expect(outputSizes(unknown.outputs)).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
		const none = await deliver({ body: { amount: 1 }, parameters });
		expect(outputSizes(none.outputs)).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
	});

	it('signs and dedups routed deliveries like any other', async () => {
		const body = JSON.stringify(SAMPLE_EVENTS['deposit.created']);
		const outcome = await deliver({
			body,
			signature: hmacHex(body, SECRET_DUMMY).toUpperCase(),
			parameters: { routeByEvent: true, events: ['deposit.created', 'deposit.completed'] },
		});
		expect(outputSizes(outcome.outputs)).toEqual([1, 0]);
	});
});

describe('outputs expression', () => {
	const description = new CompanyPaymentsTrigger().description;

	/** Evaluates the node's `outputs` the way n8n does, with n8n-workflow's expression engine. */
	function outputsFor(parameters: IDataObject) {
		const nodeTypes: INodeTypes = {
			getByName: () => new CompanyPaymentsTrigger(),
			getByNameAndVersion: () => new CompanyPaymentsTrigger(),
			getKnownTypes: () => ({}),
		};
		const node: INode = {
			id: 'n-1',
			name: 'Company Payments Trigger',
			type: 'n8n-nodes-company-payments.companyPaymentsTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: parameters as INode['parameters'],
		};
		const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
		return NodeHelpers.getNodeOutputs(workflow, node, description as INodeTypeDescription);
	}

	it('is an expression built from the same function the webhook routes with', () => {
		expect(description.outputs).toMatch(/^=\{\{\(function configuredOutputs\(/);
		// The shipped versions' routed outputs: frozen (output-stability.test.ts); the contract's
		// table may grow after them.
		for (const version of [1, 2] as const) {
			expect(ROUTED_EVENTS_BY_VERSION[version]).toEqual(FIXED_ORDER);
		}
		expect(EVENT_VALUES.slice(0, FIXED_ORDER.length)).toEqual(FIXED_ORDER);
	});

	it('gives one unnamed output without routing', () => {
		expect(outputsFor({ events: ['*'], routeByEvent: false })).toEqual([{ type: 'main' }]);
		expect(outputsFor({ events: ['deposit.created'] })).toEqual([{ type: 'main' }]);
	});

	it('gives one named output per selected event in the fixed order', () => {
		expect(
			outputsFor({
				events: ['card.assigned', 'deposit.created', 'order.status_changed'],
				routeByEvent: true,
			}),
		).toEqual([
			{ type: 'main', displayName: 'Order' },
			{ type: 'main', displayName: 'Deposit' },
			{ type: 'main', displayName: 'Card' },
		]);
	});

	it('gives every event plus "other" for "All Events"', () => {
		const outputs = outputsFor({ events: ['*'], routeByEvent: true });
		expect(outputs).toEqual(
			[...FIXED_LABELS, 'Other'].map((displayName) => ({ type: 'main', displayName })),
		);
		expect(outputsFor({ events: [], routeByEvent: true })).toHaveLength(8);
	});

	it('labels outputs with short human names that stay distinct when the canvas cuts them', () => {
		const labels = (
			outputsFor({ events: ['*'], routeByEvent: true }) as Array<{ displayName: string }>
		).map((output) => output.displayName);
		for (const label of labels) {
			expect(label).not.toMatch(/[._]/);
			// The canvas shows about ten characters before "…" ("Deposit cre…" was cut).
			expect(label.length).toBeLessThanOrEqual(10);
		}
		// Five characters already tell them apart.
		expect(new Set(labels.map((label) => label.slice(0, 5))).size).toBe(labels.length);
	});

	it('routes each event to the output with its label', async () => {
		for (const [index, event] of FIXED_ORDER.entries()) {
			const { outputs } = await deliver({
				body: SAMPLE_EVENTS[event],
				parameters: { events: ['*'], routeByEvent: true },
			});
			expect(outputSizes(outputs)?.[index]).toBe(1);
		}
		const unknown = await deliver({
			body: { event: 'wallet.frozen' },
			parameters: { events: ['*'], routeByEvent: true },
		});
		expect(outputSizes(unknown.outputs)).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
	});

	it('matches the function called directly', () => {
		const parameters = { events: ['payout.recharged', 'deposit.aml_failed'], routeByEvent: true };
		expect(outputsFor(parameters)).toEqual(configuredOutputs(parameters, 1, OUTPUT_LAYOUT));
	});
});

describe('node description', () => {
	const description = new CompanyPaymentsTrigger().description;

	/** Evaluates the node's subtitle the way the editor does, with n8n-workflow's expression engine. */
	function subtitleFor(events: unknown): unknown {
		const nodeTypes: INodeTypes = {
			getByName: () => new CompanyPaymentsTrigger(),
			getByNameAndVersion: () => new CompanyPaymentsTrigger(),
			getKnownTypes: () => ({}),
		};
		const node: INode = {
			id: 'n-1',
			name: 'Company Payments Trigger',
			type: 'n8n-nodes-company-payments.companyPaymentsTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: { events } as INode['parameters'],
		};
		const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
		return workflow.expression.getSimpleParameterValue(
			node,
			description.subtitle as string,
			'internal',
			{},
		);
	}

	it('has a subtitle in words: "All events" or the picked event names', () => {
		expect(subtitleFor(['*'])).toBe('All events');
		expect(subtitleFor([])).toBe('All events');
		expect(subtitleFor(['deposit.completed', 'card.assigned'])).toBe(
			'Deposit Completed, Card Assigned',
		);
	});

	it('offers "All Events" (the default) and every documented event', () => {
		const events = description.properties.find((p) => p.name === 'events');
		expect(events?.default).toEqual(['*']);
		const values = (events?.options as Array<{ value: string }>).map((o) => o.value);
		expect(values[0]).toBe('*');
		expect(values.slice(1).sort()).toEqual([...EVENT_NAMES].sort());
	});

	it('is a trigger with one POST webhook and the credential', () => {
		expect(description.name).toBe('companyPaymentsTrigger');
		expect(description.displayName).toBe('Company Payments Trigger');
		expect(description.inputs).toEqual([]);
		expect(description.webhooks).toEqual([
			{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' },
		]);
		expect(description.credentials).toEqual([{ name: 'companyPaymentsApi', required: true }]);
	});

	it('has no options.binaryData (n8n would then skip reading the raw body)', () => {
		const options = description.properties.find((p) => p.name === 'options');
		const names = (options?.options as Array<{ name: string }>).map((o) => o.name);
		expect(names).not.toContain('binaryData');
		expect(names).toEqual([
			'allowEmptyKey',
			'dedupMaxEntries',
			'dedupMaxAgeHours',
			'includeHeaders',
			'includeRawBody',
			'graceMinutes',
		]);
	});
});

describe('service fields under the trigger’s own names (r6-data-b F6)', () => {
	it('kept under serviceFields; the trigger’s own fields keep their meaning', async () => {
		const body = {
			event: 'card.assigned',
			externalId: 'c1',
			cardId: 'k1',
			deliveryId: 'evt_98765432109876543210',
			source: 'bridge',
			receivedAt: '2026-11-28T10:00:00Z',
			changeKey: 'ck-1',
		};
		const { item } = await deliver({ body, deliveryId: 'att-1' });
		expect(item?.source).toBe('webhook');
		expect(item?.deliveryId).toBe('att-1');
		expect(item?.serviceFields).toEqual({
			deliveryId: 'evt_98765432109876543210',
			source: 'bridge',
			receivedAt: '2026-11-28T10:00:00Z',
			changeKey: 'ck-1',
		});
	});

	it('no such field in the body: no serviceFields (the output does not move)', async () => {
		const { item } = await deliver({
			body: { event: 'card.assigned', externalId: 'c1', cardId: 'k1' },
			deliveryId: 'att-2',
		});
		expect(item).not.toHaveProperty('serviceFields');
	});
});
