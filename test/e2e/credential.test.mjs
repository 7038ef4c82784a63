/**
 * The credential's test inside a real n8n (2.8.4 unless the host is told another version), the
 * way the editor's "Test" button runs it (POST /rest/credentials/test): n8n's own mechanism (the
 * credential's declarative `test` request, its `authenticate` function, n8n's HTTP helper)
 * against the sandbox, and what it says for a working key, a wrong key and a wrong Base URL.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { startSandbox } from '../../sandbox/server.mjs';
import { e2eStack, sandboxCredential } from '../../harness/stack.mjs';

const stack = e2eStack('credential');
let sandbox;
let n8n;
let stored;

before(async () => {
	await stack.prepare();
	sandbox = await stack.service(startSandbox());
	[stored] = await stack.credentials([sandboxCredential(sandbox)]);
	n8n = await stack.start();
});

after(() => stack.stop());

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

test('a working key: OK (the key reached the service as X-API-Key)', async () => {
	const result = await testWith({});
	assert.equal(result.status, 'OK', JSON.stringify(result));
});

test('an unknown key: named by its errorCode, never the key', async () => {
	const wrong = 'sk_dummy_unknown_key_0000000000';
	const result = await testWith({ apiKey: wrong });
	assert.equal(result.status, 'Error', JSON.stringify(result));
	assert.match(result.message, /^INVALID_API_KEY: The API key is unknown or was replaced/);
	assert.ok(!result.message.includes(wrong));
});

test('a Base URL with a wrong path: the 404 explanation', async () => {
	const result = await testWith({ baseUrl: `${sandbox.url}/wrong-prefix/` });
	assert.equal(result.status, 'Error', JSON.stringify(result));
	assert.match(result.message, /Nothing at this Base URL answers GET \/auth\/company\/profile/);
});
