// Test helpers: a sandbox per test file, a small JSON client, and a local webhook receiver.
// Everything listens on 127.0.0.1 only and is closed by the test that opened it.
import http from 'node:http';
import { drawChoices } from '../../sandbox/lib/generated.mjs';
import { startSandbox } from '../../sandbox/server.mjs';

export { SANDBOX_KEYS as KEYS } from '../../sandbox/server.mjs';

/** The first generated seed (from 1) whose choices fit, so a test states what it needs, not a magic number. */
export function seedWhere(predicate, what) {
	for (let seed = 1; seed <= 2000; seed++) {
		if (predicate(drawChoices(seed))) return seed;
	}
	throw new Error(`no seed in 1..2000 draws ${what}`);
}

/**
 * What n8n hands the package's built code (a list-search method, the transport), reduced to
 * what the package uses: the credential (the sandbox's owner key), the node, and n8n's request
 * helper (here fetch, following no redirect, as the package asks).
 */
export function editorContext(sandbox) {
	const context = {
		getNode: () => ({
			name: 'Company Payments',
			type: 'n8n-nodes-company-payments.companyPayments',
			typeVersion: 1.2,
			parameters: {},
		}),
		getCredentials: async () => ({
			environment: 'staging',
			baseUrl: sandbox.url,
			apiKey: sandbox.keys.owner,
			webhookSecret: '',
		}),
		helpers: {
			async httpRequest(options) {
				const url = new URL(options.url);
				for (const [key, value] of Object.entries(options.qs ?? {})) {
					if (value !== undefined) url.searchParams.set(key, String(value));
				}
				const res = await fetch(url, {
					method: options.method,
					headers: options.headers,
					body: options.body === undefined ? undefined : JSON.stringify(options.body),
					redirect: options.disableFollowRedirect ? 'manual' : 'follow',
				});
				return {
					body: await res.text(),
					headers: Object.fromEntries(res.headers),
					statusCode: res.status,
				};
			},
			/** n8n's helper for a generic credential: the credential's X-API-Key set, then sent. */
			async httpRequestWithAuthentication(_type, options, additional) {
				const data = additional?.credentialsDecrypted?.data ?? { apiKey: sandbox.keys.owner };
				return await context.helpers.httpRequest({
					...options,
					headers: { ...options.headers, 'X-API-Key': String(data.apiKey ?? '') },
				});
			},
		},
	};
	return context;
}

/** Starts a sandbox on a free loopback port; the caller closes it (usually in an after hook). */
export async function openSandbox(options = {}) {
	return startSandbox({ host: '127.0.0.1', port: 0, ...options });
}

/**
 * A JSON client bound to a sandbox and a credential.
 * Returns { status, headers, body, text } for every call; never throws on HTTP status.
 */
export function client(sandbox, key) {
	const call = async (method, path, body, { headers = {}, raw } = {}) => {
		const h = { ...headers };
		if (key && !('X-API-Key' in h) && !('Authorization' in h)) h['X-API-Key'] = key;
		let payload;
		if (raw !== undefined) payload = raw;
		else if (body !== undefined) payload = JSON.stringify(body);
		if (payload !== undefined) h['Content-Type'] = 'application/json';
		const res = await fetch(sandbox.url + path, { method, headers: h, body: payload });
		const text = await res.text();
		let parsed = null;
		try {
			parsed = text ? JSON.parse(text) : null;
		} catch {
			parsed = null;
		}
		return { status: res.status, headers: res.headers, body: parsed, text };
	};
	return {
		get: (path, opts) => call('GET', path, undefined, opts),
		post: (path, body, opts) => call('POST', path, body, opts),
		patch: (path, body, opts) => call('PATCH', path, body, opts),
		delete: (path, opts) => call('DELETE', path, undefined, opts),
		withKey: (other) => client(sandbox, other),
	};
}

/** The control API (no auth). */
export function control(sandbox) {
	const c = client(sandbox, null);
	return {
		get: (path) => c.get(`/__control${path}`),
		post: (path, body = {}) => c.post(`/__control${path}`, body),
	};
}

/**
 * A webhook receiver on 127.0.0.1. `respond(record, index)` returns (or resolves to) the HTTP
 * status to answer (default 200). Each record keeps the raw body bytes and the headers.
 */
export async function startReceiver(respond = () => 200) {
	const requests = [];
	const server = http.createServer((req, res) => {
		const chunks = [];
		req.on('data', (c) => chunks.push(c));
		req.on('end', async () => {
			const raw = Buffer.concat(chunks);
			const record = {
				method: req.method,
				headers: req.headers,
				raw,
				text: raw.toString('utf8'),
				at: Date.now(),
			};
			try {
				record.json = JSON.parse(record.text);
			} catch {
				record.json = null;
			}
			requests.push(record);
			const status = await respond(record, requests.length - 1);
			res.writeHead(status, { 'Content-Type': 'text/plain' });
			res.end(status >= 200 && status < 300 ? 'ok' : 'no');
		});
	});
	await new Promise((r) => server.listen(0, '127.0.0.1', r));
	const { port } = server.address();
	return {
		url: `http://127.0.0.1:${port}/hook`,
		requests,
		/** Waits until `count` requests arrived (a deadline generous for a loaded machine). */
		async waitFor(count, timeoutMs = 30_000) {
			const until = Date.now() + timeoutMs;
			while (requests.length < count) {
				if (Date.now() > until)
					throw new Error(`receiver got ${requests.length} of ${count} requests`);
				await new Promise((r) => setTimeout(r, 5));
			}
			return requests;
		},
		close: () =>
			new Promise((r) => {
				server.close(() => r());
				server.closeAllConnections();
			}),
	};
}

/** Prepares and accepts a quote; returns the order. */
export async function placeOrder(api, { kopecks = 150000, idempotencyKey } = {}) {
	const quote = await api.post('/orders/prepare', {
		qrCode: `https://qr.nspk.ru/AS1?sum=${kopecks}`,
	});
	if (quote.status !== 200) throw new Error(`prepare failed: ${quote.text}`);
	const headers = idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {};
	const order = await api.post(`/orders/accept/${quote.body.id}`, undefined, { headers });
	if (order.status !== 200) throw new Error(`accept failed: ${order.text}`);
	return order.body;
}

/** Asserts the common error-body shape and returns the body. */
export function expectError(assert, res, status, errorCode) {
	assert.equal(res.status, status, res.text);
	assert.equal(res.body.statusCode, status);
	assert.equal(res.body.errorCode, errorCode, res.text);
	assert.equal(typeof res.body.error, 'string');
	assert.ok(res.body.message !== undefined);
	assert.equal(typeof res.body.timestamp, 'string');
	assert.equal(res.body.requestId, res.headers.get('x-request-id'));
	return res.body;
}
