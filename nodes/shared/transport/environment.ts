/**
 * The credential's Environment: which of the service's two environments (production and
 * staging, each with its own {base_url}) the key and Base URL belong to. It is named in every
 * error and checked against Base URLs that obviously belong to the other one.
 */
export type Environment = 'production' | 'staging';

export function environmentOf(value: unknown): Environment {
	return value === 'staging' ? 'staging' : 'production';
}

export function environmentLabel(environment: Environment): string {
	return environment === 'staging' ? 'Staging' : 'Production';
}

/** Host name parts that mark a non-production address, and a production one. */
const STAGING_PARTS = new Set([
	'staging',
	'stage',
	'stg',
	'sandbox',
	'test',
	'testing',
	'dev',
	'uat',
	'preprod',
]);
const PRODUCTION_PARTS = new Set(['prod', 'production', 'live']);

function isLocalHost(host: string): boolean {
	const bare = host.replace(/^\[|\]$/g, '');
	return (
		bare === 'localhost' || bare.endsWith('.localhost') || bare === '::1' || /^127\./.test(bare)
	);
}

/** The parts of a host name before its top-level domain, split at dots and dashes. */
function hostParts(host: string): string[] {
	if (/^[\d.]+$/.test(host) || host.includes(':')) return [];
	const labels = host.toLowerCase().split('.');
	if (labels.length > 1) labels.pop();
	return labels.flatMap((label) => label.split('-'));
}

/**
 * Why this Base URL cannot be the given environment's, or undefined when nothing is obviously
 * wrong. Production must be https on a non-local host without a staging marker in its name;
 * staging must not carry a production marker.
 */
export function environmentMismatch(environment: Environment, url: URL): string | undefined {
	const parts = hostParts(url.hostname);
	if (environment === 'production') {
		if (url.protocol !== 'https:') {
			return `Environment is Production but the Base URL ${url.origin} is not https: production keys must not travel unencrypted. For a test or local service choose Environment: Staging`;
		}
		if (isLocalHost(url.hostname)) {
			return `Environment is Production but the Base URL ${url.origin} is this machine. For a local service choose Environment: Staging`;
		}
		const marker = parts.find((part) => STAGING_PARTS.has(part));
		if (marker) {
			return `Environment is Production but the Base URL ${url.origin} names "${marker}". Choose Environment: Staging, or enter the production Base URL`;
		}
		return undefined;
	}
	const marker = parts.find((part) => PRODUCTION_PARTS.has(part));
	if (marker) {
		return `Environment is Staging but the Base URL ${url.origin} names "${marker}". Choose Environment: Production, or enter the staging Base URL`;
	}
	return undefined;
}

/** The error every node (and the credential's `authenticate`) gives for a mismatch. */
export function unfitCredentialMessage(mismatch: string): string {
	return `The credential does not fit together: ${mismatch}`;
}

/**
 * Why a credential's Environment and Base URL cannot be used together, as the nodes say it, or
 * undefined when nothing is obviously wrong (also when the Base URL is no URL: the request then
 * fails on its own).
 */
export function credentialMismatch(environment: unknown, baseUrl: unknown): string | undefined {
	let url: URL;
	try {
		url = new URL(typeof baseUrl === 'string' ? baseUrl.trim() : '');
	} catch {
		return undefined;
	}
	const mismatch = environmentMismatch(environmentOf(environment), url);
	return mismatch === undefined ? undefined : unfitCredentialMessage(mismatch);
}

/**
 * A Base URL (or any text holding one) as it may be shown: a link's user and password
 * (`https://ops:PASS@staging.example.com`, a service behind Basic auth) become `[hidden]`,
 * also JSON-escaped or percent-encoded. For every place that names the Base URL outside the
 * output gate (the credential test's message); the gate applies the same rule at its doors.
 */
export { withoutUserinfo } from '../gate/patterns';
