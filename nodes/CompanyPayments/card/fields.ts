import { identityText } from '../../shared/money';
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readRecordId, recordIdFields } from '../common/locator';
import { invalidInput, readTextValue, requireAmount } from '../common/validation';
import { simpleFields } from '../common/simple';

/** A card simplified (Get and Get Many; the tool's Compact Output): the fields a person reads. */
export const CARD_SIMPLE_FIELDS = simpleFields('card', [
	'id',
	'externalId',
	'status',
	'maskedPan',
	'expiry',
	'assignedAt',
	'createdAt',
]);

const cardId = {
	displayName: 'Card',
	name: 'cardId',
	description: 'The card, picked from the list or given by its ID (not its external ID)',
	placeholder: 'e.g. card_7f3a9c',
	listPlaceholder: 'Select a card…',
	legacy: {
		displayName: 'Card ID',
		description: 'The ID of the card, as returned by Request and Get Many (not the external ID)',
	},
};

/** Any card of the company. */
export const cardIdFields: INodeProperties[] = recordIdFields({
	...cardId,
	searchListMethod: 'getCards',
});

/** Lists only assigned cards: the only ones with a balance and sensitive data, and rechargeable. */
export const assignedCardIdFields: INodeProperties[] = recordIdFields({
	...cardId,
	description:
		'The card: the list shows assigned (active) cards only, the only ones this operation accepts; give another card by its ID',
	listPlaceholder: 'Select an assigned card…',
	searchListMethod: 'getAssignedCards',
});

export function readCardId(ctx: IExecuteFunctions, itemIndex: number): string {
	return readRecordId(ctx, itemIndex, 'cardId', 'Card ID');
}

export const targetAmountField: INodeProperties = {
	displayName: 'Target Amount (USD)',
	name: 'targetAmount',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. 100.00',
	description:
		'The amount in USD to load onto the card, as a plain decimal (e.g. 100 or 100.50); the service adds its commission and the processor fee on top',
};

export function readTargetAmount(ctx: IExecuteFunctions, itemIndex: number): number {
	return requireAmount(ctx, itemIndex, 'targetAmount', 'Target Amount (USD)');
}

/** Printable ASCII without spaces: 0x21 ("!") to 0x7E ("~"). */
const PRINTABLE_ASCII = /^[\x21-\x7e]+$/;

function describeCharacter(value: string): string {
	const index = [...value].findIndex((char) => !PRINTABLE_ASCII.test(char));
	const code = ([...value][index]?.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
	const shown = code === '0020' ? 'a space' : `U+${code}`;
	return `character ${index + 1} is ${shown}`;
}

/**
 * The optional external ID of a card request: printable ASCII without spaces, as the service
 * requires. White space at its start or end is refused, never trimmed (money/key.ts
 * untrimmedIdentity, outside r24-money F5); empty or blank means "none".
 */
export function readCardExternalId(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
): string | undefined {
	// It names the card request: a number only as a safe integer (outside r10-money F6).
	const trimmed = identityText(ctx, itemIndex, value, 'External ID', (given) =>
		readTextValue(ctx, itemIndex, given, 'External ID'),
	);
	if (trimmed === '') return undefined;
	if (!PRINTABLE_ASCII.test(trimmed)) {
		throw invalidInput(
			ctx,
			itemIndex,
			'External ID',
			`must be printable ASCII without spaces (characters 0x21 to 0x7E; ${describeCharacter(trimmed)})`,
			trimmed,
		);
	}
	return trimmed;
}
