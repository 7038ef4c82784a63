// n8n's verification scan, run locally: `npm run scan` (after `npm run build`).
//
// n8n lists a community package as verified only when @n8n/scan-community-package passes on
// it. That scanner lints two things with the same ESLint rules as `n8n-node lint`: the
// published tarball (downloaded from npm) and the source it was built from (the GitHub commit
// named by the package's npm provenance). This script does both without the registry and the
// provenance step: it packs the package with `npm pack` into a temporary folder, unpacks it,
// and runs the scanner's own `analyzePackage` on
//   1. the unpacked tarball, every .js, .ts and .json file (the scanner's default, which is
//      stricter than the tarball leg of n8n's run: it also catches declaration files such as
//      dist/credentials/*.d.ts, which trip cred-filename-against-convention);
//   2. the unpacked tarball, compiled .js and package.json (n8n's tarball leg);
//   3. the source tree, with the scanner's SOURCE_FILE_PATTERNS (n8n's source leg);
// and, before them, scripts/package-rules.mjs on the unpacked tarball (what the scanner cannot see).
// Any finding exits non-zero. The temporary folder is removed at the end.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { checkPackage } from './package-rules.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { analyzePackage, SOURCE_FILE_PATTERNS } = await import(
	'@n8n/scan-community-package/scanner/scanner.mjs'
);

/** The files of a tarball, in the shape `npm pack --json` lists them. */
function listTarball(file) {
	return execFileSync('tar', ['-tzf', file], { encoding: 'utf8' })
		.split('\n')
		.filter(Boolean)
		.map((entry) => ({ path: entry.replace(/^package\//, '') }));
}

if (!existsSync(join(root, 'dist'))) {
	console.error(
		'scan: dist/ is missing; run `npm run build` first (the scan checks what npm would publish).',
	);
	process.exit(2);
}

// --tarball <file>: scan that tarball (the release's, packed by scripts/pack-release.mjs)
// instead of packing one here.
const tarballArg = process.argv.indexOf('--tarball');
const givenTarball = tarballArg === -1 ? undefined : resolve(process.argv[tarballArg + 1]);

const work = mkdtempSync(join(tmpdir(), 'n8n-nodes-company-payments-scan-'));
let failed = false;
try {
	const packed = givenTarball
		? [{ filename: givenTarball, files: listTarball(givenTarball) }]
		: JSON.parse(
				execFileSync('npm', ['pack', '--json', '--pack-destination', work], {
					cwd: root,
					encoding: 'utf8',
					stdio: ['ignore', 'pipe', 'inherit'],
				}),
			);
	const tarball = givenTarball ?? join(work, packed[0].filename);
	const unpacked = join(work, 'unpacked');
	mkdirSync(unpacked);
	execFileSync('tar', ['-xzf', tarball, '-C', unpacked]);
	const packageDir = join(unpacked, 'package');
	const declarations = packed[0].files
		.map((file) => file.path)
		.filter((path) => path.endsWith('.d.ts'));
	console.log(
		`scan: packed ${packed[0].filename} (${packed[0].files.length} files, ${declarations.length} declaration files)`,
	);

	// n8n's rules its scanner cannot see (scripts/package-rules.mjs): environment access, sockets,
	// a constructor taken from an object n8n hands the node, a Redis client, runtime dependencies.
	const findings = checkPackage(packageDir);
	if (findings.length === 0) {
		console.log('scan: ✔ tarball, no environment access, socket, Redis client or dependency');
	} else {
		failed = true;
		console.log('scan: ✖ tarball breaks n8n rules the scanner does not check:');
		for (const f of findings) console.log(`  ${f.file}:${f.line} ${f.rule} (${f.why}): ${f.text}`);
	}

	const legs = [
		['tarball, all .js/.ts/.json (scanner default)', packageDir, undefined],
		["tarball, .js and package.json (n8n's tarball leg)", packageDir, ['**/*.js', 'package.json']],
		["source tree (n8n's source leg)", root, SOURCE_FILE_PATTERNS],
	];
	for (const [label, dir, patterns] of legs) {
		const result = await analyzePackage(dir, patterns);
		// A leg that found nothing to lint proves nothing.
		if (result.passed && result.message === 'No files found to analyze') {
			failed = true;
			console.log(`scan: ✖ ${label}: no files found to analyze in ${dir}`);
		} else if (result.passed) {
			console.log(`scan: ✔ ${label}`);
		} else {
			failed = true;
			console.log(`scan: ✖ ${label}: ${result.message}`);
			if (result.details) console.log(result.details);
		}
	}
} finally {
	rmSync(work, { recursive: true, force: true });
}
if (failed) {
	console.error('scan: FAILED — n8n would not verify this package');
	process.exit(1);
}
console.log("scan: passed — the tarball and the source pass n8n's verification scanner");
