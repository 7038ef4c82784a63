/**
 * A small Redis client speaking RESP2 (the Redis serialisation protocol) for the few commands the
 * trigger's delivery store needs: AUTH, SELECT, SET … NX PX, GET, DEL and PING. No dependency:
 * it writes and reads bytes on a socket that the caller supplies (`SocketFactory`), so the
 * protocol here is plain code that unit tests drive against a real redis-server.
 *
 * Timing uses the socket's own inactivity timer (`socket.setTimeout`), not global timers: while
 * a command waits for its reply, a socket that stays silent for `timeoutMs` counts as failed,
 * is destroyed, and every command waiting on it fails with `RedisUnavailableError`. The next
 * command opens a new connection (and authenticates and selects the database again).
 */

/** The part of a Node.js `net.Socket` the client uses. */
export interface RedisSocket {
	connect(port: number, host: string): unknown;
	write(data: string): unknown;
	setTimeout(ms: number): unknown;
	setNoDelay?(noDelay?: boolean): unknown;
	destroy(): unknown;
	on(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
	on(event: 'connect' | 'timeout' | 'close', listener: () => void): unknown;
	on(event: 'error', listener: (error: Error) => void): unknown;
}

/** Makes a new, unconnected socket. */
export type SocketFactory = () => RedisSocket;

export interface RedisSettings {
	host: string;
	port: number;
	/** Redis 6 ACL user; AUTH with the password only when absent. */
	username?: string;
	password?: string;
	/** Database index (SELECT); 0 when absent. */
	db?: number;
	/** How long a connection attempt or a reply may take, in ms. */
	timeoutMs: number;
}

export type RespValue = string | number | null | RespValue[] | RedisReplyError;

/** An error reply of the server (`-ERR …`, `-WRONGPASS …`, `-MOVED …`). */
export class RedisReplyError extends Error {
	/** The first word of the reply, e.g. ERR, WRONGPASS, NOAUTH, MOVED. */
	readonly code: string;

	constructor(text: string) {
		super(text);
		this.name = 'RedisReplyError';
		const space = text.indexOf(' ');
		this.code = space === -1 ? text : text.slice(0, space);
	}
}

/**
 * Redis did not answer: refused, reset, timed out, or the connection closed while a command
 * waited. `maybeApplied` says whether the command may have reached the server before that (it
 * was written on an open connection), so a write's outcome is unknown.
 */
export class RedisUnavailableError extends Error {
	readonly maybeApplied: boolean;

	constructor(message: string, maybeApplied: boolean) {
		super(message);
		this.name = 'RedisUnavailableError';
		this.maybeApplied = maybeApplied;
	}
}

/** One command as RESP: an array of bulk strings. */
export function encodeCommand(args: ReadonlyArray<string | number>): string {
	let out = `*${args.length}\r\n`;
	for (const arg of args) {
		const text = String(arg);
		out += `$${Buffer.byteLength(text, 'utf8')}\r\n${text}\r\n`;
	}
	return out;
}

const CR = 13;

/**
 * Incremental reader of RESP2 replies: feed it chunks as they arrive, take out every complete
 * reply. A reply split across chunks waits for the rest.
 */
export class RespReader {
	private buffer: Buffer = Buffer.alloc(0);

	push(chunk: Uint8Array): RespValue[] {
		this.buffer =
			this.buffer.length === 0 ? Buffer.from(chunk) : Buffer.concat([this.buffer, chunk]);
		const replies: RespValue[] = [];
		let offset = 0;
		for (;;) {
			const parsed = this.parse(offset);
			if (parsed === undefined) break;
			replies.push(parsed.value);
			offset = parsed.next;
		}
		if (offset > 0) this.buffer = this.buffer.subarray(offset);
		return replies;
	}

	/** The end of the line starting at `from` (index of its CR), or -1 when not complete yet. */
	private lineEnd(from: number): number {
		for (let i = from; i + 1 < this.buffer.length; i++) {
			if (this.buffer[i] === CR && this.buffer[i + 1] === 10) return i;
		}
		return -1;
	}

	private parse(offset: number): { value: RespValue; next: number } | undefined {
		if (offset >= this.buffer.length) return undefined;
		const end = this.lineEnd(offset + 1);
		if (end === -1) return undefined;
		const type = String.fromCharCode(this.buffer[offset]);
		const line = this.buffer.toString('utf8', offset + 1, end);
		const afterLine = end + 2;
		switch (type) {
			case '+':
				return { value: line, next: afterLine };
			case '-':
				return { value: new RedisReplyError(line), next: afterLine };
			case ':':
				return { value: Number(line), next: afterLine };
			case '$': {
				const length = Number(line);
				if (length < 0) return { value: null, next: afterLine };
				if (this.buffer.length < afterLine + length + 2) return undefined;
				return {
					value: this.buffer.toString('utf8', afterLine, afterLine + length),
					next: afterLine + length + 2,
				};
			}
			case '*': {
				const count = Number(line);
				if (count < 0) return { value: null, next: afterLine };
				const items: RespValue[] = [];
				let next = afterLine;
				for (let i = 0; i < count; i++) {
					const item = this.parse(next);
					if (item === undefined) return undefined;
					items.push(item.value);
					next = item.next;
				}
				return { value: items, next };
			}
			default:
				throw new RedisUnavailableError(
					`Redis answered something that is not RESP (first byte ${JSON.stringify(type)})`,
					true,
				);
		}
	}
}

interface Pending {
	resolve: (value: RespValue) => void;
	reject: (error: Error) => void;
}

/** One TCP connection and the replies it still owes, in order. */
class Connection {
	readonly pending: Pending[] = [];

	private readonly reader = new RespReader();

	private alive = true;

	private connected = false;

