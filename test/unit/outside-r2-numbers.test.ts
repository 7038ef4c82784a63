import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { derivedFields } from '../../nodes/CompanyPaymentsTrigger/events';
import { ABSENT_POLLS_REMEMBERED } from '../../nodes/CompanyPaymentsPollTrigger/state';
import { webhookChangeKey } from '../../nodes/shared/changeKey';
import { compareDecimal, sameDecimal } from '../../nodes/shared/decimal';
import { parseJsonLossless } from '../../nodes/shared/transport/json';
import { FakeService, NOW, payout, roundTrip, runPoll } from './helpers/poll';

/*
 * The second outside read of "data exact to the digit, each real change emitted exactly once"
 * (findings 1–10): a state visited twice is two changes, webhook and poll disagreeing gives twice,
 * never zero; numbers and identifiers as the service wrote them.
 */

let service: FakeService;
beforeEach(() => {
	nock.disableNetConnect();
	service = new FakeService();
});
afterEach(() => {
	nock.cleanAll();
	nock.enableNetConnect();
});

/** Minutes after an hour before NOW, as a record time. */
function t(minutes: number): string {
	return new Date(NOW - 3_600_000 + minutes * 60_000).toISOString();
}

/** A chain of polls over one static data; each call polls once and returns the items. */
function chain(parameters: IDataObject) {
	let staticData: IDataObject = {};
	let polls = 0;
	return async () => {
		const run = await runPoll({
			parameters,
			staticData: roundTrip(staticData),
			now: NOW + polls++,
		});
		staticData = run.staticData;
		return run.items ?? [];
	};
}

describe('finding 1: a payout taken, released and taken again between two polls', () => {
	it('is a change: the same status with takenAt and updatedAt moved', async () => {
		const record = service.add('payouts', payout({ updatedAt: t(0), createdAt: t(0) }));
		const poll = chain({ watch: ['payouts'] });
		expect(await poll()).toEqual([]);
		Object.assign(record, { status: 'in_progress', takenAt: t(1), updatedAt: t(1) });
		const first = await poll();
		expect(first).toHaveLength(1);
		Object.assign(record, { takenAt: t(5), updatedAt: t(5) });
		const again = await poll();
		expect(again).toHaveLength(1);
		expect(again[0]).toMatchObject({ status: 'in_progress', previousState: 'in_progress' });
		expect(again[0].changeKey).not.toBe(first[0].changeKey);
		// Nothing moved: no change.
		expect(await poll()).toEqual([]);
	});
});

describe('finding 2: refunded and charged again between two polls', () => {
	it('emits the new success and a payout.recharged, as the webhook would', async () => {
		const record = service.add(
			'payouts',
			payout({ status: 'in_progress', takenAt: t(1), updatedAt: t(1), createdAt: t(0) }),
		);
		const poll = chain({ watch: ['payouts'] });
		await poll();
		Object.assign(record, { status: 'success', completedAt: t(2), updatedAt: t(2) });
		expect(await poll()).toHaveLength(1);
		Object.assign(record, { refundedAt: t(4), completedAt: t(6), updatedAt: t(6) });
		const items = await poll();
		expect(items.map((item) => item.event)).toEqual(['payout.status_changed', 'payout.recharged']);
		expect(items[1]).toMatchObject({ fundsReturned: false, status: 'success' });
		// The webhook's payout.recharged body of that recharge gives the same key.
		expect(items[1].changeKey).toBe(
			webhookChangeKey('payout.recharged', {
				payoutId: record.id,
				status: 'success',
				updatedAt: t(6),
			} as IDataObject),
		);
	});
});

describe('finding 3: an order success, disputed and confirmed again between two polls', () => {
	it('is a change when updatedAt moved', async () => {
		const order: IDataObject = {
			id: '33333333-3333-3333-3333-333333333333',
			amountUsdt: 1,
			amountRub: 80,
			status: 'in_progress',
			createdAt: t(0),
			updatedAt: t(1),
		};
		service.add('orders', order);
		const poll = chain({ watch: ['orders'] });
		await poll();
		Object.assign(order, { status: 'success', updatedAt: t(2) });
		const first = await poll();
		expect(first).toHaveLength(1);
		order.updatedAt = t(6);
		const again = await poll();
		expect(again).toHaveLength(1);
		expect(again[0].changeKey).not.toBe(first[0].changeKey);
	});
});

