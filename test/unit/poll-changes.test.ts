import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { webhookChangeKey } from '../../nodes/shared/changeKey';
import { payouts } from '../../nodes/CompanyPaymentsPollTrigger/payouts';
import { daysAgo, FakeService, id, NOW, payout, roundTrip, runPoll } from './helpers/poll';

let service: FakeService;
beforeEach(() => {
	nock.disableNetConnect();
	service = new FakeService();
});
afterEach(() => {
	nock.cleanAll();
	nock.enableNetConnect();
});

/** Polls once to take the baseline, then returns a function that polls again with the same state. */
async function baseline(parameters: IDataObject) {
	const first = await runPoll({ parameters });
	expect(first.items).toBeNull();
	let staticData = first.staticData;
	return async (now?: number) => {
		const run = await runPoll({ parameters, staticData: roundTrip(staticData), now });
		staticData = run.staticData;
		return run.items;
	};
}

/** A time as it stands in a change key (`:` escaped, shared/identity.ts). */
function keyPart(value: unknown): string {
	return String(value).replace(/:/g, '%3A');
}

describe('payouts', () => {
	it('emits a status change, then the refund once refundedAt is set, with the webhook changeKey', async () => {
		const record = service.add('payouts', payout({ externalId: 'salary-42' }));
		const poll = await baseline({ watch: ['payouts'] });

		record.status = 'fail';
		record.failReason = 'no_traders';
		const failed = await poll();
		expect(failed).toHaveLength(1);
		expect(failed![0]).toMatchObject({
			event: 'payout.status_changed',
			source: 'poll',
			payoutId: record.id,
			externalId: 'salary-42',
			status: 'fail',
			refunded: false,
			fundsReturned: false,
			previousState: 'waiting_trader',
		});
		// A fail can repeat (after a recharge) and the record tells no repeat: the poll names it.
		expect(failed![0].changeKey).toBe(
			`payout:company:${record.id}:fail:polled:${keyPart(failed![0].receivedAt)}`,
		);

		record.refundedAt = daysAgo(0);
		const refunded = await poll();
		expect(refunded).toHaveLength(1);
		expect(refunded![0]).toMatchObject({ status: 'fail', refunded: true, fundsReturned: true });
		// The poll names the refund by its refundedAt, which moved since its last poll. The webhook
		// names a visit by updatedAt only, never by a time the service may keep from a first visit
		// (contract/visits.ts KEPT_TIMES): its key differs, so a workflow fed by both triggers gets
		// the refund twice, never zero times (docs/assumptions.md). Where the record shows
		// updatedAt too (choice repeatTransitions: sharedTimes), both agree (changeKey.test.ts).
		expect(refunded![0].changeKey).toBe(
			`payout:company:${record.id}:fail:refunded:refundedAt:${keyPart(record.refundedAt)}`,
		);
		const webhookBody = { payoutId: record.id, status: 'fail', refunded: true };
		for (const extra of [{ refundedAt: record.refundedAt }, { updatedAt: record.refundedAt }]) {
			expect(refunded![0].changeKey).not.toBe(
				webhookChangeKey('payout.status_changed', { ...webhookBody, ...extra }, 'dlv-1'),
			);
		}

		expect(await poll()).toBeNull();
	});

	it('announces a recharge after a refund as payout.recharged, like the webhook', async () => {
		const record = service.add(
			'payouts',
			payout({ status: 'fail', refundedAt: daysAgo(0.5), failReason: 'other' }),
		);
		const poll = await baseline({ watch: ['payouts'] });
		record.status = 'success';
		record.refundedAt = null;
		const items = await poll();
		expect(items!.map((item) => item.event)).toEqual(['payout.status_changed', 'payout.recharged']);
		// The Payout record shows no updatedAt: the poll that saw the recharge names it.
		expect(items![1].changeKey).toBe(
			`payout:company:${record.id}:success:recharged:polled:${keyPart(items![1].receivedAt)}`,
		);
		// A record that shows updatedAt gets the webhook's key.
		expect(
			payouts.changes({ ...record, updatedAt: '2026-11-21T12:00:00.000Z' }, 'fail+refunded', 'x')[1]
				.changeKey,
		).toBe(
			webhookChangeKey('payout.recharged', {
				payoutId: record.id,
				status: 'success',
				updatedAt: '2026-11-21T12:00:00.000Z',
			}),
		);
	});

	it('emits a payout created after the baseline, and passes the externalId filter to the list', async () => {
		const poll = await baseline({ watch: ['payouts'], payoutFilters: { externalId: 'x-1' } });
		const created = service.add('payouts', payout({ externalId: 'x-1' }));
		service.add('payouts', payout({ externalId: 'other' }));
		const items = await poll();
		expect(items!.map((item) => item.payoutId)).toEqual([created.id]);
		// Every list call (the profile, read for the company's ID, takes no filter).
		const lists = service.calls.filter((call) => call.path !== '/auth/company/profile');
		expect(lists.every((call) => call.query.get('externalId') === 'x-1')).toBe(true);
	});
});

