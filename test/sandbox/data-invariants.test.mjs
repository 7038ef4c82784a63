// Issue 50, item 6: the data silences as a generator. For each seed (DATA_SEEDS, default 1..200)
// the sandbox's data dimensions (sandbox/lib/generatedData.mjs) are played in-process through the
// built nodes (dist/): the action node (as a node and as an AI tool), the webhook trigger and the
// poll trigger, over a fake n8n context whose HTTP helper answers with the seed's JSON text.
//
// Invariants, per seed:
// - identifiers byte-exact: 19-digit deposit and payout IDs written as JSON numbers come out as
//   the digits written, in the webhook item and in the poll item;
// - no secret of the seed (unknown fields of members, card data, profile, invites; the API keys;
//   the webhook secret; a card requisite sent as a number) in any output item, tool result,
//   error or log line, also where the service quoted the API key escaped;
// - one change key per transition: a payout walk that enters every state more than once gives
//   as many distinct keys as transitions, from the webhook and from the poll;
// - nothing lost across a key change: the API key is regenerated mid-stream (the rotated webhook
//   secret sealed under the old key), and every later delivery and poll change still arrives.
//
// A failing seed replays alone: DATA_SEEDS=<n> node --test test/sandbox/data-invariants.test.mjs
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

import {
	CUT_SECRETS,
	ESCAPE_FORMS,
	escapedSecret,
	TEXT_SECRET_FORMS,
	generatedData,
	CLOSED_NESTINGS,
	closedNestings,
	NEW_KEY_SHAPES,
	newKeyAnswer,
	rawJson,
	ID_NUMBER_NAMES,
	TIME_NUMBER_NAMES,
	PAN_TIME_NAMES,
	CC_NAMES,
	PAN_JOINERS,
	PAN_FORMS,
	CARD_AS_TIME_NAMES,
	LINK_SECRET_FORMS,
	MASKED_PAN_FORMS,
	REQUISITE_SHAPES,
	REQUISITE_TYPES,
	WALLET_TOKEN_NAMES,
	UNLISTED_KEY_NAMES,
	PIN_COUNTER_NAMES,
	RECORD_KEY_NAMES,
	RECORD_KEY_FORMS,
	PAIR_NAME_FORMS,
	PAIR_VALUE_FORMS,
	REGISTRY_FORMS,
	CLOSED_PLAIN_FIELDS,
} from '../../sandbox/lib/generatedData.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
const { CompanyPayments } = require(
	path.join(ROOT, 'dist/nodes/CompanyPayments/CompanyPayments.node.js'),
);
const { CompanyPaymentsTrigger } = require(
	path.join(ROOT, 'dist/nodes/CompanyPaymentsTrigger/CompanyPaymentsTrigger.node.js'),
);
const { CompanyPaymentsPollTrigger } = require(
	path.join(ROOT, 'dist/nodes/CompanyPaymentsPollTrigger/CompanyPaymentsPollTrigger.node.js'),
);

const SEEDS = (process.env.DATA_SEEDS ?? '1-200').split(',').flatMap((part) => {
	const [lo, hi] = part.split('-').map((n) => Number(n.trim()));
	return hi === undefined ? [lo] : Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
});

const BASE_URL = 'https://api.payments.test';
const TRIGGER_URL = 'https://n8n.example.com/webhook/data-invariants';
const ORDER_ID = '7d3c2b1a-1111-4222-8333-944455566677';

/* ------------------------------------------------------------ a fake n8n */

function readPath(source, name) {
	let at = source;
	for (const part of name.split('.')) {
		if (at === null || typeof at !== 'object') return undefined;
		at = at[part];
	}
	return at;
}

/** What one seed's service answers: routes of `METHOD path` to [status, JSON text]. */
function serviceOf(routes) {
	const calls = [];
	const httpRequest = async (options) => {
		const url = new URL(options.url);
		const key = `${options.method ?? 'GET'} ${url.pathname}`;
		calls.push(key);
		const route = routes[key];
		if (!route)
			return { statusCode: 404, headers: {}, body: '{"statusCode":404,"message":"no route"}' };
		const [status, body] = typeof route === 'function' ? route(options) : route;
		const offset = Number(options.qs?.offset ?? 0);
		return {
			statusCode: status,
			headers: { 'content-type': 'application/json' },
			body: offset > 0 && body.startsWith('[') ? '[]' : body,
		};
	};
	/** n8n's helper for a generic credential: the credential's X-API-Key set, then sent. */
	const httpRequestWithAuthentication = async (_type, options, additional) => {
		const apiKey = additional?.credentialsDecrypted?.data?.apiKey ?? '';
		return await httpRequest({ ...options, headers: { ...options.headers, 'X-API-Key': apiKey } });
	};
	return { httpRequest, httpRequestWithAuthentication, calls };
}

