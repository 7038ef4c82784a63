import { luhn } from './patterns';

/*
 * A payout's requisite by what it holds (outside read r14-data, finding 5): a service may write
 * the card number with the bank's name beside it (`4111111111111111 Сбербанк`), and its
 * `requisiteType` in any spelling (`CARD`, `Card`, `bank_card`) or not at all (null, `phone`).
 * The type is read without regard to case; whatever it says, card-like digits in the requisite are
 * masked as a card number, and only a requisite without them (a phone) goes by the phone rule.
 */

/** Whether a record's `requisiteType` declares a card: any spelling with the word `card`. */
export function declaresCard(requisiteType: unknown): boolean {
	return typeof requisiteType === 'string' && /card/i.test(requisiteType);
}

/** Digits in groups of one or more, apart by at most one space, dash, dot or no-break space. */
const DIGIT_RUN = /\d(?:[\s\u00a0.-]?\d)*/g;

/**
 * The first card-like run of digits in a requisite: 16 to 19 digits (no phone number has more
 * than 15), or 13 to 15 that pass the card checksum. Undefined for a phone (`+7 900 123-45-67`).
 */
export function cardRunIn(value: string): string | undefined {
	for (const match of value.matchAll(DIGIT_RUN)) {
		const digits = match[0].replace(/\D/g, '');
		if (digits.length >= 16 && digits.length <= 19) return digits;
		if (digits.length >= 13 && digits.length <= 15 && luhn(digits)) return digits;
		if (digits.length > 19) return digits;
	}
	return undefined;
}
