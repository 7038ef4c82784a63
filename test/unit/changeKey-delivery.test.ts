import { createHash } from 'node:crypto';
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { webhookChangeKey } from '../../nodes/shared/changeKey';
import { deliver } from './helpers/trigger';
import { FakeService, payout, roundTrip, runPoll } from './helpers/poll';

/** n8n's Remove Duplicates (v2) records a key as `value?.toString() ?? ''`: null becomes ''. */
function removeDuplicates() {
	const seen = new Set<string>();
	return (value: unknown): boolean => {
		const check = (value as { toString(): string } | null | undefined)?.toString() ?? '';
		if (seen.has(check)) return false;
		seen.add(check);
		return true;
	};
}

const RECORD_KINDS = ['order', 'deposit', 'payout', 'card', 'dispute', 'balance'];

function sha256(text: string): string {
	return createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex');
}

describe('a changeKey is never null (outside read r23-data, finding 4)', () => {
	const bodies: Array<[IDataObject, string | null]> = [
		[{ event: 'card.assigned', externalId: null }, 'd-card-1'],
		[{ event: 'card.assigned', externalId: null }, 'd-card-2'],
		[
			{
				event: 'card.closed',
				cardId: 'c_1',
				status: 'closed',
				updatedAt: '2026-11-29T11:00:00.000Z',
			},
			'd-new-1',
		],
		[
			{
				event: 'card.closed',
				cardId: 'c_2',
				status: 'closed',
				updatedAt: '2026-11-29T11:05:00.000Z',
			},
			'd-new-2',
		],
		[{ event: 'card.closed', cardId: 'c_3', status: 'closed' }, null],
		[{ event: 'card.closed', cardId: 'c_4', status: 'closed' }, null],
	];

	it('every distinct delivery passes the recipe: the delivery ID, else the body SHA-256', async () => {
		const pass = removeDuplicates();
		let passed = 0;
		for (const [body, deliveryId] of bodies) {
			const { item } = await deliver({ body, deliveryId });
			const key = item?.changeKey as string;
			expect(typeof key).toBe('string');
			expect(key.startsWith('delivery:webhook:')).toBe(true);
			// Never a record-based key's prefix.
			for (const kind of RECORD_KINDS) expect(key.startsWith(`${kind}:`)).toBe(false);
			if (deliveryId === null) {
				expect(key).toBe(`delivery:webhook:body-sha256:${sha256(JSON.stringify(body))}`);
			} else {
				expect(key).toBe(`delivery:webhook:delivery:${deliveryId}`);
			}
			if (pass(key)) passed += 1;
		}
		expect(passed).toBe(bodies.length);
	});

	it('a retry of one delivery keeps its key', async () => {
		const body = { event: 'card.assigned' };
		const a = await deliver({ body, deliveryId: null });
		const b = await deliver({ body, deliveryId: null });
		expect(a.item?.changeKey).toBe(b.item?.changeKey);
		expect(webhookChangeKey('card.assigned', {}, 'd1')).toBe(
			webhookChangeKey('card.assigned', {}, 'd1', 'ab'),
		);
	});
});

describe('without X-Service-Delivery-Id, the body names the visit (outside read r23-data, finding 5)', () => {
	const order = (status: string, extra: IDataObject = {}) => ({
		event: 'order.status_changed',
		orderId: 'o-1',
		walletOrderId: 'wo_1',
		status,
		createdAt: '2026-11-29T10:00:00.000Z',
		...extra,
	});

	it('a new visit with a new body gets a new key; a retry of the same body the same key', async () => {
		const first = order('in_progress', { traderNote: 'a' });
		const again = order('in_progress', { traderNote: 'b' });
		const k1 = (await deliver({ body: first, deliveryId: null })).item?.changeKey;
		const k2 = (await deliver({ body: order('created'), deliveryId: null })).item?.changeKey;
		const k3 = (await deliver({ body: again, deliveryId: null })).item?.changeKey;
		const k1retry = (await deliver({ body: first, deliveryId: null })).item?.changeKey;
		expect(new Set([k1, k2, k3]).size).toBe(3);
		expect(k1retry).toBe(k1);
		expect(k1).toBe(`order:company:o-1:in_progress:body-sha256:${sha256(JSON.stringify(first))}`);
	});

	it('a body that shows a time keeps its time-based key', async () => {
		const body = order('success', { updatedAt: '2026-11-29T10:05:00.000Z' });
		const { item } = await deliver({ body, deliveryId: null });
		expect(item?.changeKey).toBe(
			'order:company:o-1:success:updatedAt:2026-11-29T10%3A05%3A00.000Z',
		);
	});
});

describe('poll payout with a refundedAt that is no time after createdAt (outside read r23-data, finding 6)', () => {
	let service: FakeService;
	beforeEach(() => {
		nock.disableNetConnect();
		service = new FakeService();
	});
	afterEach(() => {
		nock.cleanAll();
		nock.enableNetConnect();
	});

	it('says fundsReturned null with a fundsReturnedNote, never false', async () => {
		const created = '2026-11-20T10:00:00.500Z';
		const a = service.add('payouts', payout({ createdAt: created }));
		const b = service.add('payouts', payout({ createdAt: created }));
		const c = service.add('payouts', payout({ createdAt: created }));
		const parameters = { watch: ['payouts'] };
		const first = await runPoll({ parameters });
		for (const [rec, at] of [
			[a, '0001-01-01T00:00:00Z'],
			[b, '2026-11-20T10:00:00.200Z'],
			[c, null],
		] as const) {
			rec.status = 'fail';
			rec.failReason = 'cancelled_by_merchant';
			rec.refundedAt = at;
		}
		const run = await runPoll({ parameters, staticData: roundTrip(first.staticData) });
		const items = run.items ?? [];
		expect(items).toHaveLength(3);
		const by = (id: unknown) => items.find((i) => i.payoutId === id) as IDataObject;
		for (const rec of [a, b]) {
			expect(by(rec.id)).toMatchObject({ fundsReturned: null, refunded: null });
			expect(String(by(rec.id).fundsReturnedNote)).toContain('unknown');
		}
		expect(by(c.id)).toMatchObject({ fundsReturned: false, refunded: false });
		expect(by(c.id).fundsReturnedNote).toBeUndefined();
	});
});
