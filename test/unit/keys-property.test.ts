import { createHash } from 'node:crypto';
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { balanceChange } from '../../nodes/CompanyPaymentsPollTrigger/balance';
import { cards } from '../../nodes/CompanyPaymentsPollTrigger/cards';
import { companyDeposits, userDeposits } from '../../nodes/CompanyPaymentsPollTrigger/deposits';
import { disputes } from '../../nodes/CompanyPaymentsPollTrigger/disputes';
import { orders } from '../../nodes/CompanyPaymentsPollTrigger/orders';
import { payouts } from '../../nodes/CompanyPaymentsPollTrigger/payouts';
import type { WatchedList } from '../../nodes/CompanyPaymentsPollTrigger/types';
import {
	checkAndRecord,
	dedupLimits,
	storedId,
} from '../../nodes/CompanyPaymentsTrigger/deliveries';
import { webhookChangeKey } from '../../nodes/shared/changeKey';
import { EVENT_NAMES } from '../../nodes/shared/contract/events';
import type { EventName } from '../../nodes/shared/contract/events';
import { normaliseStatus, STATUSES } from '../../nodes/shared/contract/statuses';
import { fitted, identity } from '../../nodes/shared/identity';
import type { IdentityKind } from '../../nodes/shared/identity';

/*
 * Issue 36.4, as properties over generated records (the rules, not examples):
 * 1. distinct changes of records of every kind get distinct change keys, and the same change
 *    the same key, whatever their IDs hold;
 * 2. the same change seen by the webhook trigger (the event body) and by the poll trigger (the
 *    list record) gets the same key, for every event of the document;
 * 3. the webhook trigger's dedup key is distinct per delivery and per scope.
 * The keys come from the production paths (the poll trigger's list modules, webhookChangeKey,
 * storedId and checkAndRecord); what counts as "the same change" is written here, from the
 * document, independently of how the keys are built.
 */

const RUNS = { numRuns: 300 };

/** Texts that have broken keys before, or could: separators, escapes, markers, look-alikes. */
const ADVERSARIAL = [
	'a',
	'x',
	'ext.x',
	'ext',
	'id',
	'ext.',
	'a:b',
	'b:c',
	':',
	'::',
	'/',
	'a/b',
	'%',
	'%3A',
	'%25',
	'%2F',
	'-',
	'company',
	'user-wallet',
	'user-wallet/x',
	'sha256-00',
	'%sha256-00',
	'refunded',
	'recharged',
	'success',
	'fail+refunded',
	'success:recharged',
	'resolved+refund',
	' ',
];

/**
 * An ID: mostly from a few adversarial values (so records of different kinds and scopes often
 * share one, and `a:b` meets `a` with `b` after it), else any short string (never empty: a record
 * without an ID fails the poll).
 */
const text = fc
	.oneof(
		{ arbitrary: fc.constantFrom('a', 'b', 'x', 'ext.x', 'a:b', 'b:a'), weight: 4 },
		{ arbitrary: fc.constantFrom(...ADVERSARIAL), weight: 2 },
		{ arbitrary: fc.string({ maxLength: 6 }), weight: 1 },
		{ arbitrary: fc.string({ unit: 'grapheme', maxLength: 4 }), weight: 1 },
	)
	.filter((value) => value !== '');

/** A status: one the document lists for the records, or an adversarial one. */
const statusOf = (list: keyof typeof STATUSES) =>
	fc.oneof(
		{ arbitrary: fc.constantFrom('completed', 'success', 'fail', 'assigned'), weight: 2 },
		{ arbitrary: fc.constantFrom(...(STATUSES[list] as readonly string[])), weight: 2 },
		// Statuses that read like a state with its qualifier (a refund, a resolution, a recharge).
		{
			arbitrary: fc.constantFrom(
				'fail+refunded',
				'fail:refunded',
				'resolved+refund',
				'resolved:refund',
				'success:recharged',
			),
			weight: 1,
		},
		{ arbitrary: text, weight: 1 },
	);

/** A dispute's resolution: one the document names, or any text. */
const resolution = fc.oneof(fc.constantFrom('refund', 'confirm', 'partial_refund'), text);

/** The first change the poll trigger emits for a record it has not seen before. */
/** The keys a poll at POLLED_AT gives a record (a repeat no field tells is named by that poll). */
function polled(list: WatchedList, record: IDataObject, previous?: string): string[] {
	return list.changes(record, previous, POLLED_AT).map((change) => change.changeKey);
}

/** One generated change: its key by the production code, and what the change is by the document. */
interface Case {
	key: string;
	change: unknown[];
}

const AT = '2026-11-21T12:00:00.000Z';
const POLLED_AT = '2026-11-21T12:05:00.000Z';

