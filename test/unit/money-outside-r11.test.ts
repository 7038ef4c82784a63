import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { forgetAllSentWrites, limitSentWrites } from '../../nodes/shared/money/write';
import { BASE_URL } from './helpers/n8n';
import {
	CARD,
	credentials,
	dated,
	expectUnknownWithSentWrite,
	moneyRunner,
	payoutRecord,
	servePayouts,
} from './helpers/money';

/*
 * The eleventh outside read of the money module (/work/outside/r11-money): an n8n credential
 * edited to hold another company's API key is another sender, never the first company's memory
 * (F1); a payout read again is judged on its own, never with the status kept before (F2), and only
 * when it is the record read (F3); a cancel judged not paid is kept not paid (F4).
 */
beforeAll(() => nock.disableNetConnect());
beforeEach(() => forgetAllSentWrites());
afterEach(() => {
	nock.cleanAll();
	limitSentWrites();
});

const run = moneyRunner();

const named = {
	resource: 'payout',
	operation: 'create',
	amountRub: '1500',
	requisiteType: 'card',
	requisite: CARD,
	idempotencyKey: 'INV-1042',
	additionalFields: { externalId: 'inv-1' },
};

describe("F1: a credential edited to another company's key is another sender", () => {
	it('company B in the same credential: its own payout is sent, never company A shown as paid', async () => {
		const posts = servePayouts();
		expect((await run(named)).item.id).toBe('p-1');
		// Under the same Idempotency Key: refused, unknown, never A's record (money-outside-r11b).
		const same = await run(named, { credentials: credentials('company-b-key') });
		expect(same.item.errorCode).toBe('CREDENTIAL_KEY_CHANGED');
		expect(same.item.paymentOutcome).toBe('unknown');
		expect(same.item.id).toBeUndefined();
		const b = await run(
			{ ...named, idempotencyKey: 'INV-2000' },
			{ credentials: credentials('company-b-key') },
		);
		expect(b.item.error).toBeUndefined();
		expect(b.item.id).toBe('p-2');
		expect(posts()).toBe(2);
	});

	it('the tool, company B in the same credential: its own payout is sent', async () => {
		let posts = 0;
		nock(BASE_URL).get('/payouts').query(true).reply(200, { payouts: [], total: 0 }).persist();
		nock(BASE_URL)
			.post('/payouts')
			.reply(
				200,
				(_uri, body) => {
					posts += 1;
					return payoutRecord({ ...(body as IDataObject), id: `p-${posts}` });
				},
				dated(),
			)
			.persist();
		const tool = {
			resource: 'payout',
			operation: 'create',
			amountRub: '1500',
			requisiteType: 'card',
			requisite: CARD,
			additionalFields: {},
			paymentReference: 'INV-77',
			agentMayMoveMoney: true,
		};
		const a = await run(tool, { tool: true });
		expect(a.item.id).toBe('p-1');
		const same = await run(tool, { tool: true, credentials: credentials('company-b-key') });
		expect(same.item.id).toBeUndefined();
		expect(same.item.paymentOutcome).toBe('unknown');
		expect(posts).toBe(1);
		const b = await run(
			{ ...tool, paymentReference: 'INV-78' },
			{ tool: true, credentials: credentials('company-b-key') },
		);
		expect(b.item.id).toBe('p-2');
		expect(posts).toBe(2);
	});

	it("a key this node's Regenerate API Key issued stays the same sender: not sent again", async () => {
		const posts = servePayouts();
		await run(named);
		nock(BASE_URL).post('/auth/company/regenerate-key').reply(200, { apiKey: 'rotated-key' });
		const rotated = await run({ resource: 'company', operation: 'regenerateApiKey' });
		expect(rotated.item.apiKeyField).toBe('apiKey');
		const again = await run(named, { credentials: credentials('rotated-key') });
		expect(again.item.error).toBeUndefined();
		expect(again.item.id).toBe('p-1');
		expect(posts()).toBe(1);
	});
});

