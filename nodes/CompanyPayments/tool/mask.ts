import type { IDataObject } from 'n8n-workflow';

import { INVITE_URL_TOKEN_PARAMETER } from '../../shared/contract/assumptions';
import { maskCardNumber } from '../card/getSensitiveData.operation';
import { maskWebhookSecret } from '../company/fields';
import { maskNumbers, maskRequisite } from '../payout/requisite';

export const HIDDEN = '[hidden from the AI model]';
/** What replaces a token inside a link or a text (short, so the rest stays readable). */
const HIDDEN_PART = '[hidden]';

/*
 * The mask works from what a value holds, not only from where it is. By its field's name (any
 * spelling: `apiKey`, `API_KEY`, `x-api-key`): credentials, secrets, tokens, CVV, card numbers,
 * requisites. By its content, in any field and inside any text: a link that carries a token
 * (in its path, its query or its fragment: the node's own invite reader takes `?token=` or the
 * last path segment), a webhook secret `whsec_…`, an API key `sk_…`, a JWT session token, a
 * `Bearer …` credential, `token=…`/`api_key: …` pairs, a card number (15–19 digits passing the
 * Luhn check, also grouped with spaces or dashes), a CVV named as such, and in free text any run
 * of 10 or more digits (phone and card requisites).
 */

/** A field name without case and separators: `X-Api-Key` and `api_key` are both `xapikey`. */
function normalise(key: string): string {
	return key.toLowerCase().replace(/[^a-z0-9]/g, '');
}

type FieldKind = 'secret' | 'webhookSecret' | 'token' | 'cvv' | 'cardNumber' | 'requisite' | 'link';

/** Name parts that make a field a credential or secret wherever they appear in its name. */
const SECRET_PARTS = [
	'password',
	'passwd',
	'passphrase',
	'apikey',
	'privatekey',
	'accesskey',
	'secretkey',
	'authorization',
	'bearer',
	'jwt',
	'cookie',
	'credential',
];
/** Names of a record's own link (an invite's `url`), as opposed to a link it points at (`webhookUrl`). */
const LINK_NAMES = new Set([
	'url',
	'uri',
	'link',
	'href',
	'inviteurl',
	'invitelink',
	'inviteuri',
	'joinurl',
	'joinlink',
	'accepturl',
	'acceptlink',
]);
/** Whole names that are credentials. */
const SECRET_NAMES = new Set(['key', 'newkey', 'pin', 'session', 'sessionid', 'otp']);

function fieldKind(key: string): FieldKind | undefined {
	const name = normalise(key);
	if (name === '') return undefined;
	if (/cvv|cvc|securitycode/.test(name)) return 'cvv';
	if (/cardnumber|^pan$|fullpan|cardpan/.test(name)) return 'cardNumber';
	if (name.endsWith('webhooksecret') || name === 'secret' || name === 'signingsecret') {
		return 'webhookSecret';
	}
	if (SECRET_NAMES.has(name) || SECRET_PARTS.some((part) => name.includes(part))) return 'secret';
	if (name.includes('secret')) return 'secret';
	if (name.endsWith('token')) return 'token';
	// A link a record carries as its own (an invite's `url`): it is the key to what it opens,
	// whatever form the token takes in it, so only where it leads (scheme and host) is kept.
	if (LINK_NAMES.has(name)) return 'link';
	if (name === 'requisite' || name.endsWith('requisite') || /phone/.test(name)) return 'requisite';
	return undefined;
}

/** Free text that may quote a number the service or a person wrote. */
const TEXT_FIELDS = new Set([
	'error',
	'whattodo',
	'message',
	'servicemessage',
	'description',
	'comment',
	'note',
	'reason',
	'details',
	'admincomment',
]);

/** Query or fragment parameters whose value is a credential whatever it looks like. */
const SECRET_PARAMETERS = new Set([
	normalise(INVITE_URL_TOKEN_PARAMETER),
	't',
	'k',
	'key',
	'code',
	'secret',
	'invite',
	'invitetoken',
	'auth',
	'session',
	'sig',
	'signature',
	'password',
	'apikey',
	'accesstoken',
	'refreshtoken',
	'sessiontoken',
	'jwt',
]);
/** Path segments after which the next segment is an invite's token (`/auth/invites/{token}`). */
const INVITE_SEGMENTS = new Set(['invite', 'invites', 'invitation', 'invitations', 'join', 'i']);

/**
 * A value that can be a token: no spaces, and either long or mixing letters and digits, such as
 * `inv_3f9a…`, a UUID or a base64 string. Plain words (`accept`, `company-payments`) are not.
 */
