import type { INodeProperties } from 'n8n-workflow';

import type { ResourceDefinition } from '../types';

/** Which operation a resource preselects, per node version. */
export interface ResourceDefaults {
	/** Preselected from node version `since` on. */
	operation: string;
	/** Preselected by nodes of version `legacyVersion`: what their saved workflows left implicit. */
	legacy?: { operation: string; legacyVersion: number; since: number };
}

/**
 * The UI of one resource: its operation selector, then each operation's fields shown only for
 * that resource and operation.
 *
 * n8n saves a parameter that equals its default by leaving it out, and fills it from the default
 * when the workflow is loaded. So a workflow saved while Pay QR Code was the preselected operation
 * holds no `operation` at all; changing the default would change what it does. When the default
 * changed, nodes of the legacy version keep the old one and newer nodes get the new one, each in
 * a selector shown only for its versions (same options, same values).
 */
export function describeResource(
	resource: ResourceDefinition,
	defaults: ResourceDefaults,
): INodeProperties[] {
	const operations = [...resource.operations].sort((a, b) => a.name.localeCompare(b.name));
	const defaultOperation = defaults.operation;
	const base: INodeProperties = {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource.value] } },
		options: operations.map((operation) => ({
			name: operation.name,
			value: operation.value,
			action: operation.action,
			description: operation.description,
		})),
		default: defaultOperation,
	};
	const legacy = defaults.legacy;
	const selectors: INodeProperties[] =
		legacy && legacy.operation !== defaultOperation
			? [
					{
						...base,
						default: legacy.operation,
						displayOptions: {
							show: { resource: [resource.value], '@version': [legacy.legacyVersion] },
						},
					},
					{
						...base,
						displayOptions: {
							show: { resource: [resource.value], '@version': [{ _cnd: { gte: legacy.since } }] },
						},
					},
				]
			: [base];
	const fields = resource.operations.flatMap((operation) =>
		operation.properties.map((property) => ({
			...property,
			displayOptions: {
				...property.displayOptions,
				show: {
					...property.displayOptions?.show,
					resource: [resource.value],
					operation: [operation.value],
				},
			},
		})),
	);
	return [...selectors, ...fields];
}
