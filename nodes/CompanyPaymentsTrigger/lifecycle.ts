import type { IDataObject, IHookFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { PROFILE_WRAPPER_KEYS, WEBHOOK_URL_CLEARED } from '../shared/contract/assumptions';
import { gateLogger, rememberSecret } from '../shared/gate';
import { apiRequest, CREDENTIAL_NAME, serviceErrorInfo } from '../shared/transport';
import {
	credentialSecrets,
	currentSecret,
	fingerprint,
	openRotated,
	readRotatedSecret,
	sealIdentity,
	sealRotated,
} from './signature';
import { openedRotated, rotatedKey } from './secretCache';
import { isMaskedSecret, profileWebhookSecret } from './profileSecret';
import type { RotatedSecret } from './signature';
import { ENDPOINTS } from '../shared/contract/endpoints';
import { isObject } from '../shared/contract/guards';

const PROFILE_PATH = ENDPOINTS.profile;
const ROTATE_PATH = ENDPOINTS.webhookRotation;

/** Static data key of the registration made by `create` (what `delete` puts back). */
export const REGISTRATION_KEY = 'registration';

/** Static data key of the secret the trigger rotated itself. */
export const ROTATED_SECRET_KEY = 'rotatedSecret';

/**
 * Static data key of the rotated secret as it stood when the workflow was deactivated: no
 * delivery is verified with it, but the company may still sign with it, so the next rotation keeps
 * it as the previous secret for retries (issue 50, the second rotation).
 */
export const RETIRED_SECRET_KEY = 'retiredSecret';

export interface Registration {
	/** The trigger URL the company was pointed at. */
	url: string;
	/** The company's webhook URL before that, put back on deactivation (null: there was none). */
	previousUrl: string | null;
	registeredAt: string;
}

export function readRegistration(value: unknown): Registration | undefined {
	if (typeof value !== 'object' || value === null) return undefined;
	const record = value as IDataObject;
	if (typeof record.url !== 'string') return undefined;
	return {
		url: record.url,
		previousUrl: typeof record.previousUrl === 'string' ? record.previousUrl : null,
		registeredAt: typeof record.registeredAt === 'string' ? record.registeredAt : '',
	};
}

/** The company's webhook URL from a profile answer (see PROFILE_WRAPPER_KEYS); null when unset. */
export function profileWebhookUrl(profile: unknown): string | null {
	if (!isObject(profile)) return null;
	let holder: IDataObject = profile;
	if (!('webhookUrl' in profile)) {
		const key = PROFILE_WRAPPER_KEYS.find((k) => isObject(profile[k]));
		if (key) holder = profile[key] as IDataObject;
	}
	const url = holder.webhookUrl;
	return typeof url === 'string' && url.trim() !== '' ? url : null;
}

type Outcome<T> = { ok: true; value: T } | { ok: false; error: Error };

/** Runs a call and hands back its value or its error, so failures can be explained in context. */
async function attempt<T>(call: Promise<T>): Promise<Outcome<T>> {
	return await call.then(
		(value): Outcome<T> => ({ ok: true, value }),
		(error: unknown): Outcome<T> => ({
			ok: false,
			error: error instanceof Error ? error : new Error(String(error)),
		}),
	);
}

/**
 * An error that says what the trigger was doing and what state the company is left in, and
 * keeps the service's error details (errorCode, HTTP status, request ID) of the failed call.
 */
function lifecycleError(
	ctx: IHookFunctions,
	cause: Error,
	message: string,
	state: string,
): NodeApiError {
	const info = serviceErrorInfo(cause);
	const causeDescription = (cause as Error & { description?: unknown }).description;
	const description = [
		state,
		`Cause: ${cause.message}`,
		typeof causeDescription === 'string' ? causeDescription : '',
	]
		.filter((line) => line !== '')
		.join('\n');
	const httpCode = info ? String(info.httpCode) : undefined;
	const error = new NodeApiError(
		ctx.getNode(),
		{ message: cause.message, ...(httpCode ? { httpCode } : {}) } as JsonObject,
		{ message, description, httpCode },
	);
	if (info) error.context.serviceError = info;
	return error;
}

function registerEnabled(ctx: IHookFunctions): boolean {
	return ctx.getNodeParameter('registerWebhook', false) === true;
}

function rotateEnabled(ctx: IHookFunctions): boolean {
	return ctx.getNodeParameter('rotateSecret', false) === true;
}

function triggerUrl(ctx: IHookFunctions): string {
	const url = ctx.getNodeWebhookUrl('default');
	if (!url) {
		throw new NodeOperationError(ctx.getNode(), 'n8n gave no webhook URL for this trigger', {
			description: 'Save the workflow and activate it again.',
		});
	}
	return url;
}

async function readCompanyUrl(ctx: IHookFunctions): Promise<string | null> {
	return (await readCompany(ctx)).url;
}

/** The company's webhook URL and (when the profile shows it) its current webhook secret. */
async function readCompany(
	ctx: IHookFunctions,
): Promise<{ url: string | null; secret: string | undefined }> {
	const profile = await apiRequest.call(ctx, { method: 'GET', path: PROFILE_PATH });
	const shown = profileWebhookSecret(profile);
	rememberSecret(ctx, shown, true);
	const secret = shown !== undefined && isMaskedSecret(shown) ? undefined : shown;
	return { url: profileWebhookUrl(profile), secret };
}

/**
 * The URLs of triggers deactivated while the company's webhook URL pointed elsewhere (at a copy
 * of the workflow that registered over them), with the URL each would have put back: when that
 * copy is deactivated in turn and would put back such a URL, it puts back this one instead, so
 * the company's own URL comes back whatever the order (outside read 2, finding 3). In this n8n
 * process only: n8n gives a node no state shared between workflows that outlives the process
 * (docs/webhook-trigger.md says what a restart between the two deactivations leaves).
 */
const handedOver = new Map<string, { previousUrl: string | null; live: boolean }>();

/**
 * The URL to put back instead of `url`: followed through triggers deactivated since (and through
 * `own`, the trigger being deactivated), up to a live trigger or a URL no trigger registered.
 */
function handedOverUrl(url: string | null, own: string): string | null {
	const seen = new Set<string>();
	let target = url;
	while (target !== null && !seen.has(target)) {
		const entry = handedOver.get(target);
		if (!entry || (entry.live && target !== own)) return target;
		seen.add(target);
		target = entry.previousUrl;
	}
	return target;
}

/**
 * Notes the trigger at `url` as live or deactivated, with the URL it would put back. A URL no
 * trigger registered (the company's own) once known is not replaced by another trigger's URL, so
 * a chain of copies activated and deactivated in turn still ends at the company's own URL.
 */
function mark(url: string, previousUrl: string | null, live: boolean): void {
	const known = handedOver.get(url)?.previousUrl;
	const keep = known !== undefined && previousUrl !== null && handedOver.has(previousUrl);
	handedOver.delete(url);
	handedOver.set(url, { previousUrl: keep ? known : previousUrl, live });
	while (handedOver.size > 1_000) handedOver.delete(handedOver.keys().next().value as string);
}

/** Forgets the hand-overs (tests). */
export function clearHandedOver(): void {
	handedOver.clear();
}

async function setCompanyUrl(ctx: IHookFunctions, url: string | null): Promise<void> {
	await apiRequest.call(ctx, {
		method: 'PATCH',
		path: PROFILE_PATH,
		body: { webhookUrl: url },
		explain: {
			PERMISSION_DENIED: 'Setting the webhook URL needs the webhook.manage permission',
		},
	});
}

async function rotateSecret(ctx: IHookFunctions): Promise<string> {
	const answer = await apiRequest.call(ctx, {
		method: 'POST',
		path: ROTATE_PATH,
		explain: {
			PERMISSION_DENIED: 'Rotating the webhook secret needs the webhook.manage permission',
		},
	});
	const secret = isObject(answer) ? answer.webhookSecret : undefined;
	if (typeof secret !== 'string' || secret === '') {
		throw new NodeOperationError(
			ctx.getNode(),
			'The answer of POST /auth/company/webhook-secret/rotate holds no webhookSecret',
		);
	}
	return secret;
}

/** This trigger's own webhook URL, or undefined when n8n gives none. */
function ownUrl(ctx: IHookFunctions): string | undefined {
	try {
		return ctx.getNodeWebhookUrl('default') ?? undefined;
	} catch {
		return undefined;
	}
}

function show(url: string | null): string {
	return url === null ? 'no URL' : url;
}

/**
 * checkExists: with registration off there is nothing to register (true). Otherwise the
 * webhook exists when the company's webhook URL is this trigger's URL. When the profile cannot
 * be read but this trigger registered its URL before (e.g. n8n restarts while the service is
 * down), the registration is trusted so the trigger keeps receiving deliveries.
 */
export async function checkExists(this: IHookFunctions): Promise<boolean> {
	if (!registerEnabled(this)) return true;
	const url = triggerUrl(this);
	const registration = readRegistration(this.getWorkflowStaticData('node')[REGISTRATION_KEY]);
	const current = await attempt(readCompanyUrl(this));
	if (!current.ok) {
		if (registration?.url === url) {
			gateLogger(this).warn(
				`Company Payments Trigger: could not read the company profile (${current.error.message}); assuming the webhook URL still points at ${url}, as registered on ${registration.registeredAt}`,
			);
			return true;
		}
		throw lifecycleError(
			this,
			current.error,
			'Could not read the company profile to register the webhook URL',
			'Nothing was changed. Check the credential and that the service is reachable, then activate again.',
		);
	}
	return current.value === url;
}

/**
 * create: remembers the company's current webhook URL, points it at this trigger (PATCH
 * /auth/company/profile) and, when asked to and outside test runs, rotates the secret and
 * keeps the new one in the node's static data. If the rotation fails, the URL is set back.
 */
export async function create(this: IHookFunctions): Promise<boolean> {
	if (!registerEnabled(this)) return true;
	const url = triggerUrl(this);
	const data = this.getWorkflowStaticData('node');
	const company = await attempt(readCompany(this));
	const before: Outcome<string | null> = company.ok
		? { ok: true, value: company.value.url }
		: company;
	if (!before.ok) {
		throw lifecycleError(
			this,
			before.error,
			'Could not read the company profile before registering the webhook URL',
			'Nothing was changed. Check the credential and that the service is reachable, then activate again.',
		);
	}
	// This URL is live again; a deactivated trigger's URL found there is followed to the URL that
	// trigger would have put back.
	const previousUrl = handedOverUrl(
		before.value === url
			? (readRegistration(data[REGISTRATION_KEY])?.previousUrl ?? null)
			: before.value,
		url,
	);
	mark(url, previousUrl, true);

	const set = await attempt(setCompanyUrl(this, url));
	if (!set.ok) {
		throw lifecycleError(
			this,
			set.error,
			'Could not point the company webhook URL at this trigger',
			`The company's webhook URL was not changed (${show(before.value)}).`,
		);
	}
	const registration: Registration = { url, previousUrl, registeredAt: new Date().toISOString() };
	data[REGISTRATION_KEY] = registration as unknown as IDataObject;

	if (!rotateEnabled(this) || this.getMode() === 'manual') return true;

	const credential = credentialSecrets(
		await this.getCredentials(CREDENTIAL_NAME),
		sealIdentity(this, CREDENTIAL_NAME),
	);
	const memoryKey = rotatedKey(
		this.getWorkflow().id,
		this.getNode().id,
		this.getNode().credentials?.[CREDENTIAL_NAME],
		credential.baseUrl,
	);
	// What the company signs with now: the secret this trigger rotated last (active, or kept when
	// the workflow was deactivated), opened with the credential or from this process's memory.
	const kept =
		readRotatedSecret(data[ROTATED_SECRET_KEY]) ?? readRotatedSecret(data[RETIRED_SECRET_KEY]);
	let openedBefore = openRotated(kept, credential);
	const remembered = openedRotated.get(memoryKey);
	if (!openedBefore && kept && remembered?.rotatedAt === kept.rotatedAt) openedBefore = remembered;
	const secretBefore = currentSecret(credential, openedBefore);
	const rotated = await attempt(rotateSecret(this));
	if (!rotated.ok) {
		const undo = await attempt(setCompanyUrl(this, previousUrl));
		if (undo.ok) {
			delete data[REGISTRATION_KEY];
			throw lifecycleError(
				this,
				rotated.error,
				'Could not rotate the webhook secret',
				`The company's webhook URL was set back to ${show(previousUrl)}; the secret may or may not have changed. Turn off "Rotate Webhook Secret" or fix the cause, then activate again.`,
			);
		}
		throw lifecycleError(
			this,
			rotated.error,
			`Could not rotate the webhook secret, and the company's webhook URL still points at this trigger (${url}), which is not active`,
			`Setting it back to ${show(previousUrl)} failed too (${undo.error.message}). Set the webhook URL in the company profile yourself.`,
		);
	}
	// Every secret that may still sign a retry: the one before this rotation, and the one before
	// that if it was retired at the last rotation (two rotations within the grace period: the
	// receiver drops it once that period is over).
	const rotatedAt = Date.now();
	const older: Array<{ secret: string; retiredAt: number }> = [];
	const keepOlder = (secret: string | undefined, retiredAt: number) => {
		if (!secret || secret === secretBefore || older.some((o) => o.secret === secret)) return;
		older.push({ secret, retiredAt });
	};
	if (openedBefore?.previous !== undefined)
		keepOlder(openedBefore.previous, openedBefore.rotatedAt);
	// The trigger's own secret replaced by the credential's (Company → Rotate Webhook Secret).
	if (openedBefore?.supersededAt !== undefined && openedBefore.current !== secretBefore) {
		keepOlder(openedBefore.current, openedBefore.supersededAt);
	}
	// What the company's profile said it signed with just before this rotation, when the trigger
	// could not open what it kept (the API key changed and n8n restarted since).
	if (company.ok) keepOlder(company.value.secret, rotatedAt);
	const opened: RotatedSecret = {
		current: rotated.value,
		previous: secretBefore,
		rotatedAt,
		credentialFingerprint: fingerprint(credential.secret),
		older,
	};
	openedRotated.set(memoryKey, opened);
	// Sealed (signature.ts): never in clear in the static data.
	const secret = sealRotated(opened, credential);
	delete data[RETIRED_SECRET_KEY];
	data[ROTATED_SECRET_KEY] = secret as unknown as IDataObject;
	return true;
}

/**
 * delete: when the company still points at this trigger, puts back the URL it had before the
 * trigger registered itself (or clears it when there was none, or when the trigger did not set
 * it itself). A URL someone else set since is left alone. If this fails, the error says that
 * the company still points at the deactivated workflow. A secret the trigger rotated is
 * forgotten: nothing verifies deliveries while the workflow is inactive, and activating it again
 * with "Rotate Webhook Secret" rotates anew (without it, set the Webhook Secret in the credential).
 */
export async function remove(this: IHookFunctions): Promise<boolean> {
	const data = this.getWorkflowStaticData('node');
	const rotated = readRotatedSecret(data[ROTATED_SECRET_KEY]);
	if (rotated) data[RETIRED_SECRET_KEY] = rotated as unknown as IDataObject;
	delete data[ROTATED_SECRET_KEY];
	let registration = readRegistration(data[REGISTRATION_KEY]);
	const own = ownUrl(this);
	if (registration && own !== undefined && registration.url !== own) {
		// Another workflow's registration, copied with its static data (a duplicated workflow):
		// the company's URL is that workflow's to put back, never this one's.
		gateLogger(this).warn(
			`Company Payments Trigger: the registration kept in this node names ${registration.url}, not this trigger's URL (${own}); it was copied from another workflow and is left alone`,
		);
		delete data[REGISTRATION_KEY];
		registration = undefined;
		if (!registerEnabled(this)) return true;
	}
	if (!registration && !registerEnabled(this)) return true;
	const url = registration?.url ?? triggerUrl(this);
	const current = await attempt(readCompanyUrl(this));
	if (!current.ok) {
		const error = lifecycleError(
			this,
			current.error,
			`The company's webhook URL may still point at this deactivated workflow (${url})`,
			`Could not read the company profile to put back ${show(registration?.previousUrl ?? null)}. Check the webhook URL in the company profile yourself.`,
		);
		gateLogger(this).error(`Company Payments Trigger: ${error.message}`);
		throw error;
	}
	if (current.value !== url) {
		// Another trigger registered over this one: it puts back this URL when it is deactivated,
		// and finds here what to put back instead.
		if (registration && current.value !== null) mark(url, registration.previousUrl, false);
		delete data[REGISTRATION_KEY];
		return true;
	}
	const target = handedOverUrl(registration ? registration.previousUrl : WEBHOOK_URL_CLEARED, url);
	const restored = await attempt(setCompanyUrl(this, target));
	if (!restored.ok) {
		const error = lifecycleError(
			this,
			restored.error,
			`The company's webhook URL still points at this deactivated workflow (${url})`,
			`Putting back ${show(target)} failed. Set the webhook URL in the company profile yourself, or activate the workflow again.`,
		);
		gateLogger(this).error(`Company Payments Trigger: ${error.message}`);
		throw error;
	}
	if (registration) mark(url, target, false);
	delete data[REGISTRATION_KEY];
	return true;
}
