// Child processes of the host: each n8n (and each CLI command) runs in its own process group with
// its output appended to a file (never a pipe: the n8n CLI spins when a pipe breaks). Every child
// is remembered so that a test process that exits without stopping it still kills it.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const liveChildren = new Set();
let exitHooksInstalled = false;

/** SIGNAL to the process group of a detached child (n8n and its task runner), then to the pid. */
export function killGroup(pid, signal) {
	try {
		process.kill(-pid, signal);
	} catch {
		// group gone
	}
	try {
		process.kill(pid, signal);
	} catch {
		// process gone
	}
}

export function pidIsAlive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return error.code === 'EPERM';
	}
}

function track(child) {
	liveChildren.add(child);
	child.once('exit', () => liveChildren.delete(child));
	if (exitHooksInstalled) return;
	exitHooksInstalled = true;
	process.once('exit', () => {
		for (const c of liveChildren) killGroup(c.pid, 'SIGKILL');
	});
	for (const signal of ['SIGINT', 'SIGTERM']) {
		process.once(signal, () => {
			for (const c of liveChildren) killGroup(c.pid, 'SIGKILL');
			process.kill(process.pid, signal);
		});
	}
}

/**
 * Spawns `command args` detached (own process group), stdout and stderr appended to `logFile`,
 * and tracks it. Resolves `exited` with `{ code, signal, error? }`.
 *
 * @returns {{ child: import('node:child_process').ChildProcess, pid: number,
 *             exited: Promise<{ code: number|null, signal: string|null, error?: Error }>,
 *             exitInfo: () => ({ code: number|null, signal: string|null, error?: Error } | undefined) }}
 */
export function spawnLogged(command, args, { cwd, env, logFile }) {
	fs.mkdirSync(path.dirname(logFile), { recursive: true });
	const fd = fs.openSync(logFile, 'a');
	let child;
	try {
		child = spawn(command, args, { cwd, env, stdio: ['ignore', fd, fd], detached: true });
	} finally {
		fs.closeSync(fd);
	}
	track(child);
	let info;
	const exited = new Promise((resolve) => {
		child.once('exit', (code, signal) => resolve((info = { code, signal })));
		child.once('error', (error) => resolve((info = { code: null, signal: null, error })));
	});
	return { child, pid: child.pid, exited, exitInfo: () => info };
}

/**
 * Stops a spawned process: `signal` (SIGTERM; PostgreSQL's fast shutdown is SIGINT) to the pid,
 * SIGKILL to its group after `timeoutMs`, and a final SIGKILL to the group for anything that
 * outlived it (a task runner).
 */
export async function stopProcess(proc, timeoutMs = 20_000, signal = 'SIGTERM') {
	if (!proc.exitInfo()) {
		try {
			process.kill(proc.pid, signal);
		} catch {
			// already gone
		}
		const timer = setTimeout(() => killGroup(proc.pid, 'SIGKILL'), timeoutMs);
		await proc.exited;
		clearTimeout(timer);
	}
	const info = await proc.exited;
	killGroup(proc.pid, 'SIGKILL');
	return info;
}

/**
 * Pids (other than this process) whose working directory is `dir` or inside it: on Linux, how the
 * host sees that an install started by hand (or by a pre-warm script) is still running there.
 * Empty where /proc is not readable.
 */
export function processesIn(dir) {
	const found = [];
	let entries;
	try {
		entries = fs.readdirSync('/proc');
	} catch {
		return found;
	}
	for (const entry of entries) {
		if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
		try {
			const cwd = fs.readlinkSync(`/proc/${entry}/cwd`);
			if (cwd === dir || cwd.startsWith(`${dir}/`)) found.push(Number(entry));
		} catch {
			// gone, or not ours to read
		}
	}
	return found;
}
