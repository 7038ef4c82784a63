import { randomUUID } from 'node:crypto';
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

/**
 * The Idempotency-Key for one item of one money-moving call.
 *
 * A key the user set is checked and used as is. Otherwise it is derived from the execution id,
 * the node id, the node's run index and the item index: n8n's Retry On Fail re-runs the node
 * inside the same execution and run, so a retry sends the same key and the service returns the
 * stored answer instead of paying twice, while a loop over batches (a new run) or a new
 * execution gets new keys. Without an execution id (nothing to stay stable across) a random key
 * is used, so two unrelated calls can never be mistaken for one.
 */
export function idempotencyKey(
	ctx: IExecuteFunctions,
	itemIndex: number,
	userValue: unknown,
	field = 'Idempotency Key',
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
	const executionId = ctx.getExecutionId();
	if (!executionId) return `n8n-${randomUUID()}`;
	const node = ctx.getNode();
	return `n8n-${executionId}-${node.id}-${runIndexOf(ctx, itemIndex)}-${itemIndex}`;
}
