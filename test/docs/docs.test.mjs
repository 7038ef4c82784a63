/**
 * The documentation agrees with the code and with itself: generated pages are current, the
 * errors page covers every errorCode of the node's table (and the interface document's), every
 * relative link resolves, the README stays an entry page and lists every operation. Needs a
 * build (npm test builds first).
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, it } from 'node:test';

import { GENERATED, ROOT, factPages, generatedPages } from '../../scripts/docs.mjs';
import {
	FACTS,
	NOT_STATED,
	factConstants,
	markerNames,
	sourceConstants,
	withoutMarkers,
} from '../../scripts/facts.mjs';

const require = createRequire(import.meta.url);
const read = (file) => readFileSync(path.join(ROOT, file), 'utf8');
const built = (file) => require(path.join(ROOT, 'dist', file));

/** Every Markdown file of the repository that a reader may open (not dependencies or caches). */
function markdownFiles(dir = ROOT, found = []) {
	for (const name of readdirSync(dir)) {
		if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
		const full = path.join(dir, name);
		if (statSync(full).isDirectory()) markdownFiles(full, found);
		else if (name.endsWith('.md')) found.push(full);
	}
	return found;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading) {
	return heading
		.trim()
		.toLowerCase()
		.replace(/[`*_]/g, '')
		.replace(/[^\p{L}\p{N}\s-]/gu, '')
		.replace(/\s/g, '-');
}

function anchorsOf(file) {
	const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
	const anchors = new Set();
	const seen = new Map();
	for (const match of text.matchAll(/^#{1,6}\s+(.+)$/gm)) {
		const base = slug(match[1]);
		const count = seen.get(base) ?? 0;
		seen.set(base, count + 1);
		anchors.add(count === 0 ? base : `${base}-${count}`);
	}
	return anchors;
}

/** Relative links of a Markdown file: [text](target) outside code blocks and spans. */
function linksOf(file) {
	const text = readFileSync(file, 'utf8')
		.replace(/```[\s\S]*?```/g, '')
		.replace(/`[^`\n]*`/g, '');
	const links = [];
	for (const match of text.matchAll(/\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
		const target = match[1];
		if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
		links.push(target);
	}
	return links;
}

describe('documentation', () => {
	// The errors page, the README's operations table and docs/operations.md's tables are written
	// from the code (each operation's own file, the errorCode tables): a page that differs from
	// what scripts/docs.mjs makes of it now is stale (npm run build && npm run docs).
	let pages;
	for (const file of new Set([...Object.keys(GENERATED), ...factPages()])) {
		it(`${file} is what scripts/docs.mjs generates from the code (npm run docs)`, () => {
			pages ??= generatedPages();
			const current = read(file);
			assert.equal(current, pages[file](current), `${file} is stale: run npm run docs`);
		});
	}

	it('the generated operations tables list every operation and mark exactly the money moves', () => {
		const { resources } = built('nodes/CompanyPayments/resources.js');
		const readme = read('README.md');
		for (const resource of resources) {
			for (const operation of resource.operations) {
				const bold = `**${operation.name}**`;
				const row = readme
					.split('\n')
					.find((line) => line.includes(` ${operation.name}`) || line.includes(bold));
				assert.ok(row, `${resource.value}.${operation.value} is in the README's table`);
			}
		}
		const moving = [...readme.matchAll(/\*\*([^*]+)\*\*/g)].map((match) => match[1]);
		const money = resources.flatMap((resource) =>
			resource.operations
				.filter((operation) => operation.kind === 'money')
				.map((operation) => operation.name),
		);
		assert.ok(money.length > 0);
		for (const name of money) assert.ok(moving.includes(name), `${name} is marked as moving money`);
	});

	it('every errorCode has an explanation and an action, and the errors page lists each', () => {
		const { ERROR_EXPLANATIONS } = built('nodes/shared/transport/errorCodes.js');
		const { ERROR_ACTIONS } = built('nodes/shared/transport/errorActions.js');
		assert.deepEqual(Object.keys(ERROR_ACTIONS).sort(), Object.keys(ERROR_EXPLANATIONS).sort());
		const page = read('docs/errors.md');
		for (const code of Object.keys(ERROR_EXPLANATIONS)) {
			assert.ok(page.includes(`| \`${code}\` |`), `docs/errors.md has no row for ${code}`);
		}
	});

	it("the node's table holds every errorCode of the interface document", (t) => {
		const spec = path.join(ROOT, '..', 'shared', 'spec', 'service-interface.md');
		if (!existsSync(spec)) return t.skip('the interface document is not beside this checkout');
		const text = readFileSync(spec, 'utf8');
		const list = text.slice(text.indexOf('### errorCode values'), text.indexOf('### Conditions'));
		const codes = [
			...list.matchAll(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b|\b(?:CONFLICT|UNPROCESSABLE)\b/g),
		].map((m) => m[0]);
		assert.ok(codes.length > 60, `read only ${codes.length} codes from the document`);
		const { ERROR_EXPLANATIONS } = built('nodes/shared/transport/errorCodes.js');
		const missing = codes.filter((code) => !(code in ERROR_EXPLANATIONS));
		assert.deepEqual(missing, []);
	});

	it('every relative link of every Markdown file resolves, anchors included', () => {
		const broken = [];
		for (const file of markdownFiles()) {
			for (const link of linksOf(file)) {
				const [target, anchor] = link.split('#');
				const resolved = target === '' ? file : path.resolve(path.dirname(file), decodeURI(target));
				const where = `${path.relative(ROOT, file)} → ${link}`;
				if (!existsSync(resolved)) {
					broken.push(`${where} (no such file)`);
				} else if (anchor && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor)) {
					broken.push(`${where} (no such heading)`);
				}
			}
		}
		assert.deepEqual(broken, []);
	});

	it('every numeric constant of the source is a fact of scripts/facts.mjs or NOT_STATED (with why)', () => {
		const constants = sourceConstants();
		const facts = factConstants();
		const unclassified = [...constants.keys()].filter(
			(name) => !facts.has(name) && !(name in NOT_STATED),
		);
		assert.deepEqual(
			unclassified.map((name) => `${name} (${constants.get(name)})`),
			[],
			'add each to FACTS (the docs may state it, through a marker) or to NOT_STATED with the reason',
		);
		const gone = [...facts, ...Object.keys(NOT_STATED)].filter((name) => !constants.has(name));
		assert.deepEqual(gone, [], 'scripts/facts.mjs names constants the source no longer has');
		for (const [name, why] of Object.entries(NOT_STATED)) assert.ok(why.length > 10, name);
	});

	it('a number in a sentence that names a constant comes from a marker', () => {
		const names = [...sourceConstants().keys()];
		const nameAt = new RegExp(`(?<![A-Z0-9_])(${names.join('|')})(?![A-Z0-9_])`, 'g');
		const number = /(?<![\w./-])\d+(?:[.,]\d+)*(?![\w/])/g;
		const problems = [];
		for (const file of factPages()) {
			const text = withoutMarkers(read(file).replace(/^([ \t]*)```[\s\S]*?^\1```/gm, ''));
			for (const sentence of text.split(/(?<=[.;:!?])\s+|\n\s*\n|\||\n\s*(?:[-*]|\d+\.)\s/)) {
				const named = [...sentence.matchAll(nameAt)].map((match) => match[1]);
				if (named.length === 0) continue;
				const numbers = [...sentence.matchAll(number)].map((match) => match[0]);
				if (numbers.length > 0) {
					problems.push(
						`${file}: ${numbers.join(', ')} written by hand beside ${named.join(', ')}: "${sentence.trim().replace(/\s+/g, ' ')}"`,
					);
				}
			}
		}
		assert.deepEqual(
			problems,
			[],
			'state such a number as <!--n:NAME-->…<!--/n--> (scripts/facts.mjs)',
		);
	});

	it("the credential's Longest Wait states the constants the docs state", () => {
		const { CompanyPaymentsApi } = built('credentials/CompanyPaymentsApi.credentials.js');
		const { DEFAULT_MAX_RETRY_WAIT_SECONDS } = built('nodes/shared/transport/retry.js');
		const field = new CompanyPaymentsApi().properties.find(
			(property) => property.name === 'maxRetryWaitSeconds',
		);
		assert.equal(field.default, DEFAULT_MAX_RETRY_WAIT_SECONDS);
		// Its description, shown in n8n, states the most sends per call in words of its own.
		const { RETRY_BACKOFF } = built('nodes/shared/contract/assumptions.js');
		assert.match(field.description, new RegExp(`at most ${RETRY_BACKOFF.maxAttempts} sends`));
	});

	it('every marker names a fact, and every fact is stated somewhere', () => {
		const used = new Set(factPages().flatMap((file) => markerNames(read(file))));
		assert.deepEqual(
			[...used].filter((name) => !(name in FACTS)),
			[],
		);
		assert.deepEqual(
			Object.keys(FACTS).filter((name) => !used.has(name)),
			[],
			'a fact no page states: remove it from FACTS or state it',
		);
	});

	it('the README is an entry page: under 10 KB', () => {
		const size = Buffer.byteLength(read('README.md'));
		assert.ok(size < 10 * 1024, `README.md is ${size} bytes`);
	});
});
