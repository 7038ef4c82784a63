import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { NOT_PAID_CONFLICTS, NOT_PAID_STATUSES } from '../contract/assumptions';
import { isObject } from '../contract/guards';
import {
	LINE_BREAK,
	describeServiceError,
	isServiceErrorBody,
	readServiceError,
} from '../transport';
import type { Attempt, Report, ServiceErrorInfo } from '../transport';
import { answerClass } from './answered';
import type { MoneyContract, MoneyWrite, PaymentOutcome } from './contract';
import { RESENT_BY_ANY, freshRefusal, refusalWords, refusesTaken } from './resent';

/*
 * The outcome of a money write (issues 28 and 36.2), in the field `paymentOutcome` of a failed
 * item: `not_paid` (the service refused it, or it never left n8n), `unknown` (it may have been
 * carried out: look it up before trying again). A successful item is the service's own answer.
 * Read from what the transport reports of each attempt; the transport knows none of this.
 */

/** The node's own errorCode of a money write whose outcome is not known. */
export const OUTCOME_UNKNOWN = 'OUTCOME_UNKNOWN';

/** The node's own errorCode of a money write refused because its key named another payment. */
export const IDEMPOTENCY_KEY_REUSED = 'IDEMPOTENCY_KEY_REUSED';

const KEY_REPLAY =
	'Running it again with the same Idempotency Key and the same Quote ID sends the identical request, which the interface document promises the service answers with the stored result instead of paying again.';
/** Pay QR Code (r4-money-resend F3): identical only where this process keeps the first quote. */
const SAME_PROCESS_REPLAY =
	'Retry On Fail, or a run in this n8n process with the same credential and Idempotency Key, sends the identical request (the quote first accepted under the key), which the interface document promises the service answers with the stored result. In another n8n process (a restart, another queue-mode worker) or with another credential the node would prepare a new quote and accept it under the same key: the document promises a stored answer only for a repeated request, which that is not, so it may pay twice: look the order up first.';
const NO_REPLAY =
	'Do not run the node again blindly: the interface document does not promise that the service recognises a repeated Idempotency Key for this call, so a second execution may pay twice. (Retry On Fail, or a run in this n8n process under the same Idempotency Key with the same API key at the same Base URL, in any credential or after Regenerate API Key of this node, does not send it again: it reports the same unknown outcome. A key changed by hand is refused; another n8n process, or one restarted, sends it.)';

/**
 * The outcome machine of one money write (issue 36.2): every attempt's result goes in, in order,
 * and the outcome can only move toward "unknown" once an attempt may have acted. `not_paid` holds
 * only while every attempt so far was refused before it acted (never left n8n, or refused by the
 * service's own error body); `paid` only for a readable 2xx answer.
 */
export type { Attempt };

/** The outcome a single attempt proves on its own. */
export function attemptOutcome(attempt: Attempt): PaymentOutcome {
	if (!('status' in attempt)) return attempt.sent ? 'unknown' : 'not_paid';
	const { status } = attempt;
	if (status >= 200 && status < 300) return attempt.readable ? 'paid' : 'unknown';
	if (status < 400) return 'unknown';
	return answeredOutcome(status, attempt.body);
}

export class OutcomeMachine {
	private state: PaymentOutcome | undefined;

	/** The first attempt that may have acted, as messages name it ("HTTP 504", "no answer"). */
	actedFirst: string | undefined;

	/** Takes one attempt's result and returns the outcome of the write so far. */
	observe(attempt: Attempt): PaymentOutcome {
		const alone = attemptOutcome(attempt);
		if (alone === 'unknown' && this.actedFirst === undefined) {
			this.actedFirst =
				'status' in attempt ? `HTTP ${attempt.status}` : 'a request that got no answer';
		}
		if (alone === 'paid') this.state = 'paid';
		else if (this.state !== 'unknown') this.state = alone;
		return this.state;
	}

	/** The outcome so far; `not_paid` before any attempt. */
	get outcome(): PaymentOutcome {
		return this.state ?? 'not_paid';
	}
}

/**
 * The outcome an HTTP answer (not 2xx) to a money write proves: `not_paid` only for the service's
 * own error body whose code names a precondition checked before it acts, at a status that says
 * refused (answered.ts answerClass: outside r20-money); at 409 only the NOT_PAID_CONFLICTS.
 */
