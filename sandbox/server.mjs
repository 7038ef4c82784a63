// Sandbox of the company payments service: a local HTTP simulator for end-to-end tests,
// benchmarks and the demo. Not published (the package ships only dist/).
//
//   import { startSandbox } from './sandbox/server.mjs';
//   const sandbox = await startSandbox({ retryDelaysMs: [0, 20, 40, 80] });
//   ... sandbox.url, sandbox.keys.legacy ...
//   await sandbox.close();
//
// CLI: node sandbox/server.mjs --port 4010 [--host 127.0.0.1] [--order-schedule]
//      [--fast-retries | --retry-delays 0,100,200,400] [--no-seed] [--webhook-url URL] [--quiet]
//      [--legacy-deposit-statuses] [--payouts N] [--profile default|contrary|cap50|JSON]
//      [--generated SEED] (or SANDBOX_SEED=SEED)
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { authenticate, extractCredential, requirePermission } from './lib/auth.mjs';
import { registerCardRoutes } from './lib/cards.mjs';
import { createClock, createScheduler } from './lib/clock.mjs';
import { registerCompanyRoutes } from './lib/company.mjs';
import { registerControlRoutes } from './lib/control.mjs';
import { registerDisputeRoutes } from './lib/disputes.mjs';
import { createGenerated, drawChoices, generatedProfile, lostAnswerOf } from './lib/generated.mjs';
import { ApiError, apiError, errorBody, validationError } from './lib/errors.mjs';
import { randomIds } from './lib/ids.mjs';
import { registerOrderRoutes } from './lib/orders.mjs';
import { registerPayoutRoutes } from './lib/payouts.mjs';
import { PROFILES, resolveProfile } from './lib/profiles.mjs';
import { Router } from './lib/router.mjs';
import { SANDBOX_COMPANY, SANDBOX_KEYS, SANDBOX_MEMBERS, seedState } from './lib/seed.mjs';
import { registerTeamRoutes } from './lib/team.mjs';
import { isPlainObject, redactApiKey } from './lib/util.mjs';
import { registerWalletRoutes } from './lib/wallets.mjs';
import { DEFAULT_RETRY_DELAYS_MS, createWebhooks } from './lib/webhooks.mjs';

export {
	SANDBOX_COMPANY,
	SANDBOX_KEYS,
	SANDBOX_MEMBERS,
	DEFAULT_RETRY_DELAYS_MS,
	PROFILES,
	drawChoices,
};

const MAX_BODY_BYTES = 1024 * 1024;
const FAULT_CODES = {
	429: 'RATE_LIMITED',
	500: 'INTERNAL_ERROR',
	502: 'BAD_GATEWAY',
	503: 'SERVICE_UNAVAILABLE',
	504: 'SERVICE_UNAVAILABLE',
};

function buildRouter() {
	const router = new Router();
	registerCompanyRoutes(router);
	registerOrderRoutes(router);
	registerDisputeRoutes(router);
	registerWalletRoutes(router);
	registerCardRoutes(router);
	registerPayoutRoutes(router);
	registerTeamRoutes(router);
	registerControlRoutes(router);
	return router;
}

function readBody(req) {
	return new Promise((resolveBody, reject) => {
		const chunks = [];
		let size = 0;
		let tooLarge = false;
		req.on('data', (chunk) => {
			size += chunk.length;
			if (size > MAX_BODY_BYTES) tooLarge = true;
			else chunks.push(chunk);
		});
		req.on('end', () =>
			tooLarge
				? reject(apiError(413, 'BAD_REQUEST', 'Тело запроса превышает 1 МБ'))
				: resolveBody(Buffer.concat(chunks)),
		);
		req.on('error', reject);
	});
}

function parseJsonBody(raw) {
	if (raw.length === 0) return {};
	let parsed;
	try {
		parsed = JSON.parse(raw.toString('utf8'));
	} catch {
		throw validationError('Тело запроса не является корректным JSON');
	}
	if (!isPlainObject(parsed)) throw validationError('Тело запроса должно быть JSON-объектом');
	return parsed;
}

/** Consumes one unit of an injected fault if the request matches; returns the fault kind. */
function takeFault(faults, pathname) {
	if (faults.pathPrefix && !pathname.startsWith(faults.pathPrefix))
		return { kind: null, latencyMs: 0 };
	let kind = null;
	if (faults.rejectRequests > 0) {
		faults.rejectRequests -= 1;
		kind = 'reject';
	} else if (faults.dropResponses > 0) {
		faults.dropResponses -= 1;
		kind = 'drop';
	}
	return { kind, latencyMs: faults.latencyMs };
}