describe('finding 4: two visits to one state never share a key', () => {
	it('webhook: success, refunded, success again with completedAt kept', () => {
		const body = (status: string, updatedAt: string, refunded = false): IDataObject => ({
			payoutId: 'p-77',
			status,
			refunded,
			completedAt: '2026-11-28T10:04:00Z',
			updatedAt,
		});
		const first = webhookChangeKey(
			'payout.status_changed',
			body('success', '2026-11-28T10:04:00Z'),
		);
		const again = webhookChangeKey(
			'payout.status_changed',
			body('success', '2026-11-28T10:08:00Z'),
		);
		expect(first).not.toBe(again);
	});

	it('poll: taken, released, taken again with the first takenAt kept and no updatedAt shown', async () => {
		const record = service.add('payouts', payout({ createdAt: t(0) }));
		const poll = chain({ watch: ['payouts'] });
		await poll();
		Object.assign(record, { status: 'in_progress', takenAt: t(1) });
		const first = await poll();
		Object.assign(record, { status: 'waiting_trader' });
		expect(await poll()).toHaveLength(1);
		Object.assign(record, { status: 'in_progress' });
		const again = await poll();
		expect(first).toHaveLength(1);
		expect(again).toHaveLength(1);
		expect(again[0].changeKey).not.toBe(first[0].changeKey);
	});
});

describe('finding 4: the key of a visit agrees across triggers where both show updatedAt', () => {
	it('a re-take seen by the poll and by the webhook: one key (updatedAt before takenAt)', async () => {
		const record = service.add('payouts', payout({ createdAt: t(0), updatedAt: t(0) }));
		const poll = chain({ watch: ['payouts'] });
		await poll();
		Object.assign(record, { status: 'in_progress', takenAt: t(1), updatedAt: t(1) });
		const [item] = await poll();
		expect(item.changeKey).toBe(
			webhookChangeKey(
				'payout.status_changed',
				{ payoutId: record.id, status: 'in_progress', refunded: false, updatedAt: t(1) },
				'dlv-7',
			),
		);
	});
});

describe('finding 5: a deposit visiting a state twice', () => {
	it('sweeping, failed, sweeping again: two keys, on both triggers alike', async () => {
		const deposit: IDataObject = {
			id: 'dep-1',
			externalId: 'user-1',
			walletAddress: 'T1',
			txHash: 'ab',
			amount: 50,
			status: 'aml_passed',
			createdAt: t(0),
			updatedAt: t(1),
		};
		service.add('userDeposits', deposit);
		const poll = chain({ watch: ['userDeposits'] });
		await poll();
		const keys: string[] = [];
		for (const [status, minute] of [
			['sweeping', 2],
			['failed', 3],
			['sweeping', 4],
		] as const) {
			Object.assign(deposit, { status, updatedAt: t(minute) });
			const items = await poll();
			expect(items).toHaveLength(1);
			keys.push(items[0].changeKey as string);
		}
		expect(keys[0]).not.toBe(keys[2]);
		expect(keys[2]).toBe(
			webhookChangeKey('deposit.created', {
				depositId: 'dep-1',
				externalId: 'user-1',
				status: 'sweeping',
				updatedAt: t(4),
			} as IDataObject),
		);
	});
});

describe('finding 6: a listing that leaves a record out once', () => {
	it('does not make the record new when it comes back unchanged; a long absence is forgotten', async () => {
		const record = service.add('payouts', payout({ createdAt: t(0), updatedAt: t(0) }));
		service.add('payouts', payout({ createdAt: t(0), updatedAt: t(0) }));
		const poll = chain({ watch: ['payouts'] });
		await poll();
		Object.assign(record, { status: 'in_progress', takenAt: t(1), updatedAt: t(1) });
		expect(await poll()).toHaveLength(1);
		const kept = [...service.lists.payouts];
		service.lists.payouts = kept.filter((entry) => entry !== record);
		expect(await poll()).toEqual([]);
		service.lists.payouts = kept;
		expect(await poll()).toEqual([]);
		// Left out longer than the bound: forgotten, so the state stays bounded.
		service.lists.payouts = kept.filter((entry) => entry !== record);
		for (let i = 0; i <= ABSENT_POLLS_REMEMBERED; i++) expect(await poll()).toEqual([]);
		service.lists.payouts = kept;
		expect((await poll()).map((item) => item.payoutId)).toEqual([record.id]);
	});
});