describe('F2, F3: a payout read again is judged on its own', () => {
	async function rerunReading(reply: () => nock.Interceptor) {
		nock(BASE_URL).post('/payouts').reply(200, payoutRecord(), dated());
		expect((await run(named)).item.status).toBe('waiting_trader');
		reply();
		return (await run(named)).item;
	}

	it.each([
		['a record without a status', { id: 'p-1' }],
		['an empty object', {}],
		['a list', [payoutRecord()]],
		['another record with the same details', payoutRecord({ id: 'p-OTHER' })],
	])('read again answering %s: unknown, never the old status as current', async (_, body) => {
		const item = await rerunReading(() => {
			const interceptor = nock(BASE_URL).get('/payouts/p-1');
			interceptor.reply(200, body as nock.Body);
			return interceptor;
		});
		expectUnknownWithSentWrite(item);
		expect(item.status).toBeUndefined();
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('read again answering the record without its status: unknown by the rule its Create answer has (statusNotShown)', async () => {
		const item = await rerunReading(() => {
			const record = payoutRecord();
			delete record.status;
			const interceptor = nock(BASE_URL).get('/payouts/p-1');
			interceptor.reply(200, record);
			return interceptor;
		});
		expectUnknownWithSentWrite(item);
		expect(`${String(item.error)} ${String(item.description)}`).toMatch(/shows no status/);
	});

	it('read again answering 404: unknown, never the earlier answer as a success', async () => {
		const item = await rerunReading(() => {
			const interceptor = nock(BASE_URL).get('/payouts/p-1');
			interceptor.reply(404, {
				statusCode: 404,
				error: 'Not Found',
				errorCode: 'PAYOUT_NOT_FOUND',
				message: 'no',
			});
			return interceptor;
		});
		expectUnknownWithSentWrite(item);
	});
});

describe('F4: a cancel judged not paid is kept not paid', () => {
	it('a re-run of a cancel answered in_progress is a new send, not_paid again', async () => {
		let posts = 0;
		nock(BASE_URL)
			.post('/payouts/p-7/cancel')
			.reply(
				200,
				() => {
					posts += 1;
					return payoutRecord({ id: 'p-7', status: 'in_progress' });
				},
				dated(),
			)
			.persist();
		const params = {
			resource: 'payout',
			operation: 'cancel',
			payoutId: 'p-7',
			idempotencyKey: 'cancel-p-7',
		};
		const first = await run(params);
		expect(first.item.paymentOutcome).toBe('not_paid');
		const again = await run(params);
		expect(again.item.paymentOutcome).toBe('not_paid');
		expect(again.item.errorCode).toBe('PAYOUT_NOT_CANCELABLE');
		expect(String(again.item.error)).not.toMatch(/earlier run/);
		expect(posts).toBe(2);
	});
});

describe('F5: a refusal through Resolve Outcome, as examples/README.md says', () => {
	it('a not_paid Payout Create comes out of Resolve Outcome unknown, verified false', async () => {
		nock(BASE_URL).post('/payouts').reply(422, {
			statusCode: 422,
			error: 'Unprocessable Entity',
			errorCode: 'PAYOUT_REQUISITE_INVALID',
			message: 'invalid requisite',
		});
		const refused = (await run({ ...named, idempotencyKey: '' })).item;
		expect(refused.paymentOutcome).toBe('not_paid');
		expect(refused.sentWrite).toBeUndefined();
		const resolved = (
			await run({ resource: 'payment', operation: 'resolveOutcome', unknownItem: refused as never })
		).item;
		expect(resolved.paymentOutcome).toBe('unknown');
		expect(resolved.verified).toBe(false);
		expect(resolved.lookAgainAt ?? null).toBeNull();
		expect(String(resolved.reason)).toMatch(/invalid requisite|PAYOUT_REQUISITE_INVALID/);
		// examples/README.md says so: test/docs/examples-refusal.test.mjs.
	});
});
