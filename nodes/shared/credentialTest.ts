import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IDataObject,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { gateLocation, gateText, learnFromAnswer, rememberCredential } from './gate';
import { environmentLabel, environmentMismatch, environmentOf } from './transport/environment';
import { networkFailure } from './transport/network';
import { readServiceError } from './transport/serviceError';
import { ENDPOINTS } from './contract/endpoints';
import { isObject } from './contract/guards';

/** The endpoint the credential test reads: any working key may read the company profile. */
export const CREDENTIAL_TEST_PATH = ENDPOINTS.profile;

/** How long the credential test waits for an answer. */
const TEST_TIMEOUT_MS = 15_000;

/** Name of the test in the nodes' `credentials[].testedBy` and `methods.credentialTest`. */
export const CREDENTIAL_TEST_NAME = 'companyPaymentsApiTest';

interface TestResponse {
	statusCode: number;
	body: unknown;
}

function parse(body: unknown): unknown {
	if (typeof body !== 'string') return body;
	try {
		return JSON.parse(body) as unknown;
	} catch {
		return body;
	}
}

/** The service's error body has errorCode and/or statusCode; anything else is not this service. */
function isServiceErrorBody(body: unknown): body is IDataObject {
	return (
		isObject(body) && (typeof body.errorCode === 'string' || typeof body.statusCode === 'number')
	);
}

/** A failed test as the credential dialog shows it: through the gate, like every other door. */
function error(message: string, run?: object): INodeCredentialTestResult {
	return { status: 'Error', message: gateText(run, message) };
}

/** What the user should read for a non-2xx answer of the service, by errorCode then status. */
export function explainTestAnswer(statusCode: number, body: unknown, where: string): string {
	const info = readServiceError(statusCode, body);
	const said = [
		info.serviceMessage ? `Service message: ${info.serviceMessage}` : '',
		info.requestId ? `Request ID: ${info.requestId}` : '',
	]
		.filter((part) => part !== '')
		.join('. ');
	const tail = said ? ` (${said})` : '';
	switch (info.errorCode) {
		case 'INVALID_API_KEY':
			return `The API key is unknown to ${where} or was replaced: a company login or "regenerate key" makes the old key stop working. Paste the current key${tail}`;
		case 'NO_COMPANY_MEMBERSHIP':
			return `The member who owns this API key was removed from the company, so the key no longer works. Use the key of a current member${tail}`;
		case 'COMPANY_INACTIVE':
			return `The company of this API key is disabled. Contact the service's support to re-enable it${tail}`;
		case 'AUTH_REQUIRED':
			return `No API key reached the service: the request arrived without X-API-Key (a proxy in between may drop it)${tail}`;
		case 'SESSION_INVALID':
			return `The service took the key for an expired or malformed session token. Use an API key${tail}`;
		case 'PERMISSION_DENIED':
			return `The API key works, but lacks the permission ${info.required ?? '(not named)'} needed to read the company profile. Operations allowed to this key will work; give the member that permission or use a key with more permissions${tail}`;
		default:
			break;
	}
	if (!isServiceErrorBody(body) && (statusCode === 404 || statusCode === 405)) {
		return `Nothing at this Base URL answers like the Company Payments API: GET ${CREDENTIAL_TEST_PATH} got HTTP ${statusCode} without the service's error body. Check the Base URL for ${where} (it includes any path prefix such as /api)`;
	}
	if (statusCode === 404) {
		return `The service at this Base URL has no ${CREDENTIAL_TEST_PATH} (HTTP 404): the Base URL's path is probably wrong. Check the Base URL for ${where}${tail}`;
	}
	if (statusCode === 401) {
		return `${where.charAt(0).toUpperCase()}${where.slice(1)} rejected the API key (HTTP 401): it is unknown or was replaced, its member was removed, or the company is disabled${tail}`;
	}
	if (statusCode === 403) {
		return `The API key may not read the company profile (HTTP 403). Use a key with more permissions, or a company key${tail}`;
	}
	if (statusCode === 429)
		return `Too many requests: the service asks to slow down; test again in a moment${tail}`;
	if (statusCode >= 500) return `The service failed (HTTP ${statusCode}); test again later${tail}`;
	return `The service answered HTTP ${statusCode} to GET ${CREDENTIAL_TEST_PATH}${tail}`;
}

/**
 * The credential test behind the editor's "Test" button. n8n's own rule-based test shows only
 * generic texts here (n8n 2.8 applies `test.rules` only when the error carries the HTTP
 * response, and it does not), so the nodes name this function in `testedBy`. It checks the
 * fields first, then calls GET /auth/company/profile and says why it failed: unknown or
 * replaced key, removed member, disabled company, missing permission, wrong Base URL (404 or
 * not this service), nothing listening, host not found, TLS failure, timeout.
 */
export async function companyPaymentsApiTest(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data: ICredentialDataDecryptedObject = credential.data ?? {};
	// The test's own run: what its answer names as a secret is known to its message only.
	const run = {};
	rememberCredential(data, run);
	const raw = typeof data.baseUrl === 'string' ? data.baseUrl.trim() : '';
	let url: URL;
	try {
		url = new URL(raw);
	} catch {
		return error(
			`Base URL must be an http(s) URL such as https://payments.example.com/api, got "${raw}"`,
		);
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:') {
		return error(`Base URL must start with http:// or https://, got "${raw}"`);
	}
	const environment = environmentOf(data.environment);
	const mismatch = environmentMismatch(environment, url);
	if (mismatch) return error(mismatch);
	const apiKey = typeof data.apiKey === 'string' ? data.apiKey.trim() : '';
	if (apiKey === '') return error('API Key is empty: paste the company or member API key');

	const baseUrl = raw.replace(/\/+$/, '');
	const where = `the ${environmentLabel(environment)} service at ${baseUrl}`;
	let response: TestResponse;
	try {
		// The test context's only HTTP helper is the deprecated `request`; fetch is what remains.
		// Redirects are not followed, so the key is never sent on to another host.
		const answer = await fetch(`${baseUrl}${CREDENTIAL_TEST_PATH}`, {
			method: 'GET',
			headers: { 'X-API-Key': apiKey, Accept: 'application/json' },
			redirect: 'manual',
			signal: AbortSignal.timeout(TEST_TIMEOUT_MS),
		});
		response = { statusCode: answer.status, body: await answer.text() };
		learnFromAnswer(run, response.body);
		const location = answer.headers.get('location');
		if (answer.status >= 300 && answer.status < 400) {
			return error(
				`The Base URL redirects (HTTP ${answer.status}${location ? ` to ${gateLocation(run, location)}` : ''}) instead of answering: enter the address the service answers at directly, for ${where}`,
				run,
			);
		}
	} catch (failed) {
		const failure = networkFailure(failed);
		const code = failure.code ? ` [${failure.code}]` : '';
		return error(`Could not reach ${where}: ${failure.explanation}${code}`);
	}
	const body = parse(response.body);
	if (response.statusCode >= 200 && response.statusCode < 300) {
		if (!isObject(body)) {
			return error(
				`The Base URL answers, but not like the Company Payments API: GET ${CREDENTIAL_TEST_PATH} returned no JSON object. Check the Base URL for ${where}`,
			);
		}
		return { status: 'OK', message: `Connected to ${where}` };
	}
	return error(explainTestAnswer(response.statusCode, body, where), run);
}
