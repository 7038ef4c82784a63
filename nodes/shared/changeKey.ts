import type { IDataObject } from 'n8n-workflow';

import { EVENTS, isEventName } from './contract/events';
import { recordText } from './contract/guards';
import type { EventName } from './contract/events';
import { normaliseStatus } from './contract/statuses';
import { payoutFundsReturned } from './payoutFunds';

/**
 * One name for one state change of one record, whichever trigger saw it.
 *
 * The webhook trigger computes it from an event body, the poll trigger from the record it read
 * from a list. A workflow fed by both keeps exactly one item per change with n8n's Remove
 * Duplicates on `changeKey`. The form is `<record>:<id>:<state>`:
 *
 * | record  | id                                        | state                                  |
 * |---------|-------------------------------------------|----------------------------------------|
 * | order   | order id                                  | status                                 |
 * | deposit | deposit id                                | status, legacy values normalised       |
 * | payout  | payout id                                 | status, `+refunded` once funds are back; `recharged` |
 * | card    | `ext.<externalId>` when set, else card id | status, legacy `retired` as `closed`   |
 * | dispute | dispute id                                | status, `+<resolution>` when resolved  |
 *
 * A record that returns to a state it had before (an order confirmed after a dispute is
 * `success` again) gets the same key again: neither side can tell the two apart from what it
 * reads, so such a repeat is dropped by the recipe. The docs say so.
 */
export type ChangeRecord = 'order' | 'deposit' | 'payout' | 'card' | 'dispute';

/** A deposit status in its current form: `aml_pass` → `aml_passed`, `aml_fail` → `aml_failed`. */
export function normaliseDepositStatus(status: string): string {
	return normaliseStatus('userDeposit', status);
}

export function changeKey(record: ChangeRecord, id: string, state: string): string {
	return `${record}:${id}:${state}`;
}

/** The state part of a payout's key: its status, and `+refunded` once the funds are back. */
export function payoutState(status: string, fundsReturned: boolean): string {
	return fundsReturned ? `${status}+refunded` : status;
}

/** The id part of a card's key: the caller's `externalId` when set (the webhook carries it), else the card id. */
export function cardKeyId(externalId: unknown, cardId: unknown): string | null {
	const ext = recordText(externalId);
	if (ext !== null) return `ext.${ext}`;
	return recordText(cardId);
}

/** The state part of a dispute's key: its status, and `+<resolution>` once one is set. */
export function disputeState(status: string, resolution: unknown): string {
	const res = recordText(resolution);
	return res === null ? status : `${status}+${res}`;
}

type KeyRule = (event: EventName, body: IDataObject, status: string | null) => string | null;

/** The record's ID, from the body field the event table names for this event. */
function eventRecordId(event: EventName, body: IDataObject): string | null {
	return recordText(body[EVENTS[event].idField]);
}

/** `<record>:<id>:<status>`, the status passed through `state`. */
function byStatus(record: ChangeRecord, state: (status: string) => string = (s) => s): KeyRule {
	return (event, body, status) => {
		const id = eventRecordId(event, body);
		return id && status ? changeKey(record, id, state(status)) : null;
	};
}

/**
 * The change-key rule of every event of the document. A `Record` over `EventName`: an event added
 * to `contract/events.ts` without a rule here does not compile.
 */
const CHANGE_KEY_RULES: Record<EventName, KeyRule> = {
	'order.status_changed': byStatus('order'),
	'deposit.created': byStatus('deposit', normaliseDepositStatus),
	'deposit.completed': byStatus('deposit', normaliseDepositStatus),
	'deposit.aml_failed': byStatus('deposit', normaliseDepositStatus),
	'payout.status_changed': (event, body, status) => {
		const id = eventRecordId(event, body);
		return id && status
			? changeKey('payout', id, payoutState(status, payoutFundsReturned(body, event)))
			: null;
	},
	'payout.recharged': (event, body) => {
		const id = eventRecordId(event, body);
		return id ? changeKey('payout', id, 'recharged') : null;
	},
	'card.assigned': (_event, body) => {
		const id = cardKeyId(body.externalId, body.cardId ?? body.id);
		return id ? changeKey('card', id, 'assigned') : null;
	},
};

/**
 * The key of a webhook event, or null when the event is unknown or its body lacks the id or
 * status the key needs (the item is still emitted, without a key).
 */
export function webhookChangeKey(event: string | null, body: IDataObject): string | null {
	if (!isEventName(event)) return null;
	return CHANGE_KEY_RULES[event](event, body, recordText(body.status));
}
