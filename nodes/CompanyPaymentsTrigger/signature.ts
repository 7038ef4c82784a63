import {
	createCipheriv,
	createDecipheriv,
	createHash,
	createHmac,
	randomBytes,
	timingSafeEqual,
} from 'node:crypto';

import { rememberCredential } from '../shared/gate';
import {
	invisibleIn,
	normaliseSecret as normaliseApiKey,
	normaliseWebhookSecret as normaliseSecret,
} from '../shared/transport/environment';

/** Header names as Node.js gives them (lower case). */
export const SIGNATURE_HEADER = 'x-service-signature';

/** The request body exactly as received: n8n keeps it as a Buffer in `rawBody`. */
export type RawBody = Buffer | string;

const HEX_SHA256 = /^[0-9a-fA-F]{64}$/;

/**
 * Whether `X-Service-Signature` has the form of a signature: 64 hex characters (a SHA-256
 * digest), either case. Anything else (missing, repeated, truncated, non-hex, prefixed) is
 * never accepted.
 */
export function isSignature(header: unknown): header is string {
	return typeof header === 'string' && HEX_SHA256.test(header);
}

/** Hex HMAC-SHA256 of the body with the key, as the service computes it. */
export function sign(body: RawBody, key: string): string {
	return createHmac('sha256', key).update(body).digest('hex');
}

/** Which key a delivery was verified with. */
export type KeyKind = 'secret' | 'previousSecret' | 'emptyKey';

export interface CandidateKey {
	key: string;
	kind: KeyKind;
}

/*
 * The two digests are compared as bytes with timingSafeEqual. The buffers are reused: they
 * are filled and compared in one synchronous step, so requests cannot interleave here, and
 * the delivery path allocates nothing but the digest (a hex digest string is also the
 * cheapest form Node gives a digest in).
 */
const givenDigest = Buffer.alloc(32);
const expectedDigest = Buffer.alloc(32);

/**
 * Tries the candidate keys in order and returns the kind of the first whose HMAC over the
 * exact body bytes equals the signature (constant-time compare), or undefined. One HMAC per
 * candidate at most; the common case (current secret) costs one.
 */
export function verifyBody(
	body: RawBody,
	signature: string,
	candidates: readonly CandidateKey[],
): KeyKind | undefined {
	// 64 characters that decode to 32 bytes: hex decoding stops at the first non-hex pair.
	if (signature.length !== 64 || givenDigest.write(signature, 'hex') !== 32) return undefined;
	for (const candidate of candidates) {
		expectedDigest.write(sign(body, candidate.key), 'hex');
		if (timingSafeEqual(expectedDigest, givenDigest)) return candidate.kind;
	}
	return undefined;
}

/**
 * What the trigger keeps in the node's static data after it rotated the company's secret
 * itself: the new secret, the one before it (accepted during the grace period) and a short
 * fingerprint of the credential's Webhook Secret at that moment. When the credential's secret
 * changes later, the user has set a newer secret by hand and the credential wins again.
 */
/** A secret from before the previous one, with the time it stopped being the company's secret. */
export interface OlderSecret {
	secret: string;
	retiredAt: number;
}

/** The kept secrets sealed under one more key (RotatedSecret.bySecret, byIdentity). */
export interface SealedSecrets {
	current: string;
	previous?: string;
	older?: OlderSecret[];
}

export interface RotatedSecret {
	current: string;
	previous?: string;
	rotatedAt: number;
	credentialFingerprint: string;
	/**
	 * The same two secrets sealed a second time, with a key derived from the credential's Webhook
	 * Secret at the rotation (when it had one): they still open after the company's API key is
	 * regenerated and the new key put into the credential, which the API-key seal does not.
	 */
	bySecret?: SealedSecrets;
	/**
	 * The same secrets sealed a third time, with a key derived from where the trigger runs:
	 * this n8n instance's ID and the n8n credential's ID (identitySealKey). Neither of them
	 * changes when the company regenerates its API key, so the rotated secret still opens
	 * after the new key is put into the credential and n8n restarts, also when the credential has
	 * no Webhook Secret (outside read r6-data-b, finding 5).
	 */
	byIdentity?: SealedSecrets;
	/**
	 * Secrets from before the previous one that may still sign a retry (two rotations within the
	 * grace period), each with the time it stopped being the company's secret. Sealed like the
	 * current and previous ones: here with the API key, and again in `bySecret` and `byIdentity`
	 * (outside read r21-data, finding 4: sealed with the API key alone, they were lost to a
	 * retry after Regenerate API Key and a restart).
	 */
	older?: OlderSecret[];
	/**
	 * When the trigger first saw the credential hold another Webhook Secret than at the rotation
	 * (the user replaced the secret by hand, e.g. with Company → Rotate Webhook Secret): from then
	 * on the credential's secret is the current one, and the secrets kept here still sign retries
	 * for one grace period counted from this time (issue 50 outside read, finding 4).
	 */
	supersededAt?: number;
}

