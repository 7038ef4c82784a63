import type { INodeProperties } from 'n8n-workflow';

import type { ResourceDefinition } from '../types';
import type { ToolEntry } from './catalog';
import { toolEntry } from './catalog';

/** Name of the option that lets an agent run money-moving operations. */
export const ALLOW_MONEY = 'agentMayMoveMoney';
/** Name of the option of list operations that keeps only the fields a person would read. */
export const COMPACT_OUTPUT = 'compactOutput';

const MONEY_NOTICE =
	"An AI agent decides when this tool runs. This operation moves money, so it is refused unless you turn on Let the Agent Move Money. If you do, put this tool behind n8n's Human review (n8n 2.6 and later: on the agent's Tools connection, add a human review step such as Send Email or Slack and connect this tool to it) so a person approves each call before any money moves. Repeating the same call within one run pays once.";

const SECRET_NOTICE =
	'Not available to an AI agent: this operation returns or sets credentials (API keys, session tokens, webhook secrets, passwords), which must never reach a model or its logs. Every call of this tool is refused; do this step in a regular workflow instead.';

/** n8n hands this field's value to the model as the tool's description. */
const TOOL_DESCRIPTION: INodeProperties = {
	displayName: 'Description',
	name: 'toolDescription',
	type: 'string',
	default: '',
	required: true,
	typeOptions: { rows: 3 },
	description:
		'What the AI model reads about this tool: what it does, which fields it needs, what it returns',
};

function shownAsTool(resource: string, operation: string): INodeProperties['displayOptions'] {
	return { show: { '@tool': [true], resource: [resource], operation: [operation] } };
}

/**
 * The fields the node shows only as an AI agent's tool (n8n's `'@tool'` display option, true for
 * the derived `…Tool` node type), and the compact-output option of list operations:
 *
 * - `toolDescription`, one per operation, prefilled with what the model should know about it. n8n
 *   hands this text to the model as the tool's description (it adds its own generic one only
 *   when a node has none), and the user can edit it.
 * - for money-moving operations, a notice and Let the Agent Move Money (off);
 * - for operations that handle credentials, a notice that they are refused;
 * - for list operations, Compact Output: on by default in a tool, off in a workflow.
 */
export function toolProperties(resources: ResourceDefinition[]): INodeProperties[] {
	return resources.flatMap((resource) =>
		resource.operations.flatMap((operation) => {
			const entry = toolEntry(resource.value, operation.value);
			return entry ? operationToolProperties(resource.value, operation.value, entry) : [];
		}),
	);
}

/** The tool fields of one operation, each shown for that resource and operation only. */
function operationToolProperties(
	resource: string,
	operation: string,
	entry: ToolEntry,
): INodeProperties[] {
	const shown = shownAsTool(resource, operation);
	const properties: INodeProperties[] = [
		{ ...TOOL_DESCRIPTION, default: entry.text, displayOptions: shown },
	];
	if (entry.kind === 'money') {
		properties.push(
			{
				displayName: MONEY_NOTICE,
				name: 'agentMoneyNotice',
				type: 'notice',
				default: '',
				displayOptions: shown,
			},
			{
				displayName: 'Let the Agent Move Money',
				name: ALLOW_MONEY,
				type: 'boolean',
				default: false,
				description:
					'Whether the AI agent may run this money-moving operation on its own decision. Off, every call is refused with a message the model reads.',
				displayOptions: shown,
			},
		);
	}
	if (entry.kind === 'secret') {
		properties.push({
			displayName: SECRET_NOTICE,
			name: 'agentSecretNotice',
			type: 'notice',
			default: '',
			displayOptions: shown,
		});
	}
	if (entry.compact) {
		const compact: INodeProperties = {
			displayName: 'Compact Output',
			name: COMPACT_OUTPUT,
			type: 'boolean',
			default: false,
			description:
				'Whether to output only the fields a person would read (IDs, status, amounts, dates) instead of whole records',
			displayOptions: {
				show: { '@tool': [false], resource: [resource], operation: [operation] },
			},
		};
		properties.push(compact, { ...compact, default: true, displayOptions: shown });
	}
	return properties;
}
