import { createHash, randomUUID } from 'node:crypto';
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
 * Otherwise the key is derived from the execution id, the node id, the node's run index and the
 * item index: n8n's Retry On Fail re-runs the node inside the same execution and run, so a
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
	return `n8n-${executionId}-${node.id}-${runIndexOf(ctx, itemIndex)}-${itemIndex}`;
}