export function answeredOutcome(status: number, body: unknown): PaymentOutcome {
	const refused = status >= NOT_PAID_STATUSES.min && status <= NOT_PAID_STATUSES.max;
	if (!refused || !isServiceErrorBody(body)) return 'unknown';
	const code = (body as IDataObject).errorCode;
	if (answerClass(status, code) !== 'refused') return 'unknown';
	if (status !== 409) return 'not_paid';
	return NOT_PAID_CONFLICTS.includes(String(code)) ? 'not_paid' : 'unknown';
}

/**
 * A service's refusal of a key used before: a code naming idempotency (but a missing key), or a
 * message that says the idempotency key was already used (any code, e.g. BAD_REQUEST).
 */
export function refusesReusedKey(code: unknown, message?: unknown): boolean {
	if (typeof code === 'string' && /IDEMPOTEN/i.test(code)) return !/REQUIRED/i.test(code);
	if (typeof message !== 'string') return false;
	const aboutKey = /idempoten|идемпотент/i.test(message);
	return aboutKey && /already|used|reused|использован|занят/i.test(message);
}

/**
 * A refusal this item's own earlier attempt may have caused (issue 49.2): the key refused as used
 * before (a service that refuses a key reused for another request, or any repeat), or a code the
 * write names as one its own earlier attempt causes (Card Request: its External ID taken). The
 * earlier attempt may have paid, so such a refusal is never "not paid": it is unknown, and
 * Resolve Outcome looks the payment up by the binding rule.
 */
function ownRefusal(
	write: MoneyWrite,
	attempt: Attempt,
	sent: { body?: unknown; identityField?: string } = {},
): { reason: string; status: number; headers: IDataObject } | undefined {
	if (!('status' in attempt) || attempt.status < 400 || attempt.status > 499) return undefined;
	if (!isServiceErrorBody(attempt.body)) return undefined;
	const { errorCode: code, message } = attempt.body as IDataObject;
	const { status, headers } = attempt;
	if (refusesReusedKey(code, message)) {
		return {
			status,
			headers,
			reason: `the service refused the Idempotency-Key as already used (${String(code)}), and the earlier request under it (this item's own earlier attempt among them) may have paid`,
		};
	}
	if (typeof code === 'string' && write.ownRefusals?.includes(code)) {
		return {
			status,
			headers,
			reason: `the service refused it with ${code}, which this item's own earlier attempt (Retry On Fail, a re-run) may have caused by being carried out`,
		};
	}
	if (write.mayBeResent && typeof code === 'string' && RESENT_BY_ANY.includes(code)) {
		return {
			status,
			headers,
			reason: `the service refused it with ${code}, and this item may have been sent before (its Idempotency Key or External ID, which a re-run or a run after a restart carries): that earlier attempt, if it was carried out, took the funds this one lacks`,
		};
	}
	if (write.mayBeResent && refusesTaken(code, message)) {
		const said = refusalWords(message) || String(code);
		return {
			status,
			headers,
			reason: `the service refused it as taken already (${String(code)}: ${said}), and this item may have been sent before under the same Idempotency Key or External ID: its own earlier attempt, if it was carried out, is what holds it`,
		};
	}
	if (
		write.mayBeResent &&
		write.freshRefusals &&
		!freshRefusal(write.freshRefusals, status, code, message, sent.body, sent.identityField)
	) {
		const said = refusalWords(message) || String(code);
		return {
			status,
			headers,
			reason: `the service refused it (${String(code)}: ${said}), and this item may have been sent before under the same Idempotency Key or External ID: only a refusal that no earlier attempt can cause (authentication, permission, a documented refusal of this request's own values) proves nothing was paid, and this one may be about that earlier attempt`,
		};
	}
	return undefined;
}

/** Marks an error of a money write with its outcome (read back by {@link outcomeFields}). */
export function markOutcome<T extends NodeApiError>(error: T, outcome: PaymentOutcome): T {
	error.context.paymentOutcome = outcome;
	return error;
}

/**
 * The fields a failed item of a money write carries: `paymentOutcome` and, when the outcome is
 * unknown, errorCode OUTCOME_UNKNOWN. Empty for any other error.
 */
export function outcomeFields(error: unknown): IDataObject {
	const fields = outcomeOnly(error);
	// A payment made in an earlier run, answered again (write.ts answerAgain, outside r10-money F7).
	const earlier = (error as { context?: IDataObject })?.context?.earlierAnswer;
	return fields.paymentOutcome !== undefined && isObject(earlier)
		? { ...fields, earlierAnswer: earlier }
		: fields;
}

