import { createHash } from 'node:crypto';

import type { WatchKind } from './types';
import { isObject } from '../shared/contract/guards';

/** Key of the node's static data that holds what the last poll saw. */
export const STATE_KEY = 'pollState';

/** Kinds of list the state keeps records of. */
export type ListKind = Exclude<WatchKind, 'balance'>;

/** A record remembered while it is out of the answers (ABSENT_POLLS_REMEMBERED). */
export interface AwayRecord {
	/** Its state when last seen. */
	s: string;
	/** Its visit evidence when last seen (VISIT_EVIDENCE order), if kept. */
	t?: Array<string | null>;
	/** Polls in a row whose answer left it out. */
	n: number;
}

/**
 * How many polls in a row a record left out of the answer stays remembered (outside read 2,
 * finding 6): a listing that leaves a record out once (a lagging replica) and shows it again
 * unchanged emits nothing. A record left out longer (it left the window, or the filter) is
 * forgotten, so the state stays bounded; if it comes back later it is emitted as new.
 */
export const ABSENT_POLLS_REMEMBERED = 5;

/**
 * What the node remembers between polls: for each watched list, the state of every record of
 * the window (`id → state`, e.g. `"po_1" → "fail+refunded"`), the times that tell one visit of a
 * state from another (`times`, the list's VISIT_EVIDENCE, contract/visits.ts), the records the
 * last answers left out (`away`, for ABSENT_POLLS_REMEMBERED polls), and for the balance whether
 * it was below the threshold. A list missing here has not been polled yet (its next poll is a
 * baseline). Memory: one `"id":"state",` pair per record: 34 bytes measured with 19-character ids
 * (bench/RESULTS.md, poll section), about 51 with UUIDs; plus the shown times, about 27 bytes each
 * (a payout shows up to four).
 */
export interface PollState {
	v: 1;
	/** Counts the polls that wrote this state: the higher, the newer. */
	seq: number;
	lists: Partial<Record<ListKind, Record<string, string>>>;
	/** Per list, per record: its VISIT_EVIDENCE values when last seen (null: not shown). */
	times?: Partial<Record<ListKind, Record<string, Array<string | null>>>>;
	/** Per list: records the last answer(s) left out, still remembered. */
	away?: Partial<Record<ListKind, Record<string, AwayRecord>>>;
	balanceBelow?: boolean;
	/**
	 * The company the state belongs to (companyOfCredential): a digest of the n8n credential the
	 * node uses and its Base URL. Absent in a state saved before it was kept (adopted).
	 */
	company?: string;
	/**
	 * The company as the service names it (ownerOfProfile): a digest of the Base URL and the
	 * company ID the profile shows; `''` when the profile answered without one. A state with the
	 * same owner is carried to a new n8n credential of that company (outside read r7-data,
	 * finding 5). Absent until the profile was read.
	 */
	owner?: string;
	/** A digest of the Base URL the state was polled at (baseOf). */
	base?: string;
}

/**
 * The company the profile names (GET /auth/company/profile: `companyId`, else `company.id`,
 * else `id`; the document does not show its fields), with the Base URL, as the state keeps it.
 */
export function ownerOfProfile(baseUrl: string, companyId: string): string {
	return createHash('sha256')
		.update(`poll-state owner\n${baseUrl}\n${companyId}`)
		.digest('hex')
		.slice(0, 16);
}

/** The Base URL as the state keeps it. */
export function baseOf(baseUrl: string): string {
	return createHash('sha256').update(`poll-state base\n${baseUrl}`).digest('hex').slice(0, 16);
}

function readTimes(value: unknown): Array<string | null> | undefined {
	if (!Array.isArray(value)) return undefined;
	if (!value.every((entry) => entry === null || typeof entry === 'string')) return undefined;
	return value as Array<string | null>;
}

