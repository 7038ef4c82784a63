import type { IAuthenticateRuleResponseSuccessBody, ICredentialTestRequest } from 'n8n-workflow';

import { ENDPOINTS } from './contract/endpoints';
import { ERROR_ACTIONS } from './transport/errorActions';
import { ERROR_EXPLANATIONS } from './transport/errorCodes';

/** The endpoint the credential test reads: any working key may read the company profile. */
export const CREDENTIAL_TEST_PATH = ENDPOINTS.profile;

/** How long the credential test waits for an answer. */
const TEST_TIMEOUT_MS = 15_000;

/** The errorCodes a key can get from reading the profile, each named in the dialog as the node names it. */
export const TEST_ERROR_CODES = [
	'INVALID_API_KEY',
	'NO_COMPANY_MEMBERSHIP',
	'COMPANY_INACTIVE',
	'AUTH_REQUIRED',
	'SESSION_INVALID',
	'PERMISSION_DENIED',
] as const;

const WRONG_BASE_URL = `Nothing at this Base URL answers GET ${CREDENTIAL_TEST_PATH} like the Company Payments API (a web page, a redirect or another service answered): check the Base URL of the chosen Environment, including any path prefix such as /api`;

/**
 * What the dialog says for an error body of the service without one of TEST_ERROR_CODES, by the
 * body's `statusCode` (the document's error body always carries it).
 */
export const TEST_STATUS_ANSWERS: Readonly<Record<number, string>> = {
	401: 'The service rejected the API key (HTTP 401): it is unknown or was replaced, its member was removed, or the company is disabled. Paste the current key of a current member',
	403: 'The API key may not read the company profile (HTTP 403). Operations allowed to this key will work; give its member more permissions, or use a company key',
	404: WRONG_BASE_URL,
	405: WRONG_BASE_URL,
	429: 'Too many requests: the service asks to slow down; test again in a moment',
	500: 'The service failed (HTTP 500); test again later',
	502: 'The service or a proxy in front of it failed (HTTP 502); test again later',
	503: 'The service is unavailable (HTTP 503); test again later',
	504: 'The service did not answer a proxy in time (HTTP 504); test again later',
};

function rule(key: string, value: unknown, message: string): IAuthenticateRuleResponseSuccessBody {
	return { type: 'responseSuccessBody', properties: { key, value, message } };
}

/**
 * The credential's test, run by n8n behind the editor's "Test" button: GET the company profile
 * at the Base URL with the key the credential's `authenticate` sets, through n8n's own HTTP
 * helpers; redirects are not followed, so the key never goes to another host.
 *
 * n8n applies a `test` request's status rules only when the failed request's error carries the
 * HTTP response, which n8n 2.8.4 and 2.41.1 do not (they show "Authorization failed - please
 * check your credentials"): so the request keeps every answer (`ignoreHttpStatusErrors`) and the
 * rules read its body, which n8n hands them (`responseSuccessBody`, checked in order, the first
 * match is the error): the service's errorCode, else its error body's statusCode, else a body
 * that is no JSON at all (a web page, a redirect's empty body). Any other JSON object is taken
 * as the profile.
 */
export const CREDENTIAL_TEST: ICredentialTestRequest = {
	request: {
		baseURL: '={{String($credentials.baseUrl).trim().replace(/\\/+$/, "")}}',
		url: CREDENTIAL_TEST_PATH,
		method: 'GET',
		headers: { Accept: 'application/json' },
		json: true,
		ignoreHttpStatusErrors: true,
		disableFollowRedirect: true,
		timeout: TEST_TIMEOUT_MS,
	},
	rules: [
		...TEST_ERROR_CODES.map((code) =>
			rule('errorCode', code, `${code}: ${ERROR_EXPLANATIONS[code]}. ${ERROR_ACTIONS[code]}`),
		),
		...Object.entries(TEST_STATUS_ANSWERS).map(([status, message]) =>
			rule('statusCode', Number(status), message),
		),
		// A body n8n could not read as JSON reaches the rules as a string (lodash `get` reads the
		// string's constructor): a web page, a proxy's error page or a redirect's empty body.
		rule('constructor.name', 'String', WRONG_BASE_URL),
	],
};
