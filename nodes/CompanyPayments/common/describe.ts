import type { INodeProperties } from 'n8n-workflow';

import type { ResourceDefinition } from '../types';

/**
 * The UI of one resource: its operation selector, then each operation's fields shown only for
 * that resource and operation.
 */
export function describeResource(
	resource: ResourceDefinition,
	defaultOperation: string,
): INodeProperties[] {
	const operations = [...resource.operations].sort((a, b) => a.name.localeCompare(b.name));
	const selector: INodeProperties = {
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
	return [selector, ...fields];
}
