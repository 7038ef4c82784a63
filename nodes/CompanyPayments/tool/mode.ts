import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { UUID, exactText, idempotencyKey, referenceKey } from '../../shared/transport/idempotency';

/*
 * Tool mode: whether the node runs as an AI agent's (or MCP client's) tool, the payment
 * reference such a call names its payment by, and the Idempotency-Key a money-moving operation
 * sends in either mode.
 */

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

/**
 * The Idempotency-Key of one item of a money-moving operation. As a tool it is derived from the
 * payment reference (`referenceKey`: the same reference by any route sends the same key), and a
 * call without one is refused before anything is sent; otherwise it is the node's own key
 * (`idempotencyKey`, whose arguments it takes: the user's key, or one derived from the
 * execution or the record).
 */
export function paymentKey(...args: Parameters<typeof idempotencyKey>): string {
	const [ctx, itemIndex] = args;
	if (!runsAsAgentTool(ctx)) return idempotencyKey(...args);
	const reference = paymentReference(ctx, itemIndex);
	if (reference === '') {
		throw new NodeOperationError(
			ctx.getNode(),
			`${PAYMENT_REFERENCE_LABEL} is required when an AI agent or MCP client moves money`,
			{ itemIndex, description: 'Nothing was sent to the payment service.' },
		);
	}
	const resource = String(ctx.getNodeParameter('resource', itemIndex, ''));
	const operation = String(ctx.getNodeParameter('operation', itemIndex, ''));
	return referenceKey(ctx, itemIndex, reference, `${resource}.${operation}`);
}

const PLAIN_DECIMAL = /^[+-]?\d+(\.\d+)?$/;
const SEPARATED_NUMBER = /^\+?[\d\s().-]+$/;

/**
 * One value as the service would understand it, so the same request written two ways compares
 * equal: text trimmed, "1500.50" and 1500.5 alike, a card or phone number without its spaces,
 * dashes and brackets, a UUID in lower case, empty values and their absence alike, object keys
 * in order.
 */
export function normaliseArgument(value: unknown): unknown {
	if (value === null || value === undefined) return undefined;
	if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
	if (typeof value === 'boolean') return value;
	if (typeof value === 'string') {
		const text = value.trim().replace(/\s+/g, ' ');
		if (text === '') return undefined;
		if (PLAIN_DECIMAL.test(text)) {
			const [whole, fraction = ''] = text.replace(/^\+/, '').split('.');
			const kept = fraction.replace(/0+$/, '');
			return kept === '' ? whole : `${whole}.${kept}`;
		}
		if (SEPARATED_NUMBER.test(text) && text.replace(/\D/g, '').length >= 7) {
			return `${text.startsWith('+') ? '+' : ''}${text.replace(/\D/g, '')}`;
		}
		return UUID.test(text) ? text.toLowerCase() : text;
	}
	if (Array.isArray(value)) return value.map(normaliseArgument);
	if (typeof value === 'object') {
		const out: Record<string, unknown> = {};
		for (const key of Object.keys(value as object).sort()) {
			const normal = normaliseArgument((value as Record<string, unknown>)[key]);
			if (normal !== undefined) out[key] = normal;
		}
		return Object.keys(out).length === 0 ? undefined : out;
	}
	return String(value);
}
