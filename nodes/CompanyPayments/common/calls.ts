import type { IDataObject, IExecuteFunctions, IHttpRequestMethods } from 'n8n-workflow';

import type { ApiRequest } from '../../shared/transport';
import { apiRequest } from '../../shared/transport';
import type { OperationResult, PlainOperation } from '../types';
import { segment } from './validation';

/** What an operation that is one call declares besides its operation fields. */
interface OneCall {
	method: IHttpRequestMethods;
	/** Explanations of the service's refusals of this call, by errorCode and by HTTP status. */
	explain?: ApiRequest['explain'];
	explainStatus?: ApiRequest['explainStatus'];
	/** The output item made from the answer; the answer as it is when not given. */
	output?: (answer: IDataObject) => OperationResult;
}

type Declared = Omit<PlainOperation, 'execute' | 'concurrent'>;

/** One call; a GET changes nothing on the service, so its items may run at once. */
function oneCall(
	{ method, explain, explainStatus, output, ...declared }: Declared & OneCall,
	pathOf: (ctx: IExecuteFunctions, itemIndex: number) => string,
): PlainOperation {
	return {
		...declared,
		concurrent: method === 'GET',
		async execute(this: IExecuteFunctions, itemIndex: number) {
			const path = pathOf(this, itemIndex);
			const answer = await apiRequest.call(this, {
				method,
				path,
				itemIndex,
				explain,
				explainStatus,
			});
			return output ? output(answer as IDataObject) : (answer as OperationResult);
		},
	};
}

/** An operation that is one call to a fixed path with no input fields. */
export function fixedCall(
	definition: Omit<Declared, 'properties'> & OneCall & { path: string },
): PlainOperation {
	const { path, ...rest } = definition;
	return oneCall({ ...rest, properties: [] }, () => path);
}

/** An operation that is one call to the path of one record, named by its ID field. */
export function idCall(
	definition: Declared &
		OneCall & {
			/** Reads the record's ID from its field (checked by that field's reader). */
			readId: (ctx: IExecuteFunctions, itemIndex: number) => string;
			/** The call's path for the ID, which comes already made safe as one path segment. */
			path: (id: string) => string;
		},
): PlainOperation {
	const { readId, path, ...rest } = definition;
	return oneCall(rest, (ctx, itemIndex) => path(segment(readId(ctx, itemIndex))));
}
