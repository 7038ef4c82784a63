import type { IDataObject } from 'n8n-workflow';

import {
	closedFieldName,
	declaredIn,
	fieldSpec,
	fieldSpecIn,
	nestedIn,
	numberOfRegistries,
	plainTimeIn,
	secretValueShown,
} from '../contract/records';
import type { ClosedName, FieldSpec } from '../contract/records';
import type { Known } from './learned';
import { maskCredentialForms, namedField } from './learned';
import {
	holdsTemplateValue,
	keyNamesField,
	nameMember,
	namesPath,
	pairSpec,
	secretPair,
	templateValueKey,
	valueMember,
} from './pairs';
import type { Audience } from './masks';
import {
	HIDDEN,
	maskCardNumber,
	maskedAlready,
	maskWebhookSecret,
	maskRequisite,
	shownFor,
	lookupCode,
	notSecretMaterial,
	tokenCode,
	HIDDEN_PART,
} from './masks';
import type { CardReading } from './patterns';
import {
	cardGroupList,
	luhn,
	maskCardGroupList,
	maskLink,
	maskPatterns,
	maskReadingPlain,
	schemeCard,
	schemeFits,
} from './patterns';
import { cardRunIn, declaresCard } from './requisite';

/*
 * The field rules: each value is masked by what the record model (contract/records.ts) says its
 * field holds.
 *
 * | kind                  | user                                   | AI model                         |
 * |-----------------------|----------------------------------------|----------------------------------|
 * | identifier, amount    | never changed (1)                      | never changed (1)                |
 * | secret                | masked, with all it holds (2)          | hidden, with all it holds (2)    |
 * | requisite             | a phone kept (3), a card number masked | last four digits                 |
 * | requisite, type card  | every leaf with a digit: last four, whatever the JSON shape |             |
 * | link                  | its tokens hidden (3)                  | a record's own link: its host    |
 * | text, unknown         | patterns and known values              | the same, and long numbers in text |
 * | time, state           | known values (3)                       | known values (3)                 |
 * | masked (`maskedPan`)  | known values (3); more than 6+4 digits: last four | the same          |
 *
 * (1) but for the credential's own API key or webhook secret, should one stand in it verbatim;
 * (2) an object or a list under a secret field is masked leaf by leaf, its shape kept;
 * (3) a value the run learned as a secret is hidden wherever it stands, but in (1).
 */

export interface Reading {
	audience: Audience;
	known: Known;
}

const UNKNOWN: FieldSpec = { kind: 'unknown' };
const TEXT: FieldSpec = { kind: 'text' };

/** The credentials' own values found in a text: the one thing that may touch an identifier. */
function byCredentials(text: string, reading: Reading): string {
	const pattern = reading.known.credentials?.patternFor(text);
	const shown = (match: string) => shownFor(match, reading.audience);
	return maskCredentialForms(pattern ? text.replace(pattern, shown) : text, shown);
}

/** Every value the door knows as a secret, found in a text (in any of its written forms). */
export function byValue(text: string, reading: Reading): string {
	let out = byCredentials(text, reading);
	for (const finder of reading.known.learned) {
		const pattern = finder.patternFor(out);
		if (pattern) out = out.replace(pattern, (match) => shownFor(match, reading.audience));
	}
	return out;
}

/** Every secret a free text holds, by value and by look, hidden; the rest as it was. */
export function maskText(
	text: string,
	reading: Reading,
	inText: boolean,
	look: CardReading = {},
): string {
	// Also as the text reads without invisible characters (a key with a zero-width space inside).
	return maskReadingPlain(text, (written) =>
		maskPatterns(byValue(written, reading), {
			strong: reading.audience === 'model',
			inText,
			identifiers: reading.known.identifiers,
			...look,
		}),
	);
}

/** What a field's name says of the card numbers its text may hold (FieldSpec.numberName). */
function lookOf(spec: FieldSpec): CardReading {
	if (spec.numberName === 'card') return { cardNamed: true };
	if (spec.numberName === 'registry') return { registries: spec.registries ?? [] };
	return {};
}

/**
 * A record's own link cut to where it leads, for the model: `https://cabinet.example.com/[hidden]`.
 * Anything else in such a field (no scheme and host) is judged as a text.
 */
