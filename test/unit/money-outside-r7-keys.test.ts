import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { CompanyPayments } from '../../nodes/CompanyPayments/CompanyPayments.node';
import { retryNote } from '../../nodes/shared/money/key';
import type { MoneyContract } from '../../nodes/shared/money/contract';
import { keyNamesPayment } from '../../nodes/shared/money/replay';
import { limitNamed } from '../../nodes/shared/money/named';
import {
	PAID_BEFORE,
	SENT_WRITES_FULL,
	limitSentWrites,
	releaseNotPaid,
} from '../../nodes/shared/money/write';
import { BASE_URL, createContext } from './helpers/n8n';
import type { ContextOptions } from './helpers/n8n';

/*
 * Outside reader r7-money-b: an Idempotency Key an expression hands over as a number is the text
 * key in every respect (F1); a payment named by a key the user set or a tool's reference is never
 * forgotten within the process (F2); a set key that resolves blank is refused, never replaced by a
 * key of the execution (F3).
 */

const recharge = (more: IDataObject = {}): IDataObject => ({
	resource: 'card',
	operation: 'recharge',
	cardId: { __rl: true, mode: 'id', value: 'card-1' },
	targetAmount: 100,
	...more,
});

type Reply = [number, unknown];

/** Serves POST /cards/recharge; each request's Idempotency-Key is recorded. */
function serve(
	reply: (n: number, body: IDataObject) => Reply = (n, body) => [200, answer(n, body)],
) {
	const keys: string[] = [];
	nock(BASE_URL)
		.persist()
		.post('/cards/recharge')
		.reply(function (_uri, body) {
			keys.push(String(this.req.headers['idempotency-key']));
			return reply(keys.length, body as IDataObject);
		});
	return keys;
}

const answer = (n: number, body: IDataObject) => ({
	id: `rc-${n}`,
	cardId: body.cardId,
	targetAmount: body.targetAmount,
});

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

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
	nock.cleanAll();
	limitSentWrites();
	limitNamed();
});

describe('r7 F1: a key an expression gives as a number is the text key', () => {
	it('names a payment like its text', () => {
		const ctx = createContext({ parameters: recharge({ idempotencyKey: 123 }) });
		expect(keyNamesPayment(ctx, 0)).toBe(true);
		const unset = createContext({ parameters: recharge() });
		expect(keyNamesPayment(unset, 0)).toBe(false);
		// The hint on a Retry of the execution says the key is set from the data.
		const contract = { replayByKey: false, lookUp: 'x' } as unknown as MoneyContract;
		expect(retryNote(ctx, contract, 0)).toMatch(/sends the same Idempotency Key/);
		expect(retryNote(unset, contract, 0)).toMatch(/derived Idempotency-Keys change/);
	});

	it('is sent as its decimal text, and a re-run with the number or the text is answered from memory', async () => {
		const keys = serve();
		const first = await run({ parameters: recharge({ idempotencyKey: 123 }), executionId: 'e1' });
		expect(first.error).toBeUndefined();
		expect(keys).toEqual(['123']);
		for (const key of [123, '123']) {
			const again = await run({
				parameters: recharge({ idempotencyKey: key }),
				executionId: 'e2',
				sameProcess: true,
			});
			expect(again.output?.[0].id).toBe('rc-1');
		}
		expect(keys).toHaveLength(1);
	});

	it('after a restart a balance refusal of the re-send is unknown with a sent write, as for text', async () => {
		serve(() => [
			422,
			{ statusCode: 422, error: 'Unprocessable', errorCode: 'INSUFFICIENT_BALANCE', message: 'no' },
		]);
		for (const key of [123, '123']) {
			const { error } = await run({ parameters: recharge({ idempotencyKey: key }) });
			expect(error?.context.paymentOutcome).toBe('unknown');
			expect(error?.context.sentWrite).toBeDefined();
		}
	});

	it.each([
		['a fraction', 12.5, '12.5'],
		['an unsafe integer', 2 ** 53 + 2, String(2 ** 53 + 2)],
		['NaN', Number.NaN, 'NaN'],
		['a boolean', true, 'true'],
		['an object', { id: 1 }, '{"id":1}'],
	])('refuses %s, naming the field, nothing sent', async (_what, key, shown) => {
		const keys = serve();
		const { error } = await run({ parameters: recharge({ idempotencyKey: key }) });
		expect(error?.message).toMatch(/^Idempotency Key must be text/);
		expect(error?.message).toContain(shown);
		expect(error?.description).toMatch(/Nothing was sent/);
		expect(keys).toEqual([]);
	});
});

