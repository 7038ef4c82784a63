// Benchmark 1: the trigger's verify + deduplicate + route path, in process, against a bare HMAC.
//
// The built trigger (dist/) is called the way n8n calls it: `webhook()` with `this` bound to a
// minimal stand-in for n8n's webhook functions. Everything n8n itself does around the call
// (HTTP parsing, JSON parsing of the body, loading the workflow, saving static data) is left
// out here: that is what benchmark 2 measures inside a real n8n. The baseline is
// `createHmac('sha256', secret).update(body).digest('hex')` over the same bytes, which is the
// least any verifying receiver must do.
import { createHmac } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';

import { summary } from './lib/stats.mjs';
import { NODE_TYPES } from '../harness/workflows.mjs';

const require = createRequire(import.meta.url);

/** A webhook secret in the service's form (whsec_ + 48 hex); a dummy for the benchmark only. */
const SECRET_DUMMY = 'whsec_dummy0123456789abcdef0123456789abcdef01234567';

/**
 * An order.status_changed event padded to `size` bytes of compact JSON with realistic-looking
 * line items, so the parsed object has many fields and nested records, not one long string.
 */
export function eventBody(size) {
	const event = {
		event: 'order.status_changed',
		orderId: '7d3c2b1a-1111-4222-8333-944455566677',
		walletOrderId: 'wo_58213',
		status: 'success',
		amountUsdt: 15.71,
		amountRub: 1500,
		completedAt: '2026-11-21T12:03:10.000Z',
		failureReason: null,
		createdAt: '2026-11-21T12:00:00.000Z',
		lines: [],
		note: '',
	};
	const line = (i) => ({
		sku: `sku-${String(i).padStart(6, '0')}`,
		qty: (i % 5) + 1,
		priceRub: 100 + i,
	});
	while (Buffer.byteLength(JSON.stringify(event)) + 60 < size)
		event.lines.push(line(event.lines.length));
	event.note = 'x'.repeat(Math.max(0, size - Buffer.byteLength(JSON.stringify(event))));
	const raw = Buffer.from(JSON.stringify(event));
	if (raw.length !== size) throw new Error(`body is ${raw.length} bytes, wanted ${size}`);
	return { raw, parsed: JSON.parse(raw.toString('utf8')) };
}

/** A minimal IWebhookFunctions for one trigger node; `deliver(id)` runs one delivery. */
function triggerHarness(distRoot, body) {
	const { CompanyPaymentsTrigger } = require(
		path.join(distRoot, 'nodes/CompanyPaymentsTrigger/CompanyPaymentsTrigger.node.js'),
	);
	const trigger = new CompanyPaymentsTrigger();
	const signature = createHmac('sha256', SECRET_DUMMY).update(body.raw).digest('hex');
	const headers = {
		'content-type': 'application/json',
		'x-service-signature': signature,
		'x-service-delivery-id': '',
	};
	const parameters = { events: ['*'], routeByEvent: false, registerWebhook: false, options: {} };
	const node = {
		id: `bench-node-${body.raw.length}`,
		name: 'Company Payments Trigger',
		type: NODE_TYPES.trigger,
		typeVersion: 1,
		position: [0, 0],
		parameters,
	};
	const staticData = {};
	const request = { headers, body: body.parsed, rawBody: body.raw };
	const credentials = {
		baseUrl: 'http://127.0.0.1:9',
		apiKey: 'bench-dummy',
		webhookSecret: SECRET_DUMMY,
	};
	const quiet = () => {};
	const workflow = { id: 'bench-workflow', name: 'bench', active: true };
	// An accepted delivery is answered by the node itself (200 and a JSON acknowledgement, so n8n
	// saves the dedup store before it starts the execution); anything else is a bench failure.
	const response = {
		status(code) {
			if (code !== 200) throw new Error(`a valid delivery was answered ${code}`);
			return this;
		},
		setHeader() {
			return this;
		},
		end() {
			return this;
		},
	};
	const context = {
		logger: { debug: quiet, info: quiet, warn: quiet, error: quiet },
		getNode: () => node,
		getMode: () => 'webhook',
		getWorkflow: () => workflow,
		getWorkflowStaticData: () => staticData,
		getHeaderData: () => headers,
		getBodyData: () => body.parsed,
		getRequestObject: () => request,
		getResponseObject: () => response,
		getNodeParameter: (name, fallback) => (name in parameters ? parameters[name] : fallback),
		getCredentials: async () => credentials,
	};
	return {
		async deliver(deliveryId) {
			headers['x-service-delivery-id'] = deliveryId;
			return await trigger.webhook.call(context);
		},
	};
}

