/**
 * The action node's tools behind n8n's MCP Server Trigger, inside a real n8n
 * (COMPANY_PAYMENTS_N8N_VERSION; CI runs 2.41.1 and 2.8.4), against the sandbox, driven by the
 * official MCP client (@modelcontextprotocol/sdk) over both transports the trigger serves at
 * `/mcp/<path>`: streamable HTTP and SSE. One n8n start, every case on it.
 *
 * An MCP client is not a model run by n8n: each call is its own request, its own session if the
 * client likes, and n8n runs the tool before it creates an execution. The cases check what a
 * client relies on: the tools and their descriptions, masked answers, refusals and failures
 * marked `isError`, and one payment per payment reference, whatever the route (two sessions,
 * two transports, a retry after the client gave up waiting, parallel calls).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { startSandbox } from '../../sandbox/server.mjs';
import { N8N_VERSION } from '../../harness/n8n.mjs';
import { waitUntil } from '../../harness/lib/util.mjs';
import { e2eStack, sandboxCredential } from '../../harness/stack.mjs';
import { mcpWorkflow, toolNode } from '../../harness/workflows.mjs';

const MCP_PATH = 'company-payments';
const CARD_A = '2200111122223333';
const CARD_B = '2200444455556666';

const fromAI = (key, description) => `={{ $fromAI('${key}', '${description}', 'string') }}`;
const byId = (value) => ({ __rl: true, mode: 'id', value });

let sandbox;
let n8n;
const stack = e2eStack('mcp');
/** Every MCP client the suite opened, closed at the end. */
const clients = [];

/** A new MCP session over `transport` ('http' or 'sse'). */
async function connect(transport) {
	const url = new URL(`${n8n.url}/mcp/${MCP_PATH}`);
	const client = new Client({ name: 'company-payments-e2e', version: '1.0.0' });
	await client.connect(
		transport === 'sse' ? new SSEClientTransport(url) : new StreamableHTTPClientTransport(url),
	);
	clients.push(client);
	return client;
}

/** A tool call's answer: isError, and the text parsed as JSON when it is JSON. */
async function call(client, name, args, options) {
	const result = await client.callTool({ name, arguments: args }, undefined, options);
	const text = result.content.map((part) => part.text ?? '').join('\n');
	let json;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	return { isError: result.isError === true, text, json };
}

/** The error JSON n8n puts after "<ErrorName>: " in a tool error's text. */
function errorJson(text) {
	const start = text.indexOf('{');
	const end = text.indexOf('\n', start);
	return JSON.parse(end === -1 ? text.slice(start) : text.slice(start, end)).error;
}

const payoutsOf = (externalId) =>
	[...sandbox.state.payouts.values()].filter((payout) => payout.externalId === externalId);

const payArgs = (reference, amountRub = '1500', requisite = CARD_A) => ({
	amountRub,
	requisite,
	paymentReference: reference,
});

async function faults(body) {
	const res = await fetch(`${sandbox.url}/__control/faults`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify(body),
	});
	assert.equal(res.status, 200, await res.text());
}

before(async () => {
	await stack.prepare();
	sandbox = await stack.service(startSandbox());
	const [owner] = await stack.credentials([sandboxCredential(sandbox)]);
	const payoutFields = {
		resource: 'payout',
		operation: 'create',
		amountRub: fromAI('amountRub', 'Amount in RUB'),
		requisiteType: 'card',
		requisite: fromAI('requisite', 'Recipient card number'),
		// No Payment Reference set: the node's default asks the client for one ($fromAI).
	};
	const workflow = mcpWorkflow('mcp company payments', MCP_PATH, [
		toolNode(
			'get_payout',
			200,
			{ resource: 'payout', operation: 'get', payoutId: byId(fromAI('payoutId', 'The payout ID')) },
			owner,
		),
		toolNode('create_payout', 400, { ...payoutFields, agentMayMoveMoney: true }, owner),
		toolNode('create_payout_unapproved', 600, payoutFields, owner),
	]);
	// The trigger's path answers once n8n registered it.
	n8n = await stack.start({ workflows: [workflow], mcpPaths: [MCP_PATH] });
	stack.onStop(async () => {
		for (const client of clients) await client.close().catch(() => {});
	});
});

