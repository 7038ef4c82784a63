import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { PROFILE_WRAPPER_KEYS } from '../shared/contract/assumptions';
import { ENDPOINTS } from '../shared/contract/endpoints';
import { isObject } from '../shared/contract/guards';
import { gateLogger, rememberSecret } from '../shared/gate';
import { apiRequest, CREDENTIAL_NAME } from '../shared/transport';
import { MAX_CACHED_TRIGGERS, openedRotated, rotatedKey } from './secretCache';
import type { CredentialSecrets, RawBody, RotatedSecret } from './signature';
import { currentSecret, fingerprint, normaliseSecret, sealRotated, verifyBody } from './signature';

/**
 * The company's current webhook secret, read from its profile (GET /auth/company/profile carries
 * `webhookSecret`, interface document "Company profile") when a delivery's signature matches no
 * secret the trigger holds: the company's secret changed outside this trigger (a copy of the
 * workflow rotated it, the API key was regenerated and the sealed secret no longer opens, n8n
 * restarted in between). The rules, each tested in test/unit/trigger-profile-secret.test.ts:
 * - At most one read per PROFILE_READ_MIN_INTERVAL_MS per trigger and credential; deliveries
 *   that fail meanwhile share the read in flight or the answer of the last one. A flood of bad
 *   signatures costs one profile read per interval, never one per request.
 * - The interval fits the document's retry schedule (attempts at 0, 1, 2 and 4 s): a delivery
 *   refused because a forged one took the read slot is still retried after the interval.
 * - The answer is kept in memory until the next read; it is sealed into the static data (under
 *   the credential's current API key) only once it verified a delivery, so a masked or stale
 *   answer is never kept. The secret the trigger held until then stays accepted for one grace
 *   period (a retry signed before the change).
 * - The secret is never logged or output; the gate masks it wherever it would show.
 */
export const PROFILE_READ_MIN_INTERVAL_MS = 3_000;

interface ProfileEntry {
	secret: string | undefined;
	readAt: number;
}

export type ProfileReader = () => Promise<string | undefined>;

export class ProfileSecrets {
	private readonly entries = new Map<string, ProfileEntry>();

	private readonly pending = new Map<string, Promise<string | undefined>>();

	constructor(
		private readonly intervalMs = PROFILE_READ_MIN_INTERVAL_MS,
		private readonly maxEntries = MAX_CACHED_TRIGGERS,
	) {}

	/** The profile's secret: read anew when the last read is older than the interval. */
	async get(key: string, now: number, read: ProfileReader): Promise<string | undefined> {
		const inFlight = this.pending.get(key);
		if (inFlight) return await inFlight;
		const entry = this.entries.get(key);
		if (entry && now >= entry.readAt && now - entry.readAt < this.intervalMs) return entry.secret;
		const promise = read();
		this.pending.set(key, promise);
		this.entries.delete(key);
		this.entries.set(key, { secret: undefined, readAt: now });
		while (this.entries.size > this.maxEntries) {
			this.entries.delete(this.entries.keys().next().value as string);
		}
		try {
			const secret = await promise;
			this.entries.set(key, { secret, readAt: now });
			return secret;
		} finally {
			this.pending.delete(key);
		}
	}

	clear(): void {
		this.entries.clear();
		this.pending.clear();
	}
}

export const profileSecrets = new ProfileSecrets();

/**
 * Error lines said once per trigger and cause (a refusal repeats on every delivery; what to do
 * does not): the first at error level, the rest at info level.
 */
const said = new Set<string>();

export function firstTime(key: string, cause: string): boolean {
	const id = `${key}\n${cause}`;
	if (said.has(id)) return false;
	if (said.size >= MAX_CACHED_TRIGGERS) said.clear();
	said.add(id);
	return true;
}

/** Forgets what was said (tests). */
export function clearSaid(): void {
	said.clear();
}

/**
 * Marks of a masked secret ("whsec_…a1b2", "whsec_****"): such a value can sign nothing and is
 * never kept (the interface document leaves open whether the profile shows it in full).
 */
const MASK_MARKS = /[…*•]/;

export function isMaskedSecret(secret: string): boolean {
	return MASK_MARKS.test(secret);
}

/**
 * `webhookSecret` from a profile answer (top level, else under PROFILE_WRAPPER_KEYS), in full;
 * undefined when the profile shows none.
 */
export function profileWebhookSecret(profile: unknown): string | undefined {
	if (!isObject(profile)) return undefined;
	let holder: IDataObject = profile;
	if (!('webhookSecret' in profile)) {
		const key = PROFILE_WRAPPER_KEYS.find((k) => isObject(profile[k]));
		if (key) holder = profile[key] as IDataObject;
	}
	const secret = normaliseSecret(holder.webhookSecret);
	return secret === '' ? undefined : secret;
}

export const PROFILE_NO_SECRET =
	'the company profile shows no webhookSecret, so the trigger cannot learn the company\'s current secret there. What to do: put the company\'s current webhook secret into the credential\'s Webhook Secret, or deactivate and activate the workflow with "Register Webhook URL Automatically" and "Rotate Webhook Secret" on';