function tokenLike(value: string): boolean {
	if (!/^[A-Za-z0-9._~+=%-]+$/.test(value)) return false;
	if (value.length >= 24) return true;
	if (value.length >= 8 && /\d/.test(value) && /[A-Za-z]/.test(value)) return true;
	// Random letters in both cases (`QwErTyUiOp…`), which words and slugs are not.
	return value.length >= 10 && /[a-z].*[A-Z]|[A-Z].*[a-z]/.test(value.slice(1));
}

/** The path part of a link with its token segments hidden. */
function maskPath(path: string): string {
	const segments = path.split('/');
	return segments
		.map((segment, index) => {
			if (segment === '') return segment;
			const after = index > 0 && INVITE_SEGMENTS.has(segments[index - 1].toLowerCase());
			return after || tokenLike(segment) ? HIDDEN_PART : segment;
		})
		.join('/');
}

/** `a=1&token=…` with every credential value hidden. */
function maskParameters(text: string): string {
	return text
		.split('&')
		.map((pair) => {
			const at = pair.indexOf('=');
			if (at < 0) return pair;
			const name = pair.slice(0, at);
			const value = pair.slice(at + 1);
			let decoded = value;
			try {
				decoded = decodeURIComponent(value);
			} catch {
				// Not percent-encoded: judged as it stands.
			}
			const named = normalise(name);
			const secret =
				value !== '' &&
				(SECRET_PARAMETERS.has(named) ||
					/token|invite|code|secret|key|auth|sig|ref/.test(named) ||
					tokenLike(decoded));
			return secret ? `${name}=${HIDDEN_PART}` : pair;
		})
		.join('&');
}

/** A link or a path with the tokens in its path, query and fragment hidden. */
function maskLink(link: string): string {
	const hashAt = link.indexOf('#');
	const beforeHash = hashAt < 0 ? link : link.slice(0, hashAt);
	const fragment = hashAt < 0 ? undefined : link.slice(hashAt + 1);
	const queryAt = beforeHash.indexOf('?');
	const pathPart = queryAt < 0 ? beforeHash : beforeHash.slice(0, queryAt);
	const query = queryAt < 0 ? undefined : beforeHash.slice(queryAt + 1);
	// The host stays as it is: only what follows it can carry a token.
	const scheme =
		/^(?:[a-z][a-z0-9+.-]*:\/\/[^/]*|www\.[^/]*|[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}(?=\/|$))/i.exec(
			pathPart,
		)?.[0] ?? '';
	let out = scheme + maskPath(pathPart.slice(scheme.length));
	if (query !== undefined) out += `?${maskParameters(query)}`;
	if (fragment !== undefined) {
		// A fragment is read both ways: `#token=…` and `#/invite/…`.
		const fragmentQueryAt = fragment.indexOf('?');
		const head = fragmentQueryAt < 0 ? fragment : fragment.slice(0, fragmentQueryAt);
		const tail = fragmentQueryAt < 0 ? undefined : fragment.slice(fragmentQueryAt + 1);
		out += `#${head.includes('=') ? maskParameters(head) : maskPath(head)}`;
		if (tail !== undefined) out += `?${maskParameters(tail)}`;
	}
	return out;
}

/**
 * Links with a scheme, `www.` links, host names followed by a path or query
 * (`pay.example.com/invite/…`) and absolute paths (`/auth/invites/…`) in a text.
 */
