/**
 * The companion says clearly what is wrong with its Redis and never works on a wrong one
 * (the third outside read, r3-companion-config): activation runs what deliveries run (the
 * claim scripts on probe keys, EVALSHA, writes), the README's ACL line is exactly one that works,
 * the first authentication error is the one named, an invalid Database Number is refused, a
 * missing SELECT permission is named, messages survive n8n's NodeOperationError, a plain-TCP Redis
 * with SSL on is named, and the field names are n8n's. Real redis-servers on 127.0.0.1, no n8n.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { startRedis } from '../../harness/services.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DIST = path.join(ROOT, 'companion/dist/nodes/CompanyPaymentsQueueTrigger');
const README = path.join(ROOT, 'companion/README.md');
const require = createRequire(import.meta.url);

async function freePort() {
	const server = net.createServer();
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address();
	await new Promise((resolve) => server.close(resolve));
	return port;
}

/** The ACL rules the companion's README gives, from its `ACL SETUSER` line. */
function readmeAclRules() {
	const text = fs.readFileSync(README, 'utf8');
	const line = /`ACL SETUSER (\S+) on >(\S+) ([^`]+)`/.exec(text);
	assert.ok(line, 'the README gives an `ACL SETUSER <user> on ><password> <rules>` line');
	return line[3].trim().split(/\s+/);
}

describe('the companion on a wrong Redis says what is wrong (r3-companion-config)', () => {
	let check;
	let store;
	let Node;
	let Redis;
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
		dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-claim-config-'));
		servers.main = await startRedis({
			dir: path.join(dir, 'main'),
			appendonly: true,
			args: ['--requirepass', 'admin-pw'],
		});
		servers.replica = await startRedis({
			dir: path.join(dir, 'replica'),
			appendonly: true,
			args: ['--replicaof', '127.0.0.1', String(servers.main.port), '--masterauth', 'admin-pw'],
		});
		const admin = await adminClient();
		try {
			const users = {
				readme: readmeAclRules(),
				// The README's line of issue 51: scripting, INFO, SELECT and the keys, no more.
				old: ['~n8n-nodes-company-payments:*', '+@scripting', '+info', '+select', '+ping'],
				allcmds: ['~n8n-nodes-company-payments:*', '+@all'],
				nokeys: ['~other:*', '+@all'],
				noevalsha: ['~*', '+@all', '-evalsha'],
				noselect: ['~*', '+@all', '-select'],
				second: ['~*', '+@all'],
			};
			for (const [name, rules] of Object.entries(users)) {
				await admin.call('ACL', 'SETUSER', name, 'reset', 'on', '>user-pw', ...rules);
			}
			// The replica is attached from the start, so every confirm WAITs for it (a claim not on
			// the replica could be lost in a failover): the cases begin once it is in sync, not
			// while it waits for the first sync (a delivery then gets 503, as it should).
			const deadline = Date.now() + 60_000;
			for (;;) {
				const info = String(await admin.call('INFO', 'replication'));
				if (/slave0:.*state=online/.test(info)) break;
				assert.ok(Date.now() < deadline, `the replica never came in sync: ${info}`);
				await admin.call('WAIT', '1', '500');
			}
		} finally {
			admin.disconnect();
		}
	});

	after(async () => {
		await store?.closeRedisClaims();
		await Promise.all(Object.values(servers).map((s) => s.stop?.()));
		if (dir) fs.rmSync(dir, { recursive: true, force: true });
	});

	async function adminClient() {
		const client = new Redis({ host: '127.0.0.1', port: servers.main.port, password: 'admin-pw' });
		await client.ping();
		return client;
	}

	const as = (user, extra = {}) => ({
		host: '127.0.0.1',
		port: servers.main.port,
		db: 0,
		username: user,
		password: 'user-pw',
		...extra,
	});
	const credential = (user, extra = {}) => ({
		host: '127.0.0.1',
		port: servers.main.port,
		database: 0,
		user,
		password: 'user-pw',
		...extra,
	});

	function webhookCtx(redis, { workflowId = `wf-${randomUUID()}`, options = {} } = {}) {
		const warnings = [];
		return {
			warnings,
			getCredentials: async () => redis,
			getNode: () => ({ id: 'node1', name: 'Company Payments Trigger', type: 'x', typeVersion: 2 }),
			getWorkflow: () => ({ id: workflowId }),
			getMode: () => 'webhook',
			getInstanceId: () => 'instance',
			getNodeParameter: (name, fallback) => {
				const [, option] = name.split('.');
				return option in options ? options[option] : fallback;
			},
			logger: { debug() {}, info() {}, warn: (l) => warnings.push(l), error() {} },
		};
	}
	/**
	 * One delivery recorded; a new one is held until n8n's answer, answered 200 here (as n8n does
	 * once the execution exists), so its claim is promoted as in n8n. The verdict without the hold.
	 */
	const record = async (ctx) => {
		const outcome = await store.redisDeliveryStore.record(ctx, {
			deliveryId: `dlv_${randomUUID()}`,
			now: Date.now(),
			limits: { maxEntries: 1000, maxAgeMs: 3_600_000 },
		});
		if (outcome.verdict !== 'new') return outcome;
		assert.equal(typeof outcome.held?.answered, 'function', 'a new delivery is held until n8n answers');
		await outcome.held.answered(200);
		return { verdict: outcome.verdict };
	};
	async function activate(redis) {
		try {
			await store.checkRedisOnActivation(webhookCtx(redis));
			return { ok: true };
		} catch (error) {
			return { ok: false, message: error.message, description: error.description };
		}
	}

	test("the README's ACL line works: activation, a delivery, and Redis logs no denial", async () => {
		const admin = await adminClient();
		try {
			await admin.call('ACL', 'LOG', 'RESET');
			const checked = await check.checkRedis(as('readme'));
			assert.equal(checked.ok, true, checked.message);
			assert.equal((await activate(credential('readme'))).ok, true);
			assert.deepEqual(await record(webhookCtx(credential('readme'))), { verdict: 'new' });
			const denied = await admin.call('ACL', 'LOG');
			assert.deepEqual(denied, [], 'no command or key of the companion was refused');
		} finally {
			admin.disconnect();
			await store.closeRedisClaims();
		}
	});

	test('a user with every command and only the key pattern: deliveries run (no key outside the prefix)', async () => {
		assert.equal((await activate(credential('allcmds'))).ok, true);
		assert.deepEqual(await record(webhookCtx(credential('allcmds'))), { verdict: 'new' });
		await store.closeRedisClaims();
	});

	test('users that cannot do what a claim does are refused at activation, naming what is missing', async () => {
		const old = await check.checkRedis(as('old'));
		assert.equal(old.ok, false);
		assert.match(old.message, /may not run .*NOPERM.*ACL SETUSER/s);
		const nokeys = await check.checkRedis(as('nokeys'));
		assert.equal(nokeys.ok, false);
		assert.match(
			nokeys.message,
			/may not use n8n-nodes-company-payments:\* \(this package's keys\)/,
		);
		const noevalsha = await check.checkRedis(as('noevalsha'));
		assert.equal(noevalsha.ok, false);
		assert.match(noevalsha.message, /EVALSHA/i);
		// And a webhook process's new connection says the same (503 with the reason).
		const delivery = await record(webhookCtx(credential('old')));
		assert.equal(delivery.verdict, 'unavailable');
		assert.match(delivery.reason, /may not run .*NOPERM/s);
		await store.closeRedisClaims();
	});

	test('a user whose key pattern covers only some of the keys a delivery uses is refused at activation and Test, naming the pattern; every user accepted runs a delivery (outside r17 f1)', async () => {
		const admin = await adminClient();
		const P = 'n8n-nodes-company-payments:delivery';
		const commands = readmeAclRules().filter((rule) => rule.startsWith('+'));
		const fixed = ['epoch', 'epoch-back', 'members', 'epoch-expected', 'expiry'];
		const patterns = {
			probeOnly: [`~${P}:check:*`],
			probeAndEpoch: [`~${P}:check:*`, ...fixed.map((name) => `~${P}:${name}`)],
			// Every key a delivery writes but one of the keys all deliveries share.
			...Object.fromEntries(
				fixed.map((left) => [
					`without-${left}`,
					[`~${P}:check:*`, `~${P}:delivery:*`, ...fixed.filter((n) => n !== left).map((n) => `~${P}:${n}`)],
				]),
			),
			// Every key the package writes: accepted.
			deliveryPrefix: [`~${P}:*`],
		};
		try {
			for (const [name, keys] of Object.entries(patterns)) {
				await admin.call('ACL', 'SETUSER', `keys-${name}`, 'reset', 'on', '>user-pw', ...keys, ...commands);
				const { checked, tested } = await everyMessage(credential(`keys-${name}`));
				const delivery = await record(webhookCtx(credential(`keys-${name}`)));
				await store.closeRedisClaims();
				const accepted = name === 'deliveryPrefix';
				assert.equal(checked.ok, accepted, `${name}: ${checked.message}`);
				assert.equal(tested.status, accepted ? 'OK' : 'Error', `${name}: ${tested.message}`);
				if (accepted) {
					assert.deepEqual(delivery, { verdict: 'new' }, name);
					continue;
				}
				assert.equal(delivery.verdict, 'unavailable', name);
				for (const message of [checked.message, tested.message, delivery.reason]) {
					assert.match(
						message,
						/may not use n8n-nodes-company-payments:\* \(this package's keys\)/,
						`${name}: ${message}`,
					);
					assert.match(message, /ACL SETUSER <user> on ><password> ~n8n-nodes-company-payments:\*/);
				}
			}
		} finally {
			admin.disconnect();
			await store.closeRedisClaims();
		}
	});

	/** Activation, the credential Test and a delivery's 503 reason, for one credential. */
	async function everyMessage(cred) {
		const checked = await check.checkRedis({
			host: cred.host,
			port: cred.port,
			db: cred.database,
			username: cred.user,
			password: cred.password,
		});
		const tested = await new Node().methods.credentialTest.companyPaymentsRedisTest.call(
			{},
			{ data: cred },
		);
		return { checked, tested };
	}

	test('a command refused inside a claim script (Redis 7.0: no NOPERM) is named, with the ACL line, at activation, Test and in a 503 (outside r9 f5)', async () => {
		const admin = await adminClient();
		const rules = readmeAclRules();
		try {
			for (const command of ['time', 'zadd', 'zrangebyscore', 'sismember']) {
				await admin.call('ACL', 'SETUSER', `no-${command}`, 'reset', 'on', '>user-pw', ...rules);
				await admin.call('ACL', 'SETUSER', `no-${command}`, `-${command}`);
				const { checked, tested } = await everyMessage(credential(`no-${command}`));
				for (const message of [checked.message, tested.message]) {
					assert.match(message, new RegExp(`the command ${command.toUpperCase()}\\b`), message);
					assert.match(message, /ACL SETUSER <user> on ><password> ~n8n-nodes-company-payments/);
					assert.doesNotMatch(message, /user-pw/);
				}
				assert.equal(checked.ok, false);
				assert.equal(tested.status, 'Error');
			}
			// A user that loses TIME while its connection is up: the delivery's 503 names it.
			await admin.call('ACL', 'SETUSER', 'live-time', 'reset', 'on', '>user-pw', ...rules);
			const ctx = webhookCtx(credential('live-time'));
			assert.deepEqual(await record(ctx), { verdict: 'new' });
			await admin.call('ACL', 'SETUSER', 'live-time', '-time');
			const refused = await record(ctx);
			assert.equal(refused.verdict, 'unavailable');
			assert.match(refused.reason, /the command TIME .*ACL SETUSER <user> on ><password> ~/s);
		} finally {
			admin.disconnect();
			await store.closeRedisClaims();
		}
	});

	test('a user without WAIT is refused at activation and Test (the probe sends WAIT 0), and a 503 for a refused WAIT names it, not the replicas (outside r9 f6)', async () => {
		const admin = await adminClient();
		const rules = readmeAclRules();
		try {
			await admin.call('ACL', 'SETUSER', 'no-wait', 'reset', 'on', '>user-pw', ...rules, '-wait');
			const { checked, tested } = await everyMessage(credential('no-wait'));
			for (const message of [checked.message, tested.message]) {
				assert.match(message, /the command WAIT\b.*ACL SETUSER <user> on ><password> ~/s, message);
			}
			// This Redis has a replica: every delivery WAITs for it.
			await admin.call('ACL', 'SETUSER', 'live-wait', 'reset', 'on', '>user-pw', ...rules);
			const ctx = webhookCtx(credential('live-wait'));
			assert.deepEqual(await record(ctx), { verdict: 'new' });
			await admin.call('ACL', 'SETUSER', 'live-wait', '-wait');
			const refused = await record(ctx);
			assert.equal(refused.verdict, 'unavailable');
			assert.match(refused.reason, /the command WAIT\b.*ACL SETUSER <user> on ><password> ~/s);
			assert.doesNotMatch(refused.reason, /acknowledged/);
		} finally {
			admin.disconnect();
			await store.closeRedisClaims();
		}
	});

	test('a primary demoted to a replica (REPLICAOF) while connected: the 503 names it and says to point the credential at the primary (outside r9 f7)', async () => {
		const demoted = await startRedis({ dir: path.join(dir, 'demoted'), appendonly: true });
		const other = await startRedis({ dir: path.join(dir, 'demoted-to'), appendonly: true });
		try {
			const ctx = webhookCtx({ host: '127.0.0.1', port: demoted.port, database: 0 });
			assert.deepEqual(await record(ctx), { verdict: 'new' });
			const admin = new Redis({ host: '127.0.0.1', port: demoted.port });
			try {
				await admin.call('REPLICAOF', '127.0.0.1', String(other.port));
			} finally {
				admin.disconnect();
			}
			const refused = await record(ctx);
			assert.equal(refused.verdict, 'unavailable');
			assert.match(refused.reason, /read-only replica.*point the Redis credential at the primary/s);
		} finally {
			await store.closeRedisClaims();
			await demoted.stop();
			await other.stop();
		}
	});

	test('a read-only replica is refused at activation, naming it', async () => {
		const result = await check.checkRedis({
			host: '127.0.0.1',
			port: servers.replica.port,
			db: 0,
			password: 'admin-pw',
		});
		assert.equal(result.ok, false);
		assert.match(result.message, /read-only replica/);
	});

	test('a wrong password with Database Number 3 says the password was refused, not that none was given', async () => {
		for (const user of [undefined, 'second']) {
			const options = { host: '127.0.0.1', port: servers.main.port, db: 3, password: 'typo' };
			const result = await check.checkRedis(user ? { ...options, username: user } : options);
			assert.match(result.message, /refused the credential's user or password/, user);
			const delivery = await record(
				webhookCtx({
					host: '127.0.0.1',
					port: servers.main.port,
					database: 3,
					user,
					password: 'typo',
				}),
			);
			assert.equal(delivery.verdict, 'unavailable');
			assert.match(delivery.reason, /refused the credential's user or password/);
		}
		await store.closeRedisClaims();
	});

	test('Database Number -1, 2.5 or text is refused, naming the field, never database 0', async () => {
		const admin = await adminClient();
		const keysOf0 = async () => (await admin.keys('n8n-nodes-company-payments:*')).length;
		const before0 = await keysOf0();
		try {
			for (const database of [-1, 2.5, 'two']) {
				assert.throws(() => store.redisOptions({ host: 'h', database }), /Database Number/);
				const activation = await activate(credential('second', { database }));
				assert.equal(activation.ok, false);
				assert.match(activation.message, new RegExp(`Database Number is ${database}`));
				const delivery = await record(webhookCtx(credential('second', { database })));
				assert.equal(delivery.verdict, 'unavailable');
				assert.match(delivery.reason, /Database Number/);
				const tested = await new Node().methods.credentialTest.companyPaymentsRedisTest.call(
					{},
					{ data: credential('second', { database }) },
				);
				assert.equal(tested.status, 'Error');
				assert.match(tested.message, /Database Number/);
			}
			assert.equal(await keysOf0(), before0, 'nothing was written to database 0');
		} finally {
			admin.disconnect();
			await store.closeRedisClaims();
		}
	});

	test('a user without SELECT is told so, not that the database is missing', async () => {
		const result = await check.checkRedis(as('noselect'));
		assert.equal(result.ok, false);
		assert.match(result.message, /SELECT/);
		assert.doesNotMatch(result.message, /does not exist/);
	});

	test("activation messages survive n8n's NodeOperationError (no Node error code in them)", async () => {
		const port = await freePort();
		const refused = await activate({ host: '127.0.0.1', port, database: 0 });
		assert.equal(refused.ok, false);
		assert.match(refused.message, /nothing accepts connections at 127\.0\.0\.1:\d+/);
		assert.match(refused.description, /ECONNREFUSED/);
		const plain = await activate({ host: '127.0.0.1', port: servers.main.port, ssl: true });
		assert.equal(plain.ok, false);
		assert.match(plain.message, /does not speak TLS/);
		assert.match(plain.message, /SSL/);
	});

	test('TLS: messages name "Disable TLS Verification (insecure)", and a delivery refused names the certificate', async () => {
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
				'/CN=config-redis.test',
				'-keyout',
				path.join(tlsDir, 'key.pem'),
				'-out',
				path.join(tlsDir, 'cert.pem'),
			],
			{ stdio: 'ignore' },
		);
		const tlsPort = await freePort();
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
		const strict = { host: '127.0.0.1', port: tlsPort, database: 0, ssl: true };
		const activation = await activate(strict);
		assert.equal(activation.ok, false);
		assert.match(activation.message, /"Disable TLS Verification \(insecure\)"/);
		assert.doesNotMatch(activation.message, /Ignore SSL Issues/);
		const delivery = await record(webhookCtx(strict));
		assert.equal(delivery.verdict, 'unavailable');
		assert.match(
			delivery.reason,
			/The certificate it presents: subject CN=config-redis\.test.*SHA-256 [0-9A-F:]+/,
		);
		assert.doesNotMatch(fs.readFileSync(README, 'utf8'), /Ignore SSL Issues/);
		await store.closeRedisClaims();
	});

	test("the option's text promises no shorter wait than the claim has", () => {
		const options = new Node().description.properties.find((p) => p.name === 'options').options;
		const text = options.find((o) => o.name === 'redisWithoutPersistence').description;
		const { RECENT_MS } = require(path.join(DIST, 'redisClaims.js'));
		assert.doesNotMatch(text, /at most 10 seconds/);
		assert.match(text, new RegExp(`up to ${RECENT_MS / 60_000} minutes`));
	});

	test('the README says how idle clients close, the ioredis version it ships, and DEBUG', () => {
		const text = fs.readFileSync(README, 'utf8');
		assert.doesNotMatch(text, /after 15 minutes without a delivery\)/);
		assert.match(text, /at the next delivery/);
		assert.doesNotMatch(text, /this folder's `package-lock.json`/);
		const shipped = JSON.parse(
			fs.readFileSync(path.join(ROOT, 'companion/node_modules/ioredis/package.json'), 'utf8'),
		).version;
		assert.match(text, new RegExp(`ioredis ${shipped.replaceAll('.', '\\.')}`));
		assert.match(text, /DEBUG=ioredis/);
	});
});
