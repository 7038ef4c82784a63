/**
 * Issue 37 over the real doors: canary secrets through n8n's AI Agent and MCP Server Trigger, in
 * a real n8n (COMPANY_PAYMENTS_N8N_VERSION; one case per version). The credential holds canaries
 * (API key, webhook secret, previous webhook secret), and a service on 127.0.0.1 answers every
 * call with canaries planted everywhere (an invite token also under another field name, a card
 * number and CVV, the secrets listed under one field, an error body, a redirect's Location, a
 * body that is not JSON, a cut-short JSON, headers). The case reads every byte the scripted model
 * received, every byte the MCP client received, and every stored execution, and finds no canary.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { N8N_VERSION, uuid } from '../../harness/n8n.mjs';
import { e2eStack, sandboxCredential } from '../../harness/stack.mjs';
import { mcpWorkflow, toolNode, webhookNode } from '../../harness/workflows.mjs';
import { startModelServer } from '../../harness/model-server.mjs';

const MCP_PATH = 'company-payments-canary';

/** Shapeless canaries (only the gate's knowledge of the value finds them), as in the unit suite. */
const CANARY = {
	apiKey: 'dummyE2eK3y/9Qw+Zt=Lm7Xp2Rv',
	webhookSecret: 'dummyE2eH00kS3cret7Vb2Nq6Wd',
	previousSecret: 'dummyE2ePr3v"S3cret\\8Kd3Tg',
	inviteToken: 'dummyE2eInv1t3Tok5Hg7Jk2Ws',
	cardNumber: '5555555555554444',
	cvv: '739',
};
const LONG = Object.keys(CANARY).filter((name) => name !== 'cvv');

/** Every way a canary can still be read in a text, also inside JSON inside JSON. */
function forms(name) {
	const value = CANARY[name];
	const encoded = encodeURIComponent(value);
	const once = JSON.stringify(value).slice(1, -1);
	const out = new Set([
		value,
		encoded,
		encoded.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
		once,
		JSON.stringify(once).slice(1, -1),
	]);
	if (name === 'cardNumber') out.add(value.slice(0, 12));
	return [...out];
}
const CVV_READ = [
	new RegExp(`\\\\*"${CANARY.cvv}\\\\*"`),
	new RegExp(`(cvv|cvc)\\W{0,8}${CANARY.cvv}\\b`, 'i'),
];

/** The canaries found in a text, with a little context each. */
function leaks(text, where) {
	const found = [];
	for (const name of LONG) {
		for (const form of forms(name)) {
			const at = text.indexOf(form);
			if (at >= 0)
				found.push(`${name} in ${where}: …${text.slice(Math.max(0, at - 80), at + 40)}…`);
		}
	}
	for (const pattern of CVV_READ) {
		const match = pattern.exec(text);
		if (match)
			found.push(
				`cvv in ${where}: …${text.slice(Math.max(0, match.index - 80), match.index + 20)}…`,
			);
	}
	return found;
}

const sentence = (value) => `Проверьте ${value}: see ${value}.`;

function plantedRecord() {
	const record = {
		id: 'po_canary',
		status: 'waiting_trader',
		amountRub: 1500,
		requisiteType: 'card',
		requisite: CANARY.cardNumber,
		url: `https://cabinet.example.com/invite/${CANARY.inviteToken}`,
		code: CANARY.inviteToken,
		cardNumberFull: CANARY.cardNumber,
		cardCvv: CANARY.cvv,
		webhookSecret: [CANARY.webhookSecret, CANARY.previousSecret],
		comment: sentence(LONG.map((name) => CANARY[name]).join(', ')),
		details: { list: [{ deep: LONG.map((name) => CANARY[name]) }], cvv: CANARY.cvv },
	};
	for (const name of LONG) {
		record[`zq${name}`] = CANARY[name];
		record[`${name}Link`] = `https://x.example.com/p?q=${encodeURIComponent(CANARY[name])}`;
		record[`${name}Json`] = JSON.stringify({ value: CANARY[name] });
	}
	return record;
}

