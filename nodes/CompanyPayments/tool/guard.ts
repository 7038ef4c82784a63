import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { compactRecord as cutRecord } from '../common/simple';
import { readBoolean } from '../common/validation';
import type { OperationDefinition } from '../types';
import { toolEntry } from './catalog';
import { ALLOW_MONEY, COMPACT_OUTPUT } from './properties';

/**
 * What the model reads when a call is refused: what happened, that nothing was done, and what to
 * do instead. A refusal is a tool result, not an error, on every n8n version.
 */
export interface Refusal extends IDataObject {
	refused: true;
	error: string;
	whatToDo: string;
}

const NOTHING_DONE = 'Nothing was sent to the payment service.';

/**
 * Why this tool call must not run, or undefined when it may:
 * - an operation that handles credentials (`secret` in the catalog), or Get Sensitive Data with
 *   masking turned off, is never available;
 * - a money-moving operation runs only when the user turned on Let the Agent Move Money.
 * An operation missing from the catalog is refused too: new operations are opened to agents on
 * purpose.
 */
export function refusal(
	ctx: IExecuteFunctions,
	resource: string,
	operation: OperationDefinition,
	itemIndex: number,
): Refusal | undefined {
	const entry = toolEntry(resource, operation.value);
	const what = `"${operation.name}" (${operation.action.toLowerCase()})`;
	if (!entry) {
		return {
			refused: true,
			error: `The operation ${what} is not available to an AI agent. ${NOTHING_DONE}`,
			whatToDo: 'Tell the user that a person has to do this step; do not call this tool again.',
		};
	}
	const reveals =
		resource === 'card' &&
		operation.value === 'getSensitiveData' &&
		ctx.getNodeParameter('maskSensitiveData', itemIndex, true) === false;
	if (entry.kind === 'credentials' || reveals) {
		return {
			refused: true,
			error: `The operation ${what} is not available to an AI agent: it handles credentials or card secrets (API keys, session tokens, webhook secrets, passwords, full card numbers), which must never reach an AI model. ${NOTHING_DONE}`,
			whatToDo:
				'Tell the user that a person has to do this in n8n or in the payment service cabinet. Do not call this tool again: it is refused every time.',
		};
	}
	if (entry.kind === 'money' && ctx.getNodeParameter(ALLOW_MONEY, itemIndex, false) !== true) {
		return {
			refused: true,
			error: `Refused: ${what} moves money, and this tool is not allowed to move money on an AI agent's decision. ${NOTHING_DONE}`,
			whatToDo:
				'Tell the user that a person must make or approve this payment, and give them the details you would have used (amounts, recipient, IDs). Do not call this tool again for it: it is refused every time until the workflow owner turns on "Let the Agent Move Money".',
		};
	}
	return undefined;
}

/** A record cut to the fields a person would read, at most 10 (common/simple.ts). */
export function compactRecord(record: IDataObject, fields: string[]): IDataObject {
	return cutRecord(record, fields) as IDataObject;
}

/** Whether a list operation's output is compact: Compact Output, on by default in a tool. */
export function compactFields(
	ctx: IExecuteFunctions,
	resource: string,
	operation: string,
	itemIndex: number,
	asTool: boolean,
): string[] | undefined {
	const fields = toolEntry(resource, operation)?.compact;
	if (!fields) return undefined;
	return readBoolean(ctx, itemIndex, COMPACT_OUTPUT, 'Compact Output', asTool) ? fields : undefined;
}
