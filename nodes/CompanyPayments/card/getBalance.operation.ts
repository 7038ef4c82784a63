import type { IDataObject } from 'n8n-workflow';

import { exactAsDouble } from '../../shared/transport/json';
import { idCall } from '../common/calls';
import { assignedCardIdFields, readCardId } from './fields';

const NOT_ASSIGNED =
	'The card is not in status assigned. Only an assigned (active) card has a live balance; a requested, closing, closed, retired or failed card has none. Check the status with Card > Get';
const NOT_FOUND_OR_NOT_ASSIGNED =
	'No assigned card with this ID in this company: the card does not exist, or it is not in status assigned (only an assigned card has a live balance)';

/**
 * What balanceNumber is when `balance` is a number no JS number holds exactly (outside read
 * r14-data, finding 12): null, and this note beside it, never a rounded value.
 */
export const BALANCE_NUMBER_INEXACT_NOTE =
	'balanceNumber is null: balance has more digits than a JavaScript number holds exactly, so a number would be rounded. Use the balance text (exact), e.g. compare it as a decimal.';

/**
 * The decimal string as a number, for comparisons in later nodes; null when it is not a number,
 * and null (inexact: true) when no double gives it back exactly.
 */
function toNumber(value: unknown): { number: number | null; inexact?: true } {
	if (typeof value === 'number') return { number: Number.isFinite(value) ? value : null };
	if (typeof value !== 'string' || value.trim() === '') return { number: null };
	const number = Number(value);
	if (!Number.isFinite(number)) return { number: null };
	return exactAsDouble(value.trim()) ? { number } : { number: null, inexact: true };
}

/** The answer with balanceNumber beside balance (null when there is no readable exact balance). */
function withBalanceNumber(body: IDataObject): IDataObject {
	const output: IDataObject = {};
	for (const [key, value] of Object.entries(body)) {
		output[key] = value;
		if (key === 'balance') {
			const { number, inexact } = toNumber(value);
			output.balanceNumber = number;
			if (inexact) output.balanceNumberNote = BALANCE_NUMBER_INEXACT_NOTE;
		}
	}
	if (!('balance' in output)) output.balanceNumber = null;
	return output;
}

export const getBalance = idCall({
	value: 'getBalance',
	name: 'Get Balance',
	action: 'Get card balance',
	description:
		'Get the live balance of an assigned card from the issuer (cached about 60 seconds); outputs balance as the exact decimal string and balanceNumber as a number (null when a number cannot hold it exactly)',
	kind: 'read',
	tool: {
		text: 'Get the live balance of an assigned card. Needs: Card ID. Returns balance, currency and fetchedAt.',
	},
	docs: {
		endpoint: '`GET /cards/{id}/balance`',
		notes:
			'Only for cards in status `assigned`; otherwise the error says the card must be assigned. `balance` stays the exact decimal string; `balanceNumber` is added beside it (null, with `balanceNumberNote`, when a JavaScript number cannot hold the balance exactly). The issuer caches the value about 60 s.',
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
