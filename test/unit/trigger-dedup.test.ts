import { createHash } from 'node:crypto';
import type { IDataObject, INode, INodeType, INodeTypes } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { CompanyPaymentsTrigger } from '../../nodes/CompanyPaymentsTrigger/CompanyPaymentsTrigger.node';
import { readPersisted, storedId } from '../../nodes/CompanyPaymentsTrigger/deliveries';
import { deliver, freshNodeId, roundTrip, SAMPLE_EVENTS } from './helpers/trigger';
import type { DeliveryResult } from './helpers/trigger';

const T0 = Date.parse('2026-11-21T12:00:00.000Z');
const HOUR = 3_600_000;

function executed(outcome: DeliveryResult): boolean {
	return outcome.result.workflowData !== undefined;
}

function expectDuplicate(outcome: DeliveryResult, deliveryId: string): void {
	expect(outcome.result.workflowData).toBeUndefined();
	expect(outcome.result.noWebhookResponse).toBeUndefined();
	expect(outcome.result.webhookResponse).toEqual({
		received: true,
		executed: false,
		reason: `delivery ${deliveryId} was received before`,
	});
	expect(outcome.response.ended).toBe(false);
}

/** The delivery IDs the persisted store holds (what survives a restart). */
/** The delivery IDs the store holds (the plain IDs of these tests are kept as `delivery:-:<id>`). */
function seenIds(staticData: IDataObject): string[] {
	return readPersisted(staticData.deliveries).map(([key]) => key.replace(/^delivery:-:/, ''));
}

function acceptedAt(staticData: IDataObject, deliveryId: string): number | undefined {
	return readPersisted(staticData.deliveries).find(([key]) => key === storedId(deliveryId))?.[1];
}

/** A fresh copy of the trigger module: what a restarted n8n process (or another one) loads. */
async function loadTriggerInNewProcess(): Promise<INodeType> {
	let nodeType: INodeType | undefined;
	await jest.isolateModulesAsync(async () => {
		const module = await import('../../nodes/CompanyPaymentsTrigger/CompanyPaymentsTrigger.node');
		nodeType = new module.CompanyPaymentsTrigger();
	});
	return nodeType as INodeType;
}

