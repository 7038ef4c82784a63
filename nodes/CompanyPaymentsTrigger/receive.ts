import { createHash } from 'node:crypto';

import type {
	IDataObject,
	INodeExecutionData,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import {
	besideBody,
	cutDeep,
	gateLogger,
	RAW_BODY_DEPTH_NOTE,
	rememberSecret,
} from '../shared/gate';
import { CREDENTIAL_NAME } from '../shared/transport';
import { webhookChangeKey } from '../shared/changeKey';
import { dedupLimits, DELIVERY_ID_HEADER, staticDataStore } from './deliveries';
import type { DeliveryStore, HeldDelivery } from './deliveries';
import { ALL_EVENTS, derivedFields, eventRouting, outputIndex } from './events';
import { ROTATED_SECRET_KEY } from './lifecycle';
import type { CredentialSecrets, RawBody, RotatedSecret } from './signature';
import {
	candidateKeys,
	credentialSecrets,
	invisibleSecretWarnings,
	openRotated,
	isSignature,
	readRotatedSecret,
	sealIdentity,
	sealRotated,
	SIGNATURE_HEADER,
	verifyBody,
} from './signature';
import { isObject } from '../shared/contract/guards';
import { readJsonLossless } from '../shared/transport/json';
import { openedRotated, rotatedKey, secretCache } from './secretCache';
import { firstTime, noteSuperseded, verifyWithProfile } from './profileSecret';
import { SERVICE_FIELDS_KEY as SHARED_SERVICE_FIELDS_KEY } from '../shared/serviceFields';

export const DEFAULT_GRACE_MINUTES = 10;

/** The Options collection of the node. */
export interface TriggerOptions {
	allowEmptyKey?: boolean;
	dedupMaxAgeHours?: number;
	dedupMaxEntries?: number;
	graceMinutes?: number;
	includeHeaders?: boolean;
	includeRawBody?: boolean;
}

/** Request headers never copied into the output: they may carry credentials of a proxy. */
const WITHHELD_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'x-api-key']);

const UNAUTHORIZED_BODY = JSON.stringify({
	message: 'Unauthorized: X-Service-Signature is missing or does not match the body',
});

interface RawRequest {
	rawBody?: RawBody;
	/** n8n's reader of the request body (1.x and 2.x): fills `rawBody`, within n8n's size limit. */
	readRawBody?: () => Promise<void>;
}

const UNSUPPORTED_BODY = JSON.stringify({
	message:
		'Unsupported Media Type: this body cannot be verified byte for byte (multipart/form-data is parsed by n8n before the node sees it); send it as application/json',
});

interface ResponseLike {
	status(code: number): unknown;
	setHeader(name: string, value: string): unknown;
	end(body?: string): unknown;
}

/** What the trigger reads of n8n's answer to a held delivery (Node's http.ServerResponse). */
interface AnswerLike {
	statusCode: number;
	end(...args: unknown[]): unknown;
	once(event: 'finish' | 'close', listener: () => void): unknown;
}

/**
 * Tells the held delivery n8n's answer: its status when n8n ends the response (n8n 2.x does so
 * only once the execution is saved and queued), whether or not the connection is still there to
 * carry it. A connection the service closed before that (its timeout) decides nothing: n8n may
 * still create the execution, so the claim stays held until n8n's answer, however long it takes
 * (the lease ends only when this process stops extending it: its answer, or the process's end).
 * False when the response object cannot be watched (then the trigger answers itself).
 */
function watchAnswer(ctx: IWebhookFunctions, held: HeldDelivery): boolean {
	const response = ctx.getResponseObject() as unknown as Partial<AnswerLike> | undefined;
	if (typeof response?.once !== 'function' || typeof response.end !== 'function') return false;
	const answer = response as AnswerLike;
	let told = false;
	const tell = () => {
		if (told) return;
		told = true;
		void held.answered(answer.statusCode);
	};
	const end = answer.end;
	answer.end = function (this: AnswerLike, ...args: unknown[]): unknown {
		tell();
		return end.apply(this, args);
	};
	answer.once('finish', tell);
	return true;
}

/** Writes the HTTP answer itself (n8n then sends nothing more). */
function respond(ctx: IWebhookFunctions, status: number, body: string): void {
	const response = ctx.getResponseObject() as unknown as ResponseLike;
	response.status(status);
	response.setHeader('Content-Type', 'application/json; charset=utf-8');
	response.end(body);
}

