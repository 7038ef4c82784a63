import type { IDataObject } from 'n8n-workflow';

import { cards } from '../../nodes/CompanyPaymentsPollTrigger/cards';
import { disputes } from '../../nodes/CompanyPaymentsPollTrigger/disputes';
import { companyDeposits, userDeposits } from '../../nodes/CompanyPaymentsPollTrigger/deposits';
import { orders } from '../../nodes/CompanyPaymentsPollTrigger/orders';
import { payouts } from '../../nodes/CompanyPaymentsPollTrigger/payouts';
import { SAMPLE_EVENTS, deliver } from './helpers/trigger';
import {
	cardKeyParts,
	changeKey,
	COMPANY_SCOPE,
	depositScope,
	disputeParts,
	normaliseDepositStatus,
	payoutParts,
	webhookChangeKey,
} from '../../nodes/shared/changeKey';

/** The key the poll trigger gives a list record of `list` seen for the first time. */
function pollKey(
	list: {
		changes(
			record: IDataObject,
			previous: string | undefined,
			polledAt: string,
		): Array<{ changeKey: string }>;
	},
	record: IDataObject,
	polledAt = '2026-11-21T13:00:00.000Z',
): string {
	return list.changes(record, undefined, polledAt)[0].changeKey;
}

describe('changeKey: one name per state change, whichever trigger saw it', () => {
	it('orders: company scope, id and status', () => {
		expect(webhookChangeKey('order.status_changed', { orderId: 'o1', status: 'created' })).toBe(
			'order:company:o1:created',
		);
		expect(changeKey('order', COMPANY_SCOPE, ['o1', 'success'])).toBe('order:company:o1:success');
	});

	it('deposits: legacy statuses give the same key as their current form', () => {
		expect(normaliseDepositStatus('aml_fail')).toBe('aml_failed');
		expect(normaliseDepositStatus('aml_pass')).toBe('aml_passed');
		expect(normaliseDepositStatus('completed')).toBe('completed');
		expect(webhookChangeKey('deposit.aml_failed', { depositId: 'd1', status: 'aml_fail' })).toBe(
			'deposit:company:d1:aml_failed',
		);
	});

	it('deposits of a user wallet are keyed in that wallet (its externalId), on both sides', () => {
		expect(depositScope('user-1001')).toEqual(['user-wallet', 'user-1001']);
		expect(depositScope(null)).toEqual(COMPANY_SCOPE);
		const body = { depositId: 'd1', status: 'completed', externalId: 'user-1001' };
		expect(webhookChangeKey('deposit.completed', body)).toBe(
			'deposit:user-wallet/user-1001:d1:completed',
		);
		// Both sides show updatedAt (the document's deposit record and deposit.completed): one key.
		const updatedAt = '2026-11-21T12:30:00.000Z';
		expect(
			pollKey(userDeposits, { id: 'd1', status: 'completed', externalId: 'user-1001', updatedAt }),
		).toBe(webhookChangeKey('deposit.completed', { ...body, updatedAt }, 'del-1'));
		// Without it each side names what saw the change: a duplicate, never a lost change.
		expect(pollKey(userDeposits, { id: 'd1', status: 'completed', externalId: 'user-1001' })).toBe(
			'deposit:user-wallet/user-1001:d1:completed:polled:2026-11-21T13%3A00%3A00.000Z',
		);
	});

	it('payouts: a refund is its own change, a recharge too', () => {
		expect(
			webhookChangeKey('payout.status_changed', {
				payoutId: 'p1',
				status: 'fail',
				refunded: false,
			}),
		).toBe('payout:company:p1:fail');
		expect(
			webhookChangeKey('payout.status_changed', { payoutId: 'p1', status: 'fail', refunded: true }),
		).toBe(changeKey('payout', COMPANY_SCOPE, payoutParts('p1', 'fail', true)));
		expect(payoutParts('p1', 'fail', true)).toEqual(['p1', 'fail', 'refunded']);
		expect(webhookChangeKey('payout.recharged', { payoutId: 'p1', status: 'success' })).toBe(
			'payout:company:p1:success:recharged',
		);
	});

	it('cards: the externalId the webhook carries and the card id, each under its own marker', () => {
		expect(cardKeyParts('emp-7', 'c1')).toEqual(['ext', 'emp-7', 'id', 'c1']);
		expect(cardKeyParts('emp-7', null)).toEqual(['ext', 'emp-7']);
		expect(cardKeyParts(null, 'c1')).toEqual(['id', 'c1']);
		expect(cardKeyParts(null, null)).toBeNull();
		expect(webhookChangeKey('card.assigned', { externalId: 'emp-7' }, 'd1')).toBe(
			'card:company:ext:emp-7:assigned:delivery:d1',
		);
		expect(webhookChangeKey('card.assigned', { cardId: 'c1', externalId: null }, 'd1')).toBe(
			'card:company:id:c1:assigned:delivery:d1',
		);
	});

	// Outside read r8-data, findings 4 and 5: a card assigned, closing and assigned again, and a
	// new card reusing a closed card's externalId, each get a key of their own.
	it('cards: a revisit and a reused externalId are new keys; both triggers agree on a shown time', () => {
		const first = {
			id: 'c1',
			externalId: 'emp-7',
			status: 'assigned',
			assignedAt: 'T1',
			updatedAt: 'T1',
		};
		const again = { ...first, assignedAt: 'T3', updatedAt: 'T3' };
		const reused = { ...first, id: 'c2' };
		const keys = [first, again, reused].map((card) => pollKey(cards, card));
		expect(new Set(keys).size).toBe(3);
		expect(pollKey(cards, { ...first, status: 'closing', updatedAt: 'T2' })).not.toBe(
			pollKey(cards, { ...first, status: 'closing', updatedAt: 'T4' }),
		);
		// No time shown: what saw it (two polls, two deliveries) tells the visits apart.
		const bare = { id: 'c1', externalId: 'emp-7', status: 'assigned' };
		expect(pollKey(cards, bare, '2026-01-01T00:00:00Z')).not.toBe(
			pollKey(cards, bare, '2026-01-02T00:00:00Z'),
		);
		expect(webhookChangeKey('card.assigned', bare, 'd1')).not.toBe(
			webhookChangeKey('card.assigned', bare, 'd2'),
		);
		// A delivery showing the card id and `updatedAt` has the poll's key.
		expect(
			webhookChangeKey(
				'card.assigned',
				{ cardId: 'c1', externalId: 'emp-7', updatedAt: 'T1' },
				'd1',
			),
		).toBe(pollKey(cards, first));
		// The webhook never names a visit by an `assignedAt` the service may keep from the first.
		expect(webhookChangeKey('card.assigned', { externalId: 'emp-7', assignedAt: 'T1' }, 'd1')).toBe(
			'card:company:ext:emp-7:assigned:delivery:d1',
		);
	});

	it('disputes: status, and the resolution once set', () => {
		expect(disputeParts('s1', 'in_review', null)).toEqual(['s1', 'in_review']);
		expect(disputeParts('s1', 'resolved', 'partial_refund')).toEqual([
			's1',
			'resolved',
			'partial_refund',
		]);
	});

	it('no key for unknown events or bodies without the id or status', () => {
		expect(webhookChangeKey('something.new', { id: 'x', status: 'y' })).toBeNull();
		expect(webhookChangeKey(null, {})).toBeNull();
		expect(webhookChangeKey('order.status_changed', { status: 'success' })).toBeNull();
		expect(webhookChangeKey('deposit.created', { depositId: 'd1' })).toBeNull();
	});
});