after(() => stack.stop());

describe(`MCP Server Trigger in n8n ${N8N_VERSION}`, () => {
	test('both transports list the tools with our descriptions and ask for a payment reference', async () => {
		for (const transport of ['http', 'sse']) {
			const client = await connect(transport);
			const { tools } = await client.listTools();
			const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
			assert.deepEqual(Object.keys(byName).sort(), [
				'create_payout',
				'create_payout_unapproved',
				'get_payout',
			]);
			assert.match(byName.get_payout.description, /Look up one payout by its ID/);
			assert.match(byName.create_payout.description, /Needs a paymentReference/);
			assert.doesNotMatch(byName.create_payout.description, /within one workflow run/);
			assert.ok(
				'paymentReference' in byName.create_payout.inputSchema.properties,
				JSON.stringify(byName.create_payout.inputSchema),
			);
		}
	});

	test('the same reference over two sessions and transports pays once; the recipient is masked', async () => {
		const http = await connect('http');
		const sse = await connect('sse');
		const first = await call(http, 'create_payout', payArgs('mcp-once'));
		assert.equal(first.isError, false, first.text);
		const again = await call(sse, 'create_payout', payArgs('mcp-once'));
		assert.equal(again.isError, false, again.text);
		assert.equal(payoutsOf('mcp-once').length, 1, 'the second call paid again');
		assert.equal(again.json[0].id, first.json[0].id);
		assert.equal(first.json[0].requisite, `•••• ${CARD_A.slice(-4)}`);
		// A read over SSE: masked too; the full number is in no answer.
		const read = await call(sse, 'get_payout', { payoutId: first.json[0].id });
		assert.equal(read.isError, false, read.text);
		assert.equal(read.json[0].requisite, `•••• ${CARD_A.slice(-4)}`);
		for (const text of [first.text, again.text, read.text]) assert.ok(!text.includes(CARD_A));
	});

	test('the same reference with another amount or recipient is an isError conflict, and nothing is paid', async () => {
		const client = await connect('http');
		const paid = await call(client, 'create_payout', payArgs('mcp-conflict'));
		assert.equal(paid.isError, false, paid.text);
		for (const args of [payArgs('mcp-conflict', '2500'), payArgs('mcp-conflict', '1500', CARD_B)]) {
			const conflict = await call(client, 'create_payout', args);
			assert.equal(conflict.isError, true, conflict.text);
			const error = errorJson(conflict.text);
			assert.equal(error.errorCode, 'PAYMENT_REFERENCE_CONFLICT', conflict.text);
			assert.equal(typeof error.whatToDo, 'string');
			assert.ok(!conflict.text.includes(CARD_B), conflict.text);
		}
		assert.deepEqual(
			payoutsOf('mcp-conflict').map((payout) => [payout.amountRub, payout.requisite]),
			[[1500, CARD_A]],
		);
	});

	test('a service error is isError, with errorCode, message, requestId and whatToDo', async () => {
		const client = await connect('sse');
		const missing = await call(client, 'get_payout', { payoutId: 'po_does_not_exist' });
		assert.equal(missing.isError, true, missing.text);
		const error = errorJson(missing.text);
		assert.equal(error.errorCode, 'PAYOUT_NOT_FOUND', missing.text);
		assert.equal(error.httpCode, 404);
		assert.equal(typeof error.message, 'string');
		assert.match(String(error.requestId), /^req_/);
		assert.equal(typeof error.whatToDo, 'string');
	});

	test('money without the opt-in, or without a reference, is refused as isError and nothing is paid', async () => {
		const client = await connect('http');
		const refused = await call(client, 'create_payout_unapproved', payArgs('mcp-refused'));
		assert.equal(refused.isError, true, refused.text);
		assert.match(errorJson(refused.text).message, /moves money/);
		const blank = await call(client, 'create_payout', payArgs('  '));
		assert.equal(blank.isError, true, blank.text);
		assert.match(errorJson(blank.text).whatToDo, /paymentReference set to/);
		assert.deepEqual(payoutsOf('mcp-refused'), []);
		assert.deepEqual(payoutsOf('  '), []);
	});

	test('a retry after the client gave up waiting answers with the first payout', async () => {
		const client = await connect('http');
		// The service takes 1.5 s to answer payouts; the client waits 0.3 s.
		await faults({ latencyMs: 1500, pathPrefix: '/payouts' });
		try {
			await assert.rejects(
				call(client, 'create_payout', payArgs('mcp-timeout'), { timeout: 300 }),
				/timed out|timeout/i,
			);
			await waitUntil(() => payoutsOf('mcp-timeout').length > 0, {
				timeoutMs: 15_000,
				what: 'the payout the timed-out call made',
			});
		} finally {
			await faults({});
		}
		const retry = await call(client, 'create_payout', payArgs('mcp-timeout'));
		assert.equal(retry.isError, false, retry.text);
		assert.equal(payoutsOf('mcp-timeout').length, 1, 'the retry paid again');
		assert.equal(retry.json[0].id, payoutsOf('mcp-timeout')[0].id);
	});

	test('a service that ignores the key of POST /payouts: one reference asked twice still pays once', async () => {
		await faults({ ignoreIdempotencyKeys: true, pathPrefix: '/payouts' });
		try {
			// The sandbox plays that answer: outside n8n, one key sent twice makes two payouts.
			for (let i = 0; i < 2; i++) {
				const res = await fetch(`${sandbox.url}/payouts`, {
					method: 'POST',
					headers: {
						'X-API-Key': sandbox.keys.owner,
						'Content-Type': 'application/json',
						'Idempotency-Key': 'mcp-no-replay-probe',
					},
					body: JSON.stringify({
						amountRub: 100,
						requisiteType: 'card',
						requisite: CARD_B,
						externalId: 'mcp-no-replay-probe',
					}),
				});
				assert.equal(res.status, 201, await res.text());
			}
			assert.equal(payoutsOf('mcp-no-replay-probe').length, 2);
			// The node finds the payout by its External ID (the reference) before creating one.
			const client = await connect('sse');
			const first = await call(client, 'create_payout', payArgs('mcp-no-replay'));
			assert.equal(first.isError, false, first.text);
			const again = await call(client, 'create_payout', payArgs('mcp-no-replay'));
			assert.equal(again.isError, false, again.text);
			assert.equal(payoutsOf('mcp-no-replay').length, 1, 'the second call paid again');
			assert.equal(again.json[0].id, first.json[0].id);
			assert.equal(again.json[0].repeated, true);
		} finally {
			await faults({});
		}
	});

	test('parallel calls: one reference from four sessions is one payout, reads answer each', async () => {
		const sessions = await Promise.all(['http', 'sse', 'http', 'sse'].map(connect));
		const answers = await Promise.all(
			sessions.map((client) => call(client, 'create_payout', payArgs('mcp-parallel'))),
		);
		for (const answer of answers) assert.equal(answer.isError, false, answer.text);
		const [payout] = payoutsOf('mcp-parallel');
		assert.equal(payoutsOf('mcp-parallel').length, 1, 'parallel calls paid more than once');
		assert.deepEqual(new Set(answers.map((answer) => answer.json[0].id)), new Set([payout.id]));
		const reads = await Promise.all(
			sessions.map((client) => call(client, 'get_payout', { payoutId: payout.id })),
		);
		for (const read of reads) assert.equal(read.json[0].id, payout.id, read.text);
	});
});
