import fc from 'fast-check';
import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';
import nock from 'nock';

import { checkAmount } from '../../nodes/CompanyPayments/common/validation';
import { sealOf } from '../../nodes/shared/money';
import { API_KEY, BASE_URL, runNode, runNodeError, runTool } from './helpers/n8n';
import { credentials } from './helpers/money';

/*
 * The sixteenth outside read of the money module (/work/outside/r16-money/):
 * F3  an amount that reached the node as a JSON number n8n had already rounded
 *     (99999999999999.994 → 100000000000000, 123456789012345.671 → 123456789012345.67) was sent
 *     as the rounded value. A double holds every decimal of up to 15 significant digits exactly,
 *     so a number-typed amount is taken only below 10^(15 - decimals): every amount of at most
 *     2 decimal places there has at most 15 significant digits, and the number is the one the
 *     source wrote. One rule, in checkAmount, for Payout Create, Card Recharge and Get Recharge
 *     Quote, in a workflow and as a tool. Text amounts keep their own rule.
 * F4  Resolve Outcome refusing an item (a sent write bound to another credential after a key
 *     rotation, an edited seal) put out an item without paymentOutcome and sentWrite, so a Switch
 *     on paymentOutcome dropped an unknown payment. A refusal keeps paymentOutcome "unknown", the
 *     sent write and the refusal's reason, on the thrown error and in the Continue On Fail item.
 */
beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const CARD = '2200123456789012';
const OTHER_KEY = 'sk_dummy_rotated_key_000000000000';
const CARD_ID = 'card_3f9a1c2e';

const payoutCreate = (amountRub: unknown): IDataObject => ({
	resource: 'payout',
	operation: 'create',
	amountRub: amountRub as string,
	requisiteType: 'card',
	requisite: CARD,
	additionalFields: {},
});

/** What the user's source JSON becomes when n8n parses it: the number an expression hands over. */
const parsed = (text: string) => (JSON.parse(`{"a":${text}}`) as { a: number }).a;

