import type { INode, INodeParameters, INodeProperties, INodeTypes } from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';

import { CompanyPayments } from '../../nodes/CompanyPayments/CompanyPayments.node';
import {
	LEGACY_DEFAULTS_VERSION,
	READ_ONLY_DEFAULTS_VERSION,
	RESOURCE_LOCATOR_VERSION,
	resources,
	subtitle,
} from '../../nodes/CompanyPayments/resources';

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
	payment: ['resolveOutcome'],
	member: ['getMany', 'update', 'remove'],
	invite: ['create', 'getMany', 'revoke', 'preview', 'accept'],
	company: ['getProfile', 'updateProfile', 'regenerateApiKey', 'rotateWebhookSecret', 'login'],
};

const description = new CompanyPayments().description;
const properties = description.properties;

/** Operations a resource may preselect: they only read, and reveal nothing sensitive. */
const READ_ONLY_DEFAULTS = ['get', 'getMany', 'getBalance', 'getProfile', 'resolveOutcome'];

/** What version 1 preselected; its saved workflows rely on it. Never change this table. */
const VERSION_1_DEFAULTS: Record<string, string> = {
	order: 'pay',
	dispute: 'create',
	companyWallet: 'getBalance',
	userWallet: 'createOrGet',
	member: 'getMany',
	invite: 'create',
	company: 'getProfile',
	card: 'request',
	payout: 'get',
};

/** The operation n8n fills in for a node saved with these parameters, the way it loads one. */
function preselected(parameters: INodeParameters, typeVersion: number): unknown {
	const node: INode = {
		id: 'node-1',
		name: 'Company Payments',
		type: 'n8n-nodes-company-payments.companyPayments',
		typeVersion,
		position: [0, 0],
		parameters,
	};
	return NodeHelpers.getNodeParameters(properties, parameters, true, false, node, description)
		?.operation;
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
		'resource %s preselects a read-only operation in new nodes, so picking it and executing moves no money',
		(resource) => {
			const chosen = String(preselected({ resource }, READ_ONLY_DEFAULTS_VERSION));
			const operation = resources
				.find((candidate) => candidate.value === resource)
				?.operations.find((candidate) => candidate.value === chosen);
			expect(operation?.concurrent).toBe(true);
			expect(READ_ONLY_DEFAULTS).toContain(chosen);
		},
	);

	it('starts a new node (no parameters) on a read-only operation', () => {
		expect(READ_ONLY_DEFAULTS).toContain(preselected({}, READ_ONLY_DEFAULTS_VERSION));
	});

	it.each(Object.entries(VERSION_1_DEFAULTS))(
		'keeps what a saved version 1 node of resource %s left implicit (%s), so its workflow does the same',
		(resource, operation) => {
			expect(preselected({ resource }, LEGACY_DEFAULTS_VERSION)).toBe(operation);
		},
	);

	it('keeps an operation that a saved workflow states, in every version', () => {
		for (const version of [
			LEGACY_DEFAULTS_VERSION,
			READ_ONLY_DEFAULTS_VERSION,
			RESOURCE_LOCATOR_VERSION,
		]) {
			expect(preselected({ resource: 'card', operation: 'request' }, version)).toBe('request');
			expect(preselected({ resource: 'order', operation: 'getMany' }, version)).toBe('getMany');
		}
	});

	it('names every action in one style: sentence case, no "the", at most six words, all distinct', () => {
		const actions = resources.flatMap((resource) =>
			resource.operations.map((operation) => operation.action),
		);
		expect(new Set(actions).size).toBe(actions.length);
		for (const action of actions) {
			const [first, ...rest] = action.split(' ');
			expect(first).toMatch(/^[A-Z][a-z]+$/);
			for (const word of rest) expect(word).toMatch(/^([a-z]+|API|CVV|QR)$/);
			expect(rest).not.toContain('the');
			expect(rest.length).toBeLessThan(6);
		}
	});

	it.each(resources.flatMap((r) => r.operations.map((o) => [r.value, o.value, o.action])))(
		'shows %s.%s on the canvas as its action "%s", not its internal values',
		(resource, operation, action) => {
			const node: INode = {
				id: 'node-1',
				name: 'Company Payments',
				type: 'n8n-nodes-company-payments.companyPayments',
				typeVersion: 1,
				position: [0, 0],
				parameters: { resource, operation },
			};
			const type = new CompanyPayments();
			const nodeTypes = {
				getByName: () => type,
				getByNameAndVersion: () => type,
				getKnownTypes: () => ({}),
			} as unknown as INodeTypes;
			const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
			expect(workflow.expression.getSimpleParameterValue(node, subtitle, 'internal', {})).toBe(
				action,
			);
		},
	);

	it('keeps every placeholder short enough to show uncut in the panel (40 characters after "e.g. ")', () => {
		const long: string[] = [];
		const walk = (list: INodeProperties[]) => {
			for (const property of list) {
				// The example after n8n's "e.g. " (panel-texts.test.ts) is what must show whole: a UUID is 36.
				const example =
					typeof property.placeholder === 'string'
						? property.placeholder.replace(/^e\.g\. /, '')
						: '';
				if (example.length > 40) long.push(`${property.name}: ${property.placeholder}`);
				const nested = (property.options ?? []).filter(
					(option): option is INodeProperties => 'displayName' in option,
				);
				walk(nested);
			}
		};
		walk(properties);
		expect(long).toEqual([]);
	});

	it('gives new nodes the newest version (read-only defaults, resource locators), and the action subtitle', () => {
		expect(description.version).toEqual([
			LEGACY_DEFAULTS_VERSION,
			READ_ONLY_DEFAULTS_VERSION,
			RESOURCE_LOCATOR_VERSION,
		]);
		expect(preselected({}, RESOURCE_LOCATOR_VERSION)).toBe(
			preselected({}, READ_ONLY_DEFAULTS_VERSION),
		);
		expect(description.subtitle).toBe(subtitle);
	});
});
