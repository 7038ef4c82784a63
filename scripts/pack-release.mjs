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
//   - package.json gets its `author` from --author "Name <email> (url)", else NPM_AUTHOR (a
//     repository variable the release passes): the checkout's author is a placeholder (an
//     `.invalid` address, which n8n's linter accepts), and n8n shows the author in Settings →
//     Community Nodes. --require-repository (the release) refuses to pack the placeholder.
//   - README.md: every relative link (docs/…, examples/, CONTRIBUTING.md …) becomes an absolute
//     link to that repository at the released tag (--ref, else GITHUB_REF_NAME, else
//     v<version>): only dist/ is published, so a relative link would be dead on npm. Images
//     point at …/raw/…, folders at …/tree/…, files at …/blob/….
//   - the codex files (dist/nodes/*/*.node.json) point to each node's page of that repository
//     at the tag, and the credential's documentationUrl to the README's Credential section
//     there (n8n's node panel and credential dialog open these).
//   - dist/tsconfig.tsbuildinfo and dist/package.json (build leftovers: the compiler's cache,
//     a third of the package, and a stale copy of package.json) are left out.
// With a repository, the packed tarball is then unpacked and every link of it checked against
// the files and headings of this checkout (scripts/links.mjs): a dead link refuses the pack.
// Without a repository (--require-repository, the release, refuses instead) the README's relative
// links stay relative and the pages they name are shipped beside dist/ (shipLinkedFiles: docs/,
// examples/, CHANGELOG.md, CONTRIBUTING.md; images at dist/docs/images; a link to anything else
// becomes its text); the unpacked tarball is checked to have no dead relative link, and a
// warning says it was packed without a repository.
//
// --package companion packs the queue-mode companion (companion/, built) instead, and refuses
// when its version is not the core's.
// Options: --out <dir> (default: a new temporary folder), --repository <url>, --ref <tag>,
// --author <"Name <email> (url)">, --require-repository, --version <x.y.z> (packs the package as
// that version: the install suite publishes an update to its local registry with it).
// Prints one JSON line: { tarball, repository, ref }.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { linksOf, mapLinks, packageProblems } from './links.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Build output that is no part of the package (see the header). */
export const BUILD_LEFTOVERS = ['dist/tsconfig.tsbuildinfo', 'dist/package.json'];

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

/**
 * Rewrites the relative links of a Markdown text (links, images, reference definitions, HTML
 * attributes; not code) to `<repository>/<blob|tree|raw>/<ref>/<path>`; `root` tells files
 * from folders. Links that leave the repository (`../…`) are kept, for the check to report.
 */