function linkHost(link: string, reading: Reading): string {
	const host = /^[a-z][a-z0-9+.-]*:\/\/[^/?#\s]+/i.exec(link.trim())?.[0];
	if (!host) return maskText(link, reading, false);
	return host.length === link.trim().length ? host : `${host}/${HIDDEN_PART}`;
}

/** Sets a field as plain data, also one named `__proto__` (possible from JSON). */
export function setField(out: IDataObject, key: string, value: unknown): void {
	Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
}

/** What each reading made of the field names it read (a record repeats its names). */
const shownKeys = new WeakMap<Reading, Map<string, string>>();

/**
 * A field's name as the reader sees it (outside read r13-data, finding 1): a name is what the
 * service chose, and a map keyed by a card number, a phone or a key (`limits: {"4111…": …}`,
 * `details.cooldownUntil: {"+7999…": …}`) shows it in its names. A name is read as a free text
 * is: a card number keeps its last four digits, a known or learned secret is hidden in any of its
 * written forms, and for the model any long number goes (a phone requisite); a value the run
 * knows as a short secret is hidden as a whole name. A field name (`cardNumber`) stays as it is.
 */
export function maskKey(key: string, reading: Reading): string {
	if (key === '') return key;
	let seen = shownKeys.get(reading);
	if (!seen) {
		seen = new Map();
		shownKeys.set(reading, seen);
	}
	const known = seen.get(key);
	if (known !== undefined) return known;
	const shown = reading.known.short.has(key.trim())
		? shownFor(key, reading.audience)
		: maskText(key, reading, true);
	seen.set(key, shown);
	return shown;
}

/**
 * An object's fields, each value as `each` shows it and each name through maskKey. Two names that
 * mask to the same text both stay: a masked name that meets a name already there, or a name of
 * the object the gate left as it was, gets ` (2)`, ` (3)`… (never a name of the object itself).
 */
export function mapFields(
	value: object,
	reading: Reading,
	each: (key: string, field: unknown) => unknown,
): IDataObject {
	const entries = Object.entries(value);
	const shown = entries.map(([key]) => maskKey(key, reading));
	const kept = new Set(entries.map(([key]) => key).filter((key, index) => shown[index] === key));
	const out: IDataObject = {};
	const has = (name: string) => Object.prototype.hasOwnProperty.call(out, name);
	for (const [index, [key, field]] of entries.entries()) {
		let name = shown[index];
		if (name !== key && (has(name) || kept.has(name))) {
			let suffix = 2;
			while (has(`${name} (${suffix})`) || kept.has(`${name} (${suffix})`)) suffix++;
			name = `${name} (${suffix})`;
		}
		setField(out, name, each(key, field));
	}
	return out;
}

/** An identifier or an amount: as it is, at any depth (the credentials' own values aside). */
function keepExact(value: unknown, reading: Reading): unknown {
	if (typeof value === 'string') return byCredentials(value, reading);
	if (Array.isArray(value)) return value.map((entry) => keepExact(entry, reading));
	if (typeof value === 'object' && value !== null && !Buffer.isBuffer(value)) {
		return mapFields(value, reading, (_key, field) => keepExact(field, reading));
	}
	return value;
}

/** A secret field's value, every leaf of it masked by the secret's form; its shape kept. */
function maskSecret(value: unknown, spec: FieldSpec, reading: Reading): unknown {
	if (Array.isArray(value)) return value.map((entry) => maskSecret(entry, spec, reading));
	if (Buffer.isBuffer(value)) return reading.audience === 'model' ? HIDDEN : HIDDEN_PART;
	if (typeof value === 'object' && value !== null) {
		return mapFields(value, reading, (_key, field) => maskSecret(field, spec, reading));
	}
	const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
	if (typeof text !== 'string' || text === '' || maskedAlready(text)) return value;
	const model = reading.audience === 'model';
	// A key-ish name (`key`, `widgetKey`) holding what cannot be a secret (a date, a time, a
	// record's ID the run names): as the service sent it (outside read r16-data, finding 8).
	if (spec.codeKept && notSecretMaterial(text, reading.known.identifiers)) return value;
	// What cannot be a secret under a secret's name (`signature: "ok"`, `apiKeyPrefix: "ak"`,
	// `sid: "S1"`): as sent (outside read r18-data, findings 5 and 6).
	if (secretValueShown(spec, text)) return value;
	switch (spec.secret) {
		case 'webhookSecret':
			return maskWebhookSecret(text, reading.audience);
		case 'cvv':
			return '•••';
		case 'cardNumber':
			return maskCardNumber(text);
		case 'token':
			// A field named like a token may name a currency (`token: "USDT"`): a code is kept.
			if (tokenCode(text) || (spec.codeKept && lookupCode(text))) return text;
			return model ? HIDDEN : HIDDEN_PART;
		default:
			// A key-ish name holding a lookup key (`key: "order_payment"`): a code is kept.
			// Hidden whole: no characters of a secret-named field are shown (outside read r12-data,
			// finding 5: `secretWord` "…ovka", `pinBlock` "…EF67" gave a third of a short secret).
			if (spec.codeKept && lookupCode(text)) return text;
			return model ? HIDDEN : HIDDEN_PART;
	}
}

/**
 * A value under a field the document calls masked (`maskedPan`): the service masks it, but how is
 * not shown (outside read r6-data-b, finding 1). A masked card number shows at most its first six
 * and last four digits; a value that shows more (a full number, sent by mistake) keeps only its
 * last four.
 */
function maskMaskedNumber(text: string, reading: Reading): string {
	if (text.replace(/\D/g, '').length > MASKED_SHOWS_DIGITS) return maskRequisite(text);
	return byValue(text, reading);
}
/** The most digits a masked card number shows: the first six and the last four. */
const MASKED_SHOWS_DIGITS = 10;

function maskNumber(value: number, spec: FieldSpec, reading: Reading): unknown {
	if (!Number.isInteger(value)) return value;
	const text = String(value);
	if (spec.kind === 'maskedRequisite') {
		const shown = maskMaskedNumber(text, reading);
		return shown === text ? value : shown;
	}
	if (spec.kind === 'requisite') {
		// A requisite sent as a JSON number is read as the same digits written as text.
		const shown = maskUnder(text, spec, reading);
		return shown === text ? value : shown;
	}
	if (spec.kind !== 'text' && spec.kind !== 'unknown') return value;
	// A card number that arrived as a JSON number, where no field says what it is.
	const card =
		text.length >= 13 &&
		text.length <= 19 &&
		luhn(text) &&
		(spec.numberName === 'card' ||
			(!numberOfRegistries(spec.registries ?? [], text) && schemeFits(text)));
	// From 13 digits on, as in a text (a Visa of 13, a Diners Club of 14; issue 50, fixer dfix23).
	if (Math.abs(value) >= 1e12 && card && !reading.known.identifiers.has(text)) {
		return maskRequisite(text);
	}
	if (Math.abs(value) >= 1e9) {
		const masked = byValue(text, reading);
		return masked === text ? value : masked;
	}
	return value;
}

/** 2000-01-01T00:00:00Z and 2038-01-19T03:14:08Z (2^31 seconds), in seconds since the epoch. */
const TIME_FROM = 946_684_800;
const TIME_UNTIL = 2_147_483_648;
const PER_SECOND = { s: 1, ms: 1e3, us: 1e6, ns: 1e9 } as const;

/**
 * Whether a value under the name of a time or a count the document does not show can be one, and
 * is kept exactly (outside read r10-data, finding 1; contract/choices.ts `timeNumbers`): a text
 * that is not a plain number (`2026-11-21T12:00:00Z`) has no card number's look to lose and is
 * read as any unknown field's; a plain number (a JSON number, or a text of digits only) under a
 * count's name is kept whatever it is; under a time's name one of 13 digits or more is kept only
 * when it reads as a time from 2000 up to 2038-01-19 in seconds, ms, µs or ns (whatever unit its
 * name says). A card number read so is later than 2038: a Visa's (4…) by decades,
 * a Mir's (2200…) or a Mastercard's (2221…) read as µs or ns from 2039 on.
 */
function plausibleTime(value: string | number, spec: FieldSpec): boolean | undefined {
	const text =
		typeof value === 'number' ? (Number.isInteger(value) ? String(value) : '') : value.trim();
	if (!/^-?\d+(?:\.\d+)?$/.test(text)) return typeof value === 'number' ? true : undefined;
	const whole = text.replace(/^-/, '').replace(/\..*$/, '');
	if (whole.length < 13 || spec.timeName?.count !== false) return true;
	// Any unit, also where the name says one: a service may write µs under `confirmedAtNs`.
	const units = ['s', 'ms', 'us', 'ns'] as const;
	const number = Number(whole);
	return units.some((unit) => {
		const seconds = number / PER_SECOND[unit];
		return seconds >= TIME_FROM && seconds < TIME_UNTIL;
	});
}

/**
 * A value under a field of this kind, for this reader. `textual`: the value stands inside a free
 * text (an error's context, a message's parts), where unknown fields are read as text.
 */
export function maskUnder(
	value: unknown,
	spec: FieldSpec,
	reading: Reading,
	textual = false,
): unknown {
	if (spec.kind === 'identifier' || spec.kind === 'amount') return keepExact(value, reading);
	if (spec.kind === 'secret') return maskSecret(value, spec, reading);
	if (
		spec.kind === 'time' &&
		spec.timeName &&
		(typeof value === 'string' || typeof value === 'number')
	) {
		// A name of a time or a count, but a value none can be: read as any unknown field's.
		const plausible = plausibleTime(value, spec);
		if (plausible === false || (plausible === undefined && /\d/.test(String(value)))) {
			return maskUnder(value, UNKNOWN, reading, textual);
		}
	}
	if (Array.isArray(value)) {
		// A name/value pair that names a secret (`["cardPin","7390"]`): its value is that secret.
		const pair = pairSpec(value);
		if (pair) {
			return [maskUnder(value[0], spec, reading, textual), maskSecret(value[1], pair, reading)];
		}
		// A card number written as the list of its groups, where no field says what it holds.
		if ((spec.kind === 'text' || spec.kind === 'unknown') && cardGroupList(value)) {
			return maskCardGroupList(value);
		}
		const shown = value.map((entry) => maskUnder(entry, spec, reading, textual));
		if (spec.kind !== 'text' && spec.kind !== 'unknown') return shown;
		return withSplitCards(value, shown, () => true);
	}
	if (typeof value === 'object' && value !== null) {
		if (Buffer.isBuffer(value)) return maskText(value.toString('utf8'), reading, true);
		return maskRecord(value as IDataObject, reading, textual || spec.kind === 'text');
	}
	if (typeof value === 'number') return maskNumber(value, spec, reading);
	if (typeof value !== 'string') return value;
	if (reading.known.short.has(value.trim())) return shownFor(value, reading.audience);
	if (maskedAlready(value)) return value;
	const model = reading.audience === 'model';
	switch (spec.kind) {
		case 'text':
			return maskText(value, reading, true, lookOf(spec));
		case 'unknown':
			return maskText(value, reading, textual, lookOf(spec));
		case 'link':
			if (/\s/.test(value.trim())) return maskText(value, reading, textual);
			if (model && spec.ownLink) return linkHost(value, reading);
			return maskLink(byValue(value, reading), {
				strong: model,
				identifiers: reading.known.identifiers,
			});
		case 'maskedRequisite':
			return maskMaskedNumber(value, reading);
		case 'requisite':
			// The model never gets a recipient's number; the user keeps a phone, never a card number.
			if (model && /\d/.test(value)) return maskRequisite(value);
			return cardInRequisite(value, reading);
		default:
			return byValue(value, reading);
	}
}

/**
 * A requisite for the user: card-like digits anywhere in it (`4111… Сбербанк`) are a card number,
 * whatever the record's type says (requisite.ts); a phone is kept.
 */
function cardInRequisite(value: string, reading: Reading): string {
	const card = cardRunIn(value);
	return card === undefined ? byValue(value, reading) : maskRequisite(card);
}

/** A value masked as a whole: dots and at most four digits, a hidden mark, a secret's last four. */
function maskedWhole(text: string): boolean {
	return (
		maskedAlready(text) ||
		text === HIDDEN ||
		text === HIDDEN_PART ||
		/^(?:whsec_)?…[^\s…]{4}$/.test(text) ||
		/^[•\s]+\d{4}$/.test(text)
	);
}

/**
 * A field a closed record does not declare, masked whatever it holds: as its name's rule masks it
 * where that masks it whole (a card number keeps its last four digits), else each leaf hidden (a
 * number of 12 digits or more keeps its last four); true, false and null stay.
 */
export function maskUndeclared(key: string, value: unknown, reading: Reading): unknown {
	if (Array.isArray(value)) return value.map((entry) => maskUndeclared(key, entry, reading));
	if (typeof value === 'object' && value !== null && !Buffer.isBuffer(value)) {
		return mapFields(value, reading, (name, field) => maskUndeclared(name, field, reading));
	}
	if (typeof value !== 'string' && typeof value !== 'number' && !Buffer.isBuffer(value)) {
		return value;
	}
	if (value === '') return value;
	const byRule = maskUnder(value, fieldSpec(key), reading);
	// Its name's rule only where that masks it whole (a secret's form, a number's last four): a
	// text the patterns masked in part (`IVAN PETROV •••• 1111`) is hidden whole (outside read
	// r11-data, finding 7).
	if (byRule !== value && (typeof byRule !== 'string' || maskedWhole(byRule))) return byRule;
	const text = String(value);
	if (/^[\d\s.+()-]+$/.test(text) && text.replace(/\D/g, '').length >= 12) {
		return maskRequisite(text);
	}
	return reading.audience === 'model' ? HIDDEN : HIDDEN_PART;
}

/**
 * A field a closed record does not declare (contract/choices.ts `unknownFields`; outside read
 * r17-data, finding 7: a profile's `inn`, `feePercent`, `timezone`, `plan`, `limits.dailyRub`, a
 * new key's `keyId`, `keyType`, a member's `invitedBy`, `position`): shown exactly when its name,
 * and every name above it, is no secret's (closedFieldName) and its value cannot be one
 * (plainValue); anything else masked as before (maskUndeclared). An object or a list is read
 * leaf by leaf, each leaf under its own name; a name/value pair that names a secret is masked.
 */
function shownWhenPlain(key: string, value: unknown, reading: Reading): unknown {
	const name = closedFieldName(key);
	const pair = secretPair(value);
	if (name.name === 'secret' || (pair && Array.isArray(value))) {
		return maskUndeclared(key, value, reading);
	}
	if (Array.isArray(value)) {
		if (cardGroupList(value)) return maskUndeclared(key, value, reading);
		return value.map((entry) => shownWhenPlain(key, entry, reading));
	}
	if (typeof value === 'object' && value !== null && !Buffer.isBuffer(value)) {
		// A pair that names a secret (`{"field":"cvv","rejectedValue":"737"}`): its values hidden
		// whole, its name shown as a name (it says what was hidden), the rest read as any field.
		return mapFields(value, reading, (inner, field) => {
			if (pair && valueMember(inner)) return maskUndeclared(inner, field, reading);
			if (pair && holdsTemplateValue(field)) {
				return mapFields(field, reading, (name, held) =>
					templateValueKey(name)
						? maskUndeclared(name, held, reading)
						: shownWhenPlain(name, held, reading),
				);
			}
			if (pair && inner === pair.nameKey && typeof field === 'string') {
				return maskKey(field, reading);
			}
			if (keyNamesField(inner, field, value)) return maskKey(field, reading);
			if (namesPath(inner, field, value, pair?.nameKey)) {
				return field.map((part) => (typeof part === 'string' ? maskKey(part, reading) : part));
			}
			return shownWhenPlain(inner, field, reading);
		});
	}
	return plainValue(value, name.name === 'describes', name.id, reading)
		? value
		: maskUndeclared(key, value, reading);
}

/**
 * A token's look in a word of 16 characters or more (base64 with `/` and `+` too): letters and
 * digits mixed, a base64 `+` inside, or the case changing inside it twice or more (`MhXrbVJ…`). A time zone
 * (`America/Argentina/Buenos_Aires`) or a long word has neither.
 */
function randomWord(word: string): boolean {
	if (/\d/.test(word) && /[A-Za-z]/.test(word)) return true;
	if (/[A-Za-z0-9]\+[A-Za-z0-9]/.test(word)) return true;
	return (word.match(/[a-z][A-Z]/g) ?? []).length >= 2;
}
const UUID_FORM = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A value that cannot be a secret (contract/choices.ts `unknownFields`): null, a flag, or a
 * number or text that holds no run of 13–19 digits passing the card checksum (any scheme), no run
 * of 3–8 digits under a name with a secret's word (`pinLimit: "4829"`), no word of 16 characters
 * or more with a token's look (a UUID only where the name ends as an ID's, `invitedBy`, or the run
 * names it), no value the run knows as a secret (the credential's key or webhook secret, a learned
 * one) and nothing a text's patterns would mask (a PIN, a key, a link's token).
 */
