import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { invalidInput, requireAmount, requirePathId } from '../common/validation';

export const cardIdField: INodeProperties = {
	displayName: 'Card ID',
	name: 'cardId',
	type: 'string',
	default: '',
	required: true,
	description: 'The ID of the card, as returned by Request and Get Many (not the external ID)',
};

export function readCardId(ctx: IExecuteFunctions, itemIndex: number): string {
	return requirePathId(ctx, itemIndex, 'cardId', 'Card ID');
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
 * requires. Surrounding whitespace is trimmed; empty means "none".
 */
export function readCardExternalId(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
): string | undefined {
	if (value === undefined || value === null) return undefined;
	const text = typeof value === 'number' ? String(value) : value;
	if (typeof text !== 'string') {
		throw invalidInput(ctx, itemIndex, 'External ID', 'must be text', value);
	}
	const trimmed = text.trim();
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
