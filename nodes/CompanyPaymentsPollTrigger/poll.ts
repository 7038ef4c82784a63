import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { gateLogger } from '../shared/gate';

import { PAGE_SIZE } from '../shared/contract/assumptions';
import { requireRecordId, returnedCheck, withRecordId } from '../shared/returnedFilter';
import type { ApiContext } from '../shared/transport';
import { apiRequest, CREDENTIAL_NAME, runAccount } from '../shared/transport';
import { ENDPOINTS } from '../shared/contract/endpoints';
import { isObject, recordText } from '../shared/contract/guards';
import { balanceChange, readBalance } from './balance';
import { cards } from './cards';
import { companyDeposits, userDeposits } from './deposits';
import {
	DEFAULT_MAX_RECORDS,
	DEFAULT_WINDOW_DAYS,
	FILTER_PARAMETERS,
	WATCH_OPTIONS,
} from './description';
import { disputes } from './disputes';
import { orders } from './orders';
import { payouts } from './payouts';
import type { StatusList } from '../shared/contract/statuses';
import { normaliseStatus } from '../shared/contract/statuses';
import { readWindow } from './read';
import type { AwayRecord, PollState } from './state';
import {
	ABSENT_POLLS_REMEMBERED,
	baseOf,
	companyOfCredential,
	legacyCompanyOfCredential,
	newestState,
	oneAtATime,
	ownerOfProfile,
	readState,
	rememberState,
	STATE_KEY,
} from './state';
import type { Change, Visit, WatchedList, WatchKind } from './types';
import { visitEvidence } from '../shared/contract/visits';
import { SERVICE_FIELDS_KEY as SHARED_SERVICE_FIELDS_KEY } from '../shared/serviceFields';

const DAY_MS = 86_400_000;

/** The lists in the order their items are emitted. */
export const WATCHED_LISTS: readonly WatchedList[] = [
	payouts,
	orders,
	companyDeposits,
	userDeposits,
	cards,
	disputes,
];

const KNOWN_KINDS = new Set(WATCH_OPTIONS.map((option) => String(option.value)));

export interface PollSettings {
	watch: Set<WatchKind>;
	windowDays: number;
	maxRecords: number;
	emitExisting: boolean;
	balanceThreshold: number;
	filters: Partial<Record<WatchKind, IDataObject>>;
}

function invalid(
	ctx: IPollFunctions,
	field: string,
	rule: string,
	value: unknown,
): NodeOperationError {
	return new NodeOperationError(
		ctx.getNode(),
		`${field} ${rule}, got ${JSON.stringify(value) ?? String(value)}`,
	);
}

/** Reads and checks the parameters; nothing is requested before they are valid. */
export function readSettings(ctx: IPollFunctions): PollSettings {
	const watchValue = ctx.getNodeParameter('watch', []) as unknown;
	const picked = Array.isArray(watchValue) ? watchValue : [];
	if (picked.length === 0 || picked.some((kind) => !KNOWN_KINDS.has(String(kind)))) {
		throw invalid(
			ctx,
			'Watch',
			`must name at least one of ${[...KNOWN_KINDS].join(', ')}`,
			watchValue,
		);
	}
	const watch = new Set(picked as WatchKind[]);
	const windowDays = ctx.getNodeParameter('windowDays', DEFAULT_WINDOW_DAYS) as unknown;
	if (typeof windowDays !== 'number' || !Number.isFinite(windowDays) || windowDays <= 0) {
		throw invalid(ctx, 'Window (Days)', 'must be a number greater than 0', windowDays);
	}
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	const maxRecords = options.maxRecords ?? DEFAULT_MAX_RECORDS;
	if (typeof maxRecords !== 'number' || !Number.isInteger(maxRecords) || maxRecords < 1) {
		throw invalid(
			ctx,
			'Max Records per List and Poll',
			'must be a whole number of at least 1',
			maxRecords,
		);
	}
	let balanceThreshold = Number.NaN;
	if (watch.has('balance')) {
		const value = ctx.getNodeParameter('balanceThreshold', 100) as unknown;
		if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
			throw invalid(ctx, 'Balance Threshold (USDT)', 'must be a number of at least 0', value);
		}
		balanceThreshold = value;
	}
	const filters: PollSettings['filters'] = {};
	for (const list of WATCHED_LISTS) {
		if (!watch.has(list.kind)) continue;
		const value = ctx.getNodeParameter(FILTER_PARAMETERS[list.kind], {}) as unknown;
		filters[list.kind] = typeof value === 'object' && value !== null ? (value as IDataObject) : {};
	}
	return {
		watch,
		windowDays,
		maxRecords,
		emitExisting: options.emitExisting === true,
		balanceThreshold,
		filters,
	};
}

