// The release, tried without publishing: `npm run release:dry-run` (after `npm run build`).
// CI runs it on every change so the first real release is not the first time these steps run.
//   1. pack the tarball the way the release does (scripts/pack-release.mjs), with the
//      repository of the environment (GITHUB_SERVER_URL/GITHUB_REPOSITORY in GitHub Actions) or,
//      elsewhere, a stand-in, at the tag this version would get (v<version>: on a pull request
//      GITHUB_REF_NAME is no tag); packing checks every link of the tarball, and this checks
//      that it carries repository, bugs, homepage and an author that is no placeholder
//      (NPM_AUTHOR, as in the release, else a stand-in);
//   2. `npm publish --dry-run` of that same tarball (no provenance outside GitHub Actions);
//   3. n8n's verification scanner on that same tarball and on the source;
//   4. the queue-mode companion (companion/, built) packed the same way at the same version, and
//      `npm publish --dry-run` of its tarball (no scanner: it is self-hosted by design).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import {
	isPlaceholderAuthor,
	packRelease,
	STAND_IN_REPOSITORY as STAND_IN,
} from './pack-release.mjs';

// The release takes the author from the repository variable NPM_AUTHOR; where it is not set
// (a pull request, this machine) the dry run packs with a stand-in and says so.
const STAND_IN_AUTHOR =
	'n8n-nodes-company-payments release dry run <release-dry-run@users.noreply.github.com>';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const env = { ...process.env };
if (!env.GITHUB_SERVER_URL || !env.GITHUB_REPOSITORY) {
	console.log(`release dry run: no GitHub repository in the environment; using ${STAND_IN}`);
}
const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const args = [
	...(env.GITHUB_REPOSITORY ? ['--require-repository'] : ['--repository', STAND_IN]),
	'--ref',
	`v${version}`,
	...(env.NPM_AUTHOR ? [] : ['--author', STAND_IN_AUTHOR]),
];
if (!env.NPM_AUTHOR)
	console.log(`release dry run: NPM_AUTHOR is not set; using "${STAND_IN_AUTHOR}"`);
const out = fs.mkdtempSync(path.join(ROOT, '.release-dry-run-'));
try {
	const started = Date.now();
	const { tarball, repository, ref } = packRelease([...args, '--out', out], env);
	const listing = execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], {
		encoding: 'utf8',
	});
	const pkg = JSON.parse(listing);
	if (pkg.repository?.url !== `git+${repository}.git` || !pkg.bugs?.url || !pkg.homepage) {
		throw new Error(`the packed package.json lacks repository fields: ${listing}`);
	}
	if (isPlaceholderAuthor(pkg.author)) {
		throw new Error(`the packed package.json has a placeholder author: ${listing}`);
	}
	console.log(`release dry run: packed ${path.basename(tarball)} for ${repository} at ${ref}`);
	execFileSync(
		'npm',
		[
			'publish',
			tarball,
			'--dry-run',
			'--provenance=false',
			'--ignore-scripts',
			'--access',
			'public',
		],
		{ cwd: ROOT, stdio: 'inherit' },
	);
	execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'scan.mjs'), '--tarball', tarball], {
		cwd: ROOT,
		stdio: 'inherit',
	});
	const companion = packRelease([...args, '--package', 'companion', '--out', out], env);
	const companionPkg = JSON.parse(
		execFileSync('tar', ['-xzOf', companion.tarball, 'package/package.json'], { encoding: 'utf8' }),
	);
	if (companionPkg.version !== pkg.version || companionPkg.repository?.url !== pkg.repository?.url) {
		throw new Error(
			`the companion is not packed in step with the core: ${companionPkg.version} ${companionPkg.repository?.url}`,
		);
	}
	console.log(`release dry run: packed ${path.basename(companion.tarball)}`);
	execFileSync(
		'npm',
		[
			'publish',
			companion.tarball,
			'--dry-run',
			'--provenance=false',
			'--ignore-scripts',
			'--access',
			'public',
		],
		{ cwd: ROOT, stdio: 'inherit' },
	);
	console.log(`release dry run: passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} finally {
	fs.rmSync(out, { recursive: true, force: true });
}
