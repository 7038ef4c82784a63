/*
 * Which error answers of a money write prove that nothing was done (outside r20-money): the one
 * table the outcome machine (outcome.ts answeredOutcome) reads, stated in docs/assumptions.md
 * (choice `answeredRefusal`, contract/choices.ts).
 *
 * The interface document says new codes may be added, that an unknown errorCode is a generic
 * failure of its statusCode, and that the mapping of most codes to statuses is "not shown". An
 * error body proves the service answered, not that it answered before it acted: a timeout
 * interceptor answers 408 while the handler goes on, a failed dependency (the card bridge, the
 * wallet backend, the payout service) is met after the service reserved or debited. So an answer
 * is "not paid" only when its code names a precondition the service checks before it acts, at a
 * status that says refused; everything else that came back after the request left is unknown.
 */

/**
 * Documented codes that name a precondition checked before the service acts: the input, the
 * credential, the permission, the object asked for, the balance, a limit, a cooldown, working
 * hours, a feature not enabled, a quote expired or not found, a state that does not allow it.
 * A 4xx with one of these (at a status not in ANSWERED_UNSURE_STATUSES; at 409 only the
 * NOT_PAID_CONFLICTS) proves nothing was done by this request. A refusal this item's own earlier
 * attempt may have caused is judged apart (outcome.ts ownRefusal, resent.ts), before this table.
 */
export const REFUSAL_CODES: readonly string[] = [
	// Generic
	'VALIDATION_ERROR',
	'BAD_REQUEST',
	'UNAUTHORIZED',
	'FORBIDDEN',
	'NOT_FOUND',
	// Auth
	'AUTH_REQUIRED',
	'INVALID_API_KEY',
	'INVALID_CREDENTIALS',
	'SESSION_INVALID',
	'COMPANY_INACTIVE',
	'NO_COMPANY_MEMBERSHIP',
	'PERMISSION_DENIED',
	'ACCOUNT_ALREADY_EXISTS',
	'COMPANY_NOT_FOUND',
	// Quotes and orders
	'QR_AMOUNT_MISSING',
	'QR_INVALID',
	'AMOUNT_BELOW_MIN',
	'AMOUNT_ABOVE_MAX',
	'ST00012_SUM_MISSING',
	'ST00012_SUM_INVALID',
	'GIBDD_UIN_INVALID',
	'FINE_ALREADY_PAID',
	'FINE_NOT_FOUND',
	'QUOTE_NOT_FOUND',
	'QUOTE_EXPIRED',
	'INSUFFICIENT_BALANCE',
	'ORDER_NOT_FOUND',
	'RATE_UNAVAILABLE',
	'IDEMPOTENCY_KEY_REQUIRED',
	// Disputes
	'DISPUTE_NOT_FOUND',
	'DISPUTE_NOT_ALLOWED',
	// Cards
	'CARDS_NOT_ENABLED',
	'CARD_NOT_FOUND',
	'CARD_REQUEST_NOT_FOUND',
	'CARD_REQUEST_NOT_CANCELABLE',
	'CARD_NOT_ACTIVE',
	'CARD_NOT_OWNED',
	'CARD_RECHARGE_INVALID',
	'CARD_EXTERNAL_ID_TAKEN',
	// Team
	'MEMBER_NOT_FOUND',
	'CANNOT_CHANGE_OWN_ROLE',
	'ROLE_CHANGE_NOT_ALLOWED',
	'INVITE_NOT_FOUND',
	'INVITE_USED',
	'INVITE_EXPIRED',
	'INVITE_INVALID',
	// Webhooks
	'WEBHOOK_DELIVERY_NOT_FOUND',
	'WEBHOOK_URL_NOT_CONFIGURED',
	'INVALID_SIGNATURE',
	// Payouts
	'PAYOUTS_NOT_ENABLED',
	'PAYOUT_NOT_FOUND',
	'PAYOUT_REQUISITE_INVALID',
	'PAYOUT_BANK_UNKNOWN',
	'PAYOUT_BANK_REQUIRED',
	'PAYOUT_ACTIVE_LIMIT',
	'PAYOUT_REQUISITE_COOLDOWN',
	'PAYOUT_OUTSIDE_WORKING_HOURS',
	'PAYOUT_NOT_CANCELABLE',
	'PAYOUT_DISPUTE_NOT_ALLOWED',
];

/**
 * Documented codes of a backend or transient failure: the service, or a system behind it, failed
 * while handling the request, which may be after it reserved, debited, issued or forwarded. Unknown
 * whatever the status they come with (400, 422, 424 …). PAYOUT_SERVICE_REJECTED and
 * QR_RESOLVE_FAILED are the answer of a system the service asks while it handles the request, so
 * they do not show that it had not acted before asking.
 */
export const ACTED_MAYBE_CODES: readonly string[] = [
	'INTERNAL_ERROR',
	'SERVICE_UNAVAILABLE',
	'BAD_GATEWAY',
	'DRIVER_HELPER_TRANSIENT',
	'WALLET_BACKEND_ERROR',
	'UNSUPPORTED_CALLBACK_STATUS',
	'BRIDGE_ERROR',
	'PAYOUT_SERVICE_UNAVAILABLE',
	'PAYOUT_SERVICE_REJECTED',
	'QR_RESOLVE_FAILED',
];

/**
 * Documented codes that name no condition, only the meaning of their status: judged as a code the
 * document does not list, unknown (outside r21-money F3: no condition checked before acting).
 */
export const STATUS_MEANING_CODES: readonly string[] = ['CONFLICT', 'UNPROCESSABLE'];

/**
 * Statuses that do not say the request was refused before it acted, whatever the code: 408 (a
 * timeout interceptor answers while the handler goes on), 423 (locked: perhaps by this request),
 * 424 (a dependency failed after the request was taken on), 425 (too early: a replay the service
 * would not risk), 499 (a proxy's "client closed request"). Every 5xx, every 1xx–3xx and a 409
 * outside NOT_PAID_CONFLICTS are unknown too (outcome.ts answeredOutcome).
 */
export const ANSWERED_UNSURE_STATUSES: readonly number[] = [408, 423, 424, 425, 499];

/**
 * The codes the node reads as the service's own rate limit when they come with HTTP 429 (choice
 * `rateLimit`): the document shows no code for it, so these are the node's choice, the names a
 * limiter answers with before the request is handled. Any other code at 429 is judged as at any
 * other 4xx: a refusal only when it is one of REFUSAL_CODES.
 */
export const RATE_LIMIT_CODES: readonly string[] = ['TOO_MANY_REQUESTS', 'RATE_LIMITED'];

/**
 * How an error answer of a money write is read: a refusal before acting, or unsure. Only a code
 * the document lists as a precondition checked before acting (REFUSAL_CODES), or a rate-limit
 * code at 429 (RATE_LIMIT_CODES), proves a refusal (outside r21-money F3). A code the document
 * does not list, whatever its name (DEADLINE_EXCEEDED, PAYOUT_TIME_OUT, DOWNSTREAM_ERROR …), and
 * a documented one that names no condition (STATUS_MEANING_CODES) say nothing of when the service
 * answered: unsure. A body without a code is no service error body (isServiceErrorBody).
 */
export function answerClass(status: number, code: unknown): 'refused' | 'unsure' {
	if (status < 400 || status > 499 || ANSWERED_UNSURE_STATUSES.includes(status)) return 'unsure';
	if (typeof code !== 'string' || code === '') return 'unsure';
	if (REFUSAL_CODES.includes(code)) return 'refused';
	return status === 429 && RATE_LIMIT_CODES.includes(code) ? 'refused' : 'unsure';
}
