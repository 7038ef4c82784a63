import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { earlierPaymentFields, outcomeFields } from '../shared/money';
import { plainDescription, serviceErrorInfo } from '../shared/transport';
import { asRecord } from '../shared/contract/recordsAnswer';
import type { OperationResult } from './types';

/*
 * What every way of running an item shares, the workflow's item loop (router.ts) and the agent's
 * or MCP client's tool call (tool/route.ts): an item's records, and a failure as output.
 */

/** The output item of a failed item when the node is set to continue on fail. */
export function errorItemJson(error: Error): IDataObject {
	const json: IDataObject = { error: error.message };
	const description = (error as NodeApiError).description;
	// Item output is plain text (JSON, expressions, e-mails): one fact per line, no HTML.
	if (description) json.description = plainDescription(description);
	const info = serviceErrorInfo(error);
	if (info) {
		json.errorCode = info.errorCode;
		json.httpCode = info.httpCode;
		json.serviceMessage = info.serviceMessage;
		json.details = info.details;
		json.required = info.required;
		json.requestId = info.requestId;
	}
	// A money write's outcome (not_paid or unknown, with errorCode OUTCOME_UNKNOWN): one field to branch on.
	Object.assign(json, outcomeFields(error), earlierPaymentFields(error));
	return json;
}

export function withItemIndex(ctx: IExecuteFunctions, error: Error, itemIndex: number): Error {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (error.context.itemIndex === undefined) error.context.itemIndex = itemIndex;
		return error;
	}
	return new NodeOperationError(ctx.getNode(), error, { itemIndex });
}

/**
 * What an operation returned for one item, as records: a list gives one record per entry; a JSON
 * value that is no record (an answer the service sent as a bare text, number, true or null, or
 * such an entry of a list) comes out under SCALAR_ANSWER_KEY as sent, the one rule for every
 * operation (contract/recordsAnswer.ts; outside read r16-data, findings 5 and 6).
 */
export function recordsOf(result: OperationResult | unknown): IDataObject[] {
	return (Array.isArray(result) ? (result as unknown[]) : [result]).map(asRecord);
}
