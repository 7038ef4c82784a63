import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { markOutcome, outcomeFields } from '../../shared/transport';
import type { MoneyWrite } from '../../shared/transport';
import {
	exactText,
	idempotencyKey,
	referenceExternalId,
	referenceKey,
} from '../../shared/transport/idempotency';
import type { OnceFor } from '../../shared/transport/idempotency';
import type { DetailKind } from '../../shared/money/evidence';

/*
 * The money contract of an operation (issue 36.1): each money operation declares one `money`
 * block in its own file, and everything that treats it as money reads it from there — the
 * transport (what the write does, whether the document promises replay by key, how to look it
 * up), Retry On Fail (sentWrites, by the same contract), tool mode (the details a repeat must
 * match, the identity that proves a payment, the lookup) and the error texts.
 */

/** One detail of a money write: what was asked, and where an answer (or a found record) says it. */
export interface MoneyDetail {
	name: string;
	/** What this call asks; `answer` is the operation's answer, for details read from it (a quote). */
	asked: (ctx: IExecuteFunctions, itemIndex: number, answer: IDataObject) => unknown;
	answered: (answer: IDataObject) => unknown;
	/** How a value is shown in a conflict (a recipient's number masked). */
	show?: (value: unknown) => string;
	/**
	 * How it is compared (nodes/shared/money/evidence.ts, the one table): `value` (default) as the
	 * service would read it, `text` in the service's own spelling, `requisite` a card or phone
	 * number that the service may show masked.
	 */
	kind?: DetailKind;
}

export interface MoneyContract extends MoneyWrite {
	/**
	 * How its Idempotency-Key is formed when the user sets none: `perItem` (this execution, node,
	 * run and item: Retry On Fail sends the same key, a new execution a new one) or once per the
	 * record it acts on (`once`, e.g. a quote can be accepted once). As a tool, always the payment
	 * reference's identity.
	 */
	key: 'perItem' | 'once';
	/**
	 * Where the payment carries the identity the node gave it (an External ID), when it can: the
	 * only evidence that a record found later is this payment. `maxLength` bounds the value sent.
	 */
	identity?: { field: string; answered: (answer: IDataObject) => unknown; maxLength: number };
	/** The details a repeat must match to be the same payment (and a found record to be it). */
	details: MoneyDetail[];
	/**
	 * How a payment can be found again by its identity (records carrying it), when the document
	 * gives a way: tool mode looks before it pays, and answers with what it finds only on evidence.
	 */
	lookup?: (ctx: IExecuteFunctions, itemIndex: number, identity: string) => Promise<IDataObject[]>;
	/**
	 * How one found record is read in full (GET by its ID), when a listing does not show every
	 * detail: a detail still not shown is no evidence (nodes/shared/money/evidence.ts).
	 */
	read?: (ctx: IExecuteFunctions, itemIndex: number, record: IDataObject) => Promise<IDataObject>;
}

/**
 * Whether the node runs as an AI agent's tool. n8n derives a tool variant of every
 * `usableAsTool` node type (`…companyPaymentsTool`: no main input, one `ai_tool` output) and
 * only that variant can be connected to an agent, so its type name is the signal every
 * supported n8n (1.123 to 2.41) gives, the same one its `'@tool'` display option reads. Where
 * the agent runs the tool through the workflow engine (AI Agent 3.x) the node also carries
 * `rewireOutputLogTo: 'ai_tool'`; where it runs it itself (older agents, n8n 2.x) the context's
 * `isToolExecution()` says so. Any one of them is enough.
 */
export function runsAsAgentTool(ctx: IExecuteFunctions): boolean {
	try {
		const node = ctx.getNode() as { type?: unknown; rewireOutputLogTo?: unknown };
		if (typeof node.type === 'string' && node.type.endsWith('Tool')) return true;
		if (node.rewireOutputLogTo === 'ai_tool') return true;
	} catch {
		// No node in this context: fall through to the context's own answer.
	}
	try {
		const ask = (ctx as { isToolExecution?: () => boolean }).isToolExecution;
		return typeof ask === 'function' && ask.call(ctx) === true;
	} catch {
		return false;
	}
}

/** Name of the tool-only field that names the payment in the user's world (tool mode). */
export const PAYMENT_REFERENCE = 'paymentReference';
/** The field's label, as errors name it. */
export const PAYMENT_REFERENCE_LABEL = 'Payment Reference';

/**
 * The payment reference of a money-moving tool call: the Payment Reference field (by default
 * filled by the model through `$fromAI('paymentReference')`, or mapped by the user), as exact
 * text. '' when there is none.
 */
