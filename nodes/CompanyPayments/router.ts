import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { gateError, gateItems, openRun } from '../shared/gate';
import { LINE_BREAK, getBaseUrl } from '../shared/transport';
import {
	answerDiffers,
	withItemSentWrite,
	differences,
	outcomeFields,
	retryNote,
	runsAsAgentTool,
	withOutcome,
} from '../shared/money';
import { errorItemJson, recordsOf, withItemIndex } from './items';
import { runItems } from './pool';
import { compactFields, compactRecord } from './tool/guard';
import { routeAsTool } from './tool/route';
import type { OperationDefinition, OperationResult, ResourceDefinition } from './types';

/*
 * The node's item loop: finds the operation, hands a tool call to tool/route.ts, runs the items
 * (pool.ts) and turns their outcomes into output items, paired, with Continue On Fail.
 */

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

/** A state-changing run that fails part-way says which earlier items already went through. */
function noteEarlierItems(
	ctx: IExecuteFunctions,
	error: Error,
	operation: OperationDefinition,
	index: number,
): Error {
	const earlier = !operation.concurrent && index > 0;
	// An item whose outcome is unknown: a Retry of the execution is a new request under a derived
	// key (r1-money-resend F3), said where the user decides whether to retry.
	const unknown = operation.kind === 'money' && outcomeFields(error).paymentOutcome === 'unknown';
	if (!earlier && !unknown) return error;
	const done = index === 1 ? 'Item 0 was' : `Items 0 to ${index - 1} were`;
	const notes = earlier
		? [
				`${done} already processed by the service before this failure; their results are not passed on. Turn on "On Error: Continue" to keep them as output.`,
			]
		: [];
	// Paid items and a Retry of the execution: what happens to their keys.
	if (operation.kind === 'money') notes.push(retryNote(ctx, operation.money, index));
	const note = notes.join(LINE_BREAK);
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
		const result = await operation.execute.call(ctx, itemIndex);
		if (operation.kind === 'money') {
			// Trust only what the answer shows: another payment's details are not this payment.
			const [answer] = recordsOf(result);
			const diff = answer ? differences(ctx, operation.money, itemIndex, answer) : [];
			if (diff.length > 0) {
				throw withItemSentWrite(ctx, itemIndex, answerDiffers(ctx, operation.money, itemIndex, diff));
			}
		}
		return { ok: true, result, fields };
	} catch (error) {
		const failed = withItemIndex(ctx, error as Error, itemIndex);
		return { ok: false, error: operation.kind === 'money' ? withOutcome(failed) : failed };
	}
}

/**
 * The node's doors: every output item and every error it throws pass the gate
 * (shared/gate.ts) on their way out, as the user reads them; as a tool, as the model reads them
 * (tool/route.ts). The run's credential is read first, so that its secrets are known to the gate
 * even when an item fails before it calls the service.
 */
export async function route(
	this: IExecuteFunctions,
	resources: ResourceDefinition[],
): Promise<INodeExecutionData[][]> {
	openRun(this);
	try {
		await getBaseUrl(this);
	} catch {
		// An unusable credential fails the first call that needs it, with its own message.
	}
	const asTool = runsAsAgentTool(this);
	try {
		const output = await routeItems(this, resources, asTool);
		return asTool ? output : gateItems(this, output);
	} catch (error) {
		throw gateError(this, error, asTool ? 'model' : 'user');
	}
}

/**
 * Runs the chosen operation for every input item and keeps output in input order, each item
 * paired with the input it came from. State-changing operations run strictly one item after
 * another and stop at the first failure (unless Continue On Fail is set), so nothing after a
 * failed payment is paid behind the user's back.
 */
async function routeItems(
	ctx: IExecuteFunctions,
	resources: ResourceDefinition[],
	asTool: boolean,
): Promise<INodeExecutionData[][]> {
	const items = ctx.getInputData();
	if (items.length === 0) return [[]];
	const resource = ctx.getNodeParameter('resource', 0) as string;
	const operationValue = ctx.getNodeParameter('operation', 0) as string;
	const operation = findOperation(ctx, resources, resource, operationValue);
	if (asTool) return await routeAsTool(ctx, resource, operation, items);
	const continueOnFail = ctx.continueOnFail();

	const outcomes = await runItems(
		items.length,
		operation.concurrent === true,
		async (index) => await runOne(ctx, resource, operation, index),
		(outcome) => !outcome.ok && !continueOnFail,
	);

	const output: INodeExecutionData[] = [];
	for (let index = 0; index < items.length; index++) {
		const outcome = outcomes[index];
		if (!outcome) break;
		if (!outcome.ok) {
			if (!continueOnFail) throw noteEarlierItems(ctx, outcome.error, operation, index);
			output.push({ json: failedItemJson(ctx, outcome.error), pairedItem: { item: index } });
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