export const PROFILE_MASKED =
	'the company profile shows the webhook secret masked, so the trigger cannot learn the company\'s current secret there. What to do: put the company\'s current webhook secret into the credential\'s Webhook Secret, or deactivate and activate the workflow with "Register Webhook URL Automatically" and "Rotate Webhook Secret" on';

export const PROFILE_UNREAD =
	"could not read the company profile to learn the company's current webhook secret. What to do: check that the credential holds the company's current API key (after Regenerate API Key, put the new key into the credential) and that the service is reachable";

async function readProfileSecret(
	ctx: IWebhookFunctions,
	sayKey: string,
): Promise<string | undefined> {
	try {
		const profile = await apiRequest.call(ctx, {
			method: 'GET',
			path: ENDPOINTS.profile,
		});
		const secret = profileWebhookSecret(profile);
		rememberSecret(ctx, secret, true);
		if (secret === undefined || isMaskedSecret(secret)) {
			const cause = secret === undefined ? PROFILE_NO_SECRET : PROFILE_MASKED;
			gateLogger(ctx)[firstTime(sayKey, cause) ? 'error' : 'info'](
				`Company Payments Trigger: ${cause}`,
			);
			return undefined;
		}
		return secret;
	} catch (error) {
		const cause = (error as Error).message;
		gateLogger(ctx)[firstTime(sayKey, `profile:${cause}`) ? 'error' : 'info'](
			`Company Payments Trigger: ${PROFILE_UNREAD} (${cause})`,
		);
		return undefined;
	}
}

export interface LearnInput {
	/** Which trigger and credential (the read's rate limit and memory). */
	key: string;
	now: number;
	raw: RawBody;
	signature: string;
	graceMs: number;
	/** The credential as read for this delivery (undefined: it could not be read, nothing to do). */
	secrets?: CredentialSecrets;
	/** The rotated secret as opened for this delivery, if any. */
	opened?: RotatedSecret;
	staticData: IDataObject;
	/** The static data key of the rotated secret. */
	storeKey: string;
}

/**
 * Tries the company's current secret from its profile on a delivery no held secret verified;
 * when it verifies, keeps it sealed as the current secret (the one held until now stays
 * accepted for the grace period) and returns true.
 */
export async function verifyWithProfile(
	ctx: IWebhookFunctions,
	input: LearnInput,
): Promise<boolean> {
	const { secrets, opened, now, graceMs } = input;
	if (!secrets?.sealKey) return false;
	const secret = await profileSecrets.get(
		input.key,
		now,
		async () => await readProfileSecret(ctx, input.key),
	);
	if (secret === undefined) return false;
	rememberSecret(ctx, secret, true);
	if (verifyBody(input.raw, input.signature, [{ key: secret, kind: 'secret' }]) === undefined) {
		return false;
	}
	const held = currentSecret(secrets, opened);
	if (held === secret) return true;
	const within = (since: number) => now >= since && now - since < graceMs;
	const older: Array<{ secret: string; retiredAt: number }> = [];
	const keep = (value: string | undefined, retiredAt: number) => {
		if (!value || value === secret || value === held || !within(retiredAt)) return;
		if (older.some((entry) => entry.secret === value)) return;
		older.push({ secret: value, retiredAt });
	};
	if (opened) {
		if (opened.current !== held && opened.supersededAt !== undefined) {
			keep(opened.current, opened.supersededAt);
		}
		keep(opened.previous, opened.rotatedAt);
		for (const entry of opened.older ?? []) keep(entry.secret, entry.retiredAt);
	}
	const learned: RotatedSecret = {
		current: secret,
		...(held === '' ? {} : { previous: held }),
		rotatedAt: now,
		credentialFingerprint: fingerprint(secrets.secret),
		older,
	};
	openedRotated.set(
		rotatedKey(
			ctx.getWorkflow().id,
			ctx.getNode().id,
			ctx.getNode().credentials?.[CREDENTIAL_NAME],
			secrets.baseUrl,
		),
		learned,
	);
	input.staticData[input.storeKey] = sealRotated(learned, secrets) as unknown as IDataObject;
	gateLogger(ctx).warn(
		"Company Payments Trigger: the company's webhook secret changed outside this trigger; it verified this delivery as read from the company profile and is kept sealed from now on (the secret held until now is accepted for the grace period)",
		{ workflowId: ctx.getWorkflow().id, node: ctx.getNode().name },
	);
	return true;
}

/**
 * Notes the first moment the credential holds another Webhook Secret than at the rotation
 * (RotatedSecret.supersededAt), in the opened secret and in the static data; forgets it when
 * the credential holds the rotation's secret again.
 */
export function noteSuperseded(
	opened: RotatedSecret | undefined,
	secrets: CredentialSecrets | undefined,
	stored: unknown,
	now: number,
): void {
	if (!opened || !secrets || !isObject(stored)) return;
	const replaced = fingerprint(secrets.secret) !== opened.credentialFingerprint;
	if (replaced && opened.supersededAt === undefined) {
		opened.supersededAt = now;
		stored.supersededAt = now;
	} else if (!replaced && opened.supersededAt !== undefined) {
		delete opened.supersededAt;
		delete stored.supersededAt;
	}
}
