import type { IDataObject } from 'n8n-workflow';

import { EVENTS, isEventName } from './contract/events';
import { recordText as anyText } from './contract/guards';
import type { EventName } from './contract/events';
import { normaliseStatus } from './contract/statuses';
import { identity } from './identity';
import { payoutFundsReturnedOrUnknown } from './payoutFunds';
import { CHANGE_TIMES, KEPT_TIMES, NO_TIME_FALLBACK } from './contract/visits';

/**
 * One name for one state change of one record, whichever trigger saw it.
 *
 * The webhook trigger computes it from an event body, the poll trigger from the record it read
 * from a list. A workflow fed by both keeps exactly one item per change with n8n's Remove
 * Duplicates on `changeKey`. Every key is `identity(record, scope, parts)` (./identity.ts): the
 * kind of record, where it lives, and the parts that name the record and its state, each escaped,
 * so two different changes never share a key whatever their IDs hold (`:`, `/`, `%`, `ext.`):
 *
 * | record  | scope                                      | parts                                                 |
 * |---------|--------------------------------------------|-------------------------------------------------------|
 * | order   | `company`                                  | order id, status, the time of the change              |
 * | deposit | `company`, or `user-wallet/<externalId>`   | deposit id, status (legacy values normalised), `updatedAt` when shown, else what saw it |
 * | payout  | `company`                                  | payout id, status, `refunded` once funds are back (`refunded-unknown` for a flag that is no boolean); a recharge: id, `success`, `recharged`, the time of the recharge |
 * | card    | `company`                                  | `ext`, externalId when set, `id`, card id when shown; status (legacy `retired` as `closed`); the time of the change |
 * | dispute | `company`                                  | dispute id, status, the resolution once set           |
 *
 * e.g. `deposit:user-wallet/user-1001:d1:completed`, `payout:company:po_1:fail:refunded`.
 *
 * A user-wallet deposit is told from a company one by what both sides carry: the `externalId` of
 * the user wallet (the document: "Deposits of user wallets use the same deposit events with an
 * additional `externalId`"; a user-wallet deposit record has it as a required field).
 *
 * Each real transition gets its own key, and a retried delivery of one event the same key (the
 * open choice `repeatTransitions`, contract/choices.ts; docs/assumptions.md). A record can enter a
 * state it had before: a payout taken, released and taken again; refunded, charged again
 * (`payout.recharged`), refunded again; an order confirmed after a dispute (`success` again); a
 * deposit whose sweep is retried (`sweeping` again). A key therefore carries the time of the
 * change, from the first field of CHANGE_TIMES (contract/visits.ts, the one declaration) the body
 * or record shows, under that field's name. `updatedAt` comes first wherever it is shown, since
 * it moves with every visit where `takenAt` or `completedAt` may be kept from the first one
 * (outside read 2, finding 4):
 *
 * | state                     | time of the change, first shown | webhook shows  | Payout record shows |
 * |---------------------------|---------------------------------|----------------|---------------------|
 * | payout success            | updatedAt, completedAt (poll)   | updatedAt      | completedAt         |
 * | payout fail, funds back   | updatedAt, refundedAt (poll)    | updatedAt      | refundedAt          |
 * | payout fail, recharged, pending, waiting_trader, any other | updatedAt | updatedAt | (none)      |
 * | payout in_progress        | updatedAt, takenAt (poll)       | updatedAt      | takenAt             |
 * | order (any state)         | updatedAt                       | (none)         | (none)              |
 * | deposit (any state)       | updatedAt                       | updatedAt      | updatedAt           |
 *
 * A payout's entry into the state it was created in happens once and keeps `id, status` on both
 * sides (payoutCreationEntry): a new payout seen by both triggers is one change.
 *
 * Where a side shows none of the fields, the key names what saw the change: the delivery
 * (`X-Service-Delivery-Id`, the same on every retry of one delivery) for the webhook, the poll
 * (its time) for the poll trigger (orders and deposits too: NO_TIME_FALLBACK is empty since outside
 * read r7-data, finding 2, a deposit failing AML twice).
 * The webhook never names a visit by a time a service may keep from the first one (KEPT_TIMES:
 * takenAt, completedAt, refundedAt), and the poll only when it moved since its last poll.
 * Keys that differ between the triggers give a workflow fed by both that change twice, never
 * zero times: a lost refund is worse than a duplicate item. Where both sides show `updatedAt`
 * (a record showing it, a deposit) they agree.
 *
 * Keys are computed from the values the service sent, before the output gate: the gate never
 * changes an identifier (a key is one), so two records never share a key because of a mask.
 */