/**
 * The answer of an injected fault. A 429 or 503 carries Retry-After: `retryAfter` as set with
 * the faults (seconds, "0" included; null for none; NO_FAULTS in lib/seed.mjs has the default).
 */
function faultError(faults, kind) {
	const { status, retryAfter } = faults;
	const message =
		kind === 'drop'
			? 'Сервис временно недоступен (имитация: запрос выполнен, ответ потерян)'
			: 'Сервис временно недоступен (имитация: запрос не выполнен)';
	return apiError(status, FAULT_CODES[status], message, {
		headers:
			(status === 503 || status === 429) && retryAfter !== null
				? { 'Retry-After': retryAfter }
				: undefined,
	});
}

async function handle(sb, router, req, res) {
	const requestId = `req_${randomUUID()}`;
	const url = new URL(req.url, 'http://sandbox.invalid');
	const isControl = url.pathname === '/__control' || url.pathname.startsWith('/__control/');
	let status = 200;
	let body;
	let headers = {};
	let fault = { kind: null, latencyMs: 0 };
	/** Generated mode: what it drew for this request. */
	let generated = null;
	/** A non-JSON answer `{ status, headers, text }` (generated mode: redirect, proxy 502). */
	let raw = null;
	try {
		const requestBody = await readBody(req);
		if (!isControl) {
			fault = takeFault(sb.state.faults, url.pathname);
			if (fault.latencyMs) await new Promise((r) => setTimeout(r, fault.latencyMs));
			if (fault.kind === 'reject') throw faultError(sb.state.faults, 'reject');
		}
		const match = router.match(req.method, url.pathname);
		if (!isControl && sb.generated) {
			// Generated mode: a proxy, a rate limiter or a moved service may answer first.
			generated = sb.generated.before(req, url, match?.route.pattern ?? url.pathname, requestBody);
			if (generated.respond) throw new GeneratedAnswer(generated.respond);
			if (generated.rateLimited) throw rateLimitError(generated.rateLimited.retryAfter);
		}
		if (!match) throw apiError(404, 'NOT_FOUND', `Маршрут ${req.method} ${url.pathname} не найден`);
		const { route, params } = match;
		const list = isControl ? null : (sb.generated?.listFor(req.method, route.pattern) ?? null);
		const ctx = {
			sb,
			req,
			params,
			query: url.searchParams,
			body: {},
			principal: null,
			company: null,
			list,
		};
		if (route.auth !== 'public') {
			ctx.principal = authenticate(sb, extractCredential(req, url.searchParams));
			ctx.company = ctx.principal.company;
			requirePermission(
				ctx.principal,
				typeof route.permission === 'function' ? route.permission(ctx) : route.permission,
			);
		}
		if (req.method !== 'GET' && req.method !== 'DELETE') ctx.body = parseJsonBody(requestBody);
		if (list) sb.generated.churnBefore(route.pattern, ctx);
		const result = await route.handler(ctx);
		status = result.status ?? 200;
		body = result.body;
		headers = result.headers ?? {};
		if (list && status === 200) body = regenerateList(sb, route.pattern, body, result.total);
		else if (!isControl && req.method === 'GET' && !sb.profile.listTotal) body = withoutTotal(body);
	} catch (err) {
		if (err instanceof GeneratedAnswer) {
			raw = err.answer;
		} else {
			const error = err instanceof ApiError ? err : internalError(err);
			status = error.statusCode;
			headers = error.headers ?? {};
			body = errorBody(error, {
				path: redactApiKey(req.url),
				requestId,
				timestamp: sb.clock.iso(),
			});
		}
	}
	// Generated mode: the service acted, and its answer was lost (lib/generated.mjs LOST_FORMS).
	if (generated?.afterCommit && !raw) raw = generated.afterCommit;
	const dropAs = sb.state.faults.dropAs ?? 'json';
	if (fault.kind === 'drop' && dropAs !== 'json') raw ??= lostAnswerOf(dropAs);
	else if (fault.kind === 'drop') {
		const error = faultError(sb.state.faults, 'drop');
		status = error.statusCode;
		headers = error.headers ?? {};
		body = errorBody(error, { path: redactApiKey(req.url), requestId, timestamp: sb.clock.iso() });
	}
	if (!isControl) sb.publicRequests += 1;
	if (raw?.reset) {
		// Processed, then the connection closes with no answer at all.
		if (generated?.record) generated.record.status = null;
		if (sb.options.log) console.log(`${req.method} ${redactApiKey(req.url)} → connection closed`);
		req.socket.destroy();
		return;
	}
	// Generated mode's money silences: the service's Date header from its own (skewed) clock.
	const date = isControl ? undefined : sb.generated?.money.dateHeader();
	if (date) res.setHeader('Date', date);
	// …or none at all (a proxy that strips it), and record times written the drawn way.
	if (date === null) res.sendDate = false;
	// …or a caching proxy's copy of a record, dated when it was stored (r5-money F1).
	const cached = isControl ? null : sb.generated?.money.cacheHeaders(req.method, req.url);
	for (const [name, value] of Object.entries(cached ?? {})) res.setHeader(name, value);
	if (!isControl && sb.generated) body = sb.generated.money.answered(req.url, body);
	if (raw) {
		if (generated?.record) generated.record.status = raw.status;
		if (sb.options.log) console.log(`${req.method} ${redactApiKey(req.url)} → ${raw.status}`);
		res.writeHead(raw.status, {
			'Content-Length': Buffer.byteLength(raw.text),
			...raw.headers,
		});
		res.end(raw.text);
		return;
	}
	if (generated?.record) generated.record.status = status;
	if (sb.options.log) console.log(`${req.method} ${redactApiKey(req.url)} → ${status}`);
	const payload = JSON.stringify(body ?? null);
	res.writeHead(status, {
		'Content-Type': 'application/json; charset=utf-8',
		'Content-Length': Buffer.byteLength(payload),
		'X-Request-Id': requestId,
		...headers,
	});
	res.end(payload);
}

