/**
 * The action node inside a real n8n 2.8.4, against the sandbox over loopback, once per sandbox
 * profile (the contract's open choices answered one way or the other; see PROFILES below).
 *
 * Each workflow is n8n's Webhook node ("respond when the last node finishes") followed by one
 * Company Payments operation, so a test posts its input and reads the node's output items from
 * the answer; failures are read back from the stored execution, as a user would in the UI.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';

import { startSandbox } from '../../sandbox/server.mjs';
import { uuid } from '../../harness/n8n.mjs';
import { e2eStack, sandboxControl, sandboxCredential } from '../../harness/stack.mjs';
import { NODE_TYPES, webhookNode } from '../../harness/workflows.mjs';

const NODE = NODE_TYPES.action;
const QR = 'https://qr.nspk.ru/AS10001?type=02&sum=150000&cur=RUB';

/** Webhook → Company Payments(resource, operation, parameters) with the given credential. */
function operationWorkflow(name, credential, parameters) {
	const webhookPath = `e2e-${name}`;
	return {
		id: uuid().replace(/-/g, '').slice(0, 16),
		name: `e2e ${name}`,
		nodes: [
			webhookNode(webhookPath),
			{
				id: uuid(),
				name: 'Company Payments',
				type: NODE,
				typeVersion: 1,
				position: [220, 0],
				parameters,
				credentials: { companyPaymentsApi: { id: credential.id, name: credential.name } },
			},
		],
		connections: {
			Webhook: { main: [[{ node: 'Company Payments', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
		webhookPath,
	};
}

/** Sets the node to "On Error: Continue (using error output)" and wires both outputs to NoOps. */
function withErrorOutput(workflow) {
	const node = workflow.nodes.find((candidate) => candidate.name === 'Company Payments');
	node.onError = 'continueErrorOutput';
	for (const [index, name] of ['on success', 'on error'].entries()) {
		workflow.nodes.push({
			id: uuid(),
			name,
			type: 'n8n-nodes-base.noOp',
			typeVersion: 1,
			position: [440, index * 160],
			parameters: {},
		});
	}
	workflow.connections['Company Payments'] = {
		main: [
			[{ node: 'on success', type: 'main', index: 0 }],
			[{ node: 'on error', type: 'main', index: 0 }],
		],
	};
	return workflow;
}

/** Webhook → Split Out (body.items) → Company Payments: one item per element of `items`. */
function withSplitItems(workflow) {
	const node = workflow.nodes.find((candidate) => candidate.name === 'Company Payments');
	workflow.nodes.push({
		id: uuid(),
		name: 'Split Out',
		type: 'n8n-nodes-base.splitOut',
		typeVersion: 1,
		position: [110, 0],
		parameters: { fieldToSplitOut: 'body.items', include: 'noOtherFields', options: {} },
	});
	workflow.connections.Webhook = { main: [[{ node: 'Split Out', type: 'main', index: 0 }]] };
	workflow.connections['Split Out'] = {
		main: [[{ node: node.name, type: 'main', index: 0 }]],
	};
	return workflow;
}

/** Appends a second Company Payments node after the first (same item, same execution). */
function thenNode(workflow, name, parameters) {
	const first = workflow.nodes.find((candidate) => candidate.name === 'Company Payments');
	workflow.nodes.push({ ...first, id: uuid(), name, position: [440, 0], parameters });
	workflow.connections['Company Payments'] = { main: [[{ node: name, type: 'main', index: 0 }]] };
	return workflow;
}

/** n8n's Retry On Fail on the Company Payments node. */
function withRetryOnFail(workflow) {
	const node = workflow.nodes.find((candidate) => candidate.name === 'Company Payments');
	Object.assign(node, { retryOnFail: true, maxTries: 3, waitBetweenTries: 100 });
	return workflow;
}

/**
 * The sandbox profiles this suite runs against, each with every case. `default` and `contrary`
 * answer every open choice of the contract differently (see sandbox/README.md, Profiles);
 * `cap50` adds a third page size and the path-scoped Idempotency-Key.
 * COMPANY_PAYMENTS_E2E_PROFILES=default,contrary narrows (or widens) the list.
 */
const PROFILES = (process.env.COMPANY_PAYMENTS_E2E_PROFILES ?? 'default,cap50,contrary')
	.split(',')
	.map((name) => name.trim())
	.filter(Boolean);

const SECRET = `whsec_${'5e7a'.repeat(12)}`;
const CARD = '4111111111111111';

let sandbox;
/** A base URL that redirects every request (302/307) to `elsewhere`, which records what reaches it. */
let redirector;
let elsewhere;
let n8n;
const stack = e2eStack('action');
const workflows = {};
/** Executions started per workflow, so a test waits for its own and reads the newest. */
const started = {};

async function call(name, body = {}) {
	started[name] = (started[name] ?? 0) + 1;
	const res = await fetch(n8n.webhookUrl(workflows[name].webhookPath), {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify(body),
	});
	const text = await res.text();
	let json;
	try {
		json = JSON.parse(text);
	} catch {
		json = text;
	}
	return { status: res.status, body: json };
}

const ctl = (method, urlPath, body) => sandboxControl(sandbox, method, urlPath, body);

/** The newest execution of a workflow, once all the executions this suite started are stored. */
async function newestExecution(name) {
	const executions = await n8n.waitForExecutions({
		workflowId: workflows[name].id,
		count: started[name] ?? 1,
	});
	return executions.sort((a, b) => Number(b.id) - Number(a.id))[0];
}

/** The error the Company Payments node raised in the newest execution of a workflow. */
async function nodeError(name) {
	const execution = await newestExecution(name);
	assert.equal(execution.status, 'error', `execution ${execution.id} should have failed`);
	const run = execution.data.resultData.runData['Company Payments'].at(-1);
	assert.ok(run.error, 'the node run carries the error');
	return run.error;
}

/** A loopback HTTP server that records requests in `seen`; `close()` stops it. */
async function listen(handler) {
	const server = http.createServer(handler);
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${server.address().port}`,
		seen: [],
		close: () => new Promise((resolve) => server.close(resolve)),
	};
}

const payoutsOf = (externalId) =>
	[...sandbox.state.payouts.values()].filter((payout) => payout.externalId === externalId);

before(async () => {
	await stack.prepare();
	sandbox = await stack.service(startSandbox({ retryDelaysMs: [0, 50, 100, 200] }));
	elsewhere = await stack.service(
		listen((req, res) => {
			elsewhere.seen.push({ method: req.method, url: req.url, headers: req.headers });
			res.writeHead(200, { 'Content-Type': 'application/json' });
			res.end(JSON.stringify({ id: 'po_elsewhere', status: 'waiting_trader', amountRub: 1 }));
		}),
	);
	redirector = await stack.service(
		listen((req, res) => {
			redirector.seen.push({ method: req.method, url: req.url });
			const status = req.url.startsWith('/payouts') ? 307 : 302;
			res.writeHead(status, { Location: `${elsewhere.url}${req.url}?token=abc` });
			res.end();
		}),
	);

	const data = { webhookSecret: '' };
	const [owner, reader, legacy, redirecting] = await stack.credentials([
		sandboxCredential(sandbox, { data }),
		sandboxCredential(sandbox, { name: 'Sandbox read-only', key: 'readOnly', data }),
		sandboxCredential(sandbox, { name: 'Sandbox company key', key: 'legacy', data }),
		sandboxCredential(sandbox, {
			name: 'Redirecting base URL',
			data: { ...data, baseUrl: redirector.url },
		}),
	]);
	const payoutParameters = {
		resource: 'payout',
		operation: 'create',
		amountRub: '={{ $json.body.amountRub }}',
		requisiteType: 'card',
		requisite: CARD,
		additionalFields: { externalId: '={{ $json.body.externalId }}' },
	};
	const list = [
		operationWorkflow('pay', owner, {
			resource: 'order',
			operation: 'pay',
			qrCode: '={{ $json.body.qrCode }}',
		}),
		operationWorkflow('pay-reader', reader, {
			resource: 'order',
			operation: 'pay',
			qrCode: '={{ $json.body.qrCode }}',
		}),
		operationWorkflow('get-order', owner, {
			resource: 'order',
			operation: 'get',
			orderId: '={{ $json.body.orderId }}',
		}),
		operationWorkflow('dispute', owner, {
			resource: 'dispute',
			operation: 'create',
			orderId: '={{ $json.body.orderId }}',
			reason: '={{ $json.body.reason }}',
		}),
		operationWorkflow('deposits', owner, {
			resource: 'companyWallet',
			operation: 'getDeposits',
			returnAll: true,
		}),
		operationWorkflow('payouts-130', owner, {
			resource: 'payout',
			operation: 'getMany',
			returnAll: false,
			limit: 130,
		}),
		operationWorkflow('balance', owner, { resource: 'companyWallet', operation: 'getBalance' }),
		operationWorkflow('profile', owner, { resource: 'company', operation: 'getProfile' }),
		operationWorkflow('payout', owner, payoutParameters),
		withRetryOnFail(operationWorkflow('payout-retry', owner, payoutParameters)),
		operationWorkflow('payout-redirected', redirecting, payoutParameters),
		operationWorkflow('balance-redirected', redirecting, {
			resource: 'companyWallet',
			operation: 'getBalance',
		}),
		thenNode(
			withSplitItems(
				operationWorkflow('pay-then-payout', owner, {
					resource: 'order',
					operation: 'pay',
					qrCode: '={{ $json.qrCode }}',
				}),
			),
			'Payout',
			{
				...payoutParameters,
				amountRub: 1000,
				additionalFields: { externalId: "={{ $('Split Out').item.json.externalId }}" },
			},
		),
		operationWorkflow('login', legacy, {
			resource: 'company',
			operation: 'login',
			email: '={{ $json.body.email }}',
			password: '={{ $json.body.password }}',
		}),
		withErrorOutput(
			operationWorkflow('get-order-error-output', owner, {
				resource: 'order',
				operation: 'get',
				orderId: '={{ $json.body.orderId }}',
			}),
		),
	];
	for (const workflow of list) workflows[workflow.name.replace(/^e2e /, '')] = workflow;

	// One CLI call imports them all; n8n's public API activates them once it runs.
	n8n = await stack.start({ workflows: list });
});

after(() => stack.stop());

for (const profile of PROFILES) {
	describe(`sandbox profile ${profile}`, () => {
		before(async () => {
			await ctl('POST', '/profile', { profile });
			await ctl('POST', '/reset');
		});

		test('Pay QR Code: the output is the order, and the amount is reserved in the sandbox', async () => {
			const before = sandbox.state.companies.get('cmp_demo').frozenBalance;
			const { status, body } = await call('pay', { qrCode: QR });
			assert.equal(status, 200, JSON.stringify(body));
			assert.equal(body.length, 1);
			const order = body[0];
			assert.match(order.id, /^[0-9a-f-]{36}$/);
			assert.equal(order.status, 'created');
			assert.equal(order.amountRub, 1500);
			assert.equal(order.paymentType, 'nspk');
			assert.equal(typeof order.quote.id, 'string');

			const balance = await call('balance');
			assert.equal(balance.status, 200);
			assert.ok(
				Math.abs(balance.body[0].frozenBalance - before - order.amountUsdt) < 1e-6,
				'exactly the order amount is frozen',
			);
		});

		test('Dispute Create on a completed order opens a dispute; a second call returns the open one', async () => {
			const paid = await call('pay', { qrCode: QR });
			const orderId = paid.body[0].id;
			await ctl('POST', `/orders/${orderId}/status`, { status: 'success' });

			const first = await call('dispute', { orderId, reason: 'The shop says it was not paid' });
			assert.equal(first.status, 200, JSON.stringify(first.body));
			assert.equal(first.body[0].orderId, orderId);
			assert.equal(first.body[0].status, 'submitted');
			assert.equal(first.body[0].existingDispute, false);

			const second = await call('dispute', {
				orderId,
				reason: 'Another ticket about the same order',
			});
			assert.equal(second.body[0].id, first.body[0].id);
			assert.equal(second.body[0].existingDispute, true);
		});

		test('Get Deposits with Return All pages through all 250 seeded deposits', async () => {
			const requestsBefore = sandbox.publicRequests;
			const { status, body } = await call('deposits');
			assert.equal(status, 200);
			assert.equal(body.length, 250);
			assert.equal(new Set(body.map((deposit) => deposit.id)).size, 250);
			// A client that knew the cap needs its first page and then pages that each bring
			// cap - overlap new records (each starts PAGE_OVERLAP = 2 records early, a quarter of
			// a page at most), and one more (the empty page) without a total; the node may spend
			// one request on learning the cap.
			const { pageCap, listTotal } = sandbox.profile;
			const step = pageCap - Math.min(2, Math.floor(pageCap / 4));
			const knowingTheCap = 1 + Math.ceil((250 - pageCap) / step) + (listTotal ? 0 : 1);
			const requests = sandbox.publicRequests - requestsBefore;
			assert.ok(
				requests <= knowingTheCap + 1,
				`${requests} requests for 250 records at ${pageCap} a page (bound ${knowingTheCap + 1})`,
			);
		});

		test('Get Many Payouts with Limit 130 returns exactly the first 130 payouts in the service order', async () => {
			await ctl('POST', '/payouts/bulk', { count: 200 });
			const stored = [...sandbox.state.payouts.values()];
			const inOrder = sandbox.profile.listOrder === 'oldest' ? stored : stored.reverse();
			const { status, body } = await call('payouts-130');
			assert.equal(status, 200);
			assert.deepEqual(
				body.map((payout) => payout.id),
				inOrder.slice(0, 130).map((payout) => payout.id),
			);
		});

		test('Company Get Profile never puts the full webhook secret into the output', async () => {
			await ctl('POST', '/webhook-url', { url: 'http://127.0.0.1:9/hook', secret: SECRET });
			const { status, body } = await call('profile');
			assert.equal(status, 200, JSON.stringify(body));
			assert.equal(body[0].webhookUrl, 'http://127.0.0.1:9/hook');
			assert.ok(!JSON.stringify(body).includes(SECRET), 'the secret is not in the output');
			assert.match(body[0].webhookSecret, /5e7a$/, 'the masked secret keeps its last characters');
		});

		test('two items through Pay QR Code and then Payout Create move money four times, once each', async () => {
			const items = [
				{ qrCode: QR, externalId: `${profile}-split-1` },
				{ qrCode: QR.replace('sum=150000', 'sum=250000'), externalId: `${profile}-split-2` },
			];
			const { status, body } = await call('pay-then-payout', { items });
			assert.equal(status, 200, JSON.stringify(body));
			assert.equal(body.length, 2);
			assert.deepEqual(
				body.map((payout) => payout.externalId),
				items.map((item) => item.externalId),
				'each output item is a payout of its own item, not a replayed order',
			);
			assert.equal(new Set(body.map((payout) => payout.id)).size, 2);
			for (const item of items) assert.equal(payoutsOf(item.externalId).length, 1);
			const orders = [...sandbox.state.orders.values()].filter((order) =>
				[1500, 2500].includes(order.amountRub),
			);
			const newestTwo = orders.slice(-2).map((order) => order.amountRub);
			assert.deepEqual(newestTwo, [1500, 2500], 'one order per QR code');
		});

		// The document promises no replay by key for payout creation, so n8n's Retry On Fail must not
		// send it again: the run ends with the outcome unknown, and exactly one payout exists.
		test('Retry On Fail after a lost answer sends the payout once and reports the outcome unknown', async () => {
			const externalId = `${profile}-retry`;
			await ctl('POST', '/faults', { dropFirstResponses: 1, pathPrefix: '/payouts' });
			try {
				const { status } = await call('payout-retry', { amountRub: 1000, externalId });
				assert.notEqual(status, 200);
				const error = await nodeError('payout-retry');
				assert.match(error.message, /^OUTCOME_UNKNOWN: the payout may have been created/);
				assert.match(error.description, /Payout > Get Many with the External ID/);
				assert.equal(payoutsOf(externalId).length, 1, 'the payout was made once, not again');
			} finally {
				await ctl('POST', '/faults', {});
			}
		});

		test('a payout refused for INSUFFICIENT_BALANCE goes through on the next run once funds arrive', async () => {
			const externalId = `${profile}-balance`;
			const first = await call('payout', { amountRub: 250000, externalId });
			assert.notEqual(first.status, 200);
			const error = await nodeError('payout');
			// With an External ID an earlier attempt of it may have taken the funds (r5-money F2):
			// unknown, naming the refusal; the next run (a new execution) sends it again.
			assert.match(error.message, /^OUTCOME_UNKNOWN: .*INSUFFICIENT_BALANCE/);
			assert.match(error.description, /Request ID: req_/);
			assert.equal(payoutsOf(externalId).length, 0);

			await ctl('POST', '/deposits', { amount: 3000 });
			const second = await call('payout', { amountRub: 250000, externalId });
			assert.equal(second.status, 200, JSON.stringify(second.body));
			assert.equal(payoutsOf(externalId).length, 1);
		});

		// Login is not marked public, so the node sends the credential's key with it (docs/assumptions.md,
		// "Company Login"). A service that accepts a revoked key on login lets a second login through;
		// one that rejects it refuses the second login, and the error must tell the user what to do.
		test('Company Login twice: the second login works, or the error says the first rotated the key', async () => {
			const credentials = { email: sandbox.company.email, password: sandbox.company.password };
			const first = await call('login', credentials);
			assert.equal(first.status, 200, JSON.stringify(first.body));
			assert.ok(
				!JSON.stringify(first.body).includes(sandbox.company.password),
				'the password is not in the output',
			);
			const second = await call('login', credentials);
			if (sandbox.profile.staleKeyLogin === 'accept') {
				assert.equal(second.status, 200, JSON.stringify(second.body));
				return;
			}
			assert.notEqual(second.status, 200);
			const error = await nodeError('login');
			assert.match(error.message, /^INVALID_API_KEY/);
			// The explanation (message) and the action (description) both point at the rotated key.
			assert.match(error.message, /rotated the key, the credential still holds the old one/);
			assert.match(error.description, /What to do: Put the current key into the credential/);
			assert.ok(
				!JSON.stringify(error).includes(sandbox.company.password),
				'no password in the error',
			);
		});

		test('a missing permission surfaces as PERMISSION_DENIED naming orders.create in the execution', async () => {
			const { status } = await call('pay-reader', { qrCode: QR });
			assert.notEqual(status, 200);
			const error = await nodeError('pay-reader');
			assert.match(error.message, /^PERMISSION_DENIED: .*\(missing permission orders\.create\)$/);
			assert.match(error.description, /Required permission: orders\.create/);
			assert.match(error.description, /Request ID: req_/);
			assert.equal(String(error.httpCode), '403');
			assert.ok(
				!JSON.stringify(error).includes(sandbox.keys.readOnly),
				'the API key is not in the error',
			);
		});

		test('an unknown order surfaces as ORDER_NOT_FOUND with HTTP 404 in the execution', async () => {
			const { status } = await call('get-order', { orderId: uuid() });
			assert.notEqual(status, 200);
			const error = await nodeError('get-order');
			assert.match(error.message, /^ORDER_NOT_FOUND: /);
			assert.equal(String(error.httpCode), '404');
		});

		test('bad input fails in n8n before any request reaches the sandbox', async () => {
			const requestsBefore = sandbox.publicRequests;
			const { status } = await call('get-order', { orderId: 'not-a-uuid' });
			assert.notEqual(status, 200);
			const error = await nodeError('get-order');
			assert.equal(error.message, 'Order ID must be a UUID, got "not-a-uuid"');
			assert.equal(sandbox.publicRequests, requestsBefore, 'no request reached the sandbox');
		});

		test('On Error "Continue (using error output)" sends a failed item to the error output with its errorCode', async () => {
			const { status } = await call('get-order-error-output', { orderId: uuid() });
			assert.equal(status, 200);
			const execution = await newestExecution('get-order-error-output');
			const runData = execution.data.resultData.runData;
			assert.ok(runData['on error'], 'the error branch ran');
			assert.equal(runData['on success'], undefined, 'the success branch did not run');
			const [item] = runData['on error'][0].data.main[0];
			assert.match(item.json.error.message, /^ORDER_NOT_FOUND: /);
			assert.equal(item.json.error.errorCode, 'ORDER_NOT_FOUND');
			assert.equal(item.json.error.httpCode, 404);
			assert.match(item.json.error.requestId, /^req_/);
			assert.ok(
				item.json.body.orderId,
				'the input item travels with the error, as n8n does for error outputs',
			);
		});
	});
}

describe('redirects: the API key goes to the base URL and nowhere else (real n8n)', () => {
	test('a 307 on Payout Create is an error naming status and Location; nothing reaches the other host, no payout', async () => {
		const externalId = `redirect-${uuid().slice(0, 8)}`;
		const before = redirector.seen.length;
		const { status } = await call('payout-redirected', { amountRub: 1500, externalId });
		assert.notEqual(status, 200, 'the redirected call is not reported as a created payout');
		const error = await nodeError('payout-redirected');
		const text = `${error.message} ${error.description ?? ''}`;
		assert.match(text, /307/);
		assert.match(text, new RegExp(`${elsewhere.url.replace(/[.:/]/g, '\\$&')}/payouts`));
		assert.doesNotMatch(text, /token=abc/, 'the Location query is cut');
		assert.doesNotMatch(JSON.stringify(error), new RegExp(sandbox.keys.owner));
		assert.equal(redirector.seen.length, before + 1, 'one request, not followed');
		assert.equal(elsewhere.seen.length, 0, 'nothing reached the other host');
		assert.equal(payoutsOf(externalId).length, 0);
	});

	test('a 302 on a read is an error too: the key is not sent on', async () => {
		const { status } = await call('balance-redirected');
		assert.notEqual(status, 200);
		const error = await nodeError('balance-redirected');
		assert.match(`${error.message} ${error.description ?? ''}`, /302/);
		assert.equal(elsewhere.seen.length, 0, 'nothing reached the other host');
	});
});
