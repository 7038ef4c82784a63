// Idempotency-Key handling for money-moving requests. A stored response is replayed verbatim
// (status and body) with `Idempotent-Replayed: true`. What a key is unique within, and whether
// failures are stored, are profile choices (see profiles.mjs): by default a key is unique per
// company and operation, and only successful (2xx) responses are stored, since a request that
// failed did not move money and may be retried.
import { ApiError, apiError, validationError } from './errors.mjs';

export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/**
 * The writes the interface document promises to replay by key: Accept Quote only. Card Request
 * requires a key ("unique per attempt") without promising a stored answer for a repeat. For the
 * others generated mode may draw a service that ignores the key (`lostAnswer.keysIgnored`): a
 * client that re-sends them after a lost answer then pays twice.
 */
const REPLAY_PROMISED = new Set(['orders.accept']);

/** The store key for the profile's idempotencyScope. */
function storeKeyFor(ctx, scope, key) {
	const { idempotencyScope } = ctx.sb.profile;
	if (idempotencyScope === 'company') return `${ctx.company.id}\u0000*\u0000${key}`;
	if (idempotencyScope === 'path') {
		const pathname = new URL(ctx.req.url, 'http://sandbox.invalid').pathname;
		return `${ctx.company.id}\u0000${ctx.req.method} ${pathname}\u0000${key}`;
	}
	return `${ctx.company.id}\u0000${scope}\u0000${key}`;
}

/** What a request asks: its method, path and body, so a key reused for another one is seen. */
function requestOf(ctx) {
	const pathname = new URL(ctx.req.url, 'http://sandbox.invalid').pathname;
	return `${ctx.req.method} ${pathname} ${JSON.stringify(ctx.body ?? {})}`;
}

/**
 * @param ctx request context
 * @param {string} scope operation name, e.g. 'orders.accept'
 * @param {{ required: boolean }} rules
 * @param {() => Promise<object> | object} run produces { status, body }
 */
export async function withIdempotency(ctx, scope, { required }, run) {
	const key = ctx.req.headers['idempotency-key'];
	if (key === undefined || key === '') {
		if (required) throw apiError(400, 'IDEMPOTENCY_KEY_REQUIRED');
		return run();
	}
	if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
		throw validationError(
			`Idempotency-Key не должен быть длиннее ${MAX_IDEMPOTENCY_KEY_LENGTH} символов`,
		);
	}
	// A service that promises no replay by key: every request is new. Set by the faults
	// (ignoreIdempotencyKeys, optionally for one path) or drawn by generated mode (lostAnswer).
	const { ignoreIdempotencyKeys, pathPrefix } = ctx.sb.state.faults;
	const pathname = new URL(ctx.req.url, 'http://sandbox.invalid').pathname;
	if (ignoreIdempotencyKeys && (!pathPrefix || pathname.startsWith(pathPrefix))) return run();
	if (!REPLAY_PROMISED.has(scope) && ctx.sb.generated?.choices.lostAnswer?.keysIgnored) {
		return run();
	}
	const store = ctx.sb.state.idempotency;
	const storeKey = storeKeyFor(ctx, scope, key);
	const stored = store.get(storeKey);
	const replayed = { 'Idempotent-Replayed': 'true' };
	// Generated money silence `reusedKey: refused`: a key used before for another request (another
	// path or body) is refused instead of answered with the first request's result.
	const asked = requestOf(ctx);
	if (stored && stored.asked !== undefined && stored.asked !== asked) {
		if (ctx.sb.generated?.money.refusesReusedKey()) {
			throw apiError(
				422,
				'IDEMPOTENCY_KEY_REUSED',
				'Ключ идемпотентности уже использован для другого запроса',
			);
		}
	}
	if (stored?.error) {
		const { statusCode, errorCode, apiMessage, details, required: req, headers } = stored.error;
		throw apiError(statusCode, errorCode, apiMessage, {
			details,
			required: req,
			headers: { ...headers, ...replayed },
		});
	}
	// Generated money silence `resendRefusal` (r4-money-resend): the repeat of a carried-out accept
	// refused (429, or INSUFFICIENT_BALANCE the first accept's reservation causes) instead of replayed.
	const refusal = stored ? ctx.sb.generated?.money.refusesResend(scope) : null;
	if (refusal) {
		throw apiError(refusal.status, refusal.errorCode, undefined, { headers: refusal.headers });
	}
	if (stored) {
		return { status: stored.status, body: structuredClone(stored.body), headers: replayed };
	}
	let result;
	try {
		result = await run();
	} catch (err) {
		if (err instanceof ApiError && ctx.sb.profile.idempotencyStoresFailures) {
			store.set(storeKey, { error: err, storedAt: ctx.sb.clock.iso(), asked });
		}
		throw err;
	}
	const status = result.status ?? 200;
	if ((status >= 200 && status < 300) || ctx.sb.profile.idempotencyStoresFailures) {
		store.set(storeKey, {
			status,
			body: structuredClone(result.body),
			storedAt: ctx.sb.clock.iso(),
			asked,
		});
	}
	return result;
}
