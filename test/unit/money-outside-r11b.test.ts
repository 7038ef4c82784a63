import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { forgetAllSentWrites, limitSentWrites } from '../../nodes/shared/money/write';
import { BASE_URL } from './helpers/n8n';
import { resources } from '../../nodes/CompanyPayments/resources';
import { CARD, credentials, moneyRunner, payoutRecord, servePayouts } from './helpers/money';

/*
 * The trade-off of r11-money F1 closed (issue 49): an n8n credential is no sender, so a key edited
 * into it by hand is a new sender; a re-run under an Idempotency Key the credential's earlier key
 * sent is then refused before anything is sent (CREDENTIAL_KEY_CHANGED, unknown), never sent again
 * (the same company would pay twice) and never answered from the earlier key's memory (another
 * company must not see the first one's payment as its own).
 */
beforeAll(() => nock.disableNetConnect());
beforeEach(() => forgetAllSentWrites());
afterEach(() => {
	nock.cleanAll();
	limitSentWrites();
});

const FIRST = 'company-a-first-0001';
const FROM_CONSOLE = 'company-a-console-0002';
const run = moneyRunner({ credentials: credentials(FIRST) });

const payout = (key: string): IDataObject => ({
	resource: 'payout',
	operation: 'create',
	amountRub: '1500',
	requisiteType: 'card',
	requisite: CARD,
	idempotencyKey: key,
	additionalFields: { externalId: 'inv-1' },
});

