// A TCP relay on 127.0.0.1 in front of Redis that can delay, hold or cut one command or the answer
// to it, the way a slow or breaking network does, and refuse or swallow new connections for a
// while (a slow reconnect). Bytes keep their order in each direction, so everything sent after a
// delayed command waits behind it (and every answer after a delayed answer).
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * @param {{ port: number }} target the Redis to relay to (its port may change: `retarget`)
 * @returns {Promise<{
 *   port: number,
 *   delayNext: (options: { match: string, delayMs: number, what: 'command' | 'answer' }) => Promise<void>,
 *   armNext: (options: { match: string, what: 'command' | 'answer', action: 'delay' | 'hold' | 'cut' | 'stall',
 *     delayMs?: number, nth?: number }) => { passed: Promise<string>, release: () => void,
 *     reached: Promise<void> },
 *   block: (options: { mode: 'refuse' | 'swallow', ms: number }) => void,
 *   cutAll: () => void,
 *   retarget: (port: number) => void,
 *   close: () => Promise<void> }>}
 *   `armNext` arms the relay for the nth next command whose bytes contain `match`: `delay` passes
 *   it (or its answer) on after delayMs; `hold` keeps it until `release()` or until the
 *   connection is cut; `cut` destroys the connection before the command reaches Redis, or after
 *   Redis answered it and before the answer reaches the client. `passed` settles with what
 *   happened ('passed', 'cut' or 'closed'); `reached` settles when the relay
 *   meets that command. `stall` holds every answer on every connection of this
 *   relay, from that command's on, for delayMs (a one-way stall towards one process); with `both`,
 *   every later command of this relay waits too (a partition: the triggering command reaches Redis). `block` refuses (closes at once) or swallows (accepts,
 *   never connects on, never answers) connections made in the next ms.
 */
export async function startRelay(target) {
	const sockets = new Set();
	const pairs = new Set();
	let targetPort = target.port;
	let armed;
	let blocked;
	// Until when every answer to this relay's client (on every connection) is held: a stall.
	let stalledUntil = 0;
	// Until when every command from this relay's client waits as well (a partition).
	let partitionUntil = 0;
	let stallRule;
	// Every wait of the relay (a delay, a stall, a partition) ends when the relay closes: a wait
	// left running would keep the test process alive after its last case.
	const closing = new AbortController();
	const pause = (ms) => sleep(ms, undefined, { signal: closing.signal }).catch(() => undefined);
	const server = net.createServer((client) => {
		sockets.add(client);
		if (blocked && Date.now() < blocked.until) {
			if (blocked.mode === 'refuse') {
				client.destroy();
				sockets.delete(client);
				return;
			}
			// Swallowed: accepted, never answered, until the block ends (then cut).
			client.on('error', () => undefined);
			const left = blocked.until - Date.now();
			setTimeout(() => {
				client.destroy();
				sockets.delete(client);
			}, left).unref();
			return;
		}
		const upstream = net.connect(targetPort, '127.0.0.1');
		sockets.add(upstream);
		let toServer = Promise.resolve();
		let toClient = Promise.resolve();
		let answerRule;
		let closed = false;
		const pair = {
			end() {
				if (closed) return;
				closed = true;
				client.destroy();
				upstream.destroy();
				sockets.delete(client);
				sockets.delete(upstream);
				pairs.delete(pair);
				for (const rule of pair.rules) rule.settle('closed');
			},
			rules: new Set(),
		};
		pairs.add(pair);
		const waitFor = (rule) =>
			rule.action === 'hold'
				? rule.released
				: rule.action === 'delay'
					? pause(rule.delayMs ?? 0)
					: Promise.resolve();
		client.on('data', (chunk) => {
			let starts = false;
			if (stallRule && chunk.includes(stallRule.match) && --stallRule.nth <= 0) {
				stalledUntil = Date.now() + stallRule.ms;
				if (stallRule.both) partitionUntil = stalledUntil;
				starts = true;
				stallRule.settle('passed');
				stallRule = undefined;
			}
			const rule = armed;
			if (rule && chunk.includes(rule.match) && --rule.nth <= 0) {
				armed = undefined;
				rule.reach();
				if (rule.action === 'stall') {
					// From this command on, every answer on every connection waits delayMs.
					stalledUntil = Date.now() + (rule.delayMs ?? 0);
					if (rule.both) partitionUntil = stalledUntil;
					rule.settle('passed');
					toServer = toServer.then(() => {
						if (!closed) upstream.write(chunk);
					});
					return;
				}
				pair.rules.add(rule);
				if (rule.what === 'command') {
					toServer = toServer.then(async () => {
						if (rule.action === 'cut') {
							rule.settle('cut');
							pair.end();
							return;
						}
						await waitFor(rule);
						if (closed) return;
						upstream.write(chunk);
						rule.settle('passed');
					});
					return;
				}
				answerRule = rule;
			}
			toServer = toServer.then(async () => {
				if (!starts && partitionUntil > Date.now()) await pause(partitionUntil - Date.now());
				if (!closed) upstream.write(chunk);
			});
		});
		upstream.on('data', (chunk) => {
			const rule = answerRule;
			answerRule = undefined;
			toClient = toClient.then(async () => {
				if (rule?.action === 'cut') {
					rule.settle('cut');
					pair.end();
					return;
				}
				if (rule) await waitFor(rule);
				if (stalledUntil > Date.now()) await pause(stalledUntil - Date.now());
				if (closed) return;
				client.write(chunk);
				if (rule) rule.settle('passed');
			});
		});
		client.on('error', pair.end);
		upstream.on('error', pair.end);
		client.on('close', pair.end);
		upstream.on('close', pair.end);
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));

	function armNext({ match, what, action, delayMs, nth = 1, both = false }) {
		let settle;
		const passed = new Promise((resolve) => (settle = resolve));
		let release;
		const released = new Promise((resolve) => (release = resolve));
		let reach;
		const reached = new Promise((resolve) => (reach = resolve));
		let done = false;
		armed = {
			reach,
			match: Buffer.from(match),
			what,
			action,
			delayMs,
			nth,
			both,
			released,
			settle(how) {
				if (done) return;
				done = true;
				settle(how);
			},
		};
		return { passed, release, reached };
	}

	return {
		port: server.address().port,
		armNext,
		/** A stall (see `armNext`) armed on its own, beside any other armed rule. */
		stallAfter({ match, nth = 1, ms, both = false }) {
			let settle;
			const passed = new Promise((resolve) => (settle = resolve));
			stallRule = { match: Buffer.from(match), nth, ms, both, settle };
			return { passed };
		},
		async delayNext({ match, delayMs, what }) {
			await armNext({ match, what, action: 'delay', delayMs }).passed;
		},
		disarm() {
			if (armed) armed.settle('disarmed');
			armed = undefined;
		},
		block({ mode, ms }) {
			blocked = { mode, until: Date.now() + ms };
		},
		cutAll() {
			for (const pair of [...pairs]) pair.end();
		},
		retarget(port) {
			targetPort = port;
		},
		async close() {
			closing.abort();
			armed = undefined;
			stallRule?.settle('closed');
			partitionUntil = 0;
			stalledUntil = 0;
			stallRule = undefined;
			for (const pair of [...pairs]) pair.end();
			for (const socket of sockets) socket.destroy();
			await new Promise((resolve) => server.close(resolve));
		},
	};
}