/**
 * The changes of one record of each kind, its ID drawn by `id`, its status by `status` and a
 * dispute's resolution by `settled`.
 */
const changesOf = (
	id: fc.Arbitrary<string>,
	status: typeof statusOf = statusOf,
	settled: fc.Arbitrary<string> = resolution,
): Array<fc.Arbitrary<Case[]>> => [
	fc
		.record({ id, status: status('order') })
		.map(({ id, status }) => [
			{ key: polled(orders, { id, status })[0], change: ['order', id, status] },
		]),
	fc.record({ id, status: status('companyDeposit') }).map(({ id, status }) => [
		{
			key: polled(companyDeposits, { id, status })[0],
			change: ['deposit', 'company', id, normaliseStatus('userDeposit', status)],
		},
	]),
	fc
		.record({ id, status: status('userDeposit'), externalId: text })
		.map(({ id, status, externalId }) => [
			{
				key: polled(userDeposits, { id, status, externalId })[0],
				change: ['deposit', 'user wallet', externalId, id, normaliseStatus('userDeposit', status)],
			},
		]),
	fc
		.record({ id, status: status('payout'), refunded: fc.boolean() })
		.map(({ id, status, refunded }) => {
			const record = { id, status, refundedAt: refunded ? AT : null };
			const fundsBack = refunded && status !== 'success';
			const cases: Case[] = [
				{ key: polled(payouts, record)[0], change: ['payout', id, status, fundsBack] },
			];
			// Back to success after a refund: the recharge is a change of its own.
			const recharged = polled(
				payouts,
				{ id, status: 'success', refundedAt: null },
				'fail+refunded',
			);
			cases.push({ key: recharged[1], change: ['payout recharged', id] });
			return cases;
		}),
	fc
		.record({ id, externalId: fc.option(text, { nil: null }), status: status('card') })
		.map(({ id, externalId, status }) => [
			{
				key: polled(cards, { id, externalId, status })[0],
				// A card is named by its externalId and, once known, its id: a new card issued later
				// under the same externalId is another card (outside read r8-data, finding 5).
				change: [
					'card',
					externalId === null ? ['card id', id] : ['externalId', externalId, 'card id', id],
					normaliseStatus('card', status),
				],
			},
		]),
	fc
		.record({
			id,
			status: status('dispute'),
			resolution: fc.option(settled, { nil: null }),
		})
		.map(({ id, status, resolution }) => [
			{
				key: polled(disputes, { id, status, resolution })[0],
				change: ['dispute', id, status, resolution],
			},
		]),
	fc.date({ noInvalidDate: true }).map((date) => {
		const polledAt = date.toISOString();
		const reading = { usdtBalance: 1, frozenBalance: 0, below: true };
		return [{ key: balanceChange(reading, 10, polledAt).changeKey, change: ['balance', polledAt] }];
	}),
];

const changeCase: fc.Arbitrary<Case[]> = fc.oneof(...changesOf(text));

describe('change keys: distinct changes, distinct keys (issue 36.4)', () => {
	it('no two different changes of any kind share a key, and one change always gets one key', () => {
		fc.assert(
			fc.property(fc.array(changeCase, { minLength: 2, maxLength: 40 }), (groups) => {
				const byKey = new Map<string, string>();
				const byChange = new Map<string, string>();
				for (const { key, change } of groups.flat()) {
					const what = JSON.stringify(change);
					expect(typeof key).toBe('string');
					expect(byKey.get(key) ?? what).toBe(what);
					expect(byChange.get(what) ?? key).toBe(key);
					byKey.set(key, what);
					byChange.set(what, key);
				}
			}),
			RUNS,
		);
	});

	// One record's states from a small pool, so a status that reads like another state with its
	// qualifier (`fail+refunded` against `fail` refunded) meets that state often.
	const lookalike = () =>
		fc.constantFrom(
			'fail',
			'fail+refunded',
			'fail:refunded',
			'resolved',
			'resolved+refund',
			'success',
			'success:recharged',
		);
	const KINDS = [
		'order',
		'company deposit',
		'user-wallet deposit',
		'payout',
		'card',
		'dispute',
		'balance',
	];

	it.each(KINDS.map((name, index) => [name, index] as const))(
		'one %s in two different states never has one key for both',
		(_name, kind) => {
			fc.assert(
				fc.property(
					text.chain((id) => {
						const changes = changesOf(
							fc.constant(id),
							lookalike,
							fc.constantFrom('refund', 'confirm'),
						)[kind];
						return fc.tuple(changes, changes);
					}),
					([first, second]) => {
						for (const a of first) {
							for (const b of second) {
								if (JSON.stringify(a.change) !== JSON.stringify(b.change)) {
									expect(a.key).not.toBe(b.key);
								}
							}
						}
					},
				),
				{ numRuns: 500 },
			);
		},
	);

	it('the same ID across kinds and scopes: every kind keeps its own key', () => {
		fc.assert(
			fc.property(text, text, (id, externalId) => {
				const keys = [
					polled(orders, { id, status: 'completed' })[0],
					polled(companyDeposits, { id, status: 'completed' })[0],
					polled(userDeposits, { id, status: 'completed', externalId })[0],
					polled(payouts, { id, status: 'completed', refundedAt: null })[0],
					polled(cards, { id, externalId: null, status: 'completed' })[0],
					polled(cards, { id: `${id}-card`, externalId: id, status: 'completed' })[0],
					polled(disputes, { id, status: 'completed', resolution: null })[0],
				];
				expect(new Set(keys).size).toBe(keys.length);
			}),
			RUNS,
		);
	});
});

