/**
 * Real redis-server processes for the unit tests of the trigger's Redis client, on 127.0.0.1 and
 * a free port, no persistence, each stopped by its PID. Plain JavaScript (CommonJS, for jest):
 * n8n's linter forbids child_process and net in the package's TypeScript, tests included.
 *
 * Also: a silent TCP server (accepts, reads, never answers) and a scripted one (answers each
 * command with a fixed reply), for timeouts and replies a single local Redis does not give.
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

function redisBinary() {
	for (const dir of [...(process.env.PATH || '').split(':'), '/usr/bin', '/usr/local/bin']) {
		if (!dir) continue;
		const file = path.join(dir, 'redis-server');
		if (fs.existsSync(file)) return file;
	}
	throw new Error('redis-server is not installed: run scripts/ensure-redis.sh');
}

function freePort() {
	return new Promise((resolve, reject) => {
		const server = net.createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address();
			server.close(() => resolve(port));
		});
	});
}

function sleep(ms) {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

async function answersPing(port) {
	return await new Promise((resolve) => {
		const socket = net.connect(port, '127.0.0.1');
		socket.setTimeout(500);
		socket.once('connect', () => socket.write('PING\r\n'));
		socket.once('data', (data) => {
			socket.destroy();
			// +PONG, or -NOAUTH when a password is required: either way it is up.
			resolve(/^(\+PONG|-NOAUTH)/.test(data.toString()));
		});
		socket.once('error', () => resolve(false));
		socket.once('timeout', () => {
			socket.destroy();
			resolve(false);
		});
	});
}

/**
 * Starts redis-server. `args` are extra arguments (e.g. ['--requirepass', 'pw']); `port` reuses
 * a port (a restart). Resolves to { port, pid, stop(), kill() }.
 */
async function startRedisServer({ args = [], port } = {}) {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-unit-redis-'));
	const chosen = port || (await freePort());
	const child = spawn(
		redisBinary(),
		[
			'--bind',
			'127.0.0.1',
			'--port',
			String(chosen),
			'--save',
			'',
			'--appendonly',
			'no',
			'--dir',
			dir,
			'--daemonize',
			'no',
			...args,
		],
		{ stdio: 'ignore' },
	);
	let gone = false;
	const exited = new Promise((resolve) => child.once('exit', resolve)).then(() => (gone = true));
	const deadline = Date.now() + 10_000;
	while (!(await answersPing(chosen))) {
		if (gone) throw new Error(`redis-server ${args.join(' ')} exited at start`);
		if (Date.now() > deadline) {
			child.kill('SIGKILL');
			throw new Error(`redis-server on ${chosen} did not start`);
		}
		await sleep(50);
	}
	let stopped = false;
	const end = async (signal) => {
		if (stopped) return;
		stopped = true;
		process.kill(child.pid, signal);
		await exited;
		fs.rmSync(dir, { recursive: true, force: true });
	};
	return {
		port: chosen,
		pid: child.pid,
		stop: () => end('SIGTERM'),
		kill: () => end('SIGKILL'),
	};
}

/** Whether a process of this PID still exists. */
function pidIsAlive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

/**
 * A TCP server on 127.0.0.1 that answers each complete command (one RESP array) with the next
 * of `replies` (raw RESP text); `null` means stay silent from then on. Counts what it received.
 */
async function startScriptedServer(replies) {
	const received = [];
	const sockets = new Set();
	let index = 0;
	const server = net.createServer((socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
		let buffer = '';
		socket.on('data', (chunk) => {
			buffer += chunk.toString('utf8');
			// One command per `*N` header: count commands by their headers at line starts.
			const commands = buffer.split(/(?=^\*\d+\r\n)/m).filter(Boolean);
			buffer = '';
			for (const command of commands) {
				received.push(command);
				const reply = index < replies.length ? replies[index] : null;
				index += 1;
				if (reply !== null) socket.write(reply);
			}
		});
		socket.on('error', () => {});
	});
	const port = await freePort();
	await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
	return {
		port,
		received,
		async stop() {
			for (const socket of sockets) socket.destroy();
			await new Promise((resolve) => server.close(resolve));
		},
	};
}

/**
 * A TCP proxy on 127.0.0.1 in front of a Redis that loses one reply: the reply to the first
 * command whose bytes contain `match` reaches the proxy (so Redis applied the command), then the
 * proxy closes the client's connection instead of passing it on.
 */
async function startReplyDroppingProxy(targetPort, match) {
	let armed = true;
	const sockets = new Set();
	const server = net.createServer((client) => {
		const upstream = net.connect(targetPort, '127.0.0.1');
		let dropNext = false;
		sockets.add(client);
		sockets.add(upstream);
		client.on('data', (chunk) => {
			if (armed && chunk.toString('utf8').includes(match)) {
				armed = false;
				dropNext = true;
			}
			upstream.write(chunk);
		});
		upstream.on('data', (chunk) => {
			if (dropNext) {
				client.destroy();
				upstream.destroy();
				return;
			}
			client.write(chunk);
		});
		const close = () => {
			client.destroy();
			upstream.destroy();
		};
		client.on('close', close);
		upstream.on('close', close);
		client.on('error', () => {});
		upstream.on('error', () => {});
	});
	const port = await freePort();
	await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
	return {
		port,
		async stop() {
			for (const socket of sockets) socket.destroy();
			await new Promise((resolve) => server.close(resolve));
		},
	};
}

/** A new unconnected net.Socket: what the trigger gets from its request's socket class. */
function newSocket() {
	return new net.Socket();
}

/** A port nothing listens on (taken, then released). */
async function closedPort() {
	return await freePort();
}

module.exports = {
	closedPort,
	newSocket,
	pidIsAlive,
	pause: sleep,
	startRedisServer,
	startReplyDroppingProxy,
	startScriptedServer,
};
