/**
 * The services of the queue-mode deployment that are not n8n: a throwaway PostgreSQL 15 cluster,
 * a Redis without persistence, and a small round-robin HTTP proxy standing in for the load
 * balancer in front of the `n8n webhook` processes.
 *
 * Each `start…` resolves to a handle with `pid` and `stop()`; every process runs in its own
 * process group and is stopped by its PID (SIGKILL of the group as the last resort). Everything
 * listens on 127.0.0.1 only, and everything written goes into the folder the caller passes.
 *
 * Plain JavaScript with Node built-ins only, like harness/n8n.mjs (the n8n linter forbids
 * process, fs and child_process in the package's TypeScript).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

import { freePort } from './n8n.mjs';
import { killGroup, pidIsAlive, spawnLogged, stopProcess } from './lib/processes.mjs';
import { readFrom, waitUntil } from './lib/util.mjs';

export { killGroup, pidIsAlive, readFrom, waitUntil };

function tailText(text, lines = 30) {
	return text.split('\n').slice(-lines).join('\n');
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL
// ---------------------------------------------------------------------------------------------

const PG_BIN_DIRS = ['/usr/lib/postgresql/15/bin', '/usr/local/bin', '/usr/bin'];

function pgBinary(name) {
	for (const dir of PG_BIN_DIRS) {
		const file = path.join(dir, name);
		if (fs.existsSync(file)) return file;
	}
	throw new Error(
		`PostgreSQL's ${name} was not found in ${PG_BIN_DIRS.join(', ')} (Debian: apt-get install postgresql-15)`,
	);
}

/**
 * initdb and postgres refuse to run as root. As root, both run as `nobody` through setpriv
 * (which execs, so the PID we hold is the postmaster itself); the data folder is handed to
 * that user first.
 */
function asDatabaseUser(command, args) {
	if (typeof process.getuid !== 'function' || process.getuid() !== 0) return [command, args];
	const nobody = { uid: 65534, gid: 65534 };
	return [
		'setpriv',
		[`--reuid=${nobody.uid}`, `--regid=${nobody.gid}`, '--clear-groups', command, ...args],
	];
}

/**
 * A throwaway PostgreSQL cluster in `<dir>` on a free loopback port, trust authentication for
 * the `postgres` role, durability off (fsync, synchronous_commit, full_page_writes: it is thrown
 * away). Resolves once it accepts connections.
 *
 * @param {{ dir: string, timeoutMs?: number }} options
 * @returns {Promise<{ port: number, pid: number, user: string, database: string, dataDir: string,
 *   logFile: string, stop: () => Promise<object> }>}
 */