/** A short, one-way fingerprint of a secret (never the secret itself). */
export function fingerprint(secret: string): string {
	return createHash('sha256').update(secret).digest('hex').slice(0, 16);
}

/** The older secrets as kept (a list of `{ secret, retiredAt }`), or undefined when there is no list. */
function readOlder(value: unknown): OlderSecret[] | undefined {
	if (!Array.isArray(value)) return undefined;
	return (value as unknown[]).flatMap((entry) => {
		const older = entry as Record<string, unknown> | null;
		return older && typeof older.secret === 'string' && typeof older.retiredAt === 'number'
			? [{ secret: older.secret, retiredAt: older.retiredAt }]
			: [];
	});
}

export function readRotatedSecret(value: unknown): RotatedSecret | undefined {
	if (typeof value !== 'object' || value === null) return undefined;
	const record = value as Record<string, unknown>;
	if (typeof record.current !== 'string' || record.current === '') return undefined;
	if (typeof record.rotatedAt !== 'number' || typeof record.credentialFingerprint !== 'string') {
		return undefined;
	}
	const read: RotatedSecret = {
		current: record.current,
		previous: typeof record.previous === 'string' ? record.previous : undefined,
		rotatedAt: record.rotatedAt,
		credentialFingerprint: record.credentialFingerprint,
	};
	for (const name of ['bySecret', 'byIdentity'] as const) {
		const sealed = record[name] as Record<string, unknown> | undefined;
		if (typeof sealed === 'object' && sealed !== null && typeof sealed.current === 'string') {
			const group: SealedSecrets = {
				current: sealed.current,
				previous: typeof sealed.previous === 'string' ? sealed.previous : undefined,
			};
			const older = readOlder(sealed.older);
			if (older !== undefined) group.older = older;
			read[name] = group;
		}
	}
	const older = readOlder(record.older);
	if (older !== undefined) read.older = older;
	if (typeof record.supersededAt === 'number') read.supersededAt = record.supersededAt;
	return read;
}

/**
 * The one normalisation of a webhook secret (transport/environment.ts normaliseWebhookSecret),
 * used wherever a secret is compared, signed with or fingerprinted (activation and delivery
 * alike), and by Update Profile for the secret it sends: surrounding whitespace, as a paste
 * leaves it, and characters that show nothing inside it are not part of it.
 */
export { normaliseSecret };

/**
 * What the trigger says, at warning level, of a credential whose Webhook Secret (or Previous
 * Webhook Secret) holds a character that shows nothing (outside read r10-data, finding 3): the
 * field and the position, never the secret. Deliveries are still verified, with the secret read
 * without it (as Update Profile sends it).
 */
export function invisibleSecretWarnings(credentials: Record<string, unknown>): string[] {
	const warnings: string[] = [];
	for (const [field, label] of [
		['webhookSecret', 'Webhook Secret'],
		['previousWebhookSecret', 'Previous Webhook Secret'],
	] as const) {
		const where = invisibleIn(credentials[field]);
		if (where === undefined) continue;
		warnings.push(
			`Company Payments Trigger: the credential's ${label} holds a character that shows nothing (${where}). Deliveries are verified with the secret read without it, as Update Profile sends it; if the service was given the secret with that character, every delivery is refused (401). Paste the secret again in the credential.`,
		);
	}
	return warnings;
}

/**
 * The secrets the credential holds, normalised: `secret` is the Webhook Secret, `previous` the
 * Previous Webhook Secret the user sets while a rotation made outside n8n settles (and clears
 * after). `undefined` as a whole when the credential could not be read.
 */
export interface CredentialSecrets {
	secret: string;
	previous: string;
	/**
	 * The key a rotated secret is sealed with in the static data (sealSecret): derived from the
	 * credential's API key, held in memory only. Empty when the credential has no key.
	 */
	sealKey?: string;
	/** The key derived from the credential's Webhook Secret (empty without one): see RotatedSecret.bySecret. */
	secretSealKey?: string;
	/**
	 * The key derived from this n8n instance's ID and the credential's n8n ID (empty
	 * when the instance or the credential has no ID): see RotatedSecret.byIdentity.
	 */
	identitySealKey?: string;
	/** The credential's Base URL, trimmed (which company's secrets these are). */
	baseUrl?: string;
}

/** What a trigger's context tells of where it runs (n8n's hook and webhook contexts). */
interface RunsIn {
	getInstanceId?: () => string;
	getNode: () => { credentials?: Record<string, { id?: string | null; name?: string }> };
}

