/**
 * Every choice this package makes where the interface document says "not shown".
 * The README's "Assumptions" section lists the same choices for users; keep the two in step.
 */

/**
 * Records requested per page when a list operation pages through the service. The document
 * shows no largest `limit`, so the node asks for large pages and follows the answer: a service
 * that serves fewer per page has its cap learnt from the page (rules in nodes/shared/pager.ts);
 * a service that refuses the `limit` (400 naming `limit`) is asked again at the largest size
 * its error names (in `details`, else in its message), else at the next smaller size of
 * PAGE_SIZE_STEPS, and that size is kept for the rest of the node's run for that list.
 */
export const PAGE_SIZE = 1000;

/** Sizes tried after a refused `limit` whose error names no largest size, largest first. */
export const PAGE_SIZE_STEPS = [500, 250, 100, 50, 25, 10, 5, 1];

/**
 * List endpoints page with `limit` and `offset` query parameters. The document states them
 * only for GET /user-wallets/deposits; the other lists are assumed to accept the same pair
 * and to ignore them harmlessly if they do not.
 */
export const PAGING_QUERY = { limit: 'limit', offset: 'offset' } as const;

/**
 * List envelopes are not shown except `{ deposits, total }`. A list answer may be a bare
 * array or an object; in an object the records are the array under the operation's own key
 * (e.g. `deposits`), else under one of these keys, else the only array-valued field.
 */
export const ENVELOPE_ITEM_KEYS = ['items', 'data', 'results', 'records', 'rows'];

/** Fields of a list envelope read as the list's total. */
export const ENVELOPE_TOTAL_KEYS = ['total', 'totalCount'];

/**
 * Fields of a list envelope that may be the total or the page's own length (not shown). Such a
 * count never ends a listing; it is used as a total only when it is larger than the page.
 */
export const ENVELOPE_COUNT_KEYS = ['count'];

/**
 * POST /orders/{id}/disputes answers with the new dispute or with the open one that already
 * exists, in the same shape. The node reports `existingDispute: true` when the returned
 * dispute's ID was among the order's open disputes listed just before the request, or when it
 * was created more than this long before the request (allowing for clock skew between n8n and
 * the service). The reason text is never compared (dispute/create.ts).
 */
export const EXISTING_DISPUTE_AGE_MS = 30_000;

/** Endpoints the document implies but does not show (issue text names them). */
export const ASSUMED_ENDPOINTS = {
	payoutCreate: { method: 'POST', path: '/payouts' },
	payoutList: { method: 'GET', path: '/payouts' },
	cardRecharge: { method: 'POST', path: '/cards/recharge' },
} as const;

/**
 * The fields of the recharge record (not shown: choice `rechargeRecord`) the node binds a Card
 * Recharge to, as the document's Card and Payout name them: its ID (one record proves one write)
 * and when it was made (a record made before the send proves none). Either may be absent: the
 * rule then binds by the other, or by neither (money/write.ts answerProvesOther).
 */
export const RECHARGE_RECORD_FIELDS = { id: 'id', createdAt: 'createdAt' } as const;

/**
 * The recharge record POST /cards/recharge answers with is not shown (`writeAnswer`), nor
 * its statuses. A recharge whose `status` is absent or one of these stands (the debit made, the
 * card loaded or on its way, in the words the document uses for its other records); any other
 * status (`failed`, one the node does not know) does not show it was carried out, nor that its
 * debit came back: unknown with its sent write (card/recharge.operation.ts, r9-money F1).
 */
export const RECHARGE_STANDING_STATUSES: readonly string[] = [
	'created',
	'pending',
	'in_progress',
	'processing',
	'success',
	'completed',
	'fulfilled',
];

/** The quote returned by POST /orders/prepare carries its id in one of these fields. */
export const QUOTE_ID_FIELDS = ['id', 'quoteId'];

/**
 * The quote's fields are not shown: where it shows its own time, it is in `createdAt` (as every
 * record the document shows); an order created before it is an earlier payment
 * (nodes/shared/money/replay.ts). Without it, n8n's own clock stands in.
 */
export const QUOTE_TIME_FIELD = 'createdAt';

/**
 * Team lists (GET /members, GET /members/invites): neither envelope nor paging is shown. They
 * are read like every other list (limit/offset, harmless if ignored; a bare array or an
 * envelope), with the records looked for first under these keys.
 */
export const TEAM_LIST_KEYS = { members: 'members', invites: 'invites' } as const;

/*
 * Request bodies not shown: PATCH /members/{userId} sends `role` and/or `permissions` (an array
 * of names); POST /members/invites sends `email`, `role`, `permissions` (each only when set);
 * POST /auth/invites/{token}/accept and POST /auth/company/login send `email` and `password`.
 */

/**
 * Role names are not shown beyond `owner`. The Role field offers these three (owner, admin,
 * member: the usual set for a team with permissions); a role set by an expression is sent as
 * typed, so a service with other role names is still reachable.
 */