describe('changeKey: two different changes never share a key (the outside read, issue 36)', () => {
	it('a user-wallet deposit and a company deposit with the same id and state', () => {
		// The documented recipe (Remove Duplicates on changeKey) dropped the second one.
		const company = webhookChangeKey('deposit.completed', {
			depositId: 'd-7',
			status: 'completed',
		});
		const user = webhookChangeKey('deposit.completed', {
			depositId: 'd-7',
			status: 'completed',
			externalId: 'user-1001',
		});
		expect(user).not.toBe(company);
		expect(
			pollKey(userDeposits, { id: 'd-7', status: 'completed', externalId: 'user-1001' }),
		).not.toBe(pollKey(companyDeposits, { id: 'd-7', status: 'completed' }));
	});

	it('a card without externalId whose id is `ext.x`, and a card whose externalId is `x`', () => {
		const byId = pollKey(cards, { id: 'ext.x', externalId: null, status: 'assigned' });
		const byExternal = pollKey(cards, { id: 'c-2', externalId: 'x', status: 'assigned' });
		expect(byId).not.toBe(byExternal);
		expect(webhookChangeKey('card.assigned', { cardId: 'ext.x' })).not.toBe(
			webhookChangeKey('card.assigned', { externalId: 'x' }),
		);
	});

	it('ids holding the separator', () => {
		// id `a:b` in status `c` against id `a` in status `b:c`.
		expect(pollKey(orders, { id: 'a:b', status: 'c' })).not.toBe(
			pollKey(orders, { id: 'a', status: 'b:c' }),
		);
		expect(
			webhookChangeKey('deposit.completed', {
				depositId: 'd',
				status: 'completed',
				externalId: 'u/x',
			}),
		).not.toBe(
			webhookChangeKey('deposit.completed', {
				depositId: 'x/d',
				status: 'completed',
				externalId: 'u',
			}),
		);
	});
});