/** The signature check alone (the built verifyBody), `count` times; returns ms. */
function verifyOnly(distRoot, raw, count) {
	const { verifyBody } = require(path.join(distRoot, 'nodes/CompanyPaymentsTrigger/signature.js'));
	const signature = createHmac('sha256', SECRET_DUMMY).update(raw).digest('hex');
	const keys = [{ key: SECRET_DUMMY, kind: 'secret' }];
	let ok = 0;
	const start = performance.now();
	for (let i = 0; i < count; i++) if (verifyBody(raw, signature, keys) === 'secret') ok += 1;
	const ms = performance.now() - start;
	if (ok !== count) throw new Error('verifyBody rejected a valid signature');
	return ms;
}

function bareHmac(raw, count) {
	let sink = 0;
	const start = performance.now();
	for (let i = 0; i < count; i++) {
		sink += createHmac('sha256', SECRET_DUMMY).update(raw).digest('hex').length;
	}
	const ms = performance.now() - start;
	if (sink !== count * 64) throw new Error('unexpected digest length');
	return ms;
}

let runCounter = 0;

async function triggerRun(harness, count) {
	runCounter += 1;
	const prefix = `bench-${runCounter}-`;
	let items = 0;
	const start = performance.now();
	for (let i = 0; i < count; i++) {
		const result = await harness.deliver(prefix + i);
		items += result.workflowData[0].length;
	}
	const ms = performance.now() - start;
	if (items !== count) throw new Error(`expected ${count} workflow items, got ${items}`);
	return ms;
}

/**
 * Runs the comparison for one body size: a warm-up of both, then `runs` pairs (the order inside
 * a pair alternates), each pair giving µs per delivery for both and their ratio.
 */
async function compare(distRoot, size, count, runs) {
	const body = eventBody(size);
	const harness = triggerHarness(distRoot, body);
	const duplicate = await harness.deliver('warm-up-0');
	if (!duplicate.workflowData) throw new Error('the first delivery must start the workflow');
	const again = await harness.deliver('warm-up-0');
	if (again.workflowData) throw new Error('a repeated delivery id must not start the workflow');
	await triggerRun(harness, count);
	bareHmac(body.raw, count);
	verifyOnly(distRoot, body.raw, count);
	const hmacUs = [];
	const triggerUs = [];
	const ratios = [];
	const verifyRatios = [];
	for (let run = 0; run < runs; run++) {
		let h;
		let t;
		if (run % 2 === 0) {
			h = bareHmac(body.raw, count);
			t = await triggerRun(harness, count);
		} else {
			t = await triggerRun(harness, count);
			h = bareHmac(body.raw, count);
		}
		verifyRatios.push(verifyOnly(distRoot, body.raw, count) / bareHmac(body.raw, count));
		hmacUs.push((h * 1000) / count);
		triggerUs.push((t * 1000) / count);
		ratios.push(t / h);
	}
	return {
		size,
		count,
		hmacUs: summary(hmacUs),
		triggerUs: summary(triggerUs),
		hmacPerSecond: summary(hmacUs.map((us) => 1e6 / us)),
		triggerPerSecond: summary(triggerUs.map((us) => 1e6 / us)),
		ratio: summary(ratios),
		verifyOnlyRatio: summary(verifyRatios),
	};
}

/** @returns {Promise<Array<object>>} one result per body size */
export async function benchVerify({ distRoot, runs = 7, log = () => {} }) {
	const results = [];
	for (const [size, count] of [
		[1024, 20_000],
		[64 * 1024, 2_000],
	]) {
		log(`verify path: ${size} B body, ${runs} runs of ${count} deliveries`);
		results.push(await compare(distRoot, size, count, runs));
	}
	return results;
}
