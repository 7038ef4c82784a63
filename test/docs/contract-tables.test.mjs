/**
 * The hand-written tables of the docs agree with the contract they describe (issue 52): the
 * webhook trigger's events table has one row per event of `nodes/shared/contract/events.ts`,
 * each sample body carries exactly the fields the contract names, and the routed outputs the
 * page lists are the newest node version's frozen list with its labels. Needs a build.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, it } from 'node:test';

import { ROOT } from '../../scripts/docs.mjs';

const require = createRequire(import.meta.url);
const built = (file) => require(path.join(ROOT, 'dist', file));
const { EVENTS } = built('nodes/shared/contract/events.js');
const { EVENT_PAYLOADS } = built('nodes/shared/contract/records.js');
const { OUTPUT_LAYOUT, ROUTED_EVENTS_BY_VERSION } = built('nodes/CompanyPaymentsTrigger/events.js');

const page = readFileSync(path.join(ROOT, 'docs/webhook-trigger.md'), 'utf8');

/** The rows of the page's "## Events" table: event name and its sample cell. */
function eventRows() {
	const section = page.split(/^## Events$/m)[1].split(/^## /m)[0];
	const rows = new Map();
	for (const line of section.split('\n')) {
		const match = /^\|\s*`([a-z_]+\.[a-z_]+)`\s*\|[^|]*\|(.*)\|\s*$/.exec(line);
		if (match) rows.set(match[1], match[2]);
	}
	return rows;
}

describe('docs/webhook-trigger.md agrees with the contract', () => {
	const rows = eventRows();

	it('has one row per event of the contract, and no other', () => {
		assert.deepEqual([...rows.keys()].sort(), Object.keys(EVENTS).sort());
	});

	it('each sample body carries the fields the contract names for its event, and no field its payload model lacks', () => {
		for (const [event, cell] of rows) {
			const json = /`(\{"event":.*?\})`/.exec(cell)?.[1];
			if (json === undefined) continue; // a row that points to another row's body
			const body = JSON.parse(json);
			assert.equal(body.event, event);
			const fields = Object.keys(body).filter((key) => key !== 'event');
			const missing = EVENTS[event].fields.filter((field) => !fields.includes(field));
			assert.deepEqual(missing, [], `fields of ${event} the sample lacks`);
			const unknown = fields.filter((field) => !(field in EVENT_PAYLOADS[event]));
			assert.deepEqual(unknown, [], `fields of the ${event} sample the payload model lacks`);
		}
		const samples = [...rows.values()].filter((cell) => cell.includes('{"event":'));
		assert.ok(samples.length >= Object.keys(EVENTS).length - 1, 'nearly every row has a sample');
	});

	it('lists the routed outputs of the newest node version with their labels, in order', () => {
		const versions = Object.keys(ROUTED_EVENTS_BY_VERSION).map(Number);
		const newest = ROUTED_EVENTS_BY_VERSION[Math.max(...versions)];
		const listed = [
			...page.matchAll(/\*\*([A-Z][A-Za-z ]{0,9})\*\*\s+\(([a-z_*]+\.[a-z_*]+)\)/g),
		].map(([, label, event]) => [label, event.replace(/\*/g, '_')]);
		assert.deepEqual(
			listed,
			newest.map((event) => [OUTPUT_LAYOUT.labels[event], event]),
		);
	});
});
