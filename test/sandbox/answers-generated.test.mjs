// Generated mode, issue 28: answers the node must check rather than trust. Per seed the service
// ignores every query parameter the document does not show for a list, names a list's record
// IDs the way its webhook event does (`depositId` instead of `id`), and stores a dispute's reason
// normalised, so the open dispute it returns again never repeats the text sent.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { drawAnswers, drawChoices, LIST_ANSWERS } from '../../sandbox/lib/generated.mjs';
import { KEYS, client, control, openSandbox, placeOrder, seedWhere } from './helpers.mjs';

const SEEDS = Array.from({ length: 50 }, (_, i) => i + 1);

describe('generated answers: the draws', () => {
	it('the same seed draws the same answers, and they are part of the choices', () => {
		assert.deepEqual(drawAnswers(9), drawAnswers(9));
		assert.deepEqual(drawChoices(9).answers, drawAnswers(9));
	});

	it('50 seeds cover every value: ignored query and event-named IDs per list, both dispute reasons', () => {
		const all = SEEDS.map(drawAnswers);
		for (const [pattern, spec] of Object.entries(LIST_ANSWERS)) {
			const ignores = new Set(all.map((a) => a.lists[pattern].ignoresQuery));
			assert.deepEqual([...ignores].sort(), [false, true], `${pattern} ignoresQuery`);
			const names = new Set(all.map((a) => a.lists[pattern].idField));
			const expected = spec.eventId ? ['id', spec.eventId] : ['id'];
			assert.deepEqual([...names].sort(), expected.sort(), `${pattern} idField`);
		}
		const reasons = new Set(all.map((a) => a.disputeReason));
		assert.deepEqual([...reasons].sort(), ['as sent', 'normalised']);
	});
});

describe('generated answers: the service plays them', () => {
	let sandbox;
	let api;
	let ctl;
	before(async () => {
		sandbox = await openSandbox({ generated: 1 });
		api = client(sandbox, KEYS.owner);
		ctl = control(sandbox);
	});
	after(() => sandbox.close());

	/** Switches to a seed with churn paused; faults (and so these answers) on or paused. */
	const useSeed = async (seed, { faults = true } = {}) => {
		const res = await ctl.post('/generated', { seed });
		assert.equal(res.status, 200, res.text);
		await ctl.post('/generated/pause', { faults: !faults, churn: true });
		// Only the answers are wanted here: no 429, 502 or redirect from the other draws.
		return res.body.choices;
	};
	const recordsOf = (body) =>
		Array.isArray(body) ? body : Object.values(body).find(Array.isArray);
	const quiet = (c) => !c.rateLimit && !c.proxy502 && !c.redirect;

	it('a list that ignores its status filter answers deposits of every status; paused, it filters', async () => {
		const seed = seedWhere(
			(c) => quiet(c) && c.answers.lists['/wallets/deposits'].ignoresQuery,
			'company deposits ignoring their query, no faults',
		);
		await useSeed(seed);
		const ignored = recordsOf((await api.get('/wallets/deposits?status=completed&limit=100')).body);
		assert.ok(
			ignored.some((d) => d.status !== 'completed'),
			'other statuses come back',
		);
		const log = (await ctl.get('/generated')).body.draws;
		assert.ok(
			log.some((d) => d.kind === 'ignoredQuery' && d.ignored.includes('status')),
			'the draw log says which parameter was ignored',
		);
		await ctl.post('/generated/pause', { faults: true, churn: true });
		const honoured = recordsOf(
			(await api.get('/wallets/deposits?status=completed&limit=100')).body,
		);
		assert.ok(honoured.length > 0 && honoured.every((d) => d.status === 'completed'));
	});

	it('parameters the document shows are honoured even by a service that ignores the rest', async () => {
		const seed = seedWhere(
			(c) => quiet(c) && c.answers.lists['/user-wallets/deposits'].ignoresQuery,
			'user-wallet deposits ignoring their query, no faults',
		);
		await useSeed(seed);
		const filtered = recordsOf(
			(await api.get('/user-wallets/deposits?externalId=user-1001&status=completed&walletId=x'))
				.body,
		);
		assert.ok(filtered.length >= 1, 'the seeded completed deposit of user-1001');
		for (const d of filtered) {
			assert.equal(d.externalId, 'user-1001', 'externalId is shown: applied');
			assert.equal(d.status, 'completed', 'status is shown: applied');
		}
		const log = (await ctl.get('/generated')).body.draws;
		const ignored = log.filter((d) => d.kind === 'ignoredQuery').flatMap((d) => d.ignored);
		assert.deepEqual(ignored, ['walletId'], 'only the parameter the document does not show');
	});

	it("a list that names IDs the event's way answers depositId and no id; paused, id", async () => {
		const seed = seedWhere(
			(c) => quiet(c) && c.answers.lists['/wallets/deposits'].idField === 'depositId',
			'deposits keyed depositId, no faults',
		);
		await useSeed(seed);
		const renamed = recordsOf((await api.get('/wallets/deposits?limit=5')).body);
		assert.ok(renamed.length > 0);
		for (const d of renamed) {
			assert.equal(typeof d.depositId, 'string');
			assert.ok(!('id' in d), 'no id field');
		}
		// The single record is still found by that ID.
		await ctl.post('/generated/pause', { faults: true, churn: true });
		const plain = recordsOf((await api.get('/wallets/deposits?limit=5')).body);
		assert.deepEqual(
			plain.map((d) => d.id),
			renamed.map((d) => d.depositId),
		);
	});

	it('a service that normalises reasons returns the open dispute with text other than any sent', async () => {
		const seed = seedWhere(
			(c) => quiet(c) && c.answers.disputeReason === 'normalised',
			'normalised dispute reasons, no faults',
		);
		await useSeed(seed);
		const order = await placeOrder(api, { kopecks: 955000 });
		await ctl.post(`/orders/${order.id}/status`, { status: 'success' });
		const first = await api.post(`/orders/${order.id}/disputes`, {
			reason: '  The Shop   says it was NOT paid ',
		});
		assert.equal(first.status, 201, first.text);
		assert.equal(first.body.reason, 'the shop says it was not paid');
		const again = await api.post(`/orders/${order.id}/disputes`, {
			reason: 'the shop says it was not paid',
		});
		assert.equal(again.status, 200, 'the open one');
		assert.equal(again.body.id, first.body.id);
		assert.equal(
			again.body.reason,
			'the shop says it was not paid',
			'same text as sent, yet existing',
		);

		const asSent = seedWhere(
			(c) => quiet(c) && c.answers.disputeReason === 'as sent',
			'dispute reasons as sent, no faults',
		);
		await useSeed(asSent);
		const other = await placeOrder(api, { kopecks: 955000 });
		await ctl.post(`/orders/${other.id}/status`, { status: 'success' });
		const kept = await api.post(`/orders/${other.id}/disputes`, { reason: '  Kept  As Sent ' });
		assert.equal(kept.body.reason, 'Kept  As Sent');
	});
});
