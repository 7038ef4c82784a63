import type { IDataObject, INodeExecutionData, Logger } from 'n8n-workflow';

import { INVITE_URL_TOKEN_PARAMETER } from './contract/assumptions';

/*
 * The gate: the one place where secrets are kept from whoever reads what the package puts out.
 * Every door passes through it at its edge: the action node's output items and errors
 * (router.ts), its hints (common/hints.ts), every tool result and tool error (tool/route.ts), the
 * triggers' output items, and every log line the package writes. Nothing else masks.
 *
 * It masks by VALUE: every secret value the package handled (the credential's API key and
 * webhook secrets, wherever the credential was read; per run, an invite token in the path it
 * called, a card number or requisite it sent, and every value an answer carried under a secret's
 * name or inside a link as its token), in any field, at any depth, inside any text, also
 * URL-encoded or JSON-escaped, and a number also written with spaces or dashes. And by MEANING:
 * fields named like secrets, tokens, links that carry tokens, card numbers (Luhn), a CVV named
 * as such, `whsec_` webhook secrets, API-key and JWT shapes, `Bearer …` credentials.
 *
 * Two readers: the user (output items, errors, hints, logs) keeps what is not a secret (phone
 * numbers, record links, IDs); the AI model (tool results) gets less: requisites, any long number
 * in a text, and a record's own link cut to its host. Reveal (reveal() below) opens one field of
 * one record for the user only, where the user asked for it in full.
 */

export type Audience = 'user' | 'model';

/** What replaces a secret in a tool result. */
export const HIDDEN = '[hidden from the AI model]';
/** What replaces a secret for the user, and a token inside a link or a text (short, so the rest stays readable). */
const HIDDEN_PART = '[hidden]';

/* ------------------------------------------------------------------ what it knows: the values */

/**
 * Secrets known to every door of this process: the credential's, from every read of it (the
 * triggers keep theirs), and every long value an answer or a request named as a secret.
 */
const processSecrets = new Set<string>();
const PROCESS_LIMIT = 1024;
/** Values a run handled (its path's token, the card it sent, what its answers named as secrets). */
const runSecrets = new WeakMap<object, Set<string>>();
const RUN_LIMIT = 2048;
/** Values shorter than this are matched only as a whole field value (a CVV is 3 digits). */
const MIN_IN_TEXT = 8;

function addProcessSecret(value: string): void {
	if (value.length < MIN_IN_TEXT || processSecrets.has(value)) return;
	processSecrets.add(value);
	for (const oldest of processSecrets) {
		if (processSecrets.size <= PROCESS_LIMIT) break;
		processSecrets.delete(oldest);
	}
	processPattern.version++;
}

/**
 * The run a context belongs to: the first object on its prototype chain that has a set (the poll
 * trigger calls the service through `Object.create(ctx)`), else the context itself.
 */
function runSet(ctx: object | undefined, create: boolean): Set<string> | undefined {
	let at: object | null | undefined = ctx;
	while (at && at !== Object.prototype) {
		const found = runSecrets.get(at);
		if (found) return found;
		at = Object.getPrototypeOf(at) as object | null;
	}
	if (!create || !ctx) return undefined;
	const made = new Set<string>();
	runSecrets.set(ctx, made);
	return made;
}

function usable(value: unknown): string | undefined {
	if (typeof value === 'number' && Number.isInteger(value) && Math.abs(value) >= 100) {
		return String(value);
	}
	if (typeof value !== 'string') return undefined;
	const trimmed = value.trim();
	return trimmed.length >= 3 ? trimmed : undefined;
}

/**
 * A secret value this run handled, masked wherever it shows up from now on: in this run, and
 * (`everywhere`, for a long value) in every later door of this process too, so that a token one
 * tool call read is hidden when another call's answer carries it bare.
 */
export function rememberSecret(ctx: object | undefined, value: unknown, everywhere = false): void {
	const text = usable(value);
	if (text === undefined) return;
	const set = runSet(ctx, true);
	if (set && set.size < RUN_LIMIT) {
		set.add(text);
		if (typeof value === 'string' && value !== text) set.add(value);
	}
	if (everywhere) addProcessSecret(text);
}

/** The credential's API key and webhook secrets (current and previous), from any read of it. */
export function rememberCredential(data: Record<string, unknown>): void {
	for (const field of ['apiKey', 'webhookSecret', 'previousWebhookSecret']) {
		const value = data[field];
		if (typeof value !== 'string') continue;
		addProcessSecret(value.trim());
		addProcessSecret(value);
	}
}