function logger(lines) {
	const at = (level) => (message, meta) =>
		lines.push(`${level} ${message} ${meta === undefined ? '' : JSON.stringify(meta)}`);
	return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

function credentialsOf(apiKey, webhookSecret = '') {
	return { environment: 'staging', baseUrl: BASE_URL, apiKey, webhookSecret };
}

const CREDENTIAL_REF = { companyPaymentsApi: { id: 'cred-data', name: 'Payments' } };

function executeContext({ parameters, credentials, service, tool = false, logs }) {
	const node = {
		id: 'node-action',
		name: 'Company Payments',
		type: tool
			? 'n8n-nodes-company-payments.companyPaymentsTool'
			: 'n8n-nodes-company-payments.companyPayments',
		typeVersion: 1,
		position: [0, 0],
		parameters: tool ? parameters : {},
		credentials: CREDENTIAL_REF,
	};
	return {
		logger: logger(logs),
		getInputData: () => [{ json: {} }],
		getNode: () => node,
		getExecutionId: () => '1001',
		getInstanceId: () => 'instance-data',
		getWorkflow: () => ({ id: 'wf-data', name: 'Data', active: false }),
		continueOnFail: () => false,
		addExecutionHints: () => undefined,
		getCredentials: async () => credentials,
		getWorkflowDataProxy: () => ({
			$runIndex: 0,
			$execution: { id: '1001', customData: undefined },
		}),
		getNodeParameter: (name, _index, fallback, options) => {
			const value = readPath(parameters, name);
			if (options?.extractValue && value && typeof value === 'object' && '__rl' in value) {
				return value.value;
			}
			if (value !== undefined) return value;
			if (fallback !== undefined) return fallback;
			throw new Error(`Could not get parameter "${name}"`);
		},
		helpers: {
			httpRequest: service.httpRequest,
			httpRequestWithAuthentication: service.httpRequestWithAuthentication,
		},
	};
}

/** Runs the action node; its output (as JSON text) or its error (every own property, as text). */
async function runAction(options) {
	const context = executeContext(options);
	try {
		const result = await new CompanyPayments().execute.call(context);
		return { text: JSON.stringify(result), json: result[0].map((item) => item.json) };
	} catch (error) {
		return { text: errorText(error), error };
	}
}

function errorText(value, seen = new Set()) {
	if (typeof value === 'string') return value;
	if (typeof value === 'number') return String(value);
	if (typeof value !== 'object' || value === null || seen.has(value)) return '';
	seen.add(value);
	const keys = value instanceof Error ? Object.getOwnPropertyNames(value) : Object.keys(value);
	return keys
		.filter((key) => key !== 'node')
		.map((key) => `${key}=${errorText(value[key], seen)}`)
		.join(' | ');
}

class FakeResponse {
	statusCode = 0;
	status(code) {
		this.statusCode = code;
	}
	setHeader() {}
	end() {}
}

function hookContext({ credentials, service, staticData, logs }) {
	const node = {
		id: 'node-trigger',
		name: 'Company Payments Trigger',
		type: 'n8n-nodes-company-payments.companyPaymentsTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: CREDENTIAL_REF,
	};
	const parameters = {
		events: ['*'],
		routeByEvent: false,
		registerWebhook: true,
		rotateSecret: true,
		options: {},
	};
	return {
		logger: logger(logs),
		getNode: () => node,
		getMode: () => 'trigger',
		getActivationMode: () => 'activate',
		getWorkflow: () => ({ id: 'wf-data', name: 'Data', active: true }),
		getWorkflowStaticData: () => staticData,
		getNodeWebhookUrl: () => TRIGGER_URL,
		getNodeParameter: (name, fallback) => readPath(parameters, name) ?? fallback,
		getCredentials: async () => credentials(),
		helpers: {
			httpRequest: service.httpRequest,
			httpRequestWithAuthentication: service.httpRequestWithAuthentication,
		},
	};
}

async function deliverTo({
	body,
	signWith,
	deliveryId,
	credentials,
	staticData,
	logs,
	workflowId,
}) {
	const raw = Buffer.from(body, 'utf8');
	const headers = {
		'content-type': 'application/json',
		'x-service-signature': createHmac('sha256', signWith).update(raw).digest('hex'),
		'x-service-delivery-id': deliveryId,
	};
	const response = new FakeResponse();
	const node = {
		id: 'node-trigger',
		name: 'Company Payments Trigger',
		type: 'n8n-nodes-company-payments.companyPaymentsTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: CREDENTIAL_REF,
	};
	const parameters = {
		events: ['*'],
		routeByEvent: false,
		registerWebhook: true,
		options: { includeRawBody: true },
	};
	const context = {
		logger: logger(logs),
		getNode: () => node,
		getMode: () => 'webhook',
		getWorkflow: () => ({ id: workflowId, name: 'Data', active: true }),
		getWorkflowStaticData: () => staticData,
		getHeaderData: () => headers,
		// What n8n's own body parser gives: JSON.parse, digits past 2^53 rounded.
		getBodyData: () => JSON.parse(body),
		getRequestObject: () => ({ headers, body: JSON.parse(body), rawBody: raw }),
		getResponseObject: () => response,
		getInstanceId: () => 'instance-data',
		getNodeParameter: (name, fallback) => readPath(parameters, name) ?? fallback,
		getCredentials: async () => credentials(),
	};
	const result = await new CompanyPaymentsTrigger().webhook.call(context);
	// An acknowledgement left to n8n (a duplicate delivery): n8n answers it 200.
	const status = response.statusCode === 0 && result.webhookResponse ? 200 : response.statusCode;
	return { status, items: (result.workflowData ?? []).flat().map((i) => i.json) };
}

async function pollOnce({ parameters, credentials, service, staticData, logs, workflowId }) {
	const node = {
		id: 'node-poll',
		name: 'Company Payments Poll Trigger',
		type: 'n8n-nodes-company-payments.companyPaymentsPollTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters,
		credentials: CREDENTIAL_REF,
	};
	const context = {
		logger: logger(logs),
		getNode: () => node,
		getWorkflow: () => ({ id: workflowId, name: 'Data', active: true }),
		getMode: () => 'trigger',
		getCredentials: async () => credentials(),
		getWorkflowStaticData: () => staticData,
		getNodeParameter: (name, fallback) => {
			const value = readPath(parameters, name);
			return value !== undefined ? value : fallback;
		},
		helpers: {
			httpRequest: service.httpRequest,
			httpRequestWithAuthentication: service.httpRequestWithAuthentication,
		},
	};
	const result = await new CompanyPaymentsPollTrigger().poll.call(context);
	return result ? result[0].map((item) => item.json) : [];
}

/* ------------------------------------------------------------ the invariants of one seed */

/** The times of a payout the poll tells visits by (nodes/shared/contract/visits.ts). */
const VISIT_FIELDS = ['updatedAt', 'takenAt', 'completedAt', 'refundedAt'];

/** A plain decimal without the zeros that are no part of its value (`1500.50` → `1500.5`). */
function plainValue(text) {
	const [whole, fraction = ''] = text.split('.');
	const kept = fraction.replace(/0+$/, '');
	return `${whole.replace(/^0+(?=\d)/, '')}${kept ? `.${kept}` : ''}`;
}

/**
 * One JSON type rule for amounts (docs/assumptions.md, numberForms): a number when a double gives
 * back the written value, else the text exactly as written.
 */
function amountAsWritten(value, written) {
	const double = Number(written);
	if (plainValue(String(double)) === plainValue(written)) return value === double;
	return value === written;
}

/** The parts of a secret a reader must never see: the whole, and each run of 6+ letters or digits. */
function leaked(text, secrets) {
	const found = [];
	for (const secret of secrets) {
		// A short number (a PIN) leaks as a whole value; inside an ID or a time it is chance.
		if (/^\d{3,6}$/.test(secret)) {
			if (new RegExp(`(?<=[":\\s[])${secret}(?=[",}\\]\\s])`).test(text)) found.push(secret);
			continue;
		}
		const parts = [secret, ...secret.split(/[^A-Za-z0-9]+/).filter((part) => part.length >= 8)];
		for (const part of parts) if (text.includes(part)) found.push(part);
	}
	return found;
}

/** Whether a text shows a secret: a number as a whole number, else its text. */
function shows(text, secret) {
	if (/^\d+$/.test(secret)) return new RegExp(`(?<!\\d)${secret}(?!\\d)`).test(text);
	return text.includes(secret);
}

/**
 * The longest run of a secret's characters (after its known prefix, `whsec_`, `mk_live_`) a
 * text shows; long digit runs (a timestamp) are no part of a quote and are left out.
 */
function longestRun(text, secret, from = 0) {
	const shown = text.replace(/\d{10,}/g, '');
	let best = 0;
	for (let i = from; i < secret.length; i++) {
		for (let j = secret.length; j > i + best; j--) {
			if (shown.includes(secret.slice(i, j))) {
				best = j - i;
				break;
			}
		}
	}
	return best;
}

/**
 * Outside read r5-data: secrets in free text, quotes cut inside a secret, an order and a dispute
 * that enter a state twice. `ctx`: the seed's data, credentials, trigger state and problem list.
 */
async function checkRevisitsAndTexts({ d, check, credentials, logs, staticData, workflowId }) {
	const seed = d.seed;
	// (a) A free-text secret in a body that is not JSON; (b) a quote cut inside a secret.
	const ts = d.textSecret;
	const service = serviceOf({
		'GET /cards/card-text': [400, ts.text],
		'GET /cards/card-cut': [400, d.cut.text],
		'GET /wallets/balance': [200, JSON.stringify(d.cut.json)],
	});
	// A PIN shows no digit run longer than chance gives; a card at most the last four its mask
	// shows (`•••• 5559`); a key no run longer than chance gives (`yPay` of `companyPayments`),
	// and no kept end (a quote shows `whsec_…`, not `whsec_…beef`).
	const most = d.cut.name === 'pin' ? 3 : 4;
	const keptEnd = d.cut.name === 'cardNumberFull' ? null : `…${d.cut.secret.slice(-4)}`;
	/** Whether a text shows the first digits of the PIN after its name (`"pin":"48…`). */
	const pinHead = (text) =>
		d.cut.name === 'pin' &&
		[...text.matchAll(/pin\\?"\s*:\s*\\?"(\d{2,})/g)].some(([, digits]) =>
			d.cut.secret.startsWith(digits),
		);
	for (const tool of [false, true]) {
		const where = `${tool ? ' (tool)' : ''}`;
		const text = await runAction({
			parameters: { resource: 'card', operation: 'get', cardId: 'card-text' },
			credentials: credentials(),
			service,
			tool,
			logs,
		});
		check(
			!shows(text.text, ts.secret),
			`a text body (${d.dims.textSecretForm})${where} shows ${ts.secret}`,
		);
		if (!tool) {
			check(text.text.includes(ts.ordinary), `the ordinary text "${ts.ordinary}" did not stay`);
		}
		const cut = await runAction({
			parameters: { resource: 'card', operation: 'get', cardId: 'card-cut' },
			credentials: credentials(),
			service,
			tool,
			logs,
		});
		const run = longestRun(cut.text, d.cut.secret, d.cut.prefix);
		check(
			run <= most && !(keptEnd && cut.text.includes(keptEnd)) && !pinHead(cut.text),
			`a text quote cut ${d.cut.inside} characters into ${d.cut.name}${where} shows ${run} of them`,
		);
	}
	let balanceError;
	try {
		await pollOnce({
			parameters: { watch: ['balance'], balanceThreshold: 100, options: {} },
			credentials,
			service,
			staticData: {},
			logs,
			workflowId: `wf-balance-${seed}-${process.pid}`,
		});
	} catch (error) {
		balanceError = error;
	}
	check(balanceError !== undefined, 'a balance answer without usdtBalance raised no error');
	const balanceRun = longestRun(errorText(balanceError), d.cut.secret, d.cut.prefix);
	check(
		balanceRun <= most &&
			!(keptEnd && errorText(balanceError).includes(keptEnd)) &&
			!pinHead(errorText(balanceError)),
		`the balance error cut ${d.cut.inside} characters into ${d.cut.name} shows ${balanceRun} of them`,
	);

	// (c) The same free text as a webhook payout's comment.
	clock += 60_000;
	const commented = await deliverTo({
		body: JSON.stringify({
			event: 'payout.status_changed',
			payoutId: `po-comment-${seed}`,
			externalId: null,
			status: 'fail',
			amountRub: 1000,
			chargedUsdt: 11.5,
			rate: 87,
			requisiteType: 'phone',
			requisite: '+79160000000',
			failReason: 'requisites_invalid',
			comment: ts.text,
			refunded: true,
			createdAt: '2026-11-21T12:00:00.000Z',
			updatedAt: '2026-11-21T12:05:00.000Z',
		}),
		signWith: d.webhookSecret,
		deliveryId: `dlv-comment-${seed}`,
		credentials,
		staticData,
		logs,
		workflowId,
	});
	const comment = commented.items[0]?.comment;
	check(
		typeof comment === 'string' && !shows(JSON.stringify(commented.items), ts.secret),
		`a webhook comment (${d.dims.textSecretForm}) shows ${ts.secret}: ${comment}`,
	);
	check(
		typeof comment === 'string' && comment.includes(ts.ordinary),
		`the comment's ordinary text did not stay: ${comment}`,
	);

	// (d) An order taken, released and taken again: one key per visit on each side; both sides
	// one key per visit when the service shows updatedAt, else each names what saw it.
	const orderWebhookKeys = [];
	for (const entry of d.orderWalk) {
		clock += 60_000;
		const { record } = entry;
		const { items } = await deliverTo({
			body: JSON.stringify({
				event: 'order.status_changed',
				orderId: record.id,
				walletOrderId: null,
				status: record.status,
				amountUsdt: record.amountUsdt,
				amountRub: record.amountRub,
				completedAt: null,
				failureReason: null,
				createdAt: record.createdAt,
				...(record.updatedAt ? { updatedAt: record.updatedAt } : {}),
			}),
			signWith: d.webhookSecret,
			deliveryId: entry.deliveryId,
			credentials,
			staticData,
			logs,
			workflowId,
		});
		orderWebhookKeys.push(items[0]?.changeKey);
	}
	check(
		new Set(orderWebhookKeys).size === d.orderWalk.length,
		`webhook: ${d.orderWalk.length} order visits, ${new Set(orderWebhookKeys).size} change keys`,
	);
	for (const [list, walk, path, event] of [
		['orders', d.orderWalk, 'GET /orders', 'order.status_changed'],
		['disputes', d.disputeWalk, 'GET /disputes', 'dispute.status_changed'],
	]) {
		let listed = [];
		const listService = serviceOf({ [path]: () => [200, JSON.stringify(listed)] });
		const pollData = {};
		const keys = [];
		for (const entry of walk) {
			listed = [entry.record];
			clock += 60_000;
			const items = await pollOnce({
				parameters: { watch: [list], options: { emitExisting: true } },
				credentials,
				service: listService,
				staticData: pollData,
				logs,
				workflowId: `wf-${list}-${seed}-${process.pid}`,
			});
			const changes = items.filter((item) => item.event === event);
			check(
				changes.length === 1,
				`poll ${list} step ${entry.step} (${entry.status}): ${changes.length} changes`,
			);
			keys.push(changes[0]?.changeKey);
		}
		check(
			new Set(keys).size === walk.length,
			`poll: ${walk.length} ${list} visits, ${new Set(keys).size} change keys (${keys.join(' , ')})`,
		);
		if (list === 'orders' && d.dims.orderTimes === 'updatedAt') {
			check(
				JSON.stringify(keys) === JSON.stringify(orderWebhookKeys),
				'orders with updatedAt: the webhook and the poll gave one visit two keys',
			);
		}
	}
	// (e) A deposit that fails AML twice (outside read r7-data, finding 2): each aml_failed
	// delivery its own key (the body shows no updatedAt: the delivery names it), each poll too.
	const depositWebhookKeys = [];
	const announced = { new: 'deposit.created', aml_failed: 'deposit.aml_failed' };
	for (const entry of d.depositWalk) {
		const event = announced[entry.status];
		if (!event) continue;
		clock += 60_000;
		const { record } = entry;
		const body = {
			event,
			depositId: record.id,
			txHash: record.txHash,
			amount: record.amount,
			status: record.status,
			...(record.externalId ? { externalId: record.externalId } : {}),
			...(event === 'deposit.aml_failed'
				? { amlCheckId: record.amlCheckId, amlResult: 'high risk', error: null }
				: { walletAddress: record.walletAddress, updatedAt: record.updatedAt }),
			createdAt: record.createdAt,
		};
		const { items } = await deliverTo({
			body: JSON.stringify(body),
			signWith: d.webhookSecret,
			deliveryId: entry.deliveryId,
			credentials,
			staticData,
			logs,
			workflowId,
		});
		depositWebhookKeys.push(items[0]?.changeKey);
	}
	check(
		depositWebhookKeys.every(Boolean) &&
			new Set(depositWebhookKeys).size === depositWebhookKeys.length,
		`webhook: ${depositWebhookKeys.length} deposit visits, ${new Set(depositWebhookKeys).size} change keys`,
	);
	{
		const user = d.dims.depositWallet === 'user';
		const path = user ? 'GET /user-wallets/deposits' : 'GET /wallets/deposits';
		let listed = [];
		const listService = serviceOf({
			[path]: () => [200, JSON.stringify({ deposits: listed, total: listed.length })],
		});
		const pollData = {};
		const keys = [];
		for (const entry of d.depositWalk) {
			listed = [entry.record];
			clock += 60_000;
			const items = await pollOnce({
				parameters: {
					watch: [user ? 'userDeposits' : 'companyDeposits'],
					options: { emitExisting: true },
				},
				credentials,
				service: listService,
				staticData: pollData,
				logs,
				workflowId: `wf-deposits-${seed}-${process.pid}`,
			});
			check(
				items.length === 1,
				`poll deposits step ${entry.step} (${entry.status}): ${items.length} changes`,
			);
			keys.push(items[0]?.changeKey);
		}
		check(
			new Set(keys).size === d.depositWalk.length,
			`poll: ${d.depositWalk.length} deposit visits, ${new Set(keys).size} change keys (${keys.join(' , ')})`,
		);
	}
	// (f) A card assigned, closing, assigned again, closed, and a new card under the same
	// externalId (outside read r8-data, findings 4 and 5): every visit its own key, each
	// card.assigned delivery too.
	{
		let listed = [];
		const listService = serviceOf({
			'GET /cards': () => [200, JSON.stringify({ cards: listed, total: listed.length })],
		});
		const pollData = {};
		const keys = [];
		const webhookKeys = [];
		for (const entry of d.cardWalk) {
			listed = [entry.record];
			clock += 60_000;
			const items = await pollOnce({
				parameters: { watch: ['cards'], options: { emitExisting: true } },
				credentials,
				service: listService,
				staticData: pollData,
				logs,
				workflowId: `wf-cards-${seed}-${process.pid}`,
			});
			check(
				items.length === 1,
				`poll cards step ${entry.step} (${entry.status}): ${items.length} changes`,
			);
			keys.push(items[0]?.changeKey);
			if (entry.status !== 'assigned') continue;
			const { items: delivered } = await deliverTo({
				body: JSON.stringify({ event: 'card.assigned', externalId: entry.record.externalId }),
				signWith: d.webhookSecret,
				deliveryId: entry.deliveryId,
				credentials,
				staticData,
				logs,
				workflowId,
			});
			webhookKeys.push(delivered[0]?.changeKey);
		}
		check(
			new Set(keys).size === d.cardWalk.length,
			`poll: ${d.cardWalk.length} card visits, ${new Set(keys).size} change keys (${keys.join(' , ')})`,
		);
		check(
			webhookKeys.every(Boolean) && new Set(webhookKeys).size === webhookKeys.length,
			`webhook: ${webhookKeys.length} card.assigned deliveries, ${new Set(webhookKeys).size} change keys`,
		);
	}
	check(!shows(logs.join('\n'), ts.secret), `a log line shows ${ts.secret}`);
}

let clock = Date.parse('2026-11-21T12:00:00.000Z');
const realNow = Date.now;

/**
 * Outside read r6-data-b (generatedData.mjs r6bData): a full number in `maskedPan`, a card number
 * or CVV in a link, a key under a name no list holds, a card requisite of any JSON shape are never
 * shown; an identifier named like one (`orderNumber`) comes out exact whatever its digits; and
 * the service's fields named like the trigger's own stay visible under `serviceFields`.
 */
async function checkR6b({ d, check, logs, apiKey }) {
	const x = d.r6b;
	// Outside read r9-data: a µs or ns time under a time's name, Luhn-valid or not.
	const t = d.r9;
	// Outside read r10-data: a card number under a card-named time or count name, and under a
	// time's name where no time can be.
	const u = d.r10;
	// Outside read r11-data: a card number under a card abbreviation, and in a text joined by any
	// dash, minus sign or invisible character.
	const v = d.r11;
	// Outside read r16-data: a PIN-attempt counter, a record's key, a PIN or CVV pair.
	const w = d.r16;
	// Outside read r17-data: a registry's number passing the card checksum, a real card in a text,
	// a plain undeclared field of the company profile.
	const z = d.r17;
	const seed = d.seed;
	const dims = JSON.stringify({
		...x.dims,
		...t.dims,
		...u.dims,
		...v.dims,
		...w.dims,
		...z.dims,
	});
	const noCardAsTime = (text, where) => {
		const digits = text.replace(/\D/g, '');
		const found = [...u.pans, ...v.pans].filter((pan) => digits.includes(pan));
		check(found.length === 0, `r10/r11 ${where} shows card number ${found.join(', ')} (${dims})`);
	};
	const credentials = () => credentialsOf(apiKey, d.webhookSecret);
	const orderId = `0f1e2d3c-0000-4000-8000-${String(seed).padStart(12, '0')}`;
	const card = {
		id: `k-${seed}`,
		externalId: `c-${seed}`,
		status: 'assigned',
		maskedPan: x.maskedPan,
		expiry: '12/29',
		createdAt: '2026-11-21T12:00:00.000Z',
		detailsUrl: x.link,
		...w.cardFields,
	};
	const order = {
		id: orderId,
		status: 'success',
		amountUsdt: 1,
		amountRub: 90,
		createdAt: '2026-11-21T12:00:00.000Z',
		[x.dims.idName]: x.id,
		[t.dims.timeName]: t.time,
		...u.fields,
		...v.fields,
		...x.key,
		[w.dims.recordKeyName]: w.recordKeyValue(orderId),
		...z.fields,
		...z.cardText,
	};
	const profile = {
		id: `co-${seed}`,
		name: 'ООО Ромашка',
		webhookSecret: d.webhookSecret,
		[z.plainField]: z.plainValue,
		signingMaterial: x.secrets[0],
	};
	const payout = {
		id: `p-${seed}`,
		status: 'fail',
		failReason: 'requisites_invalid',
		requisiteType: x.requisiteType,
		requisite: x.requisiteRaw,
		amountRub: 1500,
		refundedAt: null,
		createdAt: '2026-11-21T12:00:00.000Z',
	};
	const service = serviceOf({
		[`GET /cards/k-${seed}`]: [200, rawJson(card)],
		[`GET /orders/${orderId}`]: [200, rawJson(order)],
		[`GET /payouts/p-${seed}`]: [200, rawJson(payout)],
		['GET /wallets']: [200, rawJson(x.wallet)],
		['GET /auth/company/profile']: [200, rawJson(profile)],
	});
	const exact = (text) =>
		new RegExp(`\\\\?"${x.dims.idName}\\\\?"\\s*:\\s*\\\\?"?${x.idValue}(?!\\d)`).test(text);
	const timeExact = (text) =>
		new RegExp(`\\\\?"${t.dims.timeName}\\\\?"\\s*:\\s*\\\\?"?${t.timeValue}(?!\\d)`).test(text);
	const noSecret = (text, where) => {
		const found = x.secrets.filter((secret) => shows(text, secret));
		if (text.includes(`cvv=${x.cvv}`)) found.push(`cvv=${x.cvv}`);
		check(found.length === 0, `r6b ${where} shows ${found.join(', ')} (${dims})`);
	};
	for (const tool of [false, true]) {
		const where = tool ? ' (tool)' : '';
		for (const parameters of [
			{ resource: 'card', operation: 'get', cardId: `k-${seed}` },
			{ resource: 'order', operation: 'get', orderId },
			{ resource: 'payout', operation: 'get', payoutId: `p-${seed}` },
		]) {
			const shown = await runAction({
				parameters: tool ? { ...parameters, compactOutput: false } : parameters,
				credentials: credentials(),
				service,
				tool,
				logs,
			});
			noSecret(shown.text, `${parameters.resource}.get${where}`);
			noCardAsTime(shown.text, `${parameters.resource}.get${where}`);
			// r16: the counter exact, the pair's value hidden and its label kept; a record's key and
			// the record's time exact in every answer (a later run's too: nothing learned from it).
			check(
				shown.text.includes('"createdAt":"2026-11-21T12:00:00.000Z"'),
				`r16 ${parameters.resource}.get${where}: createdAt not exact (${dims}) ${shown.text.slice(0, 300)}`,
			);
			if (parameters.resource === 'card') {
				check(
					shown.text.includes(`"${w.dims.counterName}":${w.counterValue}`) &&
						shown.text.includes(`"${w.dims.pairNameKey}":"${w.dims.pairLabel}"`) &&
						!shown.text.includes(`"${w.dims.pairValueKey}":"${w.pairValue}"`),
					`r16 card.get${where}: counter, pair label or pair value wrong (${dims}) ${shown.text.slice(0, 400)}`,
				);
			}
			if (parameters.resource === 'order') {
				check(
					shown.text.includes(
						`"${w.dims.recordKeyName}":${JSON.stringify(w.recordKeyValue(orderId))}`,
					),
					`r16 order.get${where}: ${w.dims.recordKeyName} not exact (${dims}) ${shown.text.slice(0, 300)}`,
				);
			}
			if (parameters.resource === 'order') {
				// r17: the registry's number exactly as sent (the model reads a text's long numbers
				// as requisites: a text field is checked for the user only); the card masked.
				for (const [name, value] of Object.entries(z.fields)) {
					if (tool && name !== 'payeeOgrn') continue;
					check(
						shown.text.includes(`${JSON.stringify(name)}:${JSON.stringify(value)}`),
						`r17 order.get${where}: ${name} not exact (${dims}) ${shown.text.slice(0, 400)}`,
					);
				}
				check(
					!shown.text.replace(/\D/g, '').includes(z.card),
					`r17 order.get${where}: shows card ${z.card} (${dims})`,
				);
			}
			if (parameters.resource === 'order') {
				check(
					exact(shown.text),
					`r6b order.get${where}: ${x.dims.idName} ${x.idValue} not exact (${dims}) ${shown.text.slice(0, 300)}`,
				);
				check(
					timeExact(shown.text),
					`r9 order.get${where}: ${t.dims.timeName} ${t.timeValue} not exact (${dims}) ${shown.text.slice(0, 300)}`,
				);
			}
		}
	}
	// r17-data, finding 7: a plain undeclared field of the company profile (a closed record) exact,
	// for the user and the model; its secret-bearing neighbours and the webhook secret not shown.
	for (const tool of [false, true]) {
		const shown = await runAction({
			parameters: {
				resource: 'company',
				operation: 'getProfile',
				...(tool ? { compactOutput: false } : {}),
			},
			credentials: credentials(),
			service,
			tool,
			logs,
		});
		const where = tool ? ' (tool)' : '';
		noSecret(shown.text, `company.getProfile${where}`);
		check(
			!shown.text.includes(d.webhookSecret),
			`r17 company.getProfile${where}: shows the webhook secret (${dims})`,
		);
		check(
			shown.text.includes(`${JSON.stringify(z.plainField)}:${JSON.stringify(z.plainValue)}`),
			`r17 company.getProfile${where}: ${z.plainField} not exact (${dims}) ${shown.text.slice(0, 400)}`,
		);
	}
	// r14-data, finding 3: a wallet answer's token is the crypto token, for the user and the model.
	for (const tool of [false, true]) {
		const shown = await runAction({
			parameters: {
				resource: 'companyWallet',
				operation: 'getAddress',
				simplify: false,
				compactOutput: false,
			},
			credentials: credentials(),
			service,
			tool,
			logs,
		});
		const token = x.walletToken;
		check(
			shown.text.includes(`"${x.dims.walletTokenName}":"${token}"`) &&
				shown.text.includes(`?token=${token}`),
			`r14 companyWallet.getAddress${tool ? ' (tool)' : ''}: token ${token} not kept (${dims}) ${shown.text.slice(0, 300)}`,
		);
	}
	// The webhook trigger, the credential holding the secret.
	const staticData = {};
	const workflowId = `wf-r6b-${seed}-${process.pid}`;
	const bodies = [
		{
			event: 'card.assigned',
			externalId: card.externalId,
			cardId: card.id,
			maskedPan: x.maskedPan,
			detailsUrl: x.link,
			...x.key,
			...x.collisions,
		},
		{
			event: 'order.status_changed',
			orderId,
			status: 'success',
			amountUsdt: 1,
			amountRub: 90,
			[x.dims.idName]: x.id,
			[t.dims.timeName]: t.time,
			...u.fields,
			...x.key,
		},
		{
			event: 'payout.status_changed',
			payoutId: payout.id,
			status: 'fail',
			failReason: 'requisites_invalid',
			requisiteType: x.requisiteType,
			requisite: x.requisiteRaw,
			refunded: false,
		},
	];
	for (const [i, body] of bodies.entries()) {
		const { status, items } = await deliverTo({
			body: rawJson(body),
			signWith: d.webhookSecret,
			deliveryId: `r6b-${seed}-${i}`,
			credentials,
			staticData,
			logs,
			workflowId,
		});
		check(status === 200, `r6b ${body.event} answered ${status}`);
		const text = JSON.stringify(items);
		noSecret(text, `webhook ${body.event}`);
		noCardAsTime(text, `webhook ${body.event}`);
		if (body.event === 'order.status_changed') {
			check(exact(text), `r6b webhook: ${x.dims.idName} ${x.idValue} not exact (${dims})`);
			check(
				timeExact(text),
				`r9 webhook: ${t.dims.timeName} ${t.timeValue} not exact (${dims}) ${text.slice(0, 300)}`,
			);
		}
		if (body.event === 'card.assigned') {
			const kept = items[0]?.serviceFields ?? {};
			for (const [name, value] of Object.entries(x.collisions)) {
				check(
					kept[name] === value,
					`r6b webhook: the service's ${name} ${value} not kept (${JSON.stringify(kept)})`,
				);
			}
			if (x.dims.collide.length === 0) {
				check(
					items[0] !== undefined && !('serviceFields' in items[0]),
					'r6b webhook: serviceFields with no collision',
				);
			}
		}
	}
}

async function checkSeed(seed) {
	const d = generatedData(seed);
	const problems = [];
	const check = (ok, what) => {
		if (!ok) problems.push(what);
	};
	const logs = [];
	let apiKey = d.apiKey;
	const credentials = () => credentialsOf(apiKey, '');

	// 1. Secret-bearing records, as the user and as the model read them.
	const service = serviceOf({
		'GET /members': [200, rawJson(d.records.members)],
		[`GET /cards/${d.records.cardSensitive.cardId}/sensitive`]: [
			200,
			rawJson(d.records.cardSensitive),
		],
		'GET /auth/company/profile': [200, rawJson(d.records.profile)],
		'GET /members/invites': [200, rawJson(d.records.invites)],
		[`GET /orders/${ORDER_ID}`]: [
			400,
			JSON.stringify({
				statusCode: 400,
				errorCode: 'VALIDATION_ERROR',
				message: 'Invalid request',
				details: d.errorBodyDetails,
				requestId: `req-${seed}`,
			}),
		],
	});
	const cases = [
		{ resource: 'member', operation: 'getMany', returnAll: true },
		{ resource: 'card', operation: 'getSensitiveData', cardId: d.records.cardSensitive.cardId },
		{ resource: 'company', operation: 'getProfile' },
		{ resource: 'invite', operation: 'getMany', returnAll: true },
		{ resource: 'order', operation: 'get', orderId: ORDER_ID },
	];
	for (const parameters of cases) {
		for (const tool of [false, true]) {
			const shown = await runAction({
				parameters: tool ? { ...parameters, compactOutput: false } : parameters,
				credentials: credentials(),
				service,
				tool,
				logs,
			});
			const leaks = leaked(shown.text, d.secrets);
			check(
				leaks.length === 0,
				`${parameters.resource}.${parameters.operation}${tool ? ' (tool)' : ''} shows ${leaks.join(', ')}`,
			);
		}
	}
	const members = await runAction({
		parameters: cases[0],
		credentials: credentials(),
		service,
		logs,
	});
	check(members.json?.[0]?.userId === d.records.members[0].userId, 'member userId changed');

	// 1b. A new key in an answer whose field names are not shown: the key opened where it stands
	// (for the user only), nothing else; no key under an expected name: nothing opened.
	const answer = newKeyAnswer(seed);
	const keyService = serviceOf({
		'POST /auth/company/regenerate-key': [200, JSON.stringify(answer.body)],
	});
	for (const tool of [false, true]) {
		const shown = await runAction({
			parameters: { resource: 'company', operation: 'regenerateApiKey' },
			credentials: credentials(),
			service: keyService,
			tool,
			logs,
		});
		const what = `regenerateApiKey ${answer.shape}${tool ? ' (tool)' : ''}`;
		const leaks = leaked(shown.text, [...answer.secrets, ...(tool ? [answer.key] : [])]);
		check(leaks.length === 0, `${what} shows ${leaks.join(', ')}`);
		if (tool) continue;
		const json = shown.json?.[0] ?? {};
		check(json.apiKeyField === answer.path, `${what}: apiKeyField ${json.apiKeyField}`);
		const opened = answer.path === null ? undefined : readPath(json, answer.path);
		if (answer.path === null) check(!shown.text.includes(answer.key), `${what} opened the key`);
		else check(opened === answer.key, `${what}: the key at ${answer.path} is ${opened}`);
	}

	// 2. Deposits with IDs past 2^53 from the webhook: each ID as written, one key each.
	let staticData = {};
	const webhookSecret = d.webhookSecret;
	const activation = serviceOf({
		'GET /auth/company/profile': [200, '{"webhookUrl":null}'],
		'PATCH /auth/company/profile': [200, `{"webhookUrl":"${TRIGGER_URL}"}`],
		'POST /auth/company/webhook-secret/rotate': [201, JSON.stringify({ webhookSecret })],
	});
	const created = await new CompanyPaymentsTrigger().webhookMethods.default.create.call(
		hookContext({ credentials, service: activation, staticData, logs }),
	);
	check(created === true, 'activation failed');
	staticData = JSON.parse(JSON.stringify(staticData));
	const workflowId = 'wf-data';
	const depositKeys = new Set();
	for (const [i, deposit] of d.deposits.entries()) {
		const body = rawJson(deposit);
		const { status, items } = await deliverTo({
			body,
			signWith: webhookSecret,
			deliveryId: `dep-${seed}-${i}`,
			credentials,
			staticData,
			logs,
			workflowId,
		});
		check(status === 200, `deposit delivery ${i} answered ${status}`);
		const item = items[0];
		check(
			item?.depositId === d.depositIds[i],
			`deposit ID ${d.depositIds[i]} came out as ${item?.depositId}`,
		);
		check(
			item?.token === deposit.token,
			`deposit token ${deposit.token} came out as ${item?.token}`,
		);
		depositKeys.add(item?.changeKey);
		check(leaked(JSON.stringify(items), d.secrets).length === 0, 'a deposit item shows a secret');
	}
	check(
		depositKeys.size === d.deposits.length,
		`${d.deposits.length} deposits, ${depositKeys.size} change keys`,
	);

	// The same deposits read by the poll trigger (Emit Existing on): as many, each ID as written.
	const listed = d.deposits.map(({ event: _event, ...fields }) => fields);
	const depositPoll = await pollOnce({
		parameters: { watch: ['companyDeposits'], options: { emitExisting: true } },
		credentials,
		service: serviceOf({ 'GET /wallets/deposits': [200, rawJson(listed)] }),
		staticData: {},
		logs,
		workflowId: `wf-deposits-${seed}-${process.pid}`,
	});
	const polledIds = depositPoll.map((item) => item.depositId);
	check(
		JSON.stringify([...polledIds].sort()) === JSON.stringify([...d.depositIds].sort()),
		`poll: deposit IDs ${d.depositIds.join(', ')} came out as ${polledIds.join(', ')}`,
	);
	check(
		new Set(depositPoll.map((item) => item.changeKey)).size === d.deposits.length,
		'poll: deposits share a change key',
	);

	// 3. The payout walk from the webhook; the API key regenerated mid-stream.
	const webhookKeys = new Set();
	for (const transition of d.transitions) {
		if (transition.step === d.regenerateAfter) apiKey = d.newApiKey;
		// Deliveries a minute apart: the trigger's credential cache (10 s) reads the new key.
		clock += 60_000;
		const body = rawJson(transition.body);
		for (let attempt = 0; attempt <= transition.retries; attempt++) {
			const { status, items } = await deliverTo({
				body,
				signWith: webhookSecret,
				deliveryId: transition.deliveryId,
				credentials,
				staticData,
				logs,
				workflowId,
			});
			check(
				status === 200,
				`payout ${transition.status} (step ${transition.step}, attempt ${attempt}) answered ${status}`,
			);
			if (attempt > 0) {
				check(items.length === 0, `a retry of step ${transition.step} started a second execution`);
				continue;
			}
			const item = items[0];
			check(
				item?.rawBody === body ? item?.rawBodyMasked === false : item?.rawBodyMasked === true,
				`step ${transition.step}: rawBody changed without rawBodyMasked`,
			);
			check(item?.payoutId === d.payoutId, `payout ID ${d.payoutId} came out as ${item?.payoutId}`);
			for (const name of ['amountRub', 'chargedUsdt']) {
				check(
					amountAsWritten(item?.[name], d.amounts[name]),
					`webhook: ${name} written ${d.amounts[name]} came out as ${JSON.stringify(item?.[name])}`,
				);
			}
			check(typeof item?.changeKey === 'string', `step ${transition.step} has no change key`);
			webhookKeys.add(item?.changeKey);
			check(
				leaked(JSON.stringify(items), d.secrets).length === 0,
				`step ${transition.step} shows a secret`,
			);
		}
		staticData = JSON.parse(JSON.stringify(staticData));
	}
	check(
		webhookKeys.size === d.transitions.length,
		`webhook: ${d.transitions.length} transitions, ${webhookKeys.size} change keys`,
	);

	// 4. The same walk read by the poll trigger, after every step or every second one (a state
	// left and entered again between two polls), one listing answer leaving the payout out; the
	// key regenerated. A poll emits one change exactly when the record differs from the one the
	// last poll saw in its state or in a time of its visits (VISIT_EVIDENCE), else none; every
	// change its own key.
	apiKey = d.apiKey;
	const pollData = {};
	const pollKeys = new Set();
	let emitted = 0;
	let payoutsListed = [];
	const pollService = serviceOf({ 'GET /payouts': () => [200, rawJson(payoutsListed)] });
	const parameters = { watch: ['payouts'], options: { emitExisting: true } };
	const pollWorkflow = `wf-poll-${seed}-${process.pid}`;
	const asRecord = (transition) => {
		const { event: _event, payoutId, ...fields } = transition.body;
		return { id: payoutId, ...fields, createdAt: '2026-11-21T11:59:00.000Z' };
	};
	const shown = (record) =>
		rawJson([record.status, ...VISIT_FIELDS.map((name) => record[name] ?? null)]);
	const pollAt = async (records, label) => {
		payoutsListed = records;
		clock += 60_000;
		const items = await pollOnce({
			parameters,
			credentials,
			service: pollService,
			staticData: pollData,
			logs,
			workflowId: pollWorkflow,
		});
		check(leaked(JSON.stringify(items), d.secrets).length === 0, `poll ${label} shows a secret`);
		return items;
	};
	let lastSeen = null;
	let lastRecord = null;
	for (const transition of d.transitions) {
		if (transition.step === d.regenerateAfter) apiKey = d.newApiKey;
		const last = transition.step === d.transitions.length - 1;
		if (d.dims.pollEvery === 2 && transition.step % 2 === 0 && !last && transition.step > 0) {
			continue;
		}
		if (transition.step === d.omitBefore && lastRecord) {
			// One answer leaves the payout out, the next shows it unchanged: no change either time.
			const gone = await pollAt([], `without the payout before step ${transition.step}`);
			check(gone.length === 0, `a listing without the payout emitted ${gone.length} items`);
			const back = await pollAt([lastRecord], `with the payout back unchanged`);
			check(
				back.length === 0,
				`the payout back unchanged after one answer without it emitted ${back.length} items`,
			);
		}
		const record = asRecord(transition);
		const items = await pollAt([record], `after step ${transition.step}`);
		const changes = items.filter((item) => item.event === 'payout.status_changed');
		const expected = lastSeen === null || shown(record) !== lastSeen ? 1 : 0;
		check(
			changes.length === expected && items.length === expected,
			`poll after step ${transition.step} (${transition.status}): ${changes.length} changes, ${items.length} items, ${expected} expected`,
		);
		lastSeen = shown(record);
		lastRecord = record;
		for (const item of changes) {
			emitted++;
			check(item.payoutId === d.payoutId, `poll: payout ID came out as ${item.payoutId}`);
			pollKeys.add(item.changeKey);
			for (const name of ['amountRub', 'chargedUsdt']) {
				check(
					amountAsWritten(item[name], d.amounts[name]),
					`poll: ${name} written ${d.amounts[name]} came out as ${JSON.stringify(item[name])}`,
				);
			}
		}
	}
	check(pollKeys.size === emitted, `poll: ${emitted} changes, ${pollKeys.size} change keys`);

	// 5. Outside read r5-data: free-text secrets, cut quotes, orders and disputes again.
	await checkRevisitsAndTexts({ d, check, credentials, logs, staticData, workflowId });

	// 6. Outside read r6-data-b: masked by the field's name and kind first.
	await checkR6b({ d, check, logs, apiKey });

	// 7. Every log line.
	const logLeaks = leaked(logs.join('\n'), d.secrets);
	check(logLeaks.length === 0, `a log line shows ${logLeaks.join(', ')}`);
	check(
		!logs.some((line) => line.startsWith('warn') && /new baseline/.test(line)),
		'the key change started a new poll baseline',
	);
	return problems;
}

// CI (.ci/run) runs this file in its Redis fault lane, which mostly waits, and sets
// COMPANY_PAYMENTS_INVARIANTS_IN_LANE=1 for npm test so the file does not run twice.
const IN_LANE = process.env.COMPANY_PAYMENTS_INVARIANTS_IN_LANE === '1';
describe(
	`data invariants over ${SEEDS.length} seeds (issue 50)`,
	{ skip: IN_LANE && 'CI runs this file in its fault lane' },
	() => {
		it('identifiers byte-exact, no secret shown, one change key per transition, nothing lost across a key change', async () => {
			Date.now = () => clock;
			const failed = [];
			try {
				for (const seed of SEEDS) {
					const problems = await checkSeed(seed);
					if (problems.length > 0)
						failed.push({
							seed,
							problems: problems.slice(0, Number(process.env.DATA_PROBLEMS ?? 4)),
						});
				}
			} finally {
				Date.now = realNow;
			}
			if (failed.length > 0) {
				console.log(`${failed.length} of ${SEEDS.length} seeds failed`);
				for (const { seed, problems } of failed.slice(0, 10)) {
					console.log(
						`seed ${seed} (${JSON.stringify(generatedData(seed).dims)}):\n  ${problems.join('\n  ')}`,
					);
				}
			}
			assert.equal(failed.length, 0, `${failed.length} of ${SEEDS.length} seeds failed`);
		});

		it('the generator plays what it says: escaped forms, numbers past 2^53, every state twice', () => {
			const forms = new Set();
			let big = 0;
			for (const seed of SEEDS) {
				const d = generatedData(seed);
				forms.add(d.dims.escapeForm);
				if (d.dims.bigIds) big++;
				const counts = {};
				for (const t of d.transitions) counts[t.status] = (counts[t.status] ?? 0) + 1;
				for (const state of ['pending', 'waiting_trader', 'in_progress', 'success', 'fail']) {
					assert.ok(
						(counts[state] ?? 0) >= 2,
						`seed ${seed}: ${state} entered ${counts[state] ?? 0} times`,
					);
				}
				assert.ok(d.errorDetails.includes(escapedSecret(d.apiKey, d.dims.escapeForm)));
			}
			const shapes = new Set(SEEDS.map((seed) => newKeyAnswer(seed).shape));
			const nestings = new Set();
			for (const seed of SEEDS) {
				for (const [record, { fields }] of Object.entries(closedNestings(seed))) {
					for (const name of Object.keys(fields)) nestings.add(`${record}.${name}`);
				}
			}
			if (SEEDS.length >= 50) {
				const expected = Object.values(CLOSED_NESTINGS).reduce((sum, list) => sum + list.length, 0);
				assert.equal(nestings.size, expected, [...nestings].join(', '));
				assert.equal(shapes.size, NEW_KEY_SHAPES.length);
				assert.equal(forms.size, ESCAPE_FORMS.length);
				assert.ok(big > SEEDS.length / 2);
			}
			// Outside read 2: kept and moved visit times, polls one and two steps apart, a listing
			// that leaves the payout out once, every decimal form; and walks where a state is left and
			// entered again between two polls with its times moved.
			const seen = { revisitTimes: new Set(), pollEvery: new Set(), decimals: new Set() };
			let omitted = 0;
			let revisitsBetweenPolls = 0;
			for (const seed of SEEDS) {
				const d = generatedData(seed);
				for (const name of Object.keys(seen)) seen[name].add(d.dims[name]);
				if (d.omitBefore > 0) omitted++;
				if (d.dims.pollEvery === 2) {
					for (let step = 3; step < d.transitions.length; step += 2) {
						const [before, now] = [d.transitions[step - 2], d.transitions[step]];
						if (before.status === now.status && rawJson(before.body) !== rawJson(now.body)) {
							revisitsBetweenPolls++;
						}
					}
				}
			}
			if (SEEDS.length >= 50) {
				assert.deepEqual(
					Object.fromEntries(Object.entries(seen).map(([name, values]) => [name, values.size])),
					{ revisitTimes: 2, pollEvery: 2, decimals: 3 },
				);
				assert.ok(omitted > SEEDS.length / 4, `${omitted} seeds leave the payout out once`);
				assert.ok(revisitsBetweenPolls > 10, `${revisitsBetweenPolls} revisits between polls`);
			}
			// Outside read r6-data-b: every form of each new dimension.
			const r6 = {};
			for (const seed of SEEDS) {
				const x = generatedData(seed).r6b;
				for (const name of [
					'maskedPanForm',
					'idName',
					'requisiteShape',
					'requisiteType',
					'walletTokenName',
					'walletBeside',
					'keyName',
					'keyForm',
					'linkForm',
					'idAsNumber',
					'keyNested',
				]) {
					(r6[name] ??= new Set()).add(x.dims[name]);
				}
				assert.equal(x.idValue.length, x.dims.idLength);
			}
			if (SEEDS.length >= 50) {
				assert.deepEqual(
					Object.fromEntries(Object.entries(r6).map(([name, values]) => [name, values.size])),
					{
						maskedPanForm: MASKED_PAN_FORMS.length,
						idName: ID_NUMBER_NAMES.length,
						requisiteShape: REQUISITE_SHAPES.length,
						requisiteType: REQUISITE_TYPES.length,
						walletTokenName: WALLET_TOKEN_NAMES.length,
						walletBeside: 4,
						keyName: UNLISTED_KEY_NAMES.length,
						keyForm: 2,
						linkForm: LINK_SECRET_FORMS.length,
						idAsNumber: 2,
						keyNested: 2,
					},
				);
			}
			// Outside read r9-data: every time name, both units, checksum passing and not, both types.
			const r9 = {};
			for (const seed of SEEDS) {
				const t = generatedData(seed).r9;
				for (const name of ['timeName', 'unit', 'luhnValid', 'timeAsNumber']) {
					(r9[name] ??= new Set()).add(t.dims[name]);
				}
				assert.equal(t.timeValue.length, t.dims.unit === 'us' ? 16 : 19);
				let sum = 0;
				for (const [i, char] of [...t.timeValue].reverse().entries()) {
					const digit = Number(char) * (i % 2 === 1 ? 2 : 1);
					sum += digit > 9 ? digit - 9 : digit;
				}
				assert.equal(sum % 10 === 0, t.dims.luhnValid, `r9 ${t.timeValue} checksum`);
			}
			if (SEEDS.length >= 50) {
				assert.deepEqual(
					Object.fromEntries(Object.entries(r9).map(([name, values]) => [name, values.size])),
					{ timeName: TIME_NUMBER_NAMES.length, unit: 2, luhnValid: 2, timeAsNumber: 2 },
				);
			}
			// Outside read r10-data: every card-named time name, every time name, every form of both.
			const r10 = {};
			for (const seed of SEEDS) {
				const u = generatedData(seed).r10;
				for (const name of ['panName', 'panForm', 'timeName', 'timeForm']) {
					(r10[name] ??= new Set()).add(u.dims[name]);
				}
				for (const pan of u.pans) {
					let sum = 0;
					for (const [i, char] of [...pan].reverse().entries()) {
						const digit = Number(char) * (i % 2 === 1 ? 2 : 1);
						sum += digit > 9 ? digit - 9 : digit;
					}
					assert.equal(sum % 10, 0, `r10 ${pan} checksum`);
				}
			}
			if (SEEDS.length >= 50) {
				assert.deepEqual(
					Object.fromEntries(Object.entries(r10).map(([name, values]) => [name, values.size])),
					{
						panName: PAN_TIME_NAMES.length,
						panForm: PAN_FORMS.length,
						timeName: CARD_AS_TIME_NAMES.length,
						timeForm: PAN_FORMS.length,
					},
				);
			}
			// Outside read r17-data: every registry form and plain closed field.
			const r17 = {};
			for (const seed of SEEDS) {
				const z = generatedData(seed).r17;
				for (const name of ['registryForm', 'plainField']) {
					(r17[name] ??= new Set()).add(z.dims[name]);
				}
			}
			if (SEEDS.length >= 50) {
				assert.deepEqual(
					Object.fromEntries(Object.entries(r17).map(([name, values]) => [name, values.size])),
					{ registryForm: REGISTRY_FORMS.length, plainField: CLOSED_PLAIN_FIELDS.length },
				);
			}
			// Outside read r16-data: every counter name, record key name and form, pair name key.
			const r16 = {};
			for (const seed of SEEDS) {
				const w = generatedData(seed).r16;
				for (const name of [
					'counterName',
					'recordKeyName',
					'recordKeyForm',
					'pairNameKey',
					'pairValueKey',
				]) {
					(r16[name] ??= new Set()).add(w.dims[name]);
				}
			}
			if (SEEDS.length >= 50) {
				assert.deepEqual(
					Object.fromEntries(Object.entries(r16).map(([name, values]) => [name, values.size])),
					{
						counterName: PIN_COUNTER_NAMES.length,
						recordKeyName: RECORD_KEY_NAMES.length,
						recordKeyForm: RECORD_KEY_FORMS.length,
						pairNameKey: PAIR_NAME_FORMS.length,
						pairValueKey: PAIR_VALUE_FORMS.length,
					},
				);
			}
			// Outside read r11-data: every card abbreviation, every joiner.
			const r11 = { ccName: new Set(), joiner: new Set() };
			for (const seed of SEEDS) {
				const v = generatedData(seed).r11;
				r11.ccName.add(v.dims.ccName);
				r11.joiner.add(v.dims.joiner);
			}
			if (SEEDS.length >= 50) {
				assert.deepEqual(
					{ ccName: r11.ccName.size, joiner: r11.joiner.size },
					{ ccName: CC_NAMES.length, joiner: PAN_JOINERS.length },
				);
			}
			// Outside read r5-data: every free-text form, every secret a quote is cut inside, at more
			// than one place, and orders and disputes with and without updatedAt.
			const r5 = {
				textSecretForm: new Set(),
				cutSecret: new Set(),
				orderTimes: new Set(),
				disputeTimes: new Set(),
				depositWallet: new Set(),
			};
			const cutPlaces = new Set();
			for (const seed of SEEDS) {
				const d = generatedData(seed);
				for (const name of Object.keys(r5)) r5[name].add(d.dims[name]);
				cutPlaces.add(`${d.cut.name}:${d.cut.inside}`);
				assert.ok(d.cut.inside >= 1 && d.cut.inside < d.cut.secret.length);
				assert.equal(d.cut.text.indexOf(d.cut.secret), 300 - d.cut.inside);
				assert.ok(d.textSecret.text.includes(d.textSecret.secret));
				assert.equal(new Set(d.orderWalk.map((e) => e.status)).size, 3);
				assert.equal(d.depositWalk.filter((e) => e.status === 'aml_failed').length, 2);
			}
			if (SEEDS.length >= 50) {
				assert.deepEqual(
					Object.fromEntries(Object.entries(r5).map(([name, values]) => [name, values.size])),
					{
						textSecretForm: TEXT_SECRET_FORMS.length,
						cutSecret: CUT_SECRETS.length,
						orderTimes: 2,
						disputeTimes: 2,
						depositWallet: 2,
					},
				);
				assert.ok(cutPlaces.size > 40, `${cutPlaces.size} places a quote is cut`);
			}
		});
	},
);
