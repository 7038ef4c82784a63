/**
 * The action node inside a real n8n 2.8.4, against the sandbox over loopback.
 *
 * Each workflow is n8n's Webhook node ("respond when the last node finishes") followed by one
 * Company Payments operation, so a test posts its input and reads the node's output items from
 * the answer; failures are read back from the stored execution, as a user would in the UI.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { startSandbox } from '../sandbox/server.mjs';
import {
	createUserFolder,
	ensureN8n,
	importCredentials,
	installPackage,
	PACKAGE_NAME,
	runN8nCli,
	startN8n,
	uuid,
} from './n8n-host.mjs';

const NODE = `${PACKAGE_NAME}.companyPayments`;
const QR = 'https://qr.nspk.ru/AS10001?type=02&sum=150000&cur=RUB';

/** Webhook → Company Payments(resource, operation, parameters) with the given credential. */
function operationWorkflow(name, credential, parameters) {
	const webhookPath = `e2e-${name}`;
	return {
		id: uuid().replace(/-/g, '').slice(0, 16),
		name: `e2e ${name}`,
		nodes: [
			{
				id: uuid(),
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: uuid(),
				parameters: {
					path: webhookPath,
					httpMethod: 'POST',
					responseMode: 'lastNode',
					responseData: 'allEntries',
					options: {},
				},
			},
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
		main: [[{ node: 'on success', type: 'main', index: 0 }], [{ node: 'on error', type: 'main', index: 0 }]],
	};
	return workflow;
}

let sandbox;
let userFolder;
let n8n;
const workflows = {};

async function call(name, body = {}) {
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

/** The error the Company Payments node raised in the newest execution of a workflow. */
async function nodeError(name) {
	const [execution] = await n8n.waitForExecutions({ workflowId: workflows[name].id, count: 1 });
	assert.equal(execution.status, 'error', `execution ${execution.id} should have failed`);
	const run = execution.data.resultData.runData['Company Payments'][0];
	assert.ok(run.error, 'the node run carries the error');
	return run.error;
}

before(async () => {
	await ensureN8n();
	assert.ok(
		fs.existsSync(path.join(process.cwd(), 'dist/nodes/CompanyPayments/CompanyPayments.node.js')),
		'run npm run build first',
	);
	sandbox = await startSandbox({ retryDelaysMs: [0, 50, 100, 200] });
	userFolder = createUserFolder('n8n-cp-action-');
	installPackage(userFolder);

	const data = (apiKey) => ({ environment: 'staging', baseUrl: sandbox.url, apiKey, webhookSecret: '' });
	const [owner, reader] = await importCredentials(userFolder, [
		{ name: 'Sandbox owner', type: 'companyPaymentsApi', data: data(sandbox.keys.owner) },
		{ name: 'Sandbox read-only', type: 'companyPaymentsApi', data: data(sandbox.keys.readOnly) },
	]);
	const list = [
		operationWorkflow('pay', owner, { resource: 'order', operation: 'pay', qrCode: '={{ $json.body.qrCode }}' }),
		operationWorkflow('pay-reader', reader, { resource: 'order', operation: 'pay', qrCode: '={{ $json.body.qrCode }}' }),
		operationWorkflow('get-order', owner, { resource: 'order', operation: 'get', orderId: '={{ $json.body.orderId }}' }),
		operationWorkflow('dispute', owner, {
			resource: 'dispute',
			operation: 'create',
			orderId: '={{ $json.body.orderId }}',
			reason: '={{ $json.body.reason }}',
		}),
		operationWorkflow('deposits', owner, { resource: 'companyWallet', operation: 'getDeposits', returnAll: true }),
		operationWorkflow('balance', owner, { resource: 'companyWallet', operation: 'getBalance' }),
		withErrorOutput(
			operationWorkflow('get-order-error-output', owner, {
				resource: 'order',
				operation: 'get',
				orderId: '={{ $json.body.orderId }}',
			}),
		),
	];
	for (const workflow of list) workflows[workflow.name.replace(/^e2e /, '')] = workflow;

	// One CLI call imports them all; each is published (activated) before n8n starts.
	const file = path.join(userFolder, 'e2e-workflows.json');
	fs.writeFileSync(file, JSON.stringify(list.map(({ webhookPath, ...workflow }) => workflow)));
	await runN8nCli(userFolder, ['import:workflow', `--input=${file}`]);
	for (const workflow of list) await runN8nCli(userFolder, ['publish:workflow', `--id=${workflow.id}`]);
	n8n = await startN8n({ userFolder });
});

after(async () => {
	await n8n?.stop();
	await sandbox?.close();
	if (userFolder && process.env.COMPANY_PAYMENTS_E2E_KEEP !== '1') {
		fs.rmSync(userFolder, { recursive: true, force: true });
	}
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
	const moved = await fetch(`${sandbox.url}/__control/orders/${orderId}/status`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify({ status: 'success' }),
	});
	assert.equal(moved.status, 200);

	const first = await call('dispute', { orderId, reason: 'The shop says it was not paid' });
	assert.equal(first.status, 200, JSON.stringify(first.body));
	assert.equal(first.body[0].orderId, orderId);
	assert.equal(first.body[0].status, 'submitted');
	assert.equal(first.body[0].existingDispute, false);

	const second = await call('dispute', { orderId, reason: 'Another ticket about the same order' });
	assert.equal(second.body[0].id, first.body[0].id);
	assert.equal(second.body[0].existingDispute, true);
});

test('Get Deposits with Return All pages through all 250 seeded deposits', async () => {
	const { status, body } = await call('deposits');
	assert.equal(status, 200);
	assert.equal(body.length, 250);
	assert.equal(new Set(body.map((deposit) => deposit.id)).size, 250);
});

test('a missing permission surfaces as PERMISSION_DENIED naming orders.create in the execution', async () => {
	const { status } = await call('pay-reader', { qrCode: QR });
	assert.notEqual(status, 200);
	const error = await nodeError('pay-reader');
	assert.match(error.message, /^PERMISSION_DENIED: .*\(missing permission orders\.create\)$/);
	assert.match(error.description, /Required permission: orders\.create/);
	assert.match(error.description, /Request ID: req_/);
	assert.equal(String(error.httpCode), '403');
	assert.ok(!JSON.stringify(error).includes(sandbox.keys.readOnly), 'the API key is not in the error');
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
	const executions = await n8n.waitForExecutions({ workflowId: workflows['get-order'].id, count: 2 });
	const newest = executions.sort((a, b) => Number(b.id) - Number(a.id))[0];
	const error = newest.data.resultData.runData['Company Payments'][0].error;
	assert.equal(error.message, 'Order ID must be a UUID, got "not-a-uuid"');
	assert.equal(sandbox.publicRequests, requestsBefore, 'no request reached the sandbox');
});

test('On Error "Continue (using error output)" sends a failed item to the error output with its errorCode', async () => {
	const { status } = await call('get-order-error-output', { orderId: uuid() });
	assert.equal(status, 200);
	const [execution] = await n8n.waitForExecutions({ workflowId: workflows['get-order-error-output'].id, count: 1 });
	const runData = execution.data.resultData.runData;
	assert.ok(runData['on error'], 'the error branch ran');
	assert.equal(runData['on success'], undefined, 'the success branch did not run');
	const [item] = runData['on error'][0].data.main[0];
	assert.match(item.json.error.message, /^ORDER_NOT_FOUND: /);
	assert.equal(item.json.error.errorCode, 'ORDER_NOT_FOUND');
	assert.equal(item.json.error.httpCode, 404);
	assert.match(item.json.error.requestId, /^req_/);
	assert.ok(item.json.body.orderId, 'the input item travels with the error, as n8n does for error outputs');
});