/**
 * What an error or a log shows in place of a path segment that is a secret (an invite's token):
 * the path as shown (ApiRequest.shownPath) declares the secret, and the gate learns it from it.
 */
export const HIDDEN_IN_PATH = '[invite token hidden]';

/** Forgets what this process learned, as a new n8n process starts (for tests). */
export function forgetLearnedSecrets(): void {
	processSecrets.clear();
	processPattern.version++;
}

/** Opens a run on a context: what its calls learn is kept for its doors. */
export function openRun(ctx: object): void {
	runSet(ctx, true);
}

/* ------------------------------------------------------------------ what it knows: the meaning */

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
	// A field that names another field (`apiKeyField: "apiKey"`) holds no secret.
	if (name === '' || /(?:field|fieldname)$/.test(name)) return undefined;
	if (/cvv|cvc|securitycode/.test(name)) return 'cvv';
	if (/cardnumber|^pan$|fullpan|cardpan/.test(name)) return 'cardNumber';
	if (name.endsWith('webhooksecret') || name === 'secret' || name === 'signingsecret') {
		return 'webhookSecret';
	}
	if (SECRET_NAMES.has(name) || SECRET_PARTS.some((part) => name.includes(part))) return 'secret';
	if (name.includes('secret')) return 'secret';
	if (name.endsWith('token')) return 'token';
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

function decoded(value: string): string {
	try {
		return decodeURIComponent(value);
	} catch {
		return value;
	}
}

/**
 * How a link is read. For the model every token-like path segment is a token; for the user only
 * the one after an invite segment (record IDs in links stay readable). `found` collects what was
 * hidden, so that the same token is known by value elsewhere.
 */
interface LinkReading {
	strong: boolean;
	found?: string[];
}

/** The path part of a link with its token segments hidden. */
function maskPath(path: string, reading: LinkReading): string {
	const segments = path.split('/');
	return segments
		.map((segment, index) => {
			if (segment === '') return segment;
			const after = index > 0 && INVITE_SEGMENTS.has(segments[index - 1].toLowerCase());
			if (!(after || (reading.strong && tokenLike(segment)))) return segment;
			// Only a segment named a token by where it stands is learned: an ID is not a secret.
			if (after) reading.found?.push(segment, decoded(segment));
			return HIDDEN_PART;
		})
		.join('/');
}

/** `a=1&token=…` with every credential value hidden. */
function maskParameters(text: string, reading: LinkReading): string {
	return text
		.split('&')
		.map((pair) => {
			const at = pair.indexOf('=');
			if (at < 0) return pair;
			const name = pair.slice(0, at);
			const value = pair.slice(at + 1);
			const named = normalise(name);
			const byName =
				SECRET_PARAMETERS.has(named) || /token|invite|code|secret|key|auth|sig|ref/.test(named);
			// For the user an ID in a query (`?orderId=…`) stays; for the model any token-like value goes.
			const secret = value !== '' && (byName || (reading.strong && tokenLike(decoded(value))));
			if (!secret) return pair;
			// Learned only when its name says it is a credential, not for a look or a loose name.
			if (SECRET_PARAMETERS.has(named) || /token|secret|invite/.test(named)) {
				reading.found?.push(value, decoded(value));
			}
			return `${name}=${HIDDEN_PART}`;
		})
		.join('&');
}

/** A link or a path with the tokens in its path, query and fragment hidden. */
function maskLink(link: string, reading: LinkReading): string {
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
	let out = scheme + maskPath(pathPart.slice(scheme.length), reading);
	if (query !== undefined) out += `?${maskParameters(query, reading)}`;
	if (fragment !== undefined) {
		// A fragment is read both ways: `#token=…` and `#/invite/…`.
		const fragmentQueryAt = fragment.indexOf('?');
		const head = fragmentQueryAt < 0 ? fragment : fragment.slice(0, fragmentQueryAt);
		const tail = fragmentQueryAt < 0 ? undefined : fragment.slice(fragmentQueryAt + 1);
		out += `#${head.includes('=') ? maskParameters(head, reading) : maskPath(head, reading)}`;
		if (tail !== undefined) out += `?${maskParameters(tail, reading)}`;
	}
	return out;
}

/**
 * Links with a scheme, `www.` links, host names followed by a path or query
 * (`pay.example.com/invite/…`) and absolute paths (`/auth/invites/…`) in a text.
 */