describe('changeKey: one key per change of a payout (issue 43)', () => {
	const T1 = '2026-11-21T12:10:00.000Z';
	const T2 = '2026-11-21T12:40:00.000Z';
	const body = (
		event: string,
		status: string,
		refunded: boolean,
		updatedAt: string,
	): IDataObject => ({
		...SAMPLE_EVENTS['payout.status_changed'],
		event,
		payoutId: 'po-9',
		status,
		refunded,
		completedAt: updatedAt,
		updatedAt,
	});

	it('recharged, refunded and recharged again: two recharge keys; a retried delivery of one event: one key', async () => {
		const first = body('payout.recharged', 'success', false, T1);
		const second = body('payout.recharged', 'success', false, T2);
		expect(webhookChangeKey('payout.recharged', first)).toBe(
			`payout:company:po-9:success:recharged:updatedAt:${T1.replace(/:/g, '%3A')}`,
		);
		expect(webhookChangeKey('payout.recharged', second)).not.toBe(
			webhookChangeKey('payout.recharged', first),
		);
		// Through the trigger: the service retries the first delivery (another attempt, same body).
		const delivered = [];
		for (const [payload, deliveryId] of [
			[first, 'd-1'],
			[first, 'd-1-retry'],
			[second, 'd-2'],
		] as const) {
			delivered.push((await deliver({ body: payload, deliveryId })).item?.changeKey);
		}
		expect(delivered[0]).toBe(delivered[1]);
		expect(delivered[2]).not.toBe(delivered[0]);
	});

	it('the poll trigger names each recharge as the webhook does, from the same record time', () => {
		const seen: string[] = [];
		let previous: string | undefined;
		for (const [status, refundedAt, updatedAt] of [
			['success', null, '2026-11-21T12:00:00.000Z'],
			['fail', '2026-11-21T12:05:00.000Z', '2026-11-21T12:05:00.000Z'],
			['success', null, T1],
			['fail', '2026-11-21T12:30:00.000Z', '2026-11-21T12:30:00.000Z'],
			['success', null, T2],
		] as const) {
			const record: IDataObject = {
				id: 'po-9',
				status,
				refundedAt,
				updatedAt,
				completedAt: updatedAt,
			};
			for (const change of payouts.changes(record, previous, '2026-11-21T13:00:00.000Z')) {
				if (change.event === 'payout.recharged') seen.push(change.changeKey);
			}
			previous = payouts.state(record) as string;
		}
		expect(seen).toEqual([
			webhookChangeKey('payout.recharged', body('payout.recharged', 'success', false, T1)),
			webhookChangeKey('payout.recharged', body('payout.recharged', 'success', false, T2)),
		]);
	});

	it('keys come from the values sent, before the gate: Luhn-valid numeric IDs stay apart', async () => {
		const ids = ['2342342342342341', '9000000000000019'];
		const keys = [];
		for (const payoutId of ids) {
			const item = (
				await deliver({
					body: {
						...SAMPLE_EVENTS['payout.status_changed'],
						payoutId,
						status: 'success',
						refunded: false,
					},
				})
			).item;
			expect(item?.payoutId).toBe(payoutId);
			keys.push(item?.changeKey);
		}
		expect(keys[0]).not.toBe(keys[1]);
		expect(keys[0]).toContain(ids[0]);
		const polled = ids.map(
			(id) =>
				payouts.changes(
					{
						id,
						status: 'success',
						completedAt: SAMPLE_EVENTS['payout.status_changed'].completedAt,
						updatedAt: SAMPLE_EVENTS['payout.status_changed'].updatedAt,
					},
					undefined,
					'2026-11-21T13:00:00.000Z',
				)[0].changeKey,
		);
		expect(polled).toEqual(keys);
	});
});