/**
 * A record's value as a key part, never from a rounded number: a JSON number past 2^53 that
 * reached here as a number (not read through shared/transport/json.ts) names no record for sure,
 * so it gives no key rather than another record's.
 */
function recordText(value: unknown): string | null {
	if (typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value)) {
		return null;
	}
	return anyText(value);
}

export type ChangeRecord = 'order' | 'deposit' | 'payout' | 'card' | 'dispute' | 'balance';

/** Where a record lives: the company's own lists, or one user wallet (by its externalId). */
export type ChangeScope = readonly string[];

export const COMPANY_SCOPE: ChangeScope = ['company'];

/** The scope of a user wallet's records: the wallet's `externalId`. */
export function userWalletScope(externalId: string): ChangeScope {
	return ['user-wallet', externalId];
}

/**
 * The scope of a deposit, from its `externalId` (a webhook body's or a list record's): a user
 * wallet's when it carries one, else the company's.
 */
export function depositScope(externalId: unknown): ChangeScope {
	const ext = recordText(externalId);
	return ext === null ? COMPANY_SCOPE : userWalletScope(ext);
}

/** A deposit status in its current form: `aml_pass` → `aml_passed`, `aml_fail` → `aml_failed`. */
export function normaliseDepositStatus(status: string): string {
	return normaliseStatus('userDeposit', status);
}

/** The key of one change: the one identity function, with the record's kind and scope. */
export function changeKey(
	record: ChangeRecord,
	scope: ChangeScope,
	parts: readonly string[],
): string {
	return identity(record, scope, parts);
}

/**
 * What saw a change, for a state whose repeat no field tells: `delivery <id>`, `body-sha256 <hex>`
 * or `polled <time>`.
 */
export type SeenBy = readonly [string, string] | null;

/**
 * What names a webhook delivery: its `X-Service-Delivery-Id` (the same on every retry of it), else
 * the SHA-256 of its verified raw body (`bodySha256`, hex): a retry of the same body is one key, a
 * new visit with a new body another (outside read r23-data, finding 5).
 */
export function deliverySeen(deliveryId: string | null, bodySha256: string | null = null): SeenBy {
	if (deliveryId !== null) return ['delivery', deliveryId];
	return bodySha256 === null ? null : ['body-sha256', bodySha256];
}

export function pollSeen(polledAt: string): SeenBy {
	return ['polled', polledAt];
}

export { CHANGE_TIMES };
export type RepeatingState = keyof typeof CHANGE_TIMES;

function repeating(state: string): state is RepeatingState {
	return Object.prototype.hasOwnProperty.call(CHANGE_TIMES, state);
}

/** The CHANGE_TIMES entry of a state: its own, else its kind's (`order:*`), else none. */
function timesEntry(state: string): RepeatingState | null {
	if (repeating(state)) return state;
	const kind = `${state.slice(0, state.indexOf(':'))}:*`;
	if (repeating(kind)) return kind;
	// A payout status the document does not list may come back too.
	return state.startsWith('payout:') ? 'payout:fail' : null;
}

/**
 * The parts that tell one entry into `state` from another: the first time field of CHANGE_TIMES
 * (contract/visits.ts) `record` shows, under its name, else what saw it (none for the states of
 * NO_TIME_FALLBACK). `unmoved`: fields the poll saw with the same value before this change, so
 * they name an earlier visit, not this one (a re-take that keeps the first `takenAt`).
 */
export function whenParts(
	state: string,
	record: IDataObject,
	seen: SeenBy,
	unmoved?: ReadonlySet<string>,
): string[] {
	const entry = timesEntry(state);
	if (entry === null) return [];
	for (const name of CHANGE_TIMES[entry] as readonly string[]) {
		if (unmoved?.has(name)) continue;
		const value = recordText(record[name]);
		if (value !== null) return [name, value];
	}
	if (NO_TIME_FALLBACK.has(entry)) return [];
	return seen === null ? [] : [...seen];
}

/** The state the poll trigger remembers for a payout: its status, and `+refunded` once the funds are back. */
export function payoutState(status: string, fundsReturned: boolean): string {
	return fundsReturned ? `${status}+refunded` : status;
}

