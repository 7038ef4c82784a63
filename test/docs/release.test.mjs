/**
 * The packed tarball is clean (issue 31): every source map it ships points at files it ships
 * (the build ships none), and no metadata is a placeholder: the author is filled in at release
 * like the repository. Needs dist/ (npm test builds first).
 *
 * The release as written agrees with the release as documented (issue 22): docs/releasing.md
 * names the steps of .github/workflows/release.yml in their order; the publish runs on Node 24
 * with the OIDC token only in its own job, with provenance and the token as a fallback; every
 * action of every workflow is pinned to a commit; the pull-request workflow and .ci/run run the
 * publish dry run. The workflows are read as text (their shape here is fixed and simple).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import {
	authorFor,
	isPlaceholderAuthor,
	packRelease,
	shippedLinkProblems,
	STAND_IN_REPOSITORY,
} from '../../scripts/pack-release.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const read = (file) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const WORKFLOWS = fs
	.readdirSync(path.join(ROOT, '.github', 'workflows'))
	.filter((name) => /\.ya?ml$/.test(name))
	.map((name) => `.github/workflows/${name}`);

/** The jobs of a workflow: name → { head (text before the steps), steps: [{ name, text }] }. */
function jobsOf(workflow) {
	const text = workflow.slice(workflow.indexOf('\njobs:\n'));
	const jobs = {};
	for (const part of text.split(/^ {2}(?=[\w-]+:\s*$)/m).slice(1)) {
		const name = part.slice(0, part.indexOf(':'));
		const [head, ...steps] = part.split(/^ {6}- /m);
		jobs[name] = {
			head,
			steps: steps.map((step) => ({
				name: /^name:\s*(.+)$/m.exec(step)?.[1].trim(),
				text: step,
			})),
		};
	}
	return jobs;
}

const release = jobsOf(read('.github/workflows/release.yml'));
const stepText = (job, name) => release[job].steps.find((step) => step.name === name)?.text ?? '';

describe('the release workflow', () => {
	test('verify on Node 20, then publish on Node 24; only publish may ask for an OIDC token', () => {
		assert.deepEqual(Object.keys(release), ['verify', 'publish']);
		assert.match(release.publish.head, /needs: verify/);
		assert.match(release.verify.steps[1].text, /node-version: 20\b/);
		assert.match(release.publish.steps[1].text, /node-version: 24\b/);
		assert.match(release.publish.head, /id-token: write/);
		assert.doesNotMatch(release.verify.head, /id-token/);
		const top = read('.github/workflows/release.yml').split('\njobs:\n')[0];
		assert.match(top, /^permissions:\n {2}contents: read\n/m);
	});

	test('checks npm 11.5.1, packs with the repository, scans and publishes that tarball', () => {
		assert.match(stepText('publish', 'npm supports trusted publishing (11.5.1 or later)'), /c>=1/);
		assert.match(stepText('publish', 'Pack the release'), /pack-release\.mjs --require-repository/);
		assert.match(
			stepText('publish', 'Pack the release'),
			/NPM_AUTHOR: \$\{\{ vars\.NPM_AUTHOR \}\}/,
			'the release passes the author it refuses to pack without',
		);
		assert.match(
			stepText('publish', 'n8n verification scan of that tarball and the source'),
			/scan\.mjs --tarball "\$\{\{ steps\.pack\.outputs\.tarball \}\}"/,
		);
		const publish = stepText('publish', 'Publish with provenance');
		assert.match(publish, /npm publish "\$\{\{ steps\.pack\.outputs\.tarball \}\}" --provenance/);
		assert.match(publish, /NODE_AUTH_TOKEN: \$\{\{ secrets\.NPM_TOKEN \}\}/);
		const tokenSteps = Object.values(release)
			.flatMap((job) => job.steps)
			.filter((step) => step.text.includes('secrets.'));
		assert.deepEqual(
			tokenSteps.map((step) => step.name),
			['Publish with provenance'],
			'a secret reaches no other step',
		);
	});

	test('docs/releasing.md names its steps in the same order', () => {
		const doc = read('docs/releasing.md');
		const cutting = doc.slice(
			doc.indexOf('## Cutting a release'),
			doc.indexOf('## What is published'),
		);
		const documented = [...cutting.matchAll(/^ {3}\d+\. \*\*([^*]+)\*\*/gm)].map((m) => m[1]);
		const steps = Object.values(release)
			.flatMap((job) => job.steps)
			.map((step) => step.name)
			.filter(Boolean);
		assert.equal(documented.length, steps.length, `documented: ${documented.join(' | ')}`);
		steps.forEach((name, index) =>
			assert.ok(
				name.startsWith(documented[index]),
				`step ${index + 1}: "${name}" vs "${documented[index]}"`,
			),
		);
		for (const job of Object.keys(release)) assert.ok(cutting.includes(`\`${job}\``), job);
		assert.match(doc, /workflow file `release\.yml`/);
		assert.match(doc, /--file release\.yml/);
	});
});

