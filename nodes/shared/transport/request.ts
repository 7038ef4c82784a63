import type {
	IAuthenticateGeneric,
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IWebhookFunctions,
	JsonObject,
} from 'n8n-workflow';
import { ApplicationError, NodeApiError, NodeOperationError } from 'n8n-workflow';

import { CompanyPaymentsApi } from '../../../credentials/CompanyPaymentsApi.credentials';

import { RETRY_BACKOFF, RETRY_STATUSES } from '../contract/assumptions';
import {
	gateJson,
	gateLocation,
	learnFromAnswer,
	learnFromRequest,
	rememberCredential,
} from '../gate';

import { environmentLabel, environmentMismatch, environmentOf } from './environment';
import type { Environment } from './environment';
import { networkFailure } from './network';
import {
	IDEMPOTENCY_KEY_REUSED,
	OutcomeMachine,
	attemptOutcome,
	markOutcome,
	outcomeFields,
	outcomeUnknownError,
} from './outcome';
import type { MoneyWrite } from './outcome';
import {
	backoffMs,
	gaveUpLine,
	isRetryable,
	maxRetryWaitMs,
	retryAfterMs,
	retryClock,
	runLimiter,
} from './retry';
import { LINE_BREAK, describe, readServiceError, serviceError } from './serviceError';
import { ERROR_ACTIONS } from './errorActions';
import {
	forgetSentWrite,
	recallSentWrite,
	rememberSentWrite,
	sentRequest,
	sentWriteId,
} from './sentWrites';

export const CREDENTIAL_NAME = 'companyPaymentsApi';

export type ApiContext =
	| IExecuteFunctions
	| IHookFunctions
	| ILoadOptionsFunctions
	| IWebhookFunctions;

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** Path below the base URL, starting with "/"; dynamic segments already encoded. */
	path: string;
	body?: IDataObject;
	qs?: IDataObject;
	headers?: Record<string, string>;
	/**
	 * The path as messages show it, for a path that carries a secret (an invite's token): the
	 * token is a key to the company and never appears in an error, a log or an execution.
	 */
	shownPath?: string;
	/**
	 * What a money write pays, when its path names something made for this one call (Pay QR
	 * Code accepts a quote it has just prepared): a key used again is compared by this instead of
	 * the path, so a retry of the same payment is the same request.
	 */
	pays?: string;
	/**
	 * The operation's money contract, when this call is its money write (the operation's `money`
	 * block): its outcome is then reported as paid, not paid or unknown, and it is sent as the
	 * contract says. Nothing else makes a request a money write.
	 */
	money?: MoneyWrite;
	/** Public endpoints (invite preview and accept) are called without the API key. */
	authenticated?: boolean;
	itemIndex?: number;
	/** Explanations that replace the general ones for these error codes, for this call only. */
	explain?: Record<string, string>;
	/**
	 * Explanations for HTTP statuses of this call, for answers whose errorCode is missing,
	 * unknown or generic (e.g. FORBIDDEN) and that name no missing permission: the contract
	 * states some conditions by status only (e.g. 403 when removing the last owner).
	 */
	explainStatus?: Record<number, string>;
}

interface FullResponse {
	body: unknown;
	headers: IDataObject;
	statusCode: number;
}

/** What one node run needs of its credential: read (and decrypted by n8n) once per run. */
interface RunCredential {
	baseUrl: string;
	environment: Environment;
	/** "Staging (https://…)", named in every error. */
	where: string;
	data: ICredentialDataDecryptedObject;
}

/**
 * One credential read per node run (n8n's execution context), not per item or page: n8n loads
 * and decrypts the credential on every read, and httpRequestWithAuthentication reads it again
 * for every request unless it is handed the decrypted credential.
 */
const runCredentials = new WeakMap<object, Promise<RunCredential>>();