/** Answers a refusal itself, logging why, and starts no execution. */
function refuse(
	ctx: IWebhookFunctions,
	status: number,
	body: string,
	reason: string,
	level: 'info' | 'warn' | 'error',
): IWebhookResponseData {
	gateLogger(ctx)[level](`Company Payments Trigger answered ${status}: ${reason}`, {
		workflowId: ctx.getWorkflow().id,
		node: ctx.getNode().name,
	});
	respond(ctx, status, body);
	return { noWebhookResponse: true };
}

/** Answers 401 itself and starts no execution. */
function reject(
	ctx: IWebhookFunctions,
	reason: string,
	level: 'info' | 'warn' | 'error' = 'info',
): IWebhookResponseData {
	return refuse(ctx, 401, UNAUTHORIZED_BODY, reason, level);
}

const STORE_UNAVAILABLE_BODY = JSON.stringify({
	message:
		'Service Unavailable: the delivery store did not confirm this delivery as new; nothing was started, send it again',
});

/** Answered 200 and nothing more: the service must not retry, and no execution starts. */
function acknowledge(reason: string): IWebhookResponseData {
	return { webhookResponse: { received: true, executed: false, reason } };
}

/**
 * Answers an accepted delivery 200 with a small JSON acknowledgement and hands the items to
 * n8n. With the core's store the answer is written here, before n8n starts the execution, and
 * not left to n8n's `onReceived` answer: n8n would send it (and save the static data) only after
 * it has started the execution, and starting it resets n8n's "static data changed" flag, so the
 * delivery ID just recorded would never reach the database (see docs/webhook-trigger.md).
 * Answering here makes n8n save the static data at once, on every n8n version.
 *
 * A delivery the store holds until n8n answers (`held`: the companion's Redis claim, which keeps
 * nothing in the static data) is answered by n8n instead: n8n 2.x sends its `onReceived` answer
 * only once `WorkflowRunner.run` has saved and queued the execution, so no 200 goes out for a
 * delivery without an execution (docs/queue-mode.md). Only when this call changed the static
 * data (the rotated secret trimmed, sealed again or superseded: rare) does the trigger still
 * answer itself, so that n8n saves it; the store then decides at once, as before.
 */
async function accept(
	ctx: IWebhookFunctions,
	deliveryId: string | null,
	workflowData: INodeExecutionData[][],
	held?: { delivery: HeldDelivery; watched: boolean; staticChanged: boolean },
): Promise<IWebhookResponseData> {
	const body = { received: true, executed: true, deliveryId };
	if (held?.watched === true && !held.staticChanged) return { workflowData, webhookResponse: body };
	if (held) {
		const decided = await held.delivery.decideNow();
		if (decided.verdict === 'duplicate') {
			return acknowledge(`delivery ${deliveryId ?? ''} was received before`);
		}
		if (decided.verdict === 'unavailable') {
			return refuse(
				ctx,
				503,
				STORE_UNAVAILABLE_BODY,
				`delivery ${deliveryId ?? ''} not recorded: ${decided.reason}`,
				'warn',
			);
		}
	}
	respond(ctx, 200, JSON.stringify(body));
	return { noWebhookResponse: true, workflowData };
}

/** The credential's webhook secrets, normalised; undefined when the credential cannot be read. */
async function readSecrets(ctx: IWebhookFunctions): Promise<CredentialSecrets | undefined> {
	try {
		const credentials = await ctx.getCredentials(CREDENTIAL_NAME);
		for (const warning of invisibleSecretWarnings(credentials)) gateLogger(ctx).warn(warning);
		return credentialSecrets(credentials, sealIdentity(ctx, CREDENTIAL_NAME));
	} catch (error) {
		gateLogger(ctx).warn(
			`Company Payments Trigger could not read its credential (${(error as Error).message}); verifying with the secret it rotated itself, if any`,
		);
		return undefined;
	}
}

function hasKeys(value: IDataObject): boolean {
	for (const key in value) if (Object.prototype.hasOwnProperty.call(value, key)) return true;
	return false;
}

/** What an item says of a rawBody whose bytes are not UTF-8 text. */
export const RAW_BODY_NOT_UTF8_NOTE =
	'rawBody is not the signed body exactly: the body is not UTF-8 text, so bytes that are not UTF-8 show as U+FFFD and its HMAC does not match X-Service-Signature. The trigger verified the signature over the exact bytes.';