describe('a key edited by hand into the same n8n credential', () => {
	it('(a) a re-run under the same Idempotency Key is refused, unknown, nothing sent', async () => {
		const posts = servePayouts();
		expect((await run(payout('INV-1042'))).item.id).toBe('p-1');
		const again = await run(payout('INV-1042'), { credentials: credentials(FROM_CONSOLE) });
		expect(posts()).toBe(1);
		expect(again.requests.filter((r) => r.method === 'POST')).toEqual([]);
		expect(again.item.errorCode).toBe('CREDENTIAL_KEY_CHANGED');
		expect(again.item.paymentOutcome).toBe('unknown');
		// Never the earlier payment's record as this company's, never "paid".
		expect(again.item.id).toBeUndefined();
		expect(again.item.existingPaymentId).toBeUndefined();
		const text = `${String(again.item.error)}\n${String(again.item.description)}`;
		expect(text).toMatch(/"INV-1042", this payment's Idempotency Key/);
		expect(text).toMatch(/earlier API key/);
		expect(text).toMatch(/Resolve Outcome on the earlier item/);
		expect(text).toMatch(/another Idempotency Key/);
		expect(text).toMatch(/Nothing was sent/);
		expect(text).toMatch(/"INV-1042": the Idempotency Key sent before/);
		// The API keys are named nowhere.
		expect(JSON.stringify(again.item)).not.toContain(FIRST);
		expect(JSON.stringify(again.item)).not.toContain(FROM_CONSOLE);
	});

	it('(a) an earlier send left unknown is refused the same way, nothing sent', async () => {
		let posts = 0;
		nock(BASE_URL)
			.post('/payouts')
			.reply(() => {
				posts += 1;
				return [502, '<html>Bad Gateway</html>'];
			})
			.persist();
		expect((await run(payout('INV-7'))).item.paymentOutcome).toBe('unknown');
		const again = await run(payout('INV-7'), { credentials: credentials(FROM_CONSOLE) });
		expect(posts).toBe(1);
		expect(again.item.errorCode).toBe('CREDENTIAL_KEY_CHANGED');
		expect(again.item.paymentOutcome).toBe('unknown');
	});

	it('(a) a payment kept only as a named trace is refused the same way', async () => {
		const posts = servePayouts();
		// One write kept whole, none held: the second write turns the first into a trace.
		limitSentWrites({ maxKept: 1, heldMs: 0 });
		await run(payout('INV-1042'));
		await run({ ...payout('INV-5000'), additionalFields: { externalId: 'inv-2' } });
		const again = await run(payout('INV-1042'), { credentials: credentials(FROM_CONSOLE) });
		expect(posts()).toBe(2);
		expect(again.item.errorCode).toBe('CREDENTIAL_KEY_CHANGED');
		expect(again.item.paymentOutcome).toBe('unknown');
	});

	it('(b) another payment under a new Idempotency Key is sent normally', async () => {
		const posts = servePayouts();
		await run(payout('INV-1042'));
		const other = await run(payout('INV-2000'), { credentials: credentials(FROM_CONSOLE) });
		expect(other.item.error).toBeUndefined();
		expect(other.item.id).toBe('p-2');
		expect(posts()).toBe(2);
	});

	it('(c) a key issued by Regenerate API Key is answered from memory, not refused', async () => {
		const posts = servePayouts();
		await run(payout('INV-1042'));
		nock(BASE_URL).post('/auth/company/regenerate-key').reply(200, { apiKey: FROM_CONSOLE });
		await run({ resource: 'company', operation: 'regenerateApiKey' });
		const again = await run(payout('INV-1042'), { credentials: credentials(FROM_CONSOLE) });
		expect(again.item.error).toBeUndefined();
		expect(again.item.id).toBe('p-1');
		expect(posts()).toBe(1);
	});

	it('(d) another n8n credential holding the new key is another credential: its write is its own', async () => {
		const posts = servePayouts();
		await run(payout('INV-1042'));
		const other = await run(payout('INV-1042'), {
			credentials: credentials(FROM_CONSOLE),
			credentialId: 'cred-B',
		});
		expect(other.item.error).toBeUndefined();
		expect(other.item.id).toBe('p-2');
		// Two credentials holding the same key are one sender (outside r10-money F5).
		const same = await run(payout('INV-1042'), { credentialId: 'cred-C' });
		expect(same.item.error).toBeUndefined();
		expect(same.item.id).toBe('p-1');
		expect(posts()).toBe(2);
	});
});

describe('the API key as it is sent (outside r12-money F1)', () => {
	it('a key pasted with spaces or a line break is the same sender as the key typed clean', async () => {
		const posts = servePayouts();
		expect((await run(payout('INV-W'))).item.id).toBe('p-1');
		// Another credential, the same key with a paste's line break: the key sent is the same.
		const pasted = await run(payout('INV-W'), {
			credentials: credentials(`  ${FIRST}\n`),
			credentialId: 'cred-B',
		});
		expect(pasted.item.error).toBeUndefined();
		expect(pasted.item.id).toBe('p-1');
		// The same credential, the key pasted again with a trailing space: not a changed key.
		const repasted = await run(payout('INV-W'), { credentials: credentials(`${FIRST} `) });
		expect(repasted.item.errorCode).toBeUndefined();
		expect(repasted.item.id).toBe('p-1');
		expect(posts()).toBe(1);
	});
});

describe('a payout answered with no status (outside r12-money F2)', () => {
	it('is unknown with its sent write, as its read-again is, never a plain success', async () => {
		nock(BASE_URL)
			.post('/payouts')
			.reply(200, () => {
				const answer = payoutRecord({ id: 'p-1' });
				delete answer.status;
				return answer;
			});
		const { item } = await run(payout('INV-NS'));
		expect(item.paymentOutcome).toBe('unknown');
		expect(item.sentWrite).toEqual(expect.objectContaining({ seal: expect.any(String) }));
		expect(`${String(item.error)} ${String(item.description)}`).toMatch(/shows no status/);
	});
});

describe('what the model is told', () => {
	it('every money tool says a reference asked again after a key changed by hand is refused', () => {
		const money = resources.flatMap((resource) =>
			resource.operations.filter((operation) => operation.kind === 'money'),
		);
		expect(money.length).toBeGreaterThanOrEqual(6);
		const unsaid = money
			.filter((operation) => {
				const text = operation.tool?.text ?? '';
				return !(
					text.includes('CREDENTIAL_KEY_CHANGED') &&
					text.includes('changed by hand in the same credential')
				);
			})
			.map((operation) => operation.name);
		expect(unsaid).toEqual([]);
	});
});
