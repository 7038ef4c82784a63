import type { IDataObject, IExecuteFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { apiRequest, LINE_BREAK, runAccount } from '../transport';
import type { ApiRequest, Report, ServiceErrorInfo } from '../transport';
import {
	boundTime,
	brokenTies,
	companyFingerprint,
	datedLater,
	earliestBound,
	marginWords,
	sealOf,
	serviceOf,
	timesAgainst,
	UNDATED_PREDATES_MS,
} from './binding';
import {
	forgetSkews,
	knownCreatedFloor,
	knownCreatedSkew,
	knownSkew,
	knownSkewLow,
	observeCreated,
	observeReport,
	PROCESS_CLOCK,
	skewRangeSince,
	dated as datedAnswer,
} from './clock';
import { recordReadAgain } from './readAgain';
import { readRecordId } from './recordId';
import { forgetPending } from './pending';
import { claim, forgetProofs, noteWrite, provedOther, unclaim } from './proofs';
import type { SentWrite } from './resolve';
import type { MoneyContract, PaymentOutcome } from './contract';
import type { Difference } from './evidence';
import {
	forgetUnexecuted,
	moneyKey,
	runsAsAgentTool,
	settleUnexecuted,
	unexecutedSince,
} from './key';
import { sentDigests } from './sentEvidence';
import { keyNamesPayment } from './replay';
import type { OnceFor } from './key';
import { HELD_MS, MAX_KEPT, MAX_NAMED } from './bounds';
import {
	digestOf,
	forgetAllNamed,
	forgetNamed,
	keepNamed,
	namedCap,
	namedCount,
	recallNamed,
	releaseNamed,
	sealNamed,
} from './named';
import type { NamedTrace } from './named';
import { MONEY_ACTIONS } from './words';
import {
	IDEMPOTENCY_KEY_REUSED,
	answerSaysFailed,
	failedWrite,
	markOutcome,
	notARecord,
	notStanding,
	outcomeFields,
	outcomeUnknownError,
	unprovenAnswer,
} from './outcome';

/*
 * The one entry point of a money write (issue 44.1): `moneyWrite` forms the key, applies
 * send-once, hands the request to the transport, and reads paid / not paid / unknown from the
 * attempts the transport reports.
 */

/**
 * Money writes this n8n process has already sent, by Idempotency-Key, for the writes whose replay
 * by key the interface document does not promise (Payout Create, Card Recharge, Payout Cancel).
 *
 * n8n's Retry On Fail runs the whole node again with the same items, and the same derived keys:
 * without this, items that were paid before a later item failed, and an item whose answer was
 * lost, would be sent again, and a service that does not replay the key would pay them twice.
 * Here a key that was paid returns the answer it got, without a request; a key whose outcome is
 * unknown is refused with OUTCOME_UNKNOWN, without a request; a key the service refused (not
 * paid) may be sent again. Writes the document promises replay for are sent again (the service
 * answers a repeated key with the stored result).
 *
 * Every money write with a key is kept with what it asked for: the same key for another payment
 * (two items given one Idempotency Key, another quote or card) is refused before it is sent,
 * since the service would answer it with the first payment.
 *
 * Kept in this process's memory (a Retry On Fail runs in the process that ran the node), for at
 * most MAX_KEPT keys (outside r6-money-b F1). A write that may be sent again is never forgotten to
 * make room: one of a node run that has not ended normally (Retry On Fail may run it again) until
 * HELD_MS after that run's last write or failure, one whose key names a payment (a key the user
 * set, a tool's payment reference) until HELD_MS after it was sent, and one whose key an item run
 * without an execution ID keeps (key.ts unexecutedKey) until HELD_MS after it was formed. Only writes past both are
 * forgotten, the oldest first; when every kept write is still held, a new money write is refused
 * before it is sent (SENT_WRITES_FULL, not paid). A new execution derives new keys, so a run that
 * ended normally is never sent again by n8n under its keys.
 */
export type SentState = {
	request: string;
	/** When this process first sent it (ISO), so a re-send's sent write names the first send. */
	sentAt?: string;
	/** What the first send asked for, where it names a record made for it (Pay QR Code's quote). */
	first?: IDataObject;
	/** The seal of its sent write, so Resolve Outcome's not_paid can release the key. */
	seal?: unknown;
	/** The seals of this key's earlier unknown sends (each output's sentWrite releases it too). */
	seals?: unknown[];
	/**
	 * Its latest sealed sent write (the first send's time), so a later write of another request
	 * under the key, refused while this one is undecided, carries it to Resolve Outcome.
	 */
	sentWrite?: IDataObject;
	/** What it paid, without its body: its method and path, or what it pays (Pay QR Code's QR code). */
	subject?: string;
	/** The node run that sent it (runOf), held while it may be run again. */
	run?: string;
	/** When its key names a payment (set by the user, a tool's reference): held HELD_MS from here. */
	namedAt?: number;
	/** When an item run without an execution ID formed its key (key.ts unexecutedKey): held HELD_MS from here. */
	keyedAt?: number;
} &
	/** In flight: `settled` resolves when its answer or error is known (never rejects). */
	(| { state: 'sending'; settled: Promise<unknown> }
		| { state: 'paid'; answer: unknown; made?: IDataObject }
		| { state: 'unknown' }
	);

export { HELD_MS, MAX_KEPT, MAX_NAMED } from './bounds';

/** The code of a money write refused because every kept write is still held. */
export const SENT_WRITES_FULL = 'SENT_WRITES_FULL';

let limits = { maxKept: MAX_KEPT, heldMs: HELD_MS };

/** Sets the bounds (tests lower them to run at a few items); no argument restores the stated ones. */
export function limitSentWrites(next: { maxKept?: number; heldMs?: number } = {}): void {
	limits = { maxKept: next.maxKept ?? MAX_KEPT, heldMs: next.heldMs ?? HELD_MS };
	fullUntil = undefined;
}

const sent = new Map<string, SentState>();

/** The keys of `sent` whose key names a payment (they count against the cap of named payments). */
const namedHeld = new Set<string>();

/**
 * The code of a money write refused because its n8n credential sent the same Idempotency Key in
 * this process with an earlier API key, changed since by hand (outcome unknown, nothing sent).
 */
export const CREDENTIAL_KEY_CHANGED = 'CREDENTIAL_KEY_CHANGED';

/** The code of a payment refused because this process already paid it under a named key. */
export const PAID_BEFORE = 'PAID_BEFORE';

/** The longest record ID a trace keeps, and how many seals of unknown sends (the newest). */
const TRACE_ID_MAX = 64;
const TRACE_SEALS = 2;

/** Drops an entry from `sent`; a named payment that was sent leaves its trace (named.ts). */
function dropSent(id: string, entry: SentState, keepTrace: boolean): void {
	sent.delete(id);
	if (!namedHeld.delete(id) || !keepTrace || entry.state === 'sending') return;
	const trace: NamedTrace = { request: digestOf(entry.request), outcome: entry.state };
	// When it was first sent, so a repeat's unknown names that send in its sent write (r9-money F6).
	if (entry.sentAt !== undefined) trace.sentAt = entry.sentAt;
	if (entry.state === 'paid') {
		// A record ID as services write them; an outsized one is not kept (the trace stays small).
		const recordId = answeredRecordId(entry.answer);
		if (recordId !== undefined && recordId.length <= TRACE_ID_MAX) trace.recordId = recordId;
	} else {
		const seals = [...(entry.seals ?? []), entry.seal].filter((seal) => seal !== undefined);
		trace.seals = seals.slice(-TRACE_SEALS).map((seal) => digestOf(String(seal)));
	}
	keepNamed(id, trace);
}

/**
 * The node runs that sent kept writes: when their last write or failure was, and whether the run
 * ended normally (n8n runs a node again only after it failed). At most MAX_KEPT are tracked; the
 * ones that hold nothing any more go first.
 */
const runs = new Map<string, { last: number; ended: boolean }>();

/**
 * Set when a look for room found every kept write held: until this time, and while nothing was
 * ended or forgotten, a new write is refused without looking again.
 */
let fullUntil: number | undefined;

/** The node run of a context: its execution, node and run index. */
function runOf(ctx: IExecuteFunctions, itemIndex: number): string {
	const read = (get: () => unknown): string => {
		try {
			const value = get();
			return value === undefined || value === null ? '' : String(value);
		} catch {
			return '';
		}
	};
	const execution = read(() => ctx.getExecutionId());
	const node = read(() => ctx.getNode().id);
	const run = read(() => ctx.getWorkflowDataProxy(itemIndex).$runIndex);
	return `${execution}/${node}/${run}`;
}

/** Marks a node run active now (a write, or its failure): its writes are held from now on. */
function touchRun(run: string, now = Date.now()): void {
	runs.delete(run);
	runs.set(run, { last: now, ended: false });
	if (runs.size <= limits.maxKept) return;
	for (const [other, state] of runs) {
		if (runs.size <= limits.maxKept) return;
		if (state.ended || now - state.last >= limits.heldMs) runs.delete(other);
	}
	// Still over: forget the runs no kept write belongs to (at most MAX_KEPT runs hold a write).
	const holding = new Set<string | undefined>([run]);
	for (const entry of sent.values()) holding.add(entry.run);
	for (const other of runs.keys()) if (!holding.has(other)) runs.delete(other);
}

/**
 * Tells the memory how the node's run ended (CompanyPayments.execute): normally, so n8n will not
 * run it again and its writes may make room; or by a failure, so they are held HELD_MS from now.
 */
export function endRun(ctx: IExecuteFunctions, normally: boolean): void {
	const run = runOf(ctx, 0);
	const known = runs.get(run);
	if (!known) return;
	if (normally) known.ended = true;
	else touchRun(run);
	fullUntil = undefined;
}

/** Until when an entry is held (never forgotten to make room); 0 when it is not. */
function heldUntil(entry: SentState, now: number): number {
	if (entry.state === 'sending') return Infinity;
	let until = 0;
	if (entry.namedAt !== undefined) until = entry.namedAt + limits.heldMs;
	if (entry.keyedAt !== undefined) until = Math.max(until, entry.keyedAt + limits.heldMs);
	const run = entry.run === undefined ? undefined : runs.get(entry.run);
	if (run && !run.ended) until = Math.max(until, run.last + limits.heldMs);
	return until > now ? until : 0;
}

/**
 * Makes room for one more write: forgets the oldest write no longer held. False when every kept
 * write is still held (then nothing is forgotten).
 */
function makeRoom(now = Date.now()): boolean {
	if (sent.size < limits.maxKept) return true;
	if (fullUntil !== undefined && now < fullUntil) return false;
	let soonest = Infinity;
	for (const [id, entry] of sent) {
		const until = heldUntil(entry, now);
		if (until === 0) {
			dropSent(id, entry, true);
			fullUntil = undefined;
			if (sent.size < limits.maxKept) return true;
		} else {
			soonest = Math.min(soonest, until);
		}
	}
	if (sent.size < limits.maxKept) return true;
	fullUntil = soonest;
	return false;
}

/**
 * Keys whose earlier send Resolve Outcome proved not paid (releaseNotPaid): a refusal of the next
 * send is not caused by that earlier one, so it is read as the refusal it is (r1-money-resend).
 */
const released = new Set<string>();

/**
 * The names one sender goes by, each mapped to the sender its entries are kept under: the company
 * and environment (`company`: the company fingerprint the seal uses, an HMAC of the normalised
 * Base URL under a key derived from the API key). A key this node's Regenerate API Key issued is
 * named after the sender of the key that asked for it (noteRegeneratedKey). Cleared with the
 * memory; at most MAX_NAMED names.
 */
const senderNames = new Map<string, string>();

/**
 * The sender an entry belongs to: the company and environment the credential's API key names,
 * whichever n8n credential carries it (outside r10-money F5: two credentials holding the same key
 * paid one payout twice). The environment is the Base URL as `serviceOf` normalises it: scheme,
 * host and port, and path, in lower case, without a trailing slash or the scheme's default port.
 * Two host names of one machine (`localhost` and `127.0.0.1`) are two environments: nothing in a
 * Base URL proves that they reach the same service (docs/assumptions.md, "One sender").
 *
 * An n8n credential is no sender (outside r11-money F1): a credential edited to hold another
 * company's API key is another company, and nothing the node can read without a request ties two
 * keys to one company. A new key stays the same sender only where this process saw it issued to
 * the old one: Regenerate API Key, sent with the old key, answered with the new one
 * (noteRegeneratedKey; r4-money-resend F5). A key got any other way (a new Login, which may be
 * another company's, or the service's console) is a new sender: its first write is sent, except
 * under an Idempotency Key the same n8n credential's earlier key sent in this process, which is
 * refused unknown (CREDENTIAL_KEY_CHANGED: earlierSenderOfKey), neither paid twice nor inherited.
 */
export function senderOf(ctx: IExecuteFunctions, baseUrl: string, account: string): string {
	const company = `company:${companyFingerprint(account, baseUrl)}`;
	const sender = senderNames.get(company) ?? company;
	nameSender(company, sender);
	noteCredentialSender(ctx, baseUrl, sender);
	return sender;
}

/**
 * The senders each n8n credential has carried at each environment in this process, by
 * `credential:<id> <serviceOf(baseUrl)>`, the newest last: not to share a memory (an n8n
 * credential is no sender), only to see a key changed by hand under a payment the earlier key sent
 * (earlierSenderOfKey). At most CREDENTIAL_SENDERS a credential and MAX_NAMED credentials (the
 * oldest go); cleared with the memory.
 */
const credentialSenders = new Map<string, string[]>();

/** How many senders one credential's list keeps (the newest). */
const CREDENTIAL_SENDERS = 16;

/** The name of the n8n credential of a node run at an environment, or undefined without an ID. */
function credentialAt(ctx: IExecuteFunctions, baseUrl: string): string | undefined {
	let id: unknown;
	try {
		id = ctx.getNode().credentials?.companyPaymentsApi?.id;
	} catch {
		id = undefined;
	}
	return typeof id === 'string' && id !== '' ? `credential:${id} ${serviceOf(baseUrl)}` : undefined;
}

function noteCredentialSender(ctx: IExecuteFunctions, baseUrl: string, sender: string): void {
	const credential = credentialAt(ctx, baseUrl);
	if (credential === undefined) return;
	const senders = (credentialSenders.get(credential) ?? []).filter((other) => other !== sender);
	senders.push(sender);
	credentialSenders.delete(credential);
	credentialSenders.set(credential, senders.slice(-CREDENTIAL_SENDERS));
	while (credentialSenders.size > MAX_NAMED) {
		const oldest = credentialSenders.keys().next().value;
		if (oldest === undefined) break;
		credentialSenders.delete(oldest);
	}
}

/**
 * Whether this n8n credential, at this environment, sent a write under `key` in this process with
 * an earlier API key that is another sender now (changed by hand, not through Regenerate API Key):
 * an entry or a named trace under that sender. The new key may be the same company's, whose
 * payment would then be sent twice, or another company's, whose memory it must not inherit.
 */
function earlierSenderOfKey(
	ctx: IExecuteFunctions,
	baseUrl: string,
	sender: string,
	key: string,
): boolean {
	const credential = credentialAt(ctx, baseUrl);
	const senders = credential === undefined ? [] : (credentialSenders.get(credential) ?? []);
	return senders.some(
		(other) =>
			other !== sender &&
			(sent.has(`${other} ${key}`) || recallNamed(`${other} ${key}`) !== undefined),
	);
}

/**
 * The key Regenerate API Key was answered with (`newAccount`), sent with `account` at `baseUrl`:
 * the same company, so the same sender (r4-money-resend F5). A write under the new key finds the
 * entries of the old one: what was paid is not paid again, an unknown stays unknown.
 */
export function noteRegeneratedKey(
	ctx: IExecuteFunctions,
	baseUrl: string,
	account: string,
	newAccount: string,
): void {
	if (newAccount === '' || newAccount === account) return;
	const sender = senderOf(ctx, baseUrl, account);
	nameSender(`company:${companyFingerprint(newAccount, baseUrl)}`, sender);
}

function nameSender(name: string, sender: string): void {
	if (senderNames.get(name) === sender) return;
	senderNames.delete(name);
	senderNames.set(name, sender);
	// At most as many names as named payments a process keeps; past it the oldest go.
	while (senderNames.size > MAX_NAMED) {
		const oldest = senderNames.keys().next().value;
		if (oldest === undefined) break;
		senderNames.delete(oldest);
	}
}

/** What a write asked for: its method, path and body, so a key reused for another one is seen. */
export function sentRequest(method: string, path: string, body: unknown): string {
	return `${method} ${path} ${JSON.stringify(body ?? null)}`;
}

export function recallSentWrite(id: string): SentState | undefined {
	const entry = sent.get(id);
	return entry && entry.state === 'paid'
		? { ...entry, answer: structuredClone(entry.answer) }
		: entry;
}

/**
 * Keeps (or updates) the entry of a key. A new key is let in only where there is room
 * (moneyWrite checks first, makeRoom): an entry is never forgotten while it is held.
 */
export function rememberSentWrite(id: string, entry: SentState): void {
	if (!sent.has(id)) makeRoom();
	sent.delete(id);
	sent.set(
		id,
		entry.state === 'paid' ? { ...entry, answer: structuredClone(entry.answer) } : entry,
	);
}

export function forgetSentWrite(id: string): void {
	const entry = sent.get(id);
	if (entry) dropSent(id, entry, false);
	forgetNamed(id);
	fullUntil = undefined;
}

/**
 * Releases a key whose unknown outcome Resolve Outcome proved not paid (by its sent write's seal):
 * a re-send under it may then be sent. A paid or still unknown one stays as it is.
 */
export function releaseNotPaid(seal: unknown): void {
	for (const [id, entry] of sent) {
		const sealed = entry.seal === seal || (entry.seals ?? []).includes(seal);
		if (entry.state === 'unknown' && seal !== undefined && sealed) {
			dropSent(id, entry, false);
			fullUntil = undefined;
			released.add(id);
			// Keys hold no spaces (key.ts PRINTABLE, derived keys): the key is the id's last word.
			settleUnexecuted(id.slice(id.lastIndexOf(' ') + 1));
			if (released.size > MAX_KEPT) released.delete(released.values().next().value as string);
		}
	}
	releaseNamed(seal);
}

/**
 * What a key this process sent holds, for a refusal that names it (IDEMPOTENCY_KEY_REUSED as a
 * tool's conflict): the earlier write's answer when it was paid, and what it paid (its subject).
 */
export function earlierWrite(
	ctx: IExecuteFunctions,
	baseUrl: string,
	account: string,
	key: string,
): { answer?: IDataObject; subject?: string; outcome: 'paid' | 'unknown' } | undefined {
	const entry = recallSentWrite(`${senderOf(ctx, baseUrl, account)} ${key}`);
	if (!entry) return undefined;
	const answer =
		entry.state === 'paid' && entry.answer !== null && typeof entry.answer === 'object'
			? (entry.answer as IDataObject)
			: undefined;
	return { answer, subject: entry.subject, outcome: entry.state === 'paid' ? 'paid' : 'unknown' };
}

/** Forgets every write (tests: each case starts in a new process, as far as this store goes). */
export function forgetAllSentWrites(): void {
	sent.clear();
	senderNames.clear();
	credentialSenders.clear();
	namedHeld.clear();
	forgetAllNamed();
	released.clear();
	runs.clear();
	fullUntil = undefined;
	forgetSkews();
	forgetPending();
	forgetProofs();
	forgetUnexecuted();
}

/**
 * What the first send of a key in this process asked for (Pay QR Code: the quote it accepted), so
 * a re-send (Retry On Fail) is the same request; undefined when this process never sent the key.
 */
export async function firstSend(
	ctx: IExecuteFunctions,
	itemIndex: number,
	key: string,
): Promise<IDataObject | undefined> {
	const { baseUrl, account } = await runAccount(ctx, itemIndex);
	return sent.get(`${senderOf(ctx, baseUrl, account)} ${key}`)?.first;
}

/** An entry this process sent for the same request and sender under another key, if any. */
function sameRequest(sender: string, asked: string): SentState | undefined {
	for (const [other, entry] of sent) {
		if (other.startsWith(`${sender} `) && entry.request === asked && entry.state !== 'sending') {
			return entry;
		}
	}
	return undefined;
}

/** The ID of the record a paid answer shows (a payout, or a card request's card), if any. */
function answeredRecordId(answer: unknown): string | undefined {
	if (answer === null || typeof answer !== 'object') return undefined;
	const { id, card } = answer as IDataObject;
	if (typeof id === 'string' || typeof id === 'number') return String(id);
	const cardId = card && typeof card === 'object' ? (card as IDataObject).id : undefined;
	return typeof cardId === 'string' ? cardId : undefined;
}

/**
 * What differs between a key's earlier write and this one (r6-money-b F2), for the refusal that
 * names it: the subject (path, or what it pays), else each body field that differs. A field that
 * is one of the contract's plain details shows both values; any other (a recipient's number, a
 * field the contract does not declare) only that it differs, so nothing sensitive is repeated.
 */
function requestDifferences(
	contract: MoneyContract,
	earlier: SentState,
	asked: string,
	method: string,
	call: MoneyCall,
): Difference[] {
	const subject = `${method} ${call.pays ?? call.request.path}`;
	if (earlier.subject !== undefined && earlier.subject !== subject) {
		return [{ field: 'request', paid: earlier.subject, asked: subject }];
	}
	const bodyOf = (request: string): IDataObject | undefined => {
		if (!request.startsWith(`${subject} `)) return undefined;
		try {
			const body: unknown = JSON.parse(request.slice(subject.length + 1));
			return body !== null && typeof body === 'object' ? (body as IDataObject) : undefined;
		} catch {
			return undefined;
		}
	};
	const before = bodyOf(earlier.request);
	const now = bodyOf(asked);
	if (!before || !now) return [];
	const plain = new Set(contract.details.filter((d) => d.kind !== 'requisite').map((d) => d.name));
	const diff: Difference[] = [];
	for (const field of new Set([...Object.keys(before), ...Object.keys(now)])) {
		if (JSON.stringify(before[field]) === JSON.stringify(now[field])) continue;
		const shown = plain.has(field);
		const text = (value: unknown) => (value === undefined ? 'none' : JSON.stringify(value));
		diff.push({
			field,
			paid: shown ? text(before[field]) : 'another value',
			asked: shown ? text(now[field]) : "this call's value",
		});
	}
	return diff;
}

/** How many other writes a sent write names (the newest). */
const ALONGSIDE_KEPT = 20;

/**
 * The other writes of the same request (the same identity and details) this process sent under
 * other keys (r5-money F7): two items of one execution, or a re-run. Each is named in the sealed
 * sent write (its sent time, and its record's ID when it was paid), so Resolve Outcome in any
 * process, after a restart too, knows that one record found under the identity may be another
 * write's: which write a record proved is kept only in this process's memory (proofs.ts).
 */
function alongside(sender: string, asked: string, id: string): IDataObject[] {
	const others: IDataObject[] = [];
	for (const [other, entry] of sent) {
		if (other === id || !other.startsWith(`${sender} `) || entry.request !== asked) continue;
		const recordId = entry.state === 'paid' ? answeredRecordId(entry.answer) : undefined;
		others.push({ sentAt: entry.sentAt ?? null, ...(recordId ? { recordId } : {}) });
	}
	return others.slice(-ALONGSIDE_KEPT);
}

/**
 * Whether this item may have been sent before (r1-money-resend): this process sent the same request
 * (`earlier`: under this key, or another one, a re-run of the execution), or the payment is named
 * by something a re-run carries: an Idempotency Key the user set (or a tool's payment reference),
 * or the External ID the write carries.
 */
function mayHaveBeenSent(
	ctx: IExecuteFunctions,
	itemIndex: number,
	contract: MoneyContract,
	body: IDataObject | undefined,
	earlier: SentState | undefined,
): boolean {
	if (earlier !== undefined || keyNamesPayment(ctx, itemIndex)) return true;
	const carried = contract.identity ? body?.[contract.identity.field] : undefined;
	return typeof carried === 'string' && carried !== '';
}

/**
 * The error of a refusal that came before the money write was sent (Pay QR Code's prepare
 * refused FINE_ALREADY_PAID) when this item may have been sent before and its own earlier
 * attempt may have caused it: unknown, with the sent write of that earlier attempt where this
 * process kept it (its first quote). Undefined when this item was never sent as far as is known.
 */
export async function refusedAfterEarlierSend(
	ctx: IExecuteFunctions,
	call: MoneyCall,
	code: string,
): Promise<unknown> {
	const { contract, itemIndex } = call;
	const key = call.key ?? moneyKey(ctx, itemIndex, contract, call.once);
	const { baseUrl, account, where } = await runAccount(ctx, itemIndex);
	const sender = senderOf(ctx, baseUrl, account);
	const id = `${sender} ${key}`;
	const { method, path, body } = call.request;
	const asked = sentRequest(method, call.pays ?? path, body);
	const earlier = recallSentWrite(id) ?? sameRequest(sender, asked);
	if (!mayHaveBeenSent(ctx, itemIndex, contract, body, earlier)) return undefined;
	if (earlier?.first && !call.first) call.first = earlier.first;
	const request: ApiRequest = { ...call.request, itemIndex };
	const bound = { baseUrl, account, sentAt: earlier?.sentAt ?? new Date().toISOString() };
	call.sent = sealedSentWrite(ctx, call, request, bound, sealedSkew(baseUrl, knownSkew(baseUrl)));
	const reason = `the service refused it with ${code}, which this item's own earlier attempt (Retry On Fail, a re-run of the execution${earlier ? ', which this n8n process sent' : ' under the same Idempotency Key or External ID'}) may have caused by being carried out`;
	return withSentWrite(
		call,
		outcomeUnknownError(ctx.getNode(), contract, {
			reason,
			lines: [`Service errorCode: ${code}`, `Idempotency-Key: ${key}`],
			where,
			itemIndex,
		}),
	);
}

/** One money write, as its operation hands it over. */
export interface MoneyCall {
	/** The operation's money contract. */
	contract: MoneyContract;
	itemIndex: number;
	/** The request, without its Idempotency-Key (formed here). */
	request: Omit<ApiRequest, 'itemIndex' | 'repeat' | 'report'>;
	/** The record this write acts on once (accepting quote 0b6a…), for a `once` contract. */
	once?: OnceFor;
	/**
	 * What the write pays, when its path names something made for this one call (Pay QR Code
	 * accepts a quote it has just prepared): a key used again is compared by this instead of the
	 * path, so a retry of the same payment is the same request.
	 */
	pays?: string;
	/** The key, when the operation formed it before (Pay QR Code, before it prepares a quote). */
	key?: string;
	/**
	 * Filled in: whether this n8n process already sent this key for the same request (Retry On
	 * Fail of a write the service replays), so an older stored answer is this payment's own, and
	 * the clock skew the answer measured (clock.ts), null when none was measured.
	 */
	history?: { sentBefore: boolean; skewMs?: number | null };
	/** What the first send asked for, kept with the key (Pay QR Code's quote): see `firstSend`. */
	first?: IDataObject;
	/** Filled in once sent: the sealed sent write, for an unknown the operation finds afterwards. */
	sent?: IDataObject;
	/** Filled in: the other writes of the same request this process sent (see `alongside`). */
	alongside?: IDataObject[];
}

/**
 * The money write of one item. A write whose replay by key the document does not promise is sent
 * at most once per Idempotency-Key by this process: Retry On Fail gets the first answer back, or
 * OUTCOME_UNKNOWN again when the first answer was lost, and sends nothing. A key already used for
 * another payment is refused (IDEMPOTENCY_KEY_REUSED, not paid) before it is sent.
 */
export async function moneyWrite(ctx: IExecuteFunctions, call: MoneyCall): Promise<unknown> {
	const { contract, itemIndex } = call;
	const key = call.key ?? moneyKey(ctx, itemIndex, contract, call.once);
	const { baseUrl, account, where } = await runAccount(ctx, itemIndex);
	// One entry per key at one service for one sender (the company and environment: senderOf).
	const sender = senderOf(ctx, baseUrl, account);
	const id = `${sender} ${key}`;
	const request: ApiRequest = {
		...call.request,
		headers: { ...call.request.headers, 'Idempotency-Key': key },
		itemIndex,
		// The document promises replay by key (Accept Quote): sent again on a gateway's answer too.
		// Any other write is never sent again by the node (r1-money-resend F2), not even after a 429: the
		// document does not show that a 429 comes before the service acts.
		...(contract.replayByKey ? { repeat: 'replayed' as const } : {}),
	};
	const { method, path, body } = call.request;
	const asked = sentRequest(method, call.pays ?? path, body);
	let earlier = recallSentWrite(id);
	// The same key in flight in this process (parallel tool calls, two deliveries at once): wait
	// for its outcome and act on that, rather than send it a second time. Another request under
	// the key waits too (outside r25-money F3, t8): whether it is refused as another payment's
	// key or as one whose payment is undecided depends on how the first send ends.
	while (earlier?.state === 'sending') {
		await earlier.settled;
		earlier = recallSentWrite(id);
	}
	// Another request under a key whose send came out unknown (outside r25-money F3: Accept Quote
	// re-run with a new quote under the invoice's key after a lost answer): refused, unknown with
	// that send's sent write, never not_paid ("A refused re-send after a lost answer").
	if (earlier?.state === 'unknown' && earlier.request !== asked) {
		throw undecidedKeyError(ctx, call, key, earlier, where);
	}
	if (earlier && earlier.request !== asked) {
		const recordId = earlier.state === 'paid' ? answeredRecordId(earlier.answer) : undefined;
		const differences = requestDifferences(contract, earlier, asked, method, call);
		throw reusedError(ctx, call, key, recordId, differences);
	}
	// A named payment whose whole entry made room (r7-money-b F2): its trace answers, nothing is sent.
	const trace = earlier ? undefined : recallNamed(id);
	if (trace) {
		const same = trace.request === digestOf(asked);
		// PAID_BEFORE only for a record that still stands, read again now (outside r10-money F7).
		if (same && trace.outcome === 'paid' && trace.recordId !== undefined) {
			const again = await answerAgain(ctx, call, { id: trace.recordId }, trace.sentAt);
			if (again.kind === 'fallen') {
				throw fallenSince(ctx, call, request, { baseUrl, account, where }, trace.sentAt, again);
			}
			const paidBefore = tracedError(ctx, call, key, trace, same, where);
			paidBefore.message = `${paidBefore.message}. ${again.kind === 'stands' ? `Read again now: ${again.why}` : again.note}`;
			paidBefore.context.earlierAnswer = earlierMark(trace.sentAt, again);
			throw paidBefore;
		}
		const traced = tracedError(ctx, call, key, trace, same, where);
		// Every unknown of a money write carries its sent write (r9-money F6), naming the first send.
		if (outcomeFields(traced).paymentOutcome === 'unknown' && trace.sentAt !== undefined) {
			const bound = { baseUrl, account, sentAt: trace.sentAt };
			call.sent = sealedSentWrite(
				ctx,
				call,
				request,
				bound,
				sealedSkew(baseUrl, knownSkew(baseUrl)),
			);
			keepSent(ctx, itemIndex, call.sent);
			sealNamed(id, call.sent.seal);
		}
		throw withSentWrite(call, traced);
	}
	// No entry under this key for this sender, but one for this credential's earlier API key
	// (changed by hand): the same company would pay twice, another must not be answered with the
	// first one's record, so nothing is sent and nothing is claimed.
	if (!earlier && earlierSenderOfKey(ctx, baseUrl, sender, key)) {
		throw keyChangedError(ctx, itemIndex, key, where);
	}
	// This node run wrote (or re-tried) now: its writes are held while it may be run again.
	const run = runOf(ctx, itemIndex);
	touchRun(run);
	if (call.history) call.history.sentBefore = earlier !== undefined;
	// A key this process saw paid is never sent again, even where the document promises replay by
	// key (r1-money-resend F1): Retry On Fail gets this item's answer back, and a service that kept no
	// replay cannot answer a spent quote with QUOTE_NOT_FOUND as if nothing was paid.
	if (earlier?.state === 'paid') {
		// Another run (a re-run, a new execution) is answered with the record as it is now, or
		// marked as the earlier answer it is (outside r10-money F7); Retry On Fail of this run gets
		// the answer it just had.
		if (earlier.run === run) return earlier.answer;
		const again = await answerAgain(ctx, call, earlier.answer, earlier.sentAt);
		if (again.kind !== 'fallen') return again.answer;
		throw fallenSince(ctx, call, request, { baseUrl, account, where }, earlier.sentAt, again);
	}
	const resent =
		!released.has(id) &&
		mayHaveBeenSent(ctx, itemIndex, contract, request.body, earlier ?? sameRequest(sender, asked));
	// A re-send is judged by every refusal its own earlier attempt can cause (r5-money F2): the
	// operation's own (resentRefusals), a balance refusal, and one saying something is taken.
	const judged: MoneyContract = resent
		? {
				...contract,
				ownRefusals: [...(contract.ownRefusals ?? []), ...(contract.resentRefusals ?? [])],
				mayBeResent: true,
			}
		: contract;
	// The other writes of the same request under the same identity (r5-money F7).
	const carries = contract.identity ? request.body?.[contract.identity.field] : undefined;
	if (typeof carries === 'string' && carries !== '') call.alongside = alongside(sender, asked, id);
	// A re-send names the first send's time: a record its first send made is this write's.
	const sentAt = earlier?.sentAt ?? new Date().toISOString();
	const bound = { baseUrl, account, sentAt };
	call.sent = sealedSentWrite(ctx, call, request, bound, sealedSkew(baseUrl, knownSkew(baseUrl)));
	keepSent(ctx, itemIndex, call.sent);
	if (!contract.replayByKey && earlier) {
		throw withSentWrite(
			call,
			outcomeUnknownError(ctx.getNode(), contract, {
				reason:
					'this n8n process already sent it once under the same Idempotency-Key and its outcome came out unknown (no readable answer, or one that did not show it was carried out), and the interface document does not promise that the service recognises a repeated key for this call, so the node did not send it again',
				lines: [`Idempotency-Key: ${key}`],
				where,
				itemIndex,
			}),
		);
	}
	// A new key is sent only where the memory has room for it without forgetting a write that
	// may be sent again (outside r6-money-b F1); no await from here until it is kept.
	const named = keyNamesPayment(ctx, itemIndex);
	if (!earlier && named && namedHeld.size + namedCount() >= namedCap()) {
		throw memoryFullError(ctx, itemIndex, key, true);
	}
	if (!earlier && !makeRoom()) throw memoryFullError(ctx, itemIndex, key);
	const report: Report = { attempts: [] };
	// The records' own clock (clock.ts observeCreated, outside r7-money-a F4): any record's
	// createdAt against when this process sent it. Even a "fresh" key may be answered with a record
	// made earlier (r8-money F1: a replay, a payout held for its External ID), which measures too
	// low, so every such measure only raises the Date's skew (sealedSkew), never lowers it.
	const sentLocal = Date.now();
	const fresh = !earlier && !keyNamesPayment(ctx, itemIndex);
	const sending = sendOnce(ctx, judged, request, report)
		.then((answer) => {
			// Only from a fresh answer the service dated (no cache's copy, no answer without a Date).
			const last = report.attempts[report.attempts.length - 1];
			const dated = last !== undefined && 'status' in last && datedAnswer(last.headers);
			const made = isRecord(answer) ? boundTime((answer as IDataObject).createdAt) : NaN;
			if (dated && typeof made === 'number') observeCreated(baseUrl, made, sentLocal, fresh);
			return answer;
		})
		.finally(() => {
			// The skew this write's own answer shows (a gateway's page carries a Date too), kept with
			// every other this process measured: the largest high bound of them all (r14-money F1),
			// so neither a slow answer (r13-money F1) nor one dated behind (another backend, a
			// cache's stale copy) places the write earlier than this process measured it.
			observeReport(baseUrl, report);
			const skew = knownSkew(baseUrl);
			if (call.history) call.history.skewMs = skew;
			call.sent = sealedSentWrite(ctx, call, request, bound, sealedSkew(baseUrl, skew));
			keepSent(ctx, itemIndex, call.sent);
			if (contract.identity) noteWrite(call.sent as unknown as SentWrite);
		})
		.then((answer) => {
			// A record that proves another write, or was made before this one, is no proof of it.
			const other = isRecord(answer)
				? answerProvesOther(ctx, call, answer as IDataObject, where, { baseUrl, sentLocal })
				: undefined;
			if (other) throw other;
			return answer;
		});
	// The first send's record (Pay QR Code's quote A) stays with the key on every later try until
	// the payment is decided (r4-money-resend F2): a re-send whose answer is lost again keeps it.
	const first = call.first ?? earlier?.first;
	const namedAt = named ? (earlier?.namedAt ?? Date.now()) : undefined;
	// A key an item without an execution ID keeps (paid among them) is held as long as it is kept.
	const keyedAt = earlier?.keyedAt ?? unexecutedSince(key);
	const kept = {
		request: asked,
		subject: `${method} ${call.pays ?? path}`,
		sentAt,
		run,
		...(namedAt !== undefined ? { namedAt } : {}),
		...(keyedAt !== undefined ? { keyedAt } : {}),
		...(first ? { first } : {}),
	};
	// This key's earlier send in this process came out unknown: whatever refuses this re-send
	// (the service's 429, INSUFFICIENT_BALANCE because the first send reserved the funds) says
	// nothing about that one (r4-money-resend F1).
	const unknownBefore = earlier?.state === 'unknown';
	// Registered first, so the store is up to date before anyone sees the answer or error.
	const settled = sending.then(
		(answer) => {
			released.delete(id);
			// Its seal too: an operation that judges the answer unknown afterwards (a card request
			// that failed, another payment's details) turns the entry unknown by it (judgedUnknown).
			// The record this write made (its contract's `made`) is this write's proof (outside
			// r7-money-a F6, r15-money F4-F7): no other write is given it, by Resolve Outcome or by
			// a direct answer.
			const made = madeRecord(contract, answer);
			rememberSentWrite(id, {
				...kept,
				state: 'paid',
				answer,
				...(made ? { made } : {}),
				seal: call.sent?.seal,
				...(call.sent ? { sentWrite: call.sent } : {}),
			});
			if (made && call.sent) claim(call.sent as unknown as SentWrite, made);
			// A paid item keeps its key (outside r21-money F1): Retry On Fail of every item of the run
			// gives this one its first answer back instead of a new key and a second payment.
		},
		(error: unknown) => {
			// A not_paid never erases an earlier unknown of the same key.
			if (outcomeFields(error).paymentOutcome === 'not_paid' && !unknownBefore) {
				settleUnexecuted(key);
				return forgetSentWrite(id);
			}
			released.delete(id);
			const seals = earlier?.state === 'unknown' ? [...(earlier.seals ?? []), earlier.seal] : [];
			rememberSentWrite(id, {
				...kept,
				state: 'unknown',
				seal: call.sent?.seal,
				seals,
				...(call.sent ? { sentWrite: call.sent } : {}),
			});
		},
	);
	rememberSentWrite(id, { ...kept, state: 'sending', settled });
	if (namedAt !== undefined) namedHeld.add(id);
	return await sending.catch((error: unknown) => {
		const judgedOver = unknownBefore ? refusedAfterUnknown(ctx, call, error, key, where) : error;
		throw withSentWrite(call, judgedOver);
	});
}

/**
 * A money write answered by this process before anything was sent: the error's code, message and
 * advice (MONEY_ACTIONS), the outcome it proves, and any lines between.
 */
function unsentError(
	ctx: IExecuteFunctions,
	code: string,
	message: string,
	itemIndex: number,
	outcome: PaymentOutcome,
	lines: string[] = [],
): NodeApiError {
	const error = new NodeApiError(ctx.getNode(), { errorCode: code } as JsonObject, {
		message,
		description: [
			'Nothing was sent to the service.',
			...lines,
			`What to do: ${MONEY_ACTIONS[code]}`,
		].join(LINE_BREAK),
		itemIndex,
	});
	error.context.moneyErrorCode = code;
	return markOutcome(error, outcome);
}

/**
 * The refusal of a write whose Idempotency Key this n8n credential sent in this process with an
 * earlier API key, since changed by hand (earlierSenderOfKey): unknown, since whether this company
 * already paid it is not known here. Names the key, never the API key.
 */
function keyChangedError(
	ctx: IExecuteFunctions,
	itemIndex: number,
	key: string,
	where: string,
): NodeApiError {
	return unsentError(
		ctx,
		CREDENTIAL_KEY_CHANGED,
		// The value before the field's name: a token-like text after the word "key" is masked.
		`${CREDENTIAL_KEY_CHANGED}: "${key}", this payment's Idempotency Key, was sent by this n8n credential in this n8n process with its earlier API key, and its API key has changed since (not through Regenerate API Key), so it is not known whether this company already paid it: it was not sent again`,
		itemIndex,
		'unknown',
		[`Environment: ${where}`, `"${key}": the Idempotency Key sent before`],
	);
}

/**
 * The refusal of a new money write when every write the memory keeps is still held, or (`named`)
 * when it keeps the traces of as many named payments as it may (MAX_NAMED).
 */
function memoryFullError(
	ctx: IExecuteFunctions,
	itemIndex: number,
	key: string,
	named = false,
): NodeApiError {
	const message = named
		? `${SENT_WRITES_FULL}: this n8n process already keeps ${namedCap()} payments named by an Idempotency Key you set or a payment reference, for its life, and forgetting one could pay it twice, so this one was not sent`
		: `${SENT_WRITES_FULL}: this n8n process already keeps ${limits.maxKept} money writes that may still be sent again (by Retry On Fail, or under a key or payment reference that names a payment), and forgetting one could pay it twice, so this one was not sent`;
	return unsentError(ctx, SENT_WRITES_FULL, message, itemIndex, 'not_paid', [
		`Idempotency-Key: ${key}`,
	]);
}

/** The refusal of a key this process already used for another payment (not paid, nothing sent). */
function reusedError(
	ctx: IExecuteFunctions,
	call: MoneyCall,
	key: string,
	recordId: string | undefined,
	differences: Difference[],
): NodeApiError {
	const reused = unsentError(
		ctx,
		IDEMPOTENCY_KEY_REUSED,
		`${IDEMPOTENCY_KEY_REUSED}: the Idempotency-Key "${key}" was already used in this n8n process for another payment with other details, and the service would answer with that one instead of making this one`,
		call.itemIndex,
		'not_paid',
	);
	// Which payment holds the key (r6-money-b F2): the failed item names it, and a tool call
	// answers PAYMENT_REFERENCE_CONFLICT naming it (tool/route.ts, reusedReference).
	if (recordId !== undefined) reused.context.existingPaymentId = recordId;
	reused.context.reusedSubject = `${call.request.method} ${call.pays ?? call.request.path}`;
	reused.context.reusedDifferences = differences;
	return reused;
}

/**
 * The refusal of another request under a key whose earlier send in this process came out unknown
 * and is not resolved (outside r25-money F3). Nothing is sent: the service would answer it with
 * the earlier payment or refuse it, and neither says whether the earlier one was carried out. It
 * is unknown, carrying the earlier send's sent write (its seal: Resolve Outcome on this item
 * looks that payment up, and its not_paid releases the key), never not_paid: a new key would pay
 * the same invoice again if the earlier send was carried out.
 */
function undecidedKeyError(
	ctx: IExecuteFunctions,
	call: MoneyCall,
	key: string,
	earlier: { sentAt?: string; subject?: string; sentWrite?: IDataObject },
	where: string,
): NodeApiError {
	const sentAt = earlier.sentAt ? ` (sent at ${earlier.sentAt})` : '';
	const subject = earlier.subject ? `, ${earlier.subject}` : '';
	const lines = [
		`Idempotency-Key: ${key}`,
		`The earlier send under this key${sentAt}${subject}: outcome unknown`,
		`This request: ${call.request.method} ${call.pays ?? call.request.path} (not sent)`,
		earlier.sentWrite
			? 'Resolve it first: run Payment > Resolve Outcome on this item (its sentWrite is the earlier send) or on the item of that send; pay again, under any key, only once it answers not_paid'
			: 'Resolve it first: run Payment > Resolve Outcome on the item of that earlier send (this process no longer keeps its sent write); pay again, under any key, only once it answers not_paid',
	];
	const error = outcomeUnknownError(ctx.getNode(), call.contract, {
		reason: `this n8n process already sent another payment under the same Idempotency-Key${sentAt} and that send's outcome is still undecided (unknown), so this one was not sent: the service would answer it with that payment or refuse it, and neither shows whether that one was carried out. Resolve the earlier send before paying again: under a new key this payment would be made a second time if the earlier one was carried out`,
		lines,
		where,
		itemIndex: call.itemIndex,
	});
	if (earlier.sentWrite) {
		call.sent = earlier.sentWrite;
		keepSent(ctx, call.itemIndex, call.sent);
		return withSentWrite(call, error) as NodeApiError;
	}
	return error;
}

/** What a payment made in an earlier run shows when it is answered again without sending. */
type AnsweredAgain =
	| { kind: 'stands'; answer: unknown; why: string; readAt: string }
	| { kind: 'unread'; answer: unknown; note: string }
	| { kind: 'fallen'; record: IDataObject; why: string; readAt: string };

/** The mark an earlier answer carries (`earlierAnswer` in the item): when, and whether read again. */
function earlierMark(sentAt: string | undefined, again: AnsweredAgain): IDataObject {
	return {
		sentAt: sentAt ?? null,
		readAgainAt: again.kind === 'unread' ? null : again.readAt,
		note:
			again.kind === 'unread'
				? again.note
				: `This n8n process made this payment in an earlier run${sentAt ? ` (sent at ${sentAt})` : ''} and did not send it again; the record was read again at ${again.readAt} and is shown as it is now: ${again.why}`,
	};
}

/**
 * A payment this process made in an earlier run, answered again without sending anything (a re-run,
 * a new execution under the same key: outside r10-money F7). The answer kept then is no longer
 * current (a payout since failed and refunded), so where the write's answer is its record (it has
 * its own ID) and the contract reads a record by ID (a GET, safe), the record is read now and
 * judged by Resolve Outcome's own table (the contract's resolve.state): it stands, and is handed
 * back as it is now, marked `earlierAnswer`; or it does not (`fallen`: the caller answers unknown
 * with the first send's sent write). Where it cannot be read, the answer kept is handed back
 * marked as an earlier answer that was not read again.
 */
async function answerAgain(
	ctx: IExecuteFunctions,
	call: MoneyCall,
	answer: unknown,
	sentAt: string | undefined,
): Promise<AnsweredAgain> {
	const { contract, itemIndex } = call;
	const mark = (note: string): AnsweredAgain => {
		const unread: AnsweredAgain = { kind: 'unread', answer, note };
		return isRecord(answer)
			? {
					...unread,
					answer: { ...(answer as IDataObject), earlierAnswer: earlierMark(sentAt, unread) },
				}
			: unread;
	};
	const id = isRecord(answer) ? (answer as IDataObject).id : undefined;
	const earlierWords = `This is the answer this n8n process got when it made this payment in an earlier run${sentAt ? ` (sent at ${sentAt})` : ''}; nothing was sent again`;
	if ((typeof id !== 'string' && typeof id !== 'number') || !contract.read || !contract.resolve) {
		return mark(
			`${earlierWords}, and it was not read again: its status may have changed since. Read the record for its current state.`,
		);
	}
	let read: unknown;
	try {
		read = await contract.read(ctx, itemIndex, answer as IDataObject);
	} catch (error) {
		// No such record for this credential's key: not this sender's payment as it stands now.
		if (String((error as { httpCode?: unknown }).httpCode) === '404') {
			const why = `reading payout ${String(id)} again answered 404: the service shows no such record to this credential now`;
			return { kind: 'fallen', record: { id }, why, readAt: new Date().toISOString() };
		}
		return mark(
			`${earlierWords}. Reading it again failed (${(error as Error).message}), so its status may have changed since. Read the record for its current state.`,
		);
	}
	const readAt = new Date().toISOString();
	// The record read is judged on its own (outside r11-money F2, F3): never merged with the answer
	// kept, whose status would then be shown as current; another record's ID is not this payment.
	const judged = recordReadAgain(id, read);
	if ('why' in judged) return { kind: 'fallen', record: { id }, why: judged.why, readAt };
	const record = judged.record;
	const time = { sentAt: sentAt ? Date.parse(sentAt) : Date.now(), skewMs: null };
	const settled = contract.resolve.state(record, time);
	if (settled.outcome !== 'paid') return { kind: 'fallen', record, why: settled.why, readAt };
	const stands: AnsweredAgain = { kind: 'stands', answer: record, why: settled.why, readAt };
	return { ...stands, answer: { ...record, earlierAnswer: earlierMark(sentAt, stands) } };
}

/**
 * The answer to a payment made in an earlier run whose record, read again now, no longer shows it
 * made (a payout since failed, refunded or not): unknown, with the sent write of its first send,
 * so Resolve Outcome can tell; never the remembered record as if current, never PAID_BEFORE.
 */
function fallenSince(
	ctx: IExecuteFunctions,
	call: MoneyCall,
	request: ApiRequest,
	at: { baseUrl: string; account: string; where: string },
	sentAt: string | undefined,
	again: Extract<AnsweredAgain, { kind: 'fallen' }>,
): unknown {
	const bound = {
		baseUrl: at.baseUrl,
		account: at.account,
		sentAt: sentAt ?? new Date().toISOString(),
	};
	call.sent = sealedSentWrite(
		ctx,
		call,
		request,
		bound,
		sealedSkew(at.baseUrl, knownSkew(at.baseUrl)),
	);
	keepSent(ctx, call.itemIndex, call.sent);
	const error = outcomeUnknownError(ctx.getNode(), call.contract, {
		reason: `this n8n process made it in an earlier run${sentAt ? ` (sent at ${sentAt})` : ''} and did not send it again, but its record, read again now, no longer shows it made: ${again.why}`,
		lines: [
			`Record ${String(again.record.id)}: status ${String(again.record.status ?? 'not shown')}`,
		],
		where: at.where,
		itemIndex: call.itemIndex,
	});
	error.context.earlierAnswer = {
		sentAt: sentAt ?? null,
		readAgainAt: again.readAt,
		status: again.record.status ?? null,
		...('failReason' in again.record ? { failReason: again.record.failReason } : {}),
		...('refundedAt' in again.record ? { refundedAt: again.record.refundedAt } : {}),
	};
	return withSentWrite(call, error);
}

/**
 * The answer of a write under a named key whose payment this process keeps as a trace only
 * (named.ts): another request is refused as IDEMPOTENCY_KEY_REUSED; the same one is PAID_BEFORE
 * (paid, naming its record) or unknown as it was. Nothing is sent.
 */
function tracedError(
	ctx: IExecuteFunctions,
	call: MoneyCall,
	key: string,
	trace: NamedTrace,
	same: boolean,
	where: string,
): NodeApiError {
	if (!same && trace.outcome === 'unknown') {
		// The trace keeps no sent write (it stays small): the first send's item carries it.
		return undecidedKeyError(ctx, call, key, { sentAt: trace.sentAt }, where);
	}
	if (!same) return reusedError(ctx, call, key, trace.recordId, []);
	if (trace.outcome === 'unknown') {
		return outcomeUnknownError(ctx.getNode(), call.contract, {
			reason:
				'this n8n process already sent it under the same Idempotency-Key and its outcome came out unknown (no readable answer, or one that did not show it was carried out), so the node did not send it again (Resolve Outcome on this item or the item of that first send tells whether it was paid)',
			lines: [`Idempotency-Key: ${key}`],
			where,
			itemIndex: call.itemIndex,
		});
	}
	const record = trace.recordId === undefined ? '' : ` (record ${trace.recordId})`;
	const error = unsentError(
		ctx,
		PAID_BEFORE,
		`${PAID_BEFORE}: this n8n process already paid this payment under the Idempotency-Key "${key}"${record}, so it was not sent again`,
		call.itemIndex,
		'paid',
	);
	if (trace.recordId !== undefined) error.context.existingPaymentId = trace.recordId;
	return error;
}

/**
 * A re-send's refusal judged over every attempt of the item this process knows of (r4-money-resend
 * F1): its earlier send under the same key came out unknown, so a refusal of this one (not paid,
 * as an answer to this request alone) is unknown. No refusal the document shows proves that the
 * earlier send moved nothing (docs/assumptions.md, "A refused re-send after a lost answer").
 */
function refusedAfterUnknown(
	ctx: IExecuteFunctions,
	call: MoneyCall,
	error: unknown,
	key: string,
	where: string,
): unknown {
	if (outcomeFields(error).paymentOutcome !== 'not_paid') return error;
	const context = (error as { context?: IDataObject }).context;
	const info = context?.serviceError as IDataObject | undefined;
	const code = typeof info?.errorCode === 'string' ? info.errorCode : undefined;
	const answered = `${(error as Error).message}`;
	const reason = `this n8n process sent it before under the same Idempotency-Key and that answer was lost, and this re-send was refused (${code ?? answered}), which is about the re-send and does not say whether the earlier send was carried out (a 429, or a refusal the earlier send causes, such as INSUFFICIENT_BALANCE once it reserved the funds)`;
	return outcomeUnknownError(ctx.getNode(), call.contract, {
		reason,
		lines: [
			...(code ? [`Service errorCode: ${code}`] : []),
			`Service answer: ${answered}`,
			`Idempotency-Key: ${key}`,
		],
		info: info && typeof info.httpCode === 'number' ? (info as ServiceErrorInfo) : undefined,
		where,
		itemIndex: call.itemIndex,
	});
}

/**
 * The sent write of a money write: what Resolve Outcome needs to find the payment again and to
 * know a record for this write's (binding.ts): the operation, when it was sent, the identity it
 * carries (its External ID), the details it asked (a card or phone number as the output gate
 * shows it, its last four digits), the company fingerprint, the measured clock skew, and the
 * seal over all of them under a key derived from the credential.
 */
function sealedSentWrite(
	ctx: IExecuteFunctions,
	call: MoneyCall,
	request: ApiRequest,
	bound: { baseUrl: string; account: string; sentAt: string },
	skewMs: number | null,
): IDataObject {
	const { contract, itemIndex } = call;
	const details: IDataObject = {};
	for (const detail of contract.details) {
		const asked = detail.asked(ctx, itemIndex, call.first ?? {});
		if (asked === undefined || asked === null) continue;
		const shown = detail.kind === 'requisite' && detail.show ? detail.show(asked) : asked;
		details[detail.name] = shown as IDataObject[string];
	}
	const carried = contract.identity ? request.body?.[contract.identity.field] : undefined;
	const resource = String(ctx.getNodeParameter('resource', itemIndex, ''));
	const operation = String(ctx.getNodeParameter('operation', itemIndex, ''));
	const sent: IDataObject = {
		operation: `${resource}.${operation}`,
		sentAt: bound.sentAt,
		identity: typeof carried === 'string' ? carried : null,
		// A tool's identity is its canonical payment reference, an External ID the user set is as
		// given: each is found only exactly as sent (resolve.ts SentWrite.identityAs names which).
		...(typeof carried === 'string' && runsAsAgentTool(ctx) ? { identityAs: 'reference' } : {}),
		details,
		company: companyFingerprint(bound.account, bound.baseUrl),
		skewMs,
		clock: PROCESS_CLOCK,
	};
	// The whole recipient's number as a keyed digest, never reversible (sentEvidence.ts).
	const digests = sentDigests(bound.account, contract, (d) =>
		d.asked(ctx, itemIndex, call.first ?? {}),
	);
	if (digests) sent.digests = digests;
	if (call.alongside && call.alongside.length > 0) sent.alongside = call.alongside;
	sent.seal = sealOf(bound.account, sent);
	return sent;
}

/**
 * An error whose outcome is unknown, with the write's sealed sent write (`sentWrite` in the
 * failed item). Any other error is returned as it is. Operations that find an unknown outcome
 * after the write returned (a cancel answered "not yet") call it with their call.
 */
export function withSentWrite(call: MoneyCall, error: unknown): unknown {
	if (outcomeFields(error).paymentOutcome !== 'unknown' || !call.sent) return error;
	(error as { context: IDataObject }).context.sentWrite = call.sent;
	judgedUnknown(call.sent);
	return error;
}

/**
 * A write whose answer came back but was judged unknown after it (outside r9-money F5: Card
 * Request answered "request failed", Payout Create answered with another payment's details): its
 * entry is kept unknown, not paid, so a repeat under its key (Retry On Fail, or its trace once the
 * entry left the memory) is unknown too and never PAID_BEFORE; the record it answered with is no
 * longer this write's proof.
 */
function judgedUnknown(sentWrite: IDataObject): void {
	const seal = sentWrite.seal;
	if (seal === undefined) return;
	for (const [id, entry] of sent) {
		if (entry.state !== 'paid' || entry.seal !== seal) continue;
		if (entry.made) unclaim(sentWrite as unknown as SentWrite, entry.made);
		// The answer is dropped: an unknown entry keeps what was asked and its seal only.
		const unknown: SentState = { ...entry, state: 'unknown', seals: [] };
		delete (unknown as { answer?: unknown }).answer;
		sent.set(id, unknown);
	}
}

/**
 * A write whose answer came back but was judged not paid after it (outside r11-money F4: a Payout
 * Cancel answered with the payout in_progress, the cancel did not act): its entry is forgotten as
 * a refusal's is, so a re-run is judged again as a new send, never kept as paid and then said
 * "made in an earlier run".
 */
export function judgedNotPaid(call: MoneyCall): void {
	const seal = call.sent?.seal;
	if (seal === undefined) return;
	for (const [id, entry] of sent) {
		if (entry.state !== 'paid' || entry.seal !== seal) continue;
		if (entry.made && call.sent) unclaim(call.sent as unknown as SentWrite, entry.made);
		forgetSentWrite(id);
	}
}

/**
 * The record a 2xx answer shows this write made (its contract's `made`), or acted on (`acted`: a
 * payout a cancel cancelled), with the fields whose times bind it to this write: `createdAt` of a
 * record made, the fields the act set of one acted on. Undefined for a write whose answer shows
 * neither.
 */
function boundRecord(
	contract: MoneyContract,
	answer: unknown,
): { record: IDataObject; at: readonly string[] } | undefined {
	if (!isRecord(answer)) return undefined;
	const made = contract.made?.(answer as IDataObject);
	if (isRecord(made)) return { record: made as IDataObject, at: ['createdAt'] };
	const acted = contract.acted?.(answer as IDataObject);
	return acted && isRecord(acted.record) ? acted : undefined;
}

/**
 * The record a 2xx answer shows this write made or acted on (boundRecord), as its contract
 * declares it: the record one write's proof. Undefined for a write whose answer shows none.
 */
function madeRecord(contract: MoneyContract, answer: unknown): IDataObject | undefined {
	return boundRecord(contract, answer)?.record;
}

/**
 * Whether a record made before this send is still this payment's own answer: the document
 * promises replay by key (Accept Quote, Pay QR Code: "a repeated request with the same key ...
 * returns the stored response") and the key is this very request's: Accept Quote's key derived
 * from the one quote it accepts, or a tool's payment reference (the tool's text says a stored
 * order that matches is the payment: the order names no QR code). Its details still decide
 * (replay.ts checkReplayedOrder). Not an Idempotency Key set on the node (r15-money F5): a run in
 * another process prepares a new quote, which is not the request the first run sent, and the
 * stored order may be another payment the key was given to, so an order made before the send is
 * unknown there, as the field's hint says (look the order up). Nor a key derived for this
 * execution's item (Pay QR Code without a key): never sent before this process sent it, so a
 * record made before that is no answer to it (r15-money F7).
 */
function storedAnswerIsOwn(ctx: IExecuteFunctions, call: MoneyCall): boolean {
	if (!call.contract.replayByKey) return false;
	if (runsAsAgentTool(ctx)) return true;
	return call.once !== undefined && !keyNamesPayment(ctx, call.itemIndex);
}

/**
 * The one rule that binds a money write to the record its 2xx answer shows it made or acted on
 * (issue 49.1; every contract that declares `made`: Payout Create, Card Request's request, Card
 * Recharge, the order of Accept Quote and Pay QR Code; or `acted`: Payout Cancel's payout), as
 * Resolve Outcome binds a record it finds. Unknown, naming the record, when it does not prove this
 * write:
 * - one record, one write (r14-money F2, r15-money F4-F7): a record this n8n process already gave
 *   as the outcome of another write (the item before it in this run, an earlier run: proofs.ts
 *   `takenBy`, by Base URL, operation and record ID; or a write named `alongside`) is that
 *   write's; the service answers a repeated External ID or key with the record it holds, so this
 *   payment may not have been made;
 * - made (or acted) by this write (r14-money F3, r15-money F1, r16-money F1): a record whose
 *   `createdAt` (a cancel's refundedAt or completedAt) is earlier than the write was sent, by the
 *   sealed skew and SKEW_MARGIN_MS, or without a Date header by UNDATED_PREDATES_MS on n8n's own
 *   clock (binding.ts earliestBound), was made before it; not where the stored answer is this
 *   payment's own (`storedAnswerIsOwn`);
 * - a time that can be read (r16-money F2): the one reading of binding.ts timesAgainst, as Resolve
 *   Outcome reads it: a time without its offset (any zone, ±14 h), none, or one that is no time
 *   cannot show that the record was made after the send, so it proves nothing (one record shown
 *   without a createdAt where the document shows none stands: `madeUndatedStands`).
 */
function answerProvesOther(
	ctx: IExecuteFunctions,
	call: MoneyCall,
	answer: IDataObject,
	where: string,
	since: AnswerClock,
): NodeApiError | undefined {
	const { contract, itemIndex } = call;
	if (!call.sent) return undefined;
	const bound = boundRecord(contract, answer);
	// The record this write made, absent from its answer (outside r18-money F1: Card Request
	// answered with a card and no `request`; the document shows the request in every 200): the
	// answer is judged by that record, so without it nothing binds the answer to this write. A
	// write that acts on a record (Payout Cancel) is judged by its state where the act is not shown.
	if (!bound) {
		if (!contract.made) return undefined;
		return outcomeUnknownError(ctx.getNode(), contract, {
			reason: `the service answered without the record this write made (the one its answer is judged by), so nothing binds the answer to this write: it does not show that this write was made, nor that it was not`,
			lines: [`Answer: ${JSON.stringify(answer).slice(0, 200)}`],
			where,
			itemIndex,
		});
	}
	// The other records it shows as this write's, tied to the made record (r19-money F1): a tie
	// shown on both ends with another value shows a record that is not this write's.
	const sentBody = isRecord(call.request.body) ? (call.request.body as IDataObject) : undefined;
	const broken = brokenTies(contract.ties?.(answer, sentBody) ?? []);
	if (broken.length > 0) {
		const what = broken
			.map(
				(tie) =>
					`${tie.name} ${JSON.stringify(tie.shown)}, ${tie.boundBy} ${JSON.stringify(tie.bound)}${tie.notAnId ? ` (${tie.notAnId})` : ''}`,
			)
			.join('; ');
		return outcomeUnknownError(ctx.getNode(), contract, {
			reason: `the service answered with records that are not tied to each other (${what}): a record the answer shows as this write's is another's, so the answer does not show that this write was made, nor that it was not`,
			lines: broken.map(
				(tie) =>
					`${tie.name}: ${JSON.stringify(tie.shown)} (${tie.boundBy}: ${JSON.stringify(tie.bound)})${tie.notAnId ? `, ${tie.notAnId}` : ''}`,
			),
			where,
			itemIndex,
		});
	}
	const { record } = bound;
	const sent = call.sent as unknown as SentWrite;
	// An ID that is no ID (outside r19-money t2: `{"id": 12.5}`, true, an object, empty text) binds
	// the answer to no write (recordId.ts): the service acted or not, which the node cannot tell.
	const idRead = readRecordId(record);
	if (idRead.kind === 'notAnId') {
		return outcomeUnknownError(ctx.getNode(), contract, {
			reason: `the service answered with a record whose id is ${idRead.shown}, ${idRead.why}: not an ID the interface document gives the record (a text), so it does not bind the answer to this write, and does not show that this write was made, nor that it was not`,
			lines: [`Record id: ${idRead.shown} (${idRead.why})`],
			where,
			itemIndex,
		});
	}
	const recordId = idRead.kind === 'id' ? idRead.id : undefined;
	// One record proves one write (outside r18-money F1, F2): a record that shows no `id` cannot be
	// claimed once, so it proves none, except where the document does not show the record's fields
	// (Card Recharge: `madeUndatedStands`, bound by its time, or by its details and status alone, a
	// named window). There a record with neither an id nor a state shows no recharge at all (a
	// quote's shape: r18-money F3).
	const stands =
		contract.madeUndatedStands === true &&
		(recordId !== undefined || contract.answerState?.(answer) !== undefined);
	if (recordId === undefined && !stands) {
		return outcomeUnknownError(ctx.getNode(), contract, {
			reason: contract.madeUndatedStands
				? `the service answered with a record that shows neither its ID nor its status (${JSON.stringify(answer).slice(0, 200)}), so it does not show that this write was carried out, nor that it was not`
				: `the service answered with a record that shows no ID: one record proves one write, and a record without its ID cannot be claimed by one write only (the same answer may be given to another), so it proves none: it does not show that this write was made, nor that it was not`,
			lines: ['Record: a record without its ID'],
			where,
			itemIndex,
		});
	}
	const by = provedOther(sent, record, call.alongside);
	const sameRequest = contract.identity ? ' with the same External ID and details' : '';
	if (recordId !== undefined && by !== undefined) {
		return outcomeUnknownError(ctx.getNode(), contract, {
			reason: `the service answered with ${recordId}, the record it already answered to another write of this n8n process${sameRequest} (sent at ${by}): one record proves one write, so it is that write's, and this one may not have been made (the service answers a repeated ${contract.identity ? 'External ID' : 'request'} with the record it holds)`,
			lines: [`Record: ${recordId}`, `The other write was sent at: ${by}`],
			where,
			itemIndex,
		});
	}
	const later = answerDatedLater(ctx, call, record, bound.at, where, since);
	if (later) return later;
	if (storedAnswerIsOwn(ctx, call)) return undefined;
	const sentAt = Date.parse(sent.sentAt);
	const reading = timesAgainst(
		bound.at.map((field) => record[field]),
		earliestBound({ sentAt, skewMs: sent.skewMs }),
	);
	if (reading === 'after' || reading === 'future') return undefined;
	if (reading === 'not_shown' && contract.madeUndatedStands && contract.made) return undefined;
	const named = recordId ?? 'a record without its ID';
	const times = bound.at.map((field) => `${field} ${JSON.stringify(record[field] ?? null)}`);
	const what = contract.made ? 'created' : 'acted on';
	if (reading !== 'before') {
		const unread =
			reading === 'no_offset'
				? `written without its offset: it may be in any time zone, up to 14 hours either way, so it cannot show that the record was ${what} after this write was sent (${sent.sentAt}); one hours older would read the same`
				: reading === 'unreadable'
					? `not a time the node can read (ISO 8601 with Z or an offset), so it cannot show that the record was ${what} after this write was sent (${sent.sentAt})`
					: `not shown, so nothing shows that the record was ${what} after this write was sent (${sent.sentAt}): the service may have answered with one it already held`;
		return outcomeUnknownError(ctx.getNode(), contract, {
			reason: `the service answered with ${named}, whose time (${times.join(', ')}) is ${unread}. A time that cannot be bound is no proof that this write was made, nor that it was not`,
			lines: [`Record: ${named}`, ...times.map((t) => `Its ${t}`), `Sent at: ${sent.sentAt}`],
			where,
			itemIndex,
		});
	}
	const allowing =
		sent.skewMs === null
			? `by n8n's own clock with a ${UNDATED_PREDATES_MS / 60_000} min margin, as no answer carried a Date header to measure the service's clock`
			: marginWords(sent.skewMs);
	const other = contract.made
		? contract.identity
			? 'another payment under the same External ID'
			: 'an earlier payment the service answered with (under a key used before, or a record it holds)'
		: 'the doing of an earlier write (another run, a person in the cabinet, or this item’s own earlier attempt)';
	return outcomeUnknownError(ctx.getNode(), contract, {
		reason: `the service answered with ${named}, ${what} at ${times.join(', ')}: ${what} before this write was sent as far as the measured clocks tell (${sent.sentAt}, allowing ${allowing}): it may be ${other}, or this one if the clocks were measured wide, so it does not prove this one was made, nor that it was not`,
		lines: [`Record: ${named}`, ...times.map((t) => `Its ${t}`), `Sent at: ${sent.sentAt}`],
		where,
		itemIndex,
	});
}

/** Where and when a write was sent, by this machine's clock: what reads the service's clock at its answer. */
interface AnswerClock {
	baseUrl: string;
	sentLocal: number;
}

/**
 * A money write's own answer dated later than the service's clock at the answer (r17-money F1),
 * by the rule Resolve Outcome reads a record it finds (binding.ts datedLater): a service that
 * writes its local time labelled UTC, or a clock of the records other than the one dating the
 * answers, shows a time that cannot be read, and such a record proves nothing of this write, even
 * where a stored answer is the payment's own. The service's clock at the answer: the least low
 * bound of every skew measured since the send (this answer's Date among them), else the last this
 * process measured; else n8n's own clock with the no-Date rule's margin (UNDATED_PREDATES_MS).
 */
function answerDatedLater(
	ctx: IExecuteFunctions,
	call: MoneyCall,
	record: IDataObject,
	at: readonly string[],
	where: string,
	since: AnswerClock,
): NodeApiError | undefined {
	const nowSkew =
		skewRangeSince(since.baseUrl, since.sentLocal)?.low ?? knownSkewLow(since.baseUrl);
	const now = Date.now();
	const field = at.find((name) => {
		const time = boundTime(record[name]);
		return (
			typeof time === 'number' &&
			Number.isFinite(time) &&
			datedLater(time, nowSkew, now, UNDATED_PREDATES_MS)
		);
	});
	if (field === undefined) return undefined;
	const id = record.id;
	const named = typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
	const allowing =
		nowSkew === null
			? `by n8n's own clock with a ${UNDATED_PREDATES_MS / 60_000} min margin, as no answer carried a Date header to measure the service's clock`
			: `by more than ${marginWords(nowSkew, 'low')}`;
	const what = field === 'createdAt' ? 'created' : `its ${field}`;
	return outcomeUnknownError(ctx.getNode(), call.contract, {
		reason: `the service answered with ${named ?? 'a record without its ID'}, ${what} at ${String(record[field])}: later than the service's clock at its answer (${allowing}), a time that cannot be read (its local time labelled UTC, or a clock other than the one dating the answers), so it does not prove this write was made, nor that it was not`,
		lines: [
			`Record: ${named ?? 'a record without its ID'}`,
			`Its ${field}: ${String(record[field])}`,
		],
		where,
		itemIndex: call.itemIndex,
	});
}

/** A JSON object (not a list), as a record is. */
function isRecord(value: unknown): boolean {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The skew a sent write seals (outside r7-money-a F2, F4; r8-money F1): the `Date` header's,
 * raised to every records' clock measure this process holds, else null. A measure from a record's
 * createdAt (createdAt minus when this process sent the write) is an upper bound of the records'
 * clock skew only for a genuinely new record; a record replayed or held from earlier (an Accept
 * Quote replayed by key across processes, a Payout Create 200 answered with the payout already
 * held for its External ID) is older and measures far too low. So such a measure only ever RAISES
 * the Date's skew (a proxy's clock behind the records' is caught), never lowers it, and is never
 * used alone: without a Date there is no skew. A proxy's clock ahead of the records' is therefore
 * not corrected: Resolve Outcome says unknown there (the named window, docs/assumptions.md
 * dateClock). Either way in this process's clock, so Resolve Outcome in any process places the
 * write in the service's time once: sentAt plus this skew.
 */
function sealedSkew(baseUrl: string, dateSkew: number | null): number | null {
	if (dateSkew === null) return null;
	const raises = [knownCreatedSkew(baseUrl), knownCreatedFloor(baseUrl)].filter(
		(skew): skew is number => skew !== null,
	);
	return Math.max(dateSkew, ...raises);
}

/** The sealed sent writes of a node run's items, for an unknown found after the write (router.ts). */
const sealedByItem = new WeakMap<IExecuteFunctions, Map<number, IDataObject>>();

function keepSent(ctx: IExecuteFunctions, itemIndex: number, sent: IDataObject): void {
	const items = sealedByItem.get(ctx) ?? new Map<number, IDataObject>();
	items.set(itemIndex, sent);
	sealedByItem.set(ctx, items);
}

/**
 * An unknown outcome the operation's caller finds after the write returned (the answer shows
 * other details: router.ts answerDiffers), with the item's sealed sent write (outside r7-money-a
 * F5: every unknown of a money write carries it, so Resolve Outcome can look it up).
 */
export function withItemSentWrite(
	ctx: IExecuteFunctions,
	itemIndex: number,
	error: unknown,
): unknown {
	const sealed = sealedByItem.get(ctx)?.get(itemIndex);
	if (outcomeFields(error).paymentOutcome !== 'unknown' || !sealed) return error;
	(error as { context: IDataObject }).context.sentWrite = sealed;
	judgedUnknown(sealed);
	return error;
}

/**
 * The item's sealed sent write, for an unknown a tool call finds after the write returned (its
 * answer shows another payment's details: outside r10-money F4); its memory entry turns unknown.
 */
export function itemSentWrite(ctx: IExecuteFunctions, itemIndex: number): IDataObject | undefined {
	const sealed = sealedByItem.get(ctx)?.get(itemIndex);
	if (sealed) judgedUnknown(sealed);
	return sealed;
}

/** Sends the write through the transport and reads its outcome from what the transport reports. */
async function sendOnce(
	ctx: IExecuteFunctions,
	contract: MoneyContract,
	request: ApiRequest,
	report: Report,
): Promise<unknown> {
	let answer: unknown;
	try {
		answer = await apiRequest.call(ctx, { ...request, report });
	} catch (error) {
		throw failedWrite(
			ctx.getNode(),
			contract,
			request,
			report,
			error,
			request.itemIndex,
			contract.identity?.field,
		);
	}
	const unproven = unprovenAnswer(ctx.getNode(), contract, report, answer, request.itemIndex);
	if (unproven) throw unproven;
	const failed = answerSaysFailed(ctx.getNode(), contract, report, answer, request.itemIndex);
	if (failed) throw failed;
	const notRecord = notARecord(ctx.getNode(), contract, report, answer, request.itemIndex);
	if (notRecord) throw notRecord;
	const fallen = notStanding(ctx.getNode(), contract, report, answer, request.itemIndex);
	if (fallen) throw fallen;
	return answer;
}
