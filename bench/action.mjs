// Benchmark 3: the Company Payments node (Order → Get) against n8n's HTTP Request node making
// the same GET /orders/{id} calls, 1,000 input items each, inside a real n8n, against the
// sandbox over loopback.
//
// Both workflows: Webhook (respond when the last node finishes, all entries) → Split Out
// (1,000 items from the posted list) → the node under test. The figure is the round trip of
// the webhook call, so both include the same Webhook, Split Out and response work. The HTTP
// Request node uses our credential ("Predefined Credential Type"), so both send X-API-Key.
// Our node runs read-only operations 10 items at a time (READ_CONCURRENCY); the HTTP Request
// node, without its Batching option, starts every item's request at once.
import { summary } from './lib/stats.mjs';
import {
	actionNode,
	httpClient,
	httpRequestNode,
	postJson,
	splitOutNode,
	webhookWorkflow,
} from './lib/n8n.mjs';

const RESPOND_WITH_ALL_ITEMS = { responseMode: 'lastNode', responseData: 'allEntries' };

export function actionWorkflows(credential, sandboxUrl) {
	return {
		node: webhookWorkflow(
			'orders-node',
			[
				splitOutNode('body.orders'),
				actionNode(credential, { resource: 'order', operation: 'get', orderId: '={{ $json.id }}' }),
			],
			RESPOND_WITH_ALL_ITEMS,
		),
		http: webhookWorkflow(
			'orders-http',
			[
				splitOutNode('body.orders'),
				httpRequestNode(credential, `={{ "${sandboxUrl}/orders/" + $json.id }}`),
			],
			RESPOND_WITH_ALL_ITEMS,
		),
	};
}

async function once(n8n, client, target, payload, expectedIds) {
	const { json, ms } = await postJson(client, n8n.webhookUrl(target.path), payload);
	if (!Array.isArray(json) || json.length !== expectedIds.length) {
		throw new Error(
			`${target.path}: expected ${expectedIds.length} items, got ${JSON.stringify(json).slice(0, 300)}`,
		);
	}
	for (let i = 0; i < json.length; i++) {
		if (json[i].id !== expectedIds[i])
			throw new Error(`${target.path}: item ${i} is ${json[i].id}, expected ${expectedIds[i]}`);
	}
	return ms;
}

/**
 * @param {object} n8n running n8n with the workflows of actionWorkflows() active
 * @param {object} sandbox the sandbox the credential points at
 */
export async function benchAction(
	n8n,
	sandbox,
	workflows,
	{ items = 1000, runs = 5, log = () => {} } = {},
) {
	const orderIds = [...sandbox.state.orders.values()]
		.filter((order) => order.companyId === sandbox.company.id)
		.map((order) => order.id);
	if (orderIds.length === 0) throw new Error('the sandbox has no orders');
	const ids = Array.from({ length: items }, (_, i) => orderIds[i % orderIds.length]);
	const payload = { orders: ids.map((id) => ({ id })) };
	const client = httpClient(2);
	try {
		log(`action: warm-up`);
		const requestsBefore = sandbox.publicRequests;
		await once(n8n, client, workflows.node, payload, ids);
		await once(n8n, client, workflows.http, payload, ids);
		const calls = sandbox.publicRequests - requestsBefore;
		if (calls !== 2 * items) throw new Error(`expected ${2 * items} sandbox calls, saw ${calls}`);
		const node = [];
		const http = [];
		const ratios = [];
		for (let run = 0; run < runs; run++) {
			log(`action: run ${run + 1}/${runs}, ${items} items each`);
			let a;
			let b;
			if (run % 2 === 0) {
				a = await once(n8n, client, workflows.node, payload, ids);
				b = await once(n8n, client, workflows.http, payload, ids);
			} else {
				b = await once(n8n, client, workflows.http, payload, ids);
				a = await once(n8n, client, workflows.node, payload, ids);
			}
			node.push(a);
			http.push(b);
			ratios.push(a / b);
		}
		return { items, runs, nodeMs: summary(node), httpMs: summary(http), ratio: summary(ratios) };
	} finally {
		client.close();
	}
}
