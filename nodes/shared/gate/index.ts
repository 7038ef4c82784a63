import type { IDataObject, INodeExecutionData, Logger } from 'n8n-workflow';

import {
	byValue,
	mapFields,
	maskClosed,
	maskField,
	maskLoose,
	maskRecord,
	maskText,
	maskUndeclared,
	setField,
} from './fields';
import type { Reading } from './fields';
import { closedRecordFor } from '../contract/records';
import type { ClosedName } from '../contract/records';
import { knownFor, MIN_IN_TEXT, namedIn, namesShortDigits, scopedTo } from './learned';
import type { Named } from './learned';
import type { Audience } from './masks';
import { maskLink } from './patterns';
import { cutDeep, RAW_BODY_DEPTH_NOTE } from './depth';
import { cutWhole, withoutKeptEnds } from './quote';
import { keepOpen, openFields } from './reveal';

/*
 * The gate: the one place where secrets are kept from whoever reads what the package puts out.
 * Every door passes through it at its edge: the action node's output items and errors
 * (router.ts), its hints (common/hints.ts), every tool result and tool error (tool/route.ts), the
 * triggers' output items, and every log line the package writes. Nothing else masks.
 *
 * It reads the document's records (contract/records.ts) instead of guessing from a value's look:
 * - fields.ts: the field rules. Identifiers and amounts are never changed; a secret field is
 *   masked whatever it holds (an object or a list under it, leaf by leaf); requisites and links
 *   by their kind; free text and fields the document does not show are searched.
 * - patterns.ts: what a secret looks like in a free text (card numbers with any separator, key
 *   and token shapes, links with tokens, `Bearer …`, a named CVV). Read in free text and unknown
 *   fields only, sparing every identifier the run knows.
 * - learned.ts: values known by value. The credential's own API key and webhook secrets, from
 *   every read of it; what secret fields held, for the run and its credential only.
 * - reveal.ts: Reveal, which opens one field of one record for the user.
 *
 * Two readers: the user (output items, errors, hints, logs) keeps what is not a secret (phone
 * numbers, record links, IDs); the AI model (tool results) gets less: requisites, any long number
 * in a text that is not a decimal's fraction or a 64-hex transaction hash, and a record's own link
 * cut to its host.
 */

export type { Audience } from './masks';
export { HIDDEN, HIDDEN_IN_PATH, maskRequisite } from './masks';
export {
	forgetLearnedSecrets,
	learnFromAnswer,
	learnFromRequest,
	openRun,
	rememberCredential,
	rememberSecret,
} from './learned';
export { reveal, revealedFields } from './reveal';
export { cutWhole, quoteText } from './quote';
export { cutDeep, DEPTH_CUT_MARKER, MAX_GATE_DEPTH, RAW_BODY_DEPTH_NOTE } from './depth';

function readingFor(ctx: object | undefined, audience: Audience, named?: Named): Reading {
	return { audience, known: knownFor(ctx, named) };
}

/** How deep an error's `details` are looked for in what a door shows (`error.details`, `context.details`). */
const DETAILS_DEPTH = 3;

/** The plain objects under a field `details` in a value, at most DETAILS_DEPTH levels down. */
function detailsIn(value: unknown, depth = 0, found: IDataObject[] = []): IDataObject[] {
	if (depth > DETAILS_DEPTH || typeof value !== 'object' || value === null) return found;
	if (Array.isArray(value) || Buffer.isBuffer(value)) return found;
	for (const [key, field] of Object.entries(value)) {
		if (typeof field !== 'object' || field === null || Array.isArray(field)) continue;
		if (key === 'details') found.push(field as IDataObject);
		else detailsIn(field, depth + 1, found);
	}
	return found;
}

/** A number of nine digits or more written alone: what a text reading may take for a requisite. */
const LONG_DIGITS = /^-?\d{9,}$/;

/** The long numbers `original` shows at the same places as its gated copy `shown` (unchanged). */
function keptNumbers(original: unknown, shown: unknown, found: string[]): void {
	if (typeof original === 'string' || typeof original === 'number') {
		const text = String(original);
		if (LONG_DIGITS.test(text) && String(shown) === text) found.push(text);
		return;
	}
	if (typeof original !== 'object' || original === null || typeof shown !== 'object' || !shown) {
		return;
	}
	for (const [key, field] of Object.entries(original)) {
		if (Object.prototype.hasOwnProperty.call(shown, key)) {
			keptNumbers(field, (shown as IDataObject)[key], found);
		}
	}
}