function outcomeOnly(error: unknown): IDataObject {
	if (!(error instanceof NodeApiError) && !isObject((error as { context?: unknown })?.context)) {
		return {};
	}
	const outcome = (error as { context: IDataObject }).context.paymentOutcome;
	if (outcome !== 'paid' && outcome !== 'not_paid' && outcome !== 'unknown') return {};
	const retryAfter = (error as { context: IDataObject }).context.retryAfter;
	if (outcome === 'not_paid' && typeof retryAfter === 'string') {
		return { paymentOutcome: outcome, retryAfter };
	}
	if (outcome !== 'unknown') return { paymentOutcome: outcome };
	// What Resolve Outcome needs to find the payment again (write.ts attaches it).
	const sent = (error as { context: IDataObject }).context.sentWrite;
	// Why it stays unknown, where the error names it apart from its message (Resolve Outcome's refusals).
	const reason = (error as { context: IDataObject }).context.reason;
	const why = typeof reason === 'string' ? { reason } : {};
	return isObject(sent)
		? { paymentOutcome: outcome, errorCode: OUTCOME_UNKNOWN, sentWrite: sent, ...why }
		: { paymentOutcome: outcome, errorCode: OUTCOME_UNKNOWN, ...why };
}

/** What a user of a money write with an unknown outcome does, one line each. */
export function whatToDoLines(write: MoneyWrite): string[] {
	return [
		`What to do: run Payment > Resolve Outcome on this item (as a tool: pass this whole answer as Unknown Item), or look it up, before trying again: ${write.lookUp}.`,
		write.replayByKey ? (write.newRequestElsewhere ? SAME_PROCESS_REPLAY : KEY_REPLAY) : NO_REPLAY,
	];
}

/**
 * The error of a money write whose outcome is unknown: errorCode OUTCOME_UNKNOWN, what happened,
 * the service's own answer when there was one (errorCode, message, requestId), and what to do.
 */
export function outcomeUnknownError(
	node: INode,
	write: MoneyWrite,
	facts: {
		/** Why the outcome is unknown, e.g. "the connection was closed after the request was sent". */
		reason: string;
		/** Lines about the answer (or its absence), e.g. "HTTP status: 502". */
		lines: string[];
		/** The service's answer read as an error, when there was an answer. */
		info?: ServiceErrorInfo;
		/** The environment and base URL, where the caller knows them. */
		where?: string;
		itemIndex?: number;
	},
): NodeApiError {
	const { info } = facts;
	const message = `${OUTCOME_UNKNOWN}: ${write.what}, or not: ${facts.reason}`;
	const environment = facts.where === undefined ? [] : [`Environment: ${facts.where}`];
	const description = [...facts.lines, ...environment, ...whatToDoLines(write)].join(LINE_BREAK);
	const response: JsonObject = {
		errorCode: OUTCOME_UNKNOWN,
		message,
		...(info ? { httpCode: String(info.httpCode) } : {}),
	};
	const error = new NodeApiError(node, response, {
		message,
		description,
		...(info ? { httpCode: String(info.httpCode) } : {}),
		itemIndex: facts.itemIndex,
	});
	if (info) {
		error.context.serviceError = {
			...info,
			errorCode: OUTCOME_UNKNOWN,
			explanation: `${write.what}, or not: ${facts.reason}`,
			serviceErrorCode: info.errorCode,
		};
	}
	return markOutcome(error, 'unknown');
}

function headerOf(headers: IDataObject, name: string): string | undefined {
	for (const [key, value] of Object.entries(headers ?? {})) {
		if (key.toLowerCase() === name) return Array.isArray(value) ? String(value[0]) : String(value);
	}
	return undefined;
}

/** The machine that has seen every attempt of a report. */
function machineOf(report: Report): OutcomeMachine {
	const machine = new OutcomeMachine();
	for (const attempt of report.attempts) machine.observe(attempt);
	return machine;
}

function shown(report: Report): string {
	return report.where ?? '';
}

/**
 * The error of a money write, from the transport's error and what it reports of every attempt:
 * `not_paid` while every attempt was refused before it acted, else OUTCOME_UNKNOWN saying why.
 */