/**
 * Where the trigger runs, as one text: this n8n instance's ID and the n8n credential's ID
 * (empty when either is missing). Not the Base URL: a Base URL written another way (a trailing
 * slash) must not lose the secret, and it adds no secrecy.
 */
export function sealIdentity(ctx: RunsIn, credentialType: string): string {
	let instance = '';
	try {
		instance = typeof ctx.getInstanceId === 'function' ? String(ctx.getInstanceId() ?? '') : '';
	} catch {
		instance = '';
	}
	const credential = ctx.getNode().credentials?.[credentialType]?.id ?? '';
	return instance === '' || !credential ? '' : `${instance}\n${credential}`;
}

export function credentialSecrets(
	credentials: Record<string, unknown>,
	identity = '',
): CredentialSecrets {
	// Known to the gate from now on, wherever they show up (shared/gate.ts).
	rememberCredential(credentials);
	const secret = normaliseSecret(credentials.webhookSecret);
	const baseUrl = typeof credentials.baseUrl === 'string' ? credentials.baseUrl.trim() : '';
	return {
		secret,
		previous: normaliseSecret(credentials.previousWebhookSecret),
		sealKey: sealKeyOf(credentials.apiKey),
		secretSealKey: secret === '' ? '' : sealKeyOf(`webhook secret\n${secret}`),
		identitySealKey: identity === '' ? '' : sealKeyOf(`identity\n${identity}`),
		baseUrl,
	};
}

/*
 * A secret the trigger rotated itself is kept in the node's static data, which n8n saves in the
 * workflow unencrypted and exports with it. n8n gives a community node no way to write a
 * credential, so it is kept there sealed (AES-256-GCM), up to three times, each with its own
 * key: one derived from the credential's API key, one from its Webhook Secret (when it has one),
 * one from this n8n instance's ID and the credential's n8n ID. The first two need
 * a secret of the credential; the third survives the company's own key change (Regenerate API
 * Key, the new key put into the credential, a restart) but is weaker: the instance ID is no
 * secret to the users of this n8n (its settings show it), so whoever can read the workflow's
 * static data there and knows the credential's ID can open it. An exported workflow
 * or a copy of the database alone holds no instance ID, hence only ciphertext. A value saved in
 * clear by an earlier version is still read (and sealed at the next rotation).
 */
const SEALED = 'sealed:v1:';

/**
 * The seal key derived from `material` (the API key, or a labelled Webhook Secret or identity),
 * read with the one normalisation the node sends the API key with (normaliseSecret in
 * shared/transport): a key pasted with surrounding spaces or a line break seals alike.
 */
function sealKeyOf(material: unknown): string {
	const key = normaliseApiKey(material);
	if (key === '') return '';
	return createHash('sha256').update(`company-payments webhook secret seal\n${key}`).digest('hex');
}

/** `secret` sealed with `sealKey` (hex); the secret itself when there is no key to seal with. */
export function sealSecret(secret: string, sealKey: string | undefined): string {
	if (!sealKey) return secret;
	const iv = randomBytes(12);
	const cipher = createCipheriv('aes-256-gcm', Buffer.from(sealKey, 'hex'), iv);
	const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
	return `${SEALED}${[iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url')).join('.')}`;
}

/** A kept secret opened with `sealKey`; undefined when it was sealed with another key. */
export function openSecret(value: string, sealKey: string | undefined): string | undefined {
	if (!value.startsWith(SEALED)) return value;
	if (!sealKey) return undefined;
	const [iv, tag, body] = value
		.slice(SEALED.length)
		.split('.')
		.map((part) => Buffer.from(part, 'base64url'));
	try {
		const decipher = createDecipheriv('aes-256-gcm', Buffer.from(sealKey, 'hex'), iv);
		decipher.setAuthTag(tag);
		return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
	} catch {
		return undefined;
	}
}

/**
 * The rotated secret as kept, opened with the credential's seal key: undefined when it cannot be
 * opened (the credential now holds another API key, or could not be read).
 */
export function openRotated(
	rotated: RotatedSecret | undefined,
	credential: CredentialSecrets | undefined,
): RotatedSecret | undefined {
	if (!rotated) return undefined;
	// Sealed with the API key; else with the Webhook Secret the credential held at the rotation.
	for (const [sealed, key] of [
		[rotated, credential?.sealKey],
		[rotated.bySecret, credential?.secretSealKey],
		[rotated.byIdentity, credential?.identitySealKey],
	] as const) {
		if (!sealed) continue;
		const current = openSecret(sealed.current, key);
		if (current === undefined) continue;
		const previous = sealed.previous === undefined ? undefined : openSecret(sealed.previous, key);
		// The older secrets sealed under the same key; kept by an earlier version (no such list in
		// this seal), those of the API-key seal, which open only if this is that key.
		const older = (sealed.older ?? rotated.older ?? []).flatMap((entry) => {
			const secret = openSecret(entry.secret, key);
			return secret === undefined ? [] : [{ secret, retiredAt: entry.retiredAt }];
		});
		return { ...rotated, current, previous, older, bySecret: undefined, byIdentity: undefined };
	}
	return undefined;
}

