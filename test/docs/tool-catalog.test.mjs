/**
 * The README's operations table and the AI agent tool catalog (built: dist/) say the same thing
 * about which operations move money: an operation the README marks "moves money" is refused to
 * an agent unless the user allows it, and no other is.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { test } from 'node:test';

const ROOT = path.resolve(import.meta.dirname, '../..');
const require = createRequire(import.meta.url);
const { TOOL_CATALOG } = require(path.join(ROOT, 'dist/nodes/CompanyPayments/tool/catalog.js'));
const { resources } = require(path.join(ROOT, 'dist/nodes/CompanyPayments/resources.js'));

test('the money operations of the tool catalog are the ones the README marks as moving money', () => {
	const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
	const byLabel = new Map(
		resources.flatMap((resource) =>
			resource.operations.map((operation) => [
				`${resource.value}.${operation.name}`,
				`${resource.value}.${operation.value}`,
			]),
		),
	);
	const resourceOf = (label) =>
		label
			.trim()
			.replace(/ (\w)/g, (_, c) => c.toUpperCase())
			.replace(/^\w/, (c) => c.toLowerCase());
	const rows = [...readme.matchAll(/^\| (\w[\w ]*) \| ([^|]+) \| [^|]+ \| \*\*yes\*\* \|$/gm)];
	assert.ok(rows.length > 0, 'the README has no operation marked as moving money');
	const moving = rows
		.map(([, resource, operation]) => byLabel.get(`${resourceOf(resource)}.${operation.trim()}`))
		.sort();
	const money = Object.entries(TOOL_CATALOG)
		.filter(([, entry]) => entry.kind === 'money')
		.map(([key]) => key)
		.sort();
	assert.deepEqual(money, moving);
});
