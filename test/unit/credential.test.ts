import { CompanyPaymentsApi } from '../../credentials/CompanyPaymentsApi.credentials';
import { CompanyPayments } from '../../nodes/CompanyPayments/CompanyPayments.node';
import { authenticate } from './helpers/n8n';

describe('credential companyPaymentsApi', () => {
	const credential = new CompanyPaymentsApi();

	it('has the fields the package documents, secrets as password fields', () => {
		const fields = Object.fromEntries(
			credential.properties.map((property) => [property.name, property]),
		);
		expect(Object.keys(fields)).toEqual(['environment', 'baseUrl', 'apiKey', 'webhookSecret']);
		expect(
			fields.environment.options?.map((option) => (option as { value: string }).value),
		).toEqual(['production', 'staging']);
		expect(fields.apiKey.typeOptions?.password).toBe(true);
		expect(fields.webhookSecret.typeOptions?.password).toBe(true);
		expect(fields.webhookSecret.required).toBeFalsy();
	});

	it('sends the key as X-API-Key', () => {
		const options = authenticate({ url: 'https://x.test/orders' }, { apiKey: 'sk_dummy_key' });
		expect(options.headers).toEqual({ 'X-API-Key': 'sk_dummy_key' });
	});

	it('tests the key against the company profile and explains each failure', () => {
		expect(credential.test.request.url).toBe('/auth/company/profile');
		const messages = Object.fromEntries(
			(credential.test.rules ?? []).map((rule) => [
				(rule.properties as { value: number }).value,
				rule.properties.message,
			]),
		);
		expect(messages[401]).toMatch(/unknown or was replaced.*removed.*disabled/);
		expect(messages[403]).toBeDefined();
		expect(messages[404]).toMatch(/Base URL/);
	});

	it('is the credential of the action node', () => {
		const node = new CompanyPayments();
		expect(node.description.credentials).toEqual([{ name: 'companyPaymentsApi', required: true }]);
		expect(node.description.usableAsTool).toBe(true);
	});
});