const LINK =
	/(?:\b[a-z][a-z0-9+.-]*:\/\/|\bwww\.|\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}(?=[/?#])|(?<![\w.~%-])\/(?=[\w.~%-]))[^\s"'<>`]*/gi;
/** `token=…`, `api_key: "…"`, `password = …` written in a text. */
const NAMED_SECRET =
	/\b((?:invite[_ -]?|session[_ -]?|access[_ -]?|refresh[_ -]?|auth[_ -]?)?token|api[_ -]?key|x-api-key|secret|password)(["']?\s*[:=]\s*["']?)([^\s"'&,;)]+)/gi;
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{6,}/g;
const JWT = /\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;
const WEBHOOK_SECRET = /\bwhsec_[A-Za-z0-9]{8,}/g;
const API_KEY = /\b(?:sk|rk|ak|pk)_[A-Za-z0-9_-]{8,}/g;
const INVITE_TOKEN = /\binv_[A-Za-z0-9]{8,}/g;
/** A CVV named in a text: `CVV 123`, `cvc: 1234`. */
const CVV_IN_TEXT = /\b(cvv2?|cvc2?|security code)(\W{0,3})(\d{3,4})\b/gi;
/**
 * 15–19 digits in one run, or grouped as cards are written (4-4-4-3…7, or 4-6-5) with spaces or
 * dashes; not part of a longer word (a UUID's last groups are not a card number).
 */
const CARD_DIGITS =
	/(?<![A-Za-z0-9_-])(?:\d{15,19}|\d{4}([ -])\d{4}\1\d{4}\1\d{3,7}|\d{4}([ -])\d{6}\2\d{5})(?![A-Za-z0-9_])/g;

function luhn(digits: string): boolean {
	let sum = 0;
	for (let index = 0; index < digits.length; index++) {
		let digit = Number(digits[digits.length - 1 - index]);
		if (index % 2 === 1) {
			digit *= 2;
			if (digit > 9) digit -= 9;
		}
		sum += digit;
	}
	return sum % 10 === 0;
}

/** Every secret a text holds by its content, hidden; the rest of the text as it was. */
function maskText(text: string, secrets: string[], inText: boolean): string {
	let out = text;
	for (const secret of secrets) out = out.split(secret).join(HIDDEN);
	out = out.replace(WEBHOOK_SECRET, (match) => maskWebhookSecret(match));
	out = out.replace(JWT, HIDDEN_PART);
	out = out.replace(BEARER, (_match, kind: string) => `${kind} ${HIDDEN_PART}`);
	out = out.replace(API_KEY, HIDDEN_PART);
	out = out.replace(INVITE_TOKEN, HIDDEN_PART);
	out = out.replace(LINK, (link) => maskLink(link));
	out = out.replace(NAMED_SECRET, (match, name: string, separator: string, value: string) =>
		value === HIDDEN_PART ? match : `${name}${separator}${HIDDEN_PART}`,
	);
	out = out.replace(
		CVV_IN_TEXT,
		(_match, name: string, separator: string) => `${name}${separator}•••`,
	);
	out = out.replace(CARD_DIGITS, (match) => {
		const digits = match.replace(/\D/g, '');
		return luhn(digits) ? maskRequisite(digits) : match;
	});
	return inText ? maskNumbers(out, '') : out;
}

/**
 * A record's own link cut to where it leads: `https://cabinet.example.com/[hidden]`. Anything
 * else in such a field (no scheme and host) is judged by its content like any value.
 */
function linkHost(link: string, secrets: string[]): string {
	const host = /^[a-z][a-z0-9+.-]*:\/\/[^/?#\s]+/i.exec(link.trim())?.[0];
	if (!host) return maskText(link, secrets, false);
	return host.length === link.trim().length ? host : `${host}/${HIDDEN_PART}`;
}

/** Values an operation masked already: dots, then at most the last four digits. */
function maskedAlready(value: string): boolean {
	return /^[•*…][•*…\s-]*\d{0,4}$/.test(value);
}

function maskField(key: string, value: unknown, secrets: string[], inText: boolean): unknown {
	const kind = fieldKind(key);
	const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
	if (kind && typeof text === 'string' && text !== '' && !maskedAlready(text)) {
		if (kind === 'webhookSecret') return maskWebhookSecret(text);
		if (kind === 'secret' || kind === 'cvv') return HIDDEN;
		if (kind === 'cardNumber') return maskCardNumber(text);
		// A field named like a token may name a currency (`token: "USDT"`): a code is kept.
		if (kind === 'token') return /^[A-Z]{2,10}$/.test(text) ? text : HIDDEN;
		if (kind === 'requisite' && /\d/.test(text)) return maskRequisite(text);
		if (kind === 'link') return linkHost(text, secrets);
	}
	return maskValue(value, secrets, inText || TEXT_FIELDS.has(normalise(key)));
}

function maskValue(value: unknown, secrets: string[], inText: boolean): unknown {
	if (typeof value === 'string')
		return maskedAlready(value) ? value : maskText(value, secrets, inText);
	// A card number that arrived as a JSON number: 15 or more digits are never an amount.
	if (typeof value === 'number' && Number.isInteger(value) && Math.abs(value) >= 1e14) {
		return maskRequisite(String(value));
	}
	if (Array.isArray(value)) return value.map((entry) => maskValue(entry, secrets, inText));
	if (typeof value === 'object' && value !== null) {
		const out: IDataObject = {};
		for (const [key, field] of Object.entries(value)) {
			out[key] = maskField(key, field, secrets, inText) as IDataObject[string];
		}
		return out;
	}
	return value;
}

/**
 * A tool result as the model may see it, whatever the node's options say: every secret found
 * by its field's name or by its content (see above) hidden, full card numbers and requisites
 * cut to their last four digits, and every occurrence of the credential's own secrets
 * (`secrets`: API key, webhook secrets) replaced, in any field.
 */
export function maskForModel(json: IDataObject, secrets: string[]): IDataObject {
	const usable = secrets.filter((secret) => typeof secret === 'string' && secret.length >= 8);
	return maskValue(json, usable, false) as IDataObject;
}
