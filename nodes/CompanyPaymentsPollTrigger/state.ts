import type { IDataObject } from 'n8n-workflow';

import type { WatchKind } from './types';

/** Key of the node's static data that holds what the last poll saw. */
export const STATE_KEY = 'pollState';

/**
 * What the node remembers between polls: for each watched list, the state of every record of
 * the window (`id → state`, e.g. `"po_1" → "fail+refunded"`), and for the balance whether it
 * was below the threshold. A list missing here has not been polled yet (its next poll is a
 * baseline). Memory: one `"id":"state",` pair per record, about 60 bytes for a UUID id.
 */
export interface PollState {
	v: 1;
	lists: Partial<Record<Exclude<WatchKind, 'balance'>, Record<string, string>>>;
	balanceBelow?: boolean;
}

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads the stored state; anything unreadable counts as "nothing polled yet". */
export function readState(value: unknown): PollState | undefined {
	if (!isObject(value) || value.v !== 1 || !isObject(value.lists)) return undefined;
	const lists: PollState['lists'] = {};
	for (const [kind, records] of Object.entries(value.lists)) {
		if (!isObject(records)) continue;
		const copy: Record<string, string> = {};
		for (const [id, state] of Object.entries(records)) {
			if (typeof state === 'string') copy[id] = state;
		}
		lists[kind as keyof PollState['lists']] = copy;
	}
	const state: PollState = { v: 1, lists };
	if (typeof value.balanceBelow === 'boolean') state.balanceBelow = value.balanceBelow;
	return state;
}