export function failedWrite(
	node: INode,
	write: MoneyWrite,
	request: { method: string; path: string; body?: unknown },
	report: Report,
	error: unknown,
	itemIndex: number | undefined,
	identityField?: string,
): unknown {
	const machine = machineOf(report);
	const last = report.attempts[report.attempts.length - 1];
	const own =
		last === undefined ? undefined : ownRefusal(write, last, { body: request.body, identityField });
	if (own) {
		const info = readServiceError(own.status, report.shownBody, own.headers);
		return outcomeUnknownError(node, write, {
			reason: own.reason,
			lines: [
				`${request.method} ${request.path}: ${own.reason}.`,
				`Service errorCode: ${String(info.errorCode)}`,
				describeServiceError({ ...info, errorCode: null }),
			],
			info,
			where: shown(report),
			itemIndex,
		});
	}
	if (machine.outcome !== 'unknown' || last === undefined) {
		if (!(error instanceof NodeApiError)) return error;
		// The service's own 429 (r1-money-resend F2): refused, and never sent again by the node; when it
		// may be tried again is in the output.
		const wait =
			last && 'status' in last && last.status === 429
				? headerOf(last.headers, 'retry-after')
				: undefined;
		if (wait !== undefined) error.context.retryAfter = wait;
		return markOutcome(error, 'not_paid');
	}
	const where = shown(report);
	const facts = (reason: string, lines: string[], info?: ServiceErrorInfo) =>
		outcomeUnknownError(node, write, { reason, lines, info, where, itemIndex });
	if (report.cancelled) {
		return facts(
			`the execution was cancelled while waiting to repeat it, after an earlier attempt (${machine.actedFirst}) that may have acted`,
			[(error as Error).message],
		);
	}
	if (!('status' in last)) {
		return facts(
			last.sent
				? `the request was sent and no answer came (${last.explanation})`
				: `an earlier attempt (${machine.actedFirst}) may have acted, and the repeat under the same key could not reach the service (${last.explanation}), so nothing says whether the first one paid`,
			last.lines,
		);
	}
	const { status, headers } = last;
	if (status >= 300 && status < 400) {
		const refused = error as NodeApiError;
		return facts(
			`${refused.message.replace(/^The service answered /, 'the service answered ')}; a service may act before it redirects`,
			[refused.description ?? ''],
			readServiceError(status, undefined, headers),
		);
	}
	if (status >= 200 && status < 300) {
		return facts(
			`the answer (HTTP ${status}) is not JSON, so it cannot be read as the service's result`,
			[`HTTP status: ${status}`, report.unread ?? ''],
			readServiceError(status, undefined, headers),
		);
	}
	// A refusal of a repeat proves nothing about an earlier attempt that may have acted: it may
	// be about the repeat itself (e.g. sent before the service stored the first answer).
	const info = readServiceError(status, report.shownBody, headers);
	const answered = `HTTP ${status}${info.errorCode ? ` (${info.errorCode})` : ''}`;
	const reason =
		attemptOutcome(last) !== 'unknown'
			? `an earlier attempt (${machine.actedFirst}) may have acted, and the repeat under the same key was answered ${answered}, which may be about the repeat and not the payment`
			: status === 502 || status === 504
				? `a gateway answered HTTP ${status} instead of the service, which may have acted`
				: `the service answered ${answered}, which does not say whether it acted`;
	return facts(
		reason,
		[
			`${request.method} ${request.path}: ${reason}.`,
			...(info.errorCode ? [`Service errorCode: ${info.errorCode}`] : []),
			describeServiceError({ ...info, errorCode: null }),
			...(report.gaveUp ? [report.gaveUp] : []),
		],
		info,
	);
}

/**
 * A 2xx answer to a money write is paid only when it is a record: an empty body, null or a bare
 * value proves nothing about what the service did. Returns the error to throw, if any.
 */
export function unprovenAnswer(
	node: INode,
	write: MoneyWrite,
	report: Report,
	answer: unknown,
	itemIndex: number | undefined,
): NodeApiError | undefined {
	const record =
		typeof answer === 'object' &&
		answer !== null &&
		!Array.isArray(answer) &&
		Object.keys(answer).length > 0;
	if (record) return undefined;
	const last = report.attempts[report.attempts.length - 1];
	const status = last && 'status' in last ? last.status : 200;
	const headers = last && 'status' in last ? last.headers : {};
	return outcomeUnknownError(node, write, {
		reason: `the answer (HTTP ${status}) carries no record (${JSON.stringify(answer) ?? 'nothing'}), so it does not show what the service did`,
		lines: [`HTTP status: ${status}`],
		info: readServiceError(status, undefined, headers),
		where: shown(report),
		itemIndex,
	});
}

