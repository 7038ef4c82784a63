import type { INodeProperties } from 'n8n-workflow';

import { PAYMENT_REFERENCE, PAYMENT_REFERENCE_LABEL } from '../../shared/money';
import type { ResourceDefinition } from '../types';
import type { ToolEntry } from './catalog';
import { toolEntry } from './catalog';

/** Name of the option that lets an agent run money-moving operations. */
export const ALLOW_MONEY = 'agentMayMoveMoney';
/** Name of the option of list operations that keeps only the fields a person would read. */
export const COMPACT_OUTPUT = 'compactOutput';

const MONEY_NOTICE =
	'Moves money: refused unless Let the Agent Move Money is on. Each call needs a Payment Reference naming the payment in your records. After an unknown outcome the reference is refused until lookAgainAt, and the model is told to run Resolve Outcome first. Use Human review.';

/** Shown when a money tool's Payment Reference is empty, e.g. cleared in a saved workflow. */
const NO_REFERENCE_NOTICE =
	"Payment Reference is empty, so every call of this tool is refused. Click the field's AI button (Let the model define this parameter) so the model passes the reference, or map one from your data (e.g. {{ $json.invoiceId }}).";

/** What the model reads about the reference (n8n puts it into the tool's input schema). */
const REFERENCE_FOR_MODEL =
	'What this payment is in the user records: the invoice, ticket or payroll line it pays, e.g. INV-1042. The same reference always means the same payment; use a new one only for a new payment, and never invent one';

/**
 * The Payment Reference of a money-moving tool: by default the model gives it (`$fromAI`), and
 * the user may map it instead. The derived Idempotency-Key follows it (shared/money/key.ts).
 */
const PAYMENT_REFERENCE_FIELD: INodeProperties = {
	displayName: PAYMENT_REFERENCE_LABEL,
	name: PAYMENT_REFERENCE,
	type: 'string',
	default: `={{ $fromAI('${PAYMENT_REFERENCE}', '${REFERENCE_FOR_MODEL}', 'string') }}`,
	required: true,
	description:
		'What this payment is in your records (invoice, ticket, payroll line): one reference is one payment, and the Idempotency-Key is derived from it. What a repeat does, and its window, is in the tool description.',
	hint: 'Filled by the model by default; map it from your data instead if you have one',
};

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
 * - for money-moving operations, a notice, the Payment Reference (from the model by default) with
 *   a notice when it is empty, and Let the Agent Move Money (off);
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
			{ ...PAYMENT_REFERENCE_FIELD, displayOptions: shown },
			{
				displayName: NO_REFERENCE_NOTICE,
				name: 'agentReferenceNotice',
				type: 'notice',
				default: '',
				displayOptions: { show: { ...shown?.show, [PAYMENT_REFERENCE]: [''] } },
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
	if (entry.kind === 'credentials') {
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
