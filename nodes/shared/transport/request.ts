import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IWebhookFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { RETRY_BACKOFF, RETRY_STATUSES } from '../contract/assumptions';
import {
	gateErrorBody,
	gateLocation,
	learnFromAnswer,
	learnFromRequest,
	rememberCredential,
} from '../gate';

import {
	environmentLabel,
	environmentMismatch,
	environmentOf,
	normaliseSecret,
	unfitCredentialMessage,
	unsendableApiKey,
} from './environment';
import { parseJsonLossless } from './json';
import type { Environment } from './environment';
import { networkFailure } from './network';
import {
	backoffMs,
	gaveUpLine,
	isRetryable,
	maxRetryWaitMs,
	retryAfterMs,
	retryClock,
	runLimiter,
} from './retry';
import { LINE_BREAK, serviceError } from './serviceError';

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
	 * Whether a write may be sent again (a read always may, on RETRY_STATUSES): `replayed` when the
	 * service answers a repeat with the stored answer (then on every RETRY_STATUSES answer),
	 * `refused` only after a 429 carrying the service's own error body (refused before it acted).
	 * A write that says neither is sent once.
	 */
	repeat?: 'replayed' | 'refused';
	/** Filled with what happened, attempt by attempt, for a caller that must tell what it proves. */
	report?: Report;
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

/** One attempt of a request, as it happened. */
export type Attempt =
	/**
	 * No answer: `sent` false when the request never left n8n (refused connection, DNS, TLS
	 * handshake), true when it may have reached the service (reset, timeout).
	 */
	| { sent: boolean; explanation: string; lines: string[] }
	/**
	 * An HTTP answer; `readable` when its body could be read as JSON. `sentLocal`: this machine's
	 * clock (ms) just before the request was handed to n8n's helper; `answeredLocal`: just after the
	 * whole answer was read (n8n's helper gives no time the headers arrived). The service dated the
	 * answer (`Date`) somewhere between the two, so the two bound its clock against this one.
	 */
	| {
			sent: true;
			status: number;
			body: unknown;
			readable: boolean;
			headers: IDataObject;
			sentLocal?: number;
			answeredLocal?: number;
	  };

/** What one call did: every attempt in order, and why it stopped where it did not answer 2xx. */
export interface Report {
	attempts: Attempt[];
	/** The environment and base URL, as errors name them. */
	where?: string;
	/** The last answer's body as the gate lets an error show it. */
	shownBody?: unknown;
	/** Why the call stopped repeating an answer it was allowed to repeat. */
	gaveUp?: string;
	/** The execution was cancelled while the call waited to repeat. */
	cancelled?: boolean;
	/** What an error says of a 2xx body that could not be read. */
	unread?: string;
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
	/** The same credential as n8n's httpRequestWithAuthentication takes it, so it is not read again. */
	decrypted: ICredentialsDecrypted;
}

/**
 * One credential read per node run (n8n's execution context), not per item or page: n8n loads
 * and decrypts the credential on every read, and httpRequestWithAuthentication reads it again
 * for every request unless it is handed the decrypted credential (its
 * `additionalCredentialOptions.credentialsDecrypted`, which n8n 1.x and 2.x take).
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
		throw new NodeOperationError(ctx.getNode(), unfitCredentialMessage(mismatch), {
			description:
				'Open the Company Payments API credential: Environment and Base URL must name the same environment of the service (production and staging have separate base URLs and keys).',
		});
	}
	// A key pasted with a line break is sent trimmed (the credential's authenticate); one with a
	// character no header may carry inside it is refused here, before anything is sent, naming
	// the field: Node would refuse the request locally (ERR_INVALID_CHAR), which is no
	// unreachable service and no unknown payment (outside read r9-data, finding 6).
	const unsendable = unsendableApiKey(credentials.apiKey);
	if (unsendable !== undefined) {
		throw new NodeOperationError(ctx.getNode(), unsendable, {
			description:
				'Nothing was sent to the service. Open the Company Payments API credential and paste the API Key again: surrounding spaces and line breaks are ignored, but a space, line break or invisible character inside the key is not allowed.',
		});
	}
	const baseUrl = raw.replace(/\/+$/, '');
	const stored = ctx.getNode().credentials?.[CREDENTIAL_NAME];
	return {
		baseUrl,
		environment,
		where: `${environmentLabel(environment)} (${baseUrl})`,
		data: credentials,
		decrypted: {
			id: stored?.id ?? '',
			name: stored?.name ?? '',
			type: CREDENTIAL_NAME,
			data: credentials,
		},
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
		return { ok: true, value: parseJsonLossless(raw) };
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
 * What the credential authenticates with: its API key as it is sent (normaliseSecret's trim, as
 * the credential's authenticate sends it), so a key pasted with a space or a line break is the
 * same account as the key typed clean, wherever the account is compared or derived from (an
 * outside read, round 12, found a pasted key taken for another).
 */
function accountOf(credential: RunCredential): string {
	return normaliseSecret(credential.data.apiKey);
}

/**
 * One HTTP exchange; a request that gets no answer becomes an error naming the failure, and the
 * report says whether it may have reached the service (a reset, a timeout) or never left n8n.
 */