/** What an item says of a rawBody decoded from a charset other than UTF-8 (utf-16le, utf-16be). */
export function rawBodyDecodedNote(charset: string): string {
	return `rawBody is the body decoded from ${charset} (its Content-Type's charset): the text exactly, but not the signed bytes, so an HMAC over its UTF-8 does not match X-Service-Signature. The trigger verified the signature over the exact bytes.`;
}

/** The charsets the trigger decodes a body from (others are refused: UNSUPPORTED_CHARSET). */
type Charset = 'utf-8' | 'utf-16le' | 'utf-16be';

/** A body's text: decoded by its Content-Type's charset and its byte order mark. */
export interface BodyText {
	text: string;
	charset: Charset;
}

/** The charset a Content-Type declares (`application/json; charset=utf-16le`), lower case. */
export function declaredCharset(contentType: unknown): string | undefined {
	const value = Array.isArray(contentType) ? contentType[0] : contentType;
	if (typeof value !== 'string') return undefined;
	const match = /;\s*charset\s*=\s*("?)([^";\s]+)\1/i.exec(value);
	return match ? match[2].toLowerCase() : undefined;
}

/** Bytes of UTF-16 in big-endian order, as little-endian (Buffer reads UTF-16 LE only). */
function swapped(bytes: Buffer): Buffer {
	const out = Buffer.alloc(bytes.length - (bytes.length % 2));
	for (let at = 0; at + 1 < bytes.length; at += 2) {
		out[at] = bytes[at + 1];
		out[at + 1] = bytes[at];
	}
	return out;
}

/**
 * The body's text (outside read r13-data, finding 4): decoded by the charset its Content-Type
 * declares (UTF-8, UTF-16 LE or BE; `utf-16` by its byte order mark, else big-endian) or, with
 * none, by its byte order mark (else UTF-8); a byte order mark is not part of the text. A charset
 * the trigger does not decode is undefined: the delivery is refused, never read through n8n's
 * own parse (which rounds numbers past 2^53).
 */
export function bodyText(raw: RawBody, contentType: unknown): BodyText | undefined {
	if (typeof raw === 'string') return { text: raw, charset: 'utf-8' };
	const declared = declaredCharset(contentType);
	const bom16le = raw.length >= 2 && raw[0] === 0xff && raw[1] === 0xfe;
	const bom16be = raw.length >= 2 && raw[0] === 0xfe && raw[1] === 0xff;
	let charset: Charset;
	if (declared === undefined) {
		charset = bom16le ? 'utf-16le' : bom16be ? 'utf-16be' : 'utf-8';
	} else if (['utf-8', 'utf8', 'us-ascii', 'ascii'].includes(declared)) {
		charset = 'utf-8';
	} else if (['utf-16le', 'utf16le', 'ucs-2', 'ucs2'].includes(declared)) {
		charset = 'utf-16le';
	} else if (['utf-16be', 'utf16be'].includes(declared)) {
		charset = 'utf-16be';
	} else if (['utf-16', 'utf16'].includes(declared)) {
		charset = bom16le ? 'utf-16le' : 'utf-16be';
	} else {
		return undefined;
	}
	if (charset === 'utf-8')
		return { text: raw.subarray(utf8Bom(raw) ? 3 : 0).toString('utf8'), charset };
	const bom = charset === 'utf-16le' ? bom16le : bom16be;
	const bytes = raw.subarray(bom ? 2 : 0);
	const little = charset === 'utf-16le' ? bytes : swapped(bytes);
	return { text: little.toString('utf16le'), charset };
}

/** Whether the bytes start with UTF-8's byte order mark. */
function utf8Bom(raw: RawBody): boolean {
	return (
		typeof raw !== 'string' &&
		raw.length >= 3 &&
		raw[0] === 0xef &&
		raw[1] === 0xbb &&
		raw[2] === 0xbf
	);
}

/** Whether `text` encoded in `charset` is `raw` exactly (no invalid bytes replaced). */
function exactly(raw: RawBody, text: string, charset: Charset): boolean {
	if (typeof raw === 'string') return true;
	if (charset === 'utf-8') {
		const bytes = Buffer.from(text, 'utf8');
		return bytes.equals(raw) || Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes]).equals(raw);
	}
	const little = Buffer.from(text, 'utf16le');
	const bytes = charset === 'utf-16le' ? little : swapped(little);
	const bom = Buffer.from(charset === 'utf-16le' ? [0xff, 0xfe] : [0xfe, 0xff]);
	return bytes.equals(raw) || Buffer.concat([bom, bytes]).equals(raw);
}