function plainValue(
	value: unknown,
	describes: boolean,
	idName: boolean,
	reading: Reading,
): boolean {
	if (value === null || typeof value === 'boolean') return true;
	if (typeof value === 'number') {
		if (!Number.isFinite(value)) return false;
		const text = String(Math.abs(value));
		if (describes && /^\d{3,8}$/.test(text)) return false;
		if (/^\d{13,19}$/.test(text) && luhn(text)) return false;
		return byValue(String(value), reading) === String(value);
	}
	if (typeof value !== 'string') return false;
	const text = value.trim();
	if (text === '') return true;
	if (reading.known.short.has(text) || byValue(value, reading) !== value) return false;
	if (describes && !notSecretMaterial(text) && /(?<!\d)\d{3,8}(?!\d)/.test(text)) return false;
	for (const run of text.matchAll(/\d(?:[\s.-]?\d)*/g)) {
		const digits = run[0].replace(/\D/g, '');
		if (digits.length >= 13 && digits.length <= 19 && luhn(digits)) return false;
	}
	for (const word of text.split(/[^A-Za-z0-9_+/=~.-]+/)) {
		if (word.length < 16 || !randomWord(word)) continue;
		const named = UUID_FORM.test(word) && (idName || reading.known.identifiers.has(word));
		if (!named) return false;
	}
	// Read by the patterns as if the run named no identifier: a value under an ID's name
	// (`keyId: "whsec_…"`) is what this rule judges, so it cannot vouch for itself.
	const unnamed = { ...reading, known: { ...reading.known, identifiers: new Set<string>() } };
	return maskText(value, unnamed, false) === value;
}