export function absoluteLinks(markdown, repository, ref, root = ROOT, inFolder = '') {
	return mapLinks(markdown, ({ target, image }) => {
		if (/^(?:[a-z][a-z0-9+.-]*:|#|\/)/i.test(target)) return undefined;
		const hash = target.indexOf('#');
		const [file, anchor] = hash === -1 ? [target, ''] : [target.slice(0, hash), target.slice(hash)];
		// `folder`: where the Markdown file lives in the repository (the companion's README).
		const normalised = path.posix.normalize(path.posix.join(inFolder, file));
		if (normalised.startsWith('..')) return undefined;
		const full = path.join(root, decodeURIComponent(normalised));
		const folder =
			normalised.endsWith('/') || (fs.existsSync(full) && fs.statSync(full).isDirectory());
		const kind = image ? 'raw' : folder ? 'tree' : 'blob';
		return `${repository}/${kind}/${ref}/${normalised.replace(/\/$/, '')}${anchor}`;
	});
}

/** A stand-in repository for packs that are not the release (the dry run, the install suite). */
export const STAND_IN_REPOSITORY =
	'https://github.com/n8n-nodes-company-payments/n8n-nodes-company-payments';

/** True for the checkout's stand-in author: an address under the reserved `.invalid` domain. */
export function isPlaceholderAuthor(author) {
	const text =
		typeof author === 'string' ? author : `${author?.name ?? ''} <${author?.email ?? ''}>`;
	return !author || /@[^>\s]*\.invalid\b/i.test(text);
}

/**
 * The published `author`: --author, else NPM_AUTHOR ("Name <email> (url)", written as npm's
 * object form, which n8n's linter wants), else the checkout's. A given author must name a
 * person or organisation and an email (n8n's linter and verification want both).
 * @returns {{ name: string, email: string, url?: string }}
 */
export function authorFor(args, env, pkg) {
	const given = (option(args, '--author') ?? env.NPM_AUTHOR)?.trim();
	if (!given) return pkg.author;
	const email = /<([^>]+)>/.exec(given)?.[1]?.trim();
	const url = /\(([^)]+)\)/.exec(given)?.[1]?.trim();
	const name = given.split(/[<(]/)[0].trim();
	if (!name || !email || isPlaceholderAuthor(given)) {
		throw new Error(`the author must be "Name <email>" with a real address, got "${given}"`);
	}
	return { name, email, ...(url ? { url } : {}) };
}

/** The package.json fields that name the repository. */
export function repositoryFields(repository) {
	return {
		repository: { type: 'git', url: `git+${repository}.git` },
		bugs: { url: `${repository}/issues` },
		homepage: `${repository}#readme`,
	};
}

/**
 * The folder of the package to pack: the core (the repository root), or with `--package
 * companion` the queue-mode companion, released from the same workflow at the same version.
 */
function packageRoot(args) {
	const name = option(args, '--package');
	if (name === undefined) return { root: ROOT, folder: '' };
	if (name !== 'companion') throw new Error(`--package: only "companion" is known, got "${name}"`);
	return { root: path.join(ROOT, name), folder: name };
}

export function packRelease(args = [], env = process.env) {
	const { root: PKG, folder } = packageRoot(args);
	const pkg = JSON.parse(fs.readFileSync(path.join(PKG, 'package.json'), 'utf8'));
	if (!fs.existsSync(path.join(PKG, 'dist'))) {
		throw new Error(`${path.join(PKG, 'dist')} is missing: run the build first`);
	}
	if (PKG !== ROOT) {
		const core = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
		if (pkg.version !== core.version) {
			throw new Error(
				`${pkg.name} is at ${pkg.version}, ${core.name} at ${core.version}: the two are released in step`,
			);
		}
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
		fs.cpSync(path.join(PKG, 'dist'), path.join(stage, 'dist'), { recursive: true });
		for (const leftover of BUILD_LEFTOVERS) fs.rmSync(path.join(stage, leftover), { force: true });
		for (const file of ['LICENSE.md', '.npmrc']) {
			if (fs.existsSync(path.join(PKG, file)))
				fs.copyFileSync(path.join(PKG, file), path.join(stage, file));
		}
		let readme = fs.readFileSync(path.join(PKG, 'README.md'), 'utf8');
		const staged = { ...pkg };
		const version = option(args, '--version');
		if (version !== undefined) {
			if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(version))
				throw new Error(`--version must be a semantic version, got "${version}"`);
			staged.version = version;
		}
		staged.author = authorFor(args, env, pkg);
		if (isPlaceholderAuthor(staged.author)) {
			const hint =
				'set the repository variable NPM_AUTHOR ("Name <email>") or pass --author; see docs/releasing.md';
			if (args.includes('--require-repository')) {
				throw new Error(`the author is the checkout's placeholder: ${hint}`);
			}
			process.stderr.write(`pack-release: the author is the checkout's placeholder (${hint})\n`);
		}
		if (repository) {
			Object.assign(staged, repositoryFields(repository));
			readme = absoluteLinks(readme, repository, ref, ROOT, folder);
			pointDocumentationAt(path.join(stage, 'dist'), `${repository}/blob/${ref}`, pkg.name);
		} else {
			const shipped = shipLinkedFiles(readme, stage, PKG);
			readme = shipped.readme;
			staged.files = [...(pkg.files ?? ['dist']), ...shipped.files];
			process.stderr.write(
				`pack-release: no repository given (--repository or GITHUB_REPOSITORY): packed without repository fields; the README's relative links point at ${shipped.files.length} file(s) shipped with it\n`,
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
		const tarball = path.join(out, packed[0].filename);
		if (repository) checkLinks(tarball, repository, ref);
		else checkShippedLinks(tarball);
		return { tarball, repository: repository ?? null, ref };
	} finally {
		fs.rmSync(stage, { recursive: true, force: true });
	}
}

/**
 * Points the documentation links n8n shows at the repository's pages at the tag (`base`,
 * `<repository>/blob/<ref>`): each codex file's primary documentation at its node's page
 * (NODE_DOCS) and its credential documentation at the README's Credential section; and each
 * compiled `documentationUrl` that names the npm page at the same heading of the README there.
 */
function pointDocumentationAt(dist, base, name) {
	for (const folder of fs.readdirSync(path.join(dist, 'nodes'))) {
		for (const [codexName, page] of Object.entries(NODE_DOCS)) {
			const file = path.join(dist, 'nodes', folder, codexName);
			if (!fs.existsSync(file)) continue;
			const codex = JSON.parse(fs.readFileSync(file, 'utf8'));
			codex.resources.primaryDocumentation = [{ url: `${base}/${page}` }];
			codex.resources.credentialDocumentation = [{ url: `${base}/README.md#credential` }];
			fs.writeFileSync(file, `${JSON.stringify(codex, null, '\t')}\n`);
		}
	}
	const npmPage = `https://www.npmjs.com/package/${name}`;
	const assignment = /(documentationUrl\s*=\s*)(['"])([^'"]+)\2/g;
	for (const folder of ['credentials', 'nodes']) {
		const dir = path.join(dist, folder);
		if (!fs.existsSync(dir)) continue;
		for (const entry of fs.readdirSync(dir, { recursive: true })) {
			if (!String(entry).endsWith('.js')) continue;
			const file = path.join(dir, String(entry));
			const code = fs.readFileSync(file, 'utf8');
			const changed = code.replace(assignment, (whole, left, quote, url) => {
				const [page, anchor] = url.split('#');
				if (page !== npmPage) return whole;
				return `${left}${quote}${base}/README.md${anchor ? `#${anchor}` : ''}${quote}`;
			});
			if (changed !== code) fs.writeFileSync(file, changed);
		}
	}
}

/**
 * What a package packed without a repository ships beside dist/ so that its README's relative
 * links work for whoever reads the unpacked package (outside read r7-data, finding 7): the pages
 * under docs/ and examples/, CHANGELOG.md and CONTRIBUTING.md, followed from the README through
 * the links of each page shipped. A link to a file that dist/ holds already (docs/images/… is
 * dist/docs/images/…) is pointed there. A link to anything else (source files, bench/, .github/)
 * would be dead: it becomes its plain text.
 */
export const SHIPPED_BESIDE_DIST = [
	/^docs\/[^/]+\.md$/,
	/^examples\/[^/]+$/,
	/^CHANGELOG\.md$/,
	/^CONTRIBUTING\.md$/,
];
const DROPPED = '\u0000dropped\u0000';

export function shipLinkedFiles(readme, stage, root = ROOT) {
	const files = new Set();
	const queue = [];
	const rewrite = (markdown, folder) => {
		const mapped = mapLinks(markdown, ({ target }) => {
			if (/^(?:[a-z][a-z0-9+.-]*:|#|\/)/i.test(target)) return undefined;
			const hash = target.indexOf('#');
			const [file, anchor] =
				hash === -1 ? [target, ''] : [target.slice(0, hash), target.slice(hash)];
			const wanted = path.posix.normalize(path.posix.join(folder, decodeURIComponent(file)));
			const plain = wanted.replace(/\/$/, '');
			const relative = (to) => {
				const from = folder === '' ? '.' : folder;
				return `${path.posix.relative(from, to) || '.'}${anchor}`;
			};
			if (plain.startsWith('..')) return DROPPED;
			if (fs.existsSync(path.join(stage, 'dist', plain))) return relative(`dist/${plain}`);
			const full = path.join(root, plain);
			if (!fs.existsSync(full)) return DROPPED;
			if (fs.statSync(full).isDirectory()) {
				const entries = fs.readdirSync(full).map((entry) => `${plain}/${entry}`);
				const shippable = entries.filter((entry) =>
					SHIPPED_BESIDE_DIST.some((rule) => rule.test(entry)),
				);
				if (shippable.length === 0) return DROPPED;
				for (const entry of shippable) ship(entry);
				return undefined;
			}
			if (!SHIPPED_BESIDE_DIST.some((rule) => rule.test(plain))) return DROPPED;
			ship(plain);
			return undefined;
		});
		// A dead link's text stays, without the link: `[text](dead)` → `text`.
		return mapped
			.replace(new RegExp(`!?\\[((?:[^\\[\\]]|\\[[^\\]]*\\])*)\\]\\(${DROPPED}\\)`, 'g'), '$1')
			.replace(new RegExp(`^\\s*\\[[^\\]]+\\]:\\s*${DROPPED}.*$`, 'gm'), '')
			.replaceAll(DROPPED, '#');
	};
	const ship = (file) => {
		if (files.has(file)) return;
		files.add(file);
		fs.mkdirSync(path.dirname(path.join(stage, file)), { recursive: true });
		if (file.endsWith('.md')) queue.push(file);
		else fs.copyFileSync(path.join(root, file), path.join(stage, file));
	};
	const out = rewrite(readme, '');
	while (queue.length > 0) {
		const file = queue.shift();
		const text = fs.readFileSync(path.join(root, file), 'utf8');
		fs.writeFileSync(
			path.join(stage, file),
			rewrite(text, path.posix.dirname(file) === '.' ? '' : path.posix.dirname(file)),
		);
	}
	return { readme: out, files: [...files].sort() };
}

/**
 * Unpacks a tarball packed without a repository and refuses it when a relative link of its
 * README or of a page it ships names no file or folder of the package.
 */
function checkShippedLinks(tarball) {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-release-check-'));
	try {
		execFileSync('tar', ['-xzf', tarball, '-C', dir]);
		const problems = shippedLinkProblems(path.join(dir, 'package'));
		if (problems.length > 0) {
			throw new Error(
				`${problems.length} relative link(s) of the packed package name no file it ships:\n  ${problems.join('\n  ')}`,
			);
		}
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

/** The relative links of an unpacked package's Markdown files (dist/ aside) that name nothing in it. */
export function shippedLinkProblems(dir) {
	const problems = [];
	const pages = [];
	const walk = (folder) => {
		for (const entry of fs.readdirSync(path.join(dir, folder), { withFileTypes: true })) {
			const rel = folder === '' ? entry.name : `${folder}/${entry.name}`;
			if (entry.isDirectory()) {
				if (rel !== 'dist') walk(rel);
			} else if (entry.name.endsWith('.md')) pages.push(rel);
		}
	};
	walk('');
	for (const page of pages) {
		const folder = path.posix.dirname(page) === '.' ? '' : path.posix.dirname(page);
		for (const { target } of linksOf(fs.readFileSync(path.join(dir, page), 'utf8'))) {
			if (/^(?:[a-z][a-z0-9+.-]*:|#|\/)/i.test(target)) continue;
			const file = decodeURIComponent(target.split('#')[0]);
			const full = path.join(dir, folder, file);
			if (!full.startsWith(dir) || !fs.existsSync(full)) problems.push(`${page}: ${target}`);
		}
	}
	return problems;
}

/** Unpacks the tarball and refuses it when a link does not resolve in this checkout at `ref`. */
function checkLinks(tarball, repository, ref) {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-release-check-'));
	try {
		execFileSync('tar', ['-xzf', tarball, '-C', dir]);
		const problems = packageProblems(path.join(dir, 'package'), { repository, ref, root: ROOT });
		if (problems.length > 0) {
			throw new Error(
				`${problems.length} link(s) of the packed package do not resolve:\n  ${problems.join('\n  ')}`,
			);
		}
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
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
