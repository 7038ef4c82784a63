import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** The service accepts Idempotency-Key values of at most this many characters. */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

const PRINTABLE = /^[\x21-\x7e]+$/;

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

function onceKey({ action, id }: OnceFor): string {
	const readable = `n8n-${action}-${id}`;
	if (readable.length <= IDEMPOTENCY_KEY_MAX_LENGTH && PRINTABLE.test(readable)) return readable;
	return `n8n-${action}-sha256-${createHash('sha256').update(id).digest('hex')}`;
}

/** Name of the execution custom data entry holding the execution's mark (see `executionMark`). */
export const EXECUTION_MARK_NAME = 'companyPaymentsRun';

const MARK = /^[0-9a-f]{12}$/;

interface CustomData {
	get(name: string): unknown;
	set(name: string, value: string): void;
}

/**
 * A random value fixed once per execution and stored with it (n8n's execution custom data, under
 * EXECUTION_MARK_NAME): Retry On Fail, a Wait node's resume and a queue worker all read the same
 * one, while an execution with the same ID in another n8n database (IDs restart with every
 * database, and moving one keeps the encryption key and so the instance ID) has another. Empty
 * when the context offers no custom data or its 10 entries are taken.
 */
function executionMark(ctx: IExecuteFunctions, itemIndex: number): string {
	try {
		const execution = (ctx.getWorkflowDataProxy(itemIndex) as { $execution?: unknown })
			.$execution as { customData?: CustomData } | undefined;
		const data = execution?.customData;
		if (!data) return '';
		const stored = data.get(EXECUTION_MARK_NAME);
		if (typeof stored === 'string' && MARK.test(stored)) return stored;
		const mark = randomBytes(6).toString('hex');
		data.set(EXECUTION_MARK_NAME, mark);
		return data.get(EXECUTION_MARK_NAME) === mark ? mark : '';
	} catch {
		return '';
	}
}

/**
 * What makes a derived key unique beyond one n8n database, as 16 hex characters of SHA-256 over
 * n8n's instance ID, the workflow ID and the execution's mark. Execution IDs restart at 1 with
 * every n8n database and an exported workflow keeps its node IDs, so without this a second
 * instance, or the same one after a move to a new database, would send keys the service already
 * stored and get an old payout back instead of paying. Stable within one execution, so Retry On
 * Fail still sends the same key.
 */
function instanceScope(ctx: IExecuteFunctions, itemIndex: number): string {
	let instanceId = '';
	let workflowId = '';
	try {
		instanceId = String(ctx.getInstanceId() ?? '');
	} catch {
		// Not offered by this context: the workflow ID and the mark still separate executions.
	}
	try {
		workflowId = String(ctx.getWorkflow().id ?? '');
	} catch {
		// Not offered by this context.
	}
	const mark = executionMark(ctx, itemIndex);
	return createHash('sha256')
		.update(`${instanceId}/${workflowId}/${mark}`)
		.digest('hex')
		.slice(0, 16);
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
 * Otherwise the key is derived from the n8n instance, the workflow and a mark stored with the
 * execution (`instanceScope`), the execution id, the node id, the node's run index and the item index: n8n's Retry On Fail re-runs the node inside the same execution and run, so a
 * retry sends the same key and the service returns the stored answer instead of paying twice,
 * while a loop over batches (a new run) or a new execution (including a re-run of a failed
 * one) gets new keys. Without an execution id (nothing to stay stable across) a random key is
 * used, so two unrelated calls can never be mistaken for one.
 */
export function idempotencyKey(
	ctx: IExecuteFunctions,
	itemIndex: number,
	userValue: unknown,
	field = 'Idempotency Key',
	once?: OnceFor,
): string {
	const given = typeof userValue === 'string' ? userValue.trim() : '';
	if (given !== '') {
		if (given.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
			throw new NodeOperationError(
				ctx.getNode(),
				`${field} must be at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters, got ${given.length}`,
				{ itemIndex, description: `Value starts with "${given.slice(0, 40)}…"` },
			);
		}
		if (!PRINTABLE.test(given)) {
			throw new NodeOperationError(
				ctx.getNode(),
				`${field} must be printable ASCII without spaces, got "${given}"`,
				{ itemIndex },
			);
		}
		return given;
	}
	if (once) return onceKey(once);
	const executionId = ctx.getExecutionId();
	if (!executionId) return `n8n-${randomUUID()}`;
	const node = ctx.getNode();
	const scope = instanceScope(ctx, itemIndex);
	return `n8n-${scope}-${executionId}-${node.id}-${runIndexOf(ctx, itemIndex)}-${itemIndex}`;
}
