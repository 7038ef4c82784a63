/**
 * bench/RESULTS.md is the one file of benchmark figures: a section per n8n version the issues
 * ask figures for, then queue mode and the Poll Trigger; a benchmark run rewrites only its own
 * section; retired targets are reported as diagnostics without a target.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

import { ratiosOf, readSections, versionKey, withSection } from '../../bench/lib/results-file.mjs';
import { ROOT } from '../../scripts/docs.mjs';

const RESULTS = readFileSync(path.join(ROOT, 'bench', 'RESULTS.md'), 'utf8');

describe('bench/RESULTS.md', () => {
	it('has a section for n8n 2.8.4 and 2.41.1, queue mode and the Poll Trigger', () => {
		const keys = [...readSections(RESULTS).keys()];
		for (const key of [versionKey('2.8.4'), versionKey('2.41.1'), 'queue', 'poll'])
			assert.ok(keys.includes(key), `RESULTS.md has no "${key}" section (has ${keys.join(', ')})`);
	});

	it('each n8n version measured the trigger, the action node and Return All with a ratio', () => {
		const sections = readSections(RESULTS);
		for (const version of ['2.8.4', '2.41.1']) {
			const figures = [...ratiosOf(sections.get(versionKey(version))).keys()];
			for (const prefix of ['2. Trigger in n8n', '3. Action node', '4. Return All'])
				assert.ok(
					figures.some((figure) => figure.startsWith(prefix)),
					`n8n ${version}: no "${prefix}" figure`,
				);
		}
	});

	it('reports the retired targets (1 KB verify path, duplicate vs new) without a target', () => {
		for (const [key, section] of readSections(RESULTS)) {
			for (const [figure, { target, met }] of ratiosOf(section)) {
				const retired = figure.includes('Duplicate vs new') || figure.includes('1 KB body');
				if (!retired) continue;
				assert.match(target, /diagnostic/, `${key}: "${figure}" still has the target ${target}`);
				assert.equal(met, '', `${key}: "${figure}" is still judged (${met})`);
			}
		}
	});

	it('a run rewrites only its own section and keeps the others as measured', () => {
		const before = readSections(RESULTS);
		const after = readSections(withSection(RESULTS, 'queue', '## Queue mode\n\nnew figures'));
		assert.equal(after.get('queue'), '## Queue mode\n\nnew figures');
		for (const [key, body] of before) if (key !== 'queue') assert.equal(after.get(key), body, key);
		assert.throws(() => withSection(RESULTS, 'queue-mode', 'x'), /unknown RESULTS.md section/);
	});
});