/**
 * The reading of a value whose error details keep a long number exactly (read field by field, as
 * in a record: an SBP trace, a ledger number), with that number spared where the same value's
 * texts quote it (`whatToDo`: "Details: {…}"), so the model reads it once, the same, in both
 * (outside read r16-data, finding 2). A number the details' fields mask stays masked everywhere.
 */
function sparingDetails(value: unknown, reading: Reading): Reading {
	const kept: string[] = [];
	for (const details of detailsIn(value)) {
		keptNumbers(details, maskRecord(details, reading, false), kept);
	}
	if (kept.length === 0) return reading;
	const identifiers = new Set([...reading.known.identifiers, ...kept]);
	return { ...reading, known: { ...reading.known, identifiers } };
}

/**
 * The closed record (contract/records.ts) the action node's operation outputs, read from the
 * node's own Resource and Operation; none for a trigger, or for an error item (its fields are the
 * package's and the service's error body's).
 */
function closedFor(ctx: object | undefined): ClosedName | undefined {
	const read = (
		ctx as { getNodeParameter?: (name: string, index: number, fallback: string) => unknown }
	)?.getNodeParameter;
	if (typeof read !== 'function') return undefined;
	try {
		return closedRecordFor(read.call(ctx, 'resource', 0, ''), read.call(ctx, 'operation', 0, ''));
	} catch {
		return undefined;
	}
}

/**
 * What an item says of its `rawBody` (the webhook trigger's Include Raw Body) when the gate had
 * to mask anything of the body: the text is withheld. A masked text would not be the bytes the
 * service signed (its HMAC no longer matches), and a secret the parsed body shows may stand in
 * the text in a form a text search does not read (JSON `\u` escapes, any grouping), so the gate
 * gives no part of it. The trigger verified the signature over the exact bytes before masking.
 */
export const RAW_BODY_MASKED_NOTE =
	'rawBody is withheld: the body carries secrets (masked in the fields of this item), and a masked text would not be the signed body, so its HMAC would not match X-Service-Signature. The trigger verified the signature over the exact bytes before masking.';

/**
 * The note naming the fields the gate masked (outside read r15-data, finding 4: the note said "a
 * card number, a key, a PIN" whatever was masked). At most MASKED_NAMES_SHOWN names, then a count.
 */
const MASKED_NAMES_SHOWN = 10;
export function rawBodyMaskedNote(fields: readonly string[]): string {
	if (fields.length === 0) return RAW_BODY_MASKED_NOTE;
	const shown = fields.slice(0, MASKED_NAMES_SHOWN).join(', ');
	const more =
		fields.length > MASKED_NAMES_SHOWN ? ` and ${fields.length - MASKED_NAMES_SHOWN} more` : '';
	return RAW_BODY_MASKED_NOTE.replace(
		'(masked in the fields of this item)',
		`(masked in this item's ${fields.length === 1 ? 'field' : 'fields'} ${shown}${more})`,
	);
}

/** The top-level fields of an item the gate changed (not its raw body, nor what is beside it). */
function maskedFields(
	original: IDataObject,
	out: IDataObject,
	beside: ReadonlySet<string>,
): string[] {
	const names: string[] = [];
	// The names as shown: a name the gate masked is named masked, never as received.
	for (const key of Object.keys(out)) {
		if (key === 'rawBody' || key === 'rawBodyMasked' || key === 'rawBodyNote' || beside.has(key)) {
			continue;
		}
		if (JSON.stringify(original[key]) !== JSON.stringify(out[key])) names.push(key);
	}
	return names;
}

/** Fields of an item that are not of its body (the request's headers), by the item. */
const besideBodies = new WeakMap<object, Set<string>>();

/**
 * Marks `fields` of a webhook item as not of its body (Include Headers' `headers`): what the gate
 * masks in them does not withhold the raw body (outside read r13-data, finding 3: a proxy's
 * `cf-access-jwt-assertion` withheld a body that carries no secret). The body's own fields, and
 * its text, decide.
 */
export function besideBody<T extends IDataObject>(record: T, ...fields: string[]): T {
	besideBodies.set(record, new Set([...(besideBodies.get(record) ?? []), ...fields]));
	return record;
}

/** The fields of an item but its raw body, what is said of it and what is beside the body, as JSON. */
function withoutRawBody(json: IDataObject, beside: ReadonlySet<string>): string {
	const rest: IDataObject = {};
	for (const [key, value] of Object.entries(json)) {
		if (key === 'rawBody' || key === 'rawBodyMasked' || key === 'rawBodyNote') continue;
		if (!beside.has(key)) rest[key] = value;
	}
	return JSON.stringify(rest);
}