describe('r16-money F3: a number-typed amount that n8n may have rounded is refused', () => {
	it.each([
		['99999999999999.994', 100000000000000],
		['123456789012345.671', 123456789012345.67],
	])(
		'the source %s, handed over as the number %j, is refused before any request',
		async (source, number) => {
			expect(parsed(source)).toBe(number);
			const error = await runNodeError({ parameters: payoutCreate(parsed(source)) });
			expect(error.constructor.name).toBe('NodeOperationError');
			// The field, the rule, the fix and the value.
			expect(error.message).toMatch(/^Amount \(RUB\) must be given as text when it is a number/);
			expect(error.message).toContain('10000000000000 or more');
			expect(error.message).toMatch(/15 significant digits/);
			expect(error.message).toMatch(/keep the amount a string in the source/i);
			expect(error.message).toMatch(new RegExp(`got ${String(number).replace('.', '\\.')}$`));
			expect(error.description).toMatch(/^Nothing was sent to the service/);
		},
	);

	it('the same amount written as text keeps its own rule: sent when the number holds it', async () => {
		const scope = nock(BASE_URL)
			.post('/payouts', (body: IDataObject) => body.amountRub === 10000000000000)
			.reply(200, {
				id: 'po_1',
				status: 'waiting_trader',
				amountRub: 10000000000000,
				createdAt: new Date().toISOString(),
			});
		await runNode({ parameters: payoutCreate('10000000000000') });
		scope.done();
	});

	it('the largest number-typed amount the rule takes, 9999999999999.99, is sent as it is', async () => {
		const scope = nock(BASE_URL)
			.post('/payouts', (body: IDataObject) => body.amountRub === 9999999999999.99)
			.reply(200, {
				id: 'po_1',
				status: 'waiting_trader',
				amountRub: 9999999999999.99,
				createdAt: new Date().toISOString(),
			});
		await runNode({ parameters: payoutCreate(9999999999999.99) });
		scope.done();
	});

	it('the first number past it, 10000000000000, is refused', async () => {
		const error = await runNodeError({ parameters: payoutCreate(10000000000000) });
		expect(error.message).toMatch(/must be given as text when it is a number/);
		expect(error.message).toMatch(/got 10000000000000$/);
	});

	it.each(['recharge', 'getRechargeQuote'])(
		'Card %s: the Target Amount (USD) number 100000000000000 is refused the same way',
		async (operation) => {
			const error = await runNodeError({
				parameters: { resource: 'card', operation, cardId: CARD_ID, targetAmount: 1e14 },
			});
			expect(error.message).toMatch(
				/^Target Amount \(USD\) must be given as text when it is a number of 10000000000000 or more/,
			);
		},
	);

	it('as an AI tool, a number-typed amount past the rule is refused and nothing is sent', async () => {
		const { output, context } = await runTool({
			parameters: {
				...payoutCreate(parsed('99999999999999.994')),
				agentMayMoveMoney: true,
				paymentReference: 'INV-16',
			},
		});
		expect(context.requests.filter((r) => r.method === 'POST')).toEqual([]);
		const error = output[0].error as IDataObject;
		expect(String(error.message)).toMatch(
			/Amount \(RUB\) must be given as text when it is a number/,
		);
	});

	/** checkAmount alone, for many values: the number the source wrote, or a refusal. */
	const node = { name: 'Company Payments' } as INode;
	const ctx = { getNode: () => node } as unknown as IExecuteFunctions;
	const take = (value: unknown): number | Error => {
		try {
			return checkAmount(ctx, 0, value, 'Amount (RUB)');
		} catch (error) {
			return error as Error;
		}
	};

	/** `length` decimal digits, the first not 0. */
	const digits = (length: number) =>
		fc
			.tuple(
				fc.integer({ min: 1, max: 9 }),
				fc.array(fc.integer({ min: 0, max: 9 }), { minLength: length - 1, maxLength: length - 1 }),
			)
			.map(([first, rest]) => `${first}${rest.join('')}`);

	/**
	 * A source amount of at most 2 decimal places, written as a person or a system writes it
	 * (`1500.50` or `1500.5`): of every size from 0.01 to 10^16 alike (each count of digits
	 * before the point as likely), and next to the rule's bound 10^13.
	 */
	const whole = fc.oneof(
		fc.constant('0'),
		fc.integer({ min: 1, max: 16 }).chain(digits),
		fc.constantFrom('9999999999999', '10000000000000'),
	);
	const source = fc
		.tuple(whole, fc.integer({ min: 0, max: 99 }), fc.boolean())
		.filter(([w, c]) => w !== '0' || c > 0)
		.map(([w, c, trimmed]) => {
			const part = String(c).padStart(2, '0');
			return trimmed ? `${w}.${part}`.replace(/\.?0+$/, '') : `${w}.${part}`;
		});

	it('property: a number-typed amount is sent only as the very amount the source wrote', () => {
		fc.assert(
			fc.property(source, (text) => {
				const taken = take(parsed(text));
				if (taken instanceof Error) return;
				// The number sent prints as the source's amount (100.50 and 100.5 are one amount).
				const [w, part = ''] = text.split('.');
				const same = part.replace(/0+$/, '') === '' ? w : `${w}.${part.replace(/0+$/, '')}`;
				expect(String(taken)).toBe(same);
			}),
			{ numRuns: 5000 },
		);
	});

	it('property: every source amount below 10^13 with at most 2 decimal places is taken as a number; every one at or above it is refused', () => {
		fc.assert(
			fc.property(source, (text) => {
				const taken = take(parsed(text));
				if (parsed(text) < 1e13) expect(taken).toBe(parsed(text));
				else expect(taken).toBeInstanceOf(Error);
			}),
			{ numRuns: 5000 },
		);
	});
});

/**
 * Payout Create answered by the service's own 500: the node's unknown item, sent under the
 * credential's key API_KEY (its sent write sealed for that key).
 */
async function lostPayoutCreate(): Promise<IDataObject> {
	nock(BASE_URL)
		.post('/payouts')
		.reply(
			500,
			{ errorCode: 'INTERNAL_ERROR', message: 'upstream timeout' },
			{ Date: new Date().toUTCString() },
		);
	const { output } = await runNode({
		parameters: { ...payoutCreate('1500'), additionalFields: { externalId: 'inv-4' } },
		continueOnFail: true,
	});
	expect(output[0].json.paymentOutcome).toBe('unknown');
	return output[0].json;
}

const resolveParameters = (item: IDataObject) => ({
	resource: 'payment',
	operation: 'resolveOutcome',
	unknownItem: item as unknown as string,
});