describe('finding 7: the balance compared on its written digits', () => {
	async function crossing(first: string, second: string, threshold: number) {
		const poll = chain({ watch: ['balance'], balanceThreshold: threshold });
		service.failing.set('/wallets/balance', { status: 200, body: first as unknown as IDataObject });
		expect(await poll()).toEqual([]);
		service.failing.set('/wallets/balance', {
			status: 200,
			body: second as unknown as IDataObject,
		});
		return await poll();
	}

	it('99.99999999999999999 is below 100, written as a number or as text, and kept as written', async () => {
		for (const written of ['99.99999999999999999', '"99.99999999999999999"']) {
			const items = await crossing(
				'{"usdtBalance":150.5,"frozenBalance":0}',
				`{"usdtBalance":${written},"frozenBalance":0}`,
				100,
			);
			expect(items).toHaveLength(1);
			expect(items[0].usdtBalance).toBe('99.99999999999999999');
		}
	});

	it('keeps 12345678901.123456789 as written', async () => {
		const items = await crossing(
			'{"usdtBalance":30000000000,"frozenBalance":0}',
			'{"usdtBalance":12345678901.123456789,"frozenBalance":0.10}',
			20_000_000_000,
		);
		expect(items[0]).toMatchObject({ usdtBalance: '12345678901.123456789', frozenBalance: 0.1 });
	});

	it('compareDecimal orders texts without a double', () => {
		expect(compareDecimal('99.99999999999999999', '100')).toBe(-1);
		expect(compareDecimal('100.000000000000000001', '100')).toBe(1);
		expect(compareDecimal('100.50', '1.005e2')).toBe(0);
		expect(compareDecimal('-0.1', '0')).toBe(-1);
		expect(compareDecimal('-0', '0')).toBe(0);
		expect(compareDecimal('-2', '-10')).toBe(1);
		expect(compareDecimal('0.00000012', '1.2e-7')).toBe(0);
		expect(sameDecimal('1000.50', '1000.5')).toBe(true);
		expect(() => compareDecimal('abc', '1')).toThrow('not a decimal');
	});
});

describe('finding 8: identifiers from the written text on every path', () => {
	it('keeps a short decimal identifier as written, whatever the other numbers of the body', () => {
		const fast = parseJsonLossless('{"depositId":0.00000012,"externalId":0.0000005,"amount":5}');
		const slow = parseJsonLossless(
			'{"depositId":0.00000012,"externalId":0.0000005,"amount":12345678901234567890}',
		);
		expect(fast).toMatchObject({ depositId: '0.00000012', externalId: '0.0000005', amount: 5 });
		expect(slow).toMatchObject({ depositId: '0.00000012', externalId: '0.0000005' });
		expect(parseJsonLossless('{"id":1e2,"items":[{"orderId":100.0}]}')).toEqual({
			id: '1e2',
			items: [{ orderId: '100.0' }],
		});
	});

	it('keys a deposit by its ID as written', () => {
		const body = parseJsonLossless(
			'{"depositId":0.00000012,"status":"new","updatedAt":"2026-11-28T10:00:00Z"}',
		) as IDataObject;
		expect(webhookChangeKey('deposit.created', body)).toContain(':0.00000012:new');
	});
});

describe('finding 9: one JSON type rule for amounts', () => {
	it('a number when a double gives back its written value (trailing zeros are no value), else the text', () => {
		const texts = ['1000.50', '0.10', '1e-7', '12.25', '9007199254740993', '12345678901.123456789'];
		for (const text of texts) {
			// The fast path (no long number in the body) and the parser (one long number beside it).
			const fast = (parseJsonLossless(`{"amountRub":${text}}`) as IDataObject).amountRub;
			const slow = (
				parseJsonLossless(`{"amountRub":${text},"x":123456789012345678901}`) as IDataObject
			).amountRub;
			expect(slow).toEqual(fast);
			if (typeof fast === 'number') expect(sameDecimal(String(fast), text)).toBe(true);
			else expect(fast).toBe(text);
		}
		expect(parseJsonLossless('{"a":1000.50,"b":9007199254740993,"c":12.10}')).toEqual({
			a: 1000.5,
			b: '9007199254740993',
			c: 12.1,
		});
	});
});

describe('finding 10: a refunded flag that is no boolean', () => {
	it('is unknown with a note, never false, and has a key of its own', () => {
		for (const flag of [1, 'true', 'yes']) {
			const body: IDataObject = {
				payoutId: 'p-9',
				status: 'fail',
				refunded: flag,
				updatedAt: '2026-11-28T10:05:00Z',
			};
			const derived = derivedFields('payout.status_changed', body)!;
			expect(derived.fundsReturned).toBeNull();
			expect(String(derived.fundsReturnedNote)).toContain('not a JSON boolean');
			const key = webhookChangeKey('payout.status_changed', body);
			expect(key).toContain(':refunded-unknown:');
			expect(key).not.toBe(webhookChangeKey('payout.status_changed', { ...body, refunded: false }));
		}
		expect(derivedFields('payout.status_changed', { status: 'fail', refunded: true })).toEqual({
			fundsReturned: true,
		});
		expect(derivedFields('payout.status_changed', { status: 'fail', refunded: false })).toEqual({
			fundsReturned: false,
		});
	});
});
