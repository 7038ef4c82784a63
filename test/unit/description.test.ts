import type { INodeProperties } from 'n8n-workflow';

import { CompanyPayments } from '../../nodes/CompanyPayments/CompanyPayments.node';
import { resources } from '../../nodes/CompanyPayments/resources';

/** Resource and operation values are part of saved workflows: they must never change. */
const EXPECTED: Record<string, string[]> = {
	order: ['prepare', 'accept', 'pay', 'get', 'getMany'],
	dispute: ['create', 'getMany'],
	companyWallet: ['getAddress', 'getBalance', 'getDeposits', 'getBalanceHistory'],
	userWallet: ['createOrGet', 'getMany', 'getBlocked', 'block', 'replace', 'getDeposits'],
	card: [
		'request',
		'get',
		'getMany',
		'getBalance',
		'getSensitiveData',
		'getRechargeQuote',
		'recharge',
	],
	payout: ['get', 'cancel', 'create', 'getMany'],
	member: ['getMany', 'update', 'remove'],
	invite: ['create', 'getMany', 'revoke', 'preview', 'accept'],
	company: ['getProfile', 'updateProfile', 'regenerateApiKey', 'rotateWebhookSecret', 'login'],
};

const properties = new CompanyPayments().description.properties;

/** Operations a resource may preselect: they only read, and reveal nothing sensitive. */
const READ_ONLY_DEFAULTS = ['get', 'getMany', 'getBalance', 'getProfile'];

function selectorOf(resource: string): INodeProperties | undefined {
	return properties.find(
		(property) =>
			property.name === 'operation' && property.displayOptions?.show?.resource?.[0] === resource,
	);
}

function values(property: INodeProperties | undefined): string[] {
	return (property?.options ?? []).map((option) => String((option as { value: string }).value));
}

describe('node description', () => {
	it('offers exactly the documented resources', () => {
		const resource = properties.find((property) => property.name === 'resource');
		expect(values(resource).sort()).toEqual(Object.keys(EXPECTED).sort());
	});

	it.each(Object.entries(EXPECTED))(
		'resource %s offers exactly its operations',
		(resource, operations) => {
			const selector = properties.find(
				(property) =>
					property.name === 'operation' &&
					property.displayOptions?.show?.resource?.[0] === resource,
			);
			expect(values(selector).sort()).toEqual([...operations].sort());
			expect(operations).toContain(selector?.default);
		},
	);

	it('shows every operation field only for its own resource and operation', () => {
		const fields = properties.filter(
			(property) => !['resource', 'operation'].includes(property.name),
		);
		for (const field of fields) {
			const show = field.displayOptions?.show ?? {};
			expect(show.resource).toHaveLength(1);
			expect(show.operation).toHaveLength(1);
			expect(EXPECTED[String(show.resource?.[0])]).toContain(show.operation?.[0]);
		}
	});

	it('lists operations alphabetically with an action label each', () => {
		for (const selector of properties.filter((property) => property.name === 'operation')) {
			const names = (selector.options ?? []).map((option) => (option as { name: string }).name);
			expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
			for (const option of selector.options ?? [])
				expect((option as { action?: string }).action).toBeTruthy();
		}
	});

	it.each(Object.keys(EXPECTED))(
		'resource %s preselects a read-only operation, so picking it and executing moves no money',
		(resource) => {
			const chosen = String(selectorOf(resource)?.default);
			const operation = resources
				.find((candidate) => candidate.value === resource)
				?.operations.find((candidate) => candidate.value === chosen);
			expect(operation?.readOnly).toBe(true);
			expect(READ_ONLY_DEFAULTS).toContain(chosen);
		},
	);

	it('starts a new node on a read-only operation', () => {
		const resource = String(properties.find((property) => property.name === 'resource')?.default);
		expect(READ_ONLY_DEFAULTS).toContain(selectorOf(resource)?.default);
	});
});