/** A requisite written as digits (a string, or a JSON number). */
function requisiteDigits(field: unknown): string | undefined {
	if (typeof field === 'number' && Number.isFinite(field)) return String(field);
	if (typeof field === 'string' && /^[\d\s.+()-]*\d[\d\s.+()-]*$/.test(field)) return field;
	return undefined;
}

/**
 * A record: each field by its kind in the model (or the rule for unknown fields). A requisite is
 * what the record's `requisiteType` declares (a payout, its webhook): a card number written in
 * full is masked whatever its digits look like (the document promises no checksum) and whatever
 * its JSON type (a number too), for every reader; one the service masked itself
 * (`220070******1234`) goes by the field's rule. In a `closed` record (contract/records.ts:
 * members, invites, the company profile, a card's sensitive data) a field it does not declare is
 * masked like a secret.
 */
export function maskRecord(
	record: IDataObject,
	reading: Reading,
	textual = false,
	closed?: ClosedName,
): IDataObject {
	const out = mapFields(record, reading, (key, field) =>
		maskFieldIn(key, field, reading, textual, closed, record),
	);
	const keys = Object.keys(record);
	const shownKeys = Object.keys(out);
	const split = withSplitCards(Object.values(record), Object.values(out), (index) => {
		const spec = fieldSpecIn(record, keys[index]);
		return (spec.kind === 'text' || spec.kind === 'unknown') && spec.numberName !== 'registry';
	});
	for (const [index, key] of shownKeys.entries()) {
		if (split[index] !== out[key]) setField(out, key, split[index]);
	}
	return out;
}

