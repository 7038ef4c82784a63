import disputeFromSupportTicket from '../../examples/dispute-from-support-ticket.json';
import mcpPaymentsServer from '../../examples/mcp-payments-server.json';
import payQrCodeFromForm from '../../examples/pay-qr-code-from-form.json';
import payoutRefundsAndAmlAlerts from '../../examples/payout-refunds-and-aml-alerts.json';
import queueModeOnce from '../../examples/queue-mode-once-with-redis-node.json';
import resolveUnknownPayout from '../../examples/resolve-unknown-payout.json';
import supportAgentDispute from '../../examples/support-agent-dispute.json';
import { resources } from '../../nodes/CompanyPayments/resources';
import { toolCatalog } from '../../nodes/CompanyPayments/tool';

interface ExampleNode {
	name: string;
	type: string;
	position: number[];
	parameters: Record<string, unknown>;
}

const EXAMPLES: Array<[string, { nodes: ExampleNode[] }]> = [
	['dispute-from-support-ticket', disputeFromSupportTicket],
	['mcp-payments-server', mcpPaymentsServer],
	['pay-qr-code-from-form', payQrCodeFromForm],
	['payout-refunds-and-aml-alerts', payoutRefundsAndAmlAlerts],
	['queue-mode-once-with-redis-node', queueModeOnce],
	['resolve-unknown-payout', resolveUnknownPayout],
	['support-agent-dispute', supportAgentDispute],
];

const ACTION = 'n8n-nodes-company-payments.companyPayments';

/** n8n draws a node 100 × 100 with its name below it; a sticky note's defaults are 240 × 160. */
const NODE = { width: 100, height: 140 };
const STICKY = { width: 240, height: 160 };

interface Box {
	name: string;
	left: number;
	top: number;
	right: number;
	bottom: number;
}

function box(node: ExampleNode): Box {
	const sticky = node.type === 'n8n-nodes-base.stickyNote';
	const width = sticky ? Number(node.parameters.width ?? STICKY.width) : NODE.width;
	const height = sticky ? Number(node.parameters.height ?? STICKY.height) : NODE.height;
	const [left, top] = node.position;
	return { name: node.name, left, top, right: left + width, bottom: top + height };
}