export async function startPostgres({ dir, timeoutMs = 60_000 }) {
	fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
	if (process.getuid?.() === 0) fs.chownSync(dir, 65534, 65534);
	const dataDir = path.join(dir, 'data');
	const logFile = path.join(dir, 'postgres.log');
	const [initCommand, initArgs] = asDatabaseUser(pgBinary('initdb'), [
		'-D',
		dataDir,
		'-U',
		'postgres',
		'-A',
		'trust',
		'-E',
		'UTF8',
		'--locale=C',
		'--no-sync',
	]);
	try {
		execFileSync(initCommand, initArgs, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
	} catch (error) {
		throw new Error(`initdb failed: ${error.stderr?.toString() ?? error.message}`);
	}
	const port = await freePort();
	const [command, args] = asDatabaseUser(pgBinary('postgres'), [
		'-D',
		dataDir,
		'-p',
		String(port),
		'-c',
		'listen_addresses=127.0.0.1',
		'-c',
		`unix_socket_directories=${dir}`,
		'-c',
		'fsync=off',
		'-c',
		'synchronous_commit=off',
		'-c',
		'full_page_writes=off',
		'-c',
		'max_connections=200',
	]);
	const proc = spawnLogged(command, args, {
		cwd: dir,
		env: { ...process.env, LC_ALL: 'C' },
		logFile,
	});
	let exitInfo;
	proc.exited.then((info) => (exitInfo = info));
	const handle = {
		port,
		pid: proc.pid,
		user: 'postgres',
		database: 'postgres',
		dataDir,
		logFile,
		// SIGINT is PostgreSQL's "fast shutdown": abort sessions, checkpoint, exit.
		stop: () => stopProcess(proc, 15_000, 'SIGINT'),
	};
	try {
		await waitUntil(
			() => readFrom(logFile).includes('database system is ready to accept connections'),
			{
				timeoutMs,
				what: 'PostgreSQL',
				exitInfo: () => exitInfo,
				describe: () => tailText(readFrom(logFile)),
			},
		);
	} catch (error) {
		await handle.stop();
		throw error;
	}
	return handle;
}

// ---------------------------------------------------------------------------------------------
// Redis
// ---------------------------------------------------------------------------------------------

/** `redis-server` on PATH, else Debian's path; scripts/ensure-redis.sh installs it. */
export function redisBinary() {
	for (const dir of [...(process.env.PATH ?? '').split(':'), '/usr/bin', '/usr/local/bin']) {
		if (!dir) continue;
		const file = path.join(dir, 'redis-server');
		if (fs.existsSync(file)) return file;
	}
	throw new Error(
		'redis-server is not installed: run scripts/ensure-redis.sh (Debian package redis-server)',
	);
}

/**
 * Redis on a free loopback port (or `port`: a restart on the port clients know), no persistence
 * (no RDB snapshots, no AOF) unless `appendonly` (AOF, fsync on every write: a restart keeps
 * every key), working folder `<dir>`, `args` added to its command line (e.g. maxmemory).
 * Resolves once it answers PING.
 * @param {{ dir: string, port?: number, timeoutMs?: number, appendonly?: boolean, args?: string[] }} options
 */
export async function startRedis({ dir, port: wantedPort, timeoutMs = 20_000, appendonly = false, args = [] }) {
	fs.mkdirSync(dir, { recursive: true });
	const port = wantedPort ?? (await freePort());
	const logFile = path.join(dir, 'redis.log');
	const proc = spawnLogged(
		redisBinary(),
		[
			'--bind',
			'127.0.0.1',
			'--port',
			String(port),
			'--save',
			'',
			'--appendonly',
			appendonly ? 'yes' : 'no',
			...(appendonly ? ['--appendfsync', 'always'] : []),
			'--dir',
			dir,
			'--daemonize',
			'no',
			'--protected-mode',
			'yes',
			...args,
		],
		{ cwd: dir, env: process.env, logFile },
	);
	let exitInfo;
	proc.exited.then((info) => (exitInfo = info));
	const handle = { port, pid: proc.pid, logFile, stop: () => stopProcess(proc, 10_000) };
	try {
		await waitUntil(() => redisPing(port), {
			timeoutMs,
			what: 'Redis',
			exitInfo: () => exitInfo,
			describe: () => tailText(readFrom(logFile)),
		});
	} catch (error) {
		await handle.stop();
		throw error;
	}
	return handle;
}

async function redisPing(port) {
	const net = await import('node:net');
	return await new Promise((resolve) => {
		const socket = net.connect(port, '127.0.0.1');
		socket.setTimeout(1000);
		socket.once('connect', () => socket.write('PING\r\n'));
		socket.once('data', (data) => {
			socket.destroy();
			// A Redis with a password answers NOAUTH: it is up too.
			resolve(/^(\+PONG|-NOAUTH)/.test(data.toString()));
		});
		socket.once('error', () => resolve(false));
		socket.once('timeout', () => {
			socket.destroy();
			resolve(false);
		});
	});
}

// ---------------------------------------------------------------------------------------------
// The load balancer: a round-robin HTTP proxy
// ---------------------------------------------------------------------------------------------

/**
 * A loopback HTTP proxy in front of the webhook processes, as a load balancer would be:
 * requests go round-robin to the targets, bodies and headers are passed byte for byte, and a
 * target that refuses the connection (a stopped process) is skipped for the next one, the way a
 * load balancer retries a connect failure. A target that fails after the request was sent
 * makes the proxy answer 502 (the request may have been processed: it is not sent again).
 *
 * `only(index)` sends everything to one target (`only(null)` restores round-robin);
 * `loseAnswers(n)` swallows the next n answers (the sender gets 504).
 * `log` records `{ at, target, status, deliveryId, path, body | lostBody | error }` per request.
 *
 * @param {{ targets: Array<{ name: string, port: number }> }} options
 */
export async function startProxy({ targets }) {
	const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
	let next = 0;
	let pinned = null;
	let losing = 0;
	const log = [];

	function forward(req, res, body, attempt, order) {
		const target = order[attempt];
		const upstream = http.request(
			{
				host: '127.0.0.1',
				port: target.port,
				method: req.method,
				path: req.url,
				headers: { ...req.headers, host: `127.0.0.1:${target.port}` },
				agent,
			},
			(answer) => {
				const lost = losing > 0;
				if (lost) losing -= 1;
				const entry = {
					at: Date.now(),
					target: target.name,
					status: answer.statusCode,
					deliveryId: req.headers['x-service-delivery-id'],
					path: req.url,
				};
				log.push(entry);
				if (lost) {
					// The process answered, but the answer never reaches the sender.
					const chunks = [];
					answer.on('data', (chunk) => chunks.push(chunk));
					answer.on('end', () => {
						entry.lostBody = Buffer.concat(chunks).toString('utf8');
						res.writeHead(504, { 'content-type': 'application/json' });
						res.end(JSON.stringify({ message: 'proxy: the answer was lost on purpose' }));
					});
					return;
				}
				const chunks = [];
				answer.on('data', (chunk) => chunks.push(chunk));
				answer.on('end', () => {
					entry.body = Buffer.concat(chunks).toString('utf8').slice(0, 2000);
				});
				res.writeHead(answer.statusCode, answer.headers);
				answer.pipe(res);
			},
		);
		upstream.on('error', (error) => {
			// Refused: nothing reached that process, so another one may take the request.
			const notSent = error.code === 'ECONNREFUSED';
			if (notSent && attempt + 1 < order.length) {
				forward(req, res, body, attempt + 1, order);
				return;
			}
			log.push({
				at: Date.now(),
				target: target.name,
				status: 502,
				error: error.code ?? error.message,
				deliveryId: req.headers['x-service-delivery-id'],
				path: req.url,
			});
			if (!res.headersSent) {
				res.writeHead(502, { 'content-type': 'application/json' });
				res.end(
					JSON.stringify({ message: `proxy: upstream ${target.name} failed (${error.code})` }),
				);
			} else {
				res.destroy();
			}
		});
		upstream.end(body);
	}

	const server = http.createServer((req, res) => {
		const chunks = [];
		req.on('data', (chunk) => chunks.push(chunk));
		req.on('end', () => {
			const list = handle.targets;
			let order;
			if (pinned !== null) {
				order = [list[pinned]];
			} else {
				const first = next++ % list.length;
				order = list.map((_, i) => list[(first + i) % list.length]);
			}
			forward(req, res, Buffer.concat(chunks), 0, order);
		});
	});
	server.keepAliveTimeout = 5_000;
	const port = await freePort();
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', resolve);
	});
	const handle = {
		port,
		url: `http://127.0.0.1:${port}`,
		targets: [...targets],
		log,
		/** Sends every request to target `index`; `null` restores round-robin. */
		only(index) {
			pinned = index;
		},
		/**
		 * The next `count` answers of the webhook processes are swallowed and the sender gets
		 * 504 instead: the request was processed, the sender cannot know (a lost response).
		 */
		loseAnswers(count) {
			losing = count;
		},
		/** How many requests each target answered (or failed), by name. */
		counts() {
			const counts = {};
			for (const entry of log) counts[entry.target] = (counts[entry.target] ?? 0) + 1;
			return counts;
		},
		async stop() {
			agent.destroy();
			server.closeAllConnections?.();
			await new Promise((resolve) => server.close(resolve));
		},
	};
	return handle;
}