/** The most groups of digits a card number split over values is read in (4-4-4-4 cut in two: 5). */
export const SPLIT_GROUPS_MAX = 6;
/** What may stand between two groups of one number: up to 3 spaces, dots or dashes. */
const SPLIT_GAP = /^[\s\u00a0.\-\u2010-\u2013]{1,3}$/;

/**
 * A card number split over adjacent values of one record or list (outside read r19-data, finding
 * 8: `{part1: "2200", part2: "1500", …}`, `{bin, middle, last4}`, `["card 2200 1500", "1234
 * 5671"]`), each value alone no card. The rule: the values shown as they came (a string, or a
 * whole JSON number not below 0) under a text's or an unknown field's name, in a row, are read
 * joined, once with a space between them and once glued. Groups of digits with at most 3 spaces,
 * dots or dashes between them are one number; any 1 to SPLIT_GROUPS_MAX groups in a row that
 * reach over two values or more, hold 13 to 19 digits, pass the card checksum and fit a scheme
 * (schemeCard), and whose groups are of 3 digits or more (but the first and last where joined
 * with a space; glued, each value gives 3 digits or more) are a card: its digits become `•` in
 * each value, but its last four. An identifier, an amount or a registry's number by its name
 * (`bic`, `payeeInn`) breaks the row; a phone's `+7` and its groups of two never reach a card; a
 * year, a month and a day in a row never join. `joinable(index)`: whether the value at index
 * stands under such a name.
 */
