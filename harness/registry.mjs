/**
 * A minimal npm registry on 127.0.0.1, and a TLS proxy that lets it play the default registry
 * (https://registry.npmjs.org) for n8n's Community Nodes installer, which refuses any other
 * registry without an Enterprise licence. Nothing leaves the machine: the proxy answers only
 * `registry.npmjs.org`, from this registry, and refuses every other host (403, remembered in
 * `refused`).
 *
 *   const registry = await startRegistry({ dir });     // dir: CA, certificate, npm cache
 *   registry.publish('/tmp/n8n-nodes-company-payments-0.1.0.tgz');   // becomes `latest`
 *   registry.publish(next, { latest: false }); registry.tag(name, '0.1.1');  // an update, later
 *   registry.url        // http://127.0.0.1:<port>/  (npm install --registry=<url>)
 *   registry.proxyUrl   // http://127.0.0.1:<port>   (HTTPS_PROXY, npm https-proxy)
 *   registry.caFile     // the throw-away CA (NODE_EXTRA_CA_CERTS, npm cafile)
 *   registry.requests   // [{ method, host, path, status }]: what was asked, by anyone
 *   await registry.stop();
 *
 * The registry serves only published tarballs: GET /<name> (the packument), GET /<name>/<version>
 * or /<name>/latest (one manifest) and GET /<name>/-/<file>.tgz; anything else answers 404, so
 * an install that needs another package (n8n-workflow) fails instead of reaching the network.
 * The certificate for registry.npmjs.org is signed by a CA made by `openssl` for this run; the
 * CA's key is deleted as soon as the certificate is signed.
 *
 * Also how a user runs npm against it ({@link npmrcText}, {@link runNpmAsUser}).
 *
 * Plain JavaScript, Node built-ins only (it starts `openssl`, `tar` and `npm`).
 */
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';

/** The host the registry plays. */
export const DEFAULT_REGISTRY_HOST = 'registry.npmjs.org';

/** Makes a throw-away CA and a certificate for `host` signed by it in `dir`. */
export function makeCertificate(dir, host = DEFAULT_REGISTRY_HOST) {
	fs.mkdirSync(dir, { recursive: true });
	const file = (name) => path.join(dir, name);
	const openssl = (args) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
	const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
	openssl([
		'req',
		'-x509',
		...ec,
		'-keyout',
		'ca.key',
		'-out',
		'ca.pem',
		'-days',
		'2',
		'-subj',
		'/CN=company-payments throw-away test CA',
		'-addext',
		'basicConstraints=critical,CA:TRUE',
		'-addext',
		'keyUsage=critical,keyCertSign',
	]);
	openssl(['req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', `/CN=${host}`]);
	fs.writeFileSync(
		file('server.ext'),
		`subjectAltName=DNS:${host}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n`,
	);
	openssl([
		'x509',
		'-req',
		'-in',
		'server.csr',
		'-CA',
		'ca.pem',
		'-CAkey',
		'ca.key',
		'-CAcreateserial',
		'-out',
		'server.pem',
		'-days',
		'2',
		'-extfile',
		'server.ext',
	]);
	fs.rmSync(file('ca.key'));
	return {
		caFile: file('ca.pem'),
		key: fs.readFileSync(file('server.key')),
		cert: fs.readFileSync(file('server.pem')),
	};
}