async function readCredential(ctx: ApiContext, itemIndex?: number): Promise<RunCredential> {
	const credentials = await ctx.getCredentials(CREDENTIAL_NAME, itemIndex);
	rememberCredential(credentials, ctx);
	const raw = typeof credentials.baseUrl === 'string' ? credentials.baseUrl.trim() : '';
	let parsed: URL | undefined;
	try {
		parsed = new URL(raw);
	} catch {
		parsed = undefined;
	}
	if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The credential's Base URL must be an http(s) URL, got "${raw}"`,
			{
				description:
					'Open the Company Payments API credential and set Base URL, e.g. https://payments.example.com/api',
			},
		);
	}
	const environment = environmentOf(credentials.environment);
	const mismatch = environmentMismatch(environment, parsed);
	if (mismatch) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The credential does not fit together: ${mismatch}`,
			{
				description:
					'Open the Company Payments API credential: Environment and Base URL must name the same environment of the service (production and staging have separate base URLs and keys).',
			},
		);
	}
	const baseUrl = raw.replace(/\/+$/, '');
	return {
		baseUrl,
		environment,
		where: `${environmentLabel(environment)} (${baseUrl})`,
		data: credentials,
	};
}

function runCredential(ctx: ApiContext, itemIndex?: number): Promise<RunCredential> {
	let pending = runCredentials.get(ctx);
	if (!pending) {
		pending = readCredential(ctx, itemIndex);
		runCredentials.set(ctx, pending);
		pending.catch(() => runCredentials.delete(ctx));
	}
	return pending;
}

export async function getBaseUrl(ctx: ApiContext, itemIndex?: number): Promise<string> {
	return (await runCredential(ctx, itemIndex)).baseUrl;
}

function compact(values: IDataObject | undefined): IDataObject | undefined {
	if (!values) return undefined;
	const out: IDataObject = {};
	for (const [key, value] of Object.entries(values)) {
		if (value === undefined || value === null || value === '') continue;
		out[key] = value;
	}
	return Object.keys(out).length > 0 ? out : undefined;
}

function parseBody(raw: unknown): { ok: true; value: unknown } | { ok: false; text: string } {
	if (typeof raw !== 'string') return { ok: true, value: raw };
	if (raw.trim() === '') return { ok: true, value: {} };
	try {
		return { ok: true, value: JSON.parse(raw) as unknown };
	} catch {
		return { ok: false, text: raw };
	}
}

/** The Location of a redirect, as the gate lets an error show it. */
function redirectTarget(ctx: ApiContext, headers: FullResponse['headers']): string {
	const raw = headers?.location ?? headers?.Location;
	const location = Array.isArray(raw) ? String(raw[0]) : typeof raw === 'string' ? raw : '';
	if (location === '') return 'no Location header';
	return gateLocation(ctx, location);
}

/**
 * A 3xx answer: never followed (the API key would travel to the Location's host, and a POST
 * would be replayed as a GET whose answer looked like a created record). Reported with the
 * status and the Location, before any output.
 */
function redirectError(
	ctx: ApiContext,
	request: ApiRequest,
	status: number,
	headers: FullResponse['headers'],
	where: string,
	itemIndex: number | undefined,
): NodeApiError {
	const location = redirectTarget(ctx, headers);
	return new NodeApiError(ctx.getNode(), { httpCode: String(status), location } as JsonObject, {
		message: `The service answered ${request.method} ${shownPath(request)} with a redirect (HTTP ${status} to ${location}), which this node does not follow`,
		description: [
			`HTTP status: ${status}`,
			`Location: ${location}`,
			'The request was not repeated at the new address and the API key was sent to the Base URL only.',
			`Environment: ${where}. If the service has moved, enter its new address as the credential's Base URL.`,
		].join(LINE_BREAK),
		httpCode: String(status),
		itemIndex,
	});
}

/**
 * The headers the credential's `authenticate` block declares (`X-API-Key:
 * ={{$credentials.apiKey}}`), read from that block once: it is the one place that says how the
 * key is sent, for this node and for n8n's HTTP Request node alike.
 */