describe('changeKey: each real transition its own key, a retry one (outside read F1, F2)', () => {
	const T0 = '2026-11-28T09:00:00Z';
	const at = (minute: number) => `2026-11-28T09:${String(minute).padStart(2, '0')}:00Z`;
	/** The payout cycle of the outside read: success, refund, recharge, refund again, recharge again. */
	const CYCLE = [
		{ event: 'payout.status_changed', status: 'success', refunded: false, updatedAt: at(0) },
		{ event: 'payout.status_changed', status: 'fail', refunded: true, updatedAt: at(10) },
		{ event: 'payout.recharged', status: 'success', refunded: false, updatedAt: at(20) },
		{ event: 'payout.status_changed', status: 'fail', refunded: true, updatedAt: at(30) },
		{ event: 'payout.recharged', status: 'success', refunded: false, updatedAt: at(40) },
	];
	const webhookBody = (step: (typeof CYCLE)[number]): IDataObject => ({
		...SAMPLE_EVENTS['payout.status_changed'],
		payoutId: 'po_77',
		failReason: step.refunded ? 'dispute_lost' : null,
		completedAt: T0,
		...step,
	});

	it('webhook: five transitions of one payout, five keys; each body delivered again, the same key', async () => {
		const keys = CYCLE.map((step) => webhookChangeKey(step.event, webhookBody(step)));
		expect(new Set(keys).size).toBe(5);
		for (const [index, step] of CYCLE.entries()) {
			const retried = await deliver({ body: webhookBody(step), deliveryId: `retry-${index}` });
			expect(retried.item?.changeKey).toBe(keys[index]);
		}
	});

	it('poll: the same cycle as the Payout record shows it (no updatedAt, refundedAt, completedAt kept), five keys', () => {
		const refundedAts = [null, at(10), null, at(30), null];
		const keys: string[] = [];
		let previous: string | undefined;
		for (const [index, step] of CYCLE.entries()) {
			const record: IDataObject = {
				id: 'po_77',
				status: step.status,
				refundedAt: refundedAts[index],
				completedAt: T0,
				createdAt: '2026-11-28T08:00:00Z',
			};
			const polledAt = at(index * 10 + 5);
			const changes = payouts.changes(record, previous, polledAt);
			keys.push(changes[changes.length - 1].changeKey);
			previous = payouts.state(record) as string;
		}
		expect(new Set(keys).size).toBe(5);
	});

	it('both triggers: the same key where both see the same field (updatedAt first, outside read 2); a record without it keys by its own time: twice, never zero', () => {
		const success = webhookBody(CYCLE[0]);
		const shown = success.updatedAt as string;
		expect(webhookChangeKey('payout.status_changed', success)).toBe(
			payouts.changes(
				{ id: 'po_77', status: 'success', completedAt: T0, updatedAt: shown },
				'in_progress',
				at(2),
			)[0].changeKey,
		);
		// The Payout record as the document shows it (no updatedAt): its completedAt, another key.
		const documented = payouts.changes(
			{ id: 'po_77', status: 'success', completedAt: T0 },
			'in_progress',
			at(2),
		)[0].changeKey;
		expect(documented).toContain(':success:completedAt:');
		expect(documented).not.toBe(webhookChangeKey('payout.status_changed', success));
		const refund = { ...webhookBody(CYCLE[1]), refundedAt: at(9) };
		expect(webhookChangeKey('payout.status_changed', refund)).toBe(
			payouts.changes(
				{
					id: 'po_77',
					status: 'fail',
					refundedAt: at(9),
					completedAt: T0,
					updatedAt: (refund as IDataObject).updatedAt,
				},
				'success',
				at(12),
			)[0].changeKey,
		);
	});

	it('orders: success, disputed, success (confirm), disputed again, failed: five keys on each side; a retried delivery one key', () => {
		const statuses = ['success', 'disputed', 'success', 'disputed', 'failed'];
		const body = (status: string): IDataObject => ({
			...SAMPLE_EVENTS['order.status_changed'],
			orderId: 'o-5',
			status,
			completedAt: T0,
		});
		const webhookKeys = statuses.map((status, index) =>
			webhookChangeKey('order.status_changed', body(status), `dlv-${index}`),
		);
		expect(new Set(webhookKeys).size).toBe(5);
		expect(webhookChangeKey('order.status_changed', body('disputed'), 'dlv-1')).toBe(
			webhookKeys[1],
		);
		const pollKeys = statuses.map(
			(status, index) =>
				orders.changes({ id: 'o-5', status, completedAt: T0 }, undefined, at(index))[0].changeKey,
		);
		expect(new Set(pollKeys).size).toBe(5);
		// An order taken, released back to `created` and taken again (outside read r5-data,
		// finding 5): no side shows a time, so each names what saw the visit. Two deliveries, two
		// keys; a retried delivery one; the two sides differ (a duplicate, never a lost change).
		const plain = (status: string): IDataObject => ({ ...body(status), completedAt: null });
		for (const status of ['created', 'in_progress']) {
			const first = webhookChangeKey('order.status_changed', plain(status), 'dlv-a');
			const second = webhookChangeKey('order.status_changed', plain(status), 'dlv-b');
			expect(first).not.toBe(second);
			expect(webhookChangeKey('order.status_changed', plain(status), 'dlv-a')).toBe(first);
			const polledFirst = orders.changes({ id: 'o-5', status }, undefined, at(1))[0].changeKey;
			const polledSecond = orders.changes({ id: 'o-5', status }, undefined, at(3))[0].changeKey;
			expect(polledFirst).not.toBe(polledSecond);
			expect([first, second]).not.toContain(polledFirst);
		}
	});

	it('disputes: submitted, in_review, submitted, in_review: four keys (outside read r5-data, finding 1)', () => {
		const walk = ['submitted', 'in_review', 'submitted', 'in_review'];
		const byTime = walk.map(
			(status, index) =>
				disputes.changes(
					{ id: 'd-1', status, resolution: null, updatedAt: at(index) },
					undefined,
					at(index),
				)[0].changeKey,
		);
		expect(new Set(byTime).size).toBe(4);
		expect(byTime[1]).toBe(`dispute:company:d-1:in_review:updatedAt:${at(1).replace(/:/g, '%3A')}`);
		// No time shown: the poll that saw each visit.
		const byPoll = walk.map(
			(status, index) =>
				disputes.changes({ id: 'd-1', status, resolution: null }, undefined, at(index))[0]
					.changeKey,
		);
		expect(new Set(byPoll).size).toBe(4);
	});
});