const LINK =
	/(?:\b[a-z][a-z0-9+.-]*:\/\/|\bwww\.|\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}(?=[/?#])|(?<![\w.~%-])\/(?=[\w.~%-]))[^\s"'<>`\\[\]]*/gi;
/** `token=…`, `api_key: "…"`, `password = …` written in a text. */
const NAMED_SECRET =
	/\b((?:invite[_ -]?|session[_ -]?|access[_ -]?|refresh[_ -]?|auth[_ -]?)?token|api[_ -]?key|x-api-key|secret|password)(\\?["']?\s*[:=]\s*\\?["']?)([^\s"'&,;)\\]+)/gi;
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{6,}/g;
const JWT = /\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;
const WEBHOOK_SECRET = /\bwhsec_[A-Za-z0-9]{8,}/g;
const API_KEY = /\b(?:sk|rk|ak|pk)_[A-Za-z0-9_-]{8,}/g;
const INVITE_TOKEN = /\binv_[A-Za-z0-9]{8,}/g;
/** A CVV named in a text: `CVV 123`, `cvc: 1234`, `"cardCvv":"123"` (also JSON-escaped). */
const CVV_IN_TEXT = /(cvv2?|cvc2?|security code)(\W{0,6})(\d{3,4})\b/gi;
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

/* ------------------------------------------------------------------ how masked values look */

/** "•••• 1234": a number (card or phone) with its last four digits only. */
export function maskRequisite(value: string): string {
	const digits = value.replace(/\D/g, '');
	return digits.length > 4 ? `•••• ${digits.slice(-4)}` : '••••';
}

/** "•••• •••• •••• 1234": a card number the way the card itself is usually shown. */
function maskCardNumber(value: string): string {
	const digits = value.replace(/\D/g, '');
	return digits.length > 4 ? `•••• •••• •••• ${digits.slice(-4)}` : '•••• •••• •••• ••••';
}

/** "whsec_…9f3a": a secret with its last four characters only. */
function maskKeepingEnd(value: string): string {
	if (value.length <= 8) return '••••';
	const prefix = value.startsWith('whsec_') ? 'whsec_' : '';
	return `${prefix}…${value.slice(-4)}`;
}

/** Values masked already: dots, then at most the last four digits. */
function maskedAlready(value: string): boolean {
	return /^[•*…][•*…\s-]*\d{0,4}$/.test(value);
}

/* ------------------------------------------------------------------ masking */

interface Known {
	/** Every form of every long secret (numbers also with separators), one pattern each part. */
	patterns: RegExp[];
	/** Short secrets (a CVV): a whole field value only. */
	short: Set<string>;
}

interface Reading {
	audience: Audience;
	known: Known;
}

/** Every way a value can be written in an answer, a link or a JSON text. */
function formsOf(value: string): string[] {
	const forms = new Set<string>([value]);
	const encoded = encodeURIComponent(value);
	forms.add(encoded);
	forms.add(encoded.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()));
	forms.add(encodeURI(value));
	forms.add(encoded.replace(/%20/g, '+'));
	for (const form of [...forms]) {
		const escaped = JSON.stringify(form).slice(1, -1);
		forms.add(escaped);
		// A JSON text inside a JSON string (a raw body kept as text, then serialised).
		forms.add(JSON.stringify(escaped).slice(1, -1));
	}
	return [...forms].filter((form) => form.length >= 3);
}

const NUMBER = /^\+?[\d\s()-]+$/;

