import { ENDPOINTS } from './endpoints';

/**
 * What the document promises about list answers, and what it does not (issue 28). One place for
 * the list operations, the poll trigger and the record pickers; docs/assumptions.md says the same.
 */

/**
 * Query parameters the document shows for a list, by path. Only these are promised to filter
 * what comes back: `GET /user-wallets/deposits` (externalId, status) and `GET /cards`
 * (externalId). Every other filter is still sent (a service that applies it saves traffic), and
 * every filter, shown or not, is checked again on each record that comes back
 * (nodes/shared/returnedFilter.ts), against the record field of the parameter's name.
 *
 * A record that lacks the filtered field: on a list whose document shows the parameter, the
 * service filtered it and it is kept; on any other list nothing shows that it matches, so it is
 * left out, and a hint counts it ("1 without the status field").
 */
export const QUERY_SHOWN: Readonly<Record<string, readonly string[]>> = {
	[ENDPOINTS.userWalletDeposits]: ['externalId', 'status'],
	[ENDPOINTS.cards]: ['externalId'],
};

/**
 * Where a list's records carry their ID, in the order read. `id` first; then the name the
 * document gives the same ID elsewhere: in the webhook event of the record (`depositId`,
 * `payoutId`, `orderId`), in the card sensitive data and card request (`cardId`), in the paths
 * (`walletId`, `userId`). A dispute's `orderId` is another record's ID and never stands for
 * the dispute's own; a deposit's `walletId` likewise.
 *
 * A record with none of these is not skipped: the poll trigger and the record pickers fail
 * naming the list and the fields the record has (nodes/shared/returnedFilter.ts).
 */
export const RECORD_ID_FIELDS: Readonly<Record<string, readonly string[]>> = {
	[ENDPOINTS.walletDeposits]: ['id', 'depositId'],
	[ENDPOINTS.userWalletDeposits]: ['id', 'depositId'],
	[ENDPOINTS.payouts]: ['id', 'payoutId'],
	[ENDPOINTS.orders]: ['id', 'orderId'],
	[ENDPOINTS.cards]: ['id', 'cardId'],
	[ENDPOINTS.disputes]: ['id'],
	[ENDPOINTS.userWallets]: ['id', 'walletId'],
	[ENDPOINTS.userWalletsBlocked]: ['id', 'walletId'],
	[ENDPOINTS.members]: ['userId', 'id'],
	[ENDPOINTS.invites]: ['id'],
};
