/**
 * What the companion says about its Redis (companion/nodes/CompanyPaymentsQueueTrigger/redisCheck.ts,
 * used by activation, the credential's Test and every new connection of a claim), and its
 * clients (redisStore.ts: one per full set of connection options, closed when no trigger uses it).
 * Real redis-servers on 127.0.0.1, no n8n. Needs the companion built and redis-server (with TLS,
 * as Debian builds it) and openssl for the certificate case.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { startRedis } from '../../harness/services.mjs';
import { startRelay } from './relay.mjs';

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

/**
 * One delivery recorded by the store; a new one is held until n8n's answer, answered 200 here (as
 * n8n does once the execution exists), so its claim is promoted as in n8n. The verdict alone.
 */
async function recordHeld(store, ctx) {
	const outcome = await store.redisDeliveryStore.record(ctx, {
		deliveryId: `dlv_${randomUUID()}`,
		now: Date.now(),
		limits: { maxEntries: 1000, maxAgeMs: 3_600_000 },
	});
	if (outcome.verdict !== 'new') return outcome;
	assert.equal(
		typeof outcome.held?.answered,
		'function',
		'a new delivery is held until n8n answers',
	);
	await outcome.held.answered(200);
	return { verdict: outcome.verdict };
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
			start('infoRenamed', { appendonly: true, args: ['--rename-command', 'INFO', ''] }),
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

	const record = (ctx) => recordHeld(store, ctx);

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

	test('INFO renamed away (rename-command INFO ""): activation, Test and a 503 name it and say to enable it, never "did not answer" or "not connected" (outside r10 f6)', async () => {
		const named =
			/INFO is disabled in this Redis \(rename-command.*the claim needs INFO \(persistence, memory, stats.*enable it/;
		const checked = await check.checkRedis(at('infoRenamed'));
		assert.equal(checked.ok, false);
		assert.match(checked.message, named);
		assert.doesNotMatch(checked.message, /did not answer|not connected/);
		await store.closeRedisClaims();
		const cred = { host: '127.0.0.1', port: servers.infoRenamed.port, database: 0 };
		const refused = await record(webhookCtx(cred));
		assert.equal(refused.verdict, 'unavailable');
		assert.match(refused.reason, named);
		assert.doesNotMatch(refused.reason, /not connected/);
		await store.closeRedisClaims();
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
		assert.equal(
			check.maskHost('rediss://:Zk9/q+Xw=@cache.example:6380'),
			'rediss://***@cache.example:6380',
		);
		assert.equal(check.maskHost('default:pa/ss?x#y@h'), '***@h');
		assert.equal(check.maskHost('redis://u:p@ss@h:1'), 'redis://***@h:1');
	});
});

/**
 * The outside read r13-companion: secrets in a pasted connection string, a refused user on an
 * open Redis, test listenings that end, TLS client certificates and names, Redis' own error
 * answers, loading, renamed commands, clients closed under a delivery, Database Number text.
 */
describe('what the companion says of its Redis (outside read r13-companion)', () => {
	let check;
	let store;
	let Node;
	let Redis;
	let gate;
	let dir;
	const servers = {};

	before(async () => {
		assert.ok(fs.existsSync(DIST), 'build the companion first: npm run build --prefix companion');
		check = require(path.join(DIST, 'redisCheck.js'));
		store = require(path.join(DIST, 'redisStore.js'));
		Node = require(
			path.join(DIST, 'CompanyPaymentsQueueTrigger.node.js'),
		).CompanyPaymentsQueueTrigger;
		Redis = require(path.join(ROOT, 'companion/node_modules/ioredis/built/index.js')).default;
		gate = require(path.join(DIST, '../shared/gate/index.js'));
		dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-claim-checks-r13-'));
		const start = (name, options) =>
			startRedis({ dir: path.join(dir, name), appendonly: true, ...options }).then(
				(r) => (servers[name] = r),
			);
		await Promise.all([
			start('open', {}),
			start('maxclients', { args: ['--maxclients', '2'] }),
			...['EVAL', 'SELECT', 'EVALSHA', 'TIME', 'WAIT'].map((command) =>
				start(`renamed${command}`, { args: ['--rename-command', command, ''] }),
			),
		]);
	});

	after(async () => {
		await store?.closeRedisClaims();
		await Promise.all(Object.values(servers).map((s) => s.stop?.()));
		if (dir) fs.rmSync(dir, { recursive: true, force: true });
	});

	function webhookCtx(credential, { workflowId = `wf-${randomUUID()}`, mode = 'webhook' } = {}) {
		return {
			getCredentials: async () => credential,
			getNode: () => ({ id: 'node1', name: 'Company Payments Trigger', type: 'x', typeVersion: 2 }),
			getWorkflow: () => ({ id: workflowId }),
			getMode: () => mode,
			getInstanceId: () => 'instance',
			getNodeParameter: (_name, fallback) => fallback,
			logger: { debug() {}, info() {}, warn() {}, error() {} },
		};
	}
	const record = (ctx) => recordHeld(store, ctx);
	async function activate(ctx) {
		try {
			await store.checkRedisOnActivation(ctx);
			return null;
		} catch (error) {
			return `${error.message} || ${error.description ?? ''}`;
		}
	}
	const credentialTest = async (data) =>
		await new Node().methods.credentialTest.companyPaymentsRedisTest.call({}, { data });
	/** Test, activation and a delivery's 503 reason for one credential. */
	async function allThree(credential) {
		const tested = await credentialTest(credential);
		const activation = await activate(webhookCtx(credential));
		const delivery = await record(webhookCtx(credential));
		await store.closeRedisClaims();
		return {
			tested,
			activation,
			delivery,
			all: [tested.message, activation ?? '', delivery.reason ?? ''],
		};
	}

	test('F1: a connection string pasted into Host (Azure) is refused with its password masked, in Test, activation and a 503', async () => {
		const key = 'Zq8vS3cr3tAzureKey0123456789abcdEFGH=';
		const credential = {
			host: `127.0.0.1:${servers.open.port},password=${key},ssl=True,abortConnect=False`,
			port: 6380,
			database: 0,
			password: key,
			ssl: true,
		};
		const { tested, activation, delivery, all } = await allThree(credential);
		assert.equal(tested.status, 'Error');
		assert.notEqual(activation, null);
		assert.equal(delivery.verdict, 'unavailable');
		for (const message of all) {
			assert.ok(!message.includes(key), message);
			assert.ok(!message.includes('Zq8vS3cr3t'), message);
			assert.match(message, /Host is "127\.0\.0\.1:\d+,password=\*\*\*.*connection string/);
		}
		// Other hosts that are no plain host name or address.
		for (const host of [
			'redis.example.com:6380',
			'a,b',
			'[::1]',
			'/var/run/redis.sock',
			'h;pw=1',
		]) {
			assert.throws(() => store.redisOptions({ host }), /takes a host name or address only/, host);
		}
		for (const host of ['redis.example.com', '10.0.0.5', '::1', 'redis_1', 'localhost']) {
			assert.equal(store.redisOptions({ host }).host, host);
		}
		// Every message masks the password wherever it shows.
		assert.equal(check.withoutPassword('x Pw-1234 y', 'Pw-1234'), 'x *** y');
		assert.equal(check.withoutPassword('pwned pw.', 'pw'), 'pwned ***.');
	});

	test('F2: a user the Redis does not have, on a Redis whose default user is open: WRONGPASS and the user in Test, activation and every 503, never "database 0 does not exist"', async () => {
		const credential = {
			host: '127.0.0.1',
			port: servers.open.port,
			database: 0,
			user: 'claimz',
			password: 'pw-r13',
		};
		const tested = await credentialTest(credential);
		const activation = await activate(webhookCtx(credential));
		const ctx = webhookCtx(credential);
		const reasons = [];
		for (let i = 0; i < 3; i++) {
			const delivery = await record(ctx);
			assert.equal(delivery.verdict, 'unavailable');
			reasons.push(delivery.reason);
			await sleep(300);
		}
		await store.closeRedisClaims();
		for (const message of [tested.message, activation, ...reasons]) {
			assert.match(
				message,
				/refused the credential's user or password \(WRONGPASS.*; the credential's User is "claimz"\)/,
			);
			assert.doesNotMatch(message, /does not exist|not connected/);
		}
	});

	test('F2: the user deleted while connected (ACL DELUSER): every 503 names WRONGPASS; back once the user is', async () => {
		const admin = new Redis({ host: '127.0.0.1', port: servers.open.port });
		const rules = ['~n8n-nodes-company-payments:*', '+@all'];
		try {
			await admin.call('ACL', 'SETUSER', 'live-user', 'on', '>pw-live', ...rules);
			const ctx = webhookCtx({
				host: '127.0.0.1',
				port: servers.open.port,
				database: 0,
				user: 'live-user',
				password: 'pw-live',
			});
			assert.deepEqual(await record(ctx), { verdict: 'new' });
			for (const wait of [0, 300]) {
				await admin.call('ACL', 'DELUSER', 'live-user');
				await sleep(wait);
				// Redis closes the deleted user's connection: until the client has tried again, a
				// delivery is told the connection was lost (true); the first reason after that must
				// name the refusal. Waits on that condition, not on a time (once, under a load of 7,
				// 300 ms was not enough for the reconnect).
				let refused = await record(ctx);
				for (let i = 0; i < 100 && /connection to Redis was lost/.test(refused.reason ?? ''); i++) {
					await sleep(50);
					refused = await record(ctx);
				}
				assert.equal(refused.verdict, 'unavailable');
				assert.match(refused.reason, /\(WRONGPASS.*; the credential's User is "live-user"\)/);
				await admin.call('ACL', 'SETUSER', 'live-user', 'on', '>pw-live', ...rules);
				let back;
				for (let i = 0; i < 50; i++) {
					back = await record(ctx);
					if (back.verdict === 'new') break;
					await sleep(100);
				}
				assert.deepEqual(back, { verdict: 'new' });
			}
		} finally {
			admin.disconnect();
			await store.closeRedisClaims();
		}
	});

	test('F3: the end of a test listening (n8n passes mode "internal" and the webhook with isTest) closes the test client, not the live one', async () => {
		await store.closeRedisClaims();
		const credential = { host: '127.0.0.1', port: servers.open.port, database: 0 };
		const hook = (mode, webhookData, workflowId = 'wf-listen') => ({
			...webhookCtx(credential, { workflowId, mode }),
			...(webhookData === undefined ? {} : { webhookData }),
		});
		// As n8n: activation of the test webhook with mode 'manual' and isTest, a test delivery,
		// then the end with mode 'internal' and the same webhook data.
		assert.equal(await activate(hook('manual', { isTest: true })), null);
		assert.deepEqual(
			await record(webhookCtx(credential, { workflowId: 'wf-listen', mode: 'manual' })),
			{
				verdict: 'new',
			},
		);
		assert.equal(store.openRedisClaims(), 1);
		store.releaseOnDeactivation(hook('internal', { isTest: true }));
		assert.equal(store.openRedisClaims(), 0, 'the test listening closed its client');
		// Live and test of one workflow at once: ending the test leaves the live client open.
		assert.equal(await activate(hook('trigger', {})), null);
		assert.deepEqual(await record(webhookCtx(credential, { workflowId: 'wf-listen' })), {
			verdict: 'new',
		});
		assert.equal(await activate(hook('manual', { isTest: true })), null);
		assert.deepEqual(
			await record(
				webhookCtx({ ...credential, password: 'x' }, { workflowId: 'wf-listen', mode: 'manual' }),
			),
			{ verdict: 'new' },
		);
		assert.equal(store.openRedisClaims(), 2);
		store.releaseOnDeactivation(hook('internal', { isTest: true }));
		assert.equal(store.openRedisClaims(), 1, 'the live client stays');
		store.releaseOnDeactivation(hook('internal', {}));
		assert.equal(store.openRedisClaims(), 0);
		// Without the webhook's data (a hand-made context): the one registration this process
		// activated for the trigger is the one that ends.
		assert.equal(await activate(hook('manual')), null);
		assert.deepEqual(
			await record(webhookCtx(credential, { workflowId: 'wf-listen', mode: 'manual' })),
			{
				verdict: 'new',
			},
		);
		store.releaseOnDeactivation(hook('internal'));
		assert.equal(store.openRedisClaims(), 0);
	});

	/** A self-signed certificate for these names, in its own folder. */
	function certificate(name, cn, san) {
		const folder = path.join(dir, name);
		fs.mkdirSync(folder, { recursive: true });
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
				`/CN=${cn}`,
				'-addext',
				`subjectAltName=${san}`,
				'-keyout',
				path.join(folder, 'key.pem'),
				'-out',
				path.join(folder, 'cert.pem'),
			],
			{ stdio: 'ignore' },
		);
		return { folder, cert: path.join(folder, 'cert.pem'), key: path.join(folder, 'key.pem') };
	}

	test('F4: a TLS Redis that demands client certificates (tls-auth-clients yes) is named so, with the fix; no advice on its own certificate', async () => {
		const { folder, cert, key } = certificate(
			'tls-clients',
			'localhost',
			'DNS:localhost,IP:127.0.0.1',
		);
		const tlsPort = await freePort();
		servers.tlsClients = await startRedis({
			dir: folder,
			appendonly: true,
			args: [
				'--tls-port',
				String(tlsPort),
				'--tls-cert-file',
				cert,
				'--tls-key-file',
				key,
				'--tls-ca-cert-file',
				cert,
			],
		});
		const credential = {
			host: '127.0.0.1',
			port: tlsPort,
			database: 0,
			ssl: true,
			disableTlsVerification: true,
		};
		const { all } = await allThree(credential);
		for (const message of all) {
			assert.match(
				message,
				/demands a client certificate .*set tls-auth-clients no \(or optional\)/,
				message,
			);
			assert.doesNotMatch(
				message,
				/was refused|NODE_EXTRA_CA_CERTS|"Disable TLS Verification \(insecure\)" in the Redis credential/,
			);
		}
	});

	test('F5: a trusted certificate issued for another name: the message says the Host does not match and lists the names', async () => {
		const { folder, cert, key } = certificate('tls-name', 'redis.internal', 'DNS:redis.internal');
		const tlsPort = await freePort();
		servers.tlsName = await startRedis({
			dir: folder,
			appendonly: true,
			args: [
				'--tls-port',
				String(tlsPort),
				'--tls-cert-file',
				cert,
				'--tls-key-file',
				key,
				'--tls-auth-clients',
				'no',
			],
		});
		const checked = await check.checkRedis({
			host: '127.0.0.1',
			port: tlsPort,
			db: 0,
			tls: { rejectUnauthorized: true, ca: fs.readFileSync(cert) },
		});
		assert.equal(checked.ok, false);
		assert.match(
			checked.message,
			/does not match the credential's Host 127\.0\.0\.1 \(ERR_TLS_CERT_ALTNAME_INVALID/,
		);
		assert.match(
			checked.message,
			/Set the Redis credential's Host to a host name in the certificate \(redis\.internal\)/,
		);
		assert.doesNotMatch(checked.message, /this n8n trusts|Disable TLS Verification/);
	});

	test('F6: Redis answering with an error is "answered", never "did not answer": NOPERM on PING (refused, naming +ping), MISCONF, maxclients (and its 503)', async () => {
		const admin = new Redis({ host: '127.0.0.1', port: servers.open.port });
		try {
			await admin.call(
				'ACL',
				'SETUSER',
				'noping',
				'reset',
				'on',
				'>pw',
				'~n8n-nodes-company-payments:*',
				'+@all',
				'-ping',
			);
		} finally {
			admin.disconnect();
		}
		const noPing = await allThree({
			host: '127.0.0.1',
			port: servers.open.port,
			database: 0,
			user: 'noping',
			password: 'pw',
		});
		for (const message of [noPing.tested.message, noPing.activation]) {
			assert.match(
				message,
				/may not run the command PING .*ACL SETUSER <user> on ><password> ~n8n-nodes-company-payments:\* \+ping/,
			);
			assert.doesNotMatch(message, /did not answer/);
		}
		// PING is the check's own: a delivery does not send it.
		assert.deepEqual(noPing.delivery, { verdict: 'new' });
		// maxclients: its two connections taken.
		// Each hog holds a slot once Redis has answered it: a PONG, not a fixed wait (under load
		// 300 ms was once too short, and the check then found a free slot).
		const hogs = await Promise.all(
			[0, 1].map(
				() =>
					new Promise((resolve, reject) => {
						const hog = net.connect(servers.maxclients.port, '127.0.0.1');
						let answer = '';
						hog.on('error', reject);
						hog.on('connect', () => hog.write('PING\r\n'));
						hog.on('data', (chunk) => {
							answer += chunk;
							if (answer.includes('+PONG')) resolve(hog.on('error', () => {}));
							else if (answer.includes('\r\n')) reject(new Error(`a hog got ${answer}`));
						});
					}),
			),
		);
		try {
			const full = await allThree({
				host: '127.0.0.1',
				port: servers.maxclients.port,
				database: 0,
			});
			for (const message of full.all) {
				assert.match(
					message,
					/refuses new connections: .*maxclients .*ERR max number of clients reached.*Raise maxclients/,
					message,
				);
				assert.doesNotMatch(message, /did not answer|not connected/);
			}
		} finally {
			for (const hog of hogs) hog.destroy();
		}
		// MISCONF: a snapshot that fails (its dir gone) with stop-writes-on-bgsave-error yes.
		const misconf = await startRedis({
			dir: path.join(dir, 'misconf'),
			appendonly: true,
			args: ['--save', '1 1', '--enable-protected-configs', 'yes'],
		});
		try {
			const client = new Redis({ host: '127.0.0.1', port: misconf.port });
			const gone = path.join(dir, 'misconf', 'gone');
			fs.mkdirSync(gone);
			await client.config('SET', 'dir', gone);
			fs.rmdirSync(gone);
			await client.set('x', '1');
			await client.bgsave().catch(() => undefined);
			for (
				let i = 0;
				i < 100 && !/rdb_last_bgsave_status:err/.test(await client.info('persistence'));
				i++
			)
				await sleep(50);
			client.disconnect();
			const refused = await allThree({ host: '127.0.0.1', port: misconf.port, database: 0 });
			for (const message of refused.all) {
				assert.match(
					message,
					/refuses every write because it cannot persist to disk \(MISCONF/,
					message,
				);
				assert.doesNotMatch(message, /did not answer/);
			}
		} finally {
			await misconf.stop();
		}
	});

	test('r18 F2: a Redis at maxclients with a password set (its ERR comes before the close, the AUTH write then fails EPIPE): Test, activation and a 503 name maxclients and the fix, never "write EPIPE" alone', async () => {
		const full = await startRedis({
			dir: path.join(dir, 'maxclients-pw'),
			appendonly: true,
			args: ['--maxclients', '2', '--requirepass', 'pw'],
		});
		const hogs = await Promise.all(
			[0, 1].map(
				() =>
					new Promise((resolve, reject) => {
						const hog = net.connect(full.port, '127.0.0.1');
						let answer = '';
						hog.on('error', reject);
						hog.on('connect', () => hog.write('AUTH pw\r\nPING\r\n'));
						hog.on('data', (chunk) => {
							answer += chunk;
							if (answer.includes('+PONG')) resolve(hog.on('error', () => {}));
							else if (answer.includes('-')) reject(new Error(`a hog got ${answer}`));
						});
					}),
			),
		);
		try {
			const said = await allThree({
				host: '127.0.0.1',
				port: full.port,
				database: 0,
				password: 'pw',
			});
			for (const message of said.all) {
				assert.match(message, /maxclients/, message);
				assert.match(message, /raise maxclients/i, message);
				assert.doesNotMatch(message, /did not answer \(write EPIPE\)|\(write EPIPE\)$/, message);
			}
		} finally {
			for (const hog of hogs) hog.destroy();
			await full.stop();
		}
	});

	test('r18 F5: a user whose key pattern covers only live deliveries (not test-mode ones) is refused at activation, naming the key pattern, not accepted to fail every test delivery', async () => {
		const P = 'n8n-nodes-company-payments:delivery:';
		const user = `liveonly_${randomUUID().slice(0, 8)}`;
		const admin = new Redis({ host: '127.0.0.1', port: servers.open.port });
		try {
			await admin.call(
				'ACL',
				'SETUSER',
				user,
				'reset',
				'on',
				'>pw',
				`~${P}check:*`,
				`~${P}epoch*`,
				`~${P}members`,
				`~${P}expiry`,
				`~${P}delivery:*live*`,
				'+@all',
			);
			const said = await check.checkRedis(
				{ host: '127.0.0.1', port: servers.open.port, db: 0, username: user, password: 'pw' },
				{ allowWithoutPersistence: true },
			);
			assert.equal(said.ok, false, JSON.stringify(said));
			assert.match(said.message, /key/i, said.message);
		} finally {
			await admin.call('ACL', 'DELUSER', user);
			admin.disconnect();
		}
	});

	test('r18 F3: a Redis that accepts connections and answers nothing (stopped with SIGSTOP): Test, activation and a 503 say it accepted the connection but did not answer, with causes and what to check', async () => {
		const frozen = await startRedis({ dir: path.join(dir, 'frozen'), appendonly: true });
		process.kill(frozen.pid, 'SIGSTOP');
		try {
			const said = await allThree({ host: '127.0.0.1', port: frozen.port, database: 0 });
			for (const message of said.all) {
				assert.match(message, /accepted the connection but did not answer within \d+ ms/, message);
				assert.match(message, /busy .*paused or hung.*SLOWLOG/, message);
				assert.doesNotMatch(message, /Command timed out\)?$|not connected \(connect\)/, message);
			}
		} finally {
			process.kill(frozen.pid, 'SIGCONT');
			await frozen.stop();
		}
	});

	test('F7: Redis loading a large data set: activation refuses within twice its timeout naming LOADING, and a 503 names it', async () => {
		const folder = path.join(dir, 'loading');
		const first = await startRedis({
			dir: folder,
			appendonly: true,
			args: ['--enable-debug-command', 'yes'],
		});
		const client = new Redis({ host: '127.0.0.1', port: first.port });
		await client.call('DEBUG', 'POPULATE', '20000');
		await client.bgrewriteaof();
		for (
			let i = 0;
			i < 200 && /aof_rewrite_in_progress:1/.test(await client.info('persistence'));
			i++
		)
			await sleep(50);
		client.disconnect();
		await first.stop();
		const { spawn } = await import('node:child_process');
		// Each key takes 500 µs to load: about 10 s of LOADING.
		const loading = spawn(
			'redis-server',
			[
				'--bind',
				'127.0.0.1',
				'--port',
				String(first.port),
				'--dir',
				folder,
				'--appendonly',
				'yes',
				'--save',
				'',
				'--key-load-delay',
				'500',
				'--loading-process-events-interval-bytes',
				'1024',
			],
			{ stdio: 'ignore' },
		);
		try {
			const raw = () =>
				new Promise((resolve) => {
					const socket = net.connect(first.port, '127.0.0.1');
					socket.on('connect', () => socket.write('GET x\r\n'));
					socket.on('data', (data) => {
						socket.destroy();
						resolve(String(data));
					});
					socket.on('error', () => resolve(''));
				});
			let said = '';
			for (let i = 0; i < 100 && !/LOADING/.test(said); i++) {
				said = await raw();
				if (!/LOADING/.test(said)) await sleep(20);
			}
			assert.match(said, /LOADING/, 'Redis is loading');
			const credential = { host: '127.0.0.1', port: first.port, database: 0 };
			const started = performance.now();
			const activation = await activate(webhookCtx(credential));
			const took = performance.now() - started;
			assert.match(
				activation ?? '',
				/Redis is loading its data into memory \(LOADING.*activate again in a moment/,
			);
			assert.ok(took < 6_000, `activation waited ${Math.round(took)} ms`);
			const delivery = await record(webhookCtx(credential));
			assert.equal(delivery.verdict, 'unavailable');
			assert.match(delivery.reason, /Redis is loading its data into memory \(LOADING/);
			assert.match(await raw(), /LOADING/, 'still loading: the messages were read while it loaded');
		} finally {
			await store.closeRedisClaims();
			loading.kill('SIGKILL');
		}
	});

	test('F8: a command renamed away (rename-command X "") is named with its fix, never as an ACL permission or a missing database', async () => {
		for (const command of ['EVAL', 'SELECT', 'EVALSHA', 'TIME', 'WAIT']) {
			const { all, tested } = await allThree({
				host: '127.0.0.1',
				port: servers[`renamed${command}`].port,
				database: 0,
			});
			assert.equal(tested.status, 'Error');
			for (const message of all) {
				assert.match(
					message,
					new RegExp(
						`${command} is disabled in this Redis \\(rename-command.*remove rename-command ${command} from redis\\.conf`,
					),
					message,
				);
				assert.doesNotMatch(message, /ACL|may not|does not let|does not exist/, message);
			}
		}
	});

	test('F9: a client closed under a delivery that is still connecting: the delivery finishes (edit, deactivation), and a forced close names why', async () => {
		await store.closeRedisClaims();
		const base = { host: '127.0.0.1', port: servers.open.port, database: 0 };
		for (const wait of [0, 2, 10]) {
			const first = record(
				webhookCtx({ ...base, password: `old-${wait}` }, { workflowId: 'wf-edit' }),
			);
			await sleep(wait);
			const second = await record(
				webhookCtx({ ...base, password: `new-${wait}` }, { workflowId: 'wf-edit' }),
			);
			assert.deepEqual(second, { verdict: 'new' });
			assert.deepEqual(await first, { verdict: 'new' }, `edited ${wait} ms into the delivery`);
		}
		const ctx = webhookCtx(base, { workflowId: 'wf-stop' });
		const during = record(ctx);
		store.releaseOnDeactivation({ ...ctx, getMode: () => 'trigger' });
		assert.deepEqual(await during, { verdict: 'new' });
		// A forced close (the process closes its clients) while a delivery connects.
		await store.closeRedisClaims();
		const forced = record(webhookCtx(base, { workflowId: 'wf-forced' }));
		while (store.openRedisClaims() === 0) await new Promise((resolve) => setImmediate(resolve));
		await store.closeRedisClaims();
		const answer = await forced;
		assert.equal(answer.verdict, 'unavailable');
		assert.match(
			answer.reason,
			/connection this delivery was claimed on was closed because this n8n process closed its Redis clients/,
		);
		assert.doesNotMatch(
			answer.reason,
			/Stream isn't writeable|Connection is closed|not connected \(end\)/,
		);
		await store.closeRedisClaims();
	});

	test('F10: Database Number as text must be digits: "1e1" and "0x2" are refused, never read as 10 or 2', () => {
		for (const database of ['1e1', '0x2', '2.0', '+1', '1_0']) {
			assert.throws(
				() => store.redisOptions({ host: 'h', database }),
				/Database Number is .*written in digits/,
				database,
			);
		}
		assert.equal(store.redisOptions({ host: 'h', database: ' 4 ' }).db, 4);
		assert.equal(store.redisOptions({ host: 'h', database: 3 }).db, 3);
		assert.throws(() => store.redisOptions({ host: 'h', port: '0x1F90' }), /Port is 0x1F90/);
	});

	test("F11: the 503 reason for a user without the package's keys keeps the key pattern through n8n's log masking", async () => {
		const admin = new Redis({ host: '127.0.0.1', port: servers.open.port });
		try {
			await admin.call('ACL', 'SETUSER', 'wrongkeys', 'reset', 'on', '>pw', '~n8n:*', '+@all');
		} finally {
			admin.disconnect();
		}
		const { all } = await allThree({
			host: '127.0.0.1',
			port: servers.open.port,
			database: 0,
			user: 'wrongkeys',
			password: 'pw',
		});
		for (const message of all) {
			const logged = gate.gateText(undefined, message);
			assert.match(
				logged,
				/may not use n8n-nodes-company-payments:\* \(this package's keys\)/,
				logged,
			);
			assert.match(logged, /ACL SETUSER <user> on ><password> ~n8n-nodes-company-payments:\*/);
			assert.doesNotMatch(logged, /\[hidden\]/);
		}
	});
});

describe('what the companion says of its Redis (outside read r17-companion)', () => {
	let check;
	let store;
	let Node;
	let Redis;
	let dir;
	let relay;
	const servers = {};

	before(async () => {
		assert.ok(fs.existsSync(DIST), 'build the companion first: npm run build --prefix companion');
		check = require(path.join(DIST, 'redisCheck.js'));
		store = require(path.join(DIST, 'redisStore.js'));
		Node = require(
			path.join(DIST, 'CompanyPaymentsQueueTrigger.node.js'),
		).CompanyPaymentsQueueTrigger;
		Redis = require(path.join(ROOT, 'companion/node_modules/ioredis/built/index.js')).default;
		dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-claim-checks-r17-'));
		const start = (name, options) =>
			startRedis({ dir: path.join(dir, name), appendonly: true, ...options }).then(
				(r) => (servers[name] = r),
			);
		await Promise.all([
			start('open', {}),
			start('full', { args: ['--maxmemory-policy', 'noeviction'] }),
			start('cluster', {
				args: ['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf'],
			}),
		]);
		relay = await startRelay(servers.open);
	});

	after(async () => {
		await store?.closeRedisClaims();
		await relay?.close();
		await Promise.all(Object.values(servers).map((s) => s.stop?.()));
		if (dir) fs.rmSync(dir, { recursive: true, force: true });
	});

	function webhookCtx(credential, { workflowId = `wf-${randomUUID()}` } = {}) {
		return {
			getCredentials: async () => credential,
			getNode: () => ({ id: 'node1', name: 'Company Payments Trigger', type: 'x', typeVersion: 2 }),
			getWorkflow: () => ({ id: workflowId }),
			getMode: () => 'webhook',
			getInstanceId: () => 'instance',
			getNodeParameter: (_name, fallback) => fallback,
			logger: { debug() {}, info() {}, warn() {}, error() {} },
		};
	}
	const record = (ctx) => recordHeld(store, ctx);
	async function activate(ctx) {
		try {
			await store.checkRedisOnActivation(ctx);
			return null;
		} catch (error) {
			return `${error.message} || ${error.description ?? ''}`;
		}
	}
	const credentialTest = async (data) =>
		await new Node().methods.credentialTest.companyPaymentsRedisTest.call({}, { data });
	/** Test, activation and a delivery's 503 reason for one credential. */
	async function allThree(credential) {
		const tested = await credentialTest(credential);
		const activation = await activate(webhookCtx(credential));
		const delivery = await record(webhookCtx(credential));
		await store.closeRedisClaims();
		return {
			tested,
			activation,
			delivery,
			all: [tested.message, activation ?? '', delivery.reason ?? ''],
		};
	}

	test('F2: a Redis Cluster node (no slots, then every slot) is refused saying Cluster mode is not supported and to point at a standalone Redis, in Test, activation and a 503', async () => {
		const cred = { host: '127.0.0.1', port: servers.cluster.port, database: 0 };
		const admin = new Redis({ host: '127.0.0.1', port: servers.cluster.port });
		try {
			for (const state of ['no slots (CLUSTERDOWN)', 'every slot served (CROSSSLOT)']) {
				if (state.startsWith('every')) {
					await admin.call('CLUSTER', 'ADDSLOTSRANGE', '0', '16383');
					for (let i = 0; i < 500; i++) {
						if (/cluster_state:ok/.test(String(await admin.call('CLUSTER', 'INFO')))) break;
						await sleep(20);
					}
				}
				const { tested, activation, delivery, all } = await allThree(cred);
				assert.equal(tested.status, 'Error', state);
				assert.notEqual(activation, null, state);
				assert.equal(delivery.verdict, 'unavailable', state);
				for (const message of all) {
					assert.match(message, /Redis Cluster .*not supported/i, `${state}: ${message}`);
					assert.match(message, /standalone Redis/, `${state}: ${message}`);
					// Redis' own error words only inside the parentheses that quote it.
					assert.doesNotMatch(message.replace(/\([^()]*\)/g, ''), /CROSSSLOT|CLUSTERDOWN/);
				}
			}
		} finally {
			admin.disconnect();
		}
	});

	test('F3: SSL on at a Redis without TLS: the 503 reason says Redis does not speak TLS and how to fix it, as activation does', async () => {
		const cred = { host: '127.0.0.1', port: servers.open.port, database: 0, ssl: true };
		const { tested, activation, delivery } = await allThree(cred);
		for (const message of [tested.message, activation ?? '']) {
			assert.match(message, /does not speak TLS/, message);
		}
		assert.equal(delivery.verdict, 'unavailable');
		assert.match(delivery.reason, /does not speak TLS/, delivery.reason);
		assert.match(delivery.reason, /turn off SSL in the Redis credential, or enable TLS in Redis/i);
		assert.doesNotMatch(delivery.reason, /^Redis not connected/);
	});

	test('F4: a full Redis (noeviction, maxmemory reached) is named with its fix in a 503 and at activation, without the script hash; deliveries resume once it has room', async () => {
		const cred = { host: '127.0.0.1', port: servers.full.port, database: 0 };
		const admin = new Redis({ host: '127.0.0.1', port: servers.full.port });
		try {
			const ctx = webhookCtx(cred);
			assert.deepEqual(await record(ctx), { verdict: 'new' });
			await admin.call('CONFIG', 'SET', 'maxmemory', '1');
			const full = await record(ctx);
			const activation = await activate(webhookCtx(cred));
			assert.equal(full.verdict, 'unavailable');
			assert.notEqual(activation, null);
			for (const message of [full.reason, activation]) {
				assert.match(message, /Redis is full/, message);
				assert.match(message, /reached its maxmemory/, message);
				assert.match(message, /raise maxmemory \(CONFIG SET maxmemory/i, message);
				assert.match(message, /free memory/, message);
				assert.doesNotMatch(message, /script: [0-9a-f]{40}/, message);
			}
			await admin.call('CONFIG', 'SET', 'maxmemory', '0');
			assert.deepEqual(await record(ctx), { verdict: 'new' });
		} finally {
			await admin.call('CONFIG', 'SET', 'maxmemory', '0').catch(() => undefined);
			admin.disconnect();
			await store.closeRedisClaims();
		}
	});

	test("F6: the memory of deliveries lives in the Redis database of the credential: an edit to another database forgets it (as the README says); the package's keys copied there with the trigger stopped keep it", async () => {
		const db0 = { host: '127.0.0.1', port: servers.open.port, database: 0 };
		const admin = new Redis({ host: '127.0.0.1', port: servers.open.port });
		const deliver = async (credential, deliveryId, workflowId) =>
			await store.redisDeliveryStore.record(webhookCtx(credential, { workflowId }), {
				deliveryId,
				now: Date.now(),
				limits: { maxEntries: 1000, maxAgeMs: 3_600_000 },
			});
		try {
			for (const [target, copy] of [
				[2, false],
				[3, true],
			]) {
				const workflowId = `wf-${randomUUID()}`;
				const ran = `dlv_${randomUUID()}`;
				const first = await deliver(db0, ran, workflowId);
				assert.equal(first.verdict, 'new');
				await first.held.answered(200);
				assert.equal((await deliver(db0, ran, workflowId)).verdict, 'duplicate');
				// The workflow deactivated: its clients close once the claims under way are decided.
				await store.closeRedisClaims();
				if (copy) {
					// The procedure of the README: every key of the package, copied as it is.
					await admin.select(0);
					let cursor = '0';
					do {
						const [next, keys] = await admin.scan(
							cursor,
							'MATCH',
							'n8n-nodes-company-payments:*',
							'COUNT',
							1000,
						);
						for (const key of keys)
							await admin.call('COPY', key, key, 'DB', String(target), 'REPLACE');
						cursor = next;
					} while (cursor !== '0');
				}
				const moved = { ...db0, database: target };
				const again = await deliver(moved, ran, workflowId);
				if (again.held) await again.held.answered(200);
				assert.equal(
					again.verdict,
					copy ? 'duplicate' : 'new',
					copy
						? 'with the keys copied, the new database knows the delivery ran'
						: 'without them, the new database has no memory of it: the README says so',
				);
				// A delivery it never saw is new there.
				const other = await deliver(moved, `dlv_${randomUUID()}`, workflowId);
				assert.equal(other.verdict, 'new', JSON.stringify(other));
				await other.held.answered(200);
				await store.closeRedisClaims();
			}
		} finally {
			admin.disconnect();
			await store.closeRedisClaims();
		}
	});

	test("F5: a connection cut under a delivery's claim: the 503 says the connection to Redis was lost, never ioredis' internal text alone", async () => {
		const cred = { host: '127.0.0.1', port: relay.port, database: 0 };
		const ctx = webhookCtx(cred);
		try {
			assert.deepEqual(await record(ctx), { verdict: 'new' });
			for (let i = 0; i < 3; i++) {
				const deliveryId = `dlv_cut_${randomUUID()}`;
				// The first command that carries this delivery's key is its claim: cut before Redis.
				const armed = relay.armNext({ match: deliveryId, what: 'command', action: 'cut' });
				const outcome = await store.redisDeliveryStore.record(ctx, {
					deliveryId,
					now: Date.now(),
					limits: { maxEntries: 1000, maxAgeMs: 3_600_000 },
				});
				assert.equal(await armed.passed, 'cut');
				assert.equal(outcome.verdict, 'unavailable', JSON.stringify(outcome));
				assert.match(outcome.reason, /the connection to Redis was lost/, outcome.reason);
				assert.doesNotMatch(
					outcome.reason,
					/^Redis [^:]+:\d+ db \d+: (Reached the max retries|Stream isn't writeable|Connection is closed)/,
				);
				// The next delivery connects again.
				assert.deepEqual(await record(ctx), { verdict: 'new' });
			}
		} finally {
			relay.disarm();
			await store.closeRedisClaims();
		}
	});
});

describe('what the companion says of its Redis (outside read r19-companion)', () => {
	let check;
	let store;
	let Node;
	let dir;
	const servers = {};

	before(async () => {
		assert.ok(fs.existsSync(DIST), 'build the companion first: npm run build --prefix companion');
		check = require(path.join(DIST, 'redisCheck.js'));
		store = require(path.join(DIST, 'redisStore.js'));
		Node = require(
			path.join(DIST, 'CompanyPaymentsQueueTrigger.node.js'),
		).CompanyPaymentsQueueTrigger;
		dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-claim-checks-r19-'));
		const start = (name, options) =>
			startRedis({ dir: path.join(dir, name), appendonly: true, ...options }).then(
				(r) => (servers[name] = r),
			);
		await Promise.all([
			start('authRenamed', { args: ['--rename-command', 'AUTH', ''] }),
			start('evicting', { args: ['--maxmemory', '100mb', '--maxmemory-policy', 'allkeys-lru'] }),
		]);
	});

	after(async () => {
		await store?.closeRedisClaims();
		await Promise.all(Object.values(servers).map((s) => s.stop?.()));
		if (dir) fs.rmSync(dir, { recursive: true, force: true });
	});

	const secret = `whsec_${'5d'.repeat(24)}`;
	class FakeResponse extends EventEmitter {
		statusCode = 200;
		body = undefined;
		status(code) {
			this.statusCode = code;
			return this;
		}
		setHeader() {}
		end(body) {
			this.body = body;
			this.emit('finish');
		}
	}
	/**
	 * One delivery through the queue trigger's webhook as n8n calls it: the status and body the
	 * service gets, and n8n's log lines with their level.
	 */
	async function deliver(credential) {
		const deliveryId = `dlv_r19_${randomUUID()}`;
		const body = JSON.stringify({ event: 'deposit.completed', depositId: `dep_${deliveryId}` });
		const raw = Buffer.from(body);
		const headers = {
			'content-type': 'application/json',
			'x-service-signature': createHmac('sha256', secret).update(raw).digest('hex'),
			'x-service-delivery-id': deliveryId,
		};
		const response = new FakeResponse();
		const logs = [];
		const log = (level) => (line) => logs.push({ level, line });
		const ctx = {
			logger: { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') },
			getNode: () => ({
				id: 'r19-node',
				name: 'Company Payments Trigger',
				type: 'n8n-nodes-company-payments-queue.companyPaymentsQueueTrigger',
				typeVersion: 2,
				parameters: {},
				credentials: {
					companyPaymentsApi: { id: 'c1', name: 'api' },
					redis: { id: 'r', name: 'r' },
				},
			}),
			getMode: () => 'webhook',
			getWorkflow: () => ({ id: `wf-${randomUUID()}`, name: 'r19', active: true }),
			getWorkflowStaticData: () => ({}),
			getHeaderData: () => headers,
			getBodyData: () => JSON.parse(body),
			getRequestObject: () => ({ headers, body: JSON.parse(body), rawBody: raw }),
			getResponseObject: () => response,
			getInstanceId: () => 'r19-instance',
			getNodeParameter: (name, fallback) =>
				name === 'events' ? ['*'] : name === 'options' ? {} : fallback,
			getCredentials: async (name) =>
				name === 'redis'
					? { ...credential }
					: { apiKey: 'key_r19', baseUrl: 'http://127.0.0.1:9', webhookSecret: secret },
		};
		const result = await new Node().webhook.call(ctx);
		assert.equal(result.noWebhookResponse, true, 'the trigger answered itself');
		return { status: response.statusCode, body: String(response.body), logs };
	}
	async function activate(credential) {
		try {
			await store.checkRedisOnActivation({
				getCredentials: async () => credential,
				getNode: () => ({ id: 'r19-node', name: 'Company Payments Trigger', typeVersion: 2 }),
				getWorkflow: () => ({ id: `wf-${randomUUID()}` }),
				getMode: () => 'trigger',
				getNodeParameter: (_name, fallback) => fallback,
			});
			return '';
		} catch (error) {
			return `${error.message} || ${error.description ?? ''}`;
		}
	}
	/** The first part of `password` of `part` characters or more found in `text`, or undefined. */
	function shownPart(text, password, part = 6) {
		for (let i = 0; i + part <= password.length; i++) {
			if (text.includes(password.slice(i, i + part))) return password.slice(i, i + part);
		}
		return undefined;
	}

	test('F1: Redis echoes the AUTH it does not know (rename-command AUTH ""), each argument cut at 128 bytes: no part of the password shows in the Test, activation or the 503 log line, Redis\' echo of arguments is dropped and the command is named, for passwords of 64, 128, 129 and 201 characters, with and without a User', async () => {
		const port = servers.authRenamed.port;
		for (const length of [64, 128, 129, 201]) {
			for (const user of [undefined, 'n8n-claims']) {
				const password = randomBytes(length).toString('base64url').slice(0, length);
				const credential = { host: '127.0.0.1', port, database: 0, password, user };
				const what = `${length} characters, ${user ? 'User n8n-claims' : 'no User'}`;
				const tested = await new Node().methods.credentialTest.companyPaymentsRedisTest.call(
					{},
					{ data: credential },
				);
				const activation = await activate(credential);
				const delivery = await deliver(credential);
				await store.closeRedisClaims();
				assert.equal(tested.status, 'Error', what);
				assert.notEqual(activation, '', what);
				assert.equal(delivery.status, 503, what);
				const line = delivery.logs.find((l) => /answered 503/.test(l.line));
				assert.ok(line, `${what}: a 503 log line`);
				for (const [where, text] of [
					['Test', tested.message],
					['activation', activation],
					['503 log line', line.line],
					['503 body', delivery.body],
				]) {
					assert.equal(shownPart(text, password), undefined, `${what}, ${where}: ${text}`);
					assert.doesNotMatch(text, /with args beginning with/, `${what}, ${where}`);
				}
				for (const text of [tested.message, activation, line.line]) {
					assert.match(
						text,
						/AUTH is disabled in this Redis \(rename-command; ERR unknown command 'auth'\)/,
						`${what}: ${text}`,
					);
				}
			}
		}
	});

	test('F1: every message masks any part of the password of 6 characters or more, and drops the argument echo of Redis 7 and 6', () => {
		const password = 'Px7Kq9-abcdefghij-0123456789';
		assert.equal(check.withoutPassword(`a ${password} b`, password), 'a *** b');
		assert.equal(check.withoutPassword(`a ${password.slice(0, 9)}' b`, password), "a ***' b");
		assert.equal(check.withoutPassword(`x ${password.slice(5, 17)} y`, password), 'x *** y');
		assert.equal(check.withoutPassword('x Px7Kq y', password), 'x Px7Kq y', 'under 6: kept');
		assert.equal(check.withoutPassword('pwned pw.', 'pw'), 'pwned ***.');
		const seven = `ERR unknown command 'auth', with args beginning with: 'n8n-claims' '${password.slice(0, 20)}' `;
		assert.equal(check.withoutArgumentEcho(seven), "ERR unknown command 'auth'");
		assert.equal(
			check.withoutArgumentEcho(`(rename-command; ${seven}): the claim needs AUTH`),
			"(rename-command; ERR unknown command 'auth'): the claim needs AUTH",
		);
		const six = `ERR unknown command \`auth\`, with args beginning with: \`n8n-claims\`, \`${password}\`, `;
		assert.equal(check.withoutArgumentEcho(`(${six})`), '(ERR unknown command `auth`)');
		assert.equal(
			check.withoutArgumentEcho("ERR unknown command 'auth', with args beginning with: "),
			"ERR unknown command 'auth'",
		);
	});

	test("F2: an evicting policy (allkeys-lru with maxmemory): the service's 503 body is the generic one (no Redis detail goes to the payment service), and n8n's log line at level warn names the policy and the fix, as the README and docs/queue-mode.md say", async () => {
		const credential = { host: '127.0.0.1', port: servers.evicting.port, database: 0 };
		const delivery = await deliver(credential);
		await store.closeRedisClaims();
		assert.equal(delivery.status, 503);
		assert.deepEqual(JSON.parse(delivery.body), {
			message:
				'Service Unavailable: the delivery store did not confirm this delivery as new; nothing was started, send it again',
		});
		assert.doesNotMatch(delivery.body, /allkeys-lru|maxmemory|Redis/);
		const lines = delivery.logs.filter((l) => /answered 503/.test(l.line));
		assert.equal(lines.length, 1, JSON.stringify(delivery.logs));
		assert.equal(lines[0].level, 'warn');
		assert.match(
			lines[0].line,
			/^Company Payments Trigger answered 503: delivery dlv_r19_\S+ not recorded: Redis 127\.0\.0\.1:\d+ db 0: .*maxmemory-policy allkeys-lru.*CONFIG SET maxmemory-policy noeviction/,
		);
	});
});

describe('what the companion says of its Redis (outside read r20-companion)', () => {
	let check;
	let Redis;
	let store;
	let Node;
	let dir;
	const servers = {};

	before(async () => {
		assert.ok(fs.existsSync(DIST), 'build the companion first: npm run build --prefix companion');
		check = require(path.join(DIST, 'redisCheck.js'));
		store = require(path.join(DIST, 'redisStore.js'));
		Node = require(
			path.join(DIST, 'CompanyPaymentsQueueTrigger.node.js'),
		).CompanyPaymentsQueueTrigger;
		({ default: Redis } = require(
			path.join(ROOT, 'companion/node_modules/ioredis/built/index.js'),
		));
		dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-claim-checks-r20-'));
		servers.open = await startRedis({ dir: path.join(dir, 'open'), appendonly: true });
	});

	after(async () => {
		await store?.closeRedisClaims();
		await Promise.all(Object.values(servers).map((s) => s.stop?.()));
		if (dir) fs.rmSync(dir, { recursive: true, force: true });
	});

	/** A webhook context of one workflow whose n8n log lines (every level) are kept. */
	function webhookCtx(credential) {
		const logs = [];
		const log = (level) => (line) => logs.push({ level, line });
		return {
			logs,
			getCredentials: async () => credential,
			getNode: () => ({
				id: 'r20-node',
				name: 'Company Payments Trigger',
				type: 'x',
				typeVersion: 2,
			}),
			getWorkflow: () => ({ id: `wf-${randomUUID()}` }),
			getMode: () => 'webhook',
			getInstanceId: () => 'r20-instance',
			getNodeParameter: (_name, fallback) => fallback,
			logger: { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') },
		};
	}
	async function activate(credential) {
		try {
			await store.checkRedisOnActivation(webhookCtx(credential));
			return { message: '', description: '' };
		} catch (error) {
			return { message: error.message, description: String(error.description ?? '') };
		}
	}
	/** Every text the package gives for one credential: Test, activation, a 503 reason, its log lines. */
	async function everyText(credential) {
		const tested = await new Node().methods.credentialTest.companyPaymentsRedisTest.call(
			{},
			{ data: credential },
		);
		const activation = await activate(credential);
		const ctx = webhookCtx(credential);
		const delivery = await recordHeld(store, ctx);
		await store.closeRedisClaims();
		return {
			tested,
			activation,
			delivery,
			texts: [
				['Test', tested.message],
				['activation message', activation.message],
				['activation description', activation.description],
				['503 reason', delivery.reason ?? ''],
				...ctx.logs.map((l) => [`log ${l.level}`, l.line]),
			],
			logs: ctx.logs,
		};
	}
	function shownPart(text, password, part = 6) {
		for (let i = 0; i + part <= password.length; i++) {
			if (text.includes(password.slice(i, i + part))) return password.slice(i, i + part);
		}
		return undefined;
	}

	test('F1a: the password typed into Host too: no text the package emits (Test, activation message and description, 503 reason, every log line) shows it, and each says why the Host is masked', async () => {
		const password = 'Xk9fj2LqP0zT';
		const { texts, activation, logs } = await everyText({
			host: password,
			port: 6379,
			password,
			database: 0,
		});
		assert.notEqual(activation.message, '', 'activation refuses an unknown host');
		assert.ok(logs.length > 0, 'the delivery logged its Redis');
		for (const [where, text] of texts) {
			assert.equal(shownPart(text, password), undefined, `${where}: ${text}`);
		}
		for (const [where, text] of texts.filter(([, t]) => /\*\*\*/.test(t))) {
			assert.match(
				text,
				/Host is shown masked: it shares 6 or more characters in a row with the Password/,
				`${where}: ${text}`,
			);
		}
	});

	test('F1b: a Host that shares a 6+ character part with the password is masked alike in every text, which says why', async () => {
		const password = 'payments-redis-Secret9';
		const { texts, activation } = await everyText({
			host: 'payments-redis.invalid',
			port: 6379,
			password,
			database: 0,
		});
		assert.match(activation.message, /host not found \*\*\*\.invalid/);
		for (const [where, text] of texts) {
			// The package's own words are kept whole ("Company Payments Trigger" shares "ayment").
			const outside = text.replaceAll('Company Payments Trigger', '');
			assert.equal(shownPart(outside, password), undefined, `${where}: ${text}`);
			if (text.includes('.invalid')) {
				assert.match(
					text,
					/\*\*\*\.invalid.*Host is shown masked: it shares 6 or more characters in a row with the Password/,
					`${where}: ${text}`,
				);
			}
		}
	});

	test("F1c: the package's own words are never masked (the ACL fix line keeps ~n8n-nodes-company-payments:*), only the parts of the password in what came from outside; the whole password still is", async () => {
		const password = 'company-payments-Q7x!';
		// The last guard masks the whole password only; the parts mask is for outside text.
		assert.equal(
			check.shownText('ACL ~n8n-nodes-company-payments:*', password),
			'ACL ~n8n-nodes-company-payments:*',
		);
		assert.equal(check.shownText(`x ${password} y`, password), 'x *** y');
		assert.equal(
			check.outsideText('key n8n-nodes-company-payments:1', password),
			'key n8n-nodes-***:1',
		);
		const admin = new Redis({ host: '127.0.0.1', port: servers.open.port });
		const user = 'n8n-r20';
		try {
			// The README's ACL line without +evalsha (a user who forgot one command).
			await admin.call(
				'ACL',
				'SETUSER',
				user,
				'on',
				`>${password}`,
				'~n8n-nodes-company-payments:*',
				'+ping',
				'+info',
				'+select',
				'+eval',
				'+time',
				'+get',
				'+set',
				'+del',
				'+pttl',
				'+hget',
				'+hset',
				'+hsetnx',
				'+hmget',
				'+hgetall',
				'+hdel',
				'+sadd',
				'+sismember',
				'+zadd',
				'+zrem',
				'+zscore',
				'+zrangebyscore',
				'+wait',
			);
			const { texts, activation } = await everyText({
				host: '127.0.0.1',
				port: servers.open.port,
				user,
				password,
				database: 0,
			});
			assert.match(
				activation.message,
				/ACL SETUSER <user> on ><password> ~n8n-nodes-company-payments:\*/,
				activation.message,
			);
			for (const [where, text] of texts) {
				assert.ok(!text.includes(password), `${where}: ${text}`);
				assert.doesNotMatch(text, /n8n-nodes-\*\*\*|'e\*\*\*'/, `${where}: ${text}`);
			}
		} finally {
			await admin.call('ACL', 'DELUSER', user);
			admin.disconnect();
		}
	});

	for (const how of ['SIGSTOP', 'CLIENT PAUSE']) {
		test(`F2: a Redis that stops answering a process already connected (${how}): the 503 reason says it accepted the connection but did not answer, with what to check, never "Command timed out" alone`, async () => {
			const server = await startRedis({
				dir: path.join(dir, `paused-${how.replace(' ', '-')}`),
				appendonly: true,
			});
			const admin = new Redis({ host: '127.0.0.1', port: server.port });
			const credential = { host: '127.0.0.1', port: server.port, database: 0 };
			try {
				const warm = await recordHeld(store, webhookCtx(credential));
				assert.deepEqual(warm, { verdict: 'new' }, 'connected and claiming first');
				if (how === 'SIGSTOP') process.kill(server.pid, 'SIGSTOP');
				else await admin.call('CLIENT', 'PAUSE', '4000', 'ALL');
				const ctx = webhookCtx(credential);
				const paused = await store.redisDeliveryStore.record(ctx, {
					deliveryId: `dlv_${randomUUID()}`,
					now: Date.now(),
					limits: { maxEntries: 1000, maxAgeMs: 3_600_000 },
				});
				if (how === 'SIGSTOP') process.kill(server.pid, 'SIGCONT');
				assert.equal(paused.verdict, 'unavailable', JSON.stringify(paused));
				assert.match(
					paused.reason,
					/accepted the connection but did not answer within \d+ ms/,
					paused.reason,
				);
				assert.match(paused.reason, /busy .*paused or hung.*latency.*SLOWLOG/, paused.reason);
				assert.doesNotMatch(paused.reason, /Command timed out/, paused.reason);
				// Redis answers again (the pause ends): wait on it, then close.
				for (let i = 0; i < 200 && (await admin.ping().catch(() => '')) !== 'PONG'; i++)
					await sleep(50);
			} finally {
				try {
					process.kill(server.pid, 'SIGCONT');
				} catch {}
				await store.closeRedisClaims();
				admin.disconnect();
				await server.stop();
			}
		});
	}
});