function escapeForPattern(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/** One pattern that finds any form of any of the values (undefined: none to find). */
function patternOf(values: Iterable<string>): RegExp | undefined {
	const parts = new Set<string>();
	for (const value of values) {
		if (value.length < MIN_IN_TEXT) continue;
		for (const form of formsOf(value)) parts.add(escapeForPattern(form));
		const digits = value.replace(/\D/g, '');
		if (NUMBER.test(value) && digits.length >= 10) {
			parts.add(`\\+?${digits.split('').join('[\\s()-]*')}`);
		}
	}
	if (parts.size === 0) return undefined;
	// Longest first: where two forms start at one place, the whole of the longer one goes.
	return new RegExp([...parts].sort((a, b) => b.length - a.length).join('|'), 'g');
}

/** The pattern of the process's secrets, made again only when they change. */
const processPattern: { version: number; built: number; pattern?: RegExp } = {
	version: 0,
	built: -1,
};

function processSecretsPattern(): RegExp | undefined {
	if (processPattern.built !== processPattern.version) {
		processPattern.pattern = patternOf(processSecrets);
		processPattern.built = processPattern.version;
	}
	return processPattern.pattern;
}

function knownFor(ctx: object | undefined, extra: string[] = []): Known {
	const values = new Set<string>(extra);
	for (const value of runSet(ctx, false) ?? []) values.add(value);
	const short = new Set<string>();
	for (const value of values) if (value.length < MIN_IN_TEXT) short.add(value);
	const patterns: RegExp[] = [];
	const own = patternOf([...values].filter((value) => !processSecrets.has(value)));
	const shared = processSecretsPattern();
	if (own) patterns.push(own);
	if (shared) patterns.push(shared);
	return { patterns, short };
}

/** What a secret found by value becomes: a number keeps its last four digits. */
function shownFor(value: string, audience: Audience): string {
	if (NUMBER.test(value) && value.replace(/\D/g, '').length >= 10) return maskRequisite(value);
	return audience === 'model' ? HIDDEN : HIDDEN_PART;
}

function byValue(text: string, reading: Reading): string {
	let out = text;
	for (const pattern of reading.known.patterns) {
		out = out.replace(pattern, (match) => shownFor(match, reading.audience));
	}
	return out;
}

/** Every secret a text holds, hidden; the rest of the text as it was. */
function maskText(text: string, reading: Reading, inText: boolean): string {
	const strong = reading.audience === 'model';
	let out = byValue(text, reading);
	out = out.replace(WEBHOOK_SECRET, (match) => maskKeepingEnd(match));
	out = out.replace(JWT, HIDDEN_PART);
	out = out.replace(BEARER, (_match, kind: string) => `${kind} ${HIDDEN_PART}`);
	out = out.replace(API_KEY, HIDDEN_PART);
	out = out.replace(INVITE_TOKEN, HIDDEN_PART);
	out = out.replace(LINK, (link) => maskLink(link, { strong }));
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
	// For the model, any long number in a free text (a phone or card requisite).
	if (strong && inText) out = out.replace(/\+?\d{10,}/g, (match) => maskRequisite(match));
	return out;
}

/**
 * A record's own link cut to where it leads, for the model: `https://cabinet.example.com/[hidden]`.
 * Anything else in such a field (no scheme and host) is judged by its content like any value.
 */
function linkHost(link: string, reading: Reading): string {
	const host = /^[a-z][a-z0-9+.-]*:\/\/[^/?#\s]+/i.exec(link.trim())?.[0];
	if (!host) return maskText(link, reading, false);
	return host.length === link.trim().length ? host : `${host}/${HIDDEN_PART}`;
}

/** Sets a field as plain data, also one named `__proto__` (possible from JSON). */
function setField(out: IDataObject, key: string, value: unknown): void {
	Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
}

function maskField(key: string, value: unknown, reading: Reading, inText: boolean): unknown {
	const kind = fieldKind(key);
	const model = reading.audience === 'model';
	const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
	if (kind && typeof text === 'string' && text !== '' && !maskedAlready(text)) {
		if (kind === 'webhookSecret') return maskKeepingEnd(text);
		if (kind === 'secret') return model ? HIDDEN : maskKeepingEnd(text);
		if (kind === 'cvv') return '•••';
		if (kind === 'cardNumber') return maskCardNumber(text);
		// A field named like a token may name a currency (`token: "USDT"`): a code is kept.
		if (kind === 'token') {
			if (/^[A-Z]{2,10}$/.test(text)) return text;
			return model ? HIDDEN : maskKeepingEnd(text);
		}
		if (model && kind === 'requisite' && /\d/.test(text)) return maskRequisite(text);
		if (model && kind === 'link') return linkHost(text, reading);
	}
	return maskValue(value, reading, inText || TEXT_FIELDS.has(normalise(key)));
}

function maskValue(value: unknown, reading: Reading, inText: boolean): unknown {
	if (typeof value === 'string') {
		if (reading.known.short.has(value.trim())) return shownFor(value, reading.audience);
		return maskedAlready(value) ? value : maskText(value, reading, inText);
	}
	if (typeof value === 'number') {
		// A card number that arrived as a JSON number: 15 or more digits are never an amount.
		if (Number.isInteger(value) && Math.abs(value) >= 1e14) return maskRequisite(String(value));
		if (Number.isInteger(value) && Math.abs(value) >= 1e9) {
			const masked = byValue(String(value), reading);
			return masked === String(value) ? value : masked;
		}
		return value;
	}
	if (Array.isArray(value)) return value.map((entry) => maskValue(entry, reading, inText));
	if (typeof value === 'object' && value !== null) {
		if (Buffer.isBuffer(value)) return maskText(value.toString('utf8'), reading, inText);
		const out: IDataObject = {};
		for (const [key, field] of Object.entries(value)) {
			setField(out, key, maskField(key, field, reading, inText));
		}
		return out;
	}
	return value;
}

/* ------------------------------------------------------------------ learning from a call */

/** The values an answer or a request body holds as secrets, by their field's name or in a link. */
function collect(value: unknown, found: string[], key?: string): void {
	if (typeof value === 'string' || typeof value === 'number') {
		const text = String(value);
		const kind = key === undefined ? undefined : fieldKind(key);
		if (kind && kind !== 'requisite' && kind !== 'link') {
			if (!(kind === 'token' && /^[A-Z]{2,10}$/.test(text))) found.push(text);
		}
		if (typeof value === 'string') {
			// A token inside a link (an invite's url), also when the same link names it another way.
			for (const link of value.match(LINK) ?? []) {
				maskLink(link, { strong: kind === 'link', found });
			}
			for (const pattern of [WEBHOOK_SECRET, JWT, API_KEY, INVITE_TOKEN]) {
				found.push(...(value.match(pattern) ?? []));
			}
			for (const match of value.match(CARD_DIGITS) ?? []) {
				if (luhn(match.replace(/\D/g, ''))) found.push(match, match.replace(/\D/g, ''));
			}
		}
		return;
	}
	if (Array.isArray(value)) {
		for (const entry of value) collect(entry, found, key);
		return;
	}
	if (typeof value === 'object' && value !== null && !Buffer.isBuffer(value)) {
		for (const [name, field] of Object.entries(value)) collect(field, found, name);
	}
}

/** What an answer of the service taught: the secrets it carries by name or in a link. */
export function learnFromAnswer(ctx: object | undefined, body: unknown): void {
	const found: string[] = [];
	let parsed = body;
	if (typeof body === 'string') {
		try {
			parsed = JSON.parse(body) as unknown;
		} catch {
			parsed = body;
		}
	}
	collect(parsed, found);
	for (const value of found) if (value.length >= 3) rememberSecret(ctx, value, true);
}

/**
 * What a request sends that is a secret: the segments of its path that its shown path hides (an
 * invite's token), every body field named like a secret, and a requisite (card or phone number).
 */
export function learnFromRequest(
	ctx: object | undefined,
	request: { path: string; shownPath?: string; body?: IDataObject },
): void {
	if (request.shownPath !== undefined) {
		const shown = new Set(request.shownPath.split('/'));
		for (const segment of request.path.split('/')) {
			if (segment === '' || shown.has(segment)) continue;
			rememberSecret(ctx, segment, true);
			rememberSecret(ctx, decoded(segment), true);
		}
	}
	if (!request.body) return;
	const found: string[] = [];
	collect(request.body, found);
	for (const [key, value] of Object.entries(request.body)) {
		if (
			fieldKind(key) === 'requisite' &&
			(typeof value === 'string' || typeof value === 'number')
		) {
			found.push(String(value));
		}
	}
	for (const value of found) rememberSecret(ctx, value);
}

/* ------------------------------------------------------------------ the doors */

/** Fields of one record the user asked to see in full (Reveal), for the user only. */
const revealed = new WeakMap<object, Set<string>>();

/**
 * Opens one field of one record for the user (Reveal Webhook Secret, Mask Card Number and CVV
 * off, the new API key an operation exists to give, the invite link to share). Every other field
 * of the record, and the same value anywhere else, stays masked; the AI model never gets it.
 */
export function reveal<T extends IDataObject>(record: T, ...fields: string[]): T {
	revealed.set(record, new Set([...(revealed.get(record) ?? []), ...fields]));
	return record;
}

function readingFor(ctx: object | undefined, audience: Audience, extra: string[] = []): Reading {
	return { audience, known: knownFor(ctx, extra) };
}

function gateRecord(json: IDataObject, reading: Reading): IDataObject {
	const open = reading.audience === 'user' ? revealed.get(json) : undefined;
	if (!open) return maskValue(json, reading, false) as IDataObject;
	const out: IDataObject = {};
	for (const [key, field] of Object.entries(json)) {
		setField(out, key, open.has(key) ? field : maskField(key, field, reading, false));
	}
	revealed.set(out, open);
	return out;
}

/** The fields of an item the gate let through in full (Reveal), for checks of what it opened. */
export function revealedFields(json: IDataObject): string[] {
	return [...(revealed.get(json) ?? [])];
}

/** What a value itself names as a secret: known by value in the rest of it too. */
function namedIn(value: unknown): string[] {
	const found: string[] = [];
	collect(value, found);
	return found.filter((entry) => entry.length >= 3);
}

/** One JSON value (an output item's json, a log's metadata, an error body) through the gate. */
export function gateJson<T>(ctx: object | undefined, value: T, audience: Audience = 'user'): T {
	const reading = readingFor(ctx, audience, namedIn(value));
	if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
		return gateRecord(value as IDataObject, reading) as T;
	}
	return maskValue(value, reading, false) as T;
}

/** One text (a hint, a log line, a message) through the gate. */
export function gateText(
	ctx: object | undefined,
	text: string,
	audience: Audience = 'user',
): string {
	return maskText(text, readingFor(ctx, audience), true);
}

/** Output items (of every output) through the gate; pairing and binary data kept. */
export function gateItems(
	ctx: object | undefined,
	outputs: INodeExecutionData[][],
	audience: Audience = 'user',
): INodeExecutionData[][] {
	const reading = readingFor(
		ctx,
		audience,
		namedIn(outputs.map((items) => items.map((item) => item.json))),
	);
	return outputs.map((items) =>
		items.map((item) => ({ ...item, json: gateRecord(item.json, reading) })),
	);
}

/** Properties of an n8n error that are not the error's text: the workflow's node stays as it is. */
const ERROR_KEPT = new Set(['node', 'timestamp', 'lineNumber', 'level', 'functionality']);

function gateErrorWith<T>(error: T, reading: Reading, seen: Set<object>): T {
	if (!(error instanceof Error) || seen.has(error)) return error;
	seen.add(error);
	const target = error as unknown as Record<string, unknown>;
	for (const key of Object.getOwnPropertyNames(error)) {
		if (ERROR_KEPT.has(key)) continue;
		const value = target[key];
		if (typeof value === 'string') target[key] = maskText(value, reading, true);
		else if (value instanceof Error) gateErrorWith(value, reading, seen);
		else if (typeof value === 'object' && value !== null) {
			target[key] = maskValue(value, reading, true);
		}
	}
	return error;
}

/**
 * An error through the gate, in place (n8n tells errors apart by their class): its message,
 * description, stack, context, cause and the response n8n keeps with it, at any depth.
 */
export function gateError<T>(ctx: object | undefined, error: T, audience: Audience = 'user'): T {
	return gateErrorWith(error, readingFor(ctx, audience), new Set());
}

/**
 * A redirect's Location as an error shows it: without its query and fragment, and its path
 * through the gate with every token-like segment hidden (an error never needs them).
 */
export function gateLocation(ctx: object | undefined, location: string): string {
	const cut = location.split(/[?#]/)[0];
	return maskLink(byValue(cut, readingFor(ctx, 'user')), { strong: true });
}

/** The package's logger for a context: every line and its metadata through the gate. */
export function gateLogger(ctx: { logger: Logger }): Logger {
	const { logger } = ctx;
	const line = (level: keyof Logger) => (message: string, meta?: Parameters<Logger['info']>[1]) => {
		const shown = gateText(ctx, message);
		if (meta === undefined) logger[level](shown);
		else logger[level](shown, gateJson(ctx, meta));
	};
	return { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') };
}

/**
 * A trigger's method run through the gate: the error it throws. (n8n's contexts are not wrapped:
 * their log lines pass gateLogger where they are written.)
 */
export async function throughGate<T extends object, R>(
	ctx: T,
	method: (this: T) => Promise<R>,
): Promise<R> {
	try {
		return await method.call(ctx);
	} catch (error) {
		throw gateError(ctx, error);
	}
}

/**
 * A tool result as the model may see it, with `secrets` (e.g. the credential's) masked besides
 * what the gate knows: for a caller that has no context.
 */
export function maskForModel(json: IDataObject, secrets: string[] = []): IDataObject {
	const usableSecrets = secrets.filter(
		(secret) => typeof secret === 'string' && secret.length >= MIN_IN_TEXT,
	);
	return gateRecord(json, readingFor(undefined, 'model', usableSecrets));
}
