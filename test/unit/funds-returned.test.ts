import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { fundsReturned } from '../../nodes/CompanyPayments/payout/fundsReturned';
import { payouts } from '../../nodes/CompanyPaymentsPollTrigger/payouts';
import { derivedFields } from '../../nodes/CompanyPaymentsTrigger/events';
import { webhookChangeKey } from '../../nodes/shared/changeKey';

// A payout refunded and then charged again (payout.recharged: back to success) must never read
// as "funds returned" — a finance flow would pay the recipient a second time. Whether the
// service clears refundedAt (or refunded) on the recharge is not shown, so every reader is
// checked under both answers.

const STATUSES = ['pending', 'waiting_trader', 'in_progress', 'success', 'fail'];
const REFUNDED_AT = '2026-11-20T10:00:00.000Z';
const COMPLETED_AT = '2026-11-21T11:00:00.000Z';
const POLLED_AT = '2026-11-21T12:30:00.000Z';

describe('funds returned means returned', () => {
	it('the action node (Get, Get Many, Cancel read fundsReturned): true only with refundedAt set and never for a payout back in success (property)', () => {
		fc.assert(
			fc.property(
				fc.constantFrom(...STATUSES),
				fc.constantFrom(null, REFUNDED_AT, ''),
				(status, refundedAt) => {
					const expected = status !== 'success' && refundedAt === REFUNDED_AT;
					expect(fundsReturned({ id: 'po-1', status, refundedAt })).toBe(expected);
				},
			),
		);
	});

	it('the webhook trigger: payout.recharged is never funds returned, status_changed only with refunded true and not back in success (property)', () => {
		fc.assert(
			fc.property(
				fc.constantFrom('payout.status_changed', 'payout.recharged'),
				fc.constantFrom(...STATUSES),
				fc.boolean(),
				(event, status, refunded) => {
					const body = { event, payoutId: 'po-1', status, refunded };
					const expected = event === 'payout.status_changed' && status !== 'success' && refunded;
					expect(derivedFields(event, body)).toEqual({ fundsReturned: expected });
				},
			),
		);
	});

	it('a recharged payout that still says refunded: true is not funds returned, and its change key matches the poll trigger', () => {
		const body = {
			event: 'payout.status_changed',
			payoutId: 'po-1',
			status: 'success',
			refunded: true,
			completedAt: COMPLETED_AT,
			updatedAt: COMPLETED_AT,
		};
		expect(derivedFields('payout.status_changed', body)).toEqual({ fundsReturned: false });
		// A success is named by its updatedAt where both the body and the record show it (a
		// recharge may keep completedAt, so the webhook never names a visit by it: outside read 2).
		expect(webhookChangeKey('payout.status_changed', body)).toBe(
			payouts.changes(
				{
					id: 'po-1',
					status: 'success',
					refundedAt: REFUNDED_AT,
					completedAt: COMPLETED_AT,
					updatedAt: COMPLETED_AT,
				},
				undefined,
				POLLED_AT,
			)[0].changeKey,
		);
	});

	for (const clearsRefundedAt of [true, false]) {
		it(`the poll trigger, when the service ${clearsRefundedAt ? 'clears' : 'keeps'} refundedAt on a recharge: funds not returned, and the recharge emitted as its own change`, () => {
			const refunded: IDataObject = { id: 'po-1', status: 'fail', refundedAt: REFUNDED_AT };
			const previous = payouts.state(refunded) as string;
			expect(payouts.changes(refunded, undefined, POLLED_AT)[0].fields.fundsReturned).toBe(true);

			const recharged: IDataObject = {
				id: 'po-1',
				status: 'success',
				refundedAt: clearsRefundedAt ? null : REFUNDED_AT,
			};
			const changes = payouts.changes(recharged, previous, POLLED_AT);
			expect(changes.map((change) => change.event)).toEqual([
				'payout.status_changed',
				'payout.recharged',
			]);
			for (const change of changes) expect(change.fields.fundsReturned).toBe(false);
			// Seen again at the next poll: nothing new.
			expect(payouts.state(recharged)).not.toBe(previous);
		});
	}
});