describe('r7 F2: a named payment is kept for the life of the process', () => {
	it('a key set by the user is answered as paid before, once its whole entry made room', async () => {
		limitSentWrites({ maxKept: 2, heldMs: 0 });
		const keys = serve();
		await run({ parameters: recharge({ idempotencyKey: 'INV-1042' }), executionId: 'e1' });
		// An ordinary batch that ends normally makes the memory forget the whole entry.
		const batch = [1, 2, 3].map(() => recharge());
		expect(
			(await run({ parameters: batch, executionId: 'e2', sameProcess: true })).error,
		).toBeUndefined();
		const again = await run({
			parameters: recharge({ idempotencyKey: 'INV-1042' }),
			executionId: 'e3',
			sameProcess: true,
		});
		expect(again.error?.message).toMatch(PAID_BEFORE);
		expect(again.error?.context.paymentOutcome).toBe('paid');
		expect(again.error?.context.existingPaymentId).toBe('rc-1');
		expect(again.error?.description).toMatch(/Nothing was sent/);
		// Other details under the key: refused as another payment.
		const other = await run({
			parameters: recharge({ idempotencyKey: 'INV-1042', targetAmount: 200 }),
			executionId: 'e4',
			sameProcess: true,
		});
		expect(other.error?.context.moneyErrorCode).toBe('IDEMPOTENCY_KEY_REUSED');
		expect(other.error?.context.paymentOutcome).toBe('not_paid');
		expect(keys.filter((key) => key === 'INV-1042')).toHaveLength(1);
	});

	it('a lost answer under a named key stays unknown, never sent again', async () => {
		limitSentWrites({ maxKept: 2, heldMs: 0 });
		const keys = serve((n, body) =>
			n === 1 ? [502, '<html>bad gateway</html>'] : [200, answer(n, body)],
		);
		const first = await run({
			parameters: recharge({ idempotencyKey: 'INV-7' }),
			executionId: 'e1',
		});
		expect(first.error?.context.paymentOutcome).toBe('unknown');
		await run({
			parameters: [1, 2, 3].map(() => recharge()),
			executionId: 'e2',
			sameProcess: true,
		});
		const again = await run({
			parameters: recharge({ idempotencyKey: 'INV-7' }),
			executionId: 'e3',
			sameProcess: true,
		});
		expect(again.error?.context.paymentOutcome).toBe('unknown');
		expect(keys.filter((key) => key === 'INV-7')).toHaveLength(1);
		// Resolve Outcome proved the first send not paid (its seal): the key may be sent again.
		releaseNotPaid((first.error?.context.sentWrite as IDataObject).seal);
		const released = await run({
			parameters: recharge({ idempotencyKey: 'INV-7' }),
			executionId: 'e4',
			sameProcess: true,
		});
		expect(released.error).toBeUndefined();
		expect(keys.filter((key) => key === 'INV-7')).toHaveLength(2);
	});

	it('when the stated number of named payments is kept, a new one is refused, nothing sent', async () => {
		limitNamed(1);
		const keys = serve();
		await run({ parameters: recharge({ idempotencyKey: 'INV-1' }), executionId: 'e1' });
		const next = await run({
			parameters: recharge({ idempotencyKey: 'INV-2' }),
			executionId: 'e2',
			sameProcess: true,
		});
		expect(next.error?.message).toMatch(SENT_WRITES_FULL);
		expect(next.error?.message).toMatch(/keeps 1 payments named/);
		expect(next.error?.context.paymentOutcome).toBe('not_paid');
		// A derived key is not named: still sent.
		const derived = await run({ parameters: recharge(), executionId: 'e3', sameProcess: true });
		expect(derived.error).toBeUndefined();
		expect(keys).toHaveLength(2);
	});
});

describe('r7 F3: a set Idempotency Key that resolves blank is refused', () => {
	const expression = { idempotencyKey: '={{ $json.invoiceId }}' };
	it.each([
		['empty', ''],
		['spaces', '   '],
		['a tab', '\t'],
		['null', null],
	])('an expression that resolves %s: refused, nothing sent', async (_what, value) => {
		const keys = serve();
		const { error } = await run({
			parameters: recharge({ idempotencyKey: value }),
			nodeParameters: expression,
		});
		expect(error?.message).toMatch(/^Idempotency Key must not be empty when it is set, got /);
		expect(error?.description).toMatch(/Nothing was sent/);
		expect(keys).toEqual([]);
	});

	it('blank text is refused even where the raw parameter is not shown', async () => {
		const keys = serve();
		const { error } = await run({ parameters: recharge({ idempotencyKey: '  ' }) });
		expect(error?.message).toContain('got "  "');
		expect(keys).toEqual([]);
	});

	it('a field left unset derives the key of the execution, as before', async () => {
		const keys = serve();
		const { error } = await run({ parameters: recharge({ idempotencyKey: '' }) });
		expect(error).toBeUndefined();
		expect(keys).toHaveLength(1);
		expect(keys[0]).toMatch(/^pay:/);
	});
});
