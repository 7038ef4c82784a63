/**
 * The credential and the one workflow the browser suite opens. One workflow holds every node
 * the suite looks at, so the editor loads once (a full load of n8n's editor takes 10 to 40 s on
 * a busy 2-core machine); each test opens its node's panel from the canvas.
 */
import { randomBytes } from 'node:crypto';

import {
	NODE_TYPE,
	POLL_TRIGGER_TYPE,
	TRIGGER_TYPE,
	newId,
	node,
} from '../../harness/editor-stack.mjs';

/** An order ID the sandbox does not know: Order → Get answers 404 with the service's error body. */
export const UNKNOWN_ORDER_ID = '00000000-0000-4000-8000-000000000000';

export const MANUAL = "When clicking 'Execute workflow'";

/** Node names on the canvas (each test opens one of them). */
export const N = Object.freeze({
	balance: 'Get Company Balance',
	failing: 'Get Unknown Order',
	pay: 'Pay QR Code',
	payout: 'Create Payout',
	sensitive: 'Get Card Data',
	defaults: 'Fresh Action Node',
	member: 'Update Member',
	routed: 'Routed Trigger',
	allEvents: 'All Events Trigger',
	poll: 'Poll Trigger',
	listening: 'Registering Trigger',
});

/** The company's webhook secret in the sandbox and in the credential: deliveries verify. */
export const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString('hex')}`;
export const SANDBOX_OPTIONS = { webhookSecret: WEBHOOK_SECRET, retryDelaysMs: [0, 100, 200, 400] };

export function credentials(sandbox) {
	const base = { environment: 'staging', baseUrl: sandbox.url, webhookSecret: WEBHOOK_SECRET };
	return {
		good: { name: 'Sandbox owner key', data: { ...base, apiKey: sandbox.keys.owner } },
	};
}

/**
 * Manual Trigger → Get Company Balance and → Get Unknown Order (each run with "Execute step");
 * the operation panels the issue names, a Company Payments node with no parameters at all (what
 * the node panel adds), and the trigger twice: routed to one output per event, and All Events.
 */
export function walkWorkflow({ credentials: c, hasPollTrigger, newest = 1 }) {
	const credential = c.good;
	const nodes = [
		node(MANUAL, 'n8n-nodes-base.manualTrigger', [0, 0]),
		node(
			N.balance,
			NODE_TYPE,
			[300, -120],
			{ resource: 'companyWallet', operation: 'getBalance' },
			{ credential },
		),
		node(
			N.failing,
			NODE_TYPE,
			[300, 120],
			{ resource: 'order', operation: 'get', orderId: UNKNOWN_ORDER_ID },
			{ credential },
		),
		node(N.pay, NODE_TYPE, [600, -360], { resource: 'order', operation: 'pay' }, { credential }),
		node(
			N.payout,
			NODE_TYPE,
			[600, -120],
			{ resource: 'payout', operation: 'create' },
			{ credential },
		),
		node(
			N.sensitive,
			NODE_TYPE,
			[600, 120],
			{ resource: 'card', operation: 'getSensitiveData' },
			{ credential },
		),
		node(N.defaults, NODE_TYPE, [600, 360], {}, { credential, typeVersion: newest }),
		node(
			N.member,
			NODE_TYPE,
			[900, 360],
			{
				resource: 'member',
				operation: 'update',
				updateFields: { role: 'member', permissions: 'orders.read' },
			},
			{ credential },
		),
		node(
			N.routed,
			TRIGGER_TYPE,
			[0, 600],
			{
				events: [
					'order.status_changed',
					'deposit.created',
					'deposit.completed',
					'payout.status_changed',
				],
				routeByEvent: true,
			},
			{ credential },
		),
		node(N.allEvents, TRIGGER_TYPE, [600, 600], {}, { credential }),
		node(N.listening, TRIGGER_TYPE, [300, 600], { registerWebhook: true }, { credential }),
	];
	if (hasPollTrigger) nodes.push(node(N.poll, POLL_TRIGGER_TYPE, [900, 600], {}, { credential }));
	return {
		id: newId(),
		name: 'Company Payments UI walk',
		nodes,
		connections: {
			[MANUAL]: {
				main: [
					[
						{ node: N.balance, type: 'main', index: 0 },
						{ node: N.failing, type: 'main', index: 0 },
					],
				],
			},
		},
		settings: { executionOrder: 'v1' },
	};
}
