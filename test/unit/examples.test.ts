import disputeFromSupportTicket from '../../examples/dispute-from-support-ticket.json';
import payQrCodeFromForm from '../../examples/pay-qr-code-from-form.json';
import payoutRefundsAndAmlAlerts from '../../examples/payout-refunds-and-aml-alerts.json';
import { resources } from '../../nodes/CompanyPayments/resources';

interface ExampleNode {
	name: string;
	type: string;
	position: number[];
	parameters: Record<string, unknown>;
}

const EXAMPLES: Array<[string, { nodes: ExampleNode[] }]> = [
	['dispute-from-support-ticket', disputeFromSupportTicket],
	['pay-qr-code-from-form', payQrCodeFromForm],
	['payout-refunds-and-aml-alerts', payoutRefundsAndAmlAlerts],
];

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
			if (node.type !== 'n8n-nodes-company-payments.companyPayments') continue;
			const resource = resources.find((r) => r.value === node.parameters.resource);
			expect(resource).toBeDefined();
			expect(resource?.operations.map((o) => o.value)).toContain(node.parameters.operation);
		}
	});
});
