import type { IDataObject } from 'n8n-workflow';
import nock from 'nock';

import { forgetAllSentWrites } from '../../nodes/shared/money/write';
import { sealOf } from '../../nodes/shared/money/binding';
import { API_KEY, BASE_URL, runNode } from './helpers/n8n';
import { inProcessRunner } from './helpers/money';

/*
 * The eighth outside read of the money module, round r8-money F1 (/work/outside/r8-money/f1*.js):
 * a record answered for a write may be one the service already held (an Accept Quote replayed for
 * its key, a Payout Create answered with the payout held for its External ID), created long before
 * this process sent anything. Read as a measure of the records' clock it says minutes behind; it
 * must never lower the sealed skew, or a payout made minutes before a later write proves it.
 */
beforeAll(() => nock.disableNetConnect());
beforeEach(() => forgetAllSentWrites());
afterEach(() => nock.cleanAll());

const PHONE = '+79161234567';
const MINUTE = 60_000;
const iso = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
const dated = () => ({ Date: new Date().toUTCString() });

const create = (externalId: string): IDataObject => ({
	resource: 'payout',
	operation: 'create',
	amountRub: '1500',
	requisiteType: 'phone',
	requisite: PHONE,
	additionalFields: { externalId },
});

function payout(id: string, externalId: string, createdAt: string): IDataObject {
	return {
		id,
		externalId,
		status: 'success',
		amountRub: 1500,
		chargedUsdt: 16,
		rate: 93,
		requisiteType: 'phone',
		requisite: PHONE,
		refundedAt: null,
		failReason: null,
		createdAt,
	};
}

const runInProcess = inProcessRunner(8000);

async function run(parameters: IDataObject): Promise<IDataObject> {
	return (await runInProcess(parameters))[0];
}

/** Payout Create for inv-B whose answer is lost: an unknown item with its sealed sentWrite. */
async function lostWrite(): Promise<IDataObject> {
	nock(BASE_URL).post('/payouts').reply(504, '<html>504</html>');
	const item = await run(create('inv-B'));
	expect(item.paymentOutcome).toBe('unknown');
	return item;
}

/** Resolve Outcome against one payout under inv-B made `beforeMs` before the write was sent. */
async function resolveAgainst(item: IDataObject, beforeMs: number): Promise<IDataObject> {
	const sentAt = Date.parse((item.sentWrite as IDataObject).sentAt as string);
	const earlier = payout('old-B', 'inv-B', new Date(sentAt - beforeMs).toISOString());
	nock(BASE_URL)
		.get('/payouts')
		.query(true)
		.reply(200, { payouts: [earlier], total: 1 }, dated());
	nock(BASE_URL).get('/payouts/old-B').reply(200, earlier, dated()).persist();
	const { output } = await runNode({
		parameters: { resource: 'payment', operation: 'resolveOutcome', unknownItem: item as never },
		continueOnFail: true,
		sameProcess: true,
	});
	return output[0].json as IDataObject;
}

/** The item as another n8n process (a queue-mode worker, after a restart) would have sealed it. */
function fromOtherProcess(item: IDataObject): IDataObject {
	const sent = { ...(item.sentWrite as IDataObject), clock: 'another-process' };
	return { ...item, sentWrite: { ...sent, seal: sealOf(API_KEY, sent) } };
}

function sealedSkew(item: IDataObject): number {
	return (item.sentWrite as IDataObject).skewMs as number;
}

describe('r8-money F1: a replayed or held record never lowers the sealed skew', () => {
	it('Accept Quote answered with its stored order of 20 min ago: a payout 15 min before a later write stays unknown', async () => {
		const order = {
			id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
			amountUsdt: 10,
			amountRub: 930,
			status: 'success',
			paymentType: 'nspk',
			paymentUntil: iso(-19 * MINUTE),
			merchantName: 'Shop',
			externalOrderId: null,
			createdAt: iso(-20 * MINUTE),
		};
		nock(BASE_URL)
			.post('/orders/accept/3f1c2a4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b')
			.reply(200, order, dated());
		const accepted = await run({
			resource: 'order',
			operation: 'accept',
			quoteId: '3f1c2a4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b',
		});
		expect(accepted.id).toBe(order.id);

		const item = await lostWrite();
		// The Date header said the clocks agree: the replayed order does not pull it 20 min back.
		expect(sealedSkew(item)).toBeGreaterThan(-5_000);
		expect((await resolveAgainst(item, 15 * MINUTE)).paymentOutcome).toBe('unknown');
		expect((await resolveAgainst(fromOtherProcess(item), 15 * MINUTE)).paymentOutcome).toBe(
			'unknown',
		);
	});

	it('Payout Create answered 200 with the payout held for its External ID (50 min old): a payout 40 min before a later write stays unknown', async () => {
		nock(BASE_URL)
			.post('/payouts')
			.reply(200, () => payout('old-A', 'inv-A', iso(-50 * MINUTE)), dated());
		const first = await run(create('inv-A'));
		// r14-money F3: made 50 min before the write, the held payout is no proof of it.
		expect(first.paymentOutcome).toBe('unknown');
		expect(String(first.error)).toMatch(/old-A/);

		const item = await lostWrite();
		expect(sealedSkew(item)).toBeGreaterThan(-5_000);
		expect((await resolveAgainst(item, 40 * MINUTE)).paymentOutcome).toBe('unknown');
		expect((await resolveAgainst(fromOtherProcess(item), 40 * MINUTE)).paymentOutcome).toBe(
			'unknown',
		);
	});

	it('no Date header: a record alone seals no skew, so nothing proves the write in another process', async () => {
		nock(BASE_URL)
			.post('/payouts')
			.reply(200, () => payout('new-A', 'inv-A', iso(0)));
		await run(create('inv-A'));
		nock(BASE_URL).post('/payouts').reply(504, '<html>504</html>');
		const item = await run(create('inv-B'));
		expect(sealedSkew(item)).toBeNull();
	});
});
