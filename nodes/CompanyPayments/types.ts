import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { MoneyContract } from '../shared/money';

/** What an operation returns for one input item: one output item, or one per record. */
export type OperationResult = IDataObject | IDataObject[];

/**
 * What an operation does, stated once in its file: `read` (reads only), `write` (changes
 * something, moves no money), `money` (reserves, debits or returns funds: sends an
 * Idempotency-Key, never a default, refused to an AI agent without the opt-in), `credentials`
 * (returns or sets credentials: never available to an AI agent).
 */
export type OperationKind = 'read' | 'write' | 'money' | 'credentials';

/** What every operation declares, whatever its kind. */
interface OperationBase {
	/** Fixed operation value, e.g. "prepare". */
	value: string;
	/** Name shown in the operation list, e.g. "Prepare Quote". */
	name: string;
	/** Action label shown in the nodes panel, e.g. "Prepare a quote from a QR code". */
	action: string;
	description: string;
	/** The operation's own fields; resource and operation display options are added for it. */
	properties: INodeProperties[];
	/**
	 * Items may run at once (READ_CONCURRENCY in pool.ts): operations that change nothing on the
	 * service. Not the same as `kind: 'read'` (e.g. Prepare Quote creates a quote, so it runs one
	 * item at a time, while it is safe for an agent).
	 */
	concurrent?: boolean;
	/** What an AI agent reads about it, and the fields of a compact list record. */
	tool: { text: string; compact?: string[] };
	/**
	 * Its row in docs/operations.md (scripts/docs.mjs writes the tables from these). Without
	 * `permission` the row says the document names none; without `notes` the cell stays empty.
	 */
	docs: { endpoint: string; permission?: string; notes?: string };
	execute(this: IExecuteFunctions, itemIndex: number): Promise<OperationResult>;
}

/**
 * One operation of one resource: its UI fields and what it does for one item. A money operation
 * declares its money contract beside its kind (shared/money/contract.ts); no other operation has one.
 */
export type OperationDefinition =
	| (OperationBase & { kind: 'money'; money: MoneyContract })
	| PlainOperation;

/** An operation that moves no money. */
export type PlainOperation = OperationBase & {
	kind: Exclude<OperationKind, 'money'>;
	money?: never;
};

export interface ResourceDefinition {
	/** Fixed resource value, e.g. "order". */
	value: string;
	operations: OperationDefinition[];
}
