// Packs the package as it is published: `node scripts/pack-release.mjs [options]` (after
// `npm run build`). The release workflow and the dry run in CI both use it, so the tarball CI
// checks is the tarball the release publishes.
//
// A staging copy of what npm publishes (package.json, README.md, LICENSE.md, dist/) is made
// and changed before `npm pack`:
//   - package.json gets `repository`, `bugs` and `homepage` of the repository that publishes:
//     --repository <https URL>, else GITHUB_SERVER_URL/GITHUB_REPOSITORY (set in GitHub
//     Actions). npm checks the repository against the provenance; n8n verifies only packages
//     whose provenance names a public GitHub repository.
//   - README.md: every relative link (docs/…, examples/…, CONTRIBUTING.md …) becomes an absolute
//     link to that repository at the released tag (--ref, else GITHUB_REF_NAME, else
//     v<version>): only dist/ is published, so a relative link would be dead on npm.
//   - the codex files (dist/nodes/*/*.node.json): their documentation links point to the pages
//     of that repository at the tag.
// Without a repository the tarball is packed with the links as they are, and a warning says so;
// --require-repository (the release) refuses instead.
//
// Options: --out <dir> (default: a new temporary folder), --repository <url>, --ref <tag>,
// --require-repository. Prints one JSON line: { tarball, repository, ref }.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The documentation page of each node in the repository, by codex file name. */
export const NODE_DOCS = {
	'CompanyPayments.node.json': 'docs/operations.md',
	'CompanyPaymentsTrigger.node.json': 'docs/webhook-trigger.md',
	'CompanyPaymentsPollTrigger.node.json': 'docs/poll-trigger.md',
};

function option(args, name) {
	const index = args.indexOf(name);
	return index === -1 ? undefined : args[index + 1];
}

/** The https URL of the publishing repository, without a trailing slash or `.git`; or undefined. */
export function repositoryUrl(args, env) {
	const given = option(args, '--repository');
	const raw =
		given ??
		(env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY
			? `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}`
			: undefined);
	if (!raw) return undefined;
	const url = new URL(raw.replace(/^git\+/, ''));
	if (url.protocol !== 'https:') throw new Error(`the repository URL must be https, got ${raw}`);
	return `${url.origin}${url.pathname.replace(/\.git$/, '').replace(/\/+$/, '')}`;
}

/** Rewrites the relative links of a Markdown text to `<repository>/blob/<ref>/<path>`. */
export function absoluteLinks(markdown, repository, ref) {
	return markdown.replace(/\]\(([^)\s]+)\)/g, (whole, target) => {
		if (/^(?:[a-z][a-z0-9+.-]*:|#|\/\/)/i.test(target)) return whole;
		const [file, anchor] = target.split('#');
		const normalised = path.posix.normalize(file);
		if (normalised.startsWith('..')) return whole;
		const kind = normalised.endsWith('/') || !path.posix.extname(normalised) ? 'tree' : 'blob';
		return `](${repository}/${kind}/${ref}/${normalised}${anchor ? `#${anchor}` : ''})`;
	});
}

/** The package.json fields that name the repository. */
export function repositoryFields(repository) {
	return {
		repository: { type: 'git', url: `git+${repository}.git` },
		bugs: { url: `${repository}/issues` },
		homepage: `${repository}#readme`,
	};
}

export function packRelease(args = [], env = process.env) {
	const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
	if (!fs.existsSync(path.join(ROOT, 'dist'))) {
		throw new Error('dist/ is missing: run `npm run build` first');
	}
	const repository = repositoryUrl(args, env);
	if (!repository && args.includes('--require-repository')) {
		throw new Error(
			'no repository to publish from: pass --repository <https URL> or run where GITHUB_SERVER_URL and GITHUB_REPOSITORY are set (GitHub Actions). Refusing to publish without one: npm provenance and n8n verification need it.',
		);
	}
	const ref = option(args, '--ref') ?? env.GITHUB_REF_NAME ?? `v${pkg.version}`;
	const out = option(args, '--out') ?? fs.mkdtempSync(path.join(os.tmpdir(), 'cp-release-'));
	fs.mkdirSync(out, { recursive: true });

	const stage = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-release-stage-'));
	try {
		fs.cpSync(path.join(ROOT, 'dist'), path.join(stage, 'dist'), { recursive: true });
		for (const file of ['LICENSE.md', '.npmrc']) {
			if (fs.existsSync(path.join(ROOT, file)))
				fs.copyFileSync(path.join(ROOT, file), path.join(stage, file));
		}
		let readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
		const staged = { ...pkg };
		if (repository) {
			Object.assign(staged, repositoryFields(repository));
			readme = absoluteLinks(readme, repository, ref);
			for (const folder of fs.readdirSync(path.join(stage, 'dist', 'nodes'))) {
				for (const [name, page] of Object.entries(NODE_DOCS)) {
					const file = path.join(stage, 'dist', 'nodes', folder, name);
					if (!fs.existsSync(file)) continue;
					const codex = JSON.parse(fs.readFileSync(file, 'utf8'));
					codex.resources.primaryDocumentation = [{ url: `${repository}/blob/${ref}/${page}` }];
					codex.resources.credentialDocumentation = [
						{ url: `${repository}/blob/${ref}/README.md#credential` },
					];
					fs.writeFileSync(file, `${JSON.stringify(codex, null, '\t')}\n`);
				}
			}
		} else {
			process.stderr.write(
				'pack-release: no repository given (--repository or GITHUB_REPOSITORY): packed without repository fields; the README keeps relative links\n',
			);
		}
		fs.writeFileSync(path.join(stage, 'package.json'), `${JSON.stringify(staged, null, 2)}\n`);
		fs.writeFileSync(path.join(stage, 'README.md'), readme);
		const packed = JSON.parse(
			execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', out], {
				cwd: stage,
				encoding: 'utf8',
				stdio: ['ignore', 'pipe', 'inherit'],
			}),
		);
		return { tarball: path.join(out, packed[0].filename), repository: repository ?? null, ref };
	} finally {
		fs.rmSync(stage, { recursive: true, force: true });
	}
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	try {
		console.log(JSON.stringify(packRelease(process.argv.slice(2))));
	} catch (error) {
		console.error(`pack-release: ${error.message}`);
		process.exit(1);
	}
}
