import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import {
	ASSUMED_ENDPOINTS,
	NOT_PAID_CONFLICTS,
	NOT_PAID_STATUSES,
	REPLAY_BY_KEY,
} from '../contract/assumptions';
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

/** A write that reserves, debits or returns money, and how its user finds out what happened. */
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

/** Every money write of the package, by method and path. */
const MONEY_WRITES: ReadonlyArray<{
	method: string;
	path: RegExp;
	write: Omit<MoneyWrite, 'replayByKey'>;
}> = [
	{
		method: 'POST',
		path: /^\/orders\/accept\/[^/]+$/,
		write: {
			what: 'the quote may have been accepted and the order paid',
			lookUp:
				'Order > Get Many (newest first) for an order of this amount created just now; or run it again with the same Idempotency Key (Retry On Fail keeps it; a re-run of Pay QR Code keeps it only when the key is set from your input)',
		},
	},
	{
		method: 'POST',
		path: /^\/cards\/request$/,
		write: {
			what: 'the card may have been requested and its reserve taken',
			lookUp:
				'Card > Get Many (with the External ID, if you set one; set one on every card request so it can be found) for a card requested just now',
		},
	},
	{
		method: ASSUMED_ENDPOINTS.cardRecharge.method,
		path: new RegExp(`^${ASSUMED_ENDPOINTS.cardRecharge.path.replace(/\//g, '\\/')}$`),
		write: {
			what: 'the card may have been recharged and the company balance debited',
			lookUp:
				'Company Wallet > Get Balance History for a card recharge debit made just now, and Card > Get Balance (cached for about a minute)',
		},
	},
	{
		method: ASSUMED_ENDPOINTS.payoutCreate.method,
		path: new RegExp(`^${ASSUMED_ENDPOINTS.payoutCreate.path.replace(/\//g, '\\/')}$`),
		write: {
			what: 'the payout may have been created and the company balance charged',
			lookUp:
				'Payout > Get Many with the External ID you gave this payout (set one on every payout so it can be found), or Company Wallet > Get Balance History',
		},
	},
	{
		method: 'POST',
		path: /^\/payouts\/[^/]+\/cancel$/,
		write: {
			what: 'the payout may have been cancelled',
			lookUp:
				'Payout > Get: status fail with failReason cancelled_by_merchant means it was cancelled; cancelling again is harmless (PAYOUT_NOT_CANCELABLE)',
		},
	},
];

/** Whether the document promises replay by key for this write (contract/assumptions.ts). */
export function replaysByKey(method: string, path: string): boolean {
	return REPLAY_BY_KEY.some((entry) => entry.method === method && entry.path.test(path));
}

/** The money write this request is, or undefined when it moves no money. */
export function moneyWrite(method: string, path: string): MoneyWrite | undefined {
	const entry = MONEY_WRITES.find(
		(candidate) => candidate.method === method && candidate.path.test(path),
	);
	return entry && { ...entry.write, replayByKey: replaysByKey(method, path) };
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
		where: string;
		itemIndex?: number;
	},
): NodeApiError {
	const { info } = facts;
	const message = `${OUTCOME_UNKNOWN}: ${write.what}, or not: ${facts.reason}`;
	const description = [...facts.lines, `Environment: ${facts.where}`, ...whatToDoLines(write)].join(
		LINE_BREAK,
	);
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
