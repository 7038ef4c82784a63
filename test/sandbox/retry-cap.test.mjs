// The retry rules of the transport against the sandbox's own injected rate limits: a service that
// answers 429 with `Retry-After: 0` again and again (rate limits are not shown in the interface
// document; docs/rate-limits.md) gets at most 8 requests from one call, each after a real wait,
// and the call fails with the service's error and what the node tried. With the limit lifted
// after 3 answers, the same call succeeds on its 4th request.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

import { control, editorContext, openSandbox } from './helpers.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
const { apiRequest } = require(path.join(ROOT, 'dist/nodes/shared/transport/index.js'));

describe('retries against the sandbox answering 429 with Retry-After: 0', () => {
	let sandbox;
	let ctl;
	before(async () => {
		sandbox = await openSandbox();
		ctl = control(sandbox);
	});
	after(() => sandbox.close());

	const getBalance = () =>
		apiRequest.call(editorContext(sandbox), { method: 'GET', path: '/wallets/balance' });

	it('for ever: 8 requests, then the service error and "Tried 8 times"', async () => {
		const limit = await ctl.post('/faults', {
			status: 429,
			rejectFirstRequests: 50,
			retryAfter: 0,
			pathPrefix: '/wallets/balance',
		});
		assert.equal(limit.status, 200, limit.text);
		const started = performance.now();
		await assert.rejects(getBalance(), (error) => {
			assert.equal(String(error.httpCode), '429');
			assert.match(`${error.message} ${JSON.stringify(error.context ?? {})}`, /RATE_LIMITED/);
			assert.match(
				error.description,
				/Tried 8 times over 1\.8 s, the most the node sends one call/,
			);
			return true;
		});
		const left = (await ctl.get('/faults')).body.rejectRequests;
		assert.equal(50 - left, 8, 'requests the call sent');
		assert.ok(performance.now() - started >= 7 * 250, 'it waited between the requests');
		await ctl.post('/faults', {});
	});

	it('for 3 answers: the 4th request succeeds', async () => {
		await ctl.post('/faults', {
			status: 429,
			rejectFirstRequests: 3,
			retryAfter: 0,
			pathPrefix: '/wallets/balance',
		});
		const balance = await getBalance();
		assert.equal(typeof balance, 'object');
		assert.equal((await ctl.get('/faults')).body.rejectRequests, 0);
	});
});