/**
 * Marks an item's rawBody: exact (rawBodyMasked false) when the gate changed nothing of the item;
 * else withheld (null, rawBodyMasked true, rawBodyNote why). A rawBody the trigger already marked
 * (bytes that are not UTF-8 text) keeps its mark and note.
 */
function sayRawBody(original: IDataObject, out: IDataObject): IDataObject {
	if (typeof original.rawBody !== 'string') return out;
	const beside = besideBodies.get(original) ?? new Set<string>();
	const masked =
		out.rawBody !== original.rawBody ||
		withoutRawBody(out, beside) !== withoutRawBody(original, beside);
	if (masked) {
		setField(out, 'rawBody', null);
		setField(out, 'rawBodyMasked', true);
		setField(out, 'rawBodyNote', rawBodyMaskedNote(maskedFields(original, out, beside)));
		return out;
	}
	const marked = original.rawBodyMasked === true;
	setField(out, 'rawBodyMasked', marked);
	if (marked && typeof original.rawBodyNote === 'string') {
		setField(out, 'rawBodyNote', original.rawBodyNote);
	}
	return out;
}

/**
 * A record through the gate, read at most MAX_GATE_DEPTH levels deep (cutDeep). `cut` says the
 * caller already cut it: a record that was cut has its raw body, if any, withheld, as what lay
 * below the cut was not read (a secret there would stand whole in the text).
 */
function gateRecord(
	given: IDataObject,
	reading: Reading,
	closed?: ClosedName,
	cut = false,
): IDataObject {
	const json = cutDeep(given);
	const out = sayRawBody(json, gateFields(json, reading, closed));
	if ((cut || json !== given) && typeof json.rawBody === 'string') {
		setField(out, 'rawBody', null);
		setField(out, 'rawBodyMasked', true);
		setField(out, 'rawBodyNote', RAW_BODY_DEPTH_NOTE);
	}
	return out;
}

function gateFields(json: IDataObject, reading: Reading, closed?: ClosedName): IDataObject {
	const inRecord = closed !== undefined && !('error' in json) ? closed : undefined;
	const open = openFields(json, reading.audience);
	if (!open) return maskRecord(json, reading, false, inRecord);
	const out = mapFields(json, reading, (key, field) =>
		open.has(key) ? field : maskField(key, field, reading, false, json, inRecord),
	);
	// A nested field opened by its path (`company.apiKey`): its record masked, that leaf restored.
	for (const path of open) if (path.includes('.')) restorePath(out, json, path.split('.'));
	keepOpen(out, open);
	return out;
}

/** Puts back the one value at `path` of `original` into its masked copy `out` (same shape). */
function restorePath(out: IDataObject, original: IDataObject, path: string[]): void {
	let into: unknown = out;
	let from: unknown = original;
	for (const [index, name] of path.entries()) {
		if (typeof into !== 'object' || into === null || typeof from !== 'object' || from === null) {
			return;
		}
		if (!Object.prototype.hasOwnProperty.call(from, name)) return;
		const value = (from as IDataObject)[name];
		if (index === path.length - 1) {
			// A value as sent: a text, a number (a CVV sent as 737), null.
			if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) {
				setField(into as IDataObject, name, value);
			}
			return;
		}
		into = (into as IDataObject)[name];
		from = value;
	}
}

/** One JSON value (an output item's json, a log's metadata, an error body) through the gate. */
export function gateJson<T>(ctx: object | undefined, given: T, audience: Audience = 'user'): T {
	const value = cutDeep(given);
	const reading = sparingDetails(value, readingFor(ctx, audience, namedIn(value)));
	if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
		// A tool result is the operation's record: closed where the operation's record is.
		const closed = audience === 'model' ? closedFor(ctx) : undefined;
		return gateRecord(value as IDataObject, reading, closed, value !== given) as T;
	}
	return maskLoose(value, reading, false) as T;
}

/**
 * A JSON answer as an error quotes it (a list answer without records, a balance without
 * `usdtBalance`): through the gate field by field first, then written and cut (cutWhole), so a
 * cut never leaves the first characters of a secret its field would have masked whole.
 */
export function quoteJson(ctx: object | undefined, value: unknown, limit: number): string {
	return cutWhole(withoutKeptEnds(JSON.stringify(gateJson(ctx, value)) ?? String(value)), limit);
}

