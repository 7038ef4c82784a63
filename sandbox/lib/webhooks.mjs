// Signed webhook delivery with the documented retry policy.
//
// A delivery is created once per event with its body bytes and signature fixed at that
// moment (HMAC-SHA256, hex, keyed with the company secret current at creation, or an empty
// key when no secret is set). Retries and control replays resend exactly those bytes with the
// same X-Service-Delivery-Id and signature, so a retry that started before a secret rotation
// still carries the old signature, as the contract warns.
import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';

export const MAX_ATTEMPTS = 4;
export const DEFAULT_RETRY_DELAYS_MS = Object.freeze([0, 1000, 2000, 4000]);

const PAYOUT_FIELDS = Object.freeze([
	'payoutId',
	'externalId',
	'status',
	'amountRub',
	'chargedUsdt',
	'rate',
	'requisiteType',
	'requisite',
	'bankId',
	'bank',
	'failReason',
	'comment',
	'refunded',
	'disputeStatus',
	'disputeResolution',
	'completedAt',
	'createdAt',
	'updatedAt',
]);

/**
 * The events this simulator emits, in the order of the interface document's "Event kinds" table,
 * each with the payload fields that table names (bodies may carry more). The sandbox's own
 * reading of the document, written apart from the node's (nodes/shared/contract/events.ts);
 * test/sandbox/events.test.mjs checks the two agree. emit() refuses any other event and any
 * body that lacks a named field.
 */
export const DOCUMENTED_EVENTS = Object.freeze({
	'order.status_changed': Object.freeze([
		'orderId',
		'walletOrderId',
		'status',
		'amountUsdt',
		'amountRub',
		'completedAt',
		'failureReason',
		'createdAt',
	]),
	'deposit.created': Object.freeze([
		'depositId',
		'txHash',
		'walletAddress',
		'fromAddress',
		'amount',
		'tokenSymbol',
		'status',
		'createdAt',
		'updatedAt',
	]),
	'deposit.completed': Object.freeze([
		'depositId',
		'txHash',
		'walletAddress',
		'amount',
		'status',
		'sweepTxHash',
		'createdAt',
		'updatedAt',
	]),
	'deposit.aml_failed': Object.freeze([
		'depositId',
		'txHash',
		'amount',
		'status',
		'amlCheckId',
		'amlResult',
		'error',
		'createdAt',
	]),
	'payout.status_changed': PAYOUT_FIELDS,
	'payout.recharged': PAYOUT_FIELDS,
	'card.assigned': Object.freeze(['externalId']),
});

/** Throws unless `event` is documented and `payload` carries every field the document names for it. */
export function checkDocumentedEvent(event, payload) {
	const fields = DOCUMENTED_EVENTS[event];
	if (!fields) throw new Error(`sandbox: event ${event} is not in the document's table`);
	const missing = fields.filter((name) => !(name in payload));
	if (missing.length > 0) {
		throw new Error(`sandbox: event ${event} lacks the documented field(s) ${missing.join(', ')}`);
	}
}

export function signBody(body, secret) {
	return createHmac('sha256', secret ?? '')
		.update(body)
		.digest('hex');
}

function normaliseDelays(delays) {
	if (!Array.isArray(delays) || delays.length === 0) return [...DEFAULT_RETRY_DELAYS_MS];
	const out = delays.slice(0, MAX_ATTEMPTS).map((d) => Math.max(0, Number(d) || 0));
	while (out.length < MAX_ATTEMPTS) out.push(out[out.length - 1]);
	return out;
}

