/**
 * The credential's test inside a real n8n (2.8.4 unless the host is told another version), the
 * way the editor's "Test" button runs it (POST /rest/credentials/test): n8n's own mechanism (the
 * credential's declarative `test` request, its `authenticate` function, n8n's HTTP helper)
 * against the sandbox, and what it says for a working key, a wrong key and a wrong Base URL.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, test } from 'node:test';

import { startSandbox } from '../../sandbox/server.mjs';
import { e2eStack, sandboxCredential } from '../../harness/stack.mjs';

const stack = e2eStack('credential');
let sandbox;
let n8n;
let stored;
/** A stand-in for a gateway, proxy or firewall in front of the service: answers by the key sent. */
let gateway;
const gatewaySeen = [];
const GATEWAY = {
	gateway401: [401, { message: 'Unauthorized' }],
	gateway403: [403, { message: 'Forbidden', code: 'WAF_BLOCK' }],
	gateway429: [429, { message: 'API rate limit exceeded' }],
	proxy500: [500, { error: 'Internal Server Error' }],
	gateway502: [502, { id: 'gw-1', message: 'Bad Gateway' }],
	empty401: [401, ''],
	teapot418: [418, { message: 'no' }],
	// Statuses the test has no answer of its own for, with a reason phrase that echoes the key
	// sent (KEY), as outside read r21-data's gateway did: n8n would show the phrase itself.
	sk_dummy_reason_422_key_0123456789: [
		422,
		{ statusCode: 422, errorCode: 'UNPROCESSABLE', message: 'x' },
		'Unprocessable: key KEY is not allowed here',
	],
	sk_dummy_reason_451_key_0123456789: [451, { message: 'x' }, 'Blocked for key KEY'],
	sk_dummy_reason_409_key_0123456789: [409, { message: 'x' }, 'Conflict'],
	sk_dummy_reason_799_key_0123456789: [799, { message: 'x' }, 'Odd KEY'],
};

before(async () => {
	await stack.prepare();
	gateway = createServer((request, response) => {
		const key = String(request.headers['x-api-key'] ?? '');
		gatewaySeen.push(key);
		const [status, body, reason] = GATEWAY[key] ?? [200, { id: 'c-1', webhookUrl: null }];
		const headers = { 'content-type': 'application/json' };
		if (reason === undefined) response.writeHead(status, headers);
		else response.writeHead(status, reason.replace('KEY', key), headers);
		response.end(typeof body === 'string' ? body : JSON.stringify(body));
	});
	await new Promise((resolve) => gateway.listen(0, '127.0.0.1', resolve));
	stack.onStop(() => new Promise((resolve) => gateway.close(resolve)));
	sandbox = await stack.service(startSandbox());
	[stored] = await stack.credentials([sandboxCredential(sandbox)]);
	n8n = await stack.start();
});

after(() => stack.stop());

const gatewayUrl = () => `http://127.0.0.1:${gateway.address().port}/api`;

/** n8n keeps a failed request's response for the status rules from some 2.x on; 2.8.4 and 1.123.81 do not. */
const statusRulesFire = () => !/^(2\.8\.|1\.)/.test(String(stack.install?.version));

/** What the editor's Test button gets for this credential data. */
async function testWith(data) {
	return await n8n.rest('POST', '/credentials/test', {
		credentials: {
			id: stored.id,
			name: stored.name,
			type: 'companyPaymentsApi',
			data: { environment: 'staging', baseUrl: sandbox.url, apiKey: sandbox.keys.owner, ...data },
		},
	});
}

test('a working key: OK (the key reached the service as X-API-Key)', async (t) => {
	t.diagnostic(`n8n ${stack.install?.version}`);
	const result = await testWith({});
	assert.equal(result.status, 'OK', JSON.stringify(result));
});

test('an unknown key: the test fails naming the refusal, never the key', async () => {
	const wrong = 'sk_dummy_unknown_key_0000000000';
	const result = await testWith({ apiKey: wrong });
	assert.equal(result.status, 'Error', JSON.stringify(result));
	assert.match(
		result.message,
		statusRulesFire()
			? /^HTTP 401: the API key was refused \(the service says INVALID_API_KEY/
			: /^Authorization failed - please check your credentials$/,
	);
	assert.ok(!result.message.includes(wrong));
});

// Answers without the service's statusCode or errorCode (what the r3 reader's gateway sent): no
// status outside 2xx passes for the profile, and a refused key is never called a wrong Base URL.
// Every status is named by its number in this package's words where n8n applies the rules, and
// no reason phrase (nor the key it may echo) is shown on any version (r21-data F2).
for (const [key, [status, body, reason]] of Object.entries(GATEWAY)) {
	const said = reason === undefined ? '' : ` "${reason}"`;
	test(`a gateway's HTTP ${status}${said} ${JSON.stringify(body) || '(empty body)'}: the test fails`, async () => {
		const result = await testWith({ baseUrl: gatewayUrl(), apiKey: key });
		assert.equal(result.status, 'Error', JSON.stringify(result));
		assert.notEqual(result.message, 'Connection successful!');
		if (status === 401 || status === 403) assert.doesNotMatch(result.message, /Base URL/);
		if (statusRulesFire()) assert.match(result.message, new RegExp(`^HTTP ${status}[: ]`));
		assert.ok(!result.message.includes(key), `the key is in the message: ${result.message}`);
		if (reason !== undefined) {
			assert.ok(!result.message.includes(reason.split(' ')[0]), result.message);
		}
	});
}

test('the gateway stand-in itself answers a working key: OK', async () => {
	const result = await testWith({ baseUrl: gatewayUrl(), apiKey: 'works' });
	assert.equal(result.status, 'OK', JSON.stringify(result));
});

test('Production with a plain http Base URL: refused before the key is sent, as the nodes refuse it', async () => {
	const key = 'sk_dummy_production_key_over_http';
	const result = await testWith({ environment: 'production', baseUrl: gatewayUrl(), apiKey: key });
	assert.equal(result.status, 'Error', JSON.stringify(result));
	assert.match(
		result.message,
		/The credential does not fit together: Environment is Production but the Base URL http:\/\/127\.0\.0\.1:\d+ is not https/,
	);
	assert.ok(!gatewaySeen.includes(key), 'the production key reached the http server');
});

test('a Base URL with a wrong path: the 404 explanation', async () => {
	const result = await testWith({ baseUrl: `${sandbox.url}/wrong-prefix/` });
	assert.equal(result.status, 'Error', JSON.stringify(result));
	assert.match(
		result.message,
		statusRulesFire()
			? /^HTTP 404: nothing at this Base URL answers GET \/auth\/company\/profile/
			: /^The resource you are requesting could not be found$/,
	);
});
