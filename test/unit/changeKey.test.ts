import type { IDataObject } from 'n8n-workflow';

import { cards } from '../../nodes/CompanyPaymentsPollTrigger/cards';
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
	list: { changes(record: IDataObject, previous?: string): Array<{ changeKey: string }> },
	record: IDataObject,
): string {
	return list.changes(record, undefined)[0].changeKey;
}

describe('changeKey: one name per state change, whichever trigger saw it', () => {
	it('orders: company scope, id and status', () => {
		expect(webhookChangeKey('order.status_changed', { orderId: 'o1', status: 'success' })).toBe(
			'order:company:o1:success',
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
		expect(pollKey(userDeposits, { id: 'd1', status: 'completed', externalId: 'user-1001' })).toBe(
			webhookChangeKey('deposit.completed', body),
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

	it('cards: the externalId the webhook carries, else the card id, each under its own marker', () => {
		expect(cardKeyParts('emp-7', 'c1')).toEqual(['ext', 'emp-7']);
		expect(cardKeyParts(null, 'c1')).toEqual(['id', 'c1']);
		expect(webhookChangeKey('card.assigned', { externalId: 'emp-7' })).toBe(
			'card:company:ext:emp-7:assigned',
		);
		expect(webhookChangeKey('card.assigned', { cardId: 'c1', externalId: null })).toBe(
			'card:company:id:c1:assigned',
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
			`payout:company:po-9:success:recharged:${T1.replace(/:/g, '%3A')}`,
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
			for (const change of payouts.changes(record, previous)) {
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
			(id) => payouts.changes({ id, status: 'success' }, undefined)[0].changeKey,
		);
		expect(polled).toEqual(keys);
	});
});
