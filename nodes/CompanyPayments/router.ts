import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import {
	CREDENTIAL_NAME,
	LINE_BREAK,
	outcomeFields,
	plainDescription,
	serviceErrorInfo,
} from '../shared/transport';
import {
	PAYMENT_REFERENCE,
	paymentReference,
	runsAsAgentTool,
} from '../shared/transport/idempotency';
import {
	checkDetails,
	compactFields,
	compactRecord,
	conflictError,
	credentialSecrets,
	differences,
	existingPayout,
	maskForModel,
	refusal,
	toolEntry,
} from './tool';
import type { OperationDefinition, OperationResult, ResourceDefinition } from './types';

/** Read-only operations run this many items at once; everything else runs one item at a time. */
export const READ_CONCURRENCY = 10;

type Outcome =
	| { ok: true; result: OperationResult; fields?: string[] }
	| { ok: false; error: Error };

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
	if (operation.concurrent || index === 0) return error;
	const done = index === 1 ? 'Item 0 was' : `Items 0 to ${index - 1} were`;
	const note = `${done} already processed by the service before this failure; their results are not passed on. Turn on "On Error: Continue" to keep them as output.`;
	const withDescription = error as NodeApiError;
	withDescription.description = withDescription.description
		? `${withDescription.description}${LINE_BREAK}${note}`
		: note;
	return error;
}

/** One item: its output options read (and checked) first, then the operation. */
async function runOne(
	ctx: IExecuteFunctions,
	resource: string,
	operation: OperationDefinition,
	itemIndex: number,
): Promise<Outcome> {
	try {
		const fields = compactFields(ctx, resource, operation.value, itemIndex, false);
		return { ok: true, result: await operation.execute.call(ctx, itemIndex), fields };
	} catch (error) {
		return { ok: false, error: withItemIndex(ctx, error as Error, itemIndex) };
	}
}

const RETRY_ONCE =
	'Check the arguments against the tool description, correct them and call the tool once more; if it fails again, tell the user what failed and why.';

/**
 * A failed tool call as a result the model can read and act on, in the shape n8n's MCP Server
 * Trigger recognises as an error (`error` an object with a `message`): what went wrong, the
 * service's `errorCode`, `httpCode` and `requestId` where there is one, and `whatToDo`. The same
 * fields stay at the top level too, where models and workflows of earlier versions read them.
 */
export function toolErrorJson(error: Error): IDataObject {
	const { error: message, description, ...fields } = errorItemJson(error);
	const whatToDo = typeof description === 'string' && description !== '' ? description : RETRY_ONCE;
	const known: IDataObject = {};
	for (const [name, value] of Object.entries(fields)) {
		if (value !== null && value !== undefined) known[name] = value;
	}
	return { error: { message, ...known, whatToDo }, whatToDo, ...known };
}

function recordsOf(result: OperationResult): IDataObject[] {
	return Array.isArray(result) ? result : [result];
}

/** One item's answer to an AI agent or MCP client: its records, or why there are none. */
type ToolAnswer =
	| { failed: false; records: IDataObject[]; fields?: string[] }
	| { failed: true; json: IDataObject };

const NO_REFERENCE_TO_DO = `Call this tool again with ${PAYMENT_REFERENCE} set to what this payment is in the user's records: the invoice, ticket or payroll line it pays (e.g. "INV-1042"). Ask the user if you do not know it; never invent one. The same reference always means the same payment: a repeated call with it never pays twice.`;

/** A money call without a payment reference, refused before anything is sent. */
function missingReference(operation: OperationDefinition): IDataObject {
	return {
		refused: true,
		error: `Refused: "${operation.name}" moves money and needs a ${PAYMENT_REFERENCE} that names the payment. Nothing was sent to the payment service.`,
		whatToDo: NO_REFERENCE_TO_DO,
	};
}

/**
 * A money-moving call, keyed by its payment reference (tool/reference.ts): refused without one;
 * Payout Create first looks for the payout made under it; an answer that is another payment than
 * the one asked for (the service's stored answer for the reference) is reported as a conflict.
 */