const AUTH_HEADERS: ReadonlyArray<{ name: string; field: string }> = Object.entries(
	(new CompanyPaymentsApi().authenticate as IAuthenticateGeneric).properties.headers ?? {},
).map(([name, value]) => {
	const field = /^=\{\{\s*\$credentials\.(\w+)\s*\}\}$/.exec(String(value))?.[1];
	if (field === undefined) {
		throw new ApplicationError(`The credential's header ${name} is not a plain credential field`);
	}
	return { name, field };
});

/**
 * The request with the credential's API key, as the credential's `authenticate` declares it.
 * Set here from the credential read once per run rather than through
 * httpRequestWithAuthentication, which resolves that declaration's expression in n8n's
 * expression engine on every request: on n8n 2.41 that costs milliseconds per page of a Return
 * All. The URL is always the credential's base URL and redirects are never followed, so the key
 * goes nowhere else.
 */
function withApiKey(options: IHttpRequestOptions, credential: RunCredential): IHttpRequestOptions {
	const headers: Record<string, string> = {};
	for (const { name, field } of AUTH_HEADERS) {
		const value = credential.data[field];
		headers[name] = typeof value === 'string' ? value : '';
	}
	return { ...options, headers: { ...options.headers, ...headers } };
}

/** What the credential authenticates with (its API key), as one text. */
function accountOf(credential: RunCredential): string {
	return AUTH_HEADERS.map(({ field }) => String(credential.data[field] ?? '')).join('\n');
}

/**
 * One HTTP exchange; a request that gets no answer becomes an error naming the failure. For a
 * money write that may have reached the service (a reset, a timeout) the outcome is unknown;
 * "Could not reach" is kept for failures that prove nothing was sent.
 */
async function send(
	ctx: ApiContext,
	request: ApiRequest,
	options: IHttpRequestOptions,
	credential: RunCredential,
	machine: OutcomeMachine | undefined,
): Promise<FullResponse> {
	const { baseUrl } = credential;
	const { money } = request;
	const { itemIndex } = request;
	try {
		return (await ctx.helpers.httpRequest(
			request.authenticated === false ? options : withApiKey(options, credential),
		)) as FullResponse;
	} catch (error) {
		// No HTTP answer: keep the code and messages, never the request (it holds the key).
		const failure = networkFailure(error);
		const what = `${request.method} ${baseUrl}${shownPath(request)} got no answer: ${failure.explanation}.`;
		const code = failure.code ? [`Error code: ${failure.code}`] : [];
		const outcome = machine?.observe({ sent: failure.maybeSent });
		if (money && outcome === 'unknown') {
			throw outcomeUnknownError(ctx.getNode(), money, {
				reason: failure.maybeSent
					? `the request was sent and no answer came (${failure.explanation})`
					: `an earlier attempt (${machine?.actedFirst}) may have acted, and the repeat under the same key could not reach the service (${failure.explanation}), so nothing says whether the first one paid`,
				lines: [what, ...code],
				where: credential.where,
				itemIndex,
			});
		}
		const lines = [what, ...code];
		lines.push(
			failure.maybeSent && request.method !== 'GET'
				? `Environment: ${environmentLabel(credential.environment)}. The request may have reached the service: check whether it took effect before running it again.`
				: `Environment: ${environmentLabel(credential.environment)}. Check the credential's Base URL and that the service is up.${failure.maybeSent ? '' : ' Nothing was sent, so running it again is safe.'}`,
		);
		const unreached = new NodeApiError(
			ctx.getNode(),
			{ message: failure.explanation, networkError: failure.kind } as JsonObject,
			{
				message: `Could not reach the ${environmentLabel(credential.environment)} service at ${baseUrl}: ${failure.explanation}`,
				description: lines.join(LINE_BREAK),
				itemIndex,
			},
		);
		throw money ? markOutcome(unreached, 'not_paid') : unreached;
	}
}

