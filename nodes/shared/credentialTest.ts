import type {
	IAuthenticateRuleResponseCode,
	IAuthenticateRuleResponseSuccessBody,
	ICredentialTestRequest,
} from 'n8n-workflow';

import { ENDPOINTS } from './contract/endpoints';

/** The endpoint the credential test reads: any working key may read the company profile. */
export const CREDENTIAL_TEST_PATH = ENDPOINTS.profile;

/** How long the credential test waits for an answer. */
const TEST_TIMEOUT_MS = 15_000;

/** The errorCodes a key can get from reading the profile, named in the dialog by the status they come with. */
export const TEST_ERROR_CODES = [
	'INVALID_API_KEY',
	'NO_COMPANY_MEMBERSHIP',
	'COMPANY_INACTIVE',
	'AUTH_REQUIRED',
	'SESSION_INVALID',
	'PERMISSION_DENIED',
] as const;

const wrongBaseUrl = (what: string): string =>
	`${what}: nothing at this Base URL answers GET ${CREDENTIAL_TEST_PATH} like the Company Payments API. Check the Base URL of the chosen Environment, including any path prefix such as /api`;

const later = (status: number, what: string): string =>
	`HTTP ${status}: ${what}; the key was not checked. Test again later`;

/**
 * What the dialog says for each HTTP status of a failed test. n8n hands its status rules the
 * status only, never the body, so each message names the status and every errorCode of
 * TEST_ERROR_CODES that comes with it (a gateway in front of the service answers the same
 * statuses without them).
 */
export const TEST_STATUS_ANSWERS: Readonly<Record<number, string>> = {
	301: wrongBaseUrl('HTTP 301 (a redirect, not followed with the key)'),
	302: wrongBaseUrl('HTTP 302 (a redirect, not followed with the key)'),
	303: wrongBaseUrl('HTTP 303 (a redirect, not followed with the key)'),
	307: wrongBaseUrl('HTTP 307 (a redirect, not followed with the key)'),
	308: wrongBaseUrl('HTTP 308 (a redirect, not followed with the key)'),
	400: wrongBaseUrl('HTTP 400 (the request was refused as malformed)'),
	401: 'HTTP 401: the API key was refused (the service says INVALID_API_KEY, NO_COMPANY_MEMBERSHIP, COMPANY_INACTIVE, AUTH_REQUIRED or SESSION_INVALID: the key is unknown or was replaced, its member was removed, or the company is disabled; or a gateway in front of it refused the key). Paste the current key of a current member',
	403: 'HTTP 403: the key may not read the company profile (the service says PERMISSION_DENIED, or a gateway or firewall in front of it refused the request). Operations allowed to this key may still work; give its member more permissions, or use a company key',
	404: wrongBaseUrl('HTTP 404'),
	405: wrongBaseUrl('HTTP 405'),
	407: 'HTTP 407: a proxy between n8n and the service asks for its own credentials; the key was not checked',
	408: later(408, 'the request timed out'),
	429: later(429, 'too many requests, the service or a gateway asks to slow down'),
	500: later(500, 'the service or a proxy in front of it failed'),
	502: later(502, 'a proxy in front of the service failed'),
	503: later(503, 'the service is unavailable'),
	504: later(504, 'the service did not answer a proxy in time'),
};

/** The statuses an HTTP answer can carry: three digits (Node's HTTP parser reads 100 to 999). */
const FIRST_STATUS = 100;
const LAST_STATUS = 999;

/**
 * What the dialog says for a failed test's status: its message in TEST_STATUS_ANSWERS, else one
 * written for its class. Never the answer's reason phrase or body, which n8n would show for a
 * status without a rule and which a gateway may fill with anything, the key it was sent
 * included (outside read r21-data, finding 2); always the status, by its number.
 */
export function testStatusAnswer(status: number): string {
	const written = TEST_STATUS_ANSWERS[status];
	if (written !== undefined) return written;
	// Short: n8n hands every rule to the editor with the credential type (800 of them).
	if (status < 200) return `HTTP ${status}: an interim answer, not the company profile; test again`;
	if (status < 400) {
		return `HTTP ${status}: not the company profile (not followed with the key); check the Base URL of the chosen Environment`;
	}
	if (status < 500) {
		return `HTTP ${status}: the service or a gateway refused the request (no explanation for this status); check the Base URL and the key`;
	}
	if (status < 600) return later(status, 'the service or a proxy in front of it failed');
	return `HTTP ${status}: not a status HTTP defines; check the Base URL of the chosen Environment`;
}

/** Every status outside 2xx an answer can carry, each with its message: n8n shows no reason phrase. */
function failedStatuses(): Array<[number, string]> {
	const statuses: Array<[number, string]> = [];
	for (let status = FIRST_STATUS; status <= LAST_STATUS; status++) {
		if (status < 200 || status > 299) statuses.push([status, testStatusAnswer(status)]);
	}
	return statuses;
}

function statusRule(status: number, message: string): IAuthenticateRuleResponseCode {
	return { type: 'responseCode', properties: { value: status, message } };
}

function bodyRule(
	key: string,
	value: unknown,
	message: string,
): IAuthenticateRuleResponseSuccessBody {
	return { type: 'responseSuccessBody', properties: { key, value, message } };
}

/**
 * The credential's test, run by n8n behind the editor's "Test" button: GET the company profile
 * at the Base URL with the key the credential's `authenticate` sets (which first refuses a
 * credential whose Environment and Base URL do not fit, before anything is sent), through n8n's
 * own HTTP helpers; redirects are not followed, so the key never goes to another host.
 *
 * Every answer outside 2xx fails the test: the request keeps n8n's status check (no
 * `ignoreHttpStatusErrors`), so no body, not even a gateway's `{"message":"Unauthorized"}`,
 * can pass for the profile. Every such status, 100 to 999, has a rule (testStatusAnswer): for a
 * status without one, n8n shows the answer's reason phrase as the result, whatever a gateway
 * wrote there (the key it was sent, in outside read r21-data's gateway), and "Conflict" names
 * no status. n8n applies the status rules only when its error keeps the HTTP
 * response: n8n 2.41.1 does and shows the messages above; n8n 2.8.4's error classes drop it
 * (`ExecutionBaseError` redeclares `cause`), so 2.8.4 shows its own text for the status
 * (e.g. "Authorization failed - please check your credentials"), still as a failed test, and
 * no reason phrase either (test/e2e/credential.test.mjs, on 2.8.4 and 2.41.1). The
 * body rule reads a 2xx answer: a body n8n could not read as JSON (a web page) reaches it as a
 * string (lodash `get` reads the string's constructor).
 */
export const CREDENTIAL_TEST: ICredentialTestRequest = {
	request: {
		baseURL: '={{String($credentials.baseUrl).trim().replace(/\\/+$/, "")}}',
		url: CREDENTIAL_TEST_PATH,
		method: 'GET',
		headers: { Accept: 'application/json' },
		json: true,
		disableFollowRedirect: true,
		timeout: TEST_TIMEOUT_MS,
	},
	// n8n's tester reads both kinds from one list (responseCode rules for a failed request,
	// responseSuccessBody rules for a 2xx answer: credentials-tester.service in n8n 2.8.4 and
	// 2.41.1), while n8n-workflow types the list as one kind or the other.
	rules: [
		...failedStatuses().map(([status, message]) => statusRule(status, message)),
		bodyRule('constructor.name', 'String', wrongBaseUrl('A web page answered')),
	] as unknown as IAuthenticateRuleResponseCode[],
};
