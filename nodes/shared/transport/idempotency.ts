import { createHash, randomUUID } from 'node:crypto';

import { fitted, identity } from '../identity';
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** The service accepts Idempotency-Key values of at most this many characters. */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

const PRINTABLE = /^[\x21-\x7e]+$/;
/** A UUID, in either letter case. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function runIndexOf(ctx: IExecuteFunctions, itemIndex: number): number {
	try {
		const proxy = ctx.getWorkflowDataProxy(itemIndex);
		return typeof proxy.$runIndex === 'number' ? proxy.$runIndex : 0;
	} catch {
		return 0;
	}
}

/** An action that can happen to one record only once, e.g. accepting quote 0b6a…. */
export interface OnceFor {
	/** Short name of the action, e.g. "accept". */
	action: string;
	/** The record it happens to, e.g. the quote ID. */
	id: string;
}

/**
 * The key of an action that happens to one record once. A UUID names the same record in either
 * letter case, so it is keyed in lower case: the same quote copied in upper case from a log and
 * in lower case from an API answer is one payment, not two.
 */
function onceKey({ action, id: given }: OnceFor): string {
	const id = UUID.test(given) ? given.toLowerCase() : given;
	return fitted(identity('pay', ['once'], [action, id]), IDEMPOTENCY_KEY_MAX_LENGTH);
}

/**
 * `<instance ID>/<workflow ID>`, each empty where the context does not offer it (the rest of a
 * derived key still separates what it must).
 */
function instanceAndWorkflow(ctx: IExecuteFunctions): string {
	let instanceId = '';
	let workflowId = '';
	try {
		instanceId = String(ctx.getInstanceId() ?? '');
	} catch {
		// Not offered by this context.
	}
	try {
		workflowId = String(ctx.getWorkflow().id ?? '');
	} catch {
		// Not offered by this context.
	}
	return `${instanceId}/${workflowId}`;
}

/**
 * What makes a derived key unique beyond one n8n instance and workflow, as 16 hex characters of
 * SHA-256 over n8n's instance ID and the workflow ID. Execution IDs restart at 1 with every n8n
 * database and an exported workflow keeps its node IDs, so without it a second instance would send
 * keys another already stored. It is read from what n8n gives every run of the same execution
 * (nothing stored by a run, which a run that crashed never saved), so Retry On Fail, a Wait resume
 * and a queue worker's re-run of a job whose worker died all send the same key.
 */
function instanceScope(ctx: IExecuteFunctions): string {
	return createHash('sha256').update(instanceAndWorkflow(ctx)).digest('hex').slice(0, 16);
}

/**
 * A key or reference the user (or an expression, or the model) gave, as its exact text. An
 * expression such as `{{ $json.invoiceId }}` hands over a number: 1042 is "1042". What has no
 * single exact text is refused, naming the field, the rule and the value, before any request:
 * a number beyond JavaScript's safe integers (its digits were already changed), NaN or
 * Infinity, true/false, arrays and objects. Empty (or absent) is ''.
 */
export function exactText(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	field: string,
): string {
	if (value === undefined || value === null) return '';
	if (typeof value === 'string') return value.trim();
	if (typeof value === 'bigint') return value.toString();
	if (typeof value === 'number' && Number.isFinite(value)) {
		if (!Number.isInteger(value) || Number.isSafeInteger(value)) return String(value);
	}
	const shown = typeof value === 'object' ? JSON.stringify(value) : String(value);
	const kind = Array.isArray(value)
		? 'a list'
		: typeof value === 'object'
			? 'an object'
			: typeof value;
	const rule =
		typeof value === 'number'
			? `a number here must be a finite number no larger than ${Number.MAX_SAFE_INTEGER} (larger integers have already lost digits); pass it as text, e.g. {{ String($json.id) }} or the field as it comes from your source`
			: 'it must be text or a whole number';
	throw new NodeOperationError(
		ctx.getNode(),
		`${field} must be text, got ${kind}: ${shown.slice(0, 80)}`,
		{
			itemIndex,
			description: `${field}: ${rule}. Nothing was sent to the payment service.`,
		},
	);
}

/**
 * A payment reference as it names a payment: Unicode-normalised (NFKC), invisible characters
 * dropped, every dash or minus sign a hyphen, trimmed, inner white space as one space, in lower
 * case (İNV is inv). A model or a person writes the same invoice as "INV-1042", "inv-1042",
 * "INV–1042" or "INV-1042 " from one call to the next; those are one payment, never four.
 */
