/**
 * Links that work where users read them (issue 22): the README as packed for npm and the nodes'
 * documentation links in n8n. The package is packed the way the release packs it
 * (scripts/pack-release.mjs, with a stand-in repository URL), unpacked, and every link of the
 * packed README and of each codex file is checked against the files and headings it names.
 * Needs dist/ (npm test builds first).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { absoluteLinks, packRelease } from '../../scripts/pack-release.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const REPOSITORY = 'https://github.com/example-org/n8n-nodes-company-payments';
const REF = 'v0.1.0';
const NPM_PAGE = 'https://www.npmjs.com/package/n8n-nodes-company-payments';

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading) {
	return heading
		.trim()
		.toLowerCase()
		.replace(/[`*_]/g, '')
		.replace(/[^\p{L}\p{N}\s-]/gu, '')
		.replace(/\s/g, '-');
}

function anchorsOf(markdown) {
	const anchors = new Set();
	const counts = new Map();
	let fenced = false;
	for (const line of markdown.split('\n')) {
		if (/^```/.test(line)) fenced = !fenced;
		const match = !fenced && /^#{1,6}\s+(.*)$/.exec(line);
		if (!match) continue;
		const base = slug(match[1]);
		const seen = counts.get(base) ?? 0;
		anchors.add(seen === 0 ? base : `${base}-${seen}`);
		counts.set(base, seen + 1);
	}
	return anchors;
}

function linksOf(markdown) {
	return [...markdown.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]);
}

/** Problems with one link; `readme` is the packed README's text (for npm-page anchors). */
function problems(link, readme) {
	const [target, anchor] = link.split('#');
	if (target === '' || target === NPM_PAGE) {
		if (anchor && !anchorsOf(readme).has(anchor))
			return [`${link}: no heading "#${anchor}" in the README`];
		return [];
	}
	const prefix = `${REPOSITORY}/`;
	if (!target.startsWith(prefix)) {
		if (/^[a-z]+:/i.test(target)) return []; // another site: not ours to check
		return [`${link}: a relative link, dead on npm`];
	}
	const rest = target.slice(prefix.length).split('/');
	const [kind, ref, ...file] = rest;
	if (!['blob', 'tree'].includes(kind) || ref !== REF) return [`${link}: not a link to ${REF}`];
	const full = path.join(ROOT, ...file);
	if (!fs.existsSync(full)) return [`${link}: ${file.join('/')} does not exist`];
	if (anchor && !anchorsOf(fs.readFileSync(full, 'utf8')).has(anchor)) {
		return [`${link}: no heading "#${anchor}" in ${file.join('/')}`];
	}
	return [];
}

let work;
let unpacked;

before(() => {
	assert.ok(fs.existsSync(path.join(ROOT, 'dist')), 'run npm run build first');
	work = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-links-'));
	const { tarball } = packRelease(['--repository', REPOSITORY, '--ref', REF, '--out', work], {});
	execFileSync('tar', ['-xzf', tarball, '-C', work]);
	unpacked = path.join(work, 'package');
});

after(() => fs.rmSync(work, { recursive: true, force: true }));

describe('the packed package', () => {
	test('names the repository it was published from', () => {
		const pkg = JSON.parse(fs.readFileSync(path.join(unpacked, 'package.json'), 'utf8'));
		assert.deepEqual(pkg.repository, { type: 'git', url: `git+${REPOSITORY}.git` });
		assert.equal(pkg.bugs.url, `${REPOSITORY}/issues`);
		assert.equal(pkg.homepage, `${REPOSITORY}#readme`);
	});

	test('every link of the packed README resolves to a file and heading of the release', () => {
		const readme = fs.readFileSync(path.join(unpacked, 'README.md'), 'utf8');
		const links = linksOf(readme);
		assert.ok(links.length >= 15, `${links.length} links found`);
		assert.deepEqual(
			links.flatMap((link) => problems(link, readme)),
			[],
		);
	});

	test("every documentation link of the nodes' codex files resolves", () => {
		const readme = fs.readFileSync(path.join(unpacked, 'README.md'), 'utf8');
		const codexFiles = fs.readdirSync(path.join(unpacked, 'dist', 'nodes')).flatMap((folder) =>
			fs
				.readdirSync(path.join(unpacked, 'dist', 'nodes', folder))
				.filter((name) => name.endsWith('.node.json'))
				.map((name) => path.join(unpacked, 'dist', 'nodes', folder, name)),
		);
		assert.equal(codexFiles.length, 3);
		for (const file of codexFiles) {
			const codex = JSON.parse(fs.readFileSync(file, 'utf8'));
			const urls = Object.values(codex.resources)
				.flat()
				.map((entry) => entry.url);
			assert.ok(urls.length >= 2, `${path.basename(file)} has documentation links`);
			assert.deepEqual(
				urls.flatMap((url) => problems(url, readme)),
				[],
				path.basename(file),
			);
			assert.ok(codex.alias.length >= 5, `${path.basename(file)} has search aliases`);
		}
	});

	test('the source codex files link to README headings that exist (n8n before packing)', () => {
		const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
		for (const folder of fs.readdirSync(path.join(ROOT, 'nodes'))) {
			for (const name of fs.readdirSync(path.join(ROOT, 'nodes', folder))) {
				if (!name.endsWith('.node.json')) continue;
				const codex = JSON.parse(fs.readFileSync(path.join(ROOT, 'nodes', folder, name), 'utf8'));
				const urls = Object.values(codex.resources)
					.flat()
					.map((entry) => entry.url);
				assert.deepEqual(
					urls.flatMap((url) => problems(url, readme)),
					[],
					name,
				);
			}
		}
	});

	test('the check catches a bad anchor and a relative link (it can fail)', () => {
		const readme = '# Title\n\n## Credential\n';
		assert.deepEqual(problems(`${NPM_PAGE}#credential`, readme), []);
		assert.equal(problems(`${NPM_PAGE}#trigger`, readme).length, 1);
		assert.equal(problems('docs/operations.md', readme).length, 1);
		assert.equal(problems(`${REPOSITORY}/blob/${REF}/docs/missing.md`, readme).length, 1);
		assert.equal(
			problems(`${REPOSITORY}/blob/${REF}/docs/operations.md#no-such`, readme).length,
			1,
		);
		assert.equal(
			absoluteLinks('[a](docs/x.md#y) [b](https://e.org) [c](#z)', REPOSITORY, REF),
			`[a](${REPOSITORY}/blob/${REF}/docs/x.md#y) [b](https://e.org) [c](#z)`,
		);
	});
});