/**
 * A 2xx answer of a write whose answer is the record it made (answerIsRecord) that is no record
 * (outside r7-money-a F8: a 202 `{"status":"accepted"}`): no ID and none of the details the write
 * asked, so it does not show that anything was made. Unknown; write.ts adds the sent write.
 */
export function notARecord(
	node: INode,
	contract: MoneyContract,
	report: Report,
	answer: unknown,
	itemIndex: number | undefined,
): NodeApiError | undefined {
	if (!contract.answerIsRecord || answer === null || typeof answer !== 'object') return undefined;
	if (Array.isArray(answer)) return undefined;
	const record = answer as IDataObject;
	// Its own ID, or (Card Request) the ID of the card or the request it answers with.
	const idOf = (value: unknown) =>
		value !== null && typeof value === 'object' ? (value as IDataObject).id : undefined;
	const id = record.id ?? idOf(record.card) ?? idOf(record.request);
	if (typeof id === 'string' || typeof id === 'number') return undefined;
	if (contract.details.some((d) => d.answered(record) !== undefined)) return undefined;
	const last = report.attempts[report.attempts.length - 1];
	const status = last && 'status' in last ? last.status : 200;
	const shownAnswer = JSON.stringify(answer).slice(0, 200);
	return outcomeUnknownError(node, contract, {
		reason: `the answer (HTTP ${status}) is no record of it (${shownAnswer}: no ID and none of the details asked), so it does not show that the service made it, nor that it did not`,
		lines: [`HTTP status: ${status}`],
		where: shown(report),
		itemIndex,
	});
}

/** Whether a value is shown: not missing, null, empty text or an empty list. */
function shownValue(value: unknown): boolean {
	if (value === undefined || value === null || value === false) return false;
	if (typeof value === 'string') return value.trim() !== '';
	return !Array.isArray(value) || value.length > 0;
}

/** Whether a record's own state, if it shows one, reads as standing (MoneyWrite.answerState). */
function standsByState(contract: MoneyContract, body: IDataObject): boolean {
	const state = contract.answerState?.(body);
	return state === undefined || state.outcome === 'paid';
}

/** `false`, or the text "false" (outside r21-money F4: `ok: "false"`). */
function saysFalse(value: unknown): boolean {
	return value === false || (typeof value === 'string' && value.trim().toLowerCase() === 'false');
}

/** A list of errors that is not empty, an object of errors with one shown (`{requisite: [...]}`), or a text. */
function errorsShown(value: unknown): boolean {
	if (isObject(value)) return Object.values(value as IDataObject).some(shownValue);
	return shownValue(value);
}

/**
 * The signs of a failure one record of a 2xx answer may carry (outside r19-money, r21-money F4):
 * `success` or `ok` false (or the text "false"), an `errorCode`, `errors` shown (a list that is
 * not empty, an object naming one), an `error` (the document's error body: "HTTP reason phrase").
 * No answer of the document carries any of them on a record.
 */
function recordSigns(record: IDataObject, where: string): string[] {
	const code =
		typeof record.errorCode === 'string' && record.errorCode !== '' ? record.errorCode : undefined;
	return [
		...(saysFalse(record.success) ? [`${where}success: ${JSON.stringify(record.success)}`] : []),
		...(code !== undefined ? [`${where}errorCode ${code}`] : []),
		...(saysFalse(record.ok) ? [`${where}ok: ${JSON.stringify(record.ok)}`] : []),
		...(errorsShown(record.errors)
			? [`${where}errors ${JSON.stringify(record.errors).slice(0, 80)}`]
			: []),
		...(shownValue(record.error)
			? [`${where}error ${JSON.stringify(record.error).slice(0, 80)}`]
			: []),
	];
}

/**
 * The other records of a 2xx answer the contract names as this write's (outside r21-money F4): the
 * record it made, the record it acted on, and the records its ties read (Card Request's request
 * and card), each with the name it is shown under.
 */
function namedRecords(contract: MoneyContract, body: IDataObject): Array<[string, IDataObject]> {
	const named: Array<[string, IDataObject | undefined]> = [];
	for (const [field, value] of Object.entries(body)) {
		if (isObject(value) && (value === contract.made?.(body) || contract.ties !== undefined)) {
			named.push([field, value as IDataObject]);
		}
	}
	const acted = contract.acted?.(body)?.record;
	if (acted !== undefined && acted !== body) named.push(['acted', acted]);
	return named.filter((entry): entry is [string, IDataObject] => entry[1] !== undefined);
}

