import type { IDataObject } from 'n8n-workflow';

import { EVENTS, isEventName } from './contract/events';
import { recordText } from './contract/guards';
import type { EventName } from './contract/events';
import { normaliseStatus } from './contract/statuses';
import { identity } from './identity';
import { payoutFundsReturned } from './payoutFunds';

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
 * | order   | `company`                                  | order id, status                                      |
 * | deposit | `company`, or `user-wallet/<externalId>`   | deposit id, status (legacy values normalised)         |
 * | payout  | `company`                                  | payout id, status, `refunded` once funds are back; a recharge: id, `success`, `recharged`, the time of the recharge |
 * | card    | `company`                                  | `ext`, externalId when set, else `id`, card id; status (legacy `retired` as `closed`) |
 * | dispute | `company`                                  | dispute id, status, the resolution once set           |
 *
 * e.g. `deposit:user-wallet/user-1001:d1:completed`, `payout:company:po_1:fail:refunded`.
 *
 * A user-wallet deposit is told from a company one by what both sides carry: the `externalId` of
 * the user wallet (the document: "Deposits of user wallets use the same deposit events with an
 * additional `externalId`"; a user-wallet deposit record has it as a required field).
 *
 * A payout can be charged again more than once (recharged, refunded, recharged again: the
 * document allows it, "after a refund … charged again"). Each recharge is its own change, so its
 * key carries the time of the change as the body states it: `updatedAt` (a webhook body always
 * names it; a retried delivery of one event carries the same body, so the same key), else
 * `completedAt` (the document's Payout record has it; the poll trigger reads the record's
 * `updatedAt` when the service adds one, else this). Both triggers agree when the record carries
 * the time the event does; where it does not, one recharge may reach a workflow fed by both
 * twice, never zero times.
 *
 * Any other record that returns to a state it had before (an order confirmed after a dispute is
 * `success` again, a payout refunded a second time) gets the same key again: neither side can
 * tell the two apart from what the document gives both, so such a repeat is dropped by the
 * recipe. The docs say so.
 *
 * Keys are computed from the values the service sent, before the output gate: the gate never
 * changes an identifier (a key is one), so two records never share a key because of a mask.
 */
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

/** The state the poll trigger remembers for a payout: its status, and `+refunded` once the funds are back. */
export function payoutState(status: string, fundsReturned: boolean): string {
	return fundsReturned ? `${status}+refunded` : status;
}

/** The parts of a payout's key: id and status, and `refunded` once the funds are back. */
export function payoutParts(id: string, status: string, fundsReturned: boolean): string[] {
	return fundsReturned ? [id, status, 'refunded'] : [id, status];
}

/**
 * When a payout's change happened, as a webhook body or a Payout record states it: `updatedAt`,
 * else `completedAt`; null when it names neither.
 */
export function payoutChangeTime(record: IDataObject): string | null {
	return recordText(record.updatedAt) ?? recordText(record.completedAt);
}

/**
 * The parts of a payout's recharge (back to success after a refund, charged again): with the
 * time of the recharge, so that a second recharge is a second change.
 */
export function rechargeParts(id: string, at: string | null = null): string[] {
	return at === null ? [id, 'success', 'recharged'] : [id, 'success', 'recharged', at];
}

/**
 * The parts that name a card: the caller's `externalId` when set (the webhook carries it,
 * unique within the company), else the card id, each under its own marker so an ID never
 * passes for an externalId. Null when the card has neither.
 */
export function cardKeyParts(externalId: unknown, cardId: unknown): string[] | null {
	const ext = recordText(externalId);
	if (ext !== null) return ['ext', ext];
	const id = recordText(cardId);
	return id === null ? null : ['id', id];
}

/** The state the poll trigger remembers for a dispute: its status, and `+<resolution>` once one is set. */
export function disputeState(status: string, resolution: unknown): string {
	const res = recordText(resolution);
	return res === null ? status : `${status}+${res}`;
}

/** The parts of a dispute's key: id and status, and the resolution once one is set. */
export function disputeParts(id: string, status: string, resolution: unknown): string[] {
	const res = recordText(resolution);
	return res === null ? [id, status] : [id, status, res];
}

type KeyRule = (event: EventName, body: IDataObject, status: string | null) => string | null;

/** The record's ID, from the body field the event table names for this event. */
function eventRecordId(event: EventName, body: IDataObject): string | null {
	return recordText(body[EVENTS[event].idField]);
}

/** The record's id and status as parts (the status passed through `state`), in `scope`. */
function byStatus(
	record: ChangeRecord,
	scope: (body: IDataObject) => ChangeScope = () => COMPANY_SCOPE,
	state: (status: string) => string = (s) => s,
): KeyRule {
	return (event, body, status) => {
		const id = eventRecordId(event, body);
		return id && status ? changeKey(record, scope(body), [id, state(status)]) : null;
	};
}

/** A deposit event: a user wallet's when the body carries its `externalId`. */
const depositRule = byStatus(
	'deposit',
	(body) => depositScope(body.externalId),
	normaliseDepositStatus,
);

/**
 * The change-key rule of every event of the document. A `Record` over `EventName`: an event added
 * to `contract/events.ts` without a rule here does not compile.
 */
const CHANGE_KEY_RULES: Record<EventName, KeyRule> = {
	'order.status_changed': byStatus('order'),
	'deposit.created': depositRule,
	'deposit.completed': depositRule,
	'deposit.aml_failed': depositRule,
	'payout.status_changed': (event, body, status) => {
		const id = eventRecordId(event, body);
		return id && status
			? changeKey(
					'payout',
					COMPANY_SCOPE,
					payoutParts(id, status, payoutFundsReturned(body, event)),
				)
			: null;
	},
	'payout.recharged': (event, body) => {
		const id = eventRecordId(event, body);
		return id
			? changeKey('payout', COMPANY_SCOPE, rechargeParts(id, payoutChangeTime(body)))
			: null;
	},
	'card.assigned': (_event, body) => {
		const parts = cardKeyParts(body.externalId, body.cardId ?? body.id);
		return parts ? changeKey('card', COMPANY_SCOPE, [...parts, 'assigned']) : null;
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
