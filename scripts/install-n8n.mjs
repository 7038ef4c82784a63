// Installs the n8n versions the end-to-end matrix runs on (each with the Node it runs on, from the
// npm registry) into the host's cache, in parallel, and prints how long each took. Warm: a marker
// check per version. Used by .ci/run; the tests install on demand too.
//
//   node scripts/install-n8n.mjs                 every version of the supported set
//   node scripts/install-n8n.mjs 2.41.1 1.123.81 only these
import { ensureN8n, SUPPORTED_VERSIONS } from '../harness/n8n.mjs';

const versions = process.argv.length > 2 ? process.argv.slice(2) : Object.keys(SUPPORTED_VERSIONS);
const started = Date.now();
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)}s`;

const results = await Promise.allSettled(
	versions.map(async (version) => {
		const since = Date.now();
		const install = await ensureN8n({
			version,
			log: (line) => process.stdout.write(`[install ${version}] ${line}\n`),
		});
		process.stdout.write(
			`[install ${version}] ready in ${seconds(since)}: ${install.dir} (Node ${install.node.version})\n`,
		);
		return install;
	}),
);
let failed = 0;
results.forEach((result, index) => {
	if (result.status === 'rejected') {
		failed++;
		process.stderr.write(
			`[install ${versions[index]}] FAILED: ${result.reason?.stack ?? result.reason}\n`,
		);
	}
});
process.stdout.write(
	`installs of ${versions.join(', ')}: ${seconds(started)}${failed ? `, ${failed} failed` : ''}\n`,
);
process.exitCode = failed ? 1 : 0;