describe('deduplication by X-Service-Delivery-Id', () => {
	it('answers a sequential retry 200 without starting an execution', async () => {
		const nodeId = freshNodeId();
		let staticData: IDataObject = {};
		const first = await deliver({ nodeId, staticData, deliveryId: 'd-1' });
		expect(executed(first)).toBe(true);
		expect(first.item).toMatchObject({ deliveryId: 'd-1', deduplicationChecked: true });

		for (let attempt = 2; attempt <= 4; attempt++) {
			staticData = roundTrip(staticData);
			expectDuplicate(await deliver({ nodeId, staticData, deliveryId: 'd-1' }), 'd-1');
		}
		expect(executed(await deliver({ nodeId, staticData, deliveryId: 'd-2' }))).toBe(true);
	});

	it('starts one execution for concurrent duplicates in one process', async () => {
		const nodeId = freshNodeId();
		const snapshot = {};
		const outcomes = await Promise.all(
			Array.from(
				{ length: 8 },
				async () =>
					// Each request loads its own copy of the static data, as n8n does per request.
					await deliver({ nodeId, staticData: roundTrip(snapshot), deliveryId: 'd-concurrent' }),
			),
		);
		expect(outcomes.filter(executed)).toHaveLength(1);
		for (const outcome of outcomes.filter((o) => !executed(o))) {
			expectDuplicate(outcome, 'd-concurrent');
		}
	});

	it('lets every concurrent request persist the ids of the others (no lost update)', async () => {
		const nodeId = freshNodeId();
		const loaded = [roundTrip({}), roundTrip({}), roundTrip({})];
		await Promise.all(
			loaded.map(
				async (staticData, i) => await deliver({ nodeId, staticData, deliveryId: `c-${i}` }),
			),
		);
		// Whichever of the three n8n saves last, the database holds all three ids.
		for (const staticData of loaded) {
			expect(seenIds(roundTrip(staticData)).sort()).toEqual(['c-0', 'c-1', 'c-2']);
		}
	});

	it('checks the signature before the delivery id, so a forged retry still gets 401', async () => {
		const nodeId = freshNodeId();
		const staticData = {};
		await deliver({ nodeId, staticData, deliveryId: 'd-known' });
		const forged = await deliver({
			nodeId,
			staticData,
			deliveryId: 'd-known',
			signature: 'f'.repeat(64),
		});
		expect(forged.response.statusCode).toBe(401);
		expect(forged.result).toEqual({ noWebhookResponse: true });
	});

	it('processes a delivery without the header and says it could not be deduplicated', async () => {
		const nodeId = freshNodeId();
		const staticData = {};
		const first = await deliver({ nodeId, staticData, deliveryId: null });
		const second = await deliver({ nodeId, staticData, deliveryId: null });
		for (const outcome of [first, second]) {
			expect(executed(outcome)).toBe(true);
			expect(outcome.item).toMatchObject({ deliveryId: null, deduplicationChecked: false });
		}
		expect(seenIds(staticData)).toEqual([]);
	});

	it('treats an empty header like a missing one', async () => {
		const outcome = await deliver({ deliveryId: '  ' });
		expect(outcome.item).toMatchObject({ deliveryId: null, deduplicationChecked: false });
	});

	it('does not record deliveries of events that are not selected', async () => {
		const nodeId = freshNodeId();
		const staticData = {};
		const skipped = await deliver({
			nodeId,
			staticData,
			deliveryId: 'd-skip',
			body: SAMPLE_EVENTS['card.assigned'],
			parameters: { events: ['order.status_changed'] },
		});
		expect(skipped.result.webhookResponse).toMatchObject({ executed: false });
		expect(seenIds(staticData)).toEqual([]);
	});

	it('keeps very long ids as a hash', async () => {
		const nodeId = freshNodeId();
		const staticData: IDataObject = {};
		const longId = 'x'.repeat(500);
		await deliver({ nodeId, staticData, deliveryId: longId });
		expect(readPersisted(staticData.deliveries).map(([key]) => key)).toEqual([storedId(longId)]);
		expect(storedId(longId)).toMatch(/^delivery:-:%sha256-[0-9a-f]{64}$/);
		expectDuplicate(await deliver({ nodeId, staticData, deliveryId: longId }), longId);
	});

	it('keys a delivery by identity(): no id passes for the stored form of another (issue 36.4)', async () => {
		const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
		const longId = 'y'.repeat(500);
		// The stored form of a long id, sent as an id of its own: before, `sha256:<hex>`; with
		// identity() and fitted(), `sha256-<hex of the identity>` as the hashed part.
		for (const lookalike of [
			`sha256:${sha256(longId)}`,
			`sha256-${sha256(`delivery:-:${longId}`)}`,
			`%sha256-${sha256(`delivery:-:${longId}`)}`,
		]) {
			const nodeId = freshNodeId();
			const staticData = {};
			expect(executed(await deliver({ nodeId, staticData, deliveryId: lookalike }))).toBe(true);
			expect(executed(await deliver({ nodeId, staticData, deliveryId: longId }))).toBe(true);
		}
		expect(storedId('a:b')).toBe('delivery:-:a%3Ab');
		expect(storedId('d-1', ['wf-1', 'node-1', 'live'])).not.toBe(
			storedId('d-1', ['wf-1', 'node-1', 'test']),
		);
	});

	it('keeps an id named like an Object property as plain data', async () => {
		const nodeId = freshNodeId();
		const staticData = {};
		expect(executed(await deliver({ nodeId, staticData, deliveryId: '__proto__' }))).toBe(true);
		expect(executed(await deliver({ nodeId, staticData, deliveryId: 'constructor' }))).toBe(true);
		const reloaded = roundTrip(staticData);
		expectDuplicate(
			await deliver({ nodeId, staticData: reloaded, deliveryId: '__proto__' }),
			'__proto__',
		);
	});
});

