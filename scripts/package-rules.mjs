// The rules of n8n's community-node verification that its scanner cannot see, checked on the
// files of the packed core package (issue 45): no environment access in any form, no sockets
// (no network module, and no class taken from an object n8n hands the node, such as the request's
// socket), and no Redis client. `npm run scan` applies them to the tarball it packs;
// test/layout/package-rules.test.mjs applies them to `npm pack` of the build and proves that
// each rule catches what it names.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Each rule: what it forbids, and the patterns that find it in compiled JavaScript. */
export const PACKAGE_RULES = [
	{
		rule: 'environment',
		why: 'reads environment variables (n8n: a community node "must not interact with environment variables")',
		patterns: [/\bprocess\s*(\.|\[)\s*['"`]?env\b/, /\$env\b/, /\bevaluateExpression\b/],
	},
	{
		rule: 'process',
		why: 'touches the Node.js process object (not allowed in community nodes)',
		patterns: [/(^|[^\w$.])process\s*(\.|\[)/, /globalThis\s*(\.|\[)\s*['"`]?process\b/],
	},
	{
		rule: 'network module',
		why: "imports a network or system module outside n8n's allow-list",
		patterns: [
			/require\(\s*['"`](node:)?(net|tls|dgram|dns|http|https|http2|child_process|fs|fs\/promises|worker_threads|cluster)['"`]\s*\)/,
			/\bfrom\s+['"`](node:)?(net|tls|dgram|dns|http|https|http2|child_process|fs|worker_threads)['"`]/,
		],
	},
	{
		rule: 'socket',
		why: 'reaches a socket, e.g. the class of the request socket n8n hands the webhook',
		patterns: [/\bSocket\b/, /\.socket\b/, /\[\s*['"`]socket['"`]\s*\]/, /\.connect\(\s*\w+\s*,/],
	},
	{
		rule: 'constructor trick',
		why: "takes a class from an object's prototype chain to create objects n8n did not hand over",
		patterns: [/\.constructor\b/, /\[\s*['"`]constructor['"`]\s*\]/],
	},
	{
		rule: 'redis client',
		why: 'carries a Redis client (the core package keeps delivery IDs in the workflow static data)',
		patterns: [
			/require\(\s*['"`](ioredis|redis|@redis\/[\w-]+|node-redis)['"`]\s*\)/,
			/\b(RESP|RedisClient)\b/,
			/['"`]\*\d+\\r\\n/,
			/\bSET\b[^\n]{0,40}\bNX\b/,
		],
	},
];

/** Every .js and .json file under dir (the unpacked package), relative paths. */
function packageFiles(dir) {
	const out = [];
	const walk = (at) => {
		for (const name of readdirSync(at)) {
			const full = join(at, name);
			if (statSync(full).isDirectory()) walk(full);
			else if (/\.(js|json)$/.test(name)) out.push(full);
		}
	};
	walk(dir);
	return out.map((full) => relative(dir, full));
}

/**
 * The findings of the rules in one text: `{ rule, why, line, text }` per matching line.
 * @param {string} text
 */
export function findingsIn(text) {
	const found = [];
	const lines = text.split('\n');
	for (const [index, line] of lines.entries()) {
		for (const { rule, why, patterns } of PACKAGE_RULES) {
			if (patterns.some((pattern) => pattern.test(line))) {
				found.push({ rule, why, line: index + 1, text: line.trim().slice(0, 160) });
			}
		}
	}
	return found;
}

/**
 * Applies the rules to an unpacked package folder, and checks its package.json has no runtime
 * dependencies. Returns findings `{ file, rule, why, line, text }`.
 * @param {string} dir
 */
export function checkPackage(dir) {
	const findings = [];
	const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
	for (const field of ['dependencies', 'optionalDependencies', 'bundleDependencies', 'bundledDependencies']) {
		const names = Object.keys(pkg[field] ?? {});
		if (names.length > 0) {
			findings.push({
				file: 'package.json',
				rule: 'runtime dependency',
				why: `${field}: ${names.join(', ')} (a verified community package has none)`,
				line: 0,
				text: '',
			});
		}
	}
	for (const file of packageFiles(dir)) {
		if (!file.endsWith('.js')) continue;
		for (const finding of findingsIn(readFileSync(join(dir, file), 'utf8'))) {
			findings.push({ file, ...finding });
		}
	}
	return findings;
}
