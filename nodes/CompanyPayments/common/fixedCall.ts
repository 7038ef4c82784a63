import type { IExecuteFunctions, IHttpRequestMethods } from 'n8n-workflow';

import { apiRequest } from '../../shared/transport';
import type { OperationDefinition, OperationResult } from '../types';

/** An operation that is one call to a fixed path with no input fields. */
export function fixedCall(
	definition: Omit<OperationDefinition, 'execute' | 'properties' | 'concurrent'> & {
		method: IHttpRequestMethods;
		path: string;
	},
): OperationDefinition {
	const { method, path, ...rest } = definition;
	return {
		...rest,
		properties: [],
		concurrent: method === 'GET',
		async execute(this: IExecuteFunctions, itemIndex: number) {
			return (await apiRequest.call(this, { method, path, itemIndex })) as OperationResult;
		},
	};
}
