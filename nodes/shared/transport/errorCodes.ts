/**
 * English explanations of the service's errorCode values: codes and HTTP meaning only. What a
 * money write's outcome is, and the node's own money codes, are worded in the money module
 * (../money/words.ts), never here. The service's own `message` is
 * Russian; n8n shows both. A code missing here is treated as a generic failure of its HTTP
 * status, as the interface document asks.
 */
export const ERROR_EXPLANATIONS: Record<string, string> = {
	// Generic
	VALIDATION_ERROR: 'The service rejected one or more input fields',
	BAD_REQUEST: 'The service could not accept this request as sent',
	UNAUTHORIZED: 'The service did not accept the credentials',
	FORBIDDEN: 'This action is not allowed for this key or account',
	NOT_FOUND: 'The requested object does not exist',
	CONFLICT: 'The request conflicts with the current state of the object',
	UNPROCESSABLE: 'The service understood the request but cannot carry it out in the current state',
	INTERNAL_ERROR: 'The service failed internally; retrying later may help',
	SERVICE_UNAVAILABLE: 'The service is temporarily unavailable; retry later',
	BAD_GATEWAY: 'An upstream system of the service failed; retry later',
	// Auth
	AUTH_REQUIRED: 'No API key or session token reached the service',
	INVALID_API_KEY:
		'The API key is unknown or was replaced (company login and "regenerate key" invalidate the old key)',
	INVALID_CREDENTIALS: 'The e-mail or password is wrong',
	SESSION_INVALID: 'The session token is expired or malformed',
	COMPANY_INACTIVE: 'The company is disabled',
	NO_COMPANY_MEMBERSHIP: 'This user is not a member of the company',
	PERMISSION_DENIED: 'The API key lacks a permission this operation needs',
	ACCOUNT_ALREADY_EXISTS: 'An account with this e-mail already exists',
	COMPANY_NOT_FOUND: 'The company does not exist',
	// Quotes and orders
	QR_AMOUNT_MISSING: 'The QR code carries no amount',
	QR_INVALID: 'The QR code is not a supported NSPK, ST00012 or traffic-fine code',
	QR_RESOLVE_FAILED: 'The service could not resolve the QR code with the payment system',
	AMOUNT_BELOW_MIN: 'The amount is below the minimum order amount',
	AMOUNT_ABOVE_MAX: 'The amount is above the maximum order amount',
	ST00012_SUM_MISSING: 'The ST00012 payment code carries no sum',
	ST00012_SUM_INVALID: 'The sum in the ST00012 payment code is invalid',
	GIBDD_UIN_INVALID: 'The traffic-fine UIN is invalid',
	FINE_ALREADY_PAID: 'This traffic fine is already paid',
	FINE_NOT_FOUND: 'No traffic fine was found for this UIN',
	QUOTE_NOT_FOUND: 'The quote does not exist (quotes live 30 seconds and are used once)',
	QUOTE_EXPIRED:
		'The quote expired before it was accepted (quotes live 30 seconds); prepare a new quote',
	INSUFFICIENT_BALANCE: 'The company balance is too low for this payment',
	ORDER_NOT_FOUND: 'The order does not exist in this company',
	RATE_UNAVAILABLE: 'No exchange rate is available right now; retry later',
	IDEMPOTENCY_KEY_REQUIRED: 'This operation needs an Idempotency-Key header',
	// Disputes and backend
	UNSUPPORTED_CALLBACK_STATUS: 'The wallet backend reported a status the service does not support',
	DRIVER_HELPER_TRANSIENT: 'A transient backend failure occurred; retry later',
	WALLET_BACKEND_ERROR: 'The wallet backend failed; retry later',
	DISPUTE_NOT_FOUND: 'The dispute does not exist',
	DISPUTE_NOT_ALLOWED:
		'A dispute can be opened only on a completed order (status success or failed)',
	// Cards
	CARDS_NOT_ENABLED: 'Cards are not enabled for this company',
	CARD_NOT_FOUND: 'The card does not exist in this company',
	CARD_REQUEST_NOT_FOUND: 'The card request does not exist',
	CARD_REQUEST_NOT_CANCELABLE: 'The card request can no longer be cancelled',
	CARD_NOT_ACTIVE: 'The card is not active (status must be assigned)',
	CARD_NOT_OWNED: 'The card belongs to another company',
	CARD_RECHARGE_INVALID: 'The recharge request is invalid',
	CARD_EXTERNAL_ID_TAKEN: 'Another card of this company already uses this external ID',
	BRIDGE_ERROR: 'The card issuer bridge failed; retry later',
	// Team
	MEMBER_NOT_FOUND: 'The member does not exist in this company',
	CANNOT_CHANGE_OWN_ROLE: 'A member cannot change their own role',
	ROLE_CHANGE_NOT_ALLOWED: 'Only an owner can change the role of an owner',
	INVITE_NOT_FOUND: 'The invite does not exist',
	INVITE_USED: 'The invite was already accepted, so it cannot be used or revoked',
	INVITE_EXPIRED: 'The invite expired (invites are valid 7 days)',
	INVITE_INVALID: 'The invite cannot be used this way (e.g. it names another e-mail)',
	// Webhooks
	WEBHOOK_DELIVERY_NOT_FOUND: 'The webhook delivery does not exist',
	WEBHOOK_URL_NOT_CONFIGURED: 'The company has no webhook URL configured',
	INVALID_SIGNATURE: 'The signature is invalid',
	// Payouts
	PAYOUTS_NOT_ENABLED: 'Payouts are not enabled for this company',
	PAYOUT_NOT_FOUND: 'The payout does not exist in this company',
	PAYOUT_REQUISITE_INVALID: 'The card number or phone number of the recipient is invalid',
	PAYOUT_BANK_UNKNOWN: 'The bank is unknown',
	PAYOUT_BANK_REQUIRED: 'A bank is required for this requisite',
	PAYOUT_ACTIVE_LIMIT: 'Too many payouts are active at once; wait for some to finish',
	PAYOUT_REQUISITE_COOLDOWN: 'This requisite was paid recently; wait before paying it again',
	PAYOUT_OUTSIDE_WORKING_HOURS: 'Payouts are not accepted at this hour',
	PAYOUT_NOT_CANCELABLE:
		'The payout can no longer be cancelled: an executor has already taken it (cancel works only while it is waiting_trader)',
	PAYOUT_DISPUTE_NOT_ALLOWED: 'A dispute is not allowed for this payout',
	PAYOUT_SERVICE_REJECTED: 'The payout service rejected the payout',
	PAYOUT_SERVICE_UNAVAILABLE: 'The payout service is unavailable; retry later',
};

/** Explanation for an HTTP status when the errorCode is missing or not known to this package. */
export function explainStatus(status: number): string {
	if (status === 400) return 'The service rejected the request';
	if (status === 401) return 'The service did not accept the API key';
	if (status === 403) return 'This key may not perform this action';
	if (status === 404) return 'The requested object or endpoint does not exist';
	if (status === 409) return 'The request conflicts with the current state';
	if (status === 410) return 'The requested object is gone';
	if (status === 422) return 'The service cannot carry out this request in the current state';
	if (status === 429) return 'Too many requests; retry later';
	if (status >= 500) return 'The service failed to process the request; retry later';
	return `The service answered with HTTP ${status}`;
}
