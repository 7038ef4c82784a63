import { createHash } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { CRYPTO_TOKEN, fieldSpec, fieldSpecIn, secretValueShown } from '../contract/records';
import type { FieldSpec } from '../contract/records';
import { lookupCode, notSecretMaterial, tokenCode } from './masks';
import { decoded, LINK, maskLink, UNIT_AFTER_DIGITS } from './patterns';
import { cutDeep } from './depth';
import { cardRunIn, declaresCard } from './requisite';
import {
	holdsTemplateValue,
	keyNamesField,
	namesPath,
	secretPair,
	templateValueKey,
	valueMember,
} from './pairs';

/*
 * Learned values: the secrets (and identifiers) the gate knows by value.
 *
 * - The credential's own API key and webhook secrets (current and previous) are known from every
 *   read of the credential on, at every door: they are the credential's, not learned from an
 *   answer, and a trigger that keeps its secrets between requests must still hide them.
 * - A value is learned as a secret only from a secret field (by the record model of
 *   contract/records.ts: an API key, a session token, a webhook secret, a card number, a CVV, an
 *   invite token, also where a link carries it as its token) of an answer, a request, or the
 *   value being shown. It is known to the run that saw it and to later runs of the same
 *   credential (a token one tool call read stays hidden in the next call's answer), never to
 *   another credential's runs, and never for the process.
 * - Identifiers a run handled (the IDs of its path, the identifier fields of its answers) are
 *   known too, so that the free-text patterns never take one for a secret inside a text.
 */

/** A memory bound on the credentials' own values, and on the values learned per credential. */
const PROCESS_LIMIT = 1024;
/** A memory bound on the values one run keeps (secrets and identifiers each). */
const RUN_LIMIT = 2048;
/** Values shorter than this are matched only as a whole field value (a CVV is 3 digits). */
export const MIN_IN_TEXT = 8;

/** The credentials' own values, from any read of a credential. */
const credentialValues = new Set<string>();
/**
 * The ones whose pieces are hidden too (maskPieces): all but a Base URL's `user:password`, whose
 * user name is no secret (its password is one on its own).
 */
const pieceValues = new Set<string>();
/**
 * A Base URL's password shorter than MIN_IN_TEXT, from 4 characters (outside read r10-data,
 * finding 2): found as a whole word of a text (not inside a longer word or number; one of digits
 * only is not) and as a whole field value, at every door, like the credential's other values.
 */
const SHORT_PASSWORD_MIN = 4;
const credentialShort = new Set<string>();
/**
 * A Base URL's user name and password shorter than MIN_IN_TEXT, whatever their length: found
 * where a text names them as such (`user opsbot`, `login: opsbot`, `"user":"opsbot"`, `password
 * Zq7!xw`, `pwd=…`) and as the whole value of a field so named (`user`, `login`, `pass`). A short
 * user name is never searched elsewhere: it may be an ordinary word (`admin`).
 */
const credentialNamed = new Map<string, 'user' | 'password'>();

/** What runs of one credential learned, by the credential's digest. */
const byCredential = new Map<string, Set<string>>();

interface RunState {
	secrets: Set<string>;
	identifiers: Set<string>;
	credential?: string;
}
const runs = new WeakMap<object, RunState>();

/** A version of the credentials' own values, for the pattern built from them. */
const credentialsVersion = { value: 0 };
/** A version of what runs and credentials learned, for the patterns built from it. */
const learnedVersion = { value: 0 };

function bounded(set: Set<string>, limit: number): void {
	for (const oldest of set) {
		if (set.size <= limit) break;
		set.delete(oldest);
	}
}

/**
 * The run a context belongs to: the first object on its prototype chain that has a state (the
 * poll trigger calls the service through `Object.create(ctx)`), else the context itself.
 */
function runOf(ctx: object | undefined, create: boolean): RunState | undefined {
	let at: object | null | undefined = ctx;
	while (at && at !== Object.prototype) {
		const found = runs.get(at);
		if (found) return found;
		at = Object.getPrototypeOf(at) as object | null;
	}
	if (!create || !ctx) return undefined;
	const made: RunState = { secrets: new Set(), identifiers: new Set() };
	runs.set(ctx, made);
	return made;
}