export function createWebhooks(sb, { timeoutMs = 5000 } = {}) {
	const delays = normaliseDelays(sb.options.retryDelaysMs);
	const timers = new Set();
	const controllers = new Set();
	const agents = {
		http: new http.Agent({ keepAlive: false }),
		https: new https.Agent({ keepAlive: false }),
	};
	let stopped = false;
	// Bumped by cancelAll() (reset/close): attempts of older deliveries then stop quietly,
	// even when an aborted request settles after the reset.
	let generation = 0;

	const deliveries = () => sb.state.deliveries;

	/** Emits a documented event for a company: logs it and, if a webhookUrl is set, delivers it. */
	function emit(company, event, payload) {
		checkDocumentedEvent(event, payload);
		const body = JSON.stringify({ event, ...payload });
		const logEntry = { event, companyId: company.id, at: sb.clock.iso(), body, deliveryId: null };
		sb.state.events.push(logEntry);
		if (!company.webhookUrl) return null;
		const secret = company.webhookSecret ?? '';
		const delivery = enqueue({
			companyId: company.id,
			event,
			url: company.webhookUrl,
			body,
			signature: signBody(body, secret),
			signedWith: company.webhookSecret
				? `secret …${company.webhookSecret.slice(-4)}`
				: 'empty key',
		});
		logEntry.deliveryId = delivery.id;
		return delivery;
	}

	/** Creates a delivery and starts attempt 1 (after delays[0]). */
	function enqueue({
		companyId,
		event,
		url,
		body,
		signature,
		signedWith,
		deliveryId,
		retry = true,
	}) {
		const delivery = {
			id: deliveryId ?? sb.ids.uuid(),
			companyId,
			event,
			url,
			body,
			signature,
			signedWith,
			state: 'pending',
			retry,
			generation,
			attempts: [],
			createdAt: sb.clock.iso(),
			nextAttemptAt: null,
		};
		deliveries().push(delivery);
		schedule(delivery, delays[0]);
		return delivery;
	}

	const isCurrent = (delivery) => !stopped && delivery.generation === generation;

	function schedule(delivery, delayMs) {
		if (!isCurrent(delivery)) return;
		delivery.nextAttemptAt = new Date(Date.now() + delayMs).toISOString();
		const timer = setTimeout(() => {
			timers.delete(timer);
			void attempt(delivery);
		}, delayMs);
		timers.add(timer);
	}

	async function attempt(delivery) {
		if (!isCurrent(delivery)) return;
		delivery.state = 'delivering';
		delivery.nextAttemptAt = null;
		const result = await send(delivery);
		if (!isCurrent(delivery)) return;
		delivery.attempts.push(result);
		const scheduled = delivery.attempts.filter((a) => !a.replay).length;
		if (result.ok) {
			delivery.state = 'delivered';
		} else if (delivery.retry && scheduled < MAX_ATTEMPTS) {
			delivery.state = 'pending';
			schedule(delivery, delays[scheduled]);
		} else {
			delivery.state = 'failed';
		}
	}

	/** Control replay: one more attempt with the same bytes, id and signature. */
	async function replay(delivery) {
		const result = await send(delivery);
		result.replay = true;
		delivery.attempts.push(result);
		if (result.ok && delivery.state !== 'delivering' && delivery.state !== 'pending') {
			delivery.state = 'delivered';
		}
		return result;
	}

	function send(delivery) {
		const startedAt = Date.now();
		const at = sb.clock.iso();
		const base = { number: delivery.attempts.length + 1, at };
		return new Promise((resolve) => {
			let url;
			try {
				url = new URL(delivery.url);
			} catch {
				resolve({ ...base, ok: false, error: 'invalid webhook URL', durationMs: 0 });
				return;
			}
			const isHttps = url.protocol === 'https:';
			const headers = {
				'Content-Type': 'application/json',
				'Content-Length': Buffer.byteLength(delivery.body),
				'X-Service-Delivery-Id': delivery.id,
				'User-Agent': 'company-payments-sandbox/1.0',
			};
			if (delivery.signature !== null) headers['X-Service-Signature'] = delivery.signature;
			const controller = new AbortController();
			controllers.add(controller);
			const done = (outcome) => {
				controllers.delete(controller);
				resolve({ ...base, ...outcome, durationMs: Date.now() - startedAt });
			};
			const req = (isHttps ? https : http).request(url, {
				method: 'POST',
				headers,
				signal: controller.signal,
				agent: isHttps ? agents.https : agents.http,
				timeout: timeoutMs,
			});
			req.on('timeout', () => req.destroy(new Error(`timeout after ${timeoutMs} ms`)));
			req.on('error', (error) => done({ ok: false, error: error.message }));
			req.on('response', (res) => {
				const chunks = [];
				res.on('data', (c) => chunks.push(c));
				res.on('error', (error) =>
					done({ ok: false, status: res.statusCode, error: error.message }),
				);
				res.on('end', () => {
					const responseBody = Buffer.concat(chunks).toString('utf8').slice(0, 500);
					const ok = res.statusCode >= 200 && res.statusCode < 300;
					done({ ok, status: res.statusCode, responseBody });
				});
			});
			req.end(delivery.body);
		});
	}

	function find(id) {
		return deliveries().find((d) => d.id === id) ?? null;
	}

	/** Deliveries sharing an id (a forged duplicate) are listed separately; find() returns the first. */
	function list() {
		return [...deliveries()];
	}

	function isBusy() {
		return list().some((d) => d.state === 'pending' || d.state === 'delivering');
	}

	/** Resolves once no delivery is pending or in flight. */
	async function idle({ timeoutMs: limit = 30000 } = {}) {
		const until = Date.now() + limit;
		while (isBusy()) {
			if (Date.now() > until) throw new Error('webhook deliveries did not settle in time');
			await new Promise((r) => setTimeout(r, 10));
		}
	}

	/** Cancels timers and in-flight requests; used on reset and close. */
	function cancelAll() {
		generation += 1;
		for (const t of timers) clearTimeout(t);
		timers.clear();
		for (const c of controllers) c.abort();
		controllers.clear();
	}

	function stop() {
		stopped = true;
		cancelAll();
		agents.http.destroy();
		agents.https.destroy();
	}

	return { emit, enqueue, replay, find, list, idle, cancelAll, stop, delays, signBody };
}

/** The delivery as shown by the control API. */
export function presentDelivery(d) {
	let payload = null;
	try {
		payload = JSON.parse(d.body);
	} catch {
		payload = null;
	}
	return {
		id: d.id,
		event: d.event,
		url: d.url,
		state: d.state,
		attempts: d.attempts.map((a) => ({ ...a })),
		signature: d.signature,
		signedWith: d.signedWith,
		nextAttemptAt: d.nextAttemptAt,
		createdAt: d.createdAt,
		body: d.body,
		payload,
	};
}