async function send(
	ctx: ApiContext,
	request: ApiRequest,
	options: IHttpRequestOptions,
	credential: RunCredential,
): Promise<FullResponse> {
	const { baseUrl } = credential;
	const { itemIndex } = request;
	try {
		if (request.authenticated === false) {
			return (await ctx.helpers.httpRequest(options)) as FullResponse;
		}
		// n8n's authentication path: the credential's `authenticate` sets X-API-Key. It is handed
		// the credential read once for this run, so n8n does not load and decrypt it per request.
		// A copy: n8n writes the header into the options it is given.
		return (await ctx.helpers.httpRequestWithAuthentication.call(
			ctx,
			CREDENTIAL_NAME,
			{ ...options, headers: { ...options.headers } },
			{ credentialsDecrypted: credential.decrypted },
		)) as FullResponse;
	} catch (error) {
		// No HTTP answer: keep the code and messages, never the request (it holds the key).
		const failure = networkFailure(error);
		const what = `${request.method} ${baseUrl}${shownPath(request)} got no answer: ${failure.explanation}.`;
		const code = failure.code ? [`Error code: ${failure.code}`] : [];
		request.report?.attempts.push({
			sent: failure.maybeSent,
			explanation: failure.explanation,
			lines: [what, ...code],
		});
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
		throw unreached;
	}
}

/** The error of a non-2xx answer, with the service's errorCode, message, details and requestId. */
function failure(
	ctx: ApiContext,
	request: ApiRequest,
	response: FullResponse,
	credential: RunCredential,
	itemIndex: number | undefined,
	{ gaveUp }: { gaveUp?: string } = {},
): NodeApiError {
	const parsed = parseBody(response.body);
	const body = gateErrorBody(ctx, parsed.ok ? parsed.value : parsed.text);
	if (request.report) Object.assign(request.report, { shownBody: body, gaveUp });
	const error = serviceError(
		ctx.getNode(),
		response.statusCode,
		body,
		response.headers,
		itemIndex,
		request.explain,
		request.explainStatus,
		credential.where,
	);
	if (gaveUp) error.description = [error.description, gaveUp].filter(Boolean).join(LINE_BREAK);
	return error;
}

function shownPath(request: ApiRequest): string {
	return request.shownPath ?? request.path;
}

/** What an error says of a 2xx body that is not JSON: its size and first character, no text. */
function unreadableBody(text: string): string {
	const first = text.trimStart().charAt(0);
	return `Body: ${text.length} characters starting with "${first}", not shown (a successful answer may carry secrets)`;
}

/** What the credential of this run authenticates with, at which base URL, as errors name it. */
export async function runAccount(
	ctx: ApiContext,
	itemIndex?: number,
): Promise<{ baseUrl: string; account: string; where: string }> {
	const credential = await runCredential(ctx, itemIndex);
	return { baseUrl: credential.baseUrl, account: accountOf(credential), where: credential.where };
}

/**
 * The only place that talks HTTP to the service. JSON in and out; any non-2xx answer becomes a
 * NodeApiError carrying the service's errorCode, message, details, required and requestId. A call
 * is sent again only where its `repeat` (or being a read) allows, and what happened goes into its
 * `report` when it has one.
 */
export async function apiRequest(this: ApiContext, request: ApiRequest): Promise<unknown> {
	return await exchange.call(this, request);
}

/** One call: sent, re-sent where allowed, and its answer read. */
async function exchange(this: ApiContext, request: ApiRequest): Promise<unknown> {
	const { itemIndex, report } = request;
	const credential = await runCredential(this, itemIndex);
	const { baseUrl } = credential;
	if (report) report.where = credential.where;
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
		// Taken before the send and after the whole answer (they bound the service's clock): any
		// delay in between (upload, the service's work, a body sent late, this event loop) only
		// widens the interval the service's clock is known to lie in, never moves it.
		const sentLocal = Date.now();
		response = await send(this, request, options, credential);
		const answeredLocal = Date.now();
		learnFromAnswer(this, response.body);
		const status = response.statusCode;
		const answered = parseBody(response.body);
		const body = answered.ok ? answered.value : answered.text;
		const { headers } = response;
		report?.attempts.push({
			sent: true,
			status,
			body,
			readable: answered.ok,
			headers,
			sentLocal,
			answeredLocal,
		});
		if (!RETRY_STATUSES.includes(status)) break;
		if (!isRetryable(request, status, body)) break;
		const askedMs = retryAfterMs(response.headers, retryClock.now());
		const delay = Math.max(askedMs ?? backoffMs(attempts - 1), RETRY_BACKOFF.minMs);
		const overBudget = waitedMs + delay > budgetMs;
		if (overBudget || attempts >= RETRY_BACKOFF.maxAttempts) {
			const line = gaveUpLine({ attempts, waitedMs, budgetMs, askedMs, capped: !overBudget });
			throw failure(this, request, response, credential, itemIndex, { gaveUp: line });
		}
		if (askedMs !== undefined) {
			limiter.holdUntil = Math.max(limiter.holdUntil, retryClock.now() + askedMs);
		}
		// Cancelled while waiting to repeat: n8n's own cancellation, said in the report.
		await retryClock.sleep(delay, signal).catch((cancelled: Error) => {
			if (report) report.cancelled = true;
			throw cancelled;
		});
		waitedMs += delay;
	}
	const status = response.statusCode;
	if (status >= 300 && status < 400) {
		throw redirectError(this, request, status, response.headers, credential.where, itemIndex);
	}
	if (status < 200 || status >= 300) {
		throw failure(this, request, response, credential, itemIndex);
	}
	const parsed = parseBody(response.body);
	// A successful answer that cannot be read may still hold what it answers (a card number and
	// CVV, a new member's API key): its text is never shown, only its size and first character.
	const unread = parsed.ok ? '' : unreadableBody(parsed.text);
	if (!parsed.ok && report) report.unread = unread;
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
