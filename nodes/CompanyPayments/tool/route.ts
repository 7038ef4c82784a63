import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { gateError, gateJson } from '../../shared/gate';
import { errorItemJson, recordsOf, withItemIndex } from '../items';
import type { OperationDefinition } from '../types';
import { compactFields, compactRecord, refusal } from './guard';
import {
	PAYMENT_REFERENCE,
	checkDetails,
	conflictError,
	differences,
	lookUpPayment,
	paymentReference,
	unprovenError,
	withOutcome,
} from '../../shared/money';

/*
 * The node as an AI agent's or MCP client's tool: refusals, payment references, conflicts,
 * masking and errors a client recognises. The router only hands the items over (router.ts).
 */

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
 * A money-moving call, keyed by its payment reference (shared/money/reference.ts, reading the operation's
 * money contract): refused without one; where the contract gives a lookup, the payment made under
 * the reference is looked for first and answered with only on evidence (it carries the
 * reference's identity and every declared detail matches); an answer that is another payment
 * than the one asked for (the service's stored answer for the reference) is a conflict.
 */
async function moneyAnswer(
	ctx: IExecuteFunctions,
	operation: OperationDefinition & { kind: 'money' },
	itemIndex: number,
): Promise<ToolAnswer> {
	const contract = operation.money;
	const reference = paymentReference(ctx, itemIndex);
	if (reference === '') return { failed: true, json: missingReference(operation) };
	checkDetails(ctx, contract, itemIndex);
	const found = await lookUpPayment(ctx, contract, itemIndex);
	if (found.kind === 'conflict') {
		return { failed: true, json: conflictError(reference, found.record, found.diff) };
	}
	if (found.kind === 'unproven') {
		return {
			failed: true,
			json: unprovenError(reference, found.record, found.notShown, found.identity),
		};
	}
	const result =
		found.kind === 'this'
			? {
					...found.record,
					repeated: true,
					note: `This payment was already made for payment reference "${reference}": this is it, and nothing new was sent. Its status says where it is.`,
				}
			: await operation.execute.call(ctx, itemIndex);
	const records = recordsOf(result);
	const diff = records[0] ? differences(ctx, contract, itemIndex, records[0]) : [];
	// The write was sent: an answer with other details is not "nothing paid", it is unknown.
	if (diff.length > 0) {
		return { failed: true, json: conflictError(reference, records[0], diff, 'sent') };
	}
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
		if (operation.kind === 'money') return await moneyAnswer(ctx, operation, itemIndex);
		const records = recordsOf(await operation.execute.call(ctx, itemIndex));
		return { failed: false, records, fields };
	} catch (caught) {
		const failed = withItemIndex(ctx, caught as Error, itemIndex);
		const error = operation.kind === 'money' ? withOutcome(failed) : failed;
		// Only an explicit "On Error: Stop Workflow" stops the agent's run (as n8n 2.41 does).
		if (ctx.getNode().onError === 'stopWorkflow') throw gateError(ctx, error, 'model');
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
 * The node as an AI agent's or MCP client's tool. Every answer passes the gate (shared/gate.ts)
 * on its way out, as the model reads it. Within an execution a failure is a result the model
 * reads (`toolErrorJson`); outside one (the MCP Server Trigger) it is thrown, with the same JSON
 * as its message, so that the client gets a result marked `isError`.
 */
export async function routeAsTool(
	ctx: IExecuteFunctions,
	resource: string,
	operation: OperationDefinition,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[][]> {
	const output: INodeExecutionData[] = [];
	for (let index = 0; index < items.length; index++) {
		const answer = await toolAnswer(ctx, resource, operation, index);
		if (answer.failed && outsideExecution(ctx)) {
			const text = JSON.stringify(gateJson(ctx, asErrorObject(answer.json), 'model'));
			const error = new NodeOperationError(ctx.getNode(), text, { itemIndex: index });
			// n8n swaps a message that names a socket code (ECONNRESET, ETIMEDOUT…) for its own
			// "retry the request immediately": the client must read OUTCOME_UNKNOWN as it is.
			error.message = text;
			throw error;
		}
		const records = answer.failed
			? [answer.json]
			: answer.records.map((record) =>
					answer.fields ? compactRecord(record, answer.fields) : record,
				);
		const shown = records.length > 0 ? records : [{ results: 0, message: 'Nothing matched.' }];
		for (const json of shown) {
			output.push({ json: gateJson(ctx, json, 'model'), pairedItem: { item: index } });
		}
	}
	return [output];
}