/**
 * For every event of the document, a list record and the body the service sends for the same
 * change (the fields the document's event table names, from the record). A `Record` over
 * EventName: an event added to contract/events.ts without a case here does not compile.
 */
type SameChange = fc.Arbitrary<{ body: IDataObject; poll: string }>;

const depositEvent = (status: string, legacy?: string): SameChange =>
	fc
		.record({
			id: text,
			externalId: fc.option(text, { nil: null }),
			spelling: fc.constantFrom(status, legacy ?? status),
		})
		.map(({ id, externalId, spelling }) => {
			// Both sides show updatedAt (the deposit record does): one key. Without it each side
			// names what saw the change (outside read r7-data, finding 2): changeKey-visits.test.ts.
			const record = {
				id,
				status: spelling,
				createdAt: AT,
				updatedAt: AT,
				...(externalId === null ? {} : { externalId }),
			};
			const list = externalId === null ? companyDeposits : userDeposits;
			// "Deposits of user wallets use the same deposit events with an additional externalId."
			const body: IDataObject = { depositId: id, status: spelling, createdAt: AT, updatedAt: AT };
			if (externalId !== null) body.externalId = externalId;
			return { body, poll: polled(list, record)[0] };
		});

const SAME_CHANGE: Record<EventName, SameChange> = {
	// An order's success, failed and disputed can repeat and no field tells a repeat on either
	// side: each trigger names what saw it (changeKey.test.ts), so only the other states agree.
	// An order's change is one key on both sides when both show its `updatedAt` (which the
	// document does not show on either). Without it each side names what saw the change, the
	// delivery or the poll (outside read r5-data, finding 5): changeKey.test.ts.
	'order.status_changed': fc
		.record({
			id: text,
			status: statusOf('order'),
		})
		.map(({ id, status }) => ({
			body: { orderId: id, status, walletOrderId: null, createdAt: AT, updatedAt: AT },
			poll: polled(orders, { id, status, createdAt: AT, updatedAt: AT })[0],
		})),
	'deposit.created': depositEvent('new'),
	'deposit.completed': depositEvent('completed'),
	'deposit.aml_failed': depositEvent('aml_failed', 'aml_fail'),
	'payout.status_changed': fc
		.record({
			id: text,
			status: statusOf('payout'),
			refunded: fc.boolean(),
			externalId: fc.option(text, { nil: null }),
		})
		// The same change as both sides would show it if the service gave both the times the other
		// shows (the webhook's updatedAt on the record, the record's refundedAt in the body): the
		// sandbox's `repeatTransitions: sharedTimes`.
		.map(({ id, status, refunded, externalId }) => ({
			body: {
				payoutId: id,
				externalId,
				status,
				refunded: refunded && status !== 'success',
				updatedAt: AT,
				...(refunded && status !== 'success' ? { refundedAt: AT } : {}),
			},
			poll: polled(payouts, {
				id,
				externalId,
				status,
				refundedAt: refunded ? AT : null,
				updatedAt: AT,
			})[0],
		})),
	'payout.recharged': fc
		.record({ id: text, keepsRefundedAt: fc.boolean() })
		.map(({ id, keepsRefundedAt }) => ({
			body: { payoutId: id, status: 'success', refunded: false, updatedAt: AT },
			poll: polled(
				payouts,
				{ id, status: 'success', refundedAt: keepsRefundedAt ? AT : null, updatedAt: AT },
				'fail+refunded',
			)[1],
		})),
	'card.assigned': fc
		.record({ id: text, externalId: fc.option(text, { nil: null }) })
		.map(({ id, externalId }) => ({
			// The document: card.assigned "carries the card's externalId; other fields: not shown".
			// Both sides give one key when both show the card's id and its updatedAt (the sandbox's
			// sharedTimes); without them the webhook names its delivery: a duplicate across triggers,
			// never a lost change (outside read r8-data, finding 4).
			body: { cardId: id, externalId, updatedAt: AT },
			poll: polled(cards, { id, externalId, status: 'assigned', updatedAt: AT })[0],
		})),
};

