import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { daysAgo, FakeService, id, payout, roundTrip, runPoll } from './helpers/poll';

/*
 * Outside read r7-data, finding 1: the poll trigger's item carries the service's record, as the
 * webhook trigger's item keeps every field of the body. The item's own fields keep their names,
 * values and places (saved workflows read them); every other field of the record follows them,
 * through the same gate; a record's value that differs from the item's own field of that name is
 * kept under `serviceFields`.
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

async function baseline(parameters: IDataObject) {
	const first = await runPoll({ parameters });
	let staticData = first.staticData;
	return async () => {
		const run = await runPoll({ parameters, staticData: roundTrip(staticData) });
		staticData = run.staticData;
		return run.items;
	};
}

describe('the poll item carries the service record', () => {
	it('a user-wallet deposit keeps walletId, companyId, blockTimestamp and unknown fields', async () => {
		const poll = await baseline({ watch: ['userDeposits'] });
		const deposit = service.add('userDeposits', {
			id: id('u'),
			companyId: '9007199254740993123',
			walletId: 'w-42',
			externalId: 'u-1',
			amount: 10.5,
			status: 'aml_pending',
			blockTimestamp: daysAgo(0.2),
			createdAt: daysAgo(0.2),
			updatedAt: daysAgo(0.2),
			networkFeeNote: 'anything new',
		});
		const [item] = (await poll())!;
		expect(item).toMatchObject({
			depositId: deposit.id,
			walletId: 'w-42',
			companyId: '9007199254740993123',
			blockTimestamp: deposit.blockTimestamp,
			networkFeeNote: 'anything new',
		});
		// The item's own fields come first, in their old order; the record's others follow.
		const keys = Object.keys(item);
		expect(keys.slice(0, keys.indexOf('receivedAt') + 1)).toEqual([
			'depositId',
			'txHash',
			'walletAddress',
			'fromAddress',
			'amount',
			'tokenSymbol',
			'status',
			'normalisedStatus',
			'amlCheckId',
			'amlRiskIndicator',
			'sweepTxHash',
			'error',
			'createdAt',
			'updatedAt',
			'externalId',
			'walletType',
			'event',
			'changeKey',
			'source',
			'watched',
			'previousState',
			'deliveryId',
			'receivedAt',
		]);
		expect(item.serviceFields).toBeUndefined();
	});

	it('a payout keeps takenAt, recipient names and the dispute with its id', async () => {
		const record = service.add(
			'payouts',
			payout({
				recipientFirstName: 'Ivan',
				recipientLastName: 'Petrov',
				dispute: { id: 'dp-77', status: 'open', resolution: null },
			}),
		);
		const poll = await baseline({ watch: ['payouts'] });
		record.status = 'in_progress';
		record.takenAt = daysAgo(0);
		const [item] = (await poll())!;
		expect(item).toMatchObject({
			payoutId: record.id,
			takenAt: record.takenAt,
			recipientFirstName: 'Ivan',
			recipientLastName: 'Petrov',
			dispute: { id: 'dp-77', status: 'open' },
		});
	});

	it('a record field named like the item’s own keeps its value under serviceFields', async () => {
		const poll = await baseline({ watch: ['payouts'] });
		const record = service.add('payouts', payout({ source: 'api', event: 'x', changeKey: 'k' }));
		const [item] = (await poll())!;
		expect(item.source).toBe('poll');
		expect(item.event).toBe('payout.status_changed');
		expect(item.serviceFields).toEqual({ source: 'api', event: 'x', changeKey: 'k' });
		expect(item.payoutId).toBe(record.id);
	});

	it('the record’s secrets go through the gate', async () => {
		const poll = await baseline({ watch: ['payouts'] });
		service.add(
			'payouts',
			payout({ requisiteType: 'card', requisite: '4111111111111111', cardCvv: '123' }),
		);
		const [item] = (await poll())!;
		const shown = JSON.stringify(item);
		expect(shown).not.toContain('4111111111111111');
		expect(item.cardCvv).not.toBe('123');
	});
});