async function moneyAnswer(
	ctx: IExecuteFunctions,
	resource: string,
	operation: OperationDefinition,
	itemIndex: number,
): Promise<ToolAnswer> {
	const reference = paymentReference(ctx, itemIndex);
	if (reference === '') return { failed: true, json: missingReference(operation) };
	checkDetails(ctx, resource, operation.value, itemIndex);
	const existing =
		resource === 'payout' && operation.value === 'create'
			? await existingPayout(ctx, itemIndex)
			: undefined;
	const result = existing
		? {
				...existing,
				repeated: true,
				note: `A payout was already created for payment reference "${reference}": this is it, and nothing new was sent. Its status says where it is.`,
			}
		: await operation.execute.call(ctx, itemIndex);
	const records = recordsOf(result);
	const diff = records[0] ? differences(ctx, resource, operation.value, itemIndex, records[0]) : [];
	if (diff.length > 0) return { failed: true, json: conflictError(reference, records[0], diff) };
	return { failed: false, records };
}

async function toolAnswer(
	ctx: IExecuteFunctions,
	resource: string,
	operation: OperationDefinition,
	itemIndex: number,
): Promise<ToolAnswer> {
	const refused = refusal(ctx, resource, operation, itemIndex);
	if (refused) return { failed: true, json: refused };
	try {
		const fields = compactFields(ctx, resource, operation.value, itemIndex, true);
		if (toolEntry(resource, operation.value)?.kind === 'money') {
			return await moneyAnswer(ctx, resource, operation, itemIndex);
		}
		const records = recordsOf(await operation.execute.call(ctx, itemIndex));
		return { failed: false, records, fields };
	} catch (caught) {
		const error = withItemIndex(ctx, caught as Error, itemIndex);
		// Only an explicit "On Error: Stop Workflow" stops the agent's run (as n8n 2.41 does).
		if (ctx.getNode().onError === 'stopWorkflow') throw error;
		return { failed: true, json: toolErrorJson(error) };
	}
}

/**
 * Whether the tool runs outside any execution. n8n's MCP Server Trigger runs a tool inside the
 * HTTP request, before it creates an execution; there a failure must be thrown, since the
 * trigger sets the answer's `isError` only for a thrown error (n8n 2.8.4 and 2.41.1 both hand
 * it the node's items as a JSON text, which never reads as an error). Inside an execution (the
 * AI Agent) it is returned instead: on n8n 2.8 a thrown error fails the whole execution.
 */
function outsideExecution(ctx: IExecuteFunctions): boolean {
	try {
		return !ctx.getExecutionId();
	} catch {
		return true;
	}
}

/** A refusal, conflict or failure, as the JSON an MCP client reads in the error's text. */
function asErrorObject(json: IDataObject): IDataObject {
	if (typeof json.error === 'object' && json.error !== null) return { error: json.error };
	const { error, ...rest } = json;
	return { error: { message: error, ...rest } };
}

/**
 * The node as an AI agent's or MCP client's tool. Every answer passes `maskForModel` on its way
 * out. Within an execution a failure is a result the model reads (`toolErrorJson`); outside one
 * (the MCP Server Trigger) it is thrown, with the same JSON as its message, so that the client
 * gets a result marked `isError`.
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
		const answer = await toolAnswer(ctx, resource, operation, index);
		if (answer.failed && outsideExecution(ctx)) {
			const text = JSON.stringify(maskForModel(asErrorObject(answer.json), secrets));
			throw new NodeOperationError(ctx.getNode(), text, { itemIndex: index });
		}
		const records = answer.failed
			? [answer.json]
			: answer.records.map((record) =>
					answer.fields ? compactRecord(record, answer.fields) : record,
				);
		const shown = records.length > 0 ? records : [{ results: 0, message: 'Nothing matched.' }];
		for (const json of shown) {
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
	if (operation.concurrent) {
		let next = 0;
		const worker = async () => {
			while (next < items.length) {
				const index = next++;
				outcomes[index] = await runOne(this, resource, operation, index);
			}
		};
		await Promise.all(
			Array.from({ length: Math.min(READ_CONCURRENCY, items.length) }, async () => await worker()),
		);
	} else {
		for (let index = 0; index < items.length; index++) {
			outcomes[index] = await runOne(this, resource, operation, index);
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
		const { fields } = outcome;
		for (const json of recordsOf(outcome.result)) {
			output.push({
				json: fields ? compactRecord(json, fields) : json,
				pairedItem: { item: index },
			});
		}
	}
	return [output];
}
