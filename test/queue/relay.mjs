// A TCP relay on 127.0.0.1 in front of Redis that can delay one command, or the answer to it,
// the way a slow network does: bytes keep their order in each direction, so everything sent
// after a delayed command waits behind it (and every answer after a delayed answer).
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * @param {{ port: number }} target the Redis to relay to
 * @returns {Promise<{ port: number, delayNext: (options: { match: string, delayMs: number,
 *   what: 'command' | 'answer' }) => Promise<void>, close: () => Promise<void> }>}
 *   `delayNext` arms the relay for the next command whose bytes contain `match`; its promise
 *   settles when the delayed bytes have been passed on.
 */
export async function startRelay(target) {
	const sockets = new Set();
	let armed;
	const server = net.createServer((client) => {
		const upstream = net.connect(target.port, '127.0.0.1');
		sockets.add(client);
		sockets.add(upstream);
		let toServer = Promise.resolve();
		let toClient = Promise.resolve();
		let holdNextAnswer;
		client.on('data', (chunk) => {
			let hold = 0;
			const rule = armed;
			if (rule && chunk.includes(rule.match)) {
				armed = undefined;
				if (rule.what === 'command') hold = rule.delayMs;
				else holdNextAnswer = rule;
				if (rule.what === 'command') {
					toServer = toServer.then(async () => {
						await sleep(hold);
						upstream.write(chunk);
						rule.passed();
					});
					return;
				}
			}
			toServer = toServer.then(() => {
				upstream.write(chunk);
			});
		});
		upstream.on('data', (chunk) => {
			const rule = holdNextAnswer;
			holdNextAnswer = undefined;
			toClient = toClient.then(async () => {
				if (rule) await sleep(rule.delayMs);
				client.write(chunk);
				if (rule) rule.passed();
			});
		});
		const end = () => {
			client.destroy();
			upstream.destroy();
			sockets.delete(client);
			sockets.delete(upstream);
		};
		client.on('error', end);
		upstream.on('error', end);
		client.on('close', end);
		upstream.on('close', end);
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		port: server.address().port,
		delayNext({ match, delayMs, what }) {
			return new Promise((resolve) => {
				armed = { match: Buffer.from(match), delayMs, what, passed: resolve };
			});
		},
		async close() {
			for (const socket of sockets) socket.destroy();
			await new Promise((resolve) => server.close(resolve));
		},
	};
}
