// Idempotency-Key handling for money-moving requests. A stored response is keyed by
// company + operation + key and replayed verbatim (status and body). Only successful
// (2xx) responses are stored: a request that failed did not move money and may be retried.
import { apiError, validationError } from './errors.mjs';

export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

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
	const store = ctx.sb.state.idempotency;
	const storeKey = `${ctx.company.id}\u0000${scope}\u0000${key}`;
	const stored = store.get(storeKey);
	if (stored) {
		return {
			status: stored.status,
			body: structuredClone(stored.body),
			headers: { 'Idempotent-Replayed': 'true' },
		};
	}
	const result = await run();
	const status = result.status ?? 200;
	if (status >= 200 && status < 300) {
		store.set(storeKey, {
			status,
			body: structuredClone(result.body),
			storedAt: ctx.sb.clock.iso(),
		});
	}
	return result;
}
