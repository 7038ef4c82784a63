/**
 * Links that work where users read them (issue 22): the README as packed for npm, and the links
 * n8n shows (each codex file's documentation, the credential's documentationUrl). The package is
 * packed the way the release packs it (scripts/pack-release.mjs, with a stand-in repository),
 * unpacked, and every link checked against the files and headings it names (scripts/links.mjs).
 * Needs dist/ (npm test builds first).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import {
	anchorsOf,
	linkProblem,
	linksOf,
	packageLinks,
	packageProblems,
	slug,
} from '../../scripts/links.mjs';
import { absoluteLinks, packRelease } from '../../scripts/pack-release.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const REPOSITORY = 'https://github.com/example-org/n8n-nodes-company-payments';
const REF = 'v0.1.0';
const NPM_PAGE = 'https://www.npmjs.com/package/n8n-nodes-company-payments';
const CONTEXT = { repository: REPOSITORY, ref: REF, root: ROOT, npmPage: NPM_PAGE };

let work;
let unpacked;
let files;

before(() => {
	assert.ok(fs.existsSync(path.join(ROOT, 'dist')), 'run npm run build first');
	work = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-links-'));
	const { tarball } = packRelease(['--repository', REPOSITORY, '--ref', REF, '--out', work], {});
	execFileSync('tar', ['-xzf', tarball, '-C', work]);
	unpacked = path.join(work, 'package');
	files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n').filter(Boolean);
});

after(() => fs.rmSync(work, { recursive: true, force: true }));

const codexFiles = (dir) =>
	fs.readdirSync(path.join(dir, 'nodes')).flatMap((folder) =>
		fs
			.readdirSync(path.join(dir, 'nodes', folder))
			.filter((name) => name.endsWith('.node.json'))
			.map((name) => path.join(dir, 'nodes', folder, name)),
	);

describe('the packed package', () => {
	test('names the repository it was published from', () => {
		const pkg = JSON.parse(fs.readFileSync(path.join(unpacked, 'package.json'), 'utf8'));
		assert.deepEqual(pkg.repository, { type: 'git', url: `git+${REPOSITORY}.git` });
		assert.equal(pkg.bugs.url, `${REPOSITORY}/issues`);
		assert.equal(pkg.homepage, `${REPOSITORY}#readme`);
	});

	test('every link of the README, the codex files and documentationUrl resolves at the tag', () => {
		const links = packageLinks(unpacked);
		const where = (name) => links.filter(({ file }) => file.endsWith(name)).length;
		assert.ok(where('README.md') >= 15, `${where('README.md')} README links found`);
		assert.equal(where('.node.json'), 6, 'two documentation links in each of three codex files');
		assert.equal(where('.credentials.js'), 1, "the credential's documentationUrl");
		assert.deepEqual(packageProblems(unpacked, CONTEXT), []);
	});

	test("the packed README's pictures are raw files of the tag that exist (issue 40)", () => {
		const readme = fs.readFileSync(path.join(unpacked, 'README.md'), 'utf8');
		const images = linksOf(readme).filter((link) => link.image);
		assert.ok(images.length >= 3, `${images.length} images in the packed README`);
		for (const { target } of images) {
			const prefix = `${REPOSITORY}/raw/${REF}/`;
			assert.ok(target.startsWith(prefix), `${target}: GitHub serves the file itself under raw/`);
			const file = target.slice(prefix.length);
			assert.match(file, /^docs\/images\/[\w-]+\.png$/);
			assert.ok(fs.statSync(path.join(ROOT, file)).size > 0, `${file} exists in the checkout`);
		}
		assert.deepEqual(
			images.map((link) => linkProblem(link, { ...CONTEXT, readme })).filter(Boolean),
			[],
		);
		// A missing picture refuses the pack: the same check on a name that is not there.
		assert.match(
			linkProblem(
				{ target: `${REPOSITORY}/raw/${REF}/docs/images/missing.png`, image: true },
				{ ...CONTEXT, readme },
			),
			/does not exist/,
		);
	});

	test("n8n's links point at the repository's pages at the tag", () => {
		const urls = packageLinks(unpacked)
			.filter(({ file }) => !file.endsWith('README.md'))
			.map(({ link }) => link.target);
		for (const url of urls) assert.ok(url.startsWith(`${REPOSITORY}/blob/${REF}/`), url);
	});

	test('leaves out the build leftovers and carries only dist/ besides the metadata', () => {
		assert.deepEqual(files.filter((file) => !file.startsWith('package/dist/')).sort(), [
			'package/LICENSE.md',
			'package/README.md',
			'package/package.json',
		]);
		assert.equal(
			files.filter((file) => /tsbuildinfo|dist\/package\.json|\.d\.ts$/.test(file)).length,
			0,
		);
	});

	test('each codex file carries search aliases', () => {
		const aliases = codexFiles(path.join(unpacked, 'dist')).map(
			(file) => JSON.parse(fs.readFileSync(file, 'utf8')).alias,
		);
		assert.equal(aliases.length, 3);
		for (const list of aliases) {
			assert.ok(
				Array.isArray(list) && list.length >= 5 && list.every((a) => typeof a === 'string'),
			);
		}
		const all = aliases.flat().map((alias) => alias.toLowerCase());
		for (const word of ['payout', 'qr', 'usdt', 'card', 'webhook']) {
			assert.ok(all.includes(word), `no node is found by "${word}"`);
		}
	});
});

describe('before packing', () => {
	test("the source codex files and credential link to the npm page's headings", () => {
		const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
		const urls = codexFiles(ROOT).flatMap((file) =>
			Object.values(JSON.parse(fs.readFileSync(file, 'utf8')).resources)
				.flat()
				.map((entry) => entry.url),
		);
		const credential = fs.readFileSync(
			path.join(ROOT, 'credentials', 'CompanyPaymentsApi.credentials.ts'),
			'utf8',
		);
		urls.push(/documentationUrl = '([^']+)'/.exec(credential)[1]);
		for (const url of urls) assert.ok(url.startsWith(`${NPM_PAGE}#`), url);
		assert.deepEqual(
			urls.map((url) => linkProblem(url, { ...CONTEXT, readme })).filter(Boolean),
			[],
		);
	});

	test('the release refuses to pack without a repository', () => {
		assert.throws(() => packRelease(['--require-repository'], {}), /no repository to publish from/);
	});
});

describe('the check can fail', () => {
	const readme = '# Title\n\n## Credential\n\n```\n## Not a heading\n```\n';
	const context = { ...CONTEXT, readme };

	test('bad anchors, relative links, missing files, wrong ref or kind', () => {
		assert.equal(linkProblem(`${NPM_PAGE}#credential`, context), undefined);
		assert.equal(linkProblem('#credential', context), undefined);
		assert.match(linkProblem(`${NPM_PAGE}#trigger`, context), /no heading "#trigger"/);
		assert.match(linkProblem('#not-a-heading', context), /no heading/);
		assert.match(linkProblem('docs/operations.md', context), /relative link/);
		assert.match(linkProblem(`${REPOSITORY}/blob/${REF}/docs/missing.md`, context), /not exist/);
		assert.match(
			linkProblem(`${REPOSITORY}/blob/${REF}/docs/operations.md#no-such`, context),
			/no heading/,
		);
		assert.match(linkProblem(`${REPOSITORY}/blob/main/docs/operations.md`, context), /not a link/);
		assert.match(linkProblem(`${REPOSITORY}/blob/${REF}/examples`, context), /folder/);
		assert.match(linkProblem(`${REPOSITORY}/tree/${REF}/README.md`, context), /file/);
		assert.match(
			linkProblem(
				{ target: `${REPOSITORY}/blob/${REF}/icons/companyPayments.svg`, image: true },
				context,
			),
			/raw/,
		);
		assert.equal(linkProblem('https://docs.n8n.io/', context), undefined);
	});

	test('a packed package with a bad codex anchor is reported', () => {
		const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-links-bad-'));
		try {
			fs.cpSync(unpacked, copy, { recursive: true });
			const [codex] = codexFiles(path.join(copy, 'dist'));
			const json = JSON.parse(fs.readFileSync(codex, 'utf8'));
			json.resources.credentialDocumentation[0].url = `${REPOSITORY}/blob/${REF}/README.md#trigger`;
			fs.writeFileSync(codex, JSON.stringify(json));
			const problems = packageProblems(copy, CONTEXT);
			assert.equal(problems.length, 1);
			assert.match(problems[0], /node\.json: .*no heading "#trigger" in README\.md/);
		} finally {
			fs.rmSync(copy, { recursive: true, force: true });
		}
	});
});

describe('reading and rewriting Markdown links', () => {
	test('links, images, reference definitions and HTML, not code', () => {
		const text = [
			'[a](docs/a.md "title") ![i](icons/x.svg) [`code`](examples/)',
			'`[not](a-link.md)` <a href="CONTRIBUTING.md">c</a>',
			'```',
			'[not](either.md)',
			'```',
			'[ref]: docs/b.md#part',
		].join('\n');
		assert.deepEqual(
			linksOf(text).map(({ target, image }) => `${target}${image ? ' (image)' : ''}`),
			['docs/a.md', 'icons/x.svg (image)', 'examples/', 'CONTRIBUTING.md', 'docs/b.md#part'],
		);
		assert.equal(
			absoluteLinks(text, REPOSITORY, REF),
			[
				`[a](${REPOSITORY}/blob/${REF}/docs/a.md "title") ![i](${REPOSITORY}/raw/${REF}/icons/x.svg) [\`code\`](${REPOSITORY}/tree/${REF}/examples)`,
				`\`[not](a-link.md)\` <a href="${REPOSITORY}/blob/${REF}/CONTRIBUTING.md">c</a>`,
				'```',
				'[not](either.md)',
				'```',
				`[ref]: ${REPOSITORY}/blob/${REF}/docs/b.md#part`,
			].join('\n'),
		);
		assert.equal(
			absoluteLinks('[b](https://e.org) [c](#z) [d](../up.md)', REPOSITORY, REF),
			'[b](https://e.org) [c](#z) [d](../up.md)',
		);
	});

	test("GitHub's heading anchors", () => {
		assert.equal(slug('Quick start (fresh clone)'), 'quick-start-fresh-clone');
		assert.equal(
			slug('Each record once: a list is an exact set'),
			'each-record-once-a-list-is-an-exact-set',
		);
		assert.equal(
			slug('Pay a QR code from a form: [`pay-qr-code-from-form.json`](pay-qr-code-from-form.json)'),
			'pay-a-qr-code-from-a-form-pay-qr-code-from-formjson',
		);
		assert.equal(
			slug('The `change_key` and _emphasis_ **bold**'),
			'the-change_key-and-emphasis-bold',
		);
		assert.equal(slug('Money → once'), 'money--once');
		assert.deepEqual(
			[...anchorsOf('# A\n## A\n### A ##\n<a id="x"></a>')],
			['a', 'a-1', 'a-2', 'x'],
		);
	});
});
