import type { ICredentialTestRequest, IAuthenticateRuleResponseCode } from 'n8n-workflow';

import { ENDPOINTS } from './contract/endpoints';

/** The endpoint the credential test reads: any working key may read the company profile. */
export const CREDENTIAL_TEST_PATH = ENDPOINTS.profile;

/** How long the credential test waits for an answer. */
const TEST_TIMEOUT_MS = 15_000;

const WRONG_BASE_URL = `Nothing at this Base URL answers GET ${CREDENTIAL_TEST_PATH}: check the Base URL of the chosen Environment, including any path prefix such as /api`;

const REDIRECT =
	'The Base URL redirects instead of answering (the key was not sent on): enter the address the service answers at directly';

/**
 * What the credential dialog says for each HTTP status of the test request. n8n's `test` rules
 * read the status only (not the body), so a status stands for every errorCode the service
 * answers it with; the node's own errors name the errorCode at run time.
 */
export const TEST_ANSWERS: Readonly<Record<number, string>> = {
	301: REDIRECT,
	302: REDIRECT,
	303: REDIRECT,
	307: REDIRECT,
	308: REDIRECT,
	401: 'The service rejected the API key (HTTP 401): it is unknown or was replaced (a company login or "regenerate key" makes the old key stop working), its member was removed from the company, or the company is disabled. Paste the current key of a current member',
	403: 'The API key works but may not read the company profile (HTTP 403): operations allowed to this key will work. Give its member more permissions, or use a company key',
	404: WRONG_BASE_URL,
	405: WRONG_BASE_URL,
	429: 'Too many requests: the service asks to slow down; test again in a moment',
	500: 'The service failed (HTTP 500); test again later',
	502: 'The service or a proxy in front of it failed (HTTP 502); test again later',
	503: 'The service is unavailable (HTTP 503); test again later',
	504: 'The service did not answer a proxy in time (HTTP 504); test again later',
};

/**
 * The credential's test, run by n8n behind the editor's "Test" button: GET the company profile
 * at the Base URL with the key the credential's `authenticate` sets, through n8n's own HTTP
 * helpers. Redirects are not followed, so the key never goes to another host.
 */
export const CREDENTIAL_TEST: ICredentialTestRequest = {
	request: {
		baseURL: '={{String($credentials.baseUrl).trim().replace(/\\/+$/, "")}}',
		url: CREDENTIAL_TEST_PATH,
		method: 'GET',
		headers: { Accept: 'application/json' },
		disableFollowRedirect: true,
		timeout: TEST_TIMEOUT_MS,
	},
	rules: Object.entries(TEST_ANSWERS).map(
		([status, message]): IAuthenticateRuleResponseCode => ({
			type: 'responseCode',
			properties: { value: Number(status), message },
		}),
	),
};