const HEADERS = {
	'Content-Type': 'application/json',
	'X-Request-Id': `req-${CANARY.apiKey}`,
	'X-Debug': `${CANARY.webhookSecret};${CANARY.previousSecret}`,
};

/** The service: what it answers is chosen by the ID in the path the tool calls. */
async function startCanaryService() {
	const server = http.createServer((req, res) => {
		req.resume();
		req.on('end', () => {
			const { pathname } = new URL(req.url, 'http://127.0.0.1');
			const send = (status, body, headers = {}) => {
				res.writeHead(status, { ...HEADERS, ...headers });
				res.end(typeof body === 'string' ? body : JSON.stringify(body));
			};
			if (pathname.endsWith('/error')) {
				return send(400, {
					statusCode: 400,
					error: 'Bad Request',
					errorCode: 'VALIDATION_ERROR',
					message: [sentence(CANARY.apiKey), sentence(CANARY.inviteToken), `CVV ${CANARY.cvv}`],
					details: plantedRecord(),
					path: `/api/auth/invites/${CANARY.inviteToken}`,
					token: CANARY.inviteToken,
				});
			}
			if (pathname.endsWith('/redirect')) {
				return send(302, plantedRecord(), {
					Location: `https://login.example.com/invite/${CANARY.inviteToken}/${encodeURIComponent(CANARY.apiKey)}?token=${CANARY.inviteToken}`,
				});
			}
			if (pathname.endsWith('/html')) {
				return send(
					400,
					`<html>${LONG.map((name) => CANARY[name]).join(' ')} CVV ${CANARY.cvv}</html>`,
					{
						'Content-Type': 'text/html',
					},
				);
			}
			if (pathname.endsWith('/cut'))
				return send(200, JSON.stringify(plantedRecord()).slice(0, 500));
			if (pathname === '/members/invites') return send(200, [plantedRecord(), plantedRecord()]);
			return send(200, plantedRecord());
		});
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${server.address().port}`,
		close: () => new Promise((resolve) => server.close(resolve)),
	};
}

const fromAI = (key, description) => `={{ $fromAI('${key}', '${description}', 'string') }}`;
const byId = (value) => ({ __rl: true, mode: 'id', value });

/** The calls both the agent and the MCP client make: every kind of answer. */
const CALLS = [
	['get_payout', { payoutId: 'record' }],
	['get_payout', { payoutId: 'error' }],
	['get_payout', { payoutId: 'redirect' }],
	['get_payout', { payoutId: 'html' }],
	['get_payout', { payoutId: 'cut' }],
	['card_details', { cardId: 'card_1' }],
	['company_profile', {}],
	['list_invites', {}],
];

const SCRIPTS = {
	canaries: [...CALLS.map(([name, args]) => ({ call: [{ name, args }] })), { say: 'Done.' }],
};

let service;
let model;
let n8n;
const stack = e2eStack('canary');
let agent;
let mcp;
const mcpBytes = [];
const clients = [];

function tools(credential) {
	const node = (name, x, parameters) => toolNode(name, x, parameters, credential);
	return [
		node('get_payout', 300, {
			resource: 'payout',
			operation: 'get',
			payoutId: byId(fromAI('payoutId', 'The payout ID')),
		}),
		node('card_details', 400, {
			resource: 'card',
			operation: 'getSensitiveData',
			cardId: byId(fromAI('cardId', 'Card ID')),
		}),
		node('company_profile', 500, { resource: 'company', operation: 'getProfile' }),
		node('list_invites', 600, { resource: 'invite', operation: 'getMany', returnAll: true }),
	];
}

before(async () => {
	await stack.prepare();
	service = await stack.service(startCanaryService());
	model = await stack.service(startModelServer({ scripts: SCRIPTS }));
	const [credential, openAi] = await stack.credentials([
		sandboxCredential(service, {
			name: 'Canary company',
			apiKey: CANARY.apiKey,
			data: {
				webhookSecret: CANARY.webhookSecret,
				previousWebhookSecret: CANARY.previousSecret,
			},
		}),
		{
			name: 'Scripted model',
			type: 'openAiApi',
			data: { apiKey: 'sk-scripted-model', url: `${model.url}/v1` },
		},
	]);
	const agentTools = tools(credential);
	const webhookPath = 'canary-agent';
	const toAgent = { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] };
	agent = {
		id: uuid().replace(/-/g, '').slice(0, 16),
		name: 'canary agent',
		nodes: [
			webhookNode(webhookPath),
			{
				id: uuid(),
				name: 'AI Agent',
				type: '@n8n/n8n-nodes-langchain.agent',
				typeVersion: 3,
				position: [220, 0],
				parameters: { promptType: 'define', text: '={{ $json.body.prompt }}', options: {} },
			},
			{
				id: uuid(),
				name: 'Model',
				type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
				typeVersion: 1.2,
				position: [100, 260],
				parameters: { model: { __rl: true, mode: 'id', value: 'scripted' }, options: {} },
				credentials: { openAiApi: { id: openAi.id, name: openAi.name } },
			},
			...agentTools,
		],
		connections: {
			Webhook: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
			Model: { ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]] },
			...Object.fromEntries(agentTools.map((tool) => [tool.name, toAgent])),
		},
		settings: { executionOrder: 'v1' },
		webhookPath,
	};
	mcp = mcpWorkflow('canary mcp', MCP_PATH, tools(credential));
	n8n = await stack.start({ workflows: [agent, mcp], mcpPaths: [MCP_PATH] });
	stack.onStop(async () => {
		for (const client of clients) await client.close().catch(() => {});
	});
});

after(() => stack.stop());

/** fetch for the MCP client that keeps every byte of every answer it reads. */
async function recordingFetch(url, init) {
	const res = await fetch(url, init);
	const [kept, given] = res.body ? res.body.tee() : [null, null];
	if (kept) {
		(async () => {
			const reader = kept.getReader();
			const decoder = new TextDecoder();
			for (;;) {
				const { done, value } = await reader.read();
				if (done) break;
				mcpBytes.push(decoder.decode(value, { stream: true }));
			}
		})().catch(() => {});
	}
	return new Response(given, {
		status: res.status,
		statusText: res.statusText,
		headers: res.headers,
	});
}

describe(`canary secrets through the AI Agent and the MCP Server Trigger, n8n ${N8N_VERSION}`, () => {
	test('no canary in what the model or the MCP client received, nor in any stored execution', async () => {
		// The AI Agent: the scripted model calls every tool with every kind of answer.
		const res = await fetch(n8n.webhookUrl(agent.webhookPath), {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ prompt: 'scenario: canaries. Please check everything.' }),
		});
		const answered = await res.text();
		assert.equal(res.status, 200, answered);
		const toolResults = model.requests.at(-1).body.messages.filter((m) => m.role === 'tool');
		assert.equal(toolResults.length, CALLS.length, 'every tool answered the model');

		// The MCP client: the same calls, every byte it reads kept.
		const client = new Client({ name: 'company-payments-canary', version: '1.0.0' });
		await client.connect(
			new StreamableHTTPClientTransport(new URL(`${n8n.url}/mcp/${MCP_PATH}`), {
				fetch: recordingFetch,
			}),
		);
		clients.push(client);
		const results = [];
		for (const [name, args] of CALLS) {
			results.push(
				await client
					.callTool({ name, arguments: args })
					.catch((error) => ({ thrown: String(error) })),
			);
		}
		assert.equal(results.length, CALLS.length);
		assert.ok(mcpBytes.length > 0, 'the MCP client read answers');

		const executions = [
			...(await n8n.waitForExecutions({ workflowId: agent.id, count: 1 })),
			...(await n8n.getExecutions({ workflowId: mcp.id, includeData: true })),
		];
		assert.ok(executions.length >= 1);

		const found = [
			...leaks(answered, 'the agent webhook answer'),
			...model.requests.flatMap((request, index) => leaks(request.raw, `model request ${index}`)),
			...leaks(mcpBytes.join(''), 'the MCP client bytes'),
			...leaks(JSON.stringify(results), 'the MCP results'),
			...executions.flatMap((execution) =>
				leaks(JSON.stringify(execution), `execution ${execution.id}`),
			),
		];
		assert.deepEqual(found, []);
	});
});
