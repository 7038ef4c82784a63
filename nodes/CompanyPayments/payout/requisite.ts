import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	PAYOUT_REQUISITE_FORMATS,
	PAYOUT_REQUISITE_SEPARATORS,
} from '../../shared/contract/assumptions';
import { serviceError, serviceErrorInfo } from '../../shared/transport';
import type { Shown } from '../common/validation';
import { checkOption, readTextValue, showKindOnly } from '../common/validation';

export type RequisiteType = keyof typeof PAYOUT_REQUISITE_FORMATS;

/** The label of the field that holds the requisite of each type, as the node shows it. */
export const REQUISITE_FIELD: Record<RequisiteType, string> = {
	card: 'Recipient Card Number',
	phone: 'Recipient Phone Number',
};

const REQUISITE_TYPES = Object.keys(PAYOUT_REQUISITE_FORMATS) as RequisiteType[];

/** "•••• 1234": a requisite as it may appear in a message: its last four digits only. */
export function maskRequisite(value: string): string {
	const digits = value.replace(/\D/g, '');
	return digits.length > 4 ? `•••• ${digits.slice(-4)}` : '••••';
}

/** A refused requisite in an error: its kind, and for text and numbers its last four digits. */
const showMasked: Shown = (value) =>
	typeof value === 'string' || typeof value === 'number'
		? `"${maskRequisite(String(value))}" (${typeof value === 'number' ? 'a number' : 'text'})`
		: showKindOnly(value);

/**
 * Reads the requisite for the given type: spaces and dashes removed, then checked against the
 * format of its type. The error names the field and the rule and shows only the last four
 * digits: a card number never appears in full in an error.
 */
/** A phone number's digits as one line: the Russian trunk 8… and a bare national number as +7…. */
function phoneLine(digits: string): string {
	if (digits.length === 11 && digits.startsWith('8')) return `7${digits.slice(1)}`;
	if (digits.length === 10) return `7${digits}`;
	return digits;
}

/**
 * Whether a requisite in an answer is the one asked for. A number the service masked (•••• 9012)
 * shows only its last four digits: consistent with the one asked when they agree, but no
 * `evidence` that a record found later went to this recipient. A phone number comes back in the
 * service's own form (+7…, 8…): the same line when its digits are, the country included. A card
 * number must match whole.
 */
export function sameRequisite(asked: unknown, answered: unknown, evidence = false): boolean {
	if (typeof answered !== 'string') return false;
	const askedDigits = String(asked).replace(/\D/g, '');
	const answeredDigits = answered.replace(/\D/g, '');
	if (/\D/.test(answered.replace(/^\+/, '').replace(/[\s()-]/g, ''))) {
		return !evidence && askedDigits.slice(-4) === answeredDigits.slice(-4);
	}
	if (askedDigits.length <= 15 && answeredDigits.length <= 15) {
		return phoneLine(askedDigits) === phoneLine(answeredDigits);
	}
	return askedDigits === answeredDigits;
}

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

/**
 * Masks, in a text, the requisite that was sent (also when written with spaces, dashes or
 * brackets between its digits) and any other unbroken run of 10 or more digits.
 */
export function maskNumbers(text: string, requisite: string): string {
	let out = text;
	const digits = requisite.replace(/\D/g, '');
	if (digits.length >= 5) {
		const spaced = new RegExp(`\\+?${digits.split('').join('[\\s()-]*')}`, 'g');
		out = out.replace(spaced, maskRequisite(digits));
	}
	return out.replace(/\+?\d{10,}/g, (match) => maskRequisite(match));
}

function maskDeep(value: unknown, requisite: string): unknown {
	if (typeof value === 'string') return maskNumbers(value, requisite);
	if (Array.isArray(value)) return value.map((entry) => maskDeep(entry, requisite));
	if (typeof value === 'object' && value !== null) {
		const out: IDataObject = {};
		for (const [key, field] of Object.entries(value)) {
			out[key] = maskDeep(field, requisite) as IDataObject[string];
		}
		return out;
	}
	return value;
}

/**
 * The service's error for a call that carried a requisite, with the requisite (and any other
 * long number) in its message and details masked to the last four digits. Errors without such
 * numbers, and errors that are not service answers, come back unchanged.
 */
export function withRequisiteMasked(
	ctx: IExecuteFunctions,
	error: unknown,
	requisite: string,
	itemIndex: number,
	explain?: Record<string, string>,
): Error {
	const info = serviceErrorInfo(error);
	if (!info) return error as Error;
	const message = info.serviceMessage === null ? null : maskNumbers(info.serviceMessage, requisite);
	const details = info.details === null ? null : (maskDeep(info.details, requisite) as IDataObject);
	if (message === info.serviceMessage && JSON.stringify(details) === JSON.stringify(info.details)) {
		return error as Error;
	}
	const body: IDataObject = {
		statusCode: info.httpCode,
		errorCode: info.errorCode,
		message,
		details,
		required: info.required,
		requestId: info.requestId,
		path: info.path,
	};
	const masked = serviceError(ctx.getNode(), info.httpCode, body, undefined, itemIndex, explain);
	// A money write's outcome (transport/outcome.ts: not_paid or unknown) stays with the error.
	masked.context.paymentOutcome = (error as { context: IDataObject }).context.paymentOutcome;
	return masked;
}