/** The item after an API key rotation: the credential now holds another key. */
const rotated = () => credentials(OTHER_KEY);

/** The same item with its sent write edited (another amount): its seal no longer holds. */
function edited(item: IDataObject): IDataObject {
	const sent = item.sentWrite as IDataObject;
	return {
		...item,
		sentWrite: { ...sent, details: { ...(sent.details as IDataObject), amountRub: 15 } },
	};
}

describe('r16-money F4: a refused item stays unknown and keeps its sent write', () => {
	const cases: Array<
		[
			string,
			(item: IDataObject) => IDataObject,
			() => ReturnType<typeof credentials> | undefined,
			RegExp,
		]
	> = [
		[
			'bound to the credential before a key rotation',
			(item) => item,
			rotated,
			/must be bound to this credential/,
		],
		[
			'with an edited sent write (its seal does not hold)',
			edited,
			() => undefined,
			/seal does not hold/,
		],
	];

	it.each(cases)(
		'an item %s, with Continue On Fail: paymentOutcome "unknown", its sentWrite and the reason',
		async (_name, change, creds, rule) => {
			const item = change(await lostPayoutCreate());
			const { output, context } = await runNode({
				parameters: resolveParameters(item),
				continueOnFail: true,
				credentials: creds(),
			});
			const out = output[0].json;
			expect(context.requests).toEqual([]);
			expect(out.paymentOutcome).toBe('unknown');
			expect(out.errorCode).toBe('OUTCOME_UNKNOWN');
			expect(out.sentWrite).toEqual(item.sentWrite);
			expect(String(out.error)).toMatch(rule);
			expect(String(out.reason)).toMatch(rule);
			expect(String(out.description)).toMatch(/outcome stays unknown/);
		},
	);

	it.each(cases)(
		'an item %s, thrown: the error carries paymentOutcome "unknown" and the sentWrite in its context',
		async (_name, change, creds, rule) => {
			const item = change(await lostPayoutCreate());
			const error = await runNodeError({
				parameters: resolveParameters(item),
				credentials: creds(),
			});
			expect(error.message).toMatch(rule);
			const context = error.context as IDataObject;
			expect(context.paymentOutcome).toBe('unknown');
			expect(context.sentWrite).toEqual(item.sentWrite);
			expect(String(error.description)).toMatch(/outcome stays unknown/);
		},
	);

	it('with "Continue (using error output)" the same fields travel inside error', async () => {
		const item = await lostPayoutCreate();
		const { output } = await runNode({
			parameters: resolveParameters(item),
			continueOnFail: true,
			onError: 'continueErrorOutput',
			credentials: rotated(),
		});
		const error = output[0].json.error as IDataObject;
		expect(error.paymentOutcome).toBe('unknown');
		expect(error.sentWrite).toEqual(item.sentWrite);
	});

	it('as an AI tool, the refusal answers paymentOutcome "unknown" with the sentWrite', async () => {
		const item = await lostPayoutCreate();
		const { output } = await runTool({
			parameters: { ...resolveParameters(item), unknownItem: JSON.stringify(item) },
			credentials: rotated(),
		});
		expect(output[0].paymentOutcome).toBe('unknown');
		expect(output[0].sentWrite).toEqual(item.sentWrite);
	});

	it('a sent write sealed by another key (made up with the right form) is refused and stays unknown', async () => {
		const item = await lostPayoutCreate();
		const sent = { ...(item.sentWrite as IDataObject) };
		sent.seal = sealOf(OTHER_KEY, sent);
		const forged = { ...item, sentWrite: sent };
		const { output } = await runNode({
			parameters: resolveParameters(forged),
			continueOnFail: true,
		});
		expect(output[0].json.paymentOutcome).toBe('unknown');
		expect(output[0].json.sentWrite).toEqual(sent);
		expect(String(output[0].json.error)).toMatch(/seal does not hold/);
		expect(String(output[0].json.error)).not.toContain(API_KEY);
	});

	it('a claimed "paid" item with an edited sent write is never echoed: it is refused as unknown', async () => {
		const item = edited({ ...(await lostPayoutCreate()), paymentOutcome: 'paid' });
		const { output } = await runNode({ parameters: resolveParameters(item), continueOnFail: true });
		expect(output[0].json.paymentOutcome).toBe('unknown');
	});
});