/** Thrown to answer a request with a non-JSON body drawn in generated mode. */
class GeneratedAnswer extends Error {
	constructor(answer) {
		super('generated answer');
		this.answer = answer;
	}
}

/** Generated mode: 429 with Retry-After (seconds or an HTTP date), not processed. */
function rateLimitError(retryAfter) {
	return apiError(429, 'TOO_MANY_REQUESTS', 'Слишком много запросов, повторите позже', {
		headers: { 'Retry-After': retryAfter },
	});
}

/** Generated mode: a list answer in the list's drawn envelope. */
function regenerateList(sb, pattern, body, total) {
	const records = Array.isArray(body) ? body : Object.values(body).find(Array.isArray);
	const count = Array.isArray(body) ? total : body.total;
	return sb.generated.envelope(pattern, records ?? [], count ?? records?.length ?? 0);
}

/** Profile listTotal false: a list envelope carries only its records. */
function withoutTotal(body) {
	if (!isPlainObject(body) || !('total' in body)) return body;
	if (!Object.values(body).some(Array.isArray)) return body;
	const { total: _total, ...rest } = body;
	return rest;
}

/** A generated-mode seed: a non-empty string or a finite number, or null (off). */
function readSeed(value) {
	if (value === null || value === undefined || value === false || value === '') return null;
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	if (typeof value === 'string' && value.trim() !== '' && value.length <= 64) return value.trim();
	throw validationError('generated: seed должен быть числом или непустой строкой до 64 символов');
}

function internalError(err) {
	console.error('[sandbox] unexpected error:', err);
	return apiError(500, 'INTERNAL_ERROR');
}

/**
 * Starts the sandbox.
 * @param {object} [options]
 * @param {string} [options.host='127.0.0.1']
 * @param {number} [options.port=0] 0 picks a free port
 * @param {number[]} [options.retryDelaysMs=[0,1000,2000,4000]] webhook attempt delays
 * @param {boolean | { inProgressAfterMs?: number, successAfterMs?: number }} [options.orderSchedule=false]
 * @param {boolean | { balanceUsdt?: number, cardStock?: number, companyDeposits?: number, history?: boolean, payouts?: number }} [options.seed=true]
 * @param {number} [options.depositFeeUsdt=1] fee retained from each incoming deposit
 * @param {number} [options.webhookTimeoutMs=5000]
 * @param {string|null} [options.webhookUrl] preset Demo Co webhookUrl
 * @param {string|null} [options.webhookSecret] preset Demo Co webhook secret
 * @param {boolean} [options.depositsInOnePage=false] GET /wallets/deposits ignores limit/offset and answers every deposit
 * @param {boolean} [options.legacyDepositStatuses=false] user-wallet deposits store aml_pass/aml_fail
 * @param {string | object} [options.profile='default'] answers to the contract's open choices:
 *   a name (`default`, `contrary`, `cap50`) or an object of choices, see lib/profiles.mjs
 * @param {number | string | null} [options.generated=null] a seed: generated mode, the contract's
 *   open choices drawn from it per start, per list and per list request (lib/generated.mjs); it
 *   replaces `profile`
 * @param {boolean} [options.log=false] log each request to stdout
 */
