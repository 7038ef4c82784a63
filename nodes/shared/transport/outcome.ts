import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { NOT_PAID_CONFLICTS, NOT_PAID_STATUSES } from '../contract/assumptions';
import { isObject } from '../contract/guards';

import type { ServiceErrorInfo } from './serviceError';
import { LINE_BREAK } from './serviceError';

/**
 * The three outcomes of a money write (issue 28), in the field `paymentOutcome` of a failed
 * item: `not_paid` (the service refused it, or it never left n8n), `unknown` (it may have been
 * carried out: look it up before trying again). A successful item is the service's own answer.
 */
export type PaymentOutcome = 'paid' | 'not_paid' | 'unknown';

/** The node's own errorCode of a money write whose outcome is not known. */
export const OUTCOME_UNKNOWN = 'OUTCOME_UNKNOWN';

/** The node's own errorCode of a money write refused because its key named another payment. */
export const IDEMPOTENCY_KEY_REUSED = 'IDEMPOTENCY_KEY_REUSED';

/**
 * What the transport reads of a money operation's own contract (the `money` block in the
 * operation's file): what the write does, where to look it up, and whether the document promises
 * replay by key. A request is a money write only when its operation hands this over; nothing is
 * recognised by method and path.
 */
export interface MoneyWrite {
	/** What the write does, as the message names it: "the payout may have been created". */
	what: string;
	/** Where to look it up, in the node's own operations. */
	lookUp: string;
	/** The document promises that the same Idempotency-Key replays the stored answer. */
	replayByKey: boolean;
}

const KEY_REPLAY =
	'Running it again with the same Idempotency Key is safe: the service answers a repeated key with the stored result instead of paying again (the interface document promises this for this call).';
const NO_REPLAY =
	'Do not run the node again blindly: the interface document does not promise that the service recognises a repeated Idempotency Key for this call, so a second execution may pay twice. (Retry On Fail in this n8n process does not send it again: it reports the same unknown outcome.)';

/**
 * The outcome machine of one money write (issue 36.2): every attempt's result goes in, in order,
 * and the outcome can only move toward "unknown" once an attempt may have acted. `not_paid` holds
 * only while every attempt so far was refused before it acted (never left n8n, or refused by the
 * service's own error body); `paid` only for a readable 2xx answer.
 */
export type Attempt =
	/**
	 * No answer: `sent` false when the request never left n8n (refused connection, DNS, TLS
	 * handshake), true when it may have reached the service (reset, timeout).
	 */
	| { sent: boolean }
	/** An HTTP answer; `readable` when its body could be read as JSON. */
	| { sent: true; status: number; body: unknown; readable: boolean };

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

/** Whether a body is the service's own JSON error body: an object naming an errorCode. */
export function isServiceErrorBody(body: unknown): boolean {
	return isObject(body) && typeof body.errorCode === 'string' && body.errorCode !== '';
}

/** The outcome an HTTP answer (not 2xx) to a money write proves. */
export function answeredOutcome(status: number, body: unknown): PaymentOutcome {
	const refused = status >= NOT_PAID_STATUSES.min && status <= NOT_PAID_STATUSES.max;
	if (!refused || !isServiceErrorBody(body)) return 'unknown';
	if (status !== 409) return 'not_paid';
	return NOT_PAID_CONFLICTS.includes(String((body as IDataObject).errorCode))
		? 'not_paid'
		: 'unknown';
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
	if (!(error instanceof NodeApiError) && !isObject((error as { context?: unknown })?.context)) {
		return {};
	}
	const outcome = (error as { context: IDataObject }).context.paymentOutcome;
	if (outcome !== 'paid' && outcome !== 'not_paid' && outcome !== 'unknown') return {};
	return outcome === 'unknown'
		? { paymentOutcome: outcome, errorCode: OUTCOME_UNKNOWN }
		: { paymentOutcome: outcome };
}

/** What a user of a money write with an unknown outcome does, one line each. */
export function whatToDoLines(write: MoneyWrite): string[] {
	return [
		`What to do: look it up before trying again: ${write.lookUp}.`,
		write.replayByKey ? KEY_REPLAY : NO_REPLAY,
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
