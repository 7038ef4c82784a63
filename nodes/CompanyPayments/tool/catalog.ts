import { resources } from '../resources';
import type { OperationKind } from '../types';

/**
 * What each operation is when an AI agent or MCP client calls it: how far it may go, the words
 * the model reads about it, and the fields of a compact list record. Each operation states these
 * in its own file (`kind` and `tool`, types.ts); this is their index by `resource.operation`.
 *
 * - `read`: reads only; runs.
 * - `write`: changes something but moves no money; runs.
 * - `money`: reserves, debits or returns funds; refused unless the workflow owner turned on
 *   "Let the Agent Move Money" for this tool, and keyed by the payment reference.
 * - `credentials`: returns or sets credentials (API keys, session tokens, webhook secrets,
 *   passwords); never available to an agent, whatever the options say.
 */
export type ToolKind = OperationKind;

export interface ToolEntry {
	kind: ToolKind;
	/** What the model reads: what the operation does, which fields it needs, what it returns. */
	text: string;
	/** List operations: the fields of a compact record, the ones a person would read. */
	compact?: string[];
}

let built: Readonly<Record<string, ToolEntry>> | undefined;

/**
 * Every operation's entry, keyed by `resource.operation`. Built on first use from the resources
 * (not at load: the operations' modules load the tool's own modules while they load).
 */
export function toolCatalog(): Readonly<Record<string, ToolEntry>> {
	built ??= Object.fromEntries(
		resources.flatMap((resource) =>
			resource.operations.map((operation) => [
				`${resource.value}.${operation.value}`,
				{ kind: operation.kind, ...operation.tool },
			]),
		),
	);
	return built;
}

export function toolEntry(resource: string, operation: string): ToolEntry | undefined {
	return toolCatalog()[`${resource}.${operation}`];
}
