// The environment every n8n process of the host runs with, as one pure function of its inputs.
import path from 'node:path';

/** Fixed so that credentials written by the CLI stay readable by every later start. */
export const ENCRYPTION_KEY = 'company-payments-e2e-not-a-secret-0001';

/**
 * `COMPANY_PAYMENTS_N8N_SETTINGS`: n8n settings the host passes to every n8n process it starts,
 * as `NAME=value` pairs separated by commas, e.g.
 * `N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true` (how CI runs the trigger suite on n8n 2.41.1 with
 * n8n's lazy expression sandbox). Only `N8N_*` names; anything else is an error, so a typo
 * cannot silently run the suite on n8n's defaults.
 *
 * @param {string | undefined} text
 * @returns {Record<string, string>}
 */
export function parseN8nSettings(text) {
	const settings = {};
	for (const pair of (text ?? '').split(',')) {
		if (pair.trim() === '') continue;
		const [name, ...value] = pair.split('=');
		const key = name.trim();
		if (!/^N8N_[A-Z0-9_]+$/.test(key) || value.length === 0) {
			throw new Error(`n8n settings take N8N_NAME=value pairs separated by commas: "${pair}"`);
		}
		settings[key] = value.join('=').trim();
	}
	return settings;
}

const INHERITED_N8N_SETTINGS =
	/^(N8N_|DB_|QUEUE_|EXECUTIONS_|WEBHOOK_URL$|GENERIC_TIMEZONE$|NODES_(INCLUDE|EXCLUDE)$|NODE_FUNCTION_ALLOW_)/;

/**
 * The environment n8n and its CLI run with. Inherited N8N_*, DB_*, EXECUTIONS_*, QUEUE_* … and
 * npm_* variables are dropped so a developer's own n8n settings never leak in; the settings named
 * in `COMPANY_PAYMENTS_N8N_SETTINGS` ({@link parseN8nSettings}) come next; `extra` overrides
 * everything (a queue-mode host passes EXECUTIONS_MODE, DB_POSTGRESDB_* … there). With a `node`
 * runtime, its bin folder goes first on PATH, so anything n8n starts by name runs on that Node.
 *
 * @param {{ userFolder: string, port: number, brokerPort: number, logLevel?: string,
 *           extra?: Record<string, string>, baseEnv?: Record<string, string | undefined>,
 *           node?: { binDir: string } }} options
 * @returns {Record<string, string>}
 */
export function buildN8nEnv({
	userFolder,
	port,
	brokerPort,
	logLevel = 'info',
	extra = {},
	baseEnv = process.env,
	node,
}) {
	const env = {};
	for (const [key, value] of Object.entries(baseEnv)) {
		if (INHERITED_N8N_SETTINGS.test(key) || /^npm_/i.test(key) || value === undefined) continue;
		env[key] = value;
	}
	if (node?.binDir) env.PATH = [node.binDir, env.PATH].filter(Boolean).join(path.delimiter);
	const base = `http://127.0.0.1:${port}/`;
	Object.assign(env, {
		N8N_USER_FOLDER: userFolder,
		N8N_PORT: String(port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		WEBHOOK_URL: base,
		N8N_EDITOR_BASE_URL: base,
		N8N_ENCRYPTION_KEY: ENCRYPTION_KEY,
		N8N_SECURE_COOKIE: 'false',
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		DB_TYPE: 'sqlite',
		DB_SQLITE_DATABASE: path.join(userFolder, '.n8n', 'database.sqlite'),
		N8N_LOG_LEVEL: logLevel,
		N8N_LOG_OUTPUT: 'console',
		GENERIC_TIMEZONE: 'UTC',
		N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '10',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true',
		N8N_PUBLIC_API_DISABLED: 'false',
		N8N_PUBLIC_API_SWAGGERUI_DISABLED: 'true',
		// nothing may reach the internet
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_WHATS_NEW_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_DYNAMIC_BANNERS_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_LICENSE_AUTO_RENEW_ENABLED: 'false',
		N8N_VERIFIED_PACKAGES_ENABLED: 'false', // no fetch of the vetted-nodes list from api.n8n.io
		N8N_REINSTALL_MISSING_PACKAGES: 'false', // never npm-install community packages
		N8N_AI_ENABLED: 'false',
	});
	Object.assign(env, parseN8nSettings(baseEnv.COMPANY_PAYMENTS_N8N_SETTINGS));
	return Object.assign(env, extra);
}