/**
 * The signs of a failure a 2xx body may carry (outside r19-money, its observations; r21-money F4):
 * those of any record (recordSigns) at the top level and on each record the contract names
 * (namedRecords), and a `failReason` (a payout's reason it failed) on a write that makes its
 * record: a record that names why it failed does not stand, where its state says it stands (a
 * record whose state does not stand is told by its own state: notStanding, in its words, a refund
 * among them). Not a cancel's `failReason` (Payout Cancel, `acted`): the document's cancel sets
 * `cancelled_by_merchant` on the payout it cancelled, which is its act done.
 */
function failureSigns(contract: MoneyContract, body: IDataObject): string[] {
	const nested = namedRecords(contract, body).flatMap(([field, record]) =>
		record === body ? [] : recordSigns(record, `${field}.`),
	);
	return [
		...recordSigns(body, ''),
		...nested,
		...(!contract.acted && shownValue(body.failReason) && standsByState(contract, body)
			? [`failReason ${JSON.stringify(body.failReason).slice(0, 80)}`]
			: []),
	];
}

/**
 * A 2xx whose body says it failed (outside r18-money F3: Card Recharge answered 200 with
 * `{"success":false,"errorCode":"INSUFFICIENT_BALANCE",...}`): `success: false`, or an errorCode,
 * which the document's error body carries on a failure only, or another sign (failureSigns), on
 * the answer or a record of it the contract names. Never a success. Nor not paid: the document
 * gives an error's meaning by its HTTP status ("an unknown errorCode is to be treated as a generic
 * failure of its statusCode"), and a 2xx is none, so nothing shows that no money moved. Unknown,
 * keeping the errorCode, message, details, required and requestId the body names; write.ts adds
 * the sent write.
 */
export function answerSaysFailed(
	node: INode,
	contract: MoneyContract,
	report: Report,
	answer: unknown,
	itemIndex: number | undefined,
): NodeApiError | undefined {
	if (!isObject(answer)) return undefined;
	const body = answer as IDataObject;
	const signs = failureSigns(contract, body);
	if (signs.length === 0) return undefined;
	const last = report.attempts[report.attempts.length - 1];
	const status = last && 'status' in last ? last.status : 200;
	const headers = last && 'headers' in last ? last.headers : undefined;
	const said = signs.join(' and ');
	return outcomeUnknownError(node, contract, {
		reason: `the service answered HTTP ${status}, a success status, with a body that says it failed (${said}): a failure the document gives no meaning to with a success status, so it does not show that the service carried it out, nor that it did not`,
		lines: [`HTTP status: ${status}`],
		info: readServiceError(status, body, headers as IDataObject | undefined),
		where: shown(report),
		itemIndex,
	});
}

/**
 * A 2xx record whose own state does not stand (outside r9-money F1: a recharge answered
 * `failed`, an order answered `failed` or expired): unknown, never a plain success. The document
 * does not show that such a record's money was returned, so it is not "not paid" either.
 */
export function notStanding(
	node: INode,
	contract: MoneyContract,
	report: Report,
	answer: unknown,
	itemIndex: number | undefined,
): NodeApiError | undefined {
	if (!contract.answerState || answer === null || typeof answer !== 'object') return undefined;
	if (Array.isArray(answer)) return undefined;
	const state = contract.answerState(answer as IDataObject);
	if (state === undefined || state.outcome === 'paid') return undefined;
	const last = report.attempts[report.attempts.length - 1];
	const status = last && 'status' in last ? last.status : 200;
	return outcomeUnknownError(node, contract, {
		reason: `the service answered (HTTP ${status}) with a record that does not show it carried out: ${state.why}`,
		lines: [`HTTP status: ${status}`],
		where: shown(report),
		itemIndex,
	});
}

/**
 * A failed money item always says whether money moved. The transport marks every failure of the
 * money write itself (paid, not paid or unknown, by the outcome machine); any other failure of a
 * money operation (its input checks, Pay QR Code's prepare, a lookup) came before the money write
 * was sent, so nothing was paid.
 */
export function withOutcome(error: Error): Error {
	if (outcomeFields(error).paymentOutcome !== undefined) return error;
	if (error instanceof NodeApiError) return markOutcome(error, 'not_paid');
	const context = (error as { context?: IDataObject }).context;
	if (context !== undefined && typeof context === 'object') context.paymentOutcome = 'not_paid';
	return error;
}
