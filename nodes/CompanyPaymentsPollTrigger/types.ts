import type { IDataObject } from 'n8n-workflow';

import type { EventName } from '../shared/contract/events';
import type { StatusList } from '../shared/contract/statuses';

/** What the node can watch: one value per list (and the company balance). */
export type WatchKind =
	| 'payouts'
	| 'orders'
	| 'companyDeposits'
	| 'userDeposits'
	| 'cards'
	| 'disputes'
	| 'balance';

/** Events of the poll trigger's own, for changes no webhook announces. */
export type PollOnlyEvent =
	| 'deposit.status_changed'
	| 'card.status_changed'
	| 'dispute.status_changed'
	| 'balance.below_threshold';

/** One emitted change, before the fields every poll item shares are added. */
export interface Change {
	/** The document's event this change stands for (`contract/events.ts`), or a poll-only one. */
	event: EventName | PollOnlyEvent;
	changeKey: string;
	/** The fields the webhook trigger outputs for this event (or their poll-only analogue). */
	fields: IDataObject;
}

/**
 * A list the node watches. Everything specific to one resource lives in its module: where
 * the list is, which record state counts as a change, and what the item looks like.
 */
export interface WatchedList {
	kind: Exclude<WatchKind, 'balance'>;
	/** The document's status table of these records (nodes/shared/contract/statuses.ts). */
	statusList: StatusList;
	/** Human name for messages, e.g. "payouts". */
	label: string;
	/**
	 * GET path of the list. Its records are keyed by the ID names of RECORD_ID_FIELDS
	 * (nodes/shared/contract/listAnswers.ts): `id`, else the event's name (`depositId`, …); a
	 * record with none fails the poll, naming the list and its fields.
	 */
	path: string;
	itemsKey: string;
	/** The document states this list newest first (GET /disputes); no other list's order is shown. */
	newestFirst?: true;
	/** Query parameters the list takes from this kind's filters (identity filters only). */
	query(filters: IDataObject): IDataObject;
	/** The record's state as remembered between polls, or null when it has no status. */
	state(record: IDataObject): string | null;
	/** The status the Statuses filter matches (legacy values normalised). */
	status(record: IDataObject): string | null;
	/**
	 * The items for a record (its `id` set to its ID) now in `state`, previously in `previous`
	 * (undefined: not seen before), seen by the poll at `polledAt` (names a change whose repeat no
	 * field of the record tells: shared/changeKey.ts whenParts).
	 */
	changes(
		record: IDataObject,
		previous: string | undefined,
		polledAt: string,
		visit?: Visit,
	): Change[];
}

/**
 * What the poll's memory says of a record's times (VISIT_EVIDENCE, contract/visits.ts) against
 * the last poll that saw it. Empty sets when nothing was remembered.
 */
export interface Visit {
	/** Fields shown now with another value than last time (set, cleared or changed). */
	moved: ReadonlySet<string>;
	/** Fields shown now with the value seen last time: they name an earlier visit. */
	unmoved: ReadonlySet<string>;
}

/** A field of a record, or null when it is missing (the webhook bodies show nulls, not gaps). */
export function field(record: IDataObject, name: string): IDataObject[string] {
	const value = record[name];
	return value === undefined ? null : value;
}
