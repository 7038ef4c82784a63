/**
 * The test stack's pure parts: the environment each process gets, the names and builders of
 * workflows, and the e2e set-up's teardown, build check and credentials. No process is started
 * here.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';

import { buildN8nEnv, parseN8nSettings } from '../../harness/lib/env.mjs';
import { queueEnv } from '../../harness/queue.mjs';
import { assertBuilt, e2eStack, sandboxCredential } from '../../harness/stack.mjs';
import { CREDENTIAL_TYPE, node, NODE_TYPES, PACKAGE_NAME } from '../../harness/workflows.mjs';

describe('environments (pure)', () => {
	const base = buildN8nEnv({
		userFolder: '/tmp/u',
		port: 5678,
		brokerPort: 5679,
		baseEnv: { PATH: '/usr/bin', N8N_PORT: '9999', DB_TYPE: 'postgresdb', npm_config_x: '1' },
	});

	test('n8n listens on 127.0.0.1 only, its task broker too, and reaches nothing outside', () => {
		assert.equal(base.N8N_LISTEN_ADDRESS, '127.0.0.1');
		assert.equal(base.N8N_RUNNERS_BROKER_LISTEN_ADDRESS, '127.0.0.1');
		assert.equal(base.WEBHOOK_URL, 'http://127.0.0.1:5678/');
		assert.equal(base.N8N_DIAGNOSTICS_ENABLED, 'false');
		assert.equal(base.N8N_REINSTALL_MISSING_PACKAGES, 'false');
	});

	test("a developer's own n8n settings never leak in", () => {
		assert.equal(base.N8N_PORT, '5678');
		assert.equal(base.DB_TYPE, 'sqlite');
		assert.equal(base.npm_config_x, undefined);
		assert.equal(base.PATH, '/usr/bin');
	});

	test("COMPANY_PAYMENTS_N8N_SETTINGS reaches every n8n process; a process's own settings still win", () => {
		const env = buildN8nEnv({
			userFolder: '/tmp/u',
			port: 1,
			brokerPort: 2,
			baseEnv: {
				COMPANY_PAYMENTS_N8N_SETTINGS: 'N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true, N8N_PORT=9',
				N8N_EXPRESSION_ENGINE: 'legacy',
			},
			extra: { N8N_PORT: '3' },
		});
		assert.equal(env.N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE, 'true');
		assert.equal(env.N8N_EXPRESSION_ENGINE, undefined, 'inherited N8N_* still dropped');
		assert.equal(env.N8N_PORT, '3');
		assert.deepEqual(parseN8nSettings(undefined), {});
		assert.deepEqual(parseN8nSettings('N8N_A=x=y'), { N8N_A: 'x=y' });
		assert.throws(() => parseN8nSettings('DB_TYPE=postgresdb'), /N8N_NAME=value/);
		assert.throws(() => parseN8nSettings('N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE'), /N8N_NAME=value/);
	});

	test('queue mode: Postgres and Redis on 127.0.0.1, the proxy as the public webhook address', () => {
		const env = queueEnv({
			postgres: { port: 5432, database: 'postgres', user: 'postgres' },
			redis: { port: 6380 },
			proxyUrl: 'http://127.0.0.1:7000',
			extra: { N8N_LOG_LEVEL: 'debug' },
		});
		assert.equal(env.EXECUTIONS_MODE, 'queue');
		assert.equal(env.DB_TYPE, 'postgresdb');
		assert.equal(env.DB_POSTGRESDB_HOST, '127.0.0.1');
		assert.equal(env.DB_POSTGRESDB_PORT, '5432');
		assert.equal(env.QUEUE_BULL_REDIS_HOST, '127.0.0.1');
		assert.equal(env.QUEUE_BULL_REDIS_PORT, '6380');
		assert.equal(env.WEBHOOK_URL, 'http://127.0.0.1:7000/');
		assert.equal(env.N8N_DISABLE_PRODUCTION_MAIN_PROCESS, 'true');
		assert.equal(env.N8N_LOG_LEVEL, 'debug');
		// Combined with a process's own settings, queue mode wins over the single-process defaults.
		const worker = buildN8nEnv({ userFolder: '/tmp/w', port: 1, brokerPort: 2, extra: env });
		assert.equal(worker.DB_TYPE, 'postgresdb');
		assert.equal(worker.WEBHOOK_URL, 'http://127.0.0.1:7000/');
		assert.equal(worker.N8N_LISTEN_ADDRESS, '127.0.0.1');
	});
});

describe('workflows', () => {
	test('node type names are the package name and the node names of package.json', () => {
		assert.equal(NODE_TYPES.action, `${PACKAGE_NAME}.companyPayments`);
		assert.equal(NODE_TYPES.trigger, `${PACKAGE_NAME}.companyPaymentsTrigger`);
		assert.equal(NODE_TYPES.pollTrigger, `${PACKAGE_NAME}.companyPaymentsPollTrigger`);
	});

	test('node() attaches the credential and gives webhook nodes a webhookId', () => {
		const trigger = node(
			'T',
			NODE_TYPES.trigger,
			[0, 0],
			{},
			{ credential: { id: 'c1', name: 'C' } },
		);
		assert.deepEqual(trigger.credentials, { companyPaymentsApi: { id: 'c1', name: 'C' } });
		assert.match(trigger.webhookId, /^[0-9a-f-]{36}$/);
		assert.equal(node('A', NODE_TYPES.action, [0, 0]).webhookId, undefined);
	});
});

describe('the e2e set-up (harness/stack.mjs), without n8n', () => {
	test('stop() undoes the set-up newest first and runs every step even when one fails', async () => {
		const stack = e2eStack('order');
		const done = [];
		const service = (name, method = 'close') => ({
			[method]: async () => {
				done.push(name);
				if (name === 'failing') throw new Error('failing service');
			},
		});
		await stack.service(Promise.resolve(service('sandbox')));
		await stack.service(service('failing', 'stop'));
		await stack.service(service('model'));
		stack.onStop(async () => done.push('clients'));
		await assert.rejects(stack.stop(), (error) => {
			assert.ok(error instanceof AggregateError);
			assert.match(error.errors[0].message, /failing service/);
			return true;
		});
		assert.deepEqual(done, ['clients', 'model', 'failing', 'sandbox']);
		// Nothing is undone twice.
		await stack.stop();
		assert.equal(done.length, 4);
	});

	test('a service without close() or stop() is refused at once, not at teardown', async () => {
		await assert.rejects(e2eStack('bad').service({}), /without close\(\)/);
	});

	test('assertBuilt names the missing files and says to build', () => {
		const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-built-'));
		try {
			fs.writeFileSync(
				path.join(root, 'package.json'),
				JSON.stringify({ n8n: { nodes: ['dist/a.node.js'], credentials: ['dist/b.js'] } }),
			);
			fs.mkdirSync(path.join(root, 'dist'));
			fs.writeFileSync(path.join(root, 'dist/a.node.js'), '');
			assert.throws(() => assertBuilt(root), /missing dist\/b\.js.*run npm run build first/);
			fs.writeFileSync(path.join(root, 'dist/b.js'), '');
			assertBuilt(root);
			fs.writeFileSync(path.join(root, 'package.json'), '{}');
			assert.throws(() => assertBuilt(root), /not built/);
		} finally {
			fs.rmSync(root, { recursive: true, force: true });
		}
	});

	test('sandboxCredential: Staging, the service URL, the chosen key, extra fields', () => {
		const sandbox = { url: 'http://127.0.0.1:1', keys: { owner: 'k-owner', readOnly: 'k-read' } };
		assert.deepEqual(sandboxCredential(sandbox), {
			name: 'Sandbox owner',
			type: CREDENTIAL_TYPE,
			data: { environment: 'staging', baseUrl: 'http://127.0.0.1:1', apiKey: 'k-owner' },
		});
		const reader = sandboxCredential(sandbox, {
			name: 'Reader',
			key: 'readOnly',
			data: { webhookSecret: 's', baseUrl: 'http://127.0.0.1:2' },
		});
		assert.equal(reader.data.apiKey, 'k-read');
		assert.equal(reader.data.baseUrl, 'http://127.0.0.1:2');
		assert.equal(reader.data.webhookSecret, 's');
		assert.equal(sandboxCredential(sandbox, { apiKey: 'given' }).data.apiKey, 'given');
	});
});