describe('orders', () => {
	it('emits order.status_changed with the webhook fields and key', async () => {
		const order = service.add('orders', {
			id: id('o'),
			status: 'created',
			amountUsdt: 25,
			amountRub: 2500,
			completedAt: null,
			failureReason: null,
			createdAt: daysAgo(2),
		});
		const poll = await baseline({ watch: ['orders'] });
		order.status = 'success';
		const [item] = (await poll())!;
		expect(item).toMatchObject({
			event: 'order.status_changed',
			orderId: order.id,
			status: 'success',
			amountUsdt: 25,
			walletOrderId: null,
		});
		// A success can repeat (confirmed after a dispute) and neither side shows a field that
		// tells: each trigger names what saw it, the poll its time.
		expect(item.changeKey).toBe(
			`order:company:${order.id}:success:polled:${keyPart(item.receivedAt)}`,
		);
		// Every state of an order may come back (taken, released, taken again: outside read
		// r5-data, finding 5): without a time the poll names itself, as the webhook its delivery.
		order.status = 'in_progress';
		const [again] = (await poll())!;
		expect(again.changeKey).toBe(
			`order:company:${order.id}:in_progress:polled:${keyPart(again.receivedAt)}`,
		);
		expect(again.changeKey).not.toBe(
			webhookChangeKey(
				'order.status_changed',
				{ orderId: order.id, status: 'in_progress' },
				'dlv-1',
			),
		);
	});
});

describe('deposits', () => {
	it('names company deposit changes after their webhook event, and normalises legacy statuses', async () => {
		const deposit = service.add('deposits', {
			id: id('d'),
			txHash: 'tx1',
			amount: 100,
			status: 'aml_pending',
			createdAt: daysAgo(1),
			// The document's deposit record shows updatedAt; the webhook bodies of
			// deposit.created and deposit.completed too, so both triggers give one key.
			updatedAt: daysAgo(1),
		});
		const poll = await baseline({ watch: ['companyDeposits'] });
		deposit.status = 'aml_pass';
		deposit.updatedAt = daysAgo(0.5);
		const [passed] = (await poll())!;
		expect(passed).toMatchObject({
			event: 'deposit.status_changed',
			status: 'aml_pass',
			normalisedStatus: 'aml_passed',
			changeKey: `deposit:company:${deposit.id}:aml_passed:updatedAt:${keyPart(deposit.updatedAt)}`,
			walletType: 'company',
			externalId: null,
		});
		// aml_pass → aml_passed is the same state written two ways: no change.
		deposit.status = 'aml_passed';
		expect(await poll()).toBeNull();
		deposit.status = 'completed';
		deposit.updatedAt = daysAgo(0.2);
		const [completed] = (await poll())!;
		expect(completed.event).toBe('deposit.completed');
		expect(completed.changeKey).toBe(
			webhookChangeKey(
				'deposit.completed',
				{ depositId: deposit.id, status: 'completed', updatedAt: deposit.updatedAt },
				'delivery-1',
			),
		);
	});

	it('marks user-wallet deposits with their externalId, and a legacy aml_fail as deposit.aml_failed', async () => {
		const poll = await baseline({ watch: ['userDeposits'] });
		const deposit = service.add('userDeposits', {
			id: id('u'),
			externalId: 'user-1001',
			walletId: 'w1',
			amount: 75,
			status: 'aml_fail',
			createdAt: daysAgo(0.1),
		});
		const [item] = (await poll())!;
		// Neither the record here nor deposit.aml_failed shows updatedAt: each side names what saw
		// the change (outside read r7-data, finding 2), a duplicate across triggers, never a loss.
		expect(item).toMatchObject({
			event: 'deposit.aml_failed',
			externalId: 'user-1001',
			walletType: 'user',
			depositId: deposit.id,
		});
		expect(item.changeKey).toBe(
			`deposit:user-wallet/user-1001:${deposit.id}:aml_failed:polled:${keyPart(item.receivedAt)}`,
		);
		expect(item.changeKey).not.toBe(
			webhookChangeKey(
				'deposit.aml_failed',
				{ depositId: deposit.id, status: 'aml_failed', externalId: 'user-1001' },
				'delivery-1',
			),
		);
	});
});