/** The answer to a body in a charset the trigger does not decode. */
const UNSUPPORTED_CHARSET_BODY = JSON.stringify({
	message:
		'Unsupported Media Type: the body’s charset is not supported (send UTF-8, or UTF-16 LE or BE); nothing was started',
});

/**
 * The event body, read from the bytes the service signed, to the digit (shared/transport/json.ts):
 * n8n's own parse of a JSON body (`getBodyData()`) rounds numbers past 2^53, so two 19-digit
 * deposit IDs could come out as one. n8n's parse is used only where the text is not JSON.
 */
function payloadOf(
	ctx: IWebhookFunctions,
	text: string,
): { payload: IDataObject | undefined; cut: boolean } | { unreadable: string } {
	if (text.length > 0) {
		try {
			const { value, cut } = readJsonLossless(text);
			if (isObject(value)) return { payload: value, cut };
		} catch (error) {
			// Not JSON text: what n8n made of it, if anything. Any other failure is no reason to take
			// n8n's parse, which rounds numbers past 2^53 (outside read r14-data, finding 4).
			if (!(error instanceof SyntaxError)) return { unreadable: String(error) };
		}
	}
	const body = ctx.getBodyData() as unknown;
	return { payload: isObject(body) && hasKeys(body) ? body : undefined, cut: false };
}

/** The answer to a body the trigger's JSON reader could not read (not a syntax error). */
const UNREADABLE_BODY = JSON.stringify({
	message:
		'Unprocessable Content: the body could not be read to the digit; nothing was started, send it again',
});

/**
 * A copy of the event body to add the delivery fields to. Copying and then setting fields is
 * much cheaper in V8 than an object spread followed by more fields; a body with its own
 * `__proto__` key (possible from JSON) is spread instead, so the copy's prototype stays intact.
 */
function itemJson(payload: IDataObject | undefined): IDataObject {
	if (!payload) return {};
	if (Object.prototype.hasOwnProperty.call(payload, '__proto__')) return { ...payload };
	return Object.assign({}, payload);
}

/**
 * The name under which an item keeps the service's own values of fields the trigger sets itself
 * (SERVICE_FIELDS_KEY), only when the body had any: an event's other fields are not shown, so a
 * service may send a `deliveryId`, a `source`, a `receivedAt` or a `changeKey` of its own (outside
 * read r6-data-b, finding 6). The trigger's fields keep their names and meaning (the output of
 * saved workflows does not move); the service's values stay visible under this name.
 */
export const SERVICE_FIELDS_KEY = SHARED_SERVICE_FIELDS_KEY;

/** Every field name the trigger sets on an item itself. */
const TRIGGER_OWN_FIELDS = [
	'event',
	'deliveryId',
	'receivedAt',
	'deduplicationChecked',
	'changeKey',
	'source',
	'walletType',
	// A deposit's `externalId` the trigger reads (events.ts derivedFields): a value that is not a
	// non-empty text ("", an object, a number) is null in the item, the service's kept here
	// (outside read r12-data, finding 7).
	'externalId',
	'fundsReturned',
	'fundsReturnedNote',
	'headers',
	'rawBody',
	'rawBodyMasked',
	'rawBodyNote',
	SERVICE_FIELDS_KEY,
];

/** Puts the body's values the trigger replaced under SERVICE_FIELDS_KEY (none: nothing added). */
function keepServiceFields(json: IDataObject, payload: IDataObject | undefined): void {
	if (!payload) return;
	const replaced: IDataObject = {};
	let any = false;
	for (const name of TRIGGER_OWN_FIELDS) {
		if (!Object.prototype.hasOwnProperty.call(payload, name)) continue;
		const theirs = payload[name];
		if (name !== SERVICE_FIELDS_KEY && JSON.stringify(json[name]) === JSON.stringify(theirs)) {
			continue;
		}
		replaced[name] = theirs;
		any = true;
	}
	if (any) json[SERVICE_FIELDS_KEY] = replaced;
}

function outputHeaders(headers: IDataObject): IDataObject {
	const out: IDataObject = {};
	for (const [name, value] of Object.entries(headers)) {
		if (!WITHHELD_HEADERS.has(name.toLowerCase())) out[name] = value;
	}
	return out;
}