function withSplitCards(
	original: readonly unknown[],
	shown: unknown[],
	joinable: (index: number) => boolean,
): unknown[] {
	const texts = original.map((value, index) => {
		if (shown[index] !== value || !joinable(index)) return undefined;
		if (typeof value === 'string') return /\d/.test(value) ? value : undefined;
		if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) {
			return String(value);
		}
		return undefined;
	});
	let out = shown;
	let from = 0;
	while (from < texts.length) {
		if (texts[from] === undefined) {
			from++;
			continue;
		}
		let to = from;
		while (to + 1 < texts.length && texts[to + 1] !== undefined) to++;
		if (to > from) {
			const run = texts.slice(from, to + 1) as string[];
			const masked = maskSplitRun(run);
			if (masked) {
				if (out === shown) out = [...shown];
				for (const [offset, text] of masked.entries()) {
					if (text !== run[offset]) out[from + offset] = text;
				}
			}
		}
		from = to + 1;
	}
	return out;
}

/** Whether each value the digits from `start` to `end` reach gives 3 of them or more. */
function sharesOfThree(
	joined: string,
	start: number,
	end: number,
	valueAt: (position: number) => number,
): boolean {
	const shares = new Map<number, number>();
	for (let at = start; at < end; at++) {
		if (!/\d/.test(joined[at])) continue;
		const index = valueAt(at);
		shares.set(index, (shares.get(index) ?? 0) + 1);
	}
	return [...shares.values()].every((share) => share >= 3);
}