/**
 * The error of a non-2xx answer, with the service's errorCode, message, details and requestId.
 * For a money write: "not paid" when the service's own error body refused it (a 4xx), else the
 * outcome is unknown (a gateway's 502/504, any 5xx, a page that is not the service's answer).
 */
function failure(
	ctx: ApiContext,
	request: ApiRequest,
	response: FullResponse,
	credential: RunCredential,
	itemIndex: number | undefined,
	machine: OutcomeMachine | undefined,
	{ gaveUp }: { gaveUp?: string } = {},
): NodeApiError {
	const { money } = request;
	const parsed = parseBody(response.body);
	const body = gateJson(ctx, parsed.ok ? parsed.value : parsed.text);
	const status = response.statusCode;
	// The machine has seen this answer. A refusal of a repeat proves nothing about an earlier
	// attempt that may have acted: it may be about the repeat itself (e.g. sent before the
	// service stored the first answer).
	if (money && machine?.outcome === 'unknown') {
		const info = readServiceError(status, body, response.headers);
		const answered = `HTTP ${status}${info.errorCode ? ` (${info.errorCode})` : ''}`;
		const thisOne = attemptOutcome({ sent: true, status, body, readable: parsed.ok });
		const reason =
			thisOne !== 'unknown'
				? `an earlier attempt (${machine.actedFirst}) may have acted, and the repeat under the same key was answered ${answered}, which may be about the repeat and not the payment`
				: status === 502 || status === 504
					? `a gateway answered HTTP ${status} instead of the service, which may have acted`
					: `the service answered ${answered}, which does not say whether it acted`;
		return outcomeUnknownError(ctx.getNode(), money, {
			reason,
			lines: [
				`${request.method} ${shownPath(request)}: ${reason}.`,
				...(info.errorCode ? [`Service errorCode: ${info.errorCode}`] : []),
				describe({ ...info, errorCode: null }),
				...(gaveUp ? [gaveUp] : []),
			],
			info,
			where: credential.where,
			itemIndex,
		});
	}
	const error = serviceError(
		ctx.getNode(),
		status,
		body,
		response.headers,
		itemIndex,
		request.explain,
		request.explainStatus,
		credential.where,
	);
	if (gaveUp) error.description = [error.description, gaveUp].filter(Boolean).join(LINE_BREAK);
	return money ? markOutcome(error, 'not_paid') : error;
}

function shownPath(request: ApiRequest): string {
	return request.shownPath ?? request.path;
}

/** What an error says of a 2xx body that is not JSON: its size and first character, no text. */
function unreadableBody(text: string): string {
	const first = text.trimStart().charAt(0);
	return `Body: ${text.length} characters starting with "${first}", not shown (a successful answer may carry secrets)`;
}

/** The Idempotency-Key header of a request, if it carries one. */
function idempotencyHeader(headers: Record<string, string> | undefined): string | undefined {
	const name = Object.keys(headers ?? {}).find((key) => key.toLowerCase() === 'idempotency-key');
	return name === undefined ? undefined : headers?.[name];
}

/**
 * The only place that talks HTTP to the service. JSON in and out; any non-2xx answer becomes a
 * NodeApiError carrying the service's errorCode, message, details, required and requestId.
 *
 * A money write whose replay by key the document does not promise is sent at most once per
 * Idempotency-Key by this process (sentWrites.ts): Retry On Fail gets the first answer back, or
 * OUTCOME_UNKNOWN again when the first answer was lost, and sends nothing. A key already used for
 * another payment is refused (IDEMPOTENCY_KEY_REUSED, not paid) before it is sent.
 */