/**
 * An opened rotated secret sealed again for the static data, with the credential as it is now:
 * with its API key, a second time with its Webhook Secret when it has one, and a third time with
 * this instance's and the credential's IDs when both are known; each seal holds the current,
 * previous and older secrets alike.
 */
export function sealRotated(
	opened: RotatedSecret,
	credential: CredentialSecrets,
	credentialFingerprint = opened.credentialFingerprint,
): RotatedSecret {
	// The current, previous and older secrets, sealed under one key: whichever seal opens, it
	// opens every secret that may still sign a retry.
	const all = (key: string | undefined): SealedSecrets => {
		const sealed: SealedSecrets = { current: sealSecret(opened.current, key) };
		if (opened.previous !== undefined) sealed.previous = sealSecret(opened.previous, key);
		if (opened.older && opened.older.length > 0) {
			sealed.older = opened.older.map((entry) => ({
				secret: sealSecret(entry.secret, key),
				retiredAt: entry.retiredAt,
			}));
		}
		return sealed;
	};
	const sealed: RotatedSecret = {
		...all(credential.sealKey),
		rotatedAt: opened.rotatedAt,
		credentialFingerprint,
	};
	if (credential.secretSealKey) sealed.bySecret = all(credential.secretSealKey);
	if (credential.identitySealKey) sealed.byIdentity = all(credential.identitySealKey);
	if (opened.supersededAt !== undefined) sealed.supersededAt = opened.supersededAt;
	return sealed;
}

/**
 * The secret the company signs with now, as far as this trigger knows: the one the trigger
 * rotated to, as long as the credential still holds the secret it held at that rotation (a newer
 * secret typed into the credential wins), else the credential's. When the credential cannot be
 * read, the rotated secret, if any.
 */
export function currentSecret(
	credential: CredentialSecrets | undefined,
	rotated: RotatedSecret | undefined,
): string {
	if (!credential) return rotated?.current ?? '';
	if (rotated && fingerprint(credential.secret) === rotated.credentialFingerprint) {
		return rotated.current;
	}
	return credential.secret;
}

export interface KeyOptions {
	/** Accept deliveries signed with the empty key (the service does so before any secret is set). */
	allowEmptyKey: boolean;
	graceMs: number;
	now: number;
}

/**
 * The keys a delivery may be signed with, best first:
 * - the current secret;
 * - the secret before a rotation the trigger made itself, until the grace period counted from
 *   that rotation (its time is stored with it) is over;
 * - the credential's Previous Webhook Secret, for as long as the user keeps it there.
 * The empty key only when the user allowed it. Nothing a delivery carries opens or extends a
 * window: the only times used are the stored rotation time and the clock. With no secret and
 * no permission: no key at all, so nothing is accepted (fail closed).
 */
export function candidateKeys(
	credential: CredentialSecrets | undefined,
	rotated: RotatedSecret | undefined,
	options: KeyOptions,
): CandidateKey[] {
	const current = currentSecret(credential, rotated);
	const keys: CandidateKey[] = [];
	const add = (key: string | undefined, kind: KeyKind) => {
		if (key === undefined || keys.some((k) => k.key === key)) return;
		if (key === '') {
			if (options.allowEmptyKey) keys.push({ key, kind: 'emptyKey' });
			return;
		}
		keys.push({ key, kind });
	};
	add(current, 'secret');
	const within = (since: number) => options.now >= since && options.now - since < options.graceMs;
	// The rotated secrets count while they are the current ones, and for one grace period after
	// the credential's secret replaced them (supersededAt): retries signed before still pass.
	const rotatedHolds =
		rotated !== undefined &&
		(current === rotated.current ||
			(rotated.supersededAt !== undefined && within(rotated.supersededAt)));
	if (rotated && rotatedHolds && current !== rotated.current) {
		add(rotated.current, 'previousSecret');
	}
	if (rotated && rotatedHolds && within(rotated.rotatedAt)) {
		add(rotated.previous, 'previousSecret');
	}
	if (rotated && rotatedHolds) {
		// Two rotations within the grace period: the one before the previous signs retries too.
		for (const entry of rotated.older ?? []) {
			if (within(entry.retiredAt)) {
				add(entry.secret, 'previousSecret');
			}
		}
	}
	if (credential && credential.previous !== '') add(credential.previous, 'previousSecret');
	return keys;
}
