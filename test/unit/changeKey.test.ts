import {
	cardKeyId,
	changeKey,
	disputeState,
	normaliseDepositStatus,
	payoutState,
	webhookChangeKey,
} from '../../nodes/shared/changeKey';

describe('changeKey: one name per state change, whichever trigger saw it', () => {
	it('orders: id and status', () => {
		expect(webhookChangeKey('order.status_changed', { orderId: 'o1', status: 'success' })).toBe(
			changeKey('order', 'o1', 'success'),
		);
		expect(changeKey('order', 'o1', 'success')).toBe('order:o1:success');
	});

	it('deposits: legacy statuses give the same key as their current form', () => {
		expect(normaliseDepositStatus('aml_fail')).toBe('aml_failed');
		expect(normaliseDepositStatus('aml_pass')).toBe('aml_passed');
		expect(normaliseDepositStatus('completed')).toBe('completed');
		expect(webhookChangeKey('deposit.aml_failed', { depositId: 'd1', status: 'aml_fail' })).toBe(
			'deposit:d1:aml_failed',
		);
	});

	it('payouts: a refund is its own change, a recharge too', () => {
		expect(
			webhookChangeKey('payout.status_changed', {
				payoutId: 'p1',
				status: 'fail',
				refunded: false,
			}),
		).toBe('payout:p1:fail');
		expect(
			webhookChangeKey('payout.status_changed', { payoutId: 'p1', status: 'fail', refunded: true }),
		).toBe(changeKey('payout', 'p1', payoutState('fail', true)));
		expect(payoutState('fail', true)).toBe('fail+refunded');
		expect(webhookChangeKey('payout.recharged', { payoutId: 'p1', status: 'success' })).toBe(
			'payout:p1:recharged',
		);
	});

	it('cards: the externalId the webhook carries, else the card id', () => {
		expect(cardKeyId('emp-7', 'c1')).toBe('ext.emp-7');
		expect(cardKeyId(null, 'c1')).toBe('c1');
		expect(webhookChangeKey('card.assigned', { externalId: 'emp-7' })).toBe(
			'card:ext.emp-7:assigned',
		);
		expect(webhookChangeKey('card.assigned', { cardId: 'c1', externalId: null })).toBe(
			'card:c1:assigned',
		);
	});

	it('disputes: status, and the resolution once set', () => {
		expect(disputeState('in_review', null)).toBe('in_review');
		expect(disputeState('resolved', 'partial_refund')).toBe('resolved+partial_refund');
	});

	it('no key for unknown events or bodies without the id or status', () => {
		expect(webhookChangeKey('something.new', { id: 'x', status: 'y' })).toBeNull();
		expect(webhookChangeKey(null, {})).toBeNull();
		expect(webhookChangeKey('order.status_changed', { status: 'success' })).toBeNull();
		expect(webhookChangeKey('deposit.created', { depositId: 'd1' })).toBeNull();
	});
});
