// The events of the document, declared twice on purpose: by the node (its contract,
// nodes/shared/contract/events.ts, which the webhook trigger, the poll trigger and the change key
// read) and by the sandbox (sandbox/lib/webhooks.mjs, its own reading of the document). Here the
// two must agree: the same events in the same order, with the same documented fields.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { DOCUMENTED_EVENTS, checkDocumentedEvent } from '../../sandbox/lib/webhooks.mjs';

const require = createRequire(import.meta.url);
const { EVENTS } = require('../../dist/nodes/shared/contract/events.js');

describe('events: the node contract and the sandbox agree', () => {
	it('name the same events in the document order', () => {
		assert.deepEqual(Object.keys(DOCUMENTED_EVENTS), Object.keys(EVENTS));
	});

	it('name the same payload fields for each event', () => {
		for (const [name, contract] of Object.entries(EVENTS)) {
			assert.deepEqual(
				[...DOCUMENTED_EVENTS[name]].sort(),
				[...contract.fields].sort(),
				`fields of ${name}`,
			);
		}
	});

	it("carry each event's record ID under the field the node reads it from", () => {
		for (const [name, contract] of Object.entries(EVENTS)) {
			if (name === 'card.assigned') continue; // the document names only externalId
			assert.ok(DOCUMENTED_EVENTS[name].includes(contract.idField), `${name}: ${contract.idField}`);
		}
	});

	it('the sandbox refuses to emit an event or a body the document does not name', () => {
		assert.throws(() => checkDocumentedEvent('card.closed', {}), /not in the document/);
		const body = Object.fromEntries(DOCUMENTED_EVENTS['deposit.completed'].map((f) => [f, null]));
		assert.doesNotThrow(() => checkDocumentedEvent('deposit.completed', body));
		delete body.sweepTxHash;
		assert.throws(() => checkDocumentedEvent('deposit.completed', body), /sweepTxHash/);
	});
});