export async function startSandbox(options = {}) {
	const opts = {
		host: '127.0.0.1',
		port: 0,
		retryDelaysMs: DEFAULT_RETRY_DELAYS_MS,
		orderSchedule: false,
		seed: true,
		depositFeeUsdt: 1,
		webhookTimeoutMs: 5000,
		webhookUrl: null,
		webhookSecret: null,
		depositsInOnePage: false,
		legacyDepositStatuses: false,
		profile: 'default',
		generated: null,
		log: false,
		...options,
	};
	const generatedSeed = readSeed(opts.generated);
	const profile =
		generatedSeed === null
			? resolveProfile(opts.profile)
			: generatedProfile(drawChoices(generatedSeed));
	const clock = createClock();
	const sb = {
		options: opts,
		clock,
		scheduler: createScheduler(clock),
		ids: randomIds(),
		state: null,
		url: null,
		profile,
		generated: null,
	};
	sb.webhooks = createWebhooks(sb, { timeoutMs: opts.webhookTimeoutMs });
	sb.reset = () => {
		sb.webhooks.cancelAll();
		sb.scheduler.clear();
		clock.resetOffset();
		sb.generated?.reset();
		seedState(sb, opts.seed);
		sb.scheduler.clear();
		// Generated money silences: the service's clock skewed once the state is seeded.
		sb.generated?.money.afterSeed();
		const demo = sb.state.companies.get(SANDBOX_COMPANY.id);
		demo.webhookUrl = opts.webhookUrl;
		demo.webhookSecret = opts.webhookSecret;
	};

	sb.publicRequests = 0;
	const router = buildRouter();
	const server = http.createServer((req, res) => {
		handle(sb, router, req, res).catch((err) => {
			console.error('[sandbox] failed to answer:', err);
			res.destroy();
		});
	});
	await new Promise((resolveListen, reject) => {
		server.once('error', reject);
		server.listen(opts.port, opts.host, () => {
			server.off('error', reject);
			resolveListen();
		});
	});
	const { port } = server.address();
	/** Enters generated mode with a seed (redrawn choices, state reset), or leaves it (null). */
	sb.setGenerated = async (seed) => {
		const next = readSeed(seed);
		const previous = sb.generated;
		sb.generated = next === null ? null : await createGenerated(sb, next, { host: opts.host });
		await previous?.close();
		sb.profile =
			next === null ? resolveProfile(opts.profile) : generatedProfile(sb.generated.choices);
		sb.reset();
		return sb.generated;
	};
	if (generatedSeed !== null) {
		try {
			sb.generated = await createGenerated(sb, generatedSeed, { host: opts.host });
		} catch (err) {
			await new Promise((r) => server.close(() => r()));
			throw err;
		}
	}
	const hostForUrl = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
	sb.url = `http://${hostForUrl}:${port}`;
	try {
		sb.reset();
	} catch (err) {
		sb.webhooks.stop();
		await sb.generated?.close();
		await new Promise((r) => server.close(() => r()));
		throw err;
	}
	sb.scheduler.start();

	let closed = false;
	return {
		url: sb.url,
		port,
		keys: SANDBOX_KEYS,
		company: SANDBOX_COMPANY,
		members: SANDBOX_MEMBERS,
		clock,
		get state() {
			return sb.state;
		},
		/** How many requests the public API (not /__control) has answered since start. */
		get publicRequests() {
			return sb.publicRequests;
		},
		/** The profile in force (answers to the contract's open choices). */
		get profile() {
			return { ...sb.profile };
		},
		/** Switches the profile (same as POST /__control/profile); the state is kept. */
		setProfile: (input) => {
			sb.profile = resolveProfile(input);
			return { ...sb.profile };
		},
		/**
		 * Generated mode (null when off): `seed`, `choices`, `paused` ({ churn, faults }),
		 * `truth(listPattern, companyId)`, `log(sinceSeq)`, `arriveNow(pattern, company, n)`, `seq`.
		 */
		get generated() {
			return sb.generated;
		},
		/** Enters generated mode with a seed, or leaves it with null (same as POST /__control/generated). */
		setGenerated: (seed) => sb.setGenerated(seed),
		/** Rebuilds the seeded state (same as POST /__control/reset). */
		reset: () => sb.reset(),
		/** Resolves when no webhook delivery is pending or in flight. */
		webhooksIdle: (o) => sb.webhooks.idle(o),
		deliveries: () => sb.webhooks.list(),
		routes: router.routes,
		async close() {
			if (closed) return;
			closed = true;
			sb.scheduler.stop();
			sb.webhooks.stop();
			await sb.generated?.close();
			await new Promise((r) => {
				server.close(() => r());
				server.closeAllConnections();
			});
		},
	};
}