describe('cards', () => {
	it('emits card.assigned when a requested card is assigned, keyed like the webhook', async () => {
		const card = service.add('cards', {
			id: id('c'),
			externalId: 'employee-7',
			status: 'requested',
			maskedPan: null,
			createdAt: daysAgo(1),
		});
		const poll = await baseline({ watch: ['cards'] });
		card.status = 'assigned';
		card.maskedPan = '4111 **** **** 1111';
		card.updatedAt = '2026-11-21T10:00:00.000Z';
		const [item] = (await poll())!;
		expect(item).toMatchObject({
			event: 'card.assigned',
			cardId: card.id,
			externalId: 'employee-7',
		});
		// A delivery that shows the card's id and time gets the same key.
		expect(item.changeKey).toBe(
			webhookChangeKey('card.assigned', {
				externalId: 'employee-7',
				cardId: card.id,
				updatedAt: card.updatedAt,
			}),
		);
		card.status = 'closing';
		card.updatedAt = '2026-11-21T11:00:00.000Z';
		expect((await poll())![0]).toMatchObject({
			event: 'card.status_changed',
			changeKey: `card:company:ext:employee-7:id:${String(card.id)}:closing:updatedAt:2026-11-21T11%3A00%3A00.000Z`,
		});
		// Assigned again (a closure declined, outside read r8-data, finding 4): a key of its own.
		card.status = 'assigned';
		card.updatedAt = '2026-11-21T12:00:00.000Z';
		const [again] = (await poll())!;
		expect(again.event).toBe('card.assigned');
		expect(again.changeKey).not.toBe(item.changeKey);
	});
});

describe('disputes', () => {
	it('emits the resolution of a dispute (status alone says only that it was looked at)', async () => {
		const dispute = service.add('disputes', {
			id: id('s'),
			orderId: 'o-1',
			status: 'in_review',
			resolution: null,
			refundAmount: null,
			createdAt: daysAgo(3),
		});
		const poll = await baseline({ watch: ['disputes'] });
		dispute.status = 'resolved';
		dispute.resolution = 'partial_refund';
		dispute.refundAmount = 12.5;
		const [item] = (await poll())!;
		expect(item).toMatchObject({
			event: 'dispute.status_changed',
			disputeId: dispute.id,
			status: 'resolved',
			resolution: 'partial_refund',
			refundAmount: 12.5,
			previousState: 'in_review',
			// No time shown on the record: the poll that saw the change (outside read r5-data, finding 1).
			changeKey: `dispute:company:${dispute.id}:resolved:partial_refund:polled:${keyPart(item.receivedAt)}`,
		});
	});

	it('emits only changes into the chosen statuses, and still remembers the others', async () => {
		const dispute = service.add('disputes', {
			id: id('s'),
			status: 'submitted',
			createdAt: daysAgo(1),
		});
		const poll = await baseline({
			watch: ['disputes'],
			disputeFilters: { statuses: ['resolved'] },
		});
		dispute.status = 'in_review';
		expect(await poll()).toBeNull();
		dispute.status = 'resolved';
		dispute.resolution = 'confirm';
		expect((await poll())!.map((item) => item.status)).toEqual(['resolved']);
	});
});

describe('company balance', () => {
	it('emits once per crossing below the threshold', async () => {
		service.balance = { usdtBalance: 150, frozenBalance: 5 };
		const poll = await baseline({ watch: ['balance'], balanceThreshold: 100 });
		service.balance = { usdtBalance: '99.50', frozenBalance: 5 };
		const [crossed] = (await poll())!;
		expect(crossed).toMatchObject({
			event: 'balance.below_threshold',
			// As written, the action node's Get Balance form (outside read 2, finding 7).
			usdtBalance: '99.50',
			threshold: 100,
			frozenBalance: 5,
		});
		service.balance = { usdtBalance: 20 };
		expect(await poll()).toBeNull();
		service.balance = { usdtBalance: 100 };
		expect(await poll()).toBeNull();
		service.balance = { usdtBalance: 10 };
		const [again] = (await poll(NOW + 60_000))!;
		expect(again.event).toBe('balance.below_threshold');
		expect(again.changeKey).not.toBe(crossed.changeKey);
	});
});