function headerText(value: unknown): string | null {
	if (typeof value !== 'string') return null;
	const trimmed = value.trim();
	return trimmed === '' ? null : trimmed;
}

/**
 * The bytes of the body as received. n8n reads them before the node runs for every content type
 * of a typeVersion-1 node and for the types it parses (JSON, text, form, XML) of a newer one;
 * for any other type (e.g. application/octet-stream, or none) a newer node gets the unread
 * stream, and reads it here with n8n's own reader (its size limit and Content-Encoding apply).
 * undefined when the body is gone (multipart/form-data: n8n parsed it into fields and files).
 */
async function rawBodyOf(ctx: IWebhookFunctions): Promise<RawBody | undefined> {
	const request = ctx.getRequestObject() as unknown as RawRequest;
	if (request.rawBody !== undefined) return request.rawBody;
	if (typeof request.readRawBody !== 'function') return undefined;
	try {
		await request.readRawBody();
	} catch (error) {
		gateLogger(ctx).warn(
			`Company Payments Trigger could not read the request body (${(error as Error).message})`,
		);
		return undefined;
	}
	return request.rawBody;
}

/**
 * Why a delivery was refused when the trigger holds a secret it rotated but cannot open it: said
 * at error level, with what to do (issue 50: it was logged at info level, and every delivery got
 * 401 after the company's API key was regenerated).
 */
export const UNOPENED_SECRET =
	'the webhook secret this trigger rotated cannot be opened: it is sealed with the API key (and Webhook Secret) the credential held at the rotation, and the credential now holds others, in an n8n process that has not seen the secret since; the company\'s current secret read from its profile did not verify this delivery either. What to do: check that the credential holds the company\'s current API key (the trigger then reads the current secret from the company profile itself, at the next delivery); else deactivate and activate the workflow again (with "Rotate Webhook Secret" on it rotates anew)';

/**
 * The kept rotated secret, opened: with the credential as it is now, else from this process's
 * memory of it (the API key was regenerated since, and the new key put into the credential), and
 * then sealed again with the credential as it is now so the static data opens after a restart.
 */
function openKept(
	ctx: IWebhookFunctions,
	nodeId: string,
	rotated: RotatedSecret | undefined,
	secrets: CredentialSecrets | undefined,
	staticData: IDataObject,
): RotatedSecret | undefined {
	if (!rotated) return undefined;
	const key = rotatedKey(
		ctx.getWorkflow().id,
		nodeId,
		ctx.getNode().credentials?.[CREDENTIAL_NAME],
		secrets?.baseUrl,
	);
	const opened = openRotated(rotated, secrets);
	if (opened) {
		openedRotated.set(key, opened);
		return opened;
	}
	const remembered = openedRotated.get(key);
	if (!remembered || remembered.rotatedAt !== rotated.rotatedAt || !secrets?.sealKey) {
		return undefined;
	}
	staticData[ROTATED_SECRET_KEY] = sealRotated(remembered, secrets) as unknown as IDataObject;
	gateLogger(ctx).info(
		'Company Payments Trigger: the credential holds another API key since the webhook secret was rotated; the rotated secret is sealed again with the new key',
	);
	return remembered;
}

/** Which trigger and credential a kept secret belongs to. */
function secretCacheKey(ctx: IWebhookFunctions, nodeId: string): string {
	const credential = ctx.getNode().credentials?.[CREDENTIAL_NAME];
	return `${ctx.getWorkflow().id ?? ''}:${nodeId}:${credential?.id ?? credential?.name ?? ''}`;
}

/**
 * Handles one delivery: verify the signature over the raw bytes, filter by event, drop
 * duplicates, and hand the event to the workflow. Nothing here calls the network; the answer
 * goes out as soon as the delivery is verified and recorded.
 */