export async function apiRequest(this: ApiContext, request: ApiRequest): Promise<unknown> {
	const { money } = request;
	const key = idempotencyHeader(request.headers);
	if (!money || key === undefined) return await exchange.call(this, request);
	const credential = await runCredential(this, request.itemIndex);
	const id = sentWriteId(credential.baseUrl, accountOf(credential), key);
	const asked = sentRequest(request.method, request.pays ?? request.path, request.body);
	let earlier = recallSentWrite(id);
	// The same key in flight in this process (parallel tool calls, two deliveries at once): wait
	// for its outcome and act on that, rather than send it a second time.
	while (earlier?.state === 'sending' && earlier.request === asked) {
		await earlier.settled;
		earlier = recallSentWrite(id);
	}
	if (earlier && earlier.request !== asked) {
		throw markOutcome(
			new NodeApiError(this.getNode(), { errorCode: IDEMPOTENCY_KEY_REUSED } as JsonObject, {
				message: `${IDEMPOTENCY_KEY_REUSED}: the Idempotency-Key "${key}" was already used in this n8n process for another payment with other details, and the service would answer with that one instead of making this one`,
				description: [
					'Nothing was sent to the service.',
					`What to do: ${ERROR_ACTIONS[IDEMPOTENCY_KEY_REUSED]}`,
				].join(LINE_BREAK),
				itemIndex: request.itemIndex,
			}),
			'not_paid',
		);
	}
	if (!money.replayByKey && earlier?.state === 'paid') return earlier.answer;
	if (!money.replayByKey && earlier) {
		throw outcomeUnknownError(this.getNode(), money, {
			reason:
				'this n8n process already sent it once under the same Idempotency-Key and no readable answer came back, and the interface document does not promise that the service recognises a repeated key for this call, so the node did not send it again',
			lines: [`Idempotency-Key: ${key}`],
			where: credential.where,
			itemIndex: request.itemIndex,
		});
	}
	const sending = exchange.call(this, request);
	// Registered first, so the store is up to date before anyone sees the answer or error.
	const settled = sending.then(
		(answer) => rememberSentWrite(id, { request: asked, state: 'paid', answer }),
		(error: unknown) => {
			if (outcomeFields(error).paymentOutcome === 'not_paid') forgetSentWrite(id);
			else rememberSentWrite(id, { request: asked, state: 'unknown' });
		},
	);
	rememberSentWrite(id, { request: asked, state: 'sending', settled });
	return await sending;
}