/** Opens a run on a context: what its calls learn is kept for its doors. */
export function openRun(ctx: object): void {
	runOf(ctx, true);
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
 * A secret value this run handled, masked wherever it shows up from now on in this run, and
 * (`forCredential`, for a long value) in later runs of the same credential too.
 */
export function rememberSecret(
	ctx: object | undefined,
	value: unknown,
	forCredential = false,
): void {
	// A webhook secret is known by its body too (outside read r17-data, finding 5).
	const body = secretBody(value);
	if (body !== undefined) rememberSecret(ctx, body, forCredential);
	const text = usable(value);
	// A date or a time is never a secret (outside read r16-data, finding 8).
	if (text === undefined || notSecretMaterial(text)) return;
	const run = runOf(ctx, true);
	if (!run) return;
	if (run.secrets.size < RUN_LIMIT && !run.secrets.has(text)) {
		run.secrets.add(text);
		if (typeof value === 'string' && value !== text) run.secrets.add(value);
		learnedVersion.value++;
	}
	if (forCredential && run.credential !== undefined && text.length >= MIN_IN_TEXT) {
		let learned = byCredential.get(run.credential);
		if (!learned) {
			learned = new Set();
			byCredential.set(run.credential, learned);
			for (const oldest of byCredential.keys()) {
				if (byCredential.size <= PROCESS_LIMIT) break;
				byCredential.delete(oldest);
			}
		}
		if (!learned.has(text)) {
			learned.add(text);
			bounded(learned, PROCESS_LIMIT);
			learnedVersion.value++;
		}
	}
}

/**
 * The random part of a prefixed webhook secret (`whsec_` + 48 hex characters): the whole of what
 * is secret in it, and what a service or a log may echo without the fixed public prefix (outside
 * read r17-data, finding 5: `signed with a1b2…`). Undefined for any other value, and for a body
 * too short to be known in a text.
 */
export function secretBody(value: unknown): string | undefined {
	if (typeof value !== 'string') return undefined;
	const match = /^\s*whsec_([A-Za-z0-9]+)\s*$/.exec(value);
	return match && match[1].length >= MIN_IN_TEXT ? match[1] : undefined;
}

/** An identifier this run handled: never taken for a secret by its look. */
export function rememberIdentifier(ctx: object | undefined, value: unknown): void {
	const text = usable(value);
	const run = runOf(ctx, true);
	if (text === undefined || !run || run.identifiers.size >= RUN_LIMIT) return;
	run.identifiers.add(text);
}

/**
 * The credential's API key and webhook secrets (current and previous), from a read of it: known
 * at every door from now on. With `ctx`, the run is bound to the credential, so what it learns is
 * known to the credential's later runs and to no other credential's.
 */
/**
 * The other ways a service may echo a credential's value with letters beyond ASCII (outside read
 * r19-data, finding 5: a Base URL's password `pässwört-…`): in the other Unicode normalisations
 * (NFC, NFD) and as its UTF-8 bytes read as Latin-1 (`pÃ¤sswÃ¶rt-…`). None for an ASCII value:
 * the forms are learned once with the credential, never computed per text.
 */
function otherEncodings(value: string): string[] {
	if (!/[\u0080-\uffff]/.test(value)) return [];
	const forms = new Set([value.normalize('NFC'), value.normalize('NFD')]);
	for (const form of [...forms]) forms.add(Buffer.from(form, 'utf8').toString('latin1'));
	forms.delete(value);
	return [...forms];
}

export function rememberCredential(data: Record<string, unknown>, ctx?: object): void {
	const values: unknown[] = [data.apiKey, data.webhookSecret, data.previousWebhookSecret];
	// Each webhook secret by its body alone too (outside read r17-data, finding 5).
	values.push(secretBody(data.webhookSecret), secretBody(data.previousWebhookSecret));
	// A Base URL's user and password (a service behind Basic auth) are secrets of the credential
	// too: a gateway may echo either (outside read r9-data, finding 1), also as the Basic header
	// (`user:password` in base64). Shorter ones are known where named (r10-data, finding 2).
	// A user name is no secret the way a password is (outside read r15-data, findings 1 and 2): it
	// may be an ordinary word (`merchant`, `payments`), so it is never searched inside words, keys or
	// IDs. It is hidden in a link (withoutUserinfo), with the password, where a text names it as a
	// user name, and as the whole value of a field so named, whatever its length.
	const userinfo = urlUserinfo(data.baseUrl);
	values.push(userinfo.password);
	for (const [value, role] of [
		[userinfo.user, 'user'],
		[userinfo.password, 'password'],
	] as const) {
		if (value === undefined || credentialNamed.has(value)) continue;
		if (role === 'password' && value.length >= MIN_IN_TEXT) continue;
		credentialNamed.set(value, role);
		if (role === 'password' && value.length >= SHORT_PASSWORD_MIN && /\D/.test(value)) {
			credentialShort.add(value);
		}
		credentialsVersion.value++;
	}
	if (credentialNamed.size > PROCESS_LIMIT) {
		for (const oldest of credentialNamed.keys()) {
			if (credentialNamed.size <= PROCESS_LIMIT) break;
			credentialNamed.delete(oldest);
			credentialShort.delete(oldest);
		}
		credentialsVersion.value++;
	}
	const joined = values.length;
	if (userinfo.user !== undefined || userinfo.password !== undefined) {
		values.push(`${userinfo.user ?? ''}:${userinfo.password ?? ''}`);
	}
	for (const [index, value] of values.entries()) {
		if (typeof value !== 'string') continue;
		// Also as the trigger and Update Profile read a Webhook Secret: without characters that
		// show nothing (transport/environment.ts normaliseWebhookSecret).
		const plain = value
			.trim()
			.replace(/[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]/g, '');
		for (const form of [value, value.trim(), plain, ...otherEncodings(plain)]) {
			if (form.length < MIN_IN_TEXT) continue;
			if (index < joined && !pieceValues.has(form)) {
				pieceValues.add(form);
				credentialsVersion.value++;
			}
			if (credentialValues.has(form)) continue;
			credentialValues.add(form);
			credentialsVersion.value++;
		}
	}
	if (credentialValues.size > PROCESS_LIMIT) {
		bounded(credentialValues, PROCESS_LIMIT);
		credentialsVersion.value++;
	}
	if (pieceValues.size > PROCESS_LIMIT) {
		bounded(pieceValues, PROCESS_LIMIT);
		credentialsVersion.value++;
	}
	if (!ctx) return;
	const run = runOf(ctx, true);
	if (run && run.credential === undefined) {
		learnedVersion.value++;
		const digest = createHash('sha256')
			.update(`${String(data.baseUrl ?? '')}\n${String(data.apiKey ?? '')}`)
			.digest('hex');
		run.credential = digest;
	}
}

/**
 * The user and password a URL carries (`https://user:password@host`), decoded; none without. A
 * link's user part is also hidden whole wherever a link is written (patterns.ts withoutUserinfo).
 */
function urlUserinfo(value: unknown): { user?: string; password?: string } {
	if (typeof value !== 'string') return {};
	try {
		const url = new URL(value.trim());
		return {
			user: url.username === '' ? undefined : decoded(url.username),
			password: url.password === '' ? undefined : decoded(url.password),
		};
	} catch {
		return {};
	}
}

/** Forgets everything learned, as a new n8n process starts (for tests). */
export function forgetLearnedSecrets(): void {
	credentialValues.clear();
	pieceValues.clear();
	credentialShort.clear();
	credentialNamed.clear();
	byCredential.clear();
	credentialsVersion.value++;
	learnedVersion.value++;
}

/** What a door knows: the credentials' values, what its run and credential learned, and extras. */
export interface KnownValues {
	/** Secrets of the run and its credential, and the extras (by value). */
	own: Set<string>;
	/** The credentials' own values (one shared pattern, rebuilt only when they change). */
	credentials: ReadonlySet<string>;
	identifiers: Set<string>;
}

export function knownValues(
	ctx: object | undefined,
	extraSecrets: Iterable<string> = [],
	extraIdentifiers: Iterable<string> = [],
): KnownValues {
	const run = runOf(ctx, false);
	const own = new Set<string>(extraSecrets);
	for (const value of run?.secrets ?? []) own.add(value);
	const learned = run?.credential === undefined ? undefined : byCredential.get(run.credential);
	for (const value of learned ?? []) own.add(value);
	const identifiers = new Set<string>(extraIdentifiers);
	for (const value of run?.identifiers ?? []) identifiers.add(value);
	// A secret is never spared as an identifier.
	for (const value of own) identifiers.delete(value);
	for (const value of credentialValues) identifiers.delete(value);
	return { own, credentials: credentialValues, identifiers };
}

/* ------------------------------------------------------------ learning from what is shown or sent */

/** What a value names: its secret fields' values (also a link's token), and its identifiers. */
export interface Named {
	secrets: string[];
	identifiers: string[];
	/**
	 * Short secrets of digits (a CVV, a PIN) that a secret field of another item of the same
	 * output names, and no secret field of this one (scopedTo): not looked for in this item.
	 */
	elsewhere?: ReadonlySet<string>;
}

/** Every leaf (string or number) of a value, as text. */
function leaves(value: unknown, out: string[]): void {
	if (typeof value === 'string' || typeof value === 'number') out.push(String(value));
	else if (Array.isArray(value)) for (const entry of value) leaves(entry, out);
	else if (typeof value === 'object' && value !== null && !Buffer.isBuffer(value)) {
		for (const field of Object.values(value)) leaves(field, out);
	}
}

// The pair rule (a value named by a member beside it) lives in pairs.ts, one rule for every door.
export { PAIR_NAME_KEYS, PAIR_VALUE_KEYS, pairSpec, secretPair } from './pairs';
export type { SecretPair } from './pairs';

/** Kinds whose values a field shows as they are: no value under one is learned as a secret. */
const PLAIN_KINDS = new Set<FieldSpec['kind']>(['identifier', 'amount', 'state', 'time']);

/**
 * What `value` names, read by the record model: everything under a secret field, the token a
 * link carries where it stands as one (after `/invite/`, as `?token=`), and identifier values.
 */
export function collect(value: unknown, named: Named, spec?: FieldSpec): void {
	if (spec?.kind === 'secret') {
		const found: string[] = [];
		leaves(value, found);
		// A field named like a token may name a currency (`token: "USDT"`), a key-ish name a lookup
		// key (`key: "order_payment"`): a code is kept, and never learned as a secret.
		for (const text of found) {
			const code =
				(spec.secret === 'token' && tokenCode(text)) ||
				(spec.codeKept && lookupCode(text)) ||
				secretValueShown(spec, text);
			if (!code) named.secrets.push(text);
		}
		return;
	}
	if (typeof value === 'string' || typeof value === 'number') {
		if (spec?.kind === 'identifier' || spec === CRYPTO_TOKEN) {
			named.identifiers.push(String(value));
			return;
		}
		// A link's token is learned where a text or an unknown field holds the link; a value under a
		// kind shown as it is (an ID, an amount, a state, a time) is never learned as a secret.
		if (typeof value === 'string' && (spec === undefined || !PLAIN_KINDS.has(spec.kind))) {
			for (const link of value.match(LINK) ?? []) {
				maskLink(link, {
					strong: spec?.kind === 'link' && spec.ownLink === true,
					found: named.secrets,
				});
			}
		}
		return;
	}
	const plain = spec?.kind === 'identifier' || spec?.kind === 'amount';
	const found = plain ? undefined : secretPair(value);
	const pair = found?.spec;
	if (Array.isArray(value)) {
		if (pair) {
			collect(value[1], named, pair);
			return;
		}
		for (const entry of value) collect(entry, named, spec);
		return;
	}
	if (typeof value === 'object' && value !== null && !Buffer.isBuffer(value)) {
		if (spec?.kind === 'identifier' || spec?.kind === 'amount') return;
		const record = value as Record<string, unknown>;
		for (const [name, field] of Object.entries(record)) {
			if (pair && valueMember(name)) {
				collect(field, named, pair);
				continue;
			}
			// A template's parameters: its `{{ value }}` is the pair's value (Symfony).
			if (pair && holdsTemplateValue(field)) {
				for (const [held, inner] of Object.entries(field)) {
					collect(inner, named, templateValueKey(held) ? pair : undefined);
				}
				continue;
			}
			// The pair's name is a name (`{"key":"cardPin"}`, `{"loc":["body","pin"]}`), never a
			// secret it holds.
			if (found && name === found.nameKey) continue;
			if (namesPath(name, field, record)) continue;
			// A `key` that names a field beside a message or a path (Joi's `context.key`).
			if (keyNamesField(name, field, record)) continue;
			// A requisite its record declares a card is a card number: found by value elsewhere too
			// (the raw body), whatever its digits look like.
			if (
				declaresCard(record.requisiteType) &&
				fieldSpec(name).kind === 'requisite' &&
				(typeof field === 'string' || typeof field === 'number') &&
				String(field).replace(/\D/g, '').length >= 12
			) {
				named.secrets.push(String(field));
			}
			// A deposit's token is the crypto token, never a secret (outside read r13-data, finding 2).
			collect(field, named, fieldSpecIn(record, name));
		}
	}
}

/** What a value names (see collect), from a JSON text too. */
export function namedIn(value: unknown): Named {
	const named: Named = { secrets: [], identifiers: [] };
	let parsed = value;
	if (typeof value === 'string') {
		try {
			parsed = JSON.parse(value) as unknown;
		} catch {
			parsed = value;
		}
	}
	// Read as deep as the gate reads (an answer nested thousands of levels: r14-data, finding 11).
	collect(cutDeep(parsed), named);
	// Never a value that cannot be a secret (a date, a time, a record's UUID the value names as an
	// identifier): outside read r16-data, finding 8.
	const identifiers = new Set(named.identifiers.map((entry) => entry.trim()));
	named.secrets = named.secrets.filter(
		(entry) => entry.trim().length >= 3 && !notSecretMaterial(entry, identifiers),
	);
	return named;
}

/** What an answer of the service taught: the secrets its secret fields carry, and its identifiers. */
export function learnFromAnswer(ctx: object | undefined, body: unknown): void {
	const named = namedIn(body);
	const known = runOf(ctx, false)?.identifiers;
	for (const value of named.secrets) {
		if (!notSecretMaterial(value, known)) rememberSecret(ctx, value, true);
	}
	for (const value of named.identifiers) rememberIdentifier(ctx, value);
}

/**
 * What a request sends: the segments of its path that its shown path hides (an invite's token)
 * are secrets, the ones it shows are identifiers (a payout's ID); every body field the model
 * names a secret, and a requisite (card or phone number) the run sends, is a secret of the run.
 */
export function learnFromRequest(
	ctx: object | undefined,
	request: { path: string; shownPath?: string; body?: IDataObject; qs?: IDataObject },
): void {
	const shown = new Set((request.shownPath ?? request.path).split('/'));
	for (const segment of request.path.split('?')[0].split('/')) {
		if (segment === '') continue;
		if (shown.has(segment)) {
			rememberIdentifier(ctx, decoded(segment));
			continue;
		}
		rememberSecret(ctx, segment, true);
		rememberSecret(ctx, decoded(segment), true);
	}
	for (const source of [request.body, request.qs]) {
		if (!source || typeof source !== 'object') continue;
		const named = namedIn(source);
		const email = typeof source.email === 'string' ? source.email : undefined;
		for (const value of named.secrets) {
			rememberSecret(ctx, value);
			// A password sent (Login, Invite Accept) may be echoed encoded, as a Base URL's password
			// is found (outside read r12-data, finding 6): in base64, with the e-mail as Basic auth
			// writes it (`email:password`), or spelt with spaces.
			if (typeof value !== 'string' || value.length < MIN_IN_TEXT) continue;
			for (const form of encodedForms(value, email)) rememberSecret(ctx, form);
		}
		for (const value of named.identifiers) rememberIdentifier(ctx, value);
		for (const [key, value] of Object.entries(source)) {
			// A card requisite only (outside read r15-data, finding 3): a phone the user typed is
			// shown to the user as Payout → Get shows it; a card number stays hidden, also when
			// the type sent says phone.
			if (
				fieldSpec(key).kind === 'requisite' &&
				(typeof value === 'string' || typeof value === 'number') &&
				(declaresCard(source.requisiteType) || cardRunIn(String(value)) !== undefined)
			) {
				rememberSecret(ctx, String(value));
			}
		}
	}
}

/** A sent secret's base64 forms (standard, unpadded, URL-safe; also `email:secret`), spelt with spaces. */
function encodedForms(value: string, email: string | undefined): string[] {
	const forms = new Set<string>();
	for (const plain of email === undefined ? [value] : [value, `${email}:${value}`]) {
		const base64 = Buffer.from(plain, 'utf8').toString('base64');
		const unpadded = base64.replace(/=+$/, '');
		forms.add(base64);
		forms.add(unpadded);
		forms.add(unpadded.replace(/\+/g, '-').replace(/\//g, '_'));
	}
	forms.add(Array.from(value).join(' '));
	return [...forms];
}

/* ------------------------------------------------------------ finding known values */

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

function escapeForPattern(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/** A percent-escape, also encoded a second time (`%20`, `%2520`). */
const ESCAPE = '%(?:25)?';
/**
 * Separators a number may be written with: spaces of any width, brackets, dots, dashes, also
 * URL-encoded (`%20`, `+` in a form, `%C2%A0`, `%E2%80%89`, `%2D`…, once or twice).
 */
const DIGIT_GAP = `(?:[\\s\\u00a0\\u2007\\u2009\\u202f().\\-\\u2010-\\u2013+]|${ESCAPE}(?:20|09|2[89DdEe]|[Cc]2${ESCAPE}[Aa]0|[Ee]2${ESCAPE}80${ESCAPE}(?:8[79]|[Aa][Ff]|9[0-3])))*`;

/**
 * A value with each character that is not a plain letter or digit written as any JSON encoder
 * writes it: as is, escaped with a backslash (`\/`, PHP's default; `\"`), or as `\u002f` /
 * `\u002F` (Go's `\u0026`, PHP's JSON_HEX_*, Python's ensure_ascii for non-ASCII), each escape
 * also escaped once or twice more (a JSON text inside a JSON string). The whole value is found,
 * not only up to its first escaped character.
 */
function escapedForms(value: string): string | undefined {
	if (/^[A-Za-z0-9]*$/.test(value)) return undefined;
	let out = '';
	for (const char of value.split('')) {
		if (/[A-Za-z0-9]/.test(char)) {
			out += char;
			continue;
		}
		const hex = char.charCodeAt(0).toString(16).padStart(4, '0');
		const anyCase = hex.replace(/[a-f]/g, (digit) => `[${digit}${digit.toUpperCase()}]`);
		out += `(?:${escapeForPattern(char)}|\\\\{1,7}(?:${escapeForPattern(char)}|u${anyCase}))`;
	}
	return out;
}

/** A separator a text may put between the groups of a value (`k3yAb-CdEfG`, `k3yAb CdEfG`). */
const GROUP_GAP = '(?:[\\s\\-_.:]|%(?:25)?20|\\+)?';

/**
 * One character of a credential's value in any way a text may write it: as is (any case: the
 * pattern is read without case), percent-encoded once or twice (`%2F`, `%2f`, `%252F`, each
 * UTF-8 byte of a non-ASCII one), JSON-escaped (`\/`, `\u002f`, escaped again), a space as `+`
 * and a `+` as a space (a form's encoding both ways).
 */
function charForms(char: string): string {
	const forms = [escapeForPattern(char)];
	const encoded = /^[A-Za-z0-9]$/.test(char)
		? `%${char.charCodeAt(0).toString(16).padStart(2, '0')}`
		: encodeURIComponent(char);
	forms.push(encoded.replace(/%/g, '%(?:25)?'));
	// Quoted-printable (and MIME's Q encoding): each UTF-8 byte as `=` and two hex digits (outside
	// read r19-data, finding 13: `=6D=6B=5F…`).
	forms.push(quotedPrintable(char));
	forms.push(`\\\\{1,7}u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
	if (!/^[A-Za-z0-9]$/.test(char)) forms.push(`\\\\{1,7}${escapeForPattern(char)}`);
	if (char === ' ') forms.push('\\+');
	// A `+` read back from a form as a space.
	if (char === '+') forms.push(' ', '%(?:25)?20');
	return `(?:${forms.join('|')})`;
}

/** A character's UTF-8 bytes as quoted-printable writes them (`=5F`), for a pattern (any case). */
function quotedPrintable(char: string): string {
	return [...Buffer.from(char, 'utf8')]
		.map((byte) => `=${byte.toString(16).padStart(2, '0')}`)
		.join('');
}

/**
 * The bytes a service may write a credential's value as before encoding them in base64 or hex:
 * UTF-8, and UTF-16 in either byte order (outside read r19-data, finding 13: a .NET or Windows
 * service writes strings as UTF-16LE, `bQBrAF8A…`, `6d006b00…`).
 */
function valueBytes(value: string): Buffer[] {
	const utf16le = Buffer.from(value, 'utf16le');
	return [Buffer.from(value, 'utf8'), utf16le, Buffer.from(utf16le).swap16()];
}

/** A credential's value spelt out character by character, each in any form, groups split by a separator. */
function spelledOut(value: string): string {
	return Array.from(value, charForms).join(GROUP_GAP);
}

/**
 * The part of a value's base64 (standard and URL-safe) that is the same wherever the value stands
 * in the encoded text (`key:` as Basic auth writes it, `user:password`): one per alignment.
 */
function base64Cores(value: string): string[] {
	return valueBytes(value).flatMap(base64CoresOf);
}

/** The cores (base64Cores) of one way of writing a value's bytes. */
function base64CoresOf(bytes: Buffer): string[] {
	const cores: string[] = [];
	for (const pad of [0, 1, 2]) {
		const padded = Buffer.concat([Buffer.alloc(pad, 0x20), bytes]);
		const first = pad === 0 ? 0 : 1;
		const last = Math.floor(padded.length / 3);
		if (last - first < 2) continue;
		const core = padded.toString('base64').slice(first * 4, last * 4);
		cores.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
	}
	return cores;
}

/**
 * Every form of a credential's own value (the API key, a webhook secret, the Base URL's
 * password): spelt out in any case and encoding, grouped, in base64 and in hex.
 */
function credentialForms(value: string): string[] {
	return [spelledOut(value), ...base64Cores(value).map(escapeForPattern), ...hexForms(value)];
}

/** A value's bytes in hex (UTF-8 and UTF-16 both ways; lower-case: patterns read any case). */
function hexForms(value: string): string[] {
	return valueBytes(value).map((bytes) => bytes.toString('hex'));
}

/** One pattern that finds any form of any of the values (undefined: none to find). */
function patternOf(values: Iterable<string>, credentials = false): RegExp | undefined {
	const parts = new Set<string>();
	for (const value of values) {
		if (value.length < MIN_IN_TEXT) continue;
		for (const form of formsOf(value)) parts.add(escapeForPattern(form));
		const escaped = escapedForms(value);
		if (escaped !== undefined) parts.add(escaped);
		const digits = value.replace(/\D/g, '');
		if (/^\+?[\d\s().-]+$/.test(value) && digits.length >= 10) {
			parts.add(`\\+?${digits.split('').join(DIGIT_GAP)}`);
		}
	}
	if (parts.size === 0) return undefined;
	// Longest first: where two forms start at one place, the whole of the longer one goes. A
	// credential's value is found without case (`K3YABC…` echoed upper-case).
	return new RegExp(
		[...parts].sort((a, b) => b.length - a.length).join('|'),
		credentials ? 'gi' : 'g',
	);
}

/**
 * The patterns of what a run learned: a value of ANY_CASE_FROM characters or more is found in any
 * case (a webhook secret or a hex key echoed upper-case, `WHSEC_9C4F…`: outside read r11-data,
 * finding 6), where its case carries no meaning a text could keep apart; a shorter one as written.
 */
function learnedPatterns(values: Iterable<string>): Finder[] {
	const long: string[] = [];
	const short: string[] = [];
	for (const value of values) {
		if (value.length >= MIN_IN_TEXT) (value.length >= ANY_CASE_FROM ? long : short).push(value);
	}
	return [new ValueFinder(long, true), new ValueFinder(short, false)].filter(
		(finder) => !finder.empty,
	);
}

/** What finds known values in a text: the pattern to run on it, if any can stand there. */
export interface Finder {
	patternFor(text: string): RegExp | undefined;
}

/** A fixed pattern as a Finder. */
function always(pattern: RegExp): Finder {
	return { patternFor: () => pattern };
}

/** A value's cheap fingerprints (see ValueFinder), made once per value. */
interface ValueTrace {
	lower: string;
	/** As a form's encoding writes a space: `+`. */
	plus: string;
	/** Its ASCII letters and digits, lower-case: what every form of it writes as they are. */
	core: string;
	/** A number written with separators (a card, a phone): its digits. */
	digits?: string;
}
const traces = new Map<string, ValueTrace>();

function traceOf(value: string): ValueTrace {
	let trace = traces.get(value);
	if (!trace) {
		const digits = value.replace(/\D/g, '');
		trace = {
			lower: value.toLowerCase(),
			plus: value.toLowerCase().replace(/ /g, '+'),
			core: value.toLowerCase().replace(/[^a-z0-9]/g, ''),
			digits: /^\+?[\d\s().-]+$/.test(value) && digits.length >= 10 ? digits : undefined,
		};
		traces.set(value, trace);
		for (const oldest of traces.keys()) {
			if (traces.size <= 4 * PROCESS_LIMIT) break;
			traces.delete(oldest);
		}
	}
	return trace;
}

/** Whether `part`'s characters stand in `text` in their order, anything between them. */
function inOrder(part: string, text: string): boolean {
	let at = 0;
	for (const char of part) {
		at = text.indexOf(char, at);
		if (at < 0) return false;
		at++;
	}
	return true;
}

/** Patterns made for a set of values, by the set (a memory bound). */
const madePatterns = new Map<string, RegExp | undefined>();
const MADE_LIMIT = 256;

/**
 * The learned values of a run, found in a text by one pattern (patternOf) made only of the values
 * the text can hold. Without this test every text ran one pattern of up to 1,024 values with a
 * dozen forms each, and a process that had learned many values (a long-lived n8n, a run over many
 * cards) spent its time there. The test reads what every form patternOf writes keeps:
 * - a text without `%` or a backslash holds a value only as written (in any case, a space also as
 *   a form writes it: `+`), or as a number with other separators: its digits in a row;
 * - any other text (an escape may stand anywhere, also just before the value and read with its
 *   first characters) holds a value only if the value's ASCII letters and digits stand in it in
 *   their order: percent-encoding and JSON's escapes write those as they are.
 */
class ValueFinder implements Finder {
	constructor(
		private readonly values: string[],
		private readonly anyCase: boolean,
	) {}

	get empty(): boolean {
		return this.values.length === 0;
	}

	patternFor(text: string): RegExp | undefined {
		if (this.values.length === 0 || text.length < MIN_IN_TEXT) return undefined;
		const lower = text.toLowerCase();
		const escaped = text.includes('%') || text.includes('\\');
		let digits: string | undefined;
		const held: string[] = [];
		for (const value of this.values) {
			const trace = traceOf(value);
			if (lower.includes(trace.lower) || lower.includes(trace.plus)) held.push(value);
			else if (escaped) {
				if (inOrder(trace.core, lower)) held.push(value);
			} else if (trace.digits !== undefined) {
				digits ??= text.replace(/\D/g, '');
				if (digits.includes(trace.digits)) held.push(value);
			}
		}
		if (held.length === 0) return undefined;
		const key = `${this.anyCase ? 'i' : 's'}\u0000${held.join('\u0000')}`;
		if (madePatterns.has(key)) return madePatterns.get(key);
		const pattern = patternOf(held, this.anyCase);
		madePatterns.set(key, pattern);
		for (const oldest of madePatterns.keys()) {
			if (madePatterns.size <= MADE_LIMIT) break;
			madePatterns.delete(oldest);
		}
		return pattern;
	}
}

/** From this length a learned secret is found without case. */
export const ANY_CASE_FROM = 16;

/**
 * A text reduced to what a credential's value shows through any encoding: escapes (`\u006b`,
 * `%6B`, `%256B`) read, case dropped, separators and backslashes removed. A cheap test of whether
 * a value can stand in the text at all, before its full pattern is run.
 */
function skeleton(text: string, quoted = false): string {
	let out = quoted ? readQuotedPrintable(text) : text;
	out = out.replace(/\\+u([0-9a-fA-F]{4})/g, (_m, hex: string) =>
		String.fromCharCode(parseInt(hex, 16)),
	);
	for (let round = 0; round < 2 && out.includes('%'); round++) {
		out = out.replace(/%(?:25)?([0-9a-fA-F]{2})/g, (_m, hex: string) =>
			String.fromCharCode(parseInt(hex, 16)),
		);
	}
	return out.toLowerCase().replace(/[\s\\_.:+-]/g, '');
}

/** Quoted-printable's `=XX` read as the byte it writes (each taken alone, as Latin-1). */
function readQuotedPrintable(text: string): string {
	return text.replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) =>
		String.fromCharCode(parseInt(hex, 16)),
	);
}
/** A text that may hold quoted-printable: read by its own skeleton too. */
const QUOTED = /=[0-9A-Fa-f]{2}/;

/** A credential value's skeleton, cores and full pattern (every form), made once per value. */
interface DeepForm {
	skeleton: string;
	plain: string[];
	/** The value's base64 cores (base64Cores), as they stand in a text. */
	cores: string[];
	pattern: RegExp;
}
const deepForms = new Map<string, DeepForm>();

function deepFormOf(value: string): DeepForm {
	let form = deepForms.get(value);
	if (!form) {
		const cores = base64Cores(value);
		const plain = [...cores, ...hexForms(value)];
		form = {
			skeleton: skeleton(value),
			plain,
			cores,
			pattern: new RegExp(credentialForms(value).join('|'), 'gi'),
		};
		deepForms.set(value, form);
		for (const oldest of deepForms.keys()) {
			if (deepForms.size <= PROCESS_LIMIT) break;
			deepForms.delete(oldest);
		}
	}
	return form;
}

/**
 * The credentials' own values found in a text in any form (see credentialForms), each replaced by
 * `shown`. Their plain forms are found by the shared pattern first; this finds the rest.
 */
export function maskCredentialForms(text: string, shown: (match: string) => string): string {
	if (credentialValues.size === 0 || text.length < MIN_IN_TEXT) return text;
	let out = maskEncodedBlocks(text, shown);
	const sk = skeleton(out);
	// A text with quoted-printable is also read with it decoded; another text only as it is (an
	// `=` before a value, `key=ab12…`, is no escape there).
	const skQuoted = QUOTED.test(out) ? skeleton(out, true) : '';
	const lower = out.toLowerCase();
	const candidates = credentialsIn([sk, skQuoted], lower);
	if (candidates.size === 0) return maskPieces(out, shown);
	for (const value of credentialValues) {
		if (!candidates.has(value)) continue;
		const form = deepFormOf(value);
		const maybe =
			sk.includes(form.skeleton) ||
			(skQuoted !== '' && skQuoted.includes(form.skeleton)) ||
			form.plain.some((plain) => out.includes(plain) || lower.includes(plain));
		if (!maybe) continue;
		// A base64 word that holds the value is hidden whole, its padding and its ends too: the
		// quad around the value's last bytes decodes to its last characters (outside read
		// r13-data, finding 5: `Basic [hidden]OA==`).
		out = out.replace(BASE64_WORD, (word) =>
			form.cores.some((core) => word.includes(core)) ? shown(word) : word,
		);
		out = out.replace(form.pattern, shown);
	}
	return maskPieces(out, shown);
}

/** The length of the pieces the credentials' index is keyed by. */
const GRAM = 8;
/**
 * Each credential's value by the first GRAM characters of its skeleton and of its base64 and hex
 * forms (lower-case), made again only when the values change; `short`: values with a form shorter
 * than that, always looked at.
 */
const credentialIndex: { built: number; grams: Map<string, string[]>; short: string[] } = {
	built: -1,
	grams: new Map(),
	short: [],
};

/**
 * The credentials' values whose skeleton stands in a text's skeleton, or whose base64 or hex form
 * stands in the text (any case): the ones maskCredentialForms looks at, found by one pass over the
 * text instead of a search per value (a process with hundreds of credentials searched every text
 * hundreds of times over).
 */
function credentialsIn(skeletons: string[], lower: string): Set<string> {
	if (credentialIndex.built !== credentialsVersion.value) {
		const grams = new Map<string, string[]>();
		const short: string[] = [];
		for (const value of credentialValues) {
			const form = deepFormOf(value);
			for (const needle of [form.skeleton, ...form.plain.map((plain) => plain.toLowerCase())]) {
				if (needle.length < GRAM) {
					short.push(value);
					continue;
				}
				const gram = needle.slice(0, GRAM);
				const list = grams.get(gram);
				if (!list) grams.set(gram, [value]);
				else if (!list.includes(value)) list.push(value);
			}
		}
		credentialIndex.grams = grams;
		credentialIndex.short = short;
		credentialIndex.built = credentialsVersion.value;
	}
	const found = new Set<string>(credentialIndex.short);
	for (const read of [...skeletons.filter((sk) => sk !== ''), lower]) {
		for (let at = 0; at + GRAM <= read.length; at++) {
			const list = credentialIndex.grams.get(read.slice(at, at + GRAM));
			if (list) for (const value of list) found.add(value);
		}
	}
	return found;
}

/**
 * A piece of a credential's value (outside read r19-data, finding 11: the API key split over two
 * fields, two list entries, or a text naming "part 2"): PIECE_MIN characters or more in a row of
 * the value's random part (after a public prefix such as `mk_live_` or `whsec_`), written as they
 * are in any case, with at least PIECE_VARIETY different characters, are hidden where the piece,
 * taken as far as the text goes on with the value (its prefix too), stands as a word of its own:
 * no letter, digit or `_` glued to it either side (a value cut in two is written as two values or
 * two words; a transaction hash or a record ID that merely holds 12 of its characters is no piece
 * of it: outside read r19-data, finding 14's `cus_Q7hT2pLx9ZsV4nRb8W`, and a hash holding the
 * webhook secret's `a1b2c3d4e5f6`). Shorter pieces, and the prefix alone, stay: a key's prefix is
 * what a list of keys shows. A value cut in two always leaves one piece of half its random part or
 * more: of a 24-character random part, at least 12.
 */
export const PIECE_MIN = 12;
export const PIECE_VARIETY = 6;
/** How many places a piece of PIECE_MIN characters has for a gram of GRAM characters. */
const PIECE_STRIDE = PIECE_MIN - GRAM + 1;
/** A character a word goes on with: a piece glued to one is part of another word. */
const WORD_CHAR = /^[\p{L}\p{N}_]$/u;
/** A public prefix of a credential's value: a word and `_`, also a live/test marker and `_`. */
const PUBLIC_PREFIX = /^[A-Za-z]{2,8}_(?:(?:live|test|prod|sandbox)_)?/;
/** Lower-case for ASCII letters only, so that each character keeps its place. */
function asciiLower(text: string): string {
	return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

interface PieceAt {
	value: string;
	/** Where the gram stands in the value. */
	at: number;
	/** Where the value's random part starts. */
	random: number;
}
/** Every GRAM characters of each credential value's random part, made again when they change. */
const pieceIndex: { built: number; grams: Map<string, PieceAt[]> } = {
	built: -1,
	grams: new Map(),
};

function pieceGrams(): Map<string, PieceAt[]> {
	if (pieceIndex.built === credentialsVersion.value) return pieceIndex.grams;
	const grams = new Map<string, PieceAt[]>();
	for (const original of pieceValues) {
		const value = asciiLower(original);
		const random = PUBLIC_PREFIX.exec(value)?.[0].length ?? 0;
		if (value.length - random < PIECE_MIN) continue;
		for (let at = random; at + GRAM <= value.length; at++) {
			const gram = value.slice(at, at + GRAM);
			const list = grams.get(gram);
			const entry = { value, at, random };
			if (list) list.push(entry);
			else grams.set(gram, [entry]);
		}
	}
	pieceIndex.grams = grams;
	pieceIndex.built = credentialsVersion.value;
	return grams;
}

/** The pieces of credential values in a text (see PIECE_MIN), each hidden. */
function maskPieces(text: string, shown: (match: string) => string): string {
	if (text.length < PIECE_MIN || pieceValues.size === 0) return text;
	const grams = pieceGrams();
	if (grams.size === 0) return text;
	const lower = asciiLower(text);
	const spans: Array<[number, number]> = [];
	// A piece of PIECE_MIN characters holds a gram at PIECE_STRIDE places in a row, so one of them
	// is a multiple of PIECE_STRIDE: only those places of the text are looked up.
	let at = 0;
	while (at + GRAM <= lower.length) {
		const list = grams.get(lower.slice(at, at + GRAM));
		let end = -1;
		for (const piece of list ?? []) {
			let from = at;
			let inValue = piece.at;
			while (from > 0 && inValue > 0 && lower[from - 1] === piece.value[inValue - 1]) {
				from--;
				inValue--;
			}
			let to = at + GRAM;
			let valueEnd = piece.at + GRAM;
			while (
				to < lower.length &&
				valueEnd < piece.value.length &&
				lower[to] === piece.value[valueEnd]
			) {
				to++;
				valueEnd++;
			}
			const randomFrom = Math.max(inValue, piece.random);
			if (valueEnd - randomFrom < PIECE_MIN) continue;
			// A word of its own only: not glued to other letters, digits or `_`.
			if (WORD_CHAR.test(text[from - 1] ?? '') || WORD_CHAR.test(text[to] ?? '')) continue;
			const randomPart = piece.value.slice(randomFrom, valueEnd);
			if (new Set(randomPart).size < PIECE_VARIETY) continue;
			spans.push([from, to]);
			end = Math.max(end, to);
		}
		const next = end > at ? end : at + 1;
		at = Math.ceil(next / PIECE_STRIDE) * PIECE_STRIDE;
	}
	if (spans.length === 0) return text;
	let out = '';
	let last = 0;
	for (const [from, to] of spans.sort((a, b) => a[0] - b[0])) {
		if (to <= last) continue;
		const start = Math.max(from, last);
		out += text.slice(last, start) + shown(text.slice(start, to));
		last = to;
	}
	return out + text.slice(last);
}

/** A word of base64 (standard or URL-safe) with its padding. */
const BASE64_WORD = /[A-Za-z0-9+/_-]+={0,2}/g;

/**
 * Lines of base64 broken by line ends (MIME's 76 columns, PEM's 64, any width), the line end as
 * written or JSON-escaped (`\n`, `\r\n`, `\\n`): read as one word.
 */
const WRAPPED_BASE64 =
	/[A-Za-z0-9+/_-]+={0,2}(?:(?:\r?\n|\\{1,3}r\\{1,3}n|\\{1,3}n)[A-Za-z0-9+/_-]+={0,2})+/g;
/** Bytes in hex with a separator between each (`63:70`, `63 70`, `63-70`), or as `\x63\x70`. */
const SEPARATED_HEX =
	/(?:\\{1,3}[xX][0-9a-fA-F]{2}){8,}|[0-9a-fA-F]{2}(?:([:\s.,-]{1,2})[0-9a-fA-F]{2})(?:\1[0-9a-fA-F]{2}){6,}/g;

/** Whether bytes read from a text hold a credential's value (any case: hex may be upper). */
function holdsCredential(bytes: Buffer, joined: string): boolean {
	const read = bytes.toString('latin1').toLowerCase();
	// UTF-16 (either order) read as Latin-1 is the value with a NUL beside each character.
	const wide = read.includes('\u0000') ? read.split('\u0000').join('') : read;
	for (const value of credentialValues) {
		if (read.includes(value.toLowerCase()) || wide.includes(value.toLowerCase())) return true;
		if (deepFormOf(value).cores.some((core) => joined.includes(core))) return true;
	}
	return false;
}

/**
 * A credential's value in base64 wrapped over lines, or in hex bytes with separators (outside
 * read r14-data, finding 2): each such block is read whole (line ends and separators dropped,
 * at each of base64's four alignments) and hidden whole where it holds a credential's value.
 */
function maskEncodedBlocks(text: string, shown: (match: string) => string): string {
	let out = text;
	if (/\n|\\{1,3}n/.test(out)) {
		out = out.replace(WRAPPED_BASE64, (block) => {
			const joined = block.replace(/\r?\n|\\{1,3}[rn]|=/g, '');
			for (let start = 0; start < 4; start++) {
				const bytes = Buffer.from(
					joined.slice(start).replace(/-/g, '+').replace(/_/g, '/'),
					'base64',
				);
				if (holdsCredential(bytes, joined)) return shown(block);
			}
			return block;
		});
	}
	return out.replace(SEPARATED_HEX, (block) => {
		const hex = block.replace(/\\{1,3}[xX]|[^0-9a-fA-F]/g, '');
		return holdsCredential(Buffer.from(hex, 'hex'), '') ? shown(block) : block;
	});
}

/** The finder of the credentials' own values, made again only when they change. */
const credentialFinder: { built: number; finder?: Finder } = { built: -1 };

function credentialsFinder(): Finder | undefined {
	if (credentialFinder.built !== credentialsVersion.value) {
		const finder = new ValueFinder([...credentialValues], true);
		credentialFinder.finder = finder.empty ? undefined : finder;
		credentialFinder.built = credentialsVersion.value;
	}
	return credentialFinder.finder;
}

/** What a door finds by value. */
export interface Known {
	/** The credentials' own values: found everywhere, also inside an identifier. */
	credentials?: Finder;
	/** What the run and its credential learned: found everywhere but in identifiers and amounts. */
	learned: Finder[];
	/** Short secrets (a CVV): a whole field value only. */
	short: Set<string>;
	/** Identifiers the patterns spare. */
	identifiers: ReadonlySet<string>;
	/**
	 * A short Base URL user name or password by what it is: hidden as the whole value of a field
	 * named as one (namedField), found in texts where named (in `learned`).
	 */
	named: ReadonlyMap<string, 'user' | 'password'>;
}

/** Words of a text that name a user name or a password just before one. */
const NAMING_WORDS =
	'user(?:[\\s_-]?name)?|login|principal|account|pass(?:word|wd|phrase)?|pwd|' +
	// In Russian (outside read r11-data, finding 5): `Пользователь opsx`, `Неверный логин opsx`,
	// `имя пользователя: opsx`, `пароль pw1!`, in the cases a message puts them.
	'(?:имя\\s+)?пользовател(?:ь|я|ю|ем|е)|логин(?:а|у|ом|е)?|пароль|пароля|паролю|паролем|пароле';

/** The pattern of the short user names and passwords, where named and as whole words. */
const namedPattern: { built: number; pattern?: RegExp } = { built: -1 };

function shortCredentialsPattern(): RegExp | undefined {
	if (namedPattern.built === credentialsVersion.value) return namedPattern.pattern;
	const byLength = (values: Iterable<string>) =>
		[...values]
			.sort((a, b) => b.length - a.length)
			// Escaped as a pattern read with the `u` flag allows (no `\-`).
			.map((value) => value.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
			.join('|');
	const parts: string[] = [];
	if (credentialNamed.size > 0) {
		parts.push(
			`(?<=(?<![\\p{L}\\p{N}_])(?:${NAMING_WORDS})[\\s"'\\\\]*(?:[:=]|is)?[\\s"'\\\\]*)(?:${byLength(credentialNamed.keys())})`,
		);
	}
	if (credentialShort.size > 0) parts.push(`(?<![\\p{L}\\p{N}_])(?:${byLength(credentialShort)})`);
	namedPattern.pattern =
		parts.length === 0 ? undefined : new RegExp(`(?:${parts.join('|')})(?![\\p{L}\\p{N}_])`, 'giu');
	namedPattern.built = credentialsVersion.value;
	return namedPattern.pattern;
}

/** Words of a field's name that say it holds a user name or a password. */
const NAMING_FIELD =
	/^(?:user|username|login|principal|account|pass|password|passwd|pwd|passphrase)$/;

/**
 * Whether a field's value is a short Base URL user name or password under a name of one (`user`,
 * `login`, `pass`, `gatewayUser`): hidden whole.
 */
export function namedField(name: string, value: unknown, known: Known): boolean {
	if (typeof value !== 'string' || known.named.size === 0) return false;
	if (!known.named.has(value.trim())) return false;
	const words = name
		.replace(/([a-z0-9])([A-Z])/g, '$1 $2')
		.toLowerCase()
		.split(/[^a-z0-9]+/);
	return words.some((word) => NAMING_FIELD.test(word));
}

/** The pattern of what a run and its credential learned, made again only when that changes. */
const runPatterns = new WeakMap<
	RunState,
	{ version: number; values: Set<string>; patterns: Finder[] }
>();

function runPattern(run: RunState | undefined): { values: Set<string>; patterns: Finder[] } {
	if (!run) return { values: new Set(), patterns: [] };
	const version = learnedVersion.value + credentialsVersion.value;
	const cached = runPatterns.get(run);
	if (cached && cached.version === version) return cached;
	const values = new Set(run.secrets);
	const learned = run.credential === undefined ? undefined : byCredential.get(run.credential);
	for (const value of learned ?? []) values.add(value);
	for (const value of credentialValues) values.delete(value);
	const made = { version, values, patterns: learnedPatterns(values) };
	runPatterns.set(run, made);
	return made;
}

export function knownFor(
	ctx: object | undefined,
	named: Named = { secrets: [], identifiers: [] },
): Known {
	const values = knownValues(ctx, named.secrets, named.identifiers);
	const short = new Set<string>(credentialShort);
	for (const value of values.own) {
		if (value.length >= MIN_IN_TEXT || named.elsewhere?.has(value.trim())) continue;
		short.add(value.trim());
	}
	const ofRun = runPattern(runOf(ctx, false));
	// What the value shown names itself, beyond what the run knows: a small pattern of its own.
	const extra = learnedPatterns(
		named.secrets.filter((value) => !ofRun.values.has(value) && !credentialValues.has(value)),
	);
	const learned = [
		...ofRun.patterns,
		...extra,
		...[shortInText(short), digitsOfAnswer(named.secrets), shortCredentialsPattern()]
			.filter((pattern): pattern is RegExp => !!pattern)
			.map(always),
	];
	return {
		credentials: credentialsFinder(),
		learned,
		short,
		identifiers: values.identifiers,
		named: credentialNamed,
	};
}

/** The length of a PIN (4 to 8 digits) or a CVV (3 or 4): a short secret made of digits. */
const SHORT_DIGITS = /^\d{3,8}$/;

/** The short secrets of digits (SHORT_DIGITS) a value names, trimmed. */
function shortDigitsOf(named: Named): Set<string> {
	const found = new Set<string>();
	for (const value of named.secrets) if (SHORT_DIGITS.test(value.trim())) found.add(value.trim());
	return found;
}

/**
 * What one item of an output names, for reading that item (outside read r20-data, finding 3: card
 * a's CVV `2027`, named by card a's `cardCvv`, hid the year of card b's expiry `03/2027`). A short
 * secret of digits that a secret field of another item names, and none of this item's, belongs to
 * that item: it is neither searched in this item's texts nor hidden as a whole field value here,
 * though the run learned it (an order's `quantity: "123"` beside another card's CVV 123). A long
 * secret (a card number) is still found in every item; identifiers are the output's. `all`: what
 * the whole output names; `item`: what this item names.
 */
export function scopedTo(all: Named, item: Named): Named {
	const own = shortDigitsOf(item);
	const elsewhere = new Set([...shortDigitsOf(all)].filter((value) => !own.has(value)));
	if (elsewhere.size === 0) return all;
	return {
		secrets: all.secrets.filter((value) => !elsewhere.has(value.trim())),
		identifiers: all.identifiers,
		elsewhere,
	};
}

/** Whether an output names short secrets of digits, so that its items are read each on its own. */
export function namesShortDigits(named: Named): boolean {
	return shortDigitsOf(named).size > 0;
}

/**
 * A comma that parts a list's fields, not a decimal's (outside read r19-data, finding 9: the
 * answer's CVV in `Номер 2200150012345671,321` or `Срок и код: 12/27,321` was read as a decimal's
 * part): after a card number's last four as masked (`•••• 5671,`), a run of 13–19 digits (a card
 * number's: no amount has such a whole part) or a month and year (`12/27,`). After a plain number
 * the comma stays a decimal's or a thousands' mark (`12,321`, `1,321,000`).
 */
const AFTER_LIST_COMMA =
	'(?<=(?:[•*][\\s\\u00a0]?\\d{4}|(?<![\\p{N}.,])\\d{13,19}|(?<![\\p{N}/.,])\\d{1,2}/\\d{2}(?:\\d{2})?),)';

/**
 * The short numbers (a PIN, a CVV) a secret field of the value being shown holds, found in that
 * same value's texts (outside read r14-data, finding 7: `pin: "4821"` beside `message: "Код
 * активации: 4821"`). Only as a whole run of digits: not inside a longer number or a word
 * (`48210`, `A4821`), not a decimal's part (`4821.50`, `12,4821`; a list's comma is no decimal's:
 * AFTER_LIST_COMMA), not a group of a number written
 * in groups (`900 4821 123`) nor the last four of a masked number (`•••• 4821`). Only in the same
 * value (an answer, the items of one output, one error's bodies): elsewhere 4821 may be any
 * amount or count, and no field beside it says otherwise. Identifiers and amounts are never read.
 */
/**
 * Before digits, what makes them an amount or a date's part and not the answer's PIN or CVV
 * (outside read r20-data, finding 3): a currency sign (`$250`), or a month and `/` (`03/2027`, an
 * expiry's year). After them (in digitsOfAnswer): `/` and a digit (`2027/03`), or a unit
 * (UNIT_AFTER_DIGITS: `250 USD`, `250 ₽`, `3 attempts`).
 */
const NOT_SHORT_SECRET_BEFORE = '[$€₽£¥][\\s\\u00a0]?|\\p{N}/';

function digitsOfAnswer(secrets: readonly string[]): RegExp | undefined {
	const parts = [...new Set(secrets.map((value) => value.trim()))]
		.filter((value) => SHORT_DIGITS.test(value))
		.sort((a, b) => b.length - a.length);
	if (parts.length === 0) return undefined;
	return new RegExp(
		`(?:${AFTER_LIST_COMMA}|(?<![\\p{N}\\p{L}_•*.,]|[\\p{N}•*][\\s.,-]|${NOT_SHORT_SECRET_BEFORE}))(?:${parts.join('|')})(?![\\p{N}\\p{L}_]|[\\s.,/-]\\p{N})(?!${UNIT_AFTER_DIGITS})`,
		'giu',
	);
}

/**
 * Short secrets the run knows that are not a number (a password of 6 characters, typed or echoed),
 * found in a free text as a whole token: `password "Qw3rty!" is too weak`. A short number (a CVV,
 * a PIN) is matched only as a whole field value: in a text it could be any amount or count.
 */
function shortInText(short: ReadonlySet<string>): RegExp | undefined {
	const parts = [...short]
		.filter((value) => value.length >= 4 && /\D/.test(value) && !tokenCode(value))
		.sort((a, b) => b.length - a.length)
		.map(escapeForPattern);
	if (parts.length === 0) return undefined;
	return new RegExp(`(?<![A-Za-z0-9_])(?:${parts.join('|')})(?![A-Za-z0-9_])`, 'g');
}