export async function receive(
	this: IWebhookFunctions,
	store: DeliveryStore = staticDataStore,
): Promise<IWebhookResponseData> {
	const now = Date.now();
	const headers = this.getHeaderData() as IDataObject;
	const signature = headers[SIGNATURE_HEADER];
	if (!isSignature(signature)) {
		return reject(
			this,
			signature === undefined
				? 'the X-Service-Signature header is missing'
				: 'the X-Service-Signature header is not 64 hex characters',
		);
	}
	const raw = await rawBodyOf(this);
	if (raw === undefined) {
		return refuse(this, 415, UNSUPPORTED_BODY, 'n8n kept no raw body to verify', 'warn');
	}

	const options = this.getNodeParameter('options', {}) as TriggerOptions;
	const graceMinutes =
		typeof options.graceMinutes === 'number' && options.graceMinutes >= 0
			? options.graceMinutes
			: DEFAULT_GRACE_MINUTES;
	const graceMs = graceMinutes * 60_000;
	const node = this.getNode();
	const live = this.getMode() !== 'manual';
	const storeKey = `${this.getWorkflow().id ?? ''}:${node.id}:${live ? 'live' : 'test'}`;
	const staticData = this.getWorkflowStaticData('node');
	// A store that leaves the answer to n8n needs to know whether this call changed the static
	// data (n8n saves it only when the trigger answers itself): read as it came.
	const staticBefore = store.holdsUntilAnswered === true ? JSON.stringify(staticData) : undefined;
	const rotated = readRotatedSecret(staticData[ROTATED_SECRET_KEY]);
	const keyOptions = { allowEmptyKey: options.allowEmptyKey === true, graceMs, now };
	const cacheKey = secretCacheKey(this, node.id);
	const read = async () => await readSecrets(this);
	let unopened = false;
	let last: { secrets?: CredentialSecrets; opened?: RotatedSecret } = {};
	const keysOf = (secrets: CredentialSecrets | undefined) => {
		const opened = openKept(this, node.id, rotated, secrets, staticData);
		unopened = rotated !== undefined && opened === undefined;
		last = { secrets, opened };
		// A secret the trigger rotated is a secret of the credential's: masked wherever it shows.
		for (const secret of [
			opened?.current,
			opened?.previous,
			...(opened?.older ?? []).map((o) => o.secret),
		]) {
			rememberSecret(this, secret, true);
		}
		return candidateKeys(secrets, opened, keyOptions);
	};
	let verifiedAs: ReturnType<typeof verifyBody>;
	const verifies = (candidates: ReturnType<typeof keysOf>) => {
		verifiedAs = candidates.length > 0 ? verifyBody(raw, signature, candidates) : undefined;
		return verifiedAs !== undefined;
	};
	const kept = await secretCache.get(cacheKey, now, read);
	let keys = keysOf(kept.secrets);
	let verified = verifies(keys);
	if (!verified && !kept.fresh) {
		// Kept secrets may be out of date: read the credential again (rate-limited) and retry once.
		const again = await secretCache.reread(cacheKey, now, read);
		if (again) {
			keys = keysOf(again.secrets);
			verified = verifies(keys);
		}
	}
	if (!verified && live) {
		// The company's secret may have changed outside this trigger: its profile says which it is.
		verified = await verifyWithProfile(this, {
			key: cacheKey,
			now,
			raw,
			signature,
			graceMs,
			...last,
			staticData,
			storeKey: ROTATED_SECRET_KEY,
		});
	}
	if (!verified && unopened) {
		return reject(this, UNOPENED_SECRET, firstTime(cacheKey, 'unopened') ? 'error' : 'info');
	}
	if (!verified && keys.length === 0) {
		return reject(
			this,
			'no webhook secret is configured (set Webhook Secret in the credential, or turn on "Register Webhook URL Automatically" with "Rotate Webhook Secret")',
			'warn',
		);
	}
	if (!verified) {
		return reject(this, 'the signature does not match the body for the configured secret');
	}
	// A genuine delivery signed with the credential's secret: if that replaced the one the
	// trigger rotated, the replaced one signs retries for one grace period from now.
	if (verifiedAs === 'secret') {
		noteSuperseded(last.opened, last.secrets, staticData[ROTATED_SECRET_KEY], now);
	}
	const stored = readRotatedSecret(staticData[ROTATED_SECRET_KEY]);
	if (stored?.previous !== undefined && now - stored.rotatedAt >= graceMs) {
		// The grace period is over: the old secrets need not be kept any longer.
		const trimmed: RotatedSecret = {
			current: stored.current,
			rotatedAt: stored.rotatedAt,
			credentialFingerprint: stored.credentialFingerprint,
		};
		if (stored.bySecret) trimmed.bySecret = { current: stored.bySecret.current };
		// The seal that survives the company's key change stays with the current secret.
		if (stored.byIdentity) trimmed.byIdentity = { current: stored.byIdentity.current };
		if (stored.supersededAt !== undefined) trimmed.supersededAt = stored.supersededAt;
		staticData[ROTATED_SECRET_KEY] = trimmed as unknown as IDataObject;
	}

	// Read at most the gate's depth before anything is recorded: a body nested thousands of levels
	// deep is cut (its deeper part named by the cut marker), never a stack overflow after the 200.
	const decoded = bodyText(raw, headers['content-type']);
	if (decoded === undefined) {
		return refuse(
			this,
			415,
			UNSUPPORTED_CHARSET_BODY,
			`the body's charset "${String(declaredCharset(headers['content-type']))}" is not supported (UTF-8, UTF-16 LE or BE are); nothing was started`,
			'warn',
		);
	}
	const reading = payloadOf(this, decoded.text);
	if ('unreadable' in reading) {
		return refuse(
			this,
			422,
			UNREADABLE_BODY,
			`the body could not be read (${reading.unreadable}); nothing was started`,
			'error',
		);
	}
	const parsed = reading.payload;
	const payload = cutDeep(parsed);
	const event = payload && typeof payload.event === 'string' ? payload.event : null;
	const routing = eventRouting(
		this.getNodeParameter('events', [ALL_EVENTS]),
		this.getNodeParameter('routeByEvent', false) === true,
		this.getNode().typeVersion,
	);
	const index = outputIndex(routing, event);
	if (index === -1) return acknowledge(`event ${event ?? '(none)'} is not selected`);

	const deliveryId = headerText(headers[DELIVERY_ID_HEADER]);
	let held: { delivery: HeldDelivery; watched: boolean } | undefined;
	if (deliveryId !== null) {
		const limits = dedupLimits(options.dedupMaxEntries, options.dedupMaxAgeHours);
		const outcome = await store.record(this, { storeKey, staticData, deliveryId, now, limits });
		if (outcome.verdict === 'duplicate') {
			return acknowledge(`delivery ${deliveryId} was received before`);
		}
		if (outcome.verdict === 'unavailable') {
			return refuse(
				this,
				503,
				STORE_UNAVAILABLE_BODY,
				`delivery ${deliveryId} not recorded: ${outcome.reason}`,
				'warn',
			);
		}
		// Watched at once: whatever happens from here on (an error building the items, too) ends
		// in an answer of n8n's, which settles the held record.
		if (outcome.held) held = { delivery: outcome.held, watched: watchAnswer(this, outcome.held) };
	}

	const json = itemJson(payload);
	json.event = event;
	json.deliveryId = deliveryId;
	json.receivedAt = new Date(now).toISOString();
	json.deduplicationChecked = deliveryId !== null;
	json.changeKey = webhookChangeKey(
		event,
		payload ?? {},
		deliveryId,
		createHash('sha256').update(raw).digest('hex'),
	);
	json.source = 'webhook';
	if (payload) Object.assign(json, derivedFields(event, payload));
	if (options.includeHeaders === true) {
		// The request's headers are not the body: masking one of them withholds no raw body.
		json.headers = outputHeaders(headers);
		besideBody(json, 'headers');
	}
	if (options.includeRawBody === true || !payload) {
		const { text, charset } = decoded;
		json.rawBody = text;
		// Bytes that are not text in their charset cannot be given exactly as text, nor can a text
		// decoded from UTF-16 be the signed bytes: said, never silent.
		if (!exactly(raw, text, charset)) {
			json.rawBodyMasked = true;
			json.rawBodyNote = RAW_BODY_NOT_UTF8_NOTE;
		} else if (charset !== 'utf-8' || utf8Bom(raw)) {
			json.rawBodyMasked = true;
			json.rawBodyNote = rawBodyDecodedNote(
				charset === 'utf-8' ? 'UTF-8 with a byte order mark' : charset,
			);
		}
		if (reading.cut || payload !== parsed) {
			// What lay below the cut was not read by the gate: the text is withheld, said so.
			json.rawBody = null;
			json.rawBodyMasked = true;
			json.rawBodyNote = RAW_BODY_DEPTH_NOTE;
		}
	}
	keepServiceFields(json, payload);

	const outputs: INodeExecutionData[][] = routing.outputs ? routing.outputs.map(() => []) : [[]];
	outputs[index].push({ json });
	const staticChanged = staticBefore !== undefined && JSON.stringify(staticData) !== staticBefore;
	return await accept(this, deliveryId, outputs, held && { ...held, staticChanged });
}
