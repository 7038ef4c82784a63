import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { gateError, gateJson } from '../../shared/gate';
import { errorItemJson, recordsOf, withItemIndex } from '../items';
import type { OperationDefinition } from '../types';
import { compactFields, compactRecord, refusal } from './guard';
import {
	LOOK_AGAIN_MINUTES,
	PAYMENT_REFERENCE,
	checkDetails,
	conflictError,
	differences,
	earlierWrite,
	IDEMPOTENCY_KEY_REUSED,
	lookUpPayment,
	moneyKey,
	outcomeFields,
	paymentReference,
	pendingSend,
	rememberPending,
	senderOf,
	handOver,
	onePaymentAtATime,
	takeBack,
	recordReadAgain,
	unprovenError,
	withOutcome,
	itemSentWrite,
} from '../../shared/money';
import type { Difference, MoneyContract } from '../../shared/money';
import { runAccount } from '../../shared/transport';

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

const NO_REFERENCE_TO_DO = `Call this tool again with ${PAYMENT_REFERENCE} set to what this payment is in the user's records: the invoice, ticket or payroll line it pays (e.g. "INV-1042"). Ask the user if you do not know it; never invent one. The same reference always means the same payment.`;

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
	// One call of a reference at a time in this process (outside r23-money F1): a second call
	// waits until the first is decided, then looks up, checks the pending window and sends from
	// what the first left. Keyed by sender (company and environment) and key, as the send-once
	// memory is, so a key Regenerate API Key issued keeps it; the claim is handed to the operation.
	const { baseUrl, account } = await runAccount(ctx, itemIndex);
	const key = moneyKey(ctx, itemIndex, contract);
	const pendingId = `${senderOf(ctx, baseUrl, account)} ${key}`;
	return await onePaymentAtATime(pendingId, async () => {
		handOver(ctx, pendingId);
		try {
			return await claimedAnswer(ctx, operation, itemIndex, { reference, key, pendingId });
		} finally {
			takeBack(ctx);
		}
	});
}

/** A money call holding its reference's claim (see `moneyAnswer`). */
async function claimedAnswer(
	ctx: IExecuteFunctions,
	operation: OperationDefinition & { kind: 'money' },
	itemIndex: number,
	claim: { reference: string; key: string; pendingId: string },
): Promise<ToolAnswer> {
	const contract = operation.money;
	const { reference, key, pendingId } = claim;
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
	if (found.kind === 'this') return foundAnswer(ctx, contract, itemIndex, reference, found.record);
	// The reference's last send came out unknown in this process: resolve it first (issue 49.3).
	const { baseUrl, account } = await runAccount(ctx, itemIndex);
	const pending = pendingSend(pendingId);
	if (pending) return { failed: true, json: pendingError(reference, pending) };
	let reused: IDataObject | undefined;
	const result = await operation.execute.call(ctx, itemIndex).catch((error: Error) => {
		const fields = outcomeFields(error);
		if (fields.paymentOutcome === 'unknown') {
			const until = Date.now() + LOOK_AGAIN_MINUTES * 60_000;
			rememberPending(pendingId, until, fields.sentWrite as IDataObject | undefined);
		}
		reused = reusedReference(ctx, contract, itemIndex, reference, { baseUrl, account, key }, error);
		if (reused) return undefined;
		throw error;
	});
	if (reused || result === undefined) return { failed: true, json: reused ?? {} };
	const records = recordsOf(result);
	const diff = records[0] ? differences(ctx, contract, itemIndex, records[0]) : [];
	// The write was sent: an answer with other details is not "nothing paid", it is unknown.
	if (diff.length > 0) {
		// With its sent write, as in workflow mode (outside r10-money F4); its entry in the memory
		// turns unknown, and the reference waits for Resolve Outcome like any unknown send.
		const sentWrite = itemSentWrite(ctx, itemIndex);
		rememberPending(pendingId, Date.now() + LOOK_AGAIN_MINUTES * 60_000, sentWrite);
		return {
			failed: true,
			json: conflictError(reference, records[0], diff, 'sent', 'paid', sentWrite),
		};
	}
	return await currentAnswer(ctx, contract, itemIndex, reference, records);
}