function overlap(a: Box, b: Box): boolean {
	return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

describe.each(EXAMPLES)('example %s', (_name, workflow) => {
	it('has no sticky note overlapping another sticky note or a node', () => {
		const stickies = workflow.nodes.filter((node) => node.type === 'n8n-nodes-base.stickyNote');
		const clashes: string[] = [];
		for (const sticky of stickies) {
			for (const other of workflow.nodes) {
				if (other === sticky) continue;
				if (overlap(box(sticky), box(other))) clashes.push(`${sticky.name} / ${other.name}`);
			}
		}
		expect(clashes).toEqual([]);
	});

	it('names resource and operation of every Company Payments node, both existing', () => {
		for (const node of workflow.nodes) {
			if (node.type !== ACTION && node.type !== `${ACTION}Tool`) continue;
			const resource = resources.find((r) => r.value === node.parameters.resource);
			expect(resource).toBeDefined();
			expect(resource?.operations.map((o) => o.value)).toContain(node.parameters.operation);
		}
	});
});

describe('example support-agent-dispute', () => {
	const nodes = supportAgentDispute.nodes as unknown as Array<
		ExampleNode & { type: string; parameters: Record<string, unknown> }
	>;
	const connections = supportAgentDispute.connections as Record<
		string,
		Record<string, Array<Array<{ node: string }>>>
	>;
	const tools = nodes.filter((node) => node.type === `${ACTION}Tool`);

	it('puts every money-moving tool behind Human review, and only those need the option', () => {
		expect(tools.length).toBeGreaterThan(0);
		for (const tool of tools) {
			const key = `${String(tool.parameters.resource)}.${String(tool.parameters.operation)}`;
			const kind = toolCatalog()[key]?.kind;
			expect(kind).toBeDefined();
			expect(kind).not.toBe('credentials');
			const target = connections[tool.name]?.ai_tool?.[0]?.[0]?.node;
			const reviewed = nodes.find((node) => node.name === target)?.type.endsWith('HitlTool');
			if (kind === 'money') {
				expect({ tool: tool.name, reviewed }).toEqual({ tool: tool.name, reviewed: true });
				expect(tool.parameters.agentMayMoveMoney).toBe(true);
			} else {
				expect({ tool: tool.name, target }).toEqual({ tool: tool.name, target: 'AI Agent' });
			}
		}
	});
});

describe('example mcp-payments-server', () => {
	const nodes = mcpPaymentsServer.nodes as unknown as ExampleNode[];
	const connections = mcpPaymentsServer.connections as Record<
		string,
		Record<string, Array<Array<{ node: string }>>>
	>;
	const trigger = nodes.find((node) => node.type === '@n8n/n8n-nodes-langchain.mcpTrigger');
	const tools = nodes.filter((node) => node.type === `${ACTION}Tool`);

	it('serves its tools from an MCP Server Trigger (version 2: streamable HTTP and SSE)', () => {
		expect(trigger).toMatchObject({ typeVersion: 2, parameters: { path: 'company-payments' } });
		expect(tools.length).toBeGreaterThan(0);
		for (const tool of tools) {
			expect({ tool: tool.name, target: connections[tool.name]?.ai_tool?.[0]?.[0]?.node }).toEqual({
				tool: tool.name,
				target: trigger?.name,
			});
		}
	});

	it('keeps money tools refused (no Human review behind MCP) and offers no credential operation', () => {
		for (const tool of tools) {
			const key = `${String(tool.parameters.resource)}.${String(tool.parameters.operation)}`;
			const kind = toolCatalog()[key]?.kind;
			expect([key, kind]).not.toEqual([key, 'credentials']);
			if (kind === 'money') expect([key, tool.parameters.agentMayMoveMoney]).toEqual([key, false]);
		}
		expect(
			tools.some(
				(tool) =>
					toolCatalog()[`${String(tool.parameters.resource)}.${String(tool.parameters.operation)}`]
						?.kind === 'money',
			),
		).toBe(true);
	});
});

describe('example resolve-unknown-payout', () => {
	const nodes = resolveUnknownPayout.nodes as unknown as ExampleNode[];
	const connections = resolveUnknownPayout.connections as Record<
		string,
		Record<string, Array<Array<{ node: string }>>>
	>;
	const next = (name: string, output = 0) => connections[name]?.main?.[output]?.[0]?.node;

	it('takes the error output of the payout through Wait to Resolve Outcome, then a Switch on paymentOutcome', () => {
		const create = nodes.find((node) => node.name === 'Create payout') as ExampleNode & {
			onError?: string;
		};
		expect(create.onError).toBe('continueErrorOutput');
		const wait = nodes.find((node) => node.name === next('Create payout', 1));
		expect(wait?.type).toBe('n8n-nodes-base.wait');
		const resolve = nodes.find((node) => node.name === next(wait!.name));
		expect(resolve?.parameters).toMatchObject({
			resource: 'payment',
			operation: 'resolveOutcome',
			unknownItem: '={{ $json }}',
		});
		const outcome = nodes.find((node) => node.name === next(resolve!.name));
		expect(outcome?.type).toBe('n8n-nodes-base.switch');
		const rules = (outcome!.parameters.rules as { values: Array<{ outputKey: string }> }).values;
		expect(rules.map((rule) => rule.outputKey)).toEqual(['paid', 'not_paid', 'unknown']);
		expect(connections[outcome!.name].main).toHaveLength(3);
		// Unknown with a lookAgainAt loops back to the Wait (issue 49.6), a bounded number of times.
		const again = nodes.find((node) => node.name === next(outcome!.name, 2));
		expect(again?.type).toBe('n8n-nodes-base.if');
		expect(JSON.stringify(again?.parameters)).toMatch(/lookAgainAt/);
		expect(JSON.stringify(again?.parameters)).toMatch(/\$runIndex/);
		expect(next(again!.name, 0)).toBe(wait!.name);
		expect(next(again!.name, 1)).toBe('Still unknown: ask a person');
	});
});
