import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { CompanyPayments } from '../../nodes/CompanyPayments/CompanyPayments.node';
import { SENT_WRITES_FULL, limitSentWrites } from '../../nodes/shared/money/write';
import { BASE_URL, createContext } from './helpers/n8n';
import type { ContextOptions } from './helpers/n8n';

/*
 * The memory of sent writes is bounded (outside r6-money-b F1): it never forgets a write that
 * Retry On Fail (or a repeat of the key a user or tool named) may send again. When it is full of
 * such writes, a new money write is refused before it is sent (SENT_WRITES_FULL, not paid), never
 * let in by forgetting an older one. The cap is lowered here (limitSentWrites) so the case runs
 * at a few items instead of 10,000.
 */

const recharge = (n: number): IDataObject => ({
	resource: 'card',
	operation: 'recharge',
	cardId: { __rl: true, mode: 'id', value: `card-${n}` },
	targetAmount: 10,
});

/** Serves POST /cards/recharge, counting sends per Idempotency-Key; `fail` answers 502 once. */
function serve(fail?: string): Map<string, number> {
	const sends = new Map<string, number>();
	nock(BASE_URL)
		.persist()
		.post('/cards/recharge')
		.reply(function (_uri, body) {
			const key = String(this.req.headers['idempotency-key']);
			const { cardId } = body as IDataObject;
			const first = !sends.has(key);
			sends.set(key, (sends.get(key) ?? 0) + 1);
			if (cardId === fail && first) return [502, '<html>bad gateway</html>'];
			return [200, { id: `rc-${String(cardId)}`, cardId, targetAmount: 10 }];
		});
	return sends;
}

/** Runs the node; its output or the error it threw. */
async function run(options: ContextOptions) {
	const context = createContext(options);
	try {
		const result = await new CompanyPayments().execute.call(context);
		return { output: result[0].map((item) => item.json), error: undefined };
	} catch (error) {
		return {
			output: undefined,
			error: error as Error & { context: IDataObject; description?: string },
		};
	}
}

const resentKeys = (sends: Map<string, number>) => [...sends.values()].filter((n) => n > 1).length;

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
	nock.cleanAll();
	limitSentWrites();
});

describe('the memory of sent writes never forgets a write that may be sent again', () => {
	it('a batch larger than the memory: the write past it is refused, nothing sent; Retry On Fail re-sends none', async () => {
		limitSentWrites({ maxKept: 3 });
		const sends = serve('card-3');
		const parameters = [0, 1, 2, 3].map(recharge);
		const first = await run({ parameters, executionId: 'exec-42' });
		expect(first.error?.message).toMatch(SENT_WRITES_FULL);
		expect(first.error?.context.paymentOutcome).toBe('not_paid');
		expect(first.error?.description).toMatch(/Nothing was sent/);
		expect(first.error?.message).toMatch(/keeps 3 money writes/);
		expect(sends.size).toBe(3);
		// Retry On Fail: the same execution, run and items, in the same process.
		const retry = await run({ parameters, executionId: 'exec-42', sameProcess: true });
		expect(retry.error?.message).toMatch(SENT_WRITES_FULL);
		expect(sends.size).toBe(3);
		expect(resentKeys(sends)).toBe(0);
	});

	it('with Continue On Fail the item past the memory fails as not paid and the others are paid once', async () => {
		limitSentWrites({ maxKept: 2 });
		const sends = serve();
		const parameters = [0, 1, 2].map(recharge);
		const first = await run({ parameters, executionId: 'exec-7', continueOnFail: true });
		expect(first.output?.map((json) => json.paymentOutcome ?? 'paid')).toEqual([
			'paid',
			'paid',
			'not_paid',
		]);
		expect(String(first.output?.[2].error)).toMatch(SENT_WRITES_FULL);
		expect(sends.size).toBe(2);
	});

	it("a failed run's writes are held against another execution's (its retry may still come)", async () => {
		limitSentWrites({ maxKept: 3 });
		const sends = serve('card-2');
		const failed = await run({ parameters: [0, 1, 2].map(recharge), executionId: 'exec-1' });
		expect(failed.error?.context.paymentOutcome).toBe('unknown');
		const other = await run({
			parameters: [recharge(9)],
			executionId: 'exec-2',
			sameProcess: true,
		});
		expect(other.error?.message).toMatch(SENT_WRITES_FULL);
		expect(sends.size).toBe(3);
		// Its retry still finds every write: nothing is sent again.
		const retry = await run({
			parameters: [0, 1, 2].map(recharge),
			executionId: 'exec-1',
			sameProcess: true,
		});
		expect(retry.error?.context.paymentOutcome).toBe('unknown');
		expect(resentKeys(sends)).toBe(0);
	});

	it('once the held time of a failed run has passed, its writes make room (the stated bound)', async () => {
		limitSentWrites({ maxKept: 3, heldMs: 0 });
		const sends = serve('card-2');
		await run({ parameters: [0, 1, 2].map(recharge), executionId: 'exec-1' });
		const other = await run({
			parameters: [recharge(9)],
			executionId: 'exec-2',
			sameProcess: true,
		});
		expect(other.error).toBeUndefined();
		expect(sends.size).toBe(4);
	});

	it("a run that ended normally makes room at once: the next execution's writes are sent", async () => {
		limitSentWrites({ maxKept: 3 });
		const sends = serve();
		const a = await run({ parameters: [0, 1, 2].map(recharge), executionId: 'exec-a' });
		expect(a.error).toBeUndefined();
		const b = await run({
			parameters: [3, 4, 5].map(recharge),
			executionId: 'exec-b',
			sameProcess: true,
		});
		expect(b.error).toBeUndefined();
		expect(sends.size).toBe(6);
		expect(resentKeys(sends)).toBe(0);
	});

	it('a key the user set is held for the stated time even after its run ended', async () => {
		limitSentWrites({ maxKept: 1 });
		const sends = serve();
		const named = { ...recharge(0), idempotencyKey: 'INV-1' };
		expect((await run({ parameters: named, executionId: 'e1' })).error).toBeUndefined();
		const other = await run({ parameters: recharge(1), executionId: 'e2', sameProcess: true });
		expect(other.error?.message).toMatch(SENT_WRITES_FULL);
		// The named key, again from a new execution: answered from memory, not sent again.
		const again = await run({ parameters: named, executionId: 'e3', sameProcess: true });
		expect(again.error).toBeUndefined();
		expect(sends.size).toBe(1);
		expect(resentKeys(sends)).toBe(0);
	});
});
