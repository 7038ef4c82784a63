import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

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
				'Which environment this key belongs to. Production and staging have separate base URLs and separate keys.',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://payments.example.com/api',
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
			placeholder: 'whsec_…',
			description:
				'Optional. Secret the service signs webhooks with (whsec_ followed by 48 hex characters). Used only by the Company Payments Trigger to verify X-Service-Signature.',
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				'X-API-Key': '={{$credentials.apiKey}}',
			},
		},
	};

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: '/auth/company/profile',
			method: 'GET',
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message:
						'The service rejected the API key: it is unknown or was replaced (a company login or "regenerate key" makes the old key stop working), the member who owns it was removed, or the company is disabled.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message:
						'The API key is valid but may not read the company profile. Use a key with more permissions, or a company key.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message:
						'Nothing answers at this Base URL plus /auth/company/profile. Check the Base URL for the chosen environment.',
				},
			},
		],
	};
}
