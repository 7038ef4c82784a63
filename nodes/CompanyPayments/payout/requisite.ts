import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	PAYOUT_REQUISITE_FORMATS,
	PAYOUT_REQUISITE_SEPARATORS,
} from '../../shared/contract/assumptions';
import { maskRequisite } from '../../shared/gate';
import type { Shown } from '../common/validation';
import { checkOption, readTextValue, showKindOnly } from '../common/validation';

export type RequisiteType = keyof typeof PAYOUT_REQUISITE_FORMATS;

/** The label of the field that holds the requisite of each type, as the node shows it. */
export const REQUISITE_FIELD: Record<RequisiteType, string> = {
	card: 'Recipient Card Number',
	phone: 'Recipient Phone Number',
};

const REQUISITE_TYPES = Object.keys(PAYOUT_REQUISITE_FORMATS) as RequisiteType[];

/** A refused requisite in an error: its kind, and for text and numbers its last four digits. */
const showMasked: Shown = (value) =>
	typeof value === 'string' || typeof value === 'number'
		? `"${maskRequisite(String(value))}" (${typeof value === 'number' ? 'a number' : 'text'})`
		: showKindOnly(value);

/**
 * Reads the requisite for the given type: spaces and dashes removed, then checked against the
 * format of its type. The error names the field and the rule and shows only the last four
 * digits: a card number never appears in full in an error. (How a requisite the service shows,
 * masked or whole, compares with the one asked: nodes/shared/money/evidence.ts.)
 */
export function readRequisite(
	ctx: IExecuteFunctions,
	itemIndex: number,
	typeValue: unknown,
	value: unknown,
): { requisiteType: RequisiteType; requisite: string } {
	const type = checkOption(ctx, itemIndex, typeValue, 'Pay To', REQUISITE_TYPES);
	// A number is taken only when exact: a card number above 2^53 was rounded when n8n read it.
	const raw = readTextValue(ctx, itemIndex, value, REQUISITE_FIELD[type], showMasked);
	const cleaned = raw.replace(PAYOUT_REQUISITE_SEPARATORS, '');
	const format = PAYOUT_REQUISITE_FORMATS[type];
	if (!format.pattern.test(cleaned)) {
		const digits = cleaned.replace(/\D/g, '').length;
		const shown =
			cleaned === ''
				? 'an empty value'
				: `"${maskRequisite(cleaned)}" (${cleaned.length} characters, ${digits} digits)`;
		throw new NodeOperationError(
			ctx.getNode(),
			`${REQUISITE_FIELD[type]} ${format.rule}, got ${shown}`,
			{
				itemIndex,
				description: `Nothing was sent to the service. Spaces and dashes are removed before the check. Fix "${REQUISITE_FIELD[type]}" on item ${itemIndex} and run again.`,
			},
		);
	}
	return { requisiteType: type, requisite: cleaned };
}