export const MEMBER_ROLES = [
	{ name: 'Owner', value: 'owner', description: 'Full control, including other owners' },
	{ name: 'Admin', value: 'admin', description: 'Manages the team and the company, not owners' },
	{ name: 'Member', value: 'member', description: 'Works within the permissions given' },
];

/**
 * Answers that carry a new API key (invite accept, company login, regenerate key) do not show
 * their field names. The answer is passed through unchanged; the first of these fields holding
 * a string is named in the output's `apiKeyField`. The session token of accept and login is
 * assumed to be `token` and is passed through, not used by the node.
 */
export const NEW_API_KEY_FIELDS = ['apiKey', 'newApiKey', 'api_key', 'key'];

/**
 * The invite URL's format is not shown. When the user gives the URL instead of the token, the
 * token is this query parameter, else the URL's last path segment.
 */
export const INVITE_URL_TOKEN_PARAMETER = 'token';

/*
 * POST /auth/company/login is not marked public, so it is sent with the credential's API key
 * like every endpoint except invite preview and accept.
 */

/**
 * POST /cards/request is shown only for a card in stock: 200 with status "assigned", the card
 * and the request. The answer when no card is in stock is not shown. It is taken to be any 2xx
 * answer without a card object whose status or request.status is this value (or that names no
 * status at all); the node outputs it as outcome "pending". An answer with neither a card nor
 * this status is read by the request's documented status: `fulfilled` means a card was issued
 * (its ID is the request's `cardId`; output outcome "assigned"), `cancelled` and `failed` mean
 * none was, and are reported as errors saying so in plain words.
 */
export const CARD_REQUEST_PENDING_STATUS = 'pending';

/**
 * Envelope keys of GET /cards and the assumed GET /payouts (not shown). The general fallbacks
 * of ENVELOPE_ITEM_KEYS apply when the key differs. Filters are sent as query parameters of
 * the same name: `externalId` for cards (the one the document names), `status` and
 * `externalId` for payouts.
 */
export const LIST_ITEMS_KEYS = { cards: 'cards', payouts: 'payouts' } as const;

/*
 * Bodies of the assumed endpoints: POST /payouts takes the Payout record's own field names
 * (amountRub, requisiteType, requisite, bankId, recipientFirstName, recipientLastName,
 * externalId); POST /cards/recharge takes the quote's (cardId, targetAmount). Both get an
 * Idempotency-Key, like POST /cards/request, and answer with a Payout and a recharge record.
 */

/*
 * Money amounts the node sends (payout amountRub, card targetAmount) are not given a precision.
 * The node accepts plain decimals with at most 2 decimal places (kopecks, cents); see
 * requireAmount in common/validation.ts.
 */

/**
 * Payout requisites are checked before POST /payouts (the document gives no format). Spaces
 * and dashes are removed first, and the cleaned value is the one sent.
 */
export const PAYOUT_REQUISITE_SEPARATORS = /[\s-]+/g;
export const PAYOUT_REQUISITE_FORMATS = {
	card: { pattern: /^\d{16,19}$/, rule: 'must be a card number of 16 to 19 digits' },
	phone: {
		pattern: /^\+?\d{10,15}$/,
		rule: 'must be a phone number of 10 to 15 digits with an optional leading +',
	},
} as const;

/*
 * The document shows no Idempotency-Key for POST /payouts/{id}/cancel. The node sends one
 * anyway (user value or derived, as for money-moving calls): a service that ignores the header
 * loses nothing, and one that honours it answers a retried cancel with the stored result
 * instead of PAYOUT_NOT_CANCELABLE.
 */

/*
 * Idempotency-Key scope (money/key.ts). Accept Quote derives its key from the quote
 * ID, correct whether the service keeps keys per company or per path (the path holds the
 * quote). Pay QR Code prepares a new quote on every run: a payment reference the user sets is
 * safe across re-runs of an execution only if keys are kept per company, as the document's
 * "the same key for the same company" says; the node relies on that reading.
 */

/**
 * Company Payments Trigger: GET /auth/company/profile shows no fields beyond webhookUrl and
 * webhookSecret. The trigger reads `webhookUrl` from the top level of the answer, else from
 * under the first of these keys that holds an object. An empty string counts as "no URL".
 */
export const PROFILE_WRAPPER_KEYS = ['company', 'profile', 'data'];

/**
 * How the trigger clears the company's webhook URL when it deactivates and knows no earlier
 * URL to put back (PATCH /auth/company/profile does not show how a URL is removed).
 */
export const WEBHOOK_URL_CLEARED = null;