	constructor(
		private readonly socket: RedisSocket,
		private readonly settings: RedisSettings,
		private readonly onDead: (connection: Connection) => void,
	) {
		socket.on('data', (chunk) => this.onData(chunk));
		socket.on('error', (error) => this.fail(`${error.message}`));
		socket.on('close', () => this.fail('the connection closed'));
		socket.on('timeout', () => {
			if (!this.connected || this.pending.length > 0) {
				this.fail(
					this.connected
						? `no answer within ${settings.timeoutMs} ms`
						: `could not connect within ${settings.timeoutMs} ms`,
				);
			}
		});
	}

	get isAlive(): boolean {
		return this.alive;
	}

	/** Connects, then authenticates and selects the database; rejects with the reason it could not. */
	async open(): Promise<void> {
		const { host, port, timeoutMs } = this.settings;
		this.socket.setTimeout(timeoutMs);
		const connected = new Promise<void>((resolve, reject) => {
			this.socket.on('connect', () => {
				this.connected = true;
				resolve();
			});
			this.pending.push({ resolve: () => resolve(), reject });
		});
		this.socket.connect(port, host);
		await connected;
		this.pending.shift();
		this.socket.setNoDelay?.(true);
		const handshake: Array<Promise<RespValue>> = [];
		const { username, password, db } = this.settings;
		if (password !== undefined && password !== '') {
			handshake.push(
				this.send(username ? ['AUTH', username, password] : ['AUTH', password], false),
			);
		}
		if (db !== undefined && db !== 0) handshake.push(this.send(['SELECT', db], false));
		if (handshake.length === 0) {
			this.idle();
			return;
		}
		const replies = await Promise.all(handshake);
		for (const reply of replies) {
			if (reply instanceof RedisReplyError) {
				this.close();
				throw reply;
			}
		}
		this.idle();
	}

	/** Writes one command and resolves with its reply (an error reply resolves, too). */
	send(args: ReadonlyArray<string | number>, armTimer = true): Promise<RespValue> {
		if (!this.alive) {
			return Promise.reject(new RedisUnavailableError('the connection is closed', false));
		}
		const reply = new Promise<RespValue>((resolve, reject) => {
			this.pending.push({ resolve, reject });
		});
		if (armTimer && this.pending.length === 1) this.socket.setTimeout(this.settings.timeoutMs);
		this.socket.write(encodeCommand(args));
		return reply;
	}

	close(): void {
		if (!this.alive) return;
		this.fail('closed by the client');
	}

	private idle(): void {
		if (this.pending.length === 0) this.socket.setTimeout(0);
	}

	private onData(chunk: Uint8Array): void {
		let replies: RespValue[];
		try {
			replies = this.reader.push(chunk);
		} catch (error) {
			this.fail((error as Error).message);
			return;
		}
		for (const reply of replies) this.pending.shift()?.resolve(reply);
		if (this.pending.length === 0) this.socket.setTimeout(0);
		else this.socket.setTimeout(this.settings.timeoutMs);
	}

	private fail(reason: string): void {
		const wasConnected = this.connected;
		if (this.alive) {
			this.alive = false;
			this.socket.destroy();
			this.onDead(this);
		}
		const waiting = this.pending.splice(0);
		for (const entry of waiting) {
			entry.reject(
				new RedisUnavailableError(
					`Redis at ${this.settings.host}:${this.settings.port}: ${reason}`,
					wasConnected,
				),
			);
		}
	}
}

/**
 * A client on one Redis: at most one connection, opened on first use and again after it fails.
 * Commands are pipelined on it (written at once, replies matched in order).
 */
export interface RedisClientHooks {
	/**
	 * Runs on every new connection, after AUTH and SELECT and before any other command uses it;
	 * `send` writes on that connection. A failure closes the connection and fails the command.
	 */
	onConnect?: (send: (args: ReadonlyArray<string | number>) => Promise<RespValue>) => Promise<void>;
	/** Called once when an open connection is lost. */
	onDisconnect?: () => void;
}

export class RedisClient {
	private connection: Connection | undefined;

	private opening: Promise<Connection> | undefined;

	constructor(
		readonly settings: RedisSettings,
		private readonly newSocket: SocketFactory,
		private readonly hooks: RedisClientHooks = {},
	) {}

	/** Sends one command; resolves with the reply, or rejects (RedisUnavailableError, or the reply error). */
	async command(args: ReadonlyArray<string | number>): Promise<RespValue> {
		const connection = await this.connect();
		const reply = await connection.send(args);
		if (reply instanceof RedisReplyError) throw reply;
		return reply;
	}

	async ping(): Promise<boolean> {
		return (await this.command(['PING'])) === 'PONG';
	}

	/** Closes the connection; the next command opens a new one. */
	close(): void {
		this.connection?.close();
		this.connection = undefined;
	}

	private async connect(): Promise<Connection> {
		if (this.connection?.isAlive) return this.connection;
		if (this.opening) return await this.opening;
		let established = false;
		const connection = new Connection(this.newSocket(), this.settings, (dead) => {
			if (this.connection === dead) this.connection = undefined;
			if (established) this.hooks.onDisconnect?.();
		});
		const { onConnect } = this.hooks;
		this.opening = connection.open().then(
			async () => {
				if (onConnect) {
					await onConnect(async (args) => {
						const reply = await connection.send(args);
						if (reply instanceof RedisReplyError) throw reply;
						return reply;
					});
				}
				established = true;
				return connection;
			},
			(error: Error) => {
				connection.close();
				throw error instanceof RedisReplyError || error instanceof RedisUnavailableError
					? error
					: new RedisUnavailableError(error.message, false);
			},
		);
		try {
			this.connection = await this.opening;
			return this.connection;
		} finally {
			this.opening = undefined;
		}
	}
}
