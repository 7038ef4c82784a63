import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';

const SERVER = fileURLToPath(new URL('../../sandbox/server.mjs', import.meta.url));

describe('command line', () => {
	for (const signal of ['SIGTERM', 'SIGINT']) {
		it(`starts on loopback, prints its URL and keys, and stops on ${signal}`, async () => {
			const child = spawn(process.execPath, [SERVER, '--port', '0', '--quiet'], {
				stdio: ['ignore', 'pipe', 'pipe'],
			});
			try {
				let out = '';
				child.stdout.setEncoding('utf8');
				const url = await new Promise((resolve, reject) => {
					const timer = setTimeout(() => reject(new Error(`no URL printed: ${out}`)), 10_000);
					child.stdout.on('data', (chunk) => {
						out += chunk;
						const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
						if (m && out.includes('readOnly')) {
							clearTimeout(timer);
							resolve(m[1]);
						}
					});
					child.once('exit', () => reject(new Error(`exited early: ${out}`)));
				});
				assert.match(out, /sk_sandbox_legacy_/);
				const health = await fetch(`${url}/__control/health`);
				assert.deepEqual(await health.json(), { ok: true });
				const exited = once(child, 'exit');
				child.kill(signal);
				const [code] = await exited;
				assert.equal(code, 0);
			} finally {
				if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
			}
		});
	}

	it('--profile and --payouts choose the answers to the open choices and the payout history', async () => {
		const args = [SERVER, '--port', '0', '--quiet', '--profile', 'contrary', '--payouts', '30'];
		const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
		try {
			let out = '';
			child.stdout.setEncoding('utf8');
			const url = await new Promise((resolve, reject) => {
				const timer = setTimeout(() => reject(new Error(`no URL printed: ${out}`)), 10_000);
				child.stdout.on('data', (chunk) => {
					out += chunk;
					const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
					if (m && out.includes('readOnly')) {
						clearTimeout(timer);
						resolve(m[1]);
					}
				});
				child.once('exit', () => reject(new Error(`exited early: ${out}`)));
			});
			assert.match(out, /profile: \{"name":"contrary"/);
			const profile = await (await fetch(`${url}/__control/profile`)).json();
			assert.equal(profile.profile.pageCap, 25);
			const state = await (await fetch(`${url}/__control/state`)).json();
			assert.equal(state.payouts.filter((p) => p.externalId?.startsWith('bulk-')).length, 30);
			const exited = once(child, 'exit');
			child.kill('SIGTERM');
			assert.equal((await exited)[0], 0);
		} finally {
			if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
		}
	});
});