/** One call: sent, re-sent where allowed, and its answer read. */
async function exchange(this: ApiContext, request: ApiRequest): Promise<unknown> {
	const { itemIndex, money } = request;
	/** Every attempt of a money write, in order: its outcome only moves toward unknown. */
	const machine = money ? new OutcomeMachine() : undefined;
	const credential = await runCredential(this, itemIndex);
	const { baseUrl } = credential;
	learnFromRequest(this, request);
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${baseUrl}${request.path}`,
		qs: compact(request.qs),
		body: request.body,
		headers: { Accept: 'application/json', ...request.headers },
		json: true,
		encoding: 'text',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		// n8n's helper follows redirects by default, carries X-API-Key on to the new host (it
		// strips only Authorization and Cookie) and turns a POST into a GET on 301/302. No call
		// of this package follows one: a 3xx is reported below instead.
		disableFollowRedirect: true,
	};
	if (!options.qs) delete options.qs;
	if (!options.body) delete options.body;

	const budgetMs = maxRetryWaitMs(credential.data.maxRetryWaitSeconds);
	const limiter = runLimiter(this);
	const signal = (
		this as { getExecutionCancelSignal?: () => AbortSignal | undefined }
	).getExecutionCancelSignal?.();
	let waitedMs = 0;
	let attempts = 0;
	let response: FullResponse;
	for (;;) {
		// Another call of this run was asked to hold back: wait with it (within this call's budget).
		const hold = Math.min(limiter.holdUntil - retryClock.now(), budgetMs - waitedMs);
		if (hold > 0) {
			await retryClock.sleep(hold, signal);
			waitedMs += hold;
		}
		attempts++;
		response = await send(this, request, options, credential, machine);
		learnFromAnswer(this, response.body);
		const status = response.statusCode;
		const answered = parseBody(response.body);
		const body = answered.ok ? answered.value : answered.text;
		machine?.observe({ sent: true, status, body, readable: answered.ok });
		if (!RETRY_STATUSES.includes(status)) break;
		if (!isRetryable(request, status, body)) break;
		const askedMs = retryAfterMs(response.headers, retryClock.now());
		const delay = Math.max(askedMs ?? backoffMs(attempts - 1), RETRY_BACKOFF.minMs);
		const overBudget = waitedMs + delay > budgetMs;
		if (overBudget || attempts >= RETRY_BACKOFF.maxAttempts) {
			const line = gaveUpLine({ attempts, waitedMs, budgetMs, askedMs, capped: !overBudget });
			throw failure(this, request, response, credential, itemIndex, machine, { gaveUp: line });
		}
		if (askedMs !== undefined) {
			limiter.holdUntil = Math.max(limiter.holdUntil, retryClock.now() + askedMs);
		}
		// Cancelled while waiting to repeat: an earlier attempt of a money write may still have
		// acted, so its outcome is unknown; anything else stops with n8n's own cancellation.
		const wait = retryClock.sleep(delay, signal);
		if (money && machine?.outcome === 'unknown') {
			await wait.catch((cancelled: Error) => {
				throw outcomeUnknownError(this.getNode(), money, {
					reason: `the execution was cancelled while waiting to repeat it, after an earlier attempt (${machine.actedFirst}) that may have acted`,
					lines: [cancelled.message],
					where: credential.where,
					itemIndex,
				});
			});
		} else {
			await wait;
		}
		waitedMs += delay;
	}
	const status = response.statusCode;
	if (status >= 300 && status < 400) {
		const refused = redirectError(
			this,
			request,
			status,
			response.headers,
			credential.where,
			itemIndex,
		);
		if (!money) throw refused;
		throw outcomeUnknownError(this.getNode(), money, {
			reason: `${refused.message.replace(/^The service answered /, 'the service answered ')}; a service may act before it redirects`,
			lines: [refused.description ?? ''],
			info: readServiceError(status, undefined, response.headers),
			where: credential.where,
			itemIndex,
		});
	}
	if (status < 200 || status >= 300) {
		throw failure(this, request, response, credential, itemIndex, machine);
	}
	const parsed = parseBody(response.body);
	// A successful answer that cannot be read may still hold what it answers (a card number and
	// CVV, a new member's API key): its text is never shown, only its size and first character.
	const unread = parsed.ok ? '' : unreadableBody(parsed.text);
	// A money write is paid only on an answer that is a record: an empty body, null or a bare
	// value proves nothing about what the service did.
	const record =
		parsed.ok &&
		typeof parsed.value === 'object' &&
		parsed.value !== null &&
		!Array.isArray(parsed.value) &&
		Object.keys(parsed.value).length > 0;
	if (money && parsed.ok && !record) {
		throw outcomeUnknownError(this.getNode(), money, {
			reason: `the answer (HTTP ${status}) carries no record (${JSON.stringify(parsed.value) ?? 'nothing'}), so it does not show what the service did`,
			lines: [`HTTP status: ${status}`],
			info: readServiceError(status, undefined, response.headers),
			where: credential.where,
			itemIndex,
		});
	}
	if (!parsed.ok && money) {
		throw outcomeUnknownError(this.getNode(), money, {
			reason: `the answer (HTTP ${status}) is not JSON, so it cannot be read as the service's result`,
			lines: [`HTTP status: ${status}`, unread],
			info: readServiceError(status, undefined, response.headers),
			where: credential.where,
			itemIndex,
		});
	}
	if (!parsed.ok) {
		throw new NodeApiError(
			this.getNode(),
			{ httpCode: String(status) },
			{
				message: `The service answered ${request.method} ${shownPath(request)} with a body that is not JSON`,
				description: [`HTTP status: ${status}`, unread, `Environment: ${credential.where}`].join(
					LINE_BREAK,
				),
				httpCode: String(status),
				itemIndex,
			},
		);
	}
	return parsed.value;
}