/**
 * The reference already used in this n8n process for another payment (the send-once memory refused
 * it as IDEMPOTENCY_KEY_REUSED before anything was sent: r6-money-b F2): answered as the tool
 * texts say, PAYMENT_REFERENCE_CONFLICT naming the earlier payment (existingPaymentId), with what
 * differs and advice a model can follow; never the workflow's Idempotency Key advice. Undefined
 * for any other error.
 */
function reusedReference(
	ctx: IExecuteFunctions,
	contract: MoneyContract,
	itemIndex: number,
	reference: string,
	where: { baseUrl: string; account: string; key: string },
	error: unknown,
): IDataObject | undefined {
	const context = (error as { context?: IDataObject }).context;
	if (context?.moneyErrorCode !== IDEMPOTENCY_KEY_REUSED) return undefined;
	const earlier = earlierWrite(ctx, where.baseUrl, where.account, where.key);
	const answer = earlier?.answer;
	let diff = answer ? differences(ctx, contract, itemIndex, answer) : [];
	const asked = context.reusedSubject;
	if (
		diff.length === 0 &&
		earlier?.subject &&
		typeof asked === 'string' &&
		asked !== earlier.subject
	) {
		diff = [{ field: 'request', paid: earlier.subject, asked }];
	}
	const sent = context.reusedDifferences;
	if (diff.length === 0 && Array.isArray(sent) && sent.length > 0) diff = sent as Difference[];
	if (diff.length === 0) {
		diff = [{ field: 'details', paid: "the earlier call's", asked: "this call's" }];
	}
	const id = typeof context.existingPaymentId === 'string' ? context.existingPaymentId : null;
	const conflict = conflictError(
		reference,
		{ ...(answer ?? {}), id },
		diff,
		'found',
		earlier?.outcome,
	);
	// Its fields at the top level too, as every failed tool call has them (toolErrorJson).
	const fields = { ...(conflict.error as IDataObject) };
	delete fields.message;
	return { ...conflict, ...fields };
}

/**
 * The answer as the record stands now (r1-money-tool F4): where the write's answer may be the one
 * the service stored for the reference long ago (Accept Quote, Pay QR Code), the record is read
 * again by its ID; one that no longer stands (failed, expired, disputed) is said as such, never
 * handed back as the payment made. A read that fails leaves the answer as it came, and says so.
 */
async function currentAnswer(
	ctx: IExecuteFunctions,
	contract: MoneyContract,
	itemIndex: number,
	reference: string,
	records: IDataObject[],
): Promise<ToolAnswer> {
	const [answer] = records;
	if (!contract.current || !answer || answer.id === undefined || answer.id === null) {
		return { failed: false, records };
	}
	let now: IDataObject;
	try {
		// Judged on its own (outside r11-money F2, F3): never the answer's status shown as current.
		const judged = recordReadAgain(answer.id, await contract.current.read(ctx, itemIndex, answer));
		if ('why' in judged) throw new Error(judged.why);
		now = judged.record;
	} catch (error) {
		const note = `Its current state could not be read again (${(error as Error).message}): the status shown is the one the service answered with, which may be the answer stored for this reference earlier.`;
		return { failed: false, records: [{ ...answer, note }, ...records.slice(1)] };
	}
	const settled = contract.current.state(now);
	// The quote a Pay QR Code accepted stays with its order (outside r23-money F2): the record read
	// again is the order alone, and the tool's text promises the quote too.
	const kept = answer.quote !== undefined ? { quote: answer.quote } : {};
	if (settled.outcome === 'paid') {
		return { failed: false, records: [{ ...now, ...kept }, ...records.slice(1)] };
	}
	const id = typeof now.id === 'string' ? now.id : null;
	return {
		failed: true,
		json: {
			error: {
				message: `The payment under payment reference "${reference}" (${String(id)}) does not stand: ${settled.why} The service answered this call with it (it answers a repeated reference with the payment stored for it), so this call may not have paid anything new.`,
				errorCode: 'PAYMENT_REFERENCE_NOT_STANDING',
				paymentReference: reference,
				paymentOutcome: 'unknown',
				paid: 'unknown',
				status: now.status ?? null,
				failureReason: now.failureReason ?? null,
				existingPaymentId: id,
				whatToDo: `Tell the user its state. A new payment needs a new reference (e.g. "${reference}-2"), only once the user confirms: the same reference always answers with this one.`,
			},
		},
	};
}

