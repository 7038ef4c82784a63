/**
 * Saved workflows are wired by output index. With "Route Events to Separate Outputs", a node
 * version's outputs must keep their meaning whatever events the contract gains later: adding an
 * event may not move "Other" or any existing output of a shipped version, and every event that
 * reached an output before still reaches it.
 */
import type { IDataObject, INode, INodeTypeDescription, INodeTypes } from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';

import { CompanyPaymentsTrigger } from '../../nodes/CompanyPaymentsTrigger/CompanyPaymentsTrigger.node';
import {
	ALL_EVENTS,
	configuredOutputs,
	OTHER_OUTPUT,
	OUTPUT_LAYOUT,
	OUTPUT_VERSIONS,
	OUTPUTS_EXPRESSION,
} from '../../nodes/CompanyPaymentsTrigger/events';
import type { OutputLayoutConfig } from '../../nodes/CompanyPaymentsTrigger/events';
import { EVENT_NAMES } from '../../nodes/shared/contract/events';

const description = new CompanyPaymentsTrigger().description;
const shippedVersions = ([] as number[]).concat(description.version);

/** The layout of a contract that gained `event` at `position` of its table. */
function layoutWith(event: string, position: number): OutputLayoutConfig {
	const events = [...OUTPUT_LAYOUT.events];
	events.splice(position, 0, event);
	return { ...OUTPUT_LAYOUT, events, labels: { ...OUTPUT_LAYOUT.labels, [event]: 'Frozen' } };
}

/** The parameter combinations a saved workflow can hold with routing on. */
function savedParameters(): IDataObject[] {
	const combos: IDataObject[] = [{ events: [ALL_EVENTS] }, { events: [] }];
	for (const event of EVENT_NAMES) combos.push({ events: [event] });
	combos.push({ events: [EVENT_NAMES[0], EVENT_NAMES[EVENT_NAMES.length - 1]] });
	combos.push({ events: [...EVENT_NAMES].reverse() });
	combos.push({ events: [ALL_EVENTS, EVENT_NAMES[1]] });
	return combos.map((parameters) => ({ ...parameters, routeByEvent: true }));
}

function labels(parameters: IDataObject, version: number, layout: OutputLayoutConfig): string[] {
	return configuredOutputs(parameters, version, layout).map((output) => output.displayName ?? '');
}

describe('outputs never move within a node version', () => {
	it('every shipped node version has a frozen list of routed events', () => {
		expect([...OUTPUT_VERSIONS]).toEqual(shippedVersions);
	});

	// Inserted first, in the middle, and appended: a contributor follows the document's order.
	const positions = [0, Math.floor(EVENT_NAMES.length / 2), EVENT_NAMES.length];
	for (const version of shippedVersions) {
		for (const position of positions) {
			it(`version ${version}: an event added at position ${position} of the table moves no output`, () => {
				const grown = layoutWith('card.frozen', position);
				for (const parameters of savedParameters()) {
					const before = labels(parameters, version, OUTPUT_LAYOUT);
					const after = labels(parameters, version, grown);
					// Every existing output keeps its index and label ("Other" included).
					expect({ parameters, outputs: after.slice(0, before.length) }).toEqual({
						parameters,
						outputs: before,
					});
					// With "All Events" the version gains no output: the new event goes to "Other".
					const all =
						(parameters.events as string[]).length === 0 ||
						(parameters.events as string[]).includes(ALL_EVENTS);
					if (all) expect(after).toHaveLength(before.length);
				}
			});
		}
	}

	it('an added event reaches "Other" under "All Events" in a shipped version', () => {
		const grown = layoutWith('card.frozen', EVENT_NAMES.length);
		for (const version of shippedVersions) {
			const outputs = labels({ events: [ALL_EVENTS], routeByEvent: true }, version, grown);
			expect(outputs[outputs.length - 1]).toBe(OUTPUT_LAYOUT.labels[OTHER_OUTPUT]);
			expect(outputs).not.toContain('Frozen');
		}
	});

	it('the expression n8n evaluates reads the node version ($nodeVersion)', () => {
		const nodeTypes: INodeTypes = {
			getByName: () => new CompanyPaymentsTrigger(),
			getByNameAndVersion: () => new CompanyPaymentsTrigger(),
			getKnownTypes: () => ({}),
		};
		for (const version of shippedVersions) {
			const node: INode = {
				id: 'n-1',
				name: 'Company Payments Trigger',
				type: 'n8n-nodes-company-payments.companyPaymentsTrigger',
				typeVersion: version,
				position: [0, 0],
				parameters: { events: [ALL_EVENTS], routeByEvent: true },
			};
			const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
			const outputs = NodeHelpers.getNodeOutputs(workflow, node, {
				...description,
				outputs: OUTPUTS_EXPRESSION,
			} as INodeTypeDescription);
			expect(outputs).toEqual(configuredOutputs(node.parameters, version, OUTPUT_LAYOUT));
		}
	});

	it('the layout written into the expression holds no "}}" that would end it early', () => {
		expect(JSON.stringify(OUTPUT_LAYOUT)).not.toContain('}}');
	});
});