/** name → { versions: { [version]: { manifest, tarball: Buffer } }, latest } */
function createStore() {
	const packages = new Map();
	return {
		publish(tarballFile, { latest = true } = {}) {
			const tarball = fs.readFileSync(tarballFile);
			const manifest = JSON.parse(
				execFileSync('tar', ['-xzOf', tarballFile, 'package/package.json'], { encoding: 'utf8' }),
			);
			const entry = packages.get(manifest.name) ?? { versions: {}, latest: undefined };
			entry.versions[manifest.version] = {
				manifest,
				tarball,
				shasum: createHash('sha1').update(tarball).digest('hex'),
				integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}`,
			};
			// the last published is `latest`, as with `npm publish`; `{ latest: false }` is
			// `npm publish --tag next` (a version that installs only when asked for)
			if (latest || !entry.latest) entry.latest = manifest.version;
			packages.set(manifest.name, entry);
			return { name: manifest.name, version: manifest.version };
		},
		/** `npm dist-tag add <name>@<version> latest` */
		tag(name, version) {
			const entry = packages.get(name);
			if (!entry?.versions[version]) throw new Error(`${name}@${version} is not published`);
			entry.latest = version;
		},
		get: (name) => packages.get(name),
	};
}

function versionDocument(name, version, published, base) {
	const fileName = `${name.split('/').pop()}-${version}.tgz`;
	return {
		...published.manifest,
		_id: `${name}@${version}`,
		dist: {
			tarball: `${base}/${name}/-/${fileName}`,
			shasum: published.shasum,
			integrity: published.integrity,
		},
	};
}

function send(res, status, body, type = 'application/json') {
	const data = Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
	res.writeHead(status, {
		'content-type': type,
		'content-length': data.length,
		'cache-control': 'no-store',
	});
	res.end(data);
}

/** The registry's request handler; `base(req)` is the origin its tarball URLs name. */
function registryHandler(store, requests, base) {
	return (req, res) => {
		const { pathname } = new URL(req.url, 'http://registry.invalid');
		const parts = decodeURIComponent(pathname).replace(/^\/+/, '').split('/');
		const scoped = parts[0]?.startsWith('@');
		const name = scoped ? parts.slice(0, 2).join('/') : parts[0];
		const rest = parts.slice(scoped ? 2 : 1);
		const entry = req.method === 'GET' || req.method === 'HEAD' ? store.get(name) : undefined;
		let status = 404;
		let body = { error: 'Not found' };
		let type;
		if (entry && rest.length === 0) {
			status = 200;
			const versions = {};
			for (const [v, published] of Object.entries(entry.versions)) {
				versions[v] = versionDocument(name, v, published, base(req));
			}
			body = { _id: name, name, 'dist-tags': { latest: entry.latest }, versions };
		} else if (entry && rest.length === 1) {
			const version = rest[0] === 'latest' ? entry.latest : rest[0];
			if (entry.versions[version]) {
				status = 200;
				body = versionDocument(name, version, entry.versions[version], base(req));
			}
		} else if (entry && rest.length === 2 && rest[0] === '-') {
			const published = Object.entries(entry.versions).find(
				([v]) => rest[1] === `${name.split('/').pop()}-${v}.tgz`,
			);
			if (published) [status, body, type] = [200, published[1].tarball, 'application/octet-stream'];
		}
		requests.push({ method: req.method, host: req.headers.host, path: pathname, status });
		send(res, status, body, type);
	};
}

const listen = (server) =>
	new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => resolve(server.address().port));
	});

/**
 * Starts the registry (plain http) and the proxy (http, CONNECT and absolute-form requests) on
 * 127.0.0.1. `dir` receives the certificate files.
 *
 * @param {{ dir: string, host?: string }} options
 */
export async function startRegistry({ dir, host = DEFAULT_REGISTRY_HOST }) {
	const store = createStore();
	const requests = [];
	const refused = [];
	const { caFile, key, cert } = makeCertificate(dir, host);
	let url;
	const handler = registryHandler(store, requests, (req) =>
		req.socket.encrypted || req.proxied ? `https://${host}` : url.replace(/\/$/, ''),
	);
	const direct = http.createServer(handler);
	const tls = https.createServer({ key, cert }, handler);
	const proxy = http.createServer((req, res) => {
		// absolute-form request (`GET https://registry.npmjs.org/…` sent to the proxy in clear)
		let target;
		try {
			target = new URL(req.url);
		} catch {
			target = undefined;
		}
		if (target?.hostname !== host) {
			refused.push(target?.host ?? req.url);
			return send(res, 403, { error: `the test proxy answers only ${host}` });
		}
		req.proxied = true;
		req.url = `${target.pathname}${target.search}`;
		return handler(req, res);
	});
	const sockets = new Set();
	proxy.on('connect', (req, socket, head) => {
		sockets.add(socket);
		socket.once('close', () => sockets.delete(socket));
		socket.on('error', () => socket.destroy());
		if (req.url !== `${host}:443`) {
			refused.push(req.url);
			socket.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n');
			return;
		}
		socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
		if (head?.length) socket.unshift(head);
		tls.emit('connection', socket);
	});
	const port = await listen(direct);
	url = `http://127.0.0.1:${port}/`;
	const proxyPort = await listen(proxy);
	return {
		url,
		proxyUrl: `http://127.0.0.1:${proxyPort}`,
		caFile,
		host,
		requests,
		refused,
		publish: (tarballFile, options) => store.publish(tarballFile, options),
		tag: (name, version) => store.tag(name, version),
		async stop() {
			for (const socket of sockets) socket.destroy();
			for (const server of [direct, proxy, tls]) server.closeAllConnections?.();
			await Promise.all(
				[direct, proxy].map((server) => new Promise((resolve) => server.close(() => resolve()))),
			);
		},
	};
}

// ---------------------------------------------------------------------------------------------
// npm the way a user runs it, against this registry
// ---------------------------------------------------------------------------------------------

/**
 * The `.npmrc` that points npm at the registry as the default one: through the proxy, trusting
 * the throw-away CA, with its own cache (`cache`). Written into `~/.n8n/nodes`, it is the
 * project configuration of every npm that runs there (n8n's own `npm pack`, `npm outdated`, and
 * a user's `npm install`), whatever environment the caller gives npm.
 */
export function npmrcText(registry, { cache }) {
	return [
		`registry=https://${registry.host}/`,
		`https-proxy=${registry.proxyUrl}`,
		`proxy=${registry.proxyUrl}`,
		`cafile=${registry.caFile}`,
		`cache=${cache}`,
		'update-notifier=false',
		'fund=false',
		'audit=false',
		'',
	].join('\n');
}

/**
 * Runs `npm <args>` in `cwd` the way a person in a shell would: the given Node first on PATH,
 * `HOME` as given, none of the npm_* variables of an `npm run` that started the tests.
 * Resolves with { code, output, ms } (never rejects on a non-zero exit).
 *
 * @param {string[]} args
 * @param {{ cwd: string, home: string, node?: { binDir: string }, timeoutMs?: number }} options
 */
export async function runNpmAsUser(args, { cwd, home, node, timeoutMs = 300_000 }) {
	const env = {};
	for (const [key, value] of Object.entries(process.env)) {
		if (!/^npm_/i.test(key) && value !== undefined) env[key] = value;
	}
	env.HOME = home;
	if (node?.binDir) env.PATH = [node.binDir, env.PATH].filter(Boolean).join(path.delimiter);
	const started = Date.now();
	return await new Promise((resolve) => {
		execFile(
			'npm',
			args,
			{ cwd, env, timeout: timeoutMs, maxBuffer: 16 << 20 },
			(error, stdout, stderr) => {
				resolve({
					code: error ? (typeof error.code === 'number' ? error.code : 1) : 0,
					output: `${stdout}${stderr}`,
					ms: Date.now() - started,
				});
			},
		);
	});
}

/** The packages under `<dir>/node_modules` (scoped ones as `@scope/name`), sorted. */
export function installedPackages(dir) {
	const root = path.join(dir, 'node_modules');
	if (!fs.existsSync(root)) return [];
	const names = [];
	for (const entry of fs.readdirSync(root)) {
		if (entry.startsWith('.')) continue;
		if (entry.startsWith('@')) {
			for (const inner of fs.readdirSync(path.join(root, entry))) names.push(`${entry}/${inner}`);
		} else names.push(entry);
	}
	return names.sort();
}
