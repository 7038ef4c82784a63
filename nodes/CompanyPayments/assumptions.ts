/**
 * Every choice this package makes where the interface document says "not shown".
 * The README's "Assumptions" section lists the same choices for users; keep the two in step.
 */

/** Records requested per page when a list operation pages through the service. */
export const PAGE_SIZE = 100;

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

/** Total-count fields looked for in a list envelope. */
export const ENVELOPE_TOTAL_KEYS = ['total', 'totalCount', 'count'];

/**
 * POST /orders/{id}/disputes answers with the new dispute or with the open one that already
 * exists, in the same shape. The node reports `existingDispute: true` when the returned
 * dispute's reason differs from the one sent, or when it was created more than this long
 * before the request (allowing for clock skew between n8n and the service).
 */
export const EXISTING_DISPUTE_AGE_MS = 30_000;

/** Endpoints the document implies but does not show (issue text names them). */
export const ASSUMED_ENDPOINTS = {
	payoutCreate: { method: 'POST', path: '/payouts' },
	payoutList: { method: 'GET', path: '/payouts' },
	cardRecharge: { method: 'POST', path: '/cards/recharge' },
} as const;

/** The quote returned by POST /orders/prepare carries its id in one of these fields. */
export const QUOTE_ID_FIELDS = ['id', 'quoteId'];