/**
 * Whether a payout's body or record shows the entry into the state it was created in (pending or
 * waiting_trader, never taken, completed or refunded): that entry happens once, so its key needs
 * nothing to tell it from another, and both triggers give it the same key. A body or record that
 * shows `updatedAt` tells it by `updatedAt` equal to `createdAt`; a record without it (the Payout
 * record as the document shows it) by being the poll's first sighting of the payout (`first`).
 */
export function payoutCreationEntry(status: string, record: IDataObject, first?: boolean): boolean {
	if (status !== 'pending' && status !== 'waiting_trader') return false;
	for (const name of ['takenAt', 'completedAt', 'refundedAt']) {
		if (recordText(record[name]) !== null) return false;
	}
	const updated = recordText(record.updatedAt);
	if (updated !== null) return updated === recordText(record.createdAt);
	return first === true;
}

/**
 * The parts of a payout's key: id and status, and `refunded` once the funds are back; then, with
 * the body or record (`record`), the time of the change (whenParts), but for the entry into the
 * state the payout was created in (payoutCreationEntry; `first`: the poll's first sighting).
 */
export function payoutParts(
	id: string,
	status: string,
	fundsReturned: boolean | null,
	record: IDataObject = {},
	seen: SeenBy = null,
	first?: boolean,
	unmoved?: ReadonlySet<string>,
): string[] {
	// Unknown (a `refunded` flag written as 1 or "true"): a key of its own, never the key of
	// "not refunded", so the change is at worst twice, never hidden behind the plain fail.
	const base =
		fundsReturned === null
			? [id, status, 'refunded-unknown']
			: fundsReturned
				? [id, status, 'refunded']
				: [id, status];
	if (fundsReturned === false && payoutCreationEntry(status, record, first)) return base;
	const state = fundsReturned !== false ? 'payout:refunded' : `payout:${status}`;
	return [...base, ...whenParts(state, record, seen, unmoved)];
}

/**
 * The parts of a payout's recharge (back to success after a refund, charged again): with the
 * time of the recharge, so that a second recharge is a second change.
 */
export function rechargeParts(
	id: string,
	record: IDataObject = {},
	seen: SeenBy = null,
	unmoved?: ReadonlySet<string>,
): string[] {
	return [id, 'success', 'recharged', ...whenParts('payout:recharged', record, seen, unmoved)];
}

/** The parts of an order's key: id and status, and for a state that repeats what saw it. */
export function orderParts(
	id: string,
	status: string,
	record: IDataObject = {},
	seen: SeenBy = null,
	unmoved?: ReadonlySet<string>,
): string[] {
	return [id, status, ...whenParts(`order:${status}`, record, seen, unmoved)];
}

/**
 * The parts of a deposit's key: id and status (legacy values normalised), and `updatedAt` when
 * shown, else what saw the change: a sweep retried enters `sweeping` twice (outside read 2,
 * finding 5), an AML check failed twice `aml_failed` twice (outside read r7-data, finding 2).
 */
export function depositParts(
	id: string,
	status: string,
	record: IDataObject = {},
	unmoved?: ReadonlySet<string>,
	seen: SeenBy = null,
): string[] {
	const normal = normaliseDepositStatus(status);
	return [id, normal, ...whenParts(`deposit:${normal}`, record, seen, unmoved)];
}

/**
 * The parts that name a card: the caller's `externalId` when set (the webhook carries it,
 * unique within the company), and the card id when known, each under its own marker so an ID
 * never passes for an externalId. A closed card's externalId may name a new card later (the
 * document does not say it may not: outside read r8-data, finding 5), so the id is part of the
 * key wherever it is shown. Null when the card has neither.
 */
export function cardKeyParts(externalId: unknown, cardId: unknown): string[] | null {
	const ext = recordText(externalId);
	const id = recordText(cardId);
	const parts = [...(ext === null ? [] : ['ext', ext]), ...(id === null ? [] : ['id', id])];
	return parts.length === 0 ? null : parts;
}

/**
 * The parts of a card's key: what names the card (cardKeyParts), its status, and the time of the
 * change (whenParts: `updatedAt`, else `assignedAt` where it moved, else what saw the change): a
 * card can be assigned, closing and assigned again (outside read r8-data, finding 4).
 */
export function cardParts(
	names: readonly string[],
	status: string,
	record: IDataObject = {},
	seen: SeenBy = null,
	unmoved?: ReadonlySet<string>,
): string[] {
	return [...names, status, ...whenParts(`card:${status}`, record, seen, unmoved)];
}

