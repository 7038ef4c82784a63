import type { IExecuteFunctions, NodeExecutionHint } from 'n8n-workflow';

import { gateText } from '../../shared/gate';

/** Hints already given in this run (items run concurrently; each hint is said once). */
const given = new WeakMap<object, Set<string>>();

/**
 * Shows a hint above the node's output in the editor, once per run, through the gate. Contexts without hints
 * (e.g. the node running as an AI tool) get none; nothing else changes.
 */
export function addHint(
	ctx: IExecuteFunctions,
	message: string,
	type: NodeExecutionHint['type'] = 'info',
): void {
	if (typeof ctx.addExecutionHints !== 'function') return;
	let messages = given.get(ctx);
	if (!messages) {
		messages = new Set();
		given.set(ctx, messages);
	}
	if (messages.has(message)) return;
	messages.add(message);
	ctx.addExecutionHints({ message: gateText(ctx, message), type, location: 'outputPane' });
}
