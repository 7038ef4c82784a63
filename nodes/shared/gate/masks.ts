/*
 * How masked values look: what replaces a secret for each reader. Nothing here decides what is a
 * secret (fields.ts reads the record model, patterns.ts free text, learned.ts known values).
 */

/** The two readers: the user (output items, errors, hints, logs) and the AI model (tool results). */
export type Audience = 'user' | 'model';

/** What replaces a secret in a tool result. */
export const HIDDEN = '[hidden from the AI model]';
/** What replaces a secret for the user, and a token inside a link or a text (short, so the rest stays readable). */
export const HIDDEN_PART = '[hidden]';

/**
 * What an error or a log shows in place of a path segment that is a secret (an invite's token):
 * the path as shown (ApiRequest.shownPath) declares the secret, and the gate learns it from it.
 */
export const HIDDEN_IN_PATH = '[invite token hidden]';

/** "•••• 1234": a number (card or phone) with its last four digits only. */
export function maskRequisite(value: string): string {
	const digits = value.replace(/\D/g, '');
	return digits.length > 4 ? `•••• ${digits.slice(-4)}` : '••••';
}

/** "•••• •••• •••• 1234": a card number the way the card itself is usually shown. */
export function maskCardNumber(value: string): string {
	const digits = value.replace(/\D/g, '');
	return digits.length > 4 ? `•••• •••• •••• ${digits.slice(-4)}` : '•••• •••• •••• ••••';
}

/** "whsec_…9f3a": a secret with its last four characters only. */
export function maskKeepingEnd(value: string): string {
	if (value.length <= 8) return '••••';
	const prefix = value.startsWith('whsec_') ? 'whsec_' : '';
	return `${prefix}…${value.slice(-4)}`;
}

/** Values masked already: dots, then at most the last four digits. */
export function maskedAlready(value: string): boolean {
	return /^[•*…][•*…\s-]*\d{0,4}$/.test(value);
}

/** A phone or card number as written: digits, spaces, brackets, dashes, a leading plus. */
export const NUMBER = /^\+?[\d\s().-]+$/;

/** What a secret found by its value becomes: a number keeps its last four digits. */
export function shownFor(value: string, audience: Audience): string {
	if (NUMBER.test(value) && value.replace(/\D/g, '').length >= 10) return maskRequisite(value);
	return audience === 'model' ? HIDDEN : HIDDEN_PART;
}

/** A crypto token's code (`USDT`, `usdt`, `USDT-TRC20`): what a field named `token` may hold. */
/**
 * A value under a key-ish name (FieldSpec.codeKept: `key`, `memberKey`, `sessionToken`) that is a
 * code, not a secret (outside read r10-data, finding 4): a token code (`USDT`, `usdt-trc20`) or a
 * lookup key of lower-case words joined by `_`, `.` or `-`, each of 2 to 20 letters, 2 to 5
 * words, no digit (`order_payment`, `wallet.deposit`, `card-opening-fee`). A generated key has
 * digits or capitals, or one long run of letters.
 */
export function lookupCode(text: string): boolean {
	return tokenCode(text) || /^[a-z]{2,20}(?:[_.-][a-z]{2,20}){1,4}$/.test(text);
}

export function tokenCode(text: string): boolean {
	return /^(?:[A-Z]{2,10}|[a-z]{2,10})(?:[-_ ](?:[A-Z0-9]{2,10}|[a-z0-9]{2,10}))?$/.test(text);
}