/** The Statuses filter, legacy values read as the current ones (`retired` is `closed`). */
function statusFilter(filters: IDataObject | undefined, list: StatusList): Set<string> | undefined {
	const value = filters?.statuses;
	if (!Array.isArray(value) || value.length === 0) return undefined;
	return new Set(value.map((status) => normaliseStatus(list, String(status))));
}

/** A time field's value as remembered: its text, null when not shown. */
function timeText(value: unknown): string | null {
	return typeof value === 'string' && value !== ''
		? value
		: typeof value === 'number'
			? String(value)
			: null;
}

/**
 * The record's visit evidence now against what the last poll that saw it remembered: fields
 * moved and fields unmoved (contract/visits.ts). Nothing remembered (a state saved before the
 * times were kept, or another declaration): nothing moved, so only a new state is a change.
 */
function compareVisit(
	names: readonly string[],
	shown: ReadonlyArray<string | null>,
	last: ReadonlyArray<string | null> | undefined,
): Visit {
	const moved = new Set<string>();
	const unmoved = new Set<string>();
	if (last === undefined || last.length !== names.length) return { moved, unmoved };
	names.forEach((name, index) => {
		if (shown[index] !== last[index]) moved.add(name);
		else if (shown[index] !== null) unmoved.add(name);
	});
	return { moved, unmoved };
}

/** The latest moment a record shows, to pick the most recent change for "Fetch Test Event". */
function lastActivity(record: IDataObject): number {
	let latest = Number.NEGATIVE_INFINITY;
	for (const name of [
		'updatedAt',
		'resolvedAt',
		'refundedAt',
		'completedAt',
		'assignedAt',
		'createdAt',
	]) {
		const value = record[name];
		const time = typeof value === 'string' ? Date.parse(value) : Number.NaN;
		if (!Number.isNaN(time) && time > latest) latest = time;
	}
	return latest;
}

function createdAt(record: IDataObject): number {
	const value = record.createdAt;
	const time = typeof value === 'string' ? Date.parse(value) : Number.NaN;
	return Number.isNaN(time) ? Number.NEGATIVE_INFINITY : time;
}