describe('every workflow', () => {
	test('pins each action to a full commit SHA with its version as a comment', () => {
		for (const file of WORKFLOWS) {
			for (const match of read(file).matchAll(/uses:\s*(\S+)(.*)$/gm)) {
				assert.match(match[1], /^[\w.-]+\/[\w./-]+@[0-9a-f]{40}$/, `${file}: ${match[1]}`);
				assert.match(match[2], /^\s+# v\d+(\.\d+)*$/, `${file}: ${match[0]}`);
			}
		}
	});

	test('pull requests get lint, build, unit tests, scanner and the dry run; real n8n apart', () => {
		const ci = jobsOf(read('.github/workflows/pr.yml'));
		const runs = ci.checks.steps
			.map((step) => /run:\s*(.+)$/m.exec(step.text)?.[1])
			.filter(Boolean);
		for (const command of [
			'npm ci',
			'npm run lint',
			'npm run build',
			'npx jest',
			'npm run scan',
			'npm run release:dry-run',
		]) {
			assert.ok(runs.includes(command), `checks runs ${command}`);
		}
		assert.match(ci['real-n8n'].head, /needs: checks/);
		assert.ok(ci['real-n8n'].steps.some((step) => /run: bash \.ci\/run$/m.test(step.text)));
	});

	test('.ci/run runs the publish dry run', () => {
		assert.match(read('.ci/run'), /^npm run release:dry-run$/m);
		const { scripts } = JSON.parse(read('package.json'));
		assert.equal(scripts['release:dry-run'], 'node scripts/release-dry-run.mjs');
	});
});

/** Words that mark a value nobody filled in. */
const PLACEHOLDER =
	/maintainers|\.invalid\b|example\.(com|org|net)|placeholder|your[ -]?name|todo|changeme/i;
/** The author a release passes (NPM_AUTHOR), as a test value. */
const AUTHOR = 'Acme Payments Engineering <npm@acme-payments.test> (https://acme-payments.test)';

describe('the packed tarball', () => {
	let work;
	let files;
	let packed;
	before(() => {
		assert.ok(fs.existsSync(path.join(ROOT, 'dist')), 'run npm run build first');
		work = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-release-clean-'));
		const { tarball } = packRelease(
			['--require-repository', '--repository', STAND_IN_REPOSITORY, '--out', work],
			{ NPM_AUTHOR: AUTHOR },
		);
		execFileSync('tar', ['-xzf', tarball, '-C', work]);
		const root = path.join(work, 'package');
		files = new Set(
			fs
				.readdirSync(root, { recursive: true })
				.map(String)
				.filter((file) => fs.statSync(path.join(root, file)).isFile()),
		);
		packed = {
			read: (file) => fs.readFileSync(path.join(root, file), 'utf8'),
			pkg: JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')),
		};
	});
	after(() => work && fs.rmSync(work, { recursive: true, force: true }));

	test('no source map points at a file the package does not ship', () => {
		const dangling = [];
		const inPackage = (from, target) =>
			path.posix.normalize(path.posix.join(path.posix.dirname(from), target));
		for (const file of files) {
			if (file.endsWith('.js')) {
				for (const [, target] of packed.read(file).matchAll(/[#@] sourceMappingURL=(\S+)/g)) {
					if (target.startsWith('data:')) continue;
					if (!files.has(inPackage(file, target))) dangling.push(`${file} → ${target}`);
				}
			}
			if (file.endsWith('.map')) {
				const map = JSON.parse(packed.read(file));
				for (const source of map.sources ?? []) {
					const resolved = inPackage(file, path.posix.join(map.sourceRoot ?? '', source));
					if (!files.has(resolved) && !map.sourcesContent) dangling.push(`${file} → ${source}`);
				}
			}
		}
		assert.deepEqual(dangling, [], `${dangling.length} dangling source map reference(s)`);
	});

	test('the metadata n8n and npm show is filled in, none of it a placeholder', () => {
		const { pkg } = packed;
		for (const field of [
			'name',
			'version',
			'description',
			'license',
			'author',
			'repository',
			'bugs',
			'homepage',
		]) {
			assert.ok(pkg[field], `package.json has ${field}`);
		}
		assert.ok(pkg.keywords.includes('n8n-community-node-package'));
		assert.deepEqual(
			pkg.author,
			{
				name: 'Acme Payments Engineering',
				email: 'npm@acme-payments.test',
				url: 'https://acme-payments.test',
			},
			'the author is the one the release passes, in the object form n8n lints',
		);
		for (const [field, value] of Object.entries(pkg)) {
			if (['scripts', 'devDependencies'].includes(field)) continue;
			assert.doesNotMatch(JSON.stringify(value), PLACEHOLDER, `${field}: ${JSON.stringify(value)}`);
		}
	});

	test("the release refuses the checkout's placeholder author and a made-up one", () => {
		const pkg = JSON.parse(read('package.json'));
		assert.ok(
			isPlaceholderAuthor(pkg.author),
			'the checkout has the placeholder the release replaces',
		);
		const out = path.join(work, 'refused');
		const args = ['--require-repository', '--repository', STAND_IN_REPOSITORY, '--out', out];
		assert.throws(
			() => packRelease(args, {}),
			/placeholder: set the repository variable NPM_AUTHOR/,
		);
		assert.throws(() => authorFor(['--author', 'Acme'], {}, pkg), /must be "Name <email>"/);
		assert.throws(() => authorFor([], { NPM_AUTHOR: 'X <x@y.invalid>' }, pkg), /real address/);
		assert.deepEqual(
			authorFor(['--author', 'A B <a@b.test>'], { NPM_AUTHOR: 'O <o@o.test>' }, pkg),
			{
				name: 'A B',
				email: 'a@b.test',
			},
		);
	});

	test('n8n-workflow is an optional peer: npm in ~/.n8n/nodes does not install it', () => {
		const { pkg } = packed;
		assert.deepEqual(pkg.peerDependencies, { 'n8n-workflow': '*' }, "n8n's lint rule wants it");
		assert.equal(pkg.peerDependenciesMeta?.['n8n-workflow']?.optional, true);
		assert.equal(pkg.dependencies, undefined, 'no runtime dependencies');
	});
});

// Outside read r7-data, finding 7: a tarball packed without a repository (an npm user's local
// pack, an outside reader's) keeps the README's relative links, so it ships what they name.
describe('a tarball packed without a repository', () => {
	let root;
	let work;
	before(() => {
		work = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-release-norepo-'));
		const { tarball, repository } = packRelease(['--out', work], {});
		assert.equal(repository, null);
		execFileSync('tar', ['-xzf', tarball, '-C', work]);
		root = path.join(work, 'package');
	});
	after(() => work && fs.rmSync(work, { recursive: true, force: true }));

	test('every relative link of its README and of the pages it ships names a file it ships', () => {
		const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
		const relative = [
			...readme.matchAll(/\]\(((?:docs|examples|dist)\/[^)#]+|CHANGELOG\.md|CONTRIBUTING\.md)/g),
		];
		assert.ok(relative.length > 10, `${relative.length} relative links in the README`);
		for (const [, target] of relative) {
			assert.ok(fs.existsSync(path.join(root, target)), `README links ${target}, not shipped`);
		}
		assert.deepEqual(shippedLinkProblems(root), []);
	});

	test('the check finds a dead relative link (it can fail)', () => {
		const page = path.join(root, 'docs', 'broken-check.md');
		fs.writeFileSync(page, '[gone](../nodes/nowhere.ts)\n');
		try {
			assert.deepEqual(shippedLinkProblems(root), ['docs/broken-check.md: ../nodes/nowhere.ts']);
		} finally {
			fs.rmSync(page);
		}
	});
});