/**
 * A payment found under the reference, by what its state proves (the contract's resolve): made
 * ("already made"), refunded (never "already made": what a new payment needs), or still open.
 */
function foundAnswer(
	ctx: IExecuteFunctions,
	contract: MoneyContract,
	itemIndex: number,
	reference: string,
	record: IDataObject,
): ToolAnswer {
	const settled = contract.resolve?.state(record, { sentAt: Date.now(), skewMs: null });
	if (!settled || settled.outcome === 'paid') {
		return {
			failed: false,
			records: [
				{
					...record,
					repeated: true,
					note: `This payment was already made for payment reference "${reference}": this is it, and nothing new was sent. Its status says where it is.`,
				},
			],
		};
	}
	const id = typeof record.id === 'string' ? record.id : null;
	if (settled.refunded) {
		return {
			failed: true,
			json: {
				error: {
					message: `Refunded: the payment under payment reference "${reference}" (${String(id)}) was made, failed, and its money came back. Nothing new was sent by this call.`,
					errorCode: 'PAYMENT_REFERENCE_REFUNDED',
					paymentReference: reference,
					paymentOutcome: 'not_paid',
					paid: 'not by this call',
					alreadyMade: 'refunded',
					existingPaymentId: id,
					whatToDo: `Tell the user it was refunded (${settled.why}). A new payment needs a new reference (e.g. "${reference}-2"), only once the user confirms: the same reference always answers with this refunded one.`,
				},
			},
		};
	}
	return {
		failed: true,
		json: {
			error: {
				message: `A payment under payment reference "${reference}" (${String(id)}) exists and is not settled: ${settled.why} Nothing new was sent by this call.`,
				errorCode: 'PAYMENT_REFERENCE_OPEN',
				paymentReference: reference,
				paymentOutcome: settled.outcome === 'not_paid' ? 'not_paid' : 'unknown',
				paid: 'not by this call',
				alreadyMade: settled.outcome === 'not_paid' ? 'no' : 'unknown',
				existingPaymentId: id,
				whatToDo:
					'Tell the user its state and let them decide. Do not call again with another reference for the same payment: that may pay it twice.',
			},
		},
	};
}

/** A new send refused: the reference's last send is unknown and lookAgainAt has not come. */
function pendingError(
	reference: string,
	pending: { until: number; sentWrite: IDataObject | undefined },
): IDataObject {
	const at = new Date(pending.until).toISOString();
	return {
		error: {
			message: `Refused: the last call with payment reference "${reference}" came out unknown, and sending it again before ${at} could pay twice. Nothing was sent by this call.`,
			errorCode: 'PAYMENT_REFERENCE_PENDING',
			paymentReference: reference,
			// The payment's outcome, not this call's (outside r10-money F3): the reference's last send
			// is unknown, and nothing this call did changes that.
			paymentOutcome: 'unknown',
			paid: 'unknown (this call sent nothing)',
			sentByThisCall: false,
			lookAgainAt: at,
			...(pending.sentWrite ? { sentWrite: pending.sentWrite } : {}),
			whatToDo:
				'Call Resolve Outcome with the unknown answer (its sentWrite) first. Call this tool again only when it answers not_paid, or after lookAgainAt. Never use another reference for the same payment.',
		},
	};
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