describe('change keys: the webhook and the poll give one change one key (issue 36.4)', () => {
	it.each(EVENT_NAMES)('%s', (event) => {
		fc.assert(
			fc.property(SAME_CHANGE[event], ({ body, poll }) => {
				expect(webhookChangeKey(event, { event, ...body })).toBe(poll);
			}),
			RUNS,
		);
	});
});

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** A long delivery ID, and IDs that read like what its key or hash was, or is. */
const lookalikes = (long: string) => [
	long,
	`sha256:${sha256(long)}`,
	`sha256-${sha256(`delivery:-:${long}`)}`,
	`%sha256-${sha256(`delivery:-:${long}`)}`,
	storedId(long),
	storedId(long).slice('delivery:-:'.length),
];

/** Delivery IDs, with long ones (kept as a hash), line breaks, and look-alikes of stored forms. */
const deliveryId = fc.oneof(
	text,
	fc.string({ minLength: 190, maxLength: 260 }),
	fc.string({ maxLength: 8 }).map((s) => `${s}\n${s}`),
	fc
		.string({ minLength: 201, maxLength: 220 })
		.chain((long) => fc.constantFrom(...lookalikes(long))),
);

/** A store's scope as the trigger forms it: workflow, node, live or test. */
const scope = fc.tuple(
	fc.constantFrom('wf-1', 'wf:1', 'wf'),
	fc.constantFrom('n-1', '1:n', 'n'),
	fc.constantFrom('live', 'test'),
);

/** Deliveries to one store: one, or a long ID with its look-alikes (the store's keys have no scope). */
const delivered = fc.oneof(
	fc.tuple(scope, deliveryId).map((one) => [one]),
	fc
		.tuple(scope, fc.string({ minLength: 201, maxLength: 220 }))
		.map(([where, long]) => lookalikes(long).map((id) => [where, id] as [typeof where, string])),
);

describe("the webhook trigger's dedup key (issue 36.4)", () => {
	it('is distinct per delivery and per scope', () => {
		fc.assert(
			fc.property(fc.array(fc.tuple(scope, deliveryId), { maxLength: 30 }), (deliveries) => {
				const byKey = new Map<string, string>();
				for (const [where, id] of deliveries) {
					const key = storedId(id, where);
					const what = JSON.stringify([where, id]);
					expect(byKey.get(key) ?? what).toBe(what);
					byKey.set(key, what);
					expect(key.length).toBeLessThanOrEqual(200);
					expect(key).not.toMatch(/[\r\n]/);
				}
			}),
			RUNS,
		);
	});

	it('as the trigger keeps it: a delivery is a duplicate exactly when the same ID was recorded in the same store', () => {
		const now = Date.parse(AT);
		const limits = dedupLimits(undefined, undefined);
		let run = 0;
		fc.assert(
			fc.property(fc.array(delivered, { maxLength: 12 }), (groups) => {
				const deliveries = groups.flat();
				run += 1;
				const stores = new Map<string, IDataObject>();
				const seen = new Set<string>();
				for (const [where, id] of deliveries) {
					// One store per scope, as receive.ts keys them (fresh per run).
					const storeKey = `property-${run}:${JSON.stringify(where)}`;
					const staticData = stores.get(storeKey) ?? {};
					stores.set(storeKey, staticData);
					const what = JSON.stringify([where, id]);
					const verdict = checkAndRecord(storeKey, staticData, id, now, limits);
					expect(verdict).toBe(seen.has(what) ? 'duplicate' : 'new');
					seen.add(what);
				}
			}),
			{ numRuns: 200 },
		);
	});
});

describe('identity() and fitted(): distinct (kind, scope, parts), distinct keys', () => {
	const kind = fc.constantFrom<IdentityKind>('order', 'deposit', 'payout', 'card', 'delivery');
	const identityCase = fc.tuple(
		kind,
		fc.array(text, { maxLength: 3 }),
		fc.array(fc.oneof(text, fc.string({ minLength: 60, maxLength: 120 })), { maxLength: 3 }),
	);

	it('holds also once fitted to the length the service takes', () => {
		fc.assert(
			fc.property(fc.array(identityCase, { minLength: 2, maxLength: 20 }), (cases) => {
				const byKey = new Map<string, string>();
				for (const [k, where, parts] of cases) {
					const raw = identity(k, where, parts);
					const what = JSON.stringify([k, where, parts]);
					for (const key of [raw, fitted(raw, 100)]) {
						expect(byKey.get(key) ?? what).toBe(what);
						byKey.set(key, what);
					}
					expect(fitted(raw, 100)).toMatch(/^[\x21-\x7e]{1,100}$/);
				}
			}),
			RUNS,
		);
	});
});
