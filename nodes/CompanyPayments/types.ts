import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/** What an operation returns for one input item: one output item, or one per record. */
export type OperationResult = IDataObject | IDataObject[];

/** One operation of one resource: its UI fields and what it does for one item. */
export interface OperationDefinition {
	/** Fixed operation value, e.g. "prepare". */
	value: string;
	/** Name shown in the operation list, e.g. "Prepare Quote". */
	name: string;
	/** Action label shown in the nodes panel, e.g. "Prepare a quote from a QR code". */
	action: string;
	description: string;
	/** The operation's own fields; resource and operation display options are added for it. */
	properties: INodeProperties[];
	/** Reads only: items may run concurrently. Anything that changes state runs one item at a time. */
	readOnly?: boolean;
	execute(this: IExecuteFunctions, itemIndex: number): Promise<OperationResult>;
}

export interface ResourceDefinition {
	/** Fixed resource value, e.g. "order". */
	value: string;
	operations: OperationDefinition[];
}
