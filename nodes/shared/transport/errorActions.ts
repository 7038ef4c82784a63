/**
 * What a user does about each errorCode of the interface document. Keyed exactly like
 * `ERROR_EXPLANATIONS` (a unit test keeps the two tables on the same codes); `docs/errors.md`
 * is generated from both by `scripts/docs.mjs`, and n8n shows the action under the error.
 */
export const ERROR_ACTIONS: Record<string, string> = {
	// Generic
	VALIDATION_ERROR:
		'Read the service message and details: they name the field; correct it in the node',
	BAD_REQUEST:
		'Check the node fields against the operation; the service message says what it refused',
	UNAUTHORIZED: 'Check the API key in the credential (run its test)',
	FORBIDDEN: 'Use a key of a member allowed to do this, or ask an owner to grant it',
	NOT_FOUND: 'Check the ID in the node; it may belong to another company or environment',
	CONFLICT:
		'Read the current state of the object (a Get operation) and retry only if it still applies',
	UNPROCESSABLE: 'Read the object first and act only in a state the operation allows',
	INTERNAL_ERROR:
		'A read: retry later; if it persists, give the service the Request ID. A money write answered with it is paymentOutcome unknown, whatever its HTTP status (the service may have acted before it failed): run Payment → Resolve Outcome before trying again (Retry On Fail sends nothing again)',
	SERVICE_UNAVAILABLE:
		'A read: retry later (n8n: Retry On Fail with a wait). A money write answered with it is paymentOutcome unknown, whatever its HTTP status (the service may have acted before it failed): run Payment → Resolve Outcome before trying again (Retry On Fail sends nothing again)',
	BAD_GATEWAY:
		'A read: retry later (n8n: Retry On Fail with a wait). A money write answered with it is paymentOutcome unknown, whatever its HTTP status (the service may have acted before it failed): run Payment → Resolve Outcome before trying again (Retry On Fail sends nothing again)',
	// Auth
	AUTH_REQUIRED: 'Set an API key in the credential',
	INVALID_API_KEY:
		'Put the current key into the credential (after a login or "Regenerate API Key" the old one stops working)',
	INVALID_CREDENTIALS: 'Check the e-mail and password',
	SESSION_INVALID: 'Get a new session token (accept an invite or log in again), or use an API key',
	COMPANY_INACTIVE: 'Ask the service to re-enable the company; no request will work until then',
	NO_COMPANY_MEMBERSHIP: 'Use the key of a current member of the company',
	PERMISSION_DENIED:
		'Grant the permission named in "required" to this member (Member → Update) or use another key',
	ACCOUNT_ALREADY_EXISTS: 'Use another e-mail, or log in with the existing account',
	COMPANY_NOT_FOUND: 'Check the credential: the key belongs to no existing company',
	// Quotes and orders
	QR_AMOUNT_MISSING: 'Use a QR code that carries an amount',
	QR_INVALID: 'Pass the QR code text exactly as scanned (NSPK/SBP, ST00012 or a traffic-fine UIN)',
	QR_RESOLVE_FAILED:
		'Retry later; if it persists, the QR code may be outdated. A money write answered with it is paymentOutcome unknown, whatever its HTTP status (the service may have acted before it failed): run Payment → Resolve Outcome before trying again (Retry On Fail sends nothing again)',
	AMOUNT_BELOW_MIN: 'Pay a larger amount; details may carry minAmountRub',
	AMOUNT_ABOVE_MAX: 'Split the payment or pay a smaller amount',
	ST00012_SUM_MISSING: 'Use a payment code that carries the sum (Sum=...)',
	ST00012_SUM_INVALID: 'Use the payment code exactly as issued; its Sum field is not valid',
	GIBDD_UIN_INVALID: 'Check the UIN of the fine as printed on the decree',
	FINE_ALREADY_PAID: 'Nothing to pay; mark the fine as settled in your flow',
	FINE_NOT_FOUND: 'Check the UIN; a new fine can take a few days to appear',
	QUOTE_NOT_FOUND:
		'Prepare a new quote and accept it within 30 seconds (Order → Pay QR Code does both)',
	QUOTE_EXPIRED:
		'Prepare a new quote and accept it within 30 seconds (Order → Pay QR Code does both)',
	INSUFFICIENT_BALANCE: 'Top up the company wallet (Company Wallet → Get Address) or pay less',
	ORDER_NOT_FOUND: 'Check the order ID; it may belong to another company or environment',
	RATE_UNAVAILABLE: 'Retry in a few minutes',
	IDEMPOTENCY_KEY_REQUIRED:
		'Leave Idempotency Key empty for the node to derive one, or set your own',
	// Disputes and backend
	UNSUPPORTED_CALLBACK_STATUS:
		'Nothing to change on your side; report the Request ID to the service',
	DRIVER_HELPER_TRANSIENT:
		'A read: retry later (n8n: Retry On Fail with a wait). A money write answered with it is paymentOutcome unknown, whatever its HTTP status (the service may have acted before it failed): run Payment → Resolve Outcome before trying again (Retry On Fail sends nothing again)',
	WALLET_BACKEND_ERROR:
		'A read: retry later; if it persists, give the service the Request ID. A money write answered with it is paymentOutcome unknown, whatever its HTTP status (the service may have acted before it failed): run Payment → Resolve Outcome before trying again (Retry On Fail sends nothing again)',
	DISPUTE_NOT_FOUND: 'Check the dispute ID (Dispute → Get Many lists them)',
	DISPUTE_NOT_ALLOWED:
		'Wait until the order is success or failed (Order → Get), then open the dispute',
	// Cards
	CARDS_NOT_ENABLED: 'Ask the service to enable cards for the company',
	CARD_NOT_FOUND: 'Check the card ID (Card → Get Many lists them)',
	CARD_REQUEST_NOT_FOUND: 'Check the card request ID',
	CARD_REQUEST_NOT_CANCELABLE: 'The request was already fulfilled or closed; read the card instead',
	CARD_NOT_ACTIVE: 'Act on the card only while its status is assigned (Card → Get)',
	CARD_NOT_OWNED: 'Use a card of this company',
	CARD_RECHARGE_INVALID: 'Check the card ID and Target Amount (get a Recharge Quote first)',
	CARD_EXTERNAL_ID_TAKEN:
		'Use another External ID, or read the existing card (Card → Get Many with that External ID)',
	BRIDGE_ERROR:
		'A read (Card → Get Balance): retry later (Retry On Fail with a wait). A Card Request or Card Recharge answered with it is paymentOutcome unknown, whatever its HTTP status (the card may have been issued or loaded before the bridge failed): the document promises no stored result for its key, so look it up with Payment → Resolve Outcome before trying again (Retry On Fail sends nothing again)',
	// Team
	MEMBER_NOT_FOUND: 'Check the member ID (Member → Get Many lists them)',
	CANNOT_CHANGE_OWN_ROLE: "Use another member's key to change this role",
	ROLE_CHANGE_NOT_ALLOWED: "Use an owner's key to change an owner",
	INVITE_NOT_FOUND: 'Check the invite ID or token (Invite → Get Many lists open invites)',
	INVITE_USED: 'Nothing to revoke; remove the member instead if needed (Member → Remove)',
	INVITE_EXPIRED: 'Create a new invite (Invite → Create)',
	INVITE_INVALID: 'Accept the invite with the e-mail it names, or create a new invite',
	// Webhooks
	WEBHOOK_DELIVERY_NOT_FOUND: 'Check the delivery ID',
	WEBHOOK_URL_NOT_CONFIGURED:
		'Set the webhook URL (Company → Update Profile, or activate the trigger with registration on)',
	INVALID_SIGNATURE: "Check that the webhook secret in the credential is the company's current one",
	// Payouts
	PAYOUTS_NOT_ENABLED: 'Ask the service to enable payouts for the company',
	PAYOUT_NOT_FOUND: 'Check the payout ID (Payout → Get Many lists them)',
	PAYOUT_REQUISITE_INVALID:
		'Check the recipient card number or phone number and the Requisite Type',
	PAYOUT_BANK_UNKNOWN: 'Pick a bank ID the service knows',
	PAYOUT_BANK_REQUIRED: "Set the recipient's bank (Bank ID) and create the payout again",
	PAYOUT_ACTIVE_LIMIT: 'Wait for active payouts to finish, then create this one again',
	PAYOUT_REQUISITE_COOLDOWN: 'Wait before paying the same recipient again',
	PAYOUT_OUTSIDE_WORKING_HOURS:
		'Create the payout again during working hours (e.g. a Schedule trigger)',
	PAYOUT_NOT_CANCELABLE: 'Nothing to cancel now; follow the payout to its end (Payout → Get)',
	PAYOUT_DISPUTE_NOT_ALLOWED: 'Contact the service with the payout ID',
	PAYOUT_SERVICE_REJECTED:
		'Read the service message. The payout service answers while the service handles the payout, so a Payout Create answered with it is paymentOutcome unknown: run Payment → Resolve Outcome before creating a new payout (Retry On Fail sends nothing again)',
	PAYOUT_SERVICE_UNAVAILABLE:
		'A Payout Create or Payout Cancel answered with it is paymentOutcome unknown, whatever its HTTP status (the service may have acted before the payout service failed): run Payment → Resolve Outcome before trying again (Retry On Fail sends nothing again)',
};
