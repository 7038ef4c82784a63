// Issue 50, item 4: one change key per real transition. A payout taken, released and taken again
// enters waiting_trader and in_progress twice; each entry is its own change, a retried delivery
// of one entry the same change, and the entry into the state a payout was created in one change
// for both triggers.
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { payouts } from '../../nodes/CompanyPaymentsPollTrigger/payouts';
import { webhookChangeKey } from '../../nodes/shared/changeKey';

const STATES = ['pending', 'waiting_trader', 'in_progress', 'success', 'fail'] as const;
const CREATED = '2026-11-21T12:00:00.000Z';

function at(step: number): string {
	return new Date(Date.parse(CREATED) + (step + 1) * 60_000).toISOString();
}

/** The webhook body of entering `status` at `step`, with or without the fields that tell visits. */
function body(status: string, step: number, withTime: boolean): IDataObject {
	return {
		payoutId: 'po_1',
		status,
		createdAt: CREATED,
		...(status === 'success' ? { completedAt: at(step) } : {}),
		...(withTime ? { updatedAt: at(step) } : {}),
	};
}

/** The Payout record after entering `status` at `step` (no updatedAt: the document shows none). */
function record(status: string, step: number): IDataObject {
	return {
		id: 'po_1',
		status,
		createdAt: CREATED,
		takenAt: status === 'in_progress' || status === 'success' ? at(step) : null,
		completedAt: status === 'success' ? at(step) : null,
		refundedAt: null,
	};
}

function pollKeys(walk: string[]): string[] {
	let previous: string | undefined;
	return walk.map((status, step) => {
		const seen = record(status, step);
		const [change] = payouts.changes(seen, previous, at(step));
		previous = payouts.state(seen) ?? undefined;
		return change.changeKey;
	});
}

describe('a payout taken, released and taken again', () => {
	const walk = ['waiting_trader', 'in_progress', 'waiting_trader', 'in_progress', 'success'];

	it.each([true, false])(
		'webhook (updatedAt shown: %s): five entries, five keys; a retry the same key',
		(withTime) => {
			const keys = walk.map((status, step) =>
				webhookChangeKey('payout.status_changed', body(status, step, withTime), `dlv-${step}`),
			);
			expect(new Set(keys).size).toBe(walk.length);
			// A retried delivery of the second in_progress: same body, same delivery ID, same key.
			expect(
				webhookChangeKey('payout.status_changed', body('in_progress', 3, withTime), 'dlv-3'),
			).toBe(keys[3]);
		},
	);

	it('poll: one poll per entry, five keys', () => {
		expect(new Set(pollKeys(walk)).size).toBe(walk.length);
	});

	it('the entry into the state it was created in: one key for both triggers', () => {
		const created = {
			payoutId: 'po_1',
			status: 'waiting_trader',
			createdAt: CREATED,
			updatedAt: CREATED,
		};
		const fromWebhook = webhookChangeKey('payout.status_changed', created, 'dlv-0');
		const [fromPoll] = payouts.changes(record('waiting_trader', 0), undefined, at(0));
		expect(fromWebhook).toBe('payout:company:po_1:waiting_trader');
		expect(fromPoll.changeKey).toBe(fromWebhook);
		// Released back to waiting_trader later: another change on both sides.
		const released = { ...created, updatedAt: at(2) };
		expect(webhookChangeKey('payout.status_changed', released, 'dlv-2')).not.toBe(fromWebhook);
		const [again] = payouts.changes(record('waiting_trader', 2), 'in_progress', at(2));
		expect(again.changeKey).not.toBe(fromWebhook);
	});
});

/** A walk that enters each payout state at least twice, never a state right after itself. */
const walks = fc
	.array(fc.constantFrom(...STATES), { minLength: 10, maxLength: 30 })
	.map((drawn) =>
		[...STATES, ...STATES, ...drawn].filter((s, i, all) => i === 0 || s !== all[i - 1]),
	)
	.filter((walk) => STATES.every((state) => walk.filter((s) => s === state).length >= 2));

describe('a generated walk over every payout state, each entered more than once', () => {
	it('webhook: as many keys as entries, with or without updatedAt', () => {
		fc.assert(
			fc.property(walks, fc.boolean(), (walk, withTime) => {
				const keys = walk.map((status, step) =>
					webhookChangeKey('payout.status_changed', body(status, step, withTime), `dlv-${step}`),
				);
				return new Set(keys).size === walk.length;
			}),
			{ numRuns: 300 },
		);
	});

	it('poll: as many keys as entries', () => {
		fc.assert(
			fc.property(walks, (walk) => new Set(pollKeys(walk)).size === walk.length),
			{ numRuns: 300 },
		);
	});
});

// Outside read r7-data, finding 2: a deposit that fails AML, is checked again and fails again
// enters aml_failed twice; the deposit.aml_failed body shows no updatedAt, so each visit is told
// by the delivery that brought it (as orders are), never collapsed into one key.
describe('a deposit that fails AML twice', () => {
	const aml = (check: string, externalId?: string): IDataObject => ({
		depositId: 'dep-1',
		txHash: 'tx1',
		amount: 50,
		status: 'aml_failed',
		amlCheckId: check,
		amlResult: 'high risk',
		createdAt: CREATED,
		...(externalId ? { externalId } : {}),
	});

	it.each([undefined, 'u-1'])('webhook: two deliveries, two keys (externalId %s)', (ext) => {
		const first = webhookChangeKey('deposit.aml_failed', aml('aml-1', ext), 'del-1');
		const second = webhookChangeKey('deposit.aml_failed', aml('aml-2', ext), 'del-2');
		const retry = webhookChangeKey('deposit.aml_failed', aml('aml-1', ext), 'del-1');
		expect(first).not.toBe(second);
		expect(retry).toBe(first);
	});

	it('webhook: a body that shows updatedAt is told by it, whatever the delivery', () => {
		const withTime = { ...aml('aml-1'), updatedAt: at(3) };
		expect(webhookChangeKey('deposit.aml_failed', withTime, 'del-1')).toBe(
			webhookChangeKey('deposit.aml_failed', withTime, 'del-9'),
		);
	});

	it('poll: a deposit record without updatedAt is told by the poll that saw it', async () => {
		const { companyDeposits } = await import('../../nodes/CompanyPaymentsPollTrigger/deposits');
		const record = { id: 'dep-1', status: 'aml_failed', createdAt: CREATED };
		const [first] = companyDeposits.changes(record, 'aml_pending', at(1));
		const [second] = companyDeposits.changes(record, 'aml_pending', at(3));
		expect(first.changeKey).not.toBe(second.changeKey);
	});
});