/** A row of values (withSplitCards) with a card number split over them masked; none if none. */
function maskSplitRun(values: readonly string[]): string[] | undefined {
	const hidden = values.map(() => new Set<number>());
	for (const glue of [' ', '']) {
		let joined = '';
		const starts: number[] = [];
		for (const value of values) {
			if (starts.length > 0) joined += glue;
			starts.push(joined.length);
			joined += value;
		}
		// The value a place of the joined text stands in (a binary search: a record may be wide).
		const valueAt = (position: number) => {
			let low = 0;
			let high = starts.length - 1;
			while (low < high) {
				const middle = (low + high + 1) >> 1;
				if (starts[middle] <= position) low = middle;
				else high = middle - 1;
			}
			return low;
		};
		const groups = [...joined.matchAll(/\d+/g)].map((match) => ({
			start: match.index ?? 0,
			end: (match.index ?? 0) + match[0].length,
			digits: match[0],
		}));
		for (let first = 0; first < groups.length; first++) {
			let digits = '';
			for (let last = first; last < groups.length && last - first < SPLIT_GROUPS_MAX; last++) {
				if (
					last > first &&
					!SPLIT_GAP.test(joined.slice(groups[last - 1].end, groups[last].start))
				) {
					break;
				}
				digits += groups[last].digits;
				if (digits.length > 19) break;
				if (digits.length < 13) continue;
				const start = groups[first].start;
				const end = groups[last].end;
				if (valueAt(start) === valueAt(end - 1)) continue;
				const inner = groups.slice(first, last + 1);
				const short = (group: { digits: string }, index: number) =>
					group.digits.length < 3 && (glue === '' || (index > 0 && index < inner.length - 1));
				if (inner.some(short) || !schemeCard(digits)) continue;
				// Glued, each value gives 3 digits or more (a day or a month glued is no card's part).
				if (glue === '' && !sharesOfThree(joined, start, end, valueAt)) continue;
				// Every digit but the last four, in the value it stands in.
				let kept = 4;
				for (let at = end - 1; at >= start; at--) {
					if (!/\d/.test(joined[at])) continue;
					if (kept > 0) {
						kept--;
						continue;
					}
					const index = valueAt(at);
					hidden[index].add(at - starts[index]);
				}
			}
		}
	}
	if (hidden.every((set) => set.size === 0)) return undefined;
	return values.map((value, index) =>
		hidden[index].size === 0
			? value
			: value
					.split('')
					.map((char, at) => (hidden[index].has(at) ? '•' : char))
					.join(''),
	);
}