function parseArgs(argv) {
	const args = { port: 4010, host: '127.0.0.1', quiet: false };
	for (let i = 0; i < argv.length; i++) {
		const a = argv[i];
		const next = () => argv[++i];
		if (a === '--port') args.port = Number(next());
		else if (a === '--host') args.host = next();
		else if (a === '--order-schedule') args.orderSchedule = true;
		else if (a === '--fast-retries') args.retryDelaysMs = [0, 100, 200, 400];
		else if (a === '--retry-delays') args.retryDelaysMs = next().split(',').map(Number);
		else if (a === '--no-seed') args.seed = args.seed ? { ...args.seed, history: false } : false;
		else if (a === '--webhook-url') args.webhookUrl = next();
		else if (a === '--legacy-deposit-statuses') args.legacyDepositStatuses = true;
		else if (a === '--payouts')
			args.seed = { ...(args.seed === false ? { history: false } : {}), payouts: Number(next()) };
		else if (a === '--generated' || a === '--seed') args.generated = next();
		else if (a === '--profile') {
			const value = next();
			args.profile = value.startsWith('{') ? JSON.parse(value) : value;
		} else if (a === '--quiet') args.quiet = true;
		else if (a === '--help' || a === '-h') args.help = true;
		else throw new Error(`unknown argument: ${a}`);
	}
	return args;
}

async function main() {
	const args = parseArgs(process.argv.slice(2));
	if (args.help) {
		console.log(
			'usage: node sandbox/server.mjs [--port 4010] [--host 127.0.0.1] [--order-schedule]\n' +
				'       [--fast-retries | --retry-delays 0,1000,2000,4000] [--no-seed] [--webhook-url URL] [--quiet]\n' +
				'       [--legacy-deposit-statuses] [--payouts N] [--profile NAME|JSON]\n' +
				'       [--generated SEED]   (or SANDBOX_SEED=SEED: generated mode, see sandbox/README.md)',
		);
		return;
	}
	const { quiet, help: _help, ...options } = args;
	// SANDBOX_SEED=<n> starts generated mode like --generated <n> (the flag wins).
	if (options.generated === undefined && process.env.SANDBOX_SEED) {
		options.generated = process.env.SANDBOX_SEED;
	}
	const sandbox = await startSandbox({ ...options, log: !quiet });
	console.log(`Company payments sandbox listening on ${sandbox.url}`);
	console.log(`  control API: ${sandbox.url}/__control/state`);
	console.log(`  profile: ${JSON.stringify(sandbox.profile)}`);
	if (sandbox.generated) {
		console.log(
			`  generated mode, seed ${sandbox.generated.seed}: ${sandbox.url}/__control/generated`,
		);
		console.log(`  choices: ${JSON.stringify(sandbox.generated.choices)}`);
	}
	console.log('  keys:');
	for (const [name, key] of Object.entries(SANDBOX_KEYS))
		console.log(`    ${name.padEnd(13)} ${key}`);
	console.log(`  company login: ${SANDBOX_COMPANY.email} / ${SANDBOX_COMPANY.password}`);
	const stop = async (signal) => {
		console.log(`\n${signal}: stopping sandbox`);
		await sandbox.close();
		process.exit(0);
	};
	process.once('SIGINT', () => void stop('SIGINT'));
	process.once('SIGTERM', () => void stop('SIGTERM'));
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
	main().catch((err) => {
		console.error(err);
		process.exit(1);
	});
}
