import { maskPatterns } from './patterns';

/*
 * Quoting a service's text in an error (outside read r5-data, findings 2 and 3). A quote is cut
 * to a length; a cut made before masking can split a secret, and the part left (`"pin":"48291`,
 * `whsec_012345`, `"cardNumberFull":"550000555555`) no longer looks like the secret it was, so
 * no later mask finds it. So a quote is masked whole first, then cut, and the cut never ends
 * inside a word or a run of digit groups the text goes on with: that part is dropped, not shown.
 */

/** A character a word or a value goes on with (not a space, quote, bracket or separator). */
const WORD_CHAR = /[^\s"'`,;:{}[\]()<>=&|]/;
/** The trailing run of word characters of a text. */
const TRAILING_WORD = /[^\s"'`,;:{}[\]()<>=&|]+$/;
/** Digits grouped by spaces, dots or dashes at the end of a text (a card number's first groups). */
const TRAILING_DIGITS = /\d[\d\s.-]*$/;

/**
 * A key's kept end (`whsec_…beef`, the gate's mask of a webhook secret) as a quote shows it:
 * without the end. An output names which secret it masked by its last four characters; a quote
 * of an answer the node could not read has no such need, and gives none of its characters.
 */
const KEPT_END = /(whsec_)?…[A-Za-z0-9]{4}(?![A-Za-z0-9])/g;

/** A quote's masked keys without the ends their masks keep. */
export function withoutKeptEnds(text: string): string {
	return text.replace(KEPT_END, (_match, prefix: string | undefined) => `${prefix ?? ''}…`);
}

/** A text cut to at most `limit` characters (then `…`), never ending inside a word or number. */
export function cutWhole(text: string, limit: number): string {
	if (text.length <= limit) return text;
	let cut = text.slice(0, limit);
	const rest = text.slice(limit);
	if (WORD_CHAR.test(rest[0]) && WORD_CHAR.test(cut[cut.length - 1] ?? '')) {
		cut = cut.replace(TRAILING_WORD, '');
	}
	// `5500 0055 | 5555 5559`: the groups before a cut that the digits go on after.
	if (/^[\s.-]*\d/.test(rest)) cut = cut.replace(TRAILING_DIGITS, '');
	return `${cut}…`;
}

/**
 * A free text of the service (a body that is not JSON, a proxy's page) as an error quotes it:
 * every secret its look shows masked over the whole text, then cut (cutWhole). Secrets known by
 * value (the credential's key) are masked by the gate at the error's edge; a part of one a cut
 * would leave is dropped here.
 */
export function quoteText(text: string, limit: number): string {
	const masked = maskPatterns(text, { strong: false, inText: true, identifiers: new Set() });
	return cutWhole(withoutKeptEnds(masked), limit);
}