/** The fields of the service's error body (the document's), read by their kind. */
const ERROR_BODY_FIELDS = new Set([
	'statusCode',
	'error',
	'errorCode',
	'message',
	'required',
	'requestId',
	'path',
	'timestamp',
]);
/** Fields of an error's `details` the package reads (a missing permission, the field refused). */
const DETAIL_FIELDS = new Set(['required', 'field', 'fields', 'permission']);

/**
 * The service's error body of a call, through the gate. An operation whose record is closed
 * (a member, an invite, the company profile, a card's sensitive data) gets its error body closed
 * the same way: the error body's own fields by their kind, the detail fields the package reads,
 * and in `details` only what the record declares (a member's `userId`); anything else there (a
 * `memberKey`, a `pwd`, `members[].access`) is masked whatever it holds.
 */
export function gateErrorBody<T>(ctx: object | undefined, given: T): T {
	const value = cutDeep(given);
	const closed = closedFor(ctx);
	if (closed === undefined || typeof value !== 'object' || value === null || Array.isArray(value)) {
		return gateJson(ctx, value);
	}
	const body = value as IDataObject;
	const reading = readingFor(ctx, 'user', namedIn(body));
	const out = mapFields(body, reading, (key, field) => {
		if (ERROR_BODY_FIELDS.has(key)) return maskField(key, field, reading, true);
		if (key === 'details') return closedDetails(field, closed, reading);
		return maskUndeclared(key, field, reading);
	});
	return out as T;
}

function closedDetails(details: unknown, closed: ClosedName, reading: Reading): unknown {
	if (typeof details !== 'object' || details === null || Array.isArray(details)) {
		return maskClosed(details, closed, reading);
	}
	// Each field beside the others: `details` may itself be a name/value pair
	// (`{"field":"cvv","rejectedValue":"737"}`: outside read r21-data, finding 1).
	const record = details as IDataObject;
	return mapFields(record, reading, (key, field) =>
		DETAIL_FIELDS.has(key)
			? maskField(key, field, reading, true, record)
			: maskField(key, field, reading, true, record, closed),
	);
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
	const bounded = outputs.map((items) => items.map((item) => ({ item, json: cutDeep(item.json) })));
	const all = namedIn(bounded.map((items) => items.map((entry) => entry.json)));
	const reading = readingFor(ctx, audience, all);
	const closed = closedFor(ctx);
	// A short secret of digits (a CVV) an item names is that item's (learned.ts scopedTo): with
	// more than one item, each is read with what it names itself; items alike share a reading.
	const count = bounded.reduce((sum, items) => sum + items.length, 0);
	const scoped = count > 1 && namesShortDigits(all);
	const readings = new Map<string, Reading>();
	const readingOf = (json: IDataObject): Reading => {
		if (!scoped) return reading;
		const named = scopedTo(all, namedIn(json));
		if (named === all) return reading;
		const key = [...(named.elsewhere ?? [])].sort().join('\u0000');
		let found = readings.get(key);
		if (!found) {
			found = readingFor(ctx, audience, named);
			readings.set(key, found);
		}
		return found;
	};
	return bounded.map((items) =>
		items.map(({ item, json }) => ({
			...item,
			json: gateRecord(json, readingOf(json), closed, json !== item.json),
		})),
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
			target[key] = maskLoose(cutDeep(value), reading, true);
		}
	}
	return error;
}

/**
 * An error through the gate, in place (n8n tells errors apart by their class): its message,
 * description, stack, context, cause and the response n8n keeps with it, at any depth.
 */
export function gateError<T>(ctx: object | undefined, error: T, audience: Audience = 'user'): T {
	const named: Named = { secrets: [], identifiers: [] };
	if (error instanceof Error) {
		// What the error's own records name (the service's error body it keeps).
		for (const key of ['context', 'cause', 'errorResponse', 'response']) {
			const part = namedIn(cutDeep((error as unknown as Record<string, unknown>)[key]));
			named.secrets.push(...part.secrets);
			named.identifiers.push(...part.identifiers);
		}
	}
	let reading = readingFor(ctx, audience, named);
	if (error instanceof Error) reading = sparingDetails({ ...(error as object) }, reading);
	return gateErrorWith(error, reading, new Set());
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
	const named: Named = {
		secrets: secrets.filter((secret) => typeof secret === 'string' && secret.length >= MIN_IN_TEXT),
		identifiers: [],
	};
	return gateRecord(json, readingFor(undefined, 'model', named));
}
