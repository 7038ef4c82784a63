import type { IDataObject } from 'n8n-workflow';

/*
 * A payment reference whose last send came out unknown (issue 49.3). A tool call that sends again
 * under it before `lookAgainAt` could pay twice where the service does not replay the key and its
 * listing does not show the first payment yet, so until then the tool refuses to send and tells
 * the model to resolve first. Kept in this n8n process's memory, keyed by company and reference
 * key; the tool's texts name the window this covers (another n8n process does not see it).
 */

const pending = new Map<string, { until: number; sentWrite: IDataObject | undefined }>();

/** How many references are kept; the oldest go first. */
const MAX_PENDING = 10_000;

export function rememberPending(
	id: string,
	until: number,
	sentWrite: IDataObject | undefined,
): void {
	pending.delete(id);
	pending.set(id, { until, sentWrite });
	if (pending.size > MAX_PENDING) pending.delete(pending.keys().next().value as string);
}

/** The unknown send of this reference still within its window, or undefined. */
export function pendingSend(
	id: string,
	now = Date.now(),
): { until: number; sentWrite: IDataObject | undefined } | undefined {
	const entry = pending.get(id);
	if (entry && entry.until > now) return entry;
	if (entry) pending.delete(id);
	return undefined;
}

export function forgetPendingSend(id: string): void {
	pending.delete(id);
}

/** Forgets the reference whose unknown send Resolve Outcome decided (by its sent write's seal). */
export function settlePending(seal: unknown): void {
	for (const [id, entry] of pending) {
		if (entry.sentWrite && entry.sentWrite.seal === seal) pending.delete(id);
	}
}

/** Forgets every reference (tests: a new process). */
export function forgetPending(): void {
	pending.clear();
}
