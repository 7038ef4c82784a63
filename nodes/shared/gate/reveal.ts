import type { IDataObject } from 'n8n-workflow';

/*
 * Reveal: the one way past the gate. An operation opens one field of one record for the user
 * (Reveal Webhook Secret, Mask Card Number and CVV off, the new API key an operation exists to
 * give, the invite link to share). Every other field of the record, and the same value anywhere
 * else, stays masked; the AI model never gets it.
 */

/** Fields of one record the user asked to see in full, by the record. */
const revealed = new WeakMap<object, Set<string>>();

/** Opens `fields` of `record` for the user. */
export function reveal<T extends IDataObject>(record: T, ...fields: string[]): T {
	revealed.set(record, new Set([...(revealed.get(record) ?? []), ...fields]));
	return record;
}

/** The fields of a record that are open for the user (none for the model). */
export function openFields(record: object, audience: 'user' | 'model'): Set<string> | undefined {
	return audience === 'user' ? revealed.get(record) : undefined;
}

/** Marks the gated copy of a record with the fields its original opened. */
export function keepOpen(copy: object, open: Set<string>): void {
	revealed.set(copy, open);
}

/** The fields of an item the gate let through in full (Reveal), for checks of what it opened. */
export function revealedFields(json: IDataObject): string[] {
	return [...(revealed.get(json) ?? [])];
}