describe('bounded store', () => {
	it('forgets the oldest ids beyond Deduplication Store Size', async () => {
		const nodeId = freshNodeId();
		const staticData = {};
		const parameters = { options: { dedupMaxEntries: 3 } };
		const now = jest.spyOn(Date, 'now');
		for (const [i, id] of ['a', 'b', 'c', 'd'].entries()) {
			now.mockReturnValue(T0 + i);
			expect(executed(await deliver({ nodeId, staticData, parameters, deliveryId: id }))).toBe(
				true,
			);
		}
		expect(seenIds(staticData).sort()).toEqual(['b', 'c', 'd']);
		expectDuplicate(await deliver({ nodeId, staticData, parameters, deliveryId: 'd' }), 'd');
		expectDuplicate(await deliver({ nodeId, staticData, parameters, deliveryId: 'b' }), 'b');
		// "a" was evicted: a late redelivery of it runs again.
		expect(executed(await deliver({ nodeId, staticData, parameters, deliveryId: 'a' }))).toBe(true);
		expect(seenIds(staticData).sort()).toEqual(['a', 'c', 'd']);
	});

	it('forgets ids older than Deduplication Window (Hours)', async () => {
		const nodeId = freshNodeId();
		const staticData = {};
		const parameters = { options: { dedupMaxAgeHours: 1 } };
		const now = jest.spyOn(Date, 'now');

		now.mockReturnValue(T0);
		await deliver({ nodeId, staticData, parameters, deliveryId: 'old' });
		now.mockReturnValue(T0 + 30 * 60_000);
		await deliver({ nodeId, staticData, parameters, deliveryId: 'newer' });

		now.mockReturnValue(T0 + HOUR);
		expectDuplicate(await deliver({ nodeId, staticData, parameters, deliveryId: 'old' }), 'old');

		now.mockReturnValue(T0 + HOUR + 1);
		expect(executed(await deliver({ nodeId, staticData, parameters, deliveryId: 'old' }))).toBe(
			true,
		);
		expect(seenIds(staticData).sort()).toEqual(['newer', 'old']);
		expect(acceptedAt(staticData, 'old')).toBe(T0 + HOUR + 1);
	});

	it('uses the defaults (1000 entries, 24 hours) when the options are not set', async () => {
		const nodeId = freshNodeId();
		const staticData = {};
		const now = jest.spyOn(Date, 'now');
		now.mockReturnValue(T0);
		await deliver({ nodeId, staticData, deliveryId: 'day-old' });
		now.mockReturnValue(T0 + 24 * HOUR);
		expectDuplicate(await deliver({ nodeId, staticData, deliveryId: 'day-old' }), 'day-old');
		now.mockReturnValue(T0 + 24 * HOUR + 1);
		expect(executed(await deliver({ nodeId, staticData, deliveryId: 'day-old' }))).toBe(true);
	});

	it('holds the cap with many deliveries and keeps the newest', async () => {
		const nodeId = freshNodeId();
		const staticData = {};
		const parameters = { options: { dedupMaxEntries: 50 } };
		for (let i = 0; i < 200; i++) {
			await deliver({ nodeId, staticData, parameters, deliveryId: `bulk-${i}` });
		}
		const ids = seenIds(staticData);
		expect(ids).toHaveLength(50);
		expect(ids).toContain('bulk-199');
		expect(ids).not.toContain('bulk-149');
	});
});

describe('the persisted form', () => {
	it('is a few strings, not one key per ID, and holds exactly the entries kept in memory', async () => {
		const nodeId = freshNodeId();
		const staticData: IDataObject = {};
		const parameters = { options: { dedupMaxEntries: 150 } };
		for (let i = 0; i < 300; i++) {
			await deliver({ nodeId, staticData, parameters, deliveryId: `p-${i}` });
		}
		const saved = roundTrip(staticData).deliveries as { chunks: string[] };
		expect(saved.chunks.length).toBeLessThanOrEqual(4);
		expect(saved.chunks.every((chunk) => typeof chunk === 'string')).toBe(true);
		expect(seenIds(staticData)).toEqual(Array.from({ length: 150 }, (_, i) => `p-${150 + i}`));
	});

	it('keeps at most 1000 IDs by default', async () => {
		const nodeId = freshNodeId();
		const staticData: IDataObject = {};
		for (let i = 0; i < 1100; i++) await deliver({ nodeId, staticData, deliveryId: `d-${i}` });
		const ids = seenIds(staticData);
		expect(ids).toHaveLength(1000);
		expect(ids[0]).toBe('d-100');
	});

	it('skips malformed lines of a store it reads back', () => {
		expect(readPersisted({ chunks: ['zz a\n', 'no-space\n', ' lead\n', 'k b c\n', 42] })).toEqual([
			['a', parseInt('zz', 36)],
			['b c', parseInt('k', 36)],
		]);
		expect(readPersisted({ seen: { a: 1 } })).toEqual([]);
	});
});

