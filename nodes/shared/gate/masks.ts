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

/**
 * A webhook secret as each reader sees it: the user `whsec_…9f3a` (the last four tell two secrets
 * apart), the model its prefix only, `whsec_…` (docs/ai-agents.md; outside read r19-data,
 * finding 10: the model got the last four).
 */
export function maskWebhookSecret(value: string, audience: Audience): string {
	if (audience === 'user') return maskKeepingEnd(value);
	return value.startsWith('whsec_') ? 'whsec_…' : HIDDEN;
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

/** 2000-01-01T00:00:00Z and 2038-01-19T03:14:08Z (2^31 seconds), in seconds since the epoch. */
const TIME_FROM = 946_684_800;
const TIME_UNTIL = 2_147_483_648;

/** A date or a time written as one (`2026-11-29`, `2026-11-29T08:00:00Z`, `29.11.2026`). */
const DATE_TEXT =
	/^(?:\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d{1,9})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?|\d{2}[./]\d{2}[./]\d{4})$/i;
/** A record's UUID (8-4-4-4-12 hex digits). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A number of 9 digits or more that reads as a time from 2000 up to 2038-01-19 in seconds,
 * milliseconds, microseconds or nanoseconds (`1795939200`, `1795939200000`). No PIN (4–8 digits)
 * and no card number is one: a card number read so is later than 2038 (contract/choices.ts
 * `timeNumbers`).
 */
export function timeNumber(text: string): boolean {
	if (!/^\d{9,19}$/.test(text)) return false;
	const number = Number(text);
	return [1, 1e3, 1e6, 1e9].some((per) => number / per >= TIME_FROM && number / per < TIME_UNTIL);
}

/**
 * A value that cannot be a secret, whatever field holds it (outside read r16-data, finding 8;
 * contract/choices.ts `learnedSecretFloor`): a date or time text, a number that reads as a time
 * (timeNumber), a record's UUID the run or the same value names as an identifier. Such a value is
 * never learned as a secret (one odd field would hide the dates and IDs of every later run), and
 * a key-ish name (`key`, `widgetKey`: FieldSpec.codeKept) shows it as it is.
 */
export function notSecretMaterial(
	value: string | number,
	identifiers: ReadonlySet<string> = new Set(),
): boolean {
	const text = String(value).trim();
	if (DATE_TEXT.test(text) || timeNumber(text)) return true;
	return UUID.test(text) && identifiers.has(text);
}
