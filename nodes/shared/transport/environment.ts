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

/**
 * The one normalisation of a secret the user pastes (the API key, a webhook secret, in the
 * credential or in Update Profile's Webhook Secret): surrounding spaces and line breaks, as a
 * paste leaves them, are not part of it. Used wherever such a secret is sent, compared, signed
 * with or fingerprinted, so the secret the node sends is the one the trigger verifies with.
 * Anything but a string is no secret.
 */
export function normaliseSecret(value: unknown): string {
	return typeof value === 'string' ? value.trim() : '';
}

/**
 * Characters that show nothing (outside read r10-data, finding 3): the soft hyphen, the zero-width
 * space, joiners and direction marks, the word joiner and its kin, the byte-order mark.
 */
const INVISIBLE = /[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]/g;

/**
 * A Webhook Secret as the node and the trigger both read it: normaliseSecret's trim, and the
 * characters that show nothing dropped (a zero-width space pasted inside). Update Profile sends
 * this, the trigger signs and verifies with this, so the secret the service gets is the one the
 * trigger checks; the trigger says so in a warning (invisibleIn).
 */
export function normaliseWebhookSecret(value: unknown): string {
	return normaliseSecret(value).replace(INVISIBLE, '');
}

/**
 * Where a pasted secret holds a character that shows nothing, as `U+200B at position 21` (of the
 * trimmed value, counted from 1); undefined when it holds none. The secret itself is never quoted.
 */
export function invisibleIn(value: unknown): string | undefined {
	const text = normaliseSecret(value);
	const found = new RegExp(INVISIBLE.source).exec(text);
	if (!found) return undefined;
	const code = found[0].codePointAt(0) ?? 0;
	return `U+${code.toString(16).toUpperCase().padStart(4, '0')} at position ${found.index + 1}`;
}

/**
 * Why the credential's API key cannot be sent as a header, or undefined when it can: once
 * trimmed, only visible ASCII (what an HTTP header value may carry: a line break, a zero-width
 * space or a letter outside Latin-1 inside it would make Node refuse the request before a byte
 * is sent). The key itself is never quoted.
 */
export function unsendableApiKey(value: unknown): string | undefined {
	const key = normaliseSecret(value);
	if (key === '') return "The credential's API Key is empty";
	const bad = /[^\x21-\x7e]/.exec(key);
	if (!bad) return undefined;
	const code = bad[0].codePointAt(0) ?? 0;
	return `The credential's API Key holds a character a request header cannot carry (U+${code.toString(16).toUpperCase().padStart(4, '0')} at position ${bad.index + 1})`;
}

/**
 * Whether a request's URL is under the credential's Base URL: the same scheme, host and port,
 * and a path at or below the Base URL's path. The user part of either is not compared. A URL
 * that cannot be read is not under it.
 */
export function underBaseUrl(url: string, baseUrl: unknown): boolean {
	if (typeof baseUrl !== 'string') return false;
	let base: URL;
	let target: URL;
	try {
		base = new URL(baseUrl.trim());
		target = new URL(url);
	} catch {
		return false;
	}
	if (base.protocol !== target.protocol || base.host !== target.host) return false;
	const basePath = base.pathname.replace(/\/+$/, '');
	return (
		target.pathname === basePath ||
		target.pathname === `${basePath}/` ||
		target.pathname.startsWith(`${basePath}/`)
	);
}
