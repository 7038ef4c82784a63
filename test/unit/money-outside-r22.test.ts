import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import nock from 'nock';

import type { MoneyContract } from '../../nodes/shared/money/contract';
import { recordsCarrying } from '../../nodes/shared/money/reference';
import { readSentDetails } from '../../nodes/shared/money/sentEvidence';

import { forgetSkews } from '../../nodes/shared/money/clock';
import { forgetAllSentWrites, limitSentWrites } from '../../nodes/shared/money/write';
import { BASE_URL, runNode, runTool } from './helpers/n8n';

/*
 * The twenty-second outside read of the money module (/work/outside/r22-money/):
 * F1  A parent workflow's Execute Workflow node with Retry On Fail re-runs a sub-workflow holding
 *     Payout Create (no Idempotency Key). Each run of the sub-workflow is a new execution, so the
 *     derived keys changed and the paid item and the unknown one were POSTed again (real n8n
 *     2.8.4). A sub-workflow's derived key is bound to its parent's execution (n8n's
 *     getExecutionContext().parentExecutionId) and to the item and the node's parameters.
 * F2  Resolve Outcome answered `paid` from a payout whose External ID differed from the one sent
 *     only in white space (`INV  42`, NBSP, tab, leading or trailing space, a trailing newline).
 *     An External ID the user set proves this write only as it was sent, exactly.
 */
beforeAll(() => nock.disableNetConnect());
beforeEach(() => {
	forgetAllSentWrites();
	forgetSkews();
});
afterEach(() => {
	nock.cleanAll();
});

const CARD = '2200123456789012';

/** Payout Create of `amountRub` to CARD, derived key (no Idempotency Key). */
const create = (amountRub: string, externalId?: string): IDataObject => ({
	resource: 'payout',
	operation: 'create',
	amountRub,
	requisiteType: 'card',
	requisite: CARD,
	idempotencyKey: '',
	additionalFields: externalId === undefined ? {} : { externalId },
});

/** The node's parameters as saved in the sub-workflow: the amount from the item. */
const SAVED = {
	resource: 'payout',
	operation: 'create',
	amountRub: '={{ $json.amt }}',
	requisiteType: 'card',
	requisite: CARD,
	additionalFields: {},
};

const payout = (id: string, amountRub: number, externalId: string | null = null): IDataObject => ({
	id,
	externalId,
	status: 'waiting_trader',
	amountRub,
	chargedUsdt: 1,
	rate: 95,
	requisiteType: 'card',
	requisite: CARD,
	failReason: null,
	refundedAt: null,
	createdAt: new Date(Date.now() + 1000).toISOString(),
});

type Posted = { amountRub: number; key: string };

/** The reader's service: 100 RUB is paid (200), the answer to 200 RUB is lost after it was made. */
function serve(): Posted[] {
	const posted: Posted[] = [];
	const made = new Map<string, IDataObject>();
	nock(BASE_URL)
		.post('/payouts')
		.reply(function (_uri, body) {
			const amountRub = Number((body as IDataObject).amountRub);
			posted.push({ amountRub, key: String(this.req.headers['idempotency-key']) });
			if (amountRub === 200) return [502, '<html>502 Bad Gateway</html>'];
			const record = payout(`p-${posted.length}`, amountRub);
			made.set(String(record.id), record);
			return [200, record, { Date: new Date().toUTCString() }];
		})
		.persist();
	nock(BASE_URL)
		.get(/\/payouts\/p-\d+$/)
		.reply((uri) => {
			const record = made.get(uri.split('/').pop() as string);
			return record ? [200, record, { Date: new Date().toUTCString() }] : [404, {}];
		})
		.persist();
	return posted;
}

/**
 * One run of the sub-workflow's Payout Create: a new execution `executionId`, called by the
 * parent's execution `parent` (none: a top-level run), with the reader's two items.
 */
async function subRun(
	executionId: string,
	parent: string | undefined,
	items: IDataObject[] = [{ amt: '100' }, { amt: '200' }],
): Promise<unknown> {
	try {
		await runNode({
			parameters: items.map((item) => create(String(item.amt))),
			items,
			executionId,
			sameProcess: true,
			continueOnFail: false,
			nodeId: 'pay1',
			workflowId: 'subwf000000000001',
			nodeParameters: SAVED,
			...(parent === undefined
				? {}
				: { executionContext: { version: 1, source: 'integrated', parentExecutionId: parent } }),
		});
		return undefined;
	} catch (error) {
		return error;
	}
}

const count = (posted: Posted[], amountRub: number) =>
	posted.filter((p) => p.amountRub === amountRub).length;

