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
	savedOn11: 'Card Saved On 1.1',
});

/**
 * Issue 21: one node per list of the resource locators (node version 1.2), each with the field
 * that opens its list and what every entry of that list must look like in the sandbox.
 */
export const PICKERS = Object.freeze([
	{
		key: 'cards',
		node: 'Pick Card',
		parameters: { resource: 'card', operation: 'get' },
		field: 'cardId',
		entry: /^demo-card-001 · •••• \d{4} · assigned$/,
	},
	{
		key: 'assigned-cards',
		node: 'Pick Card To Reveal',
		parameters: { resource: 'card', operation: 'getSensitiveData' },
		field: 'cardId',
		entry: / · assigned$/,
	},
	{
		key: 'orders',
		node: 'Pick Order',
		parameters: { resource: 'order', operation: 'get' },
		field: 'orderId',
		entry: /^[\d.]+ RUB · .+ · \d{4}-\d{2}-\d{2} \d{2}:\d{2} · [a-z_]+$/,
	},
	{
		key: 'disputable-orders',
		node: 'Pick Order To Dispute',
		parameters: { resource: 'dispute', operation: 'create', reason: 'UI walk' },
		field: 'orderId',
		entry: / · (success|failed)$/,
	},
	{
		key: 'payouts',
		node: 'Pick Payout',
		parameters: { resource: 'payout', operation: 'get' },
		field: 'payoutId',
		entry: /^[\d.]+ RUB · •••• \d{4} · [a-z_]+ · \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/,
	},
	{
		key: 'cancelable-payouts',
		node: 'Pick Payout To Cancel',
		parameters: { resource: 'payout', operation: 'cancel' },
		field: 'payoutId',
		entry: / · waiting_trader · /,
	},
	{
		key: 'members',
		node: 'Pick Member',
		parameters: { resource: 'member', operation: 'update' },
		field: 'userId',
		entry: /^[^\s@]+@demo-co\.example · (owner|admin|member)$/,
	},
	{
		key: 'invites',
		node: 'Pick Invite',
		parameters: { resource: 'invite', operation: 'revoke' },
		field: 'inviteId',
		entry:
			/^(new\.hire@demo-co\.example|Anyone with the link) · member · expires \d{4}-\d{2}-\d{2}$/,
	},
	{
		key: 'user-wallets',
		node: 'Pick User Wallet',
		parameters: { resource: 'userWallet', operation: 'block' },
		field: 'walletId',
		entry: /^user-\d+ · [a-z]+ · \d{4}-/,
	},
]);

/** The sandbox's one card (seeded as demo-card-001, assigned). */
export function sandboxCard(sandbox) {
	return [...sandbox.state.cards.values()].find((card) => card.externalId === 'demo-card-001');
}

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
export function walkWorkflow({ credentials: c, hasPollTrigger, newest = 1, cardId = '' }) {
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
	// Issue 21: the record pickers of the newest version, and a node saved on version 1.1 with
	// the card ID as plain text, as its workflows hold it.
	PICKERS.forEach((picker, index) => {
		nodes.push(
			node(
				picker.node,
				NODE_TYPE,
				[1200 + 300 * (index % 3), -360 + 240 * Math.floor(index / 3)],
				picker.parameters,
				{
					credential,
					typeVersion: newest,
				},
			),
		);
	});
	nodes.push(
		node(
			N.savedOn11,
			NODE_TYPE,
			[1200, 480],
			{ resource: 'card', operation: 'get', cardId },
			{ credential, typeVersion: 1.1 },
		),
	);
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
						{ node: PICKERS[0].node, type: 'main', index: 0 },
						{ node: N.savedOn11, type: 'main', index: 0 },
					],
				],
			},
		},
		settings: { executionOrder: 'v1' },
	};
}
