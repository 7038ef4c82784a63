// Issue 44.4: one rule for what a payment reference names. docs/ai-agents.md states it in one
// sentence; the tool's description to the model says the same sentence; and the key the code
// forms is checked against each thing the sentence names: the same key from another execution,
// node, workflow or n8n instance, another key for another money operation.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
const dist = (file) => require(path.join(ROOT, 'dist/nodes/CompanyPayments', file));
const { RECHARGE_LIMIT, REFERENCE_RULE } = dist('common/words.js');
const { moneyKey } = require(path.join(ROOT, 'dist/nodes/shared/money/index.js'));
const { resources } = dist('resources.js');

/** The rule as docs/ai-agents.md states it, between its markers. */
function ruleOnPage() {
	const page = fs.readFileSync(path.join(ROOT, 'docs/ai-agents.md'), 'utf8');
	return /<!-- reference-rule -->\s*([\s\S]*?)\s*<!-- \/reference-rule -->/.exec(page)?.[1] ?? '';
}

/** What the sentence says: the things a reference is the same payment across, and what scopes it. */
export function readRule(sentence) {
	const across = /the same reference from another (.+?) is the same payment/.exec(sentence)?.[1];
	const per = /names one payment of the company per (.+?):/.exec(sentence)?.[1];
	assert.ok(across && per, `the sentence does not read as a rule: ${sentence}`);
	return { across: across.split(/, | or /), per };
}

const BASE = {
	executionId: '101',
	nodeId: 'node-a',
	workflowId: 'wf-a',
	instanceId: 'a'.repeat(64),
	resource: 'payout',
	operation: 'create',
};

/** A tool call's context, as n8n gives it to the node (the parts the key may read). */
function toolContext(call, reference = 'T-1042') {
	const parameters = {
		resource: call.resource,
		operation: call.operation,
		paymentReference: reference,
	};
	return {
		getNode: () => ({
			id: call.nodeId,
			name: 'Pay',
			type: 'n8n-nodes-company-payments.companyPaymentsTool',
			parameters,
		}),
		getNodeParameter: (name, _i, fallback) => parameters[name] ?? fallback,
		getExecutionId: () => call.executionId,
		getWorkflow: () => ({ id: call.workflowId }),
		getInstanceId: () => call.instanceId,
		getWorkflowDataProxy: () => ({ $runIndex: 0, $execution: { id: call.executionId } }),
	};
}

const keyOf = (call, reference) => moneyKey(toolContext(call, reference), 0, { key: 'perItem' });

/** What each word of the sentence varies in a call. */
const VARY = {
	execution: { executionId: '202' },
	node: { nodeId: 'node-b' },
	workflow: { workflowId: 'wf-b' },
	'n8n instance': { instanceId: 'b'.repeat(64) },
	'money operation': { resource: 'card', operation: 'request' },
};

describe('what a payment reference names: docs, the tool description and the key say the same', () => {
	it('docs/ai-agents.md states the rule the code holds, word for word', () => {
		assert.equal(ruleOnPage(), REFERENCE_RULE);
	});

	it('the description every money tool gives the model states it', () => {
		const money = resources.flatMap((r) => r.operations.filter((o) => o.kind === 'money'));
		assert.ok(money.length >= 6);
		for (const operation of money)
			assert.ok(operation.tool.text.includes(REFERENCE_RULE), operation.name);
	});

	it('Card Recharge says, in its description and on the page, that it keeps a reference within one n8n process only', () => {
		const page = fs.readFileSync(path.join(ROOT, 'docs/ai-agents.md'), 'utf8');
		const onPage = /<!-- recharge-limit -->\s*([\s\S]*?)\s*<!-- \/recharge-limit -->/.exec(
			page,
		)?.[1];
		assert.equal(onPage, RECHARGE_LIMIT);
		const recharge = resources
			.flatMap((r) => r.operations.map((o) => ({ ...o, resource: r.value })))
			.find((o) => o.resource === 'card' && o.value === 'recharge');
		assert.ok(recharge.tool.text.includes(RECHARGE_LIMIT));
		assert.ok(!recharge.tool.text.includes('never pays twice'));
	});

	const rule = readRule(REFERENCE_RULE);

	for (const thing of rule.across) {
		it(`the same reference from another ${thing} forms the same key`, () => {
			assert.ok(VARY[thing], `the sentence names "${thing}", which this test cannot vary`);
			assert.equal(keyOf({ ...BASE, ...VARY[thing] }), keyOf(BASE));
		});
	}

	it(`a reference is scoped per ${rule.per}: another operation forms another key`, () => {
		assert.ok(VARY[rule.per], `the sentence scopes by "${rule.per}", which this test cannot vary`);
		assert.notEqual(keyOf({ ...BASE, ...VARY[rule.per] }), keyOf(BASE));
	});

	it('two references are two payments', () => {
		assert.notEqual(keyOf(BASE, 'T-1043'), keyOf(BASE, 'T-1042'));
	});

	it('a sentence that named something the key holds would be caught', () => {
		const wrong = readRule(
			'A payment reference names one payment of the company per money operation: the same reference from another execution is the same payment, and two payments need two references.',
		);
		assert.deepEqual(wrong.across, ['execution']);
		assert.notEqual(keyOf({ ...BASE, ...VARY['money operation'] }), keyOf(BASE));
	});
});
