import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import {
	CREDENTIAL_NAME,
	LINE_BREAK,
	outcomeFields,
	plainDescription,
	serviceErrorInfo,
} from '../shared/transport';
import { runsAsAgentTool } from '../shared/transport/idempotency';
import { compactFields, compactRecord, credentialSecrets, maskForModel, refusal } from './tool';
import type { OperationDefinition, OperationResult, ResourceDefinition } from './types';

/** Read-only operations run this many items at once; everything else runs one item at a time. */
export const READ_CONCURRENCY = 10;

type Outcome = { ok: true; result: OperationResult } | { ok: false; error: Error };

function findOperation(
	ctx: IExecuteFunctions,
	resources: ResourceDefinition[],
	resourceValue: string,
	operationValue: string,
): OperationDefinition {
	const resource = resources.find((candidate) => candidate.value === resourceValue);
	const operation = resource?.operations.find((candidate) => candidate.value === operationValue);
	if (!operation) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The operation "${operationValue}" of resource "${resourceValue}" is not supported by this version of the node`,
		);
	}
	return operation;
}

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
	Object.assign(json, outcomeFields(error));
	return json;
}

/**
 * With "On Error: Continue (using error output)" n8n 2.x sends an item to the error output only
 * when its json is a lone `error` field (an item carrying `error` itself also goes there, but
 * n8n then cuts its json down to the message). So there the same fields travel inside `error`;
 * with "Continue (regular output)" they stand at the top level beside the message.
 */
function failedItemJson(ctx: IExecuteFunctions, error: Error): IDataObject {
	const fields = errorItemJson(error);
	if (ctx.getNode().onError !== 'continueErrorOutput') return fields;
	const { error: message, ...rest } = fields;
	return { error: { message, ...rest } };
}

function withItemIndex(ctx: IExecuteFunctions, error: Error, itemIndex: number): Error {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (error.context.itemIndex === undefined) error.context.itemIndex = itemIndex;
		return error;
	}
	return new NodeOperationError(ctx.getNode(), error, { itemIndex });
}

/** A state-changing run that fails part-way says which earlier items already went through. */
function noteEarlierItems(error: Error, operation: OperationDefinition, index: number): Error {
	if (operation.readOnly || index === 0) return error;
	const done = index === 1 ? 'Item 0 was' : `Items 0 to ${index - 1} were`;
	const note = `${done} already processed by the service before this failure; their results are not passed on. Turn on "On Error: Continue" to keep them as output.`;
	const withDescription = error as NodeApiError;
	withDescription.description = withDescription.description
		? `${withDescription.description}${LINE_BREAK}${note}`
		: note;
	return error;
}

async function runOne(
	ctx: IExecuteFunctions,
	operation: OperationDefinition,
	itemIndex: number,
): Promise<Outcome> {
	try {
		return { ok: true, result: await operation.execute.call(ctx, itemIndex) };
	} catch (error) {
		return { ok: false, error: withItemIndex(ctx, error as Error, itemIndex) };
	}
}

const RETRY_ONCE =
	'Check the arguments against the tool description, correct them and call the tool once more; if it fails again, tell the user what failed and why.';

/**
 * A failed tool call as a result the model can read and act on: what went wrong (`error`, the
 * service's `errorCode` and its own words) and what to do about it (`whatToDo`).
 */
export function toolErrorJson(error: Error): IDataObject {
	const { error: message, description, ...fields } = errorItemJson(error);
	const json: IDataObject = {
		error: message,
		whatToDo: typeof description === 'string' && description !== '' ? description : RETRY_ONCE,
	};
	for (const [name, value] of Object.entries(fields)) {
		if (value !== null && value !== undefined) json[name] = value;
	}
	return json;
}

function recordsOf(result: OperationResult): IDataObject[] {
	return Array.isArray(result) ? result : [result];
}

/** One item's answer to an AI agent: a refusal, the (compact) records, or the error. */
async function toolAnswer(
	ctx: IExecuteFunctions,
	resource: string,
	operation: OperationDefinition,
	itemIndex: number,
): Promise<IDataObject[]> {
	const refused = refusal(ctx, resource, operation, itemIndex);
	if (refused) return [refused];
	const outcome = await runOne(ctx, operation, itemIndex);
	if (!outcome.ok) {
		// Only an explicit "On Error: Stop Workflow" stops the agent's run (as n8n 2.41 does).
		if (ctx.getNode().onError === 'stopWorkflow') throw outcome.error;
		return [toolErrorJson(outcome.error)];
	}
	const fields = compactFields(ctx, resource, operation.value, itemIndex, true);
	const records = recordsOf(outcome.result).map((record) =>
		fields ? compactRecord(record, fields) : record,
	);
	return records.length > 0 ? records : [{ results: 0, message: 'Nothing matched.' }];
}

/**
 * The node as an AI agent's tool. Every answer, a failure included, is a tool result the model
 * reads (on n8n 2.8 a thrown error would fail the whole execution, and the model would never
 * learn what to correct), and passes `maskForModel` on its way out.
 */
async function routeAsTool(
	ctx: IExecuteFunctions,
	resource: string,
	operation: OperationDefinition,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[][]> {
	const secrets = await credentialSecrets(ctx, CREDENTIAL_NAME);
	const output: INodeExecutionData[] = [];
	for (let index = 0; index < items.length; index++) {
		for (const json of await toolAnswer(ctx, resource, operation, index)) {
			output.push({ json: maskForModel(json, secrets), pairedItem: { item: index } });
		}
	}
	return [output];
}

/**
 * Runs the chosen operation for every input item and keeps output in input order, each item
 * paired with the input it came from. State-changing operations run strictly one item after
 * another and stop at the first failure (unless Continue On Fail is set), so nothing after a
 * failed payment is paid behind the user's back.
 */
export async function route(
	this: IExecuteFunctions,
	resources: ResourceDefinition[],
): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	if (items.length === 0) return [[]];
	const resource = this.getNodeParameter('resource', 0) as string;
	const operationValue = this.getNodeParameter('operation', 0) as string;
	const operation = findOperation(this, resources, resource, operationValue);
	if (runsAsAgentTool(this)) return await routeAsTool(this, resource, operation, items);
	const continueOnFail = this.continueOnFail();

	const outcomes: Outcome[] = new Array(items.length);
	if (operation.readOnly) {
		let next = 0;
		const worker = async () => {
			while (next < items.length) {
				const index = next++;
				outcomes[index] = await runOne(this, operation, index);
			}
		};
		await Promise.all(
			Array.from({ length: Math.min(READ_CONCURRENCY, items.length) }, async () => await worker()),
		);
	} else {
		for (let index = 0; index < items.length; index++) {
			outcomes[index] = await runOne(this, operation, index);
			if (!outcomes[index].ok && !continueOnFail) break;
		}
	}

	const output: INodeExecutionData[] = [];
	for (let index = 0; index < items.length; index++) {
		const outcome = outcomes[index];
		if (!outcome) break;
		if (!outcome.ok) {
			if (!continueOnFail) throw noteEarlierItems(outcome.error, operation, index);
			output.push({ json: failedItemJson(this, outcome.error), pairedItem: { item: index } });
			continue;
		}
		const fields = compactFields(this, resource, operation.value, index, false);
		for (const json of recordsOf(outcome.result)) {
			output.push({
				json: fields ? compactRecord(json, fields) : json,
				pairedItem: { item: index },
			});
		}
	}
	return [output];
}