describe('r22-money F1: the parent Execute Workflow node retries a sub-workflow (a new execution)', () => {
	it('the paid item and the unknown one are POSTed once each: the keys are bound to the parent execution', async () => {
		const posted = serve();
		expect(await subRun('9001', '77')).toBeDefined();
		// The parent's Retry On Fail: the sub-workflow runs again as execution 9002.
		expect(await subRun('9002', '77')).toBeDefined();
		expect(count(posted, 100)).toBe(1);
		expect(count(posted, 200)).toBe(1);
	});

	it('the unknown item stays unknown on the retry, with its sent write, and is not sent again', async () => {
		serve();
		await subRun('9011', '78');
		const error = (await subRun('9012', '78')) as Error & { context?: IDataObject };
		expect(error?.context?.paymentOutcome).toBe('unknown');
		expect(error?.context?.sentWrite).toEqual(
			expect.objectContaining({ seal: expect.any(String) }),
		);
		expect(JSON.stringify({ ...error, message: error.message })).toMatch(/did not send it again/);
	});

	it('another request of the same parent, at the same place, is another payment under another key', async () => {
		const posted = serve();
		await subRun('9021', '79', [{ amt: '100' }]);
		await subRun('9022', '79', [{ amt: '300' }]);
		expect(count(posted, 100)).toBe(1);
		expect(count(posted, 300)).toBe(1);
		expect(new Set(posted.map((p) => p.key)).size).toBe(2);
	});

	it('the key follows what is sent, not the item’s JSON (outside r25-money F1): the same request from another item is answered with the first answer', async () => {
		const posted = serve();
		await subRun('9023', '81', [{ amt: '100' }]);
		await subRun('9024', '81', [{ amt: '100', row: 2 }]);
		expect(count(posted, 100)).toBe(1);
	});

	it('the trade-off: the same parent execution calling the sub-workflow twice with identical items pays once (the first answer)', async () => {
		const posted = serve();
		await subRun('9031', '80', [{ amt: '100' }]);
		await subRun('9032', '80', [{ amt: '100' }]);
		expect(count(posted, 100)).toBe(1);
	});

	it('a paid write of a sub-workflow whose node run ended normally stays held: a later node of the sub-workflow failing, the parent retries it', async () => {
		const posted = serve();
		limitSentWrites({ maxKept: 1 });
		try {
			await subRun('9061', '83', [{ amt: '100' }]);
			// Another write in this process wants room; the sub-workflow's paid write is held.
			await subRun('9062', undefined, [{ amt: '300' }]);
			await subRun('9063', '83', [{ amt: '100' }]);
		} finally {
			limitSentWrites();
		}
		expect(count(posted, 100)).toBe(1);
	});

	it('another parent execution (a Retry of the parent from the Executions list) derives new keys', async () => {
		const posted = serve();
		await subRun('9041', '81', [{ amt: '100' }]);
		await subRun('9042', '82', [{ amt: '100' }]);
		expect(count(posted, 100)).toBe(2);
	});

	it('the error of a sub-workflow says which Retry sends the same keys and which does not', async () => {
		serve();
		const error = (await subRun('9071', '84')) as Error & { description?: string };
		expect(error.description).toMatch(/calling node's Retry On Fail sends the same keys/);
		expect(error.description).not.toMatch(
			/A Retry of this execution from n8n's Executions list runs this node again/,
		);
	});

	it('a top-level run (no parent) keeps the key of its own execution', async () => {
		const posted = serve();
		await subRun('9051', undefined, [{ amt: '100' }]);
		await subRun('9052', undefined, [{ amt: '100' }]);
		expect(count(posted, 100)).toBe(2);
		expect(posted[0].key).toContain(':9051:');
	});
});

/** Payout Create under External ID "INV 42" whose request is lost before the service acts. */
async function lostWrite(): Promise<IDataObject> {
	nock(BASE_URL).post('/payouts').replyWithError({ code: 'ECONNRESET', message: 'socket hang up' });
	const { output } = await runNode({
		parameters: create('1500', 'INV 42'),
		continueOnFail: true,
		executionId: `r22-f2-${Math.random()}`,
	});
	const item = output[0].json as IDataObject;
	expect(item.paymentOutcome).toBe('unknown');
	return item;
}

/** Resolve Outcome of `item`, the listing (filter ignored) and the record showing `externalId`. */
async function resolveAgainst(item: IDataObject, externalId: string): Promise<IDataObject> {
	const record = payout('po_1', 1500, externalId);
	const dated = { Date: new Date().toUTCString() };
	nock(BASE_URL)
		.get('/payouts')
		.query(true)
		.reply(200, { payouts: [record], total: 1 }, dated)
		.persist();
	nock(BASE_URL).get('/payouts/po_1').reply(200, record, dated).persist();
	const { output } = await runNode({
		parameters: { resource: 'payment', operation: 'resolveOutcome', unknownItem: item as never },
		continueOnFail: true,
		sameProcess: true,
	});
	return output[0].json as IDataObject;
}

describe('r22-money F2: a payout whose External ID differs from the one sent only in white space', () => {
	it.each([
		['two spaces', 'INV  42'],
		['a no-break space', 'INV\u00a042'],
		['a tab', 'INV\t42'],
		['leading and trailing spaces', ' INV 42 '],
		['a trailing newline', 'INV 42\n'],
		['another letter case', 'inv 42'],
	])('%s: Resolve Outcome does not answer paid', async (_name, other) => {
		const item = await lostWrite();
		const resolved = await resolveAgainst(item, other);
		expect(resolved.paymentOutcome).not.toBe('paid');
	});

	it('the External ID exactly as sent: paid (the rule can pass)', async () => {
		const item = await lostWrite();
		const resolved = await resolveAgainst(item, 'INV 42');
		expect(resolved.paymentOutcome).toBe('paid');
	});

	it('as a tool the canonical reference too is compared exactly: a record carrying it with spaces around is not this write (r24-money F2)', async () => {
		const call = {
			...create('1500'),
			agentMayMoveMoney: true,
			paymentReference: 'INV-42',
		};
		nock(BASE_URL).get('/payouts').query(true).reply(200, { payouts: [], total: 0 });
		nock(BASE_URL).post('/payouts').replyWithError({ code: 'ECONNRESET', message: 'reset' });
		const first = await runTool({ parameters: call });
		const unknown = first.output[0].error as IDataObject;
		expect(unknown.paymentOutcome).toBe('unknown');
		expect((unknown.sentWrite as IDataObject).identity).toBe('inv-42');
		const resolved = await resolveAgainst(first.output[0] as IDataObject, ' inv-42 ');
		expect(resolved.paymentOutcome).not.toBe('paid');
	});
});

describe('r22-money F2b: the answer to the write itself shows the External ID in another spelling', () => {
	it.each([
		['two spaces', 'INV  42'],
		['a no-break space', 'INV\u00a042'],
		['a trailing space', 'INV 42 '],
	])('%s: unknown with its sent write, never a success', async (_name, other) => {
		nock(BASE_URL)
			.post('/payouts')
			.reply(200, payout('po_2', 1500, other), { Date: new Date().toUTCString() });
		const { output } = await runNode({
			parameters: create('1500', 'INV 42'),
			continueOnFail: true,
			executionId: `r22-f2b-${Math.random()}`,
		});
		const item = output[0].json as IDataObject;
		expect(item.paymentOutcome).toBe('unknown');
		expect(item.sentWrite).toEqual(expect.objectContaining({ seal: expect.any(String) }));
	});

	it('the External ID as sent: the payout made', async () => {
		nock(BASE_URL)
			.post('/payouts')
			.reply(200, payout('po_3', 1500, 'INV 42'), { Date: new Date().toUTCString() });
		const { output } = await runNode({
			parameters: create('1500', 'INV 42'),
			continueOnFail: true,
			executionId: `r22-f2b-${Math.random()}`,
		});
		expect(output[0].json.id).toBe('po_3');
		expect(output[0].json.paymentOutcome).toBeUndefined();
	});
});

describe('r22-money F2c: each layer of the rule on its own', () => {
	const records = ['INV 42', 'INV  42', 'INV\u00a042', ' INV 42', 'inv 42'].map(
		(externalId, i) => ({
			id: `r${i}`,
			externalId,
		}),
	);
	const contract = {
		identity: { field: 'externalId', answered: (r: IDataObject) => r.externalId, maxLength: 64 },
		lookup: async () => records,
		details: [
			{ name: 'externalId', asked: () => 'INV 42', answered: (r: IDataObject) => r.externalId },
		],
	} as unknown as MoneyContract;
	const ctx = {} as IExecuteFunctions;

	it('recordsCarrying: only the External ID as sent', async () => {
		const { carrying } = await recordsCarrying(ctx, contract, 0, 'INV 42');
		expect(carrying.map((r) => r.id)).toEqual(['r0']);
	});

	it('recordsCarrying: a canonical reference too, only as sent (r24-money F1)', async () => {
		const { carrying } = await recordsCarrying(ctx, contract, 0, 'inv 42');
		expect(carrying.map((r) => r.id)).toEqual(['r4']);
	});

	it('readSentDetails, exact identity: another spelling differs', () => {
		for (const record of records.slice(1)) {
			const reading = readSentDetails(contract, { externalId: 'INV 42' }, record, undefined, true);
			expect(reading.differences.map((d) => d.field)).toEqual(['externalId']);
		}
		const same = readSentDetails(contract, { externalId: 'INV 42' }, records[0], undefined, true);
		expect(same.differences).toEqual([]);
	});
});
