import type { IDataObject } from 'n8n-workflow';

import {
	checkAndRecord,
	dedupLimits,
	staticDataWithDeliveries,
} from '../../nodes/CompanyPaymentsTrigger/deliveries';

/**
 * The benchmarks prefill a trigger's deduplication store with staticDataWithDeliveries: the
 * trigger must read what it builds as deliveries already seen, and keep accepting new ones.
 */
describe('staticDataWithDeliveries', () => {
	const now = Date.parse('2026-11-21T12:00:00.000Z');
	const limits = dedupLimits(undefined, undefined);

	it('builds a store the trigger reads as already seen', () => {
		const ids = Array.from({ length: 150 }, (_, index) => `dlv-${index}`);
		const staticData = staticDataWithDeliveries(
			ids.map((id, index) => [id, now - 150_000 + index * 1000]),
		) as IDataObject;
		const key = `bench-import-${Math.random()}`;
		expect(checkAndRecord(key, staticData, 'dlv-0', now, limits)).toBe('duplicate');
		expect(checkAndRecord(key, staticData, 'dlv-149', now, limits)).toBe('duplicate');
		expect(checkAndRecord(key, staticData, 'dlv-new', now, limits)).toBe('new');
		expect(checkAndRecord(key, staticData, 'dlv-new', now, limits)).toBe('duplicate');
	});

	it('stores very long IDs the way the trigger does (hashed)', () => {
		const long = 'x'.repeat(5000);
		const staticData = staticDataWithDeliveries([[long, now]]) as IDataObject;
		expect(checkAndRecord(`long-${Math.random()}`, staticData, long, now, limits)).toBe(
			'duplicate',
		);
	});
});
