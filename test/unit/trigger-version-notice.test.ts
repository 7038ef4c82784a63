import type { INode } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { CompanyPaymentsTrigger } from '../../nodes/CompanyPaymentsTrigger/CompanyPaymentsTrigger.node';

// Issue 39: n8n evaluates an expression for every start node saved at typeVersion 1 (its
// binaryData option), which no description change avoids, so the editor offers version 2 the
// way n8n's own nodes do: a notice shown on version 1 only.
const { description } = new CompanyPaymentsTrigger();

function notices(typeVersion: number): string[] {
	const node = { typeVersion } as INode;
	const parameters = { events: ['*'], routeByEvent: false, registerWebhook: false, options: {} };
	return description.properties
		.filter(
			(property) =>
				property.type === 'notice' &&
				NodeHelpers.displayParameter(parameters, property, node, description),
		)
		.map((property) => property.displayName);
}

describe('trigger version notice', () => {
	it('a version-1 trigger shows that a newer version is available', () => {
		expect(notices(1).some((text) => /New node version available/.test(text))).toBe(true);
	});

	it('the newest version, which new nodes get, does not', () => {
		expect(description.defaultVersion).toBe(2);
		expect(notices(2).some((text) => /New node version available/.test(text))).toBe(false);
	});
});
