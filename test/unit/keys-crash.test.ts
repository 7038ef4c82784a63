import nock from 'nock';

import { BASE_URL, derivedKey, runNode } from './helpers/n8n';
import type { ContextOptions } from './helpers/n8n';

/**
 * Issue 44.3: the Idempotency-Key of one execution's item is the same on every run of that
 * execution, read only from what n8n gives every run (instance, workflow, execution, node, run
 * index, item), never from anything a run stores.
 */
beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const PAYOUT = {
	resource: 'payout',
	operation: 'create',
	amountRub: '1500',
	requisiteType: 'card',
	requisite: '2200123456789012',
};

async function keySent(options: Partial<ContextOptions>): Promise<string> {
	let key = '';
	nock(BASE_URL)
		.post('/payouts')
		.reply(function () {
			key = String(this.req.headers['idempotency-key']);
			return [
				201,
				{
					id: 'po-1',
					status: 'waiting_trader',
					amountRub: 1500,
					requisiteType: 'card',
					requisite: '2200123456789012',
				},
			];
		});
	await runNode({ parameters: PAYOUT, continueOnFail: true, ...options });
	return key;
}

describe('Payout Create: one key for every run of one execution', () => {
	it('a queue worker that died mid-write, its job run again by another worker (nothing saved): the same key', async () => {
		const died = await keySent({ executionId: '4242', customData: new Map() });
		const rerun = await keySent({ executionId: '4242', customData: new Map() });
		expect(rerun).toBe(died);
		expect(died).toBe(derivedKey(0, 0, '4242'));
	});

	it('Retry On Fail in the same process: the write kept under the same key is not sent again', async () => {
		const first = await keySent({ executionId: '4243' });
		const retried = await keySent({
			executionId: '4243',
			sameProcess: true,
			customData: new Map(),
		});
		expect(first).toBe(derivedKey(0, 0, '4243'));
		expect(retried).toBe('');
	});

	it('a Wait resume or a retry in another process (same run, other custom data): the same key', async () => {
		const first = await keySent({ executionId: '4246' });
		const resumed = await keySent({ executionId: '4246', customData: new Map([['other', 'x']]) });
		expect(resumed).toBe(first);
	});

	it('another execution, another run of the node, another item or another instance: another key', async () => {
		const base = await keySent({ executionId: '4244' });
		const others = [
			await keySent({ executionId: '4245' }),
			await keySent({ executionId: '4244', runIndex: 1 }),
			await keySent({ executionId: '4244', instanceId: 'c'.repeat(64) }),
			await keySent({ executionId: '4244', workflowId: 'wf-other' }),
		];
		expect(new Set([base, ...others]).size).toBe(5);
	});
});