export function canonicalReference(reference: string): string {
	return reference
		.normalize('NFKC')
		.replace(INVISIBLE, '')
		.replace(DASHES, '-')
		.trim()
		.replace(/\s+/g, ' ')
		.toLowerCase()
		.replace(/i\u0307/g, 'i');
}

/** Characters that show as nothing: zero-width spaces and joiners, word joiner, soft hyphen, BOM. */
const INVISIBLE = /[\u00ad\u200b-\u200f\u2060-\u2064\ufeff]/g;
/** Dashes and minus signs that read as a hyphen in a reference (INV‐100, INV–100, INV−100). */
const DASHES = /[\u2010-\u2015\u2212\ufe58\ufe63\uff0d]/g;

/**
 * The Idempotency-Key of a payment a tool call names by its reference:
 * `ref:<resource.operation>:<reference>` (nodes/shared/identity.ts), the reference canonical
 * (canonicalReference). A reference names a payment of the company, so nothing of n8n is part of
 * it: not the execution (an MCP Server Trigger runs the tool before n8n creates one, and every MCP
 * call is a new one), nor the node, workflow or instance (an agent's tool node and an MCP
 * server's, a duplicated workflow, a second n8n on the same company, all asking for invoice
 * INV-1042, ask for one payment). The service keeps keys per company, which is the scope the
 * credential gives. So the same reference, by any route, sends the same key.
 */
export function referenceKey(given: string, operation: string): string {
	return fitted(
		identity('ref', [operation], [canonicalReference(given)]),
		IDEMPOTENCY_KEY_MAX_LENGTH,
	);
}

/**
 * The External ID a tool call's payment carries (a payout, a card request): the reference as it
 * names the payment (canonicalReference), fitted to what the service takes. It carries no scope of
 * its own: a payout's External ID is only ever compared within the company's payout list (its
 * External ID filter), a card's within its cards, so the record's kind and company are where it
 * is kept; and the user reads it as their own reference.
 */
export function referenceExternalId(given: string, maxLength: number): string {
	return fitted(canonicalReference(given), maxLength);
}

/**
 * The Idempotency-Key for one item of one money-moving call.
 *
 * A key the user set is checked and used as is.
 *
 * For an action that can happen to a record only once (`once`, e.g. accepting a quote) the key
 * is derived from that record alone: Retry On Fail, a re-run of a failed execution from n8n's
 * execution list, a loop or another workflow accepting the same quote all send the same key,
 * so the service answers with the stored result and the quote is never paid twice.
 *
 * Otherwise the key is derived only from what n8n gives every run of one execution: the n8n
 * instance and the workflow (`instanceScope`), the execution id, the node id, the node's run index
 * and the item index. n8n's Retry On Fail re-runs the node inside the same execution and run, a
 * Wait node's resume continues the same execution, and a queue worker that takes over the job of
 * a worker that died runs the same execution again from what was saved, so the node's run index
 * is the same: each sends the same key and a service that keeps keys returns the stored answer
 * instead of paying twice. A loop over batches (a new run) or a new execution (including a re-run
 * of a failed one from the execution list) gets new keys. Without an execution id (nothing to stay stable across) a random key is
 * used, so two unrelated calls can never be mistaken for one.
 *
 * As an AI agent's or MCP client's tool the key follows the payment reference instead
 * (`referenceKey`, chosen by `moneyKey` in CompanyPayments/common/money.ts).
 */
export function idempotencyKey(
	ctx: IExecuteFunctions,
	itemIndex: number,
	userValue: unknown,
	field = 'Idempotency Key',
	once?: OnceFor,
): string {
	const given = exactText(ctx, itemIndex, userValue, field);
	if (given !== '') {
		if (given.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
			throw new NodeOperationError(
				ctx.getNode(),
				`${field} must be at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters, got ${given.length}`,
				{
					itemIndex,
					description: `Value starts with "${given.slice(0, 40)}…". Nothing was sent to the payment service.`,
				},
			);
		}
		if (!PRINTABLE.test(given)) {
			throw new NodeOperationError(
				ctx.getNode(),
				`${field} must be printable ASCII without spaces, got "${given}"`,
				{ itemIndex, description: 'Nothing was sent to the payment service.' },
			);
		}
		return given;
	}
	if (once) return onceKey(once);
	const executionId = ctx.getExecutionId();
	if (!executionId) return identity('pay', ['random'], [randomUUID()]);
	const node = ctx.getNode();
	const scope = instanceScope(ctx);
	const parts = [executionId, node.id, String(runIndexOf(ctx, itemIndex)), String(itemIndex)];
	return fitted(identity('pay', [scope], parts), IDEMPOTENCY_KEY_MAX_LENGTH);
}