describe('persistence across restarts and processes', () => {
	it('still deduplicates after a restart (new module state, same static data)', async () => {
		const nodeId = freshNodeId();
		const before = {};
		await deliver({ nodeId, staticData: before, deliveryId: 'before-restart' });
		const saved = roundTrip(before);

		const restarted = await loadTriggerInNewProcess();
		const retry = await deliver(
			{ nodeId, staticData: roundTrip(saved), deliveryId: 'before-restart' },
			restarted,
		);
		expectDuplicate(retry, 'before-restart');

		const next = roundTrip(saved);
		expect(
			executed(await deliver({ nodeId, staticData: next, deliveryId: 'after' }, restarted)),
		).toBe(true);
		// The restarted process writes back the ids it took over plus its own.
		expect(seenIds(roundTrip(next)).sort()).toEqual(['after', 'before-restart']);
	});

	it('drops ids older than the window when taking over a saved store', async () => {
		const nodeId = freshNodeId();
		const now = jest.spyOn(Date, 'now');
		now.mockReturnValue(T0);
		const before = {};
		await deliver({ nodeId, staticData: before, deliveryId: 'ancient' });

		const restarted = await loadTriggerInNewProcess();
		now.mockReturnValue(T0 + 25 * HOUR);
		expect(
			executed(
				await deliver({ nodeId, staticData: roundTrip(before), deliveryId: 'ancient' }, restarted),
			),
		).toBe(true);
	});

	it('sees a retry that reaches another webhook process after the first one saved', async () => {
		const nodeId = freshNodeId();
		const processA = await loadTriggerInNewProcess();
		const processB = await loadTriggerInNewProcess();
		let database: IDataObject = {};

		const a = await deliver(
			{ nodeId, staticData: roundTrip(database), deliveryId: 'q-1' },
			processA,
		);
		expect(executed(a)).toBe(true);
		database = roundTrip(a.staticData);

		const b = await deliver(
			{ nodeId, staticData: roundTrip(database), deliveryId: 'q-1' },
			processB,
		);
		expectDuplicate(b, 'q-1');
	});

	it("makes n8n's static data tracking see the change, so n8n saves it", async () => {
		const nodeId = freshNodeId();
		const node: INode = {
			id: nodeId,
			name: 'Company Payments Trigger',
			type: 'n8n-nodes-company-payments.companyPaymentsTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		};
		const trigger = new CompanyPaymentsTrigger();
		const nodeTypes = {
			getByName: () => trigger,
			getByNameAndVersion: () => trigger,
			getKnownTypes: () => ({}),
		} as unknown as INodeTypes;
		const load = (staticData: IDataObject) =>
			new Workflow({
				id: 'wf-1',
				nodes: [node],
				connections: {},
				active: true,
				nodeTypes,
				staticData,
			});

		const first = load({});
		await deliver({ nodeId, staticData: first.getStaticData('node', node), deliveryId: 'obs-1' });
		expect(first.staticData.__dataChanged).toBe(true);
		const saved = roundTrip(first.staticData);

		// The next request loads what was saved; a duplicate changes nothing, so nothing is saved.
		const second = load(saved);
		const retry = await deliver({
			nodeId,
			staticData: second.getStaticData('node', node),
			deliveryId: 'obs-1',
		});
		expectDuplicate(retry, 'obs-1');
		expect(second.staticData.__dataChanged).toBe(false);
	});

	it('has a later delivery saved although starting the execution resets the change flag (n8n 2.41)', async () => {
		const nodeId = freshNodeId();
		const node: INode = {
			id: nodeId,
			name: 'Company Payments Trigger',
			type: 'n8n-nodes-company-payments.companyPaymentsTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		};
		const trigger = new CompanyPaymentsTrigger();
		const nodeTypes = {
			getByName: () => trigger,
			getByNameAndVersion: () => trigger,
			getKnownTypes: () => ({}),
		} as unknown as INodeTypes;
		const load = (staticData: IDataObject) =>
			new Workflow({
				id: 'wf-1',
				nodes: [node],
				connections: {},
				active: true,
				nodeTypes,
				staticData,
			});

		// Static data already in the database (the registration, or an earlier delivery).
		const raw = roundTrip({ [`node:${node.name}`]: { registration: { url: 'u' } } });
		const request = load(raw);
		const outcome = await deliver({
			nodeId,
			staticData: request.getStaticData('node', node),
			deliveryId: 'later-1',
		});
		// n8n saves the static data when the answer goes out, if the flag is set then. When the
		// node writes the answer itself (noWebhookResponse), that is before the execution starts;
		// otherwise n8n answers after WorkflowRunner.run(), which first builds a Workflow from the
		// same static data object, and that resets the flag.
		const answeredByNode = outcome.result.noWebhookResponse === true;
		const flaggedAtAnswer = answeredByNode ? request.staticData.__dataChanged : undefined;
		load(raw); // what WorkflowRunner.run() does with the request's static data in n8n 2.41
		const flaggedAtSave = answeredByNode ? flaggedAtAnswer : request.staticData.__dataChanged;
		expect(flaggedAtSave).toBe(true);
		expect(outcome.response.statusCode).toBe(200);
	});

	it('writes a versioned store naming its writer', async () => {
		const staticData: IDataObject = {};
		await deliver({ staticData, deliveryId: 'v-1' });
		const saved = roundTrip(staticData).deliveries as IDataObject;
		expect(saved).toEqual({
			v: 2,
			writer: expect.stringMatching(/^[0-9a-f]{16}$/),
			chunks: [expect.stringMatching(/^[0-9a-z]+ delivery:-:v-1\n$/)],
		});
	});
});