/**
 * Which company a credential names, as the state keeps it: the first 16 hex digits of the
 * SHA-256 of the n8n credential the node uses (its ID) and its Base URL (issue 50). The API key is
 * no part of it: Regenerate API Key, then the new key put into the same credential (as the
 * package asks), is the same company, and nothing changed between two polls is lost. Another
 * credential, or another Base URL (staging and production), is another company: a new baseline.
 */
export function companyOfCredential(baseUrl: string, credentialId: string): string {
	return createHash('sha256')
		.update(`poll-state credential\n${baseUrl}\n${credentialId}`)
		.digest('hex')
		.slice(0, 16);
}

/**
 * What a state saved before issue 50 names the company by: its Base URL and API key. A state
 * saved so is adopted when the key it names is the credential's now.
 */
export function legacyCompanyOfCredential(baseUrl: string, account: string): string {
	return createHash('sha256')
		.update(`poll-state\n${baseUrl}\n${account}`)
		.digest('hex')
		.slice(0, 16);
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
		lists[kind as ListKind] = copy;
	}
	const seq = typeof value.seq === 'number' && Number.isFinite(value.seq) ? value.seq : 0;
	const state: PollState = { v: 1, seq, lists };
	// Saved before outside read 2: no times (no revisit is told on the next poll) and no away.
	if (isObject(value.times)) {
		const times: NonNullable<PollState['times']> = {};
		for (const [kind, records] of Object.entries(value.times)) {
			if (!isObject(records)) continue;
			const copy: Record<string, Array<string | null>> = {};
			for (const [id, entry] of Object.entries(records)) {
				const read = readTimes(entry);
				if (read) copy[id] = read;
			}
			times[kind as ListKind] = copy;
		}
		state.times = times;
	}
	if (isObject(value.away)) {
		const away: NonNullable<PollState['away']> = {};
		for (const [kind, records] of Object.entries(value.away)) {
			if (!isObject(records)) continue;
			const copy: Record<string, AwayRecord> = {};
			for (const [id, entry] of Object.entries(records)) {
				if (!isObject(entry) || typeof entry.s !== 'string' || typeof entry.n !== 'number')
					continue;
				const kept: AwayRecord = { s: entry.s, n: entry.n };
				const read = readTimes(entry.t);
				if (read) kept.t = read;
				copy[id] = kept;
			}
			away[kind as ListKind] = copy;
		}
		state.away = away;
	}
	if (typeof value.balanceBelow === 'boolean') state.balanceBelow = value.balanceBelow;
	if (typeof value.company === 'string') state.company = value.company;
	if (typeof value.owner === 'string') state.owner = value.owner;
	if (typeof value.base === 'string') state.base = value.base;
	return state;
}

/**
 * The newest state of each poll node of this n8n process, by workflow and node id, and the
 * poll of that node now running.
 *
 * n8n can run two polls of one node at once, or start one from a workflow object whose static
 * data was loaded before the last poll saved (seen in n8n 2.8.4: two polls of one node 9 ms
 * apart after webhook deliveries to the same workflow). Polls of one node therefore run one
 * after the other, and each starts from the newer of its static data and the state the
 * previous poll in this process left. Polls run on one n8n main only (the leader in
 * multi-main), so this process holds the newest state; after a restart the static data does.
 */
const latest = new Map<string, PollState>();
const running = new Map<string, Promise<unknown>>();

/** Runs `task` after the poll of the same node now running in this process, if any. */
export async function oneAtATime<T>(key: string, task: () => Promise<T>): Promise<T> {
	const before = running.get(key) ?? Promise.resolve();
	const mine = before.catch(() => undefined).then(task);
	running.set(key, mine);
	try {
		return await mine;
	} finally {
		if (running.get(key) === mine) running.delete(key);
	}
}

/** The newer of the stored state and the one the last poll of this process left. */
export function newestState(key: string, stored: PollState | undefined): PollState | undefined {
	const cached = latest.get(key);
	if (!cached) return stored;
	if (!stored || cached.seq > stored.seq) return cached;
	return stored;
}

export function rememberState(key: string, state: PollState): void {
	latest.set(key, state);
}
