// Small helpers shared by the host's modules: log files, elapsed time, the default log line.
import fs from 'node:fs';
import path from 'node:path';

export function defaultLog(message) {
	process.stderr.write(`[n8n-host] ${message}\n`);
}

/** Appends to `file` and returns the byte offset where this run's output starts. */
export function openLog(file, header) {
	fs.mkdirSync(path.dirname(file), { recursive: true });
	fs.appendFileSync(file, `\n===== ${header} (${new Date().toISOString()}) =====\n`);
	return fs.statSync(file).size;
}

export function readFrom(file, offset = 0) {
	try {
		const fd = fs.openSync(file, 'r');
		try {
			const size = fs.fstatSync(fd).size;
			const buf = Buffer.alloc(Math.max(0, size - offset));
			fs.readSync(fd, buf, 0, buf.length, offset);
			return buf.toString('utf8');
		} finally {
			fs.closeSync(fd);
		}
	} catch {
		return '';
	}
}

export function tail(fileOrText, lines, isText = false) {
	const text = isText ? fileOrText : readFrom(fileOrText, 0);
	return text.split('\n').slice(-lines).join('\n');
}

/** Waits until `check()` is truthy; throws with `describe()` after `timeoutMs`, or once `exitInfo()` says the process exited. */
export async function waitUntil(check, { timeoutMs, what, exitInfo, describe = () => '' }) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const exit = exitInfo?.();
		if (exit) {
			throw new Error(`${what}: the process exited (${JSON.stringify(exit)})\n${describe()}`);
		}
		const value = await check();
		if (value) return value;
		if (Date.now() > deadline) {
			throw new Error(`${what}: not ready within ${timeoutMs} ms\n${describe()}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}

export function elapsed(since) {
	const s = Math.round((Date.now() - since) / 1000);
	return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}