/*
 * ---- Paging (transport) --------------------------------------------------------------------
 * The document shows neither the largest `limit` a list accepts nor whether every list answer
 * carries a total. The node therefore never takes a page shorter than asked for as the end of
 * a list: it takes the length of that page as the service's cap and keeps reading until an
 * empty page, a page shorter than the learned cap, the envelope's total, or the user's Limit.
 * This costs at most one request per listing more than knowing the cap (the empty page that
 * ends a list without total whose first page was short). See docs/pagination.md.
 */

/*
 * ---- Rate limits (transport/retry.ts) ---------------------------------------------------------
 * The document shows no rate limits and no Retry-After. The node retries a read answered with one
 * of these statuses (429 Too Many Requests, 503 Service Unavailable, and 502/504 from a gateway
 * or proxy), waiting what Retry-After asks or else the backoff below, for at most the credential's
 * "Longest Wait on Rate Limits" per call. A write is re-sent only as its money contract says (below).
 */
export const RETRY_STATUSES = [429, 502, 503, 504];

/**
 * ---- Re-sending writes and the outcome of money writes (money/outcome.ts) ---------------
 * The document promises replay by key for one write only: POST /orders/accept/{id} ("a repeated
 * request with the same key for the same company returns the stored response"). Its operations'
 * money contracts (order/accept.operation.ts) say `replayByKey: true`, and it is re-sent on the
 * RETRY_STATUSES like a read. POST /cards/request requires a key ("unique per attempt") but
 * promises no stored answer for a repeated one. Every other money write (Card Request; Payout
 * Create and Card Recharge, whose endpoints are not shown; Payout Cancel) says `replayByKey:
 * false` and is re-sent only on a 429 that carries the service's error body (an `errorCode`) and
 * an Idempotency-Key: the service refused it for its rate, which proves nothing was processed. A
 * 502, 504 or 503 proves nothing: a gateway answers them while the service may have acted.
 */

/**
 * The longest External ID the node derives (a tool call's reference, carried by a payout or a
 * card request). The document shows no length limit for either; card External IDs must be
 * printable ASCII without spaces. 64 is a common limit for such identifiers (the sandbox plays
 * it for cards); a longer reference, or one a card cannot carry, is sent as `%sha256-` and 56 hex
 * characters of its SHA-256 (identity.ts `fitted`).
 */
export const EXTERNAL_ID_MAX_LENGTH = 64;

/**
 * Which answers of a money write may say "not paid": a 4xx whose body is the service's JSON error
 * body (it names an `errorCode`), and of those only the ones money/answered.ts (choice
 * `errorAfterActing`, outside r20-money) reads as a refusal before acting: a code naming a
 * condition checked before acting, at a status that says refused. A backend or transient code
 * (BRIDGE_ERROR, PAYOUT_SERVICE_UNAVAILABLE …) or a 408/423/424/425/499 is "unknown". Every other
 * failure after the request may have left is "unknown": no answer (a reset, a timeout), any 5xx
 * (500 INTERNAL_ERROR may come after the write was committed; 502/504 come from a gateway that
 * may have forwarded it), a 4xx that is not the service's own body (a proxy's page), a redirect,
 * a 2xx whose body is not JSON. Failures before anything was sent (connection refused, DNS, TLS
 * handshake) are "not paid".
 */
export const NOT_PAID_STATUSES = { min: 400, max: 499 } as const;

/**
 * A 409 is the exception among 4xx: a conflict with what the service already holds may be the
 * same request processed before (a repeated key, a retried payout). Only these codes name a
 * conflict that proves this request was refused: the card External ID is taken (the document's
 * stated 409), and a payout that can no longer be cancelled. Any other 409 of a money write
 * (CONFLICT, an unknown code) leaves the outcome unknown.
 */
export const NOT_PAID_CONFLICTS: readonly string[] = [
	'CARD_EXTERNAL_ID_TAKEN',
	'PAYOUT_NOT_CANCELABLE',
];

/**
 * Backoff when the service names no Retry-After: doubling from firstMs up to capMs, jittered.
 * Whatever Retry-After says, a retry waits at least minMs (a `Retry-After: 0` answered again and
 * again must not become a busy loop against the service), and one call is sent at most
 * maxAttempts times in all, however small the waits.
 */
export const RETRY_BACKOFF = { firstMs: 500, capMs: 15_000, minMs: 250, maxAttempts: 8 } as const;

/**
 * Each page after the first starts this many records before the end of the previous one (at
 * most a quarter of a page, so none on pages of fewer than 4 records). Offset paging is not a snapshot: a record that leaves the list between two page
 * requests moves every later record up by one, and without the overlap the record at the page
 * boundary would be skipped. Up to this many records may leave between two pages without any
 * being missed; the records read twice are dropped by identity.
 */
export const PAGE_OVERLAP = 2;

/**
 * Page requests sent at the same time once the first page has given both the total and the
 * page size the service honours. Later pages are then known in advance and are fetched
 * concurrently, in order of offset; without a total the node pages one request at a time.
 */
export const PAGE_CONCURRENCY = 4;