export function paymentReference(ctx: IExecuteFunctions, itemIndex: number): string {
	let value: unknown;
	try {
		value = ctx.getNodeParameter(PAYMENT_REFERENCE, itemIndex, '');
	} catch {
		value = '';
	}
	return exactText(ctx, itemIndex, value, PAYMENT_REFERENCE_LABEL);
}

function operationName(ctx: IExecuteFunctions, itemIndex: number): string {
	const resource = String(ctx.getNodeParameter('resource', itemIndex, ''));
	const operation = String(ctx.getNodeParameter('operation', itemIndex, ''));
	return `${resource}.${operation}`;
}

/** The reference of a money-moving tool call; a call without one is refused before anything is sent. */
function requiredReference(ctx: IExecuteFunctions, itemIndex: number): string {
	const reference = paymentReference(ctx, itemIndex);
	if (reference === '') {
		throw new NodeOperationError(
			ctx.getNode(),
			`${PAYMENT_REFERENCE_LABEL} is required when an AI agent or MCP client moves money`,
			{ itemIndex, description: 'Nothing was sent to the payment service.' },
		);
	}
	return reference;
}

/**
 * The Idempotency-Key of this tool call's payment (`referenceKey`: the same reference by any
 * route, from any tool node or workflow, names the same payment of the operation); undefined
 * outside tool mode.
 */
export function toolIdentity(ctx: IExecuteFunctions, itemIndex: number): string | undefined {
	if (!runsAsAgentTool(ctx)) return undefined;
	return referenceKey(requiredReference(ctx, itemIndex), operationName(ctx, itemIndex));
}

/**
 * The External ID this tool call's payment carries: the reference as it names the payment
 * (`referenceExternalId`), so that the user finds it under their own reference in the cabinet and
 * in webhook events, and any later call with the same reference (another session, another n8n
 * process) finds it; undefined outside tool mode.
 */
export function toolExternalId(
	ctx: IExecuteFunctions,
	itemIndex: number,
	maxLength: number,
): string | undefined {
	if (!runsAsAgentTool(ctx)) return undefined;
	return referenceExternalId(requiredReference(ctx, itemIndex), maxLength);
}

/**
 * The Idempotency-Key of one item of a money operation, formed as its contract says: as a tool
 * the payment's identity (toolIdentity); else the user's key, or one derived once per record
 * (`once`, with the record) or per item of this execution.
 */
export function moneyKey(
	ctx: IExecuteFunctions,
	itemIndex: number,
	contract: MoneyContract,
	record?: OnceFor,
): string {
	const asTool = toolIdentity(ctx, itemIndex);
	if (asTool !== undefined) return asTool;
	const given = ctx.getNodeParameter('idempotencyKey', itemIndex, '');
	return idempotencyKey(
		ctx,
		itemIndex,
		given,
		'Idempotency Key',
		contract.key === 'once' ? record : undefined,
	);
}

/**
 * The identity value a money write carries in its body (its contract's identity field) as a
 * tool: the payment's identity. An External ID the user or the model set in tool mode is refused:
 * the payment must carry the node's own identity, or nothing found later could prove it is this
 * payment (another process, a restart, a call that leaves the field out).
 */
export function carriedIdentity(
	ctx: IExecuteFunctions,
	itemIndex: number,
	contract: MoneyContract,
	given: string | undefined,
	label: string,
): string | undefined {
	if (!contract.identity) return given;
	const identity = toolExternalId(ctx, itemIndex, contract.identity.maxLength);
	if (identity === undefined) return given;
	if (given !== undefined && given !== identity) {
		throw new NodeOperationError(
			ctx.getNode(),
			`${label} cannot be set when an AI agent or MCP client moves money, got "${given}"`,
			{
				itemIndex,
				description: `As a tool the node sets ${label} itself from the ${PAYMENT_REFERENCE_LABEL} ("${identity}"), so that this payment can be recognised later by any n8n process and never paid twice. Leave ${label} empty; put what names the payment in ${PAYMENT_REFERENCE_LABEL}. Nothing was sent to the payment service.`,
			},
		);
	}
	return identity;
}

/**
 * A failed money item always says whether money moved. The transport marks every failure of the
 * money write itself (paid, not paid or unknown, by the outcome machine); any other failure of a
 * money operation (its input checks, Pay QR Code's prepare, a lookup) came before the money write
 * was sent, so nothing was paid.
 */
export function withOutcome(error: Error): Error {
	if (outcomeFields(error).paymentOutcome !== undefined) return error;
	if (error instanceof NodeApiError) return markOutcome(error, 'not_paid');
	const context = (error as { context?: IDataObject }).context;
	if (context !== undefined && typeof context === 'object') context.paymentOutcome = 'not_paid';
	return error;
}
