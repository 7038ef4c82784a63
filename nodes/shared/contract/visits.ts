import type { StatusList } from './statuses';

/*
 * The one declaration of the times that tell one visit of a record to a state from another
 * (outside read 2, findings 1–5). A record can enter a state it had before (a payout taken,
 * released and taken again; refunded and charged again; an order confirmed after a dispute; a
 * deposit's sweep retried); the document shows no field that counts visits, only times.
 *
 * - VISIT_EVIDENCE: the time fields of a list record the poll trigger remembers between polls.
 *   A record in the same state as last time but with one of them moved is a new visit and is
 *   emitted (nodes/CompanyPaymentsPollTrigger/state.ts, poll.ts).
 * - CHANGE_TIMES: the fields a change key takes its time from, first shown first
 *   (shared/changeKey.ts whenParts). `updatedAt` comes first wherever it is shown: it moves
 *   with every visit, where `takenAt` or `completedAt` may be kept from the first one.
 */

/** The time fields the poll remembers per record of each list: any one moved is a new visit. */
export const VISIT_EVIDENCE = {
	payout: ['updatedAt', 'takenAt', 'completedAt', 'refundedAt'],
	order: ['updatedAt', 'completedAt'],
	companyDeposit: ['updatedAt'],
	userDeposit: ['updatedAt'],
	card: ['updatedAt', 'assignedAt'],
	dispute: ['updatedAt', 'resolvedAt'],
} as const satisfies Partial<Record<StatusList, readonly string[]>>;

/** The evidence fields of a list's records (none for a list not declared above). */
export function visitEvidence(list: StatusList): readonly string[] {
	return (VISIT_EVIDENCE as Partial<Record<StatusList, readonly string[]>>)[list] ?? [];
}

/**
 * A state whose key carries the time of the change, and the fields that give it, in order. With
 * none of them shown, the key names what saw the change (the delivery, the poll), but for the
 * states of NO_TIME_FALLBACK.
 */
export const CHANGE_TIMES = {
	// Issue 50: every payout state may come back (taken, released, taken again).
	'payout:pending': ['updatedAt'],
	'payout:waiting_trader': ['updatedAt'],
	'payout:in_progress': ['updatedAt', 'takenAt'],
	'payout:success': ['updatedAt', 'completedAt'],
	'payout:refunded': ['updatedAt', 'refundedAt'],
	'payout:fail': ['updatedAt'],
	'payout:recharged': ['updatedAt'],
	// An order confirmed after a dispute is `success` again, and disputed again.
	'order:success': ['updatedAt'],
	'order:failed': ['updatedAt'],
	'order:disputed': ['updatedAt'],
	// Any other state of an order, and every deposit state (a sweep retried: sweeping, failed,
	// sweeping again; AML failed, checked again, failed again): `updatedAt` when shown, else what
	// saw the change.
	'order:*': ['updatedAt'],
	'deposit:*': ['updatedAt'],
	// A dispute submitted, in review, submitted again, in review again (outside read r5-data,
	// finding 1): the poll alone sees disputes, so its key carries the record's time, else the poll.
	'dispute:*': ['updatedAt', 'resolvedAt'],
	// A card assigned, closing, assigned again (a closure declined), or a new card reusing a
	// closed card's externalId (outside read r8-data, findings 4 and 5): its key carries the card's
	// id and the record's time, else what saw the change.
	'card:*': ['updatedAt', 'assignedAt'],
} as const satisfies Record<string, readonly string[]>;

/**
 * Times of CHANGE_TIMES a service may keep from a record's first visit (a re-take keeping the
 * first `takenAt`, a recharge keeping `completedAt`, a card assigned again its `assignedAt`). The webhook trigger, which remembers no
 * earlier visit, never names a visit by them: without `updatedAt` its key names the delivery.
 * The poll trigger uses them when they moved since its last poll.
 */
export const KEPT_TIMES: ReadonlySet<string> = new Set([
	'takenAt',
	'completedAt',
	'refundedAt',
	// A card assigned again may keep its first `assignedAt`.
	'assignedAt',
]);

/**
 * Times a change key reads that the document does not show on the record (an Order record and a
 * Card record show no `updatedAt`): read when the service shows them, else the key falls back as
 * the table says.
 */
export const UNSHOWN_TIMES = { order: ['updatedAt'], card: ['updatedAt'] } as const;

/**
 * States whose key keeps `id, status` alone when no field of CHANGE_TIMES is shown: none. An
 * order's states left it in outside read r5-data (finding 5), a deposit's in outside read r7-data
 * (finding 2): a deposit that fails AML, is checked again and fails again enters `aml_failed`
 * twice, and the `deposit.aml_failed` body shows no `updatedAt`. Without a time, a key names
 * what saw the change (the delivery, the poll): a duplicate across triggers, never a lost change.
 * Kept as a set so that a state the document shows only once can be declared here again.
 */
export const NO_TIME_FALLBACK: ReadonlySet<string> = new Set<string>();