function maskFieldIn(
	key: string,
	field: unknown,
	reading: Reading,
	textual: boolean,
	closed: ClosedName | undefined,
	record: IDataObject,
): unknown {
	// A short Base URL user name or password under a name of one (`user`, `login`, `pass`).
	if (namedField(key, field, reading.known)) return shownFor(String(field), reading.audience);
	// The value of a name/value pair that names a secret (`{"name":"pin","value":"4821"}`); its
	// name is a field's name, shown as maskKey shows one (`{"attribute":"cvv"}` keeps `cvv`).
	// Members are matched without case or separators (`AttemptedValue`, `property_name`); a
	// template's parameters hold the value under `{{ value }}` (Symfony).
	const template = holdsTemplateValue(field);
	const pair = valueMember(key) || nameMember(key) || template ? secretPair(record) : undefined;
	if (pair && valueMember(key)) return maskSecret(field, pair.spec, reading);
	if (pair && template) {
		return mapFields(field, reading, (name, held) =>
			templateValueKey(name)
				? maskSecret(held, pair.spec, reading)
				: maskFieldIn(name, held, reading, textual, undefined, field as IDataObject),
		);
	}
	if (pair && key === pair.nameKey && typeof field === 'string') return maskKey(field, reading);
	// A `key` that names a field beside a message or a path (Joi's `context.key`): a name.
	if (keyNamesField(key, field, record)) return maskKey(field, reading);
	// A path's parts beside a value (`"loc": ["body","card","cvv"]`): names, each shown as maskKey
	// shows one, never read as a list-of-two pair (`["cvv","maxLength"]` names a CVV's length).
	if (namesPath(key, field, record, pair?.nameKey)) {
		return field.map((part) => (typeof part === 'string' ? maskKey(part, reading) : part));
	}
	const spec = fieldSpecIn(record, key);
	if (declaresCard(record.requisiteType) && spec.kind === 'requisite') {
		const digits = requisiteDigits(field);
		if (digits !== undefined) return maskRequisite(digits);
		// Sent as a list or an object (`["2200…"]`, `{"number":"2200…"}`, `[2200…]`): every leaf
		// that holds a digit is masked the same way (outside read r6-data-b, finding 3).
		if (typeof field === 'object' && field !== null) return maskCardLeaves(field, reading);
	}
	if (spec.kind === 'requisite' && isPlainObject(field)) {
		// Any other type, sent as an object: each leaf by what it holds, as a requisite.
		return maskRequisiteLeaves(field, spec, reading, textual);
	}
	if (closed === undefined) return maskUnder(field, spec, reading, textual);
	if (!declaredIn(closed, key)) {
		// A time plainly written (`rotatedAt`, `previousKeyValidUntil`) holds no secret.
		if (plainTimeIn(key, field)) return field === null ? field : byValue(String(field), reading);
		return shownWhenPlain(key, field, reading);
	}
	// A field holding another closed record, or an envelope holding this one (`data`).
	const nested = nestedIn(closed, key);
	if (nested !== undefined) return maskClosed(field, nested, reading);
	// A declared field keeps its shape (a value, or a list of values such as `permissions`): an
	// object under it (`status: { grant }`, `role: { name, grant }`) is not what it declares.
	if (spec.kind !== 'secret' && !plainShape(field)) return maskUndeclared(key, field, reading);
	return maskUnder(field, spec, reading, textual);
}

function isPlainObject(value: unknown): value is IDataObject {
	return (
		typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value)
	);
}

/** A requisite of a type that is not a card, sent as an object: each leaf read as a requisite. */
function maskRequisiteLeaves(
	value: unknown,
	spec: FieldSpec,
	reading: Reading,
	textual: boolean,
): unknown {
	if (Array.isArray(value)) {
		return value.map((entry) => maskRequisiteLeaves(entry, spec, reading, textual));
	}
	if (isPlainObject(value)) {
		return mapFields(value, reading, (_key, field) =>
			maskRequisiteLeaves(field, spec, reading, textual),
		);
	}
	return maskUnder(value, spec, reading, textual);
}

/** A card requisite of any JSON shape: each string or number leaf with a digit masked. */
function maskCardLeaves(value: unknown, reading: Reading): unknown {
	if (Array.isArray(value)) return value.map((entry) => maskCardLeaves(entry, reading));
	if (Buffer.isBuffer(value)) return reading.audience === 'model' ? HIDDEN : HIDDEN_PART;
	if (typeof value === 'object' && value !== null) {
		return mapFields(value, reading, (_key, field) => maskCardLeaves(field, reading));
	}
	if (typeof value === 'number' && Number.isFinite(value)) return maskRequisite(String(value));
	if (typeof value === 'string' && /\d/.test(value) && !maskedAlready(value)) {
		return maskRequisite(value);
	}
	return typeof value === 'string' ? byValue(value, reading) : value;
}

/** A value or a list of values: what a closed record's declared (not nested) field holds. */
function plainShape(value: unknown): boolean {
	const scalar = (entry: unknown) =>
		entry === null || ['string', 'number', 'boolean'].includes(typeof entry);
	return scalar(value) || (Array.isArray(value) && value.every(scalar));
}

/** A value under a closed record's field that holds another closed record (or a list of them). */
export function maskClosed(value: unknown, closed: ClosedName, reading: Reading): unknown {
	if (Array.isArray(value)) return value.map((entry) => maskClosed(entry, closed, reading));
	if (typeof value === 'object' && value !== null && !Buffer.isBuffer(value)) {
		return maskRecord(value as IDataObject, reading, false, closed);
	}
	return maskUndeclared('', value, reading);
}

/** One field of a record, by its name's kind (or, in a closed record, whether it is declared). */
export function maskField(
	key: string,
	value: unknown,
	reading: Reading,
	textual = false,
	record: IDataObject = {},
	closed?: ClosedName,
): unknown {
	return maskFieldIn(key, value, reading, textual, closed, record);
}

/** A value that stands alone (not under a field): an unknown, or a text inside an error. */
export function maskLoose(value: unknown, reading: Reading, textual: boolean): unknown {
	return maskUnder(value, textual ? TEXT : UNKNOWN, reading, textual);
}