/** Earlier activity first; then earlier creation; then by ID, so equal times keep one order. */
function byTime(
	a: { at: number; created: number; id: string },
	b: { at: number; created: number; id: string },
): number {
	if (a.at !== b.at) return a.at < b.at ? -1 : 1;
	if (a.created !== b.created) return a.created < b.created ? -1 : 1;
	return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * The error of a list that holds more records than Max Records per List and Poll lets one poll
 * read: the records not read may be the newest (the order is not shown) or older ones still in
 * the window, so the poll would miss changes without a word. It emits nothing instead and keeps
 * its state.
 */
function cutShort(
	ctx: IPollFunctions,
	list: WatchedList,
	read: number,
	settings: PollSettings,
): NodeOperationError {
	const unread = list.newestFirst
		? `GET ${list.path} is documented newest first, so the records not read are older ones that may still be in the ${settings.windowDays}-day window`
		: `The interface document does not show the order of GET ${list.path}, so the records not read may be the newest ones`;
	// Lists that take an External ID filter can be narrowed to what the workflow is about.
	const narrow =
		list.query({ externalId: 'x' }).externalId === undefined
			? ''
			: ' narrow the list with its External ID filter,';
	return new NodeOperationError(
		ctx.getNode(),
		`Company Payments Poll Trigger read ${read} ${list.label} (GET ${list.path}), the most Max Records per List and Poll (${settings.maxRecords}) allows, and the list holds more`,
		{
			description: `${unread}, and changes among them would be missed. Nothing was emitted and the state was kept, so the first poll after one of these steps catches up. Raise Max Records per List and Poll (Options) above the number of records GET ${list.path} holds,${narrow} or stop watching ${list.label} here and rely on the Company Payments Trigger (webhooks).`,
		},
	);
}

/**
 * The name under which a poll item keeps the record's values of fields the item sets itself, as
 * the webhook trigger does (CompanyPaymentsTrigger/receive.ts SERVICE_FIELDS_KEY).
 */
const SERVICE_FIELDS_KEY = SHARED_SERVICE_FIELDS_KEY;

/**
 * The item of one change. Its own fields come first, by their names and in their order, as saved
 * workflows read them; then every other field of the service's record (`record`), as the
 * webhook trigger keeps every field of a body (outside read r7-data, finding 1: a deposit's
 * `walletId`, `companyId`, `blockTimestamp`, a payout's `takenAt`, recipient names, dispute).
 * A record's value under a name the item sets itself, and different from it, stays visible
 * under `serviceFields`. The whole item then passes the gate (the node's poll method).
 */
/**
 * The company the profile names now (ownerOfProfile), `''` when the profile answers without an
 * ID, undefined when it could not be read (tried again on the next poll). Never fails the poll.
 */
async function ownerNow(api: ApiContext, baseUrl: string): Promise<string | undefined> {
	let profile: unknown;
	try {
		profile = await apiRequest.call(api, { method: 'GET', path: ENDPOINTS.profile });
	} catch {
		return undefined;
	}
	if (!isObject(profile)) return '';
	const nested = isObject(profile.company) ? profile.company.id : undefined;
	const id = recordText(profile.companyId) ?? recordText(nested) ?? recordText(profile.id);
	return id === null ? '' : ownerOfProfile(baseUrl, id);
}

/**
 * Whether a state saved under another n8n credential belongs to the company polling now: the
 * same company ID in the profile at the same Base URL; or, where either profile showed none, the
 * same Base URL (never lost: records the state does not know are emitted). Another company ID,
 * or another Base URL, is another company.
 */
function sameCompany(
	saved: PollState | undefined,
	owner: string | undefined,
	base: string,
): boolean {
	if (!saved) return false;
	if (saved.owner && owner) return saved.owner === owner;
	return saved.base !== undefined && saved.base === base;
}

function item(
	change: Change,
	kind: WatchKind,
	polledAt: string,
	previous: string | null,
	record?: IDataObject,
): INodeExecutionData {
	const json: IDataObject = Object.assign({}, change.fields);
	json.event = change.event;
	json.changeKey = change.changeKey;
	json.source = 'poll';
	json.watched = kind;
	json.previousState = previous;
	json.deliveryId = null;
	json.receivedAt = polledAt;
	if (record) withRecordFields(json, record);
	return { json };
}

/** Adds the record's fields the item does not set; its values of fields the item sets differently go under serviceFields. */
function withRecordFields(json: IDataObject, record: IDataObject): void {
	const replaced: IDataObject = {};
	let any = false;
	for (const [name, value] of Object.entries(record)) {
		const own = Object.prototype.hasOwnProperty.call(json, name) || name === SERVICE_FIELDS_KEY;
		if (!own) {
			setPlain(json, name, value);
			continue;
		}
		if (name !== SERVICE_FIELDS_KEY && JSON.stringify(json[name]) === JSON.stringify(value)) {
			continue;
		}
		setPlain(replaced, name, value);
		any = true;
	}
	if (any) json[SERVICE_FIELDS_KEY] = replaced;
}

/** Sets a field as plain data, also one named `__proto__` (possible from JSON). */
function setPlain(out: IDataObject, key: string, value: unknown): void {
	Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * One poll: read each watched list over the window, compare every record's state with the
 * one remembered, and emit one item per change. State is replaced only after every list was
 * read, so a failed request (service down, 5xx) throws, emits nothing and keeps the state the
 * next poll compares with. In manual mode ("Fetch Test Event") the state is read but never
 * written.
 */
export async function poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const settings = readSettings(this);
	const manual = this.getMode() === 'manual';
	if (manual) return await pollOnce(this, settings, true);
	const key = `${this.getWorkflow().id ?? ''}:${this.getNode().id}`;
	return await oneAtATime(key, async () => await pollOnce(this, settings, false, key));
}

async function pollOnce(
	ctx: IPollFunctions,
	settings: PollSettings,
	manual: boolean,
	cacheKey?: string,
): Promise<INodeExecutionData[][] | null> {
	// apiRequest takes n8n's function contexts; a poll context offers the same helpers it uses.
	// n8n keeps one poll context for as long as the workflow is active, and the transport
	// caches what it read from the credential per context: a new object per poll (inheriting
	// everything from n8n's context) makes every poll read the credential as it is now.
	const api = Object.create(ctx) as ApiContext;
	const staticData = ctx.getWorkflowStaticData('node');
	const stored = readState(staticData[STATE_KEY]);
	const saved = cacheKey ? newestState(cacheKey, stored) : stored;
	// The state is the company's the credential names: another n8n credential or Base URL (another
	// company, staging and production) starts a new baseline; a new API key in the same credential
	// does not (issue 50). A state saved before companies were kept, or keyed by the API key as
	// before issue 50 with the key the credential holds now, is adopted by the company polling now.
	const { baseUrl, account } = await runAccount(api);
	const used = ctx.getNode().credentials?.[CREDENTIAL_NAME];
	// Without a credential ID (never in n8n) the key names the company, as before.
	const company =
		used?.id || used?.name
			? companyOfCredential(baseUrl, String(used.id ?? used.name))
			: legacyCompanyOfCredential(baseUrl, account);
	const otherCredential =
		saved?.company !== undefined &&
		saved.company !== company &&
		saved.company !== legacyCompanyOfCredential(baseUrl, account);
	const base = baseOf(baseUrl);
	// The company as the service names it, read from the profile once per state and whenever
	// the credential changed (outside read r7-data, finding 5).
	const owner =
		!otherCredential && saved?.owner !== undefined ? saved.owner : await ownerNow(api, baseUrl);
	const otherCompany = otherCredential && !sameCompany(saved, owner, base);
	const previous = otherCompany ? undefined : saved;
	if (otherCompany) {
		gateLogger(ctx).warn(
			`Company Payments Poll Trigger: the node now uses another credential or Base URL (${baseUrl}) than the last poll, of another company; this poll takes a new baseline and ${settings.emitExisting ? 'emits the records in the window (Emit Existing is on)' : 'emits no existing records (Emit Existing is off)'}`,
		);
	} else if (otherCredential) {
		const confirmed = owner !== undefined && owner !== '' && saved?.owner === owner;
		gateLogger(ctx).warn(
			confirmed
				? 'Company Payments Poll Trigger: the node now uses another credential of the same company (its profile shows the same company ID at the same Base URL); the state of the last poll is kept, so changes since then are emitted'
				: 'Company Payments Poll Trigger: the node now uses another credential at the same Base URL, and the company profile does not tell whether it is the same company; the state of the last poll is kept so that no change since then is lost: records it does not know are emitted as new (if this is another company, its records in the window are emitted once)',
		);
	}
	const now = Date.now();
	const polledAt = new Date(now).toISOString();
	const cutoffMs = now - settings.windowDays * DAY_MS;
	const next: PollState = { v: 1, seq: (saved?.seq ?? 0) + 1, lists: {}, company, base };
	if (owner !== undefined) next.owner = owner;
	const items: INodeExecutionData[] = [];
	const samples: INodeExecutionData[] = [];

	for (const list of WATCHED_LISTS) {
		if (!settings.watch.has(list.kind)) continue;
		const filters = settings.filters[list.kind];
		const qs = list.query(filters ?? {});
		// "Fetch Test Event" reads one page of a list whose order is shown (its newest records);
		// any other list is read as a poll reads it, since its first page may hold any records.
		const onePage = manual && list.newestFirst === true;
		const cap = onePage ? PAGE_SIZE : settings.maxRecords;
		const result = await readWindow(api, {
			path: list.path,
			itemsKey: list.itemsKey,
			qs,
			cutoffMs,
			maxRecords: cap,
			newestFirst: list.newestFirst === true,
		});
		if (result.truncated && !onePage) throw cutShort(ctx, list, result.read, settings);
		// The filters sent are checked on every record that comes back (shared/returnedFilter.ts).
		const check = returnedCheck(list.path, qs, list.statusList);
		const matching = result.records.filter((record) => check.accept(record));
		const left = check.describe();
		if (left) gateLogger(ctx).warn(`Company Payments Poll Trigger (${list.label}): ${left}`);
		const remembered = previous?.lists[list.kind];
		const rememberedTimes = previous?.times?.[list.kind];
		const away = previous?.away?.[list.kind];
		const baseline = remembered === undefined;
		const wanted = statusFilter(filters, list.statusList);
		const evidence = visitEvidence(list.statusList);
		const states: Record<string, string> = {};
		const times: Record<string, Array<string | null>> = {};
		const found: Array<{ items: INodeExecutionData[]; at: number; created: number; id: string }> =
			[];
		let newest: { record: IDataObject; at: number; created: number; id: string } | undefined;
		const withoutStatus: string[] = [];
		for (const answered of matching) {
			// Keyed by its ID under any name the document gives it; none at all fails the poll.
			const id = requireRecordId(ctx, list, answered);
			const record = withRecordId(list.path, answered);
			const state = list.state(record);
			if (state === null) {
				withoutStatus.push(id);
				continue;
			}
			states[id] = state;
			const shown = evidence.map((name) => timeText(record[name]));
			times[id] = shown;
			const at = lastActivity(record);
			const when = { record, at, created: createdAt(record), id };
			if (!newest || byTime(when, newest) > 0) newest = when;
			// Remembered from the last answer, or from an earlier one that this answer's
			// predecessors left out (ABSENT_POLLS_REMEMBERED).
			const rememberedState = remembered?.[id] ?? away?.[id]?.s;
			const before =
				rememberedState === undefined
					? undefined
					: // A state remembered in a legacy spelling is the same state (`retired` is `closed`).
						normaliseStatus(list.statusList, rememberedState);
			const visit = compareVisit(
				evidence,
				shown,
				remembered?.[id] !== undefined ? rememberedTimes?.[id] : away?.[id]?.t,
			);
			// The same state with a time of its visit moved is a new visit (taken, released and
			// taken again between two polls): a change.
			if (before === state && visit.moved.size === 0) continue;
			if (baseline && !settings.emitExisting) continue;
			const status = list.status(record);
			if (wanted && (status === null || !wanted.has(status))) continue;
			found.push({
				items: list
					.changes(record, before, polledAt, visit)
					.map((change) => item(change, list.kind, polledAt, before ?? null, record)),
				at,
				created: when.created,
				id,
			});
		}
		// In the order things happened, by the records' own times: never by their place in the
		// list, whose order the document does not show (but for the disputes).
		found.sort(byTime);
		for (const changes of found) items.push(...changes.items);
		if (withoutStatus.length > 0) {
			gateLogger(ctx).warn(
				`Company Payments Poll Trigger (${list.label}): ${withoutStatus.length} record(s) without a status, so no change can be told (${withoutStatus.slice(0, 3).join(', ')})`,
			);
		}
		next.lists[list.kind] = states;
		(next.times ??= {})[list.kind] = times;
		// Records this answer left out stay remembered a few polls (bounded), so one answer
		// that leaves a record out does not make it new when it comes back.
		const stillAway: Record<string, AwayRecord> = {};
		if (!baseline) {
			for (const [id, state] of Object.entries(remembered)) {
				if (id in states) continue;
				const kept: AwayRecord = { s: state, n: 1 };
				const last = rememberedTimes?.[id];
				if (last) kept.t = last;
				stillAway[id] = kept;
			}
			for (const [id, record] of Object.entries(away ?? {})) {
				if (id in states || id in stillAway || record.n >= ABSENT_POLLS_REMEMBERED) continue;
				stillAway[id] = { ...record, n: record.n + 1 };
			}
		}
		(next.away ??= {})[list.kind] = stillAway;
		if (manual && newest) {
			const sample = list.changes(newest.record, undefined, polledAt);
			const change = sample[sample.length - 1];
			samples.push(item(change, list.kind, polledAt, null, newest.record));
		}
	}

	if (settings.watch.has('balance')) {
		const reading = await readBalance(api, settings.balanceThreshold);
		next.balanceBelow = reading.below;
		const crossed =
			reading.below &&
			(previous?.balanceBelow === false ||
				(previous?.balanceBelow === undefined && settings.emitExisting));
		const change = balanceChange(reading, settings.balanceThreshold, polledAt);
		if (crossed) items.push(item(change, 'balance', polledAt, 'above'));
		else if (manual && reading.below) samples.push(item(change, 'balance', polledAt, null));
	}

	if (manual) {
		const out = items.length > 0 ? items : samples;
		if (out.length === 0) {
			throw new NodeOperationError(
				ctx.getNode(),
				'No records to show yet: the watched lists are empty in the window (and the balance is not below the threshold)',
			);
		}
		return [out];
	}
	// A fresh object, never an in-place change: n8n 2.41 loses in-place changes of tracked objects.
	staticData[STATE_KEY] = next as unknown as IDataObject;
	if (cacheKey) rememberState(cacheKey, next);
	return items.length > 0 ? [items] : null;
}
