/**
 * What the companion says about its Redis (companion/nodes/CompanyPaymentsQueueTrigger/redisCheck.ts,
 * used by activation, the credential's Test and every new connection of a claim), and its
 * clients (redisStore.ts: one per full set of connection options, closed when no trigger uses it).
 * Real redis-servers on 127.0.0.1, no n8n. Needs the companion built and redis-server (with TLS,
 * as Debian builds it) and openssl for the certificate case.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { startRedis } from '../../harness/services.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DIST = path.join(ROOT, 'companion/dist/nodes/CompanyPaymentsQueueTrigger');
const require = createRequire(import.meta.url);

async function freePort() {
	const server = net.createServer();
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address();
	await new Promise((resolve) => server.close(resolve));
	return port;
}

describe("the companion's checks of its Redis, and its clients", () => {
	let check;
	let store;
	let dir;
	const servers = {};

	before(async () => {
		assert.ok(fs.existsSync(DIST), 'build the companion first: npm run build --prefix companion');
		check = require(path.join(DIST, 'redisCheck.js'));
		store = require(path.join(DIST, 'redisStore.js'));
		dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-claim-checks-'));
		const start = (name, options) =>
			startRedis({ dir: path.join(dir, name), ...options }).then((r) => (servers[name] = r));
		await Promise.all([
			start('good', { appendonly: true }),
			start('volatile', {}),
			start('password', { appendonly: true, args: ['--requirepass', 'right-password'] }),
			start('evicting', {
				appendonly: true,
				args: ['--maxmemory', '64mb', '--maxmemory-policy', 'volatile-lru'],
			}),
		]);
	});

	after(async () => {
		await store?.closeRedisClaims();
		await Promise.all(Object.values(servers).map((s) => s.stop?.()));
		if (dir) fs.rmSync(dir, { recursive: true, force: true });
	});

	const at = (name, extra = {}) => ({
		host: '127.0.0.1',
		port: servers[name].port,
		db: 0,
		...extra,
	});

	test('a Redis that holds claims: OK, and the message says what was checked', async () => {
		const result = await check.checkRedis(at('good'));
		assert.equal(result.ok, true, result.message);
		assert.match(
			result.message,
			/the claim scripts ran on a probe key, maxmemory-policy noeviction \(no maxmemory\), appendonly yes/,
		);
	});

	test('a wrong password says so (not "not connected"), and so does a missing one', async () => {
		const wrong = await check.checkRedis(at('password', { password: 'wrong' }));
		assert.equal(wrong.ok, false);
		assert.match(wrong.message, /refused the credential's user or password \(WRONGPASS/);
		assert.match(wrong.message, /correct the Password/);
		assert.doesNotMatch(wrong.message, /wrong"|right-password/, 'no password in the message');
		const none = await check.checkRedis(at('password'));
		assert.match(none.message, /requires a password .*NOAUTH/);
		const right = await check.checkRedis(at('password', { password: 'right-password' }));
		assert.equal(right.ok, true, right.message);
	});

	test('database 99 of a Redis with 16: refused, naming the database', async () => {
		const result = await check.checkRedis(at('good', { db: 99 }));
		assert.equal(result.ok, false);
		assert.match(
			result.message,
			/database 99 does not exist in this Redis \(ERR DB index is out of range\)/,
		);
	});

	test('a Redis that evicts (volatile-lru with maxmemory): refused, naming the policy and the fix', async () => {
		const result = await check.checkRedis(at('evicting'));
		assert.equal(result.ok, false);
		assert.match(result.message, /maxmemory-policy volatile-lru, maxmemory 67108864 bytes/);
		assert.match(result.message, /Set maxmemory-policy to noeviction/);
	});

	test('no append-only file: refused unless the trigger accepts it', async () => {
		const refused = await check.checkRedis(at('volatile'));
		assert.equal(refused.ok, false);
		assert.match(
			refused.message,
			/appendonly no.*Set appendonly yes.*Accept Redis Without Persistence/,
		);
		const accepted = await check.checkRedis(at('volatile'), { allowWithoutPersistence: true });
		assert.equal(accepted.ok, true, accepted.message);
	});

	test('a user without scripting, and one without INFO: refused, naming the permission', async () => {
		const admin = at('good');
		const { default: Redis } = require(
			path.join(ROOT, 'companion/node_modules/ioredis/built/index.js'),
		);
		const client = new Redis(admin);
		try {
			await client.call('ACL', 'SETUSER', 'noscript', 'on', '>pw', '~*', '+@all', '-@scripting');
			await client.call('ACL', 'SETUSER', 'noinfo', 'on', '>pw', '~*', '+@all', '-info');
		} finally {
			client.disconnect();
		}
		const noScript = await check.checkRedis(at('good', { username: 'noscript', password: 'pw' }));
		assert.match(noScript.message, /does not let the credential's user run scripts .*\+@scripting/);
		const noInfo = await check.checkRedis(at('good', { username: 'noinfo', password: 'pw' }));
		assert.match(noInfo.message, /does not let the credential's user read INFO .*\+info/);
	});

	test('nothing listening: says so with the host and port', async () => {
		const port = await freePort();
		const result = await check.checkRedis({ host: '127.0.0.1', port, db: 0 });
		assert.match(
			result.message,
			new RegExp(`nothing accepts connections at 127.0.0.1:${port} \\(ECONNREFUSED\\)`),
		);
	});

	test('TLS: a certificate this n8n does not trust is refused naming the certificate; "Disable TLS Verification (insecure)" connects', async () => {
		const tlsDir = path.join(dir, 'tls');
		fs.mkdirSync(tlsDir, { recursive: true });
		execFileSync(
			'openssl',
			[
				'req',
				'-x509',
				'-newkey',
				'rsa:2048',
				'-nodes',
				'-days',
				'2',
				'-subj',
				'/CN=claims-redis.test',
				'-keyout',
				path.join(tlsDir, 'key.pem'),
				'-out',
				path.join(tlsDir, 'cert.pem'),
			],
			{ stdio: 'ignore' },
		);
		const tlsPort = await freePort();
		servers.tlsPort = tlsPort;
		servers.tls = await startRedis({
			dir: tlsDir,
			appendonly: true,
			args: [
				'--tls-port',
				String(tlsPort),
				'--tls-cert-file',
				path.join(tlsDir, 'cert.pem'),
				'--tls-key-file',
				path.join(tlsDir, 'key.pem'),
				'--tls-auth-clients',
				'no',
			],
		});
		const checked = await check.checkRedis({
			host: '127.0.0.1',
			port: tlsPort,
			db: 0,
			tls: { rejectUnauthorized: true },
		});
		assert.equal(checked.ok, false);
		assert.match(
			checked.message,
			/TLS certificate of Redis at 127.0.0.1:\d+ was refused \(DEPTH_ZERO_SELF_SIGNED_CERT/,
		);
		assert.match(
			checked.message,
			/The certificate it presents: subject CN=claims-redis\.test; issuer CN=claims-redis\.test; valid .* SHA-256 [0-9A-F:]+/,
		);
		const ignored = await check.checkRedis({
			host: '127.0.0.1',
			port: tlsPort,
			db: 0,
			tls: { rejectUnauthorized: false },
		});
		assert.equal(ignored.ok, true, ignored.message);
		// A credential without SSL at the TLS port: the reset is named as TLS, with the fix, in
		// the check and in a delivery's 503 (outside r6 f4).
		const plain = await check.checkRedis({ host: '127.0.0.1', port: tlsPort, db: 0 });
		assert.equal(plain.ok, false);
		assert.match(plain.message, /accepts only TLS there .*turn on SSL in the Redis credential/);
		const delivery = await record(
			webhookCtx({ host: '127.0.0.1', port: tlsPort, database: 0 }, { workflowId: 'plain-tls' }),
		);
		assert.equal(delivery.verdict, 'unavailable');
		assert.match(delivery.reason, /turn on SSL in the Redis credential/);
		// The credential's options: "Disable TLS Verification" is part of them.
		const strict = store.redisOptions({
			host: '127.0.0.1',
			port: tlsPort,
			ssl: true,
			disableTlsVerification: false,
		});
		const lax = store.redisOptions({
			host: '127.0.0.1',
			port: tlsPort,
			ssl: true,
			disableTlsVerification: true,
		});
		assert.deepEqual(
			[strict.tls, lax.tls],
			[{ rejectUnauthorized: true }, { rejectUnauthorized: false }],
		);
	});

	/** A webhook context of one trigger, as the store reads it. */
	function webhookCtx(credential, { workflowId = 'wf1', nodeId = 'node1', options = {} } = {}) {
		const lines = [];
		return {
			lines,
			getCredentials: async () => credential,
			getNode: () => ({ id: nodeId, name: 'Company Payments Trigger', type: 'x', typeVersion: 2 }),
			getWorkflow: () => ({ id: workflowId }),
			getMode: () => 'webhook',
			getInstanceId: () => 'instance',
			getNodeParameter: (name, fallback) => {
				const [, option] = name.split('.');
				return option in options ? options[option] : fallback;
			},
			logger: { debug() {}, info: (l) => lines.push(l), warn() {}, error() {} },
		};
	}

	const record = (ctx) =>
		store.redisDeliveryStore.record(ctx, {
			deliveryId: `dlv_${randomUUID()}`,
			now: Date.now(),
			limits: { maxEntries: 1000, maxAgeMs: 3_600_000 },
		});

	test('clients: one per full set of options ("Disable TLS Verification" too); a credential edit moves the trigger to a new client and closes the old one; deactivation closes the last', async () => {
		await store.closeRedisClaims();
		const good = { host: '127.0.0.1', port: servers.good.port, database: 0 };
		assert.deepEqual(await record(webhookCtx(good)), { verdict: 'new' });
		assert.equal(store.openRedisClaims(), 1);
		// The TLS Redis with "Disable TLS Verification" on, and with it off: two clients; the one that
		// checks certificates refuses it, whatever the other one does in the same process.
		const tlsRedis = { host: '127.0.0.1', port: servers.tlsPort, database: 0, ssl: true };
		const lax = await record(
			webhookCtx({ ...tlsRedis, disableTlsVerification: true }, { workflowId: 'wf2' }),
		);
		assert.deepEqual(lax, { verdict: 'new' });
		const strict = await record(
			webhookCtx({ ...tlsRedis, disableTlsVerification: false }, { workflowId: 'wf3' }),
		);
		assert.equal(strict.verdict, 'unavailable');
		assert.match(strict.reason, /TLS certificate of Redis at 127.0.0.1:\d+ was refused/);
		assert.equal(store.openRedisClaims(), 3);
		// wf1's credential is edited (a password): wf1 moves to a new client, its old one closes.
		const edited = {
			host: '127.0.0.1',
			port: servers.password.port,
			database: 0,
			password: 'right-password',
		};
		assert.deepEqual(await record(webhookCtx(edited)), { verdict: 'new' });
		assert.equal(store.openRedisClaims(), 3, 'the old client of wf1 is closed');
		// A wrong password takes effect at once too, and says so.
		const wrong = await record(webhookCtx({ ...edited, password: 'wrong' }));
		assert.equal(wrong.verdict, 'unavailable');
		assert.match(wrong.reason, /refused the credential's user or password/);
		// Deactivation of both: no client is left open.
		assert.equal(store.openRedisClaims(), 3);
		for (const workflowId of ['wf1', 'wf2', 'wf3']) {
			store.releaseOnDeactivation({
				getNode: () => ({ id: 'node1' }),
				getWorkflow: () => ({ id: workflowId }),
				getMode: () => 'trigger',
			});
		}
		assert.equal(store.openRedisClaims(), 0);
	});

	test('a delivery at a Redis without persistence: 503 naming appendonly, unless the trigger option is on', async () => {
		await store.closeRedisClaims();
		const volatile = { host: '127.0.0.1', port: servers.volatile.port, database: 0 };
		const refused = await record(webhookCtx(volatile));
		assert.equal(refused.verdict, 'unavailable');
		assert.match(refused.reason, /appendonly no/);
		// This Redis began less than 20 s ago, and keeps nothing: a process that knew no epoch
		// cannot tell it from one that restarted and lost its keys, so it waits out the restart
		// window (from Redis' start) before the first delivery runs (outside r6 f1).
		let accepted;
		for (;;) {
			accepted = await record(webhookCtx(volatile, { options: { redisWithoutPersistence: true } }));
			if (accepted.verdict !== 'unavailable') break;
			assert.match(accepted.reason, /may have restarted without persistence/);
			await sleep(200);
		}
		assert.deepEqual(accepted, { verdict: 'new' });
		await store.closeRedisClaims();
	});

	test('a Redis URL pasted into Host: refused naming the field, and the password is never shown (outside r7 f7)', async () => {
		const password = 'Pw-r7-Secr3t-xyz';
		for (const host of [
			`redis://default:${password}@127.0.0.1:${servers.password.port}`,
			`default:${password}@127.0.0.1`,
			`rediss://:${password}@127.0.0.1`,
			// A base64 access key holds `/` (outside r8-companion f1).
			`rediss://:Zk9/${password}+Xw=@127.0.0.1`,
			`default:pa/${password}@127.0.0.1`,
		]) {
			const data = { host, port: servers.password.port, database: 0, password };
			assert.throws(
				() => store.redisOptions(data),
				(error) => {
					assert.match(error.message, /Host is ".*\*\*\*@127\.0\.0\.1.*": it takes a host name/);
					assert.ok(!error.message.includes(password), error.message);
					return true;
				},
			);
			const tested = await store.companyPaymentsRedisTest.call({}, { data });
			assert.equal(tested.status, 'Error');
			assert.ok(!tested.message.includes(password), tested.message);
			const delivery = await record(webhookCtx(data));
			assert.equal(delivery.verdict, 'unavailable');
			assert.ok(!delivery.reason.includes(password), delivery.reason);
			assert.match(delivery.reason, /takes a host name/);
		}
		// Wherever a host is shown, user information is masked.
		assert.equal(check.maskHost('redis://u:p@h:1'), 'redis://***@h:1');
		assert.equal(check.maskHost('redis.example.com'), 'redis.example.com');
		// A password with `/`, `?`, `#` or `@` (base64 access keys have `/`): outside r8-companion f1.
		assert.equal(check.maskHost('rediss://:Zk9/q+Xw=@cache.example:6380'), 'rediss://***@cache.example:6380');
		assert.equal(check.maskHost('default:pa/ss?x#y@h'), '***@h');
		assert.equal(check.maskHost('redis://u:p@ss@h:1'), 'redis://***@h:1');
	});
});
