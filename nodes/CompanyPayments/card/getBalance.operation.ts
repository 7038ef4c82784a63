import type { IDataObject } from 'n8n-workflow';

import { idCall } from '../common/calls';
import { assignedCardIdFields, readCardId } from './fields';

const NOT_ASSIGNED =
	'The card is not in status assigned. Only an assigned (active) card has a live balance; a requested, closing, closed, retired or failed card has none. Check the status with Card > Get';
const NOT_FOUND_OR_NOT_ASSIGNED =
	'No assigned card with this ID in this company: the card does not exist, or it is not in status assigned (only an assigned card has a live balance)';

/** The decimal string as a number, for comparisons in later nodes; null when it is not a number. */
function toNumber(value: unknown): number | null {
	if (typeof value === 'number') return Number.isFinite(value) ? value : null;
	if (typeof value !== 'string' || value.trim() === '') return null;
	const number = Number(value);
	return Number.isFinite(number) ? number : null;
}

/** The answer with balanceNumber beside balance (null when there is no readable balance). */
function withBalanceNumber(body: IDataObject): IDataObject {
	const output: IDataObject = {};
	for (const [key, value] of Object.entries(body)) {
		output[key] = value;
		if (key === 'balance') output.balanceNumber = toNumber(value);
	}
	if (!('balance' in output)) output.balanceNumber = null;
	return output;
}

export const getBalance = idCall({
	value: 'getBalance',
	name: 'Get Balance',
	action: 'Get card balance',
	description:
		'Get the live balance of an assigned card from the issuer (cached about 60 seconds); outputs balance as the exact decimal string and balanceNumber as a number',
	kind: 'read',
	tool: {
		text: 'Get the live balance of an assigned card. Needs: Card ID. Returns balance, currency and fetchedAt.',
	},
	docs: {
		endpoint: '`GET /cards/{id}/balance`',
		notes:
			'Only for cards in status `assigned`; otherwise the error says the card must be assigned. `balance` stays the exact decimal string; `balanceNumber` is added beside it. The issuer caches the value about 60 s.',
	},
	properties: assignedCardIdFields,
	method: 'GET',
	readId: readCardId,
	path: (id) => `/cards/${id}/balance`,
	// The document names 400, 404 and 422 for this call; a generic or missing errorCode is
	// explained by its status.
	explain: { CARD_NOT_ACTIVE: NOT_ASSIGNED, CARD_NOT_FOUND: NOT_FOUND_OR_NOT_ASSIGNED },
	explainStatus: { 400: NOT_ASSIGNED, 404: NOT_FOUND_OR_NOT_ASSIGNED, 422: NOT_ASSIGNED },
	output: withBalanceNumber,
});
