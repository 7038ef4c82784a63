import type {
	IAuthenticate,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { CREDENTIAL_TEST } from '../nodes/shared/credentialTest';
import {
	credentialMismatch,
	normaliseSecret,
	underBaseUrl,
	unsendableApiKey,
} from '../nodes/shared/transport/environment';

/**
 * The whole URL of a request as n8n hands it to `authenticate`: `url` (or the legacy `uri`),
 * read against `baseURL` when it is relative (the credential test's request).
 */
function requestUrl(options: IHttpRequestOptions): string {
	const legacy = options as IHttpRequestOptions & { uri?: unknown };
	const url = typeof options.url === 'string' ? options.url : legacy.uri;
	if (typeof url !== 'string') return '';
	if (/^[a-z][a-z0-9+.-]*:/i.test(url) || typeof options.baseURL !== 'string') return url;
	return `${options.baseURL.replace(/\/+$/, '')}/${url.replace(/^\/+/, '')}`;
}

/** The credential's section of the package's README, as npm and the editor open it. */
const DOCS = 'https://www.npmjs.com/package/n8n-nodes-company-payments#credential';

/**
 * One credential per company key and environment. It authenticates every call of the
 * Company Payments node, the trigger's webhook registration, and, for endpoints the node
 * does not cover, n8n's HTTP Request node ("Predefined Credential Type").
 */
export class CompanyPaymentsApi implements ICredentialType {
	name = 'companyPaymentsApi';

	displayName = 'Company Payments API';

	icon: Icon = {
		light: 'file:../icons/companyPayments.svg',
		dark: 'file:../icons/companyPayments.dark.svg',
	};

	documentationUrl = 'https://www.npmjs.com/package/n8n-nodes-company-payments#credential';

	properties: INodeProperties[] = [
		{
			displayName: 'Environment',
			name: 'environment',
			type: 'options',
			options: [
				{ name: 'Production', value: 'production' },
				{ name: 'Staging', value: 'staging' },
			],
			default: 'production',
			description:
				'Which environment of the service the key and Base URL belong to. It is named in every error; Production needs an https Base URL that is not local and does not name staging, test or sandbox.',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. https://payments.example.com/api',
			description:
				'The {base_url} of the chosen environment, as given by your account manager. Requests go to this URL plus the endpoint path, e.g. /orders/prepare.',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'Company or member API key, sent in the X-API-Key header. A member key can do only what its permissions allow. Logging in or regenerating the key makes the old key stop working.',
		},
		{
			displayName: 'Webhook Secret',
			name: 'webhookSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			placeholder: 'e.g. whsec_0123…',
			description:
				'Optional. Secret the service signs webhooks with (whsec_ followed by 48 hex characters). Used only by the Company Payments Trigger to verify X-Service-Signature.',
		},
		{
			displayName: 'Previous Webhook Secret',
			name: 'previousWebhookSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			placeholder: 'e.g. whsec_0123…',
			description:
				'Accepted by the trigger alongside the current secret until you clear it. Set it only while the service may still retry deliveries signed with the old one.',
		},
		{
			displayName: 'Longest Wait on Rate Limits (Seconds)',
			name: 'maxRetryWaitSeconds',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 60,
			description: `Longest total wait of one call on 429 or 502-504 (at most 8 sends; 0: none). Reads and replayed writes are resent, other money writes only on the service's 429. <a href="${DOCS}">Details</a>`,
		},
	];

	/**
	 * Sends the API key as X-API-Key, for every request n8n authenticates with this credential:
	 * this package's nodes (httpRequestWithAuthentication), the HTTP Request node ("Predefined
	 * Credential Type") and the test below; only to a URL under the Base URL (the same scheme,
	 * host and port, a path at or below it). A request to any other URL gets nothing added (outside
	 * read r9-data, finding 3). A request that carries the key never follows a redirect (either
	 * option shape n8n uses: disableFollowRedirect; followRedirect and followAllRedirects), so the
	 * key cannot travel on to a Location on another host: the 3xx answer comes back as it is.
	 * The key is sent trimmed (transport/environment.ts normaliseSecret), as the Base URL is.
	 *
	 * A function rather than the generic `headers` object: n8n calls a function as it is, while
	 * it resolves the object's `={{$credentials.apiKey}}` expression on every request, which on
	 * n8n 2.36 and later runs in its expression sandbox (measured with bench/authenticate.mjs:
	 * 0.23–0.31 ms per request on n8n 2.41.1, 0.07–0.12 ms on 2.8.4, under 5 µs for the function;
	 * bench/README.md).
	 */
	authenticate: IAuthenticate = async (credentials, requestOptions) => {
		// A credential the nodes refuse (a production key to plain http, a local or staging host)
		// is refused here too, before the key is set: for the credential's Test and the HTTP
		// Request node, which have no other check. n8n shows the message as the test's result.
		const unfit = credentialMismatch(credentials.environment, credentials.baseUrl);
		if (unfit !== undefined) throw new Error(unfit);
		if (!underBaseUrl(requestUrl(requestOptions), credentials.baseUrl)) return requestOptions;
		const unsendable = unsendableApiKey(credentials.apiKey);
		if (unsendable !== undefined) {
			throw new Error(
				`${unsendable}: open the Company Payments API credential and paste the key again. Nothing was sent.`,
			);
		}
		const legacy = requestOptions as IHttpRequestOptions & {
			uri?: string;
			followRedirect?: boolean;
			followAllRedirects?: boolean;
		};
		return {
			...requestOptions,
			headers: { ...requestOptions.headers, 'X-API-Key': normaliseSecret(credentials.apiKey) },
			disableFollowRedirect: true,
			...(legacy.uri !== undefined || legacy.followRedirect !== undefined
				? { followRedirect: false, followAllRedirects: false }
				: {}),
		};
	};

	test: ICredentialTestRequest = CREDENTIAL_TEST;
}