/** The state the poll trigger remembers for a dispute: its status, and `+<resolution>` once one is set. */
export function disputeState(status: string, resolution: unknown): string {
	const res = recordText(resolution);
	return res === null ? status : `${status}+${res}`;
}

/**
 * The parts of a dispute's key: id and status, the resolution once one is set, and the time of
 * the change (whenParts: `updatedAt`, else `resolvedAt`, else the poll that saw it): a dispute can
 * go back to `submitted` and into `in_review` again (outside read r5-data, finding 1).
 */
export function disputeParts(
	id: string,
	status: string,
	resolution: unknown,
	record: IDataObject = {},
	seen: SeenBy = null,
	unmoved?: ReadonlySet<string>,
): string[] {
	const res = recordText(resolution);
	const base = res === null ? [id, status] : [id, status, res];
	return [...base, ...whenParts(`dispute:${status}`, record, seen, unmoved)];
}

type KeyRule = (
	event: EventName,
	body: IDataObject,
	status: string | null,
	seen: SeenBy,
) => string | null;

/** The record's ID, from the body field the event table names for this event. */
function eventRecordId(event: EventName, body: IDataObject): string | null {
	return recordText(body[EVENTS[event].idField]);
}

/** A deposit event: a user wallet's when the body carries its `externalId`. */
const depositRule: KeyRule = (event, body, status, seen) => {
	const id = eventRecordId(event, body);
	return id && status
		? changeKey(
				'deposit',
				depositScope(body.externalId),
				depositParts(id, status, body, KEPT_TIMES, seen),
			)
		: null;
};

/**
 * The change-key rule of every event of the document. A `Record` over `EventName`: an event added
 * to `contract/events.ts` without a rule here does not compile.
 */
const CHANGE_KEY_RULES: Record<EventName, KeyRule> = {
	'order.status_changed': (event, body, status, seen) => {
		const id = eventRecordId(event, body);
		return id && status
			? changeKey('order', COMPANY_SCOPE, orderParts(id, status, body, seen, KEPT_TIMES))
			: null;
	},
	'deposit.created': depositRule,
	'deposit.completed': depositRule,
	'deposit.aml_failed': depositRule,
	'payout.status_changed': (event, body, status, seen) => {
		const id = eventRecordId(event, body);
		return id && status
			? changeKey(
					'payout',
					COMPANY_SCOPE,
					payoutParts(
						id,
						status,
						payoutFundsReturnedOrUnknown(body, event),
						body,
						seen,
						undefined,
						KEPT_TIMES,
					),
				)
			: null;
	},
	'payout.recharged': (event, body, _status, seen) => {
		const id = eventRecordId(event, body);
		return id
			? changeKey('payout', COMPANY_SCOPE, rechargeParts(id, body, seen, KEPT_TIMES))
			: null;
	},
	'card.assigned': (_event, body, _status, seen) => {
		const parts = cardKeyParts(body.externalId, body.cardId ?? body.id);
		return parts
			? changeKey('card', COMPANY_SCOPE, cardParts(parts, 'assigned', body, seen, KEPT_TIMES))
			: null;
	},
};

/**
 * The key of a webhook event. Where the body names the record and its state, the record's key
 * (CHANGE_KEY_RULES); where it does not (an event the document does not list, a card.assigned
 * without externalId or card id, a body without the id or status), the delivery's:
 * `delivery:webhook:delivery:<id>` from `deliveryId` (X-Service-Delivery-Id, the same on its
 * retries), else `delivery:webhook:body-sha256:<hex>` from `bodySha256` (the SHA-256 of the
 * verified raw body). Its `delivery` kind is no record's, so it never equals a record's key.
 * n8n's Remove Duplicates reads a null key as '' and keeps only the first of them (outside read
 * r23-data, finding 4), so the trigger, which always has both, never gives null. Null only when
 * neither is given and the body names no record.
 */
export function webhookChangeKey(
	event: string | null,
	body: IDataObject,
	deliveryId: string | null = null,
	bodySha256: string | null = null,
): string | null {
	const seen = deliverySeen(deliveryId, bodySha256);
	const key = isEventName(event)
		? CHANGE_KEY_RULES[event](event, body, recordText(body.status), seen)
		: null;
	if (key !== null) return key;
	return seen === null ? null : identity('delivery', ['webhook'], seen);
}
