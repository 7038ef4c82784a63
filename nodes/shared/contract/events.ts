/**
 * The service's webhook events, as the interface document's "Event kinds" table states them: one
 * row per event, the only place their names are written. The webhook trigger (filtering, routing,
 * derived fields), the poll trigger (which event a read change stands for) and the change key
 * (`changeKey.ts`, an exhaustive `Record<EventName, …>`) all read this table, so an event added
 * here without a change-key rule does not compile. The sandbox declares the events it emits on
 * its own side; `test/sandbox/events.test.mjs` checks the two agree.
 */

/** The kind of record an event body describes. */
export type EventRecord = 'order' | 'deposit' | 'payout' | 'card';

export interface EventContract {
	/** The record the body describes. */
	record: EventRecord;
	/**
	 * The body field that carries the record's ID. A list record of the same kind carries it as
	 * `id`; a record that carries it under this name instead is read by it (the poll trigger).
	 */
	idField: string;
	/** The one status the event announces, for events that announce one state only. */
	status?: string;
	/** The payload fields the document names, besides `event`. */
	fields: readonly string[];
	/** What the event means for money, in one sentence. */
	money: string;
}

const PAYOUT_FIELDS = [
	'payoutId',
	'externalId',
	'status',
	'amountRub',
	'chargedUsdt',
	'rate',
	'requisiteType',
	'requisite',
	'bankId',
	'bank',
	'failReason',
	'comment',
	'refunded',
	'disputeStatus',
	'disputeResolution',
	'completedAt',
	'createdAt',
	'updatedAt',
] as const;

/** The document's table, in its order (the trigger's routed outputs follow it). */
export const EVENTS = {
	'order.status_changed': {
		record: 'order',
		idField: 'orderId',
		fields: [
			'orderId',
			'walletOrderId',
			'status',
			'amountUsdt',
			'amountRub',
			'completedAt',
			'failureReason',
			'createdAt',
		],
		money:
			'The order moved; funds reserved at accept stay reserved until it ends, and a refund after a dispute turns it to failed.',
	},
	'deposit.created': {
		record: 'deposit',
		idField: 'depositId',
		status: 'new',
		fields: [
			'depositId',
			'txHash',
			'walletAddress',
			'fromAddress',
			'amount',
			'tokenSymbol',
			'status',
			'createdAt',
			'updatedAt',
		],
		money: 'A deposit was seen on the network; nothing is credited yet (AML comes first).',
	},
	'deposit.completed': {
		record: 'deposit',
		idField: 'depositId',
		status: 'completed',
		fields: [
			'depositId',
			'txHash',
			'walletAddress',
			'amount',
			'status',
			'sweepTxHash',
			'createdAt',
			'updatedAt',
		],
		money: 'The deposit is credited to the balance, less the processing fee retained from it.',
	},
	'deposit.aml_failed': {
		record: 'deposit',
		idField: 'depositId',
		status: 'aml_failed',
		fields: [
			'depositId',
			'txHash',
			'amount',
			'status',
			'amlCheckId',
			'amlResult',
			'error',
			'createdAt',
		],
		money: 'The AML check failed; the deposit is not credited.',
	},
	'payout.status_changed': {
		record: 'payout',
		idField: 'payoutId',
		fields: PAYOUT_FIELDS,
		money: 'The payout moved; with status fail the funds are back only when `refunded` is true.',
	},
	'payout.recharged': {
		record: 'payout',
		idField: 'payoutId',
		fields: PAYOUT_FIELDS,
		money: 'A refunded payout returned to success and the company balance was charged again.',
	},
	'card.assigned': {
		record: 'card',
		idField: 'cardId',
		fields: ['externalId'],
		money:
			'A pending card request was fulfilled; the reserve taken at the request now backs the card.',
	},
} as const satisfies Record<string, EventContract>;

/** The name of an event of the document. */
export type EventName = keyof typeof EVENTS;

/** Every event name, in the document's order. */
export const EVENT_NAMES = Object.keys(EVENTS) as EventName[];

export function isEventName(value: unknown): value is EventName {
	return typeof value === 'string' && Object.prototype.hasOwnProperty.call(EVENTS, value);
}

/** The events whose body describes a record of this kind, in the document's order. */
export function eventsOf(record: EventRecord): EventName[] {
	return EVENT_NAMES.filter((name) => EVENTS[name].record === record);
}
