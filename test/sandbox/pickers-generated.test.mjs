// The record pickers (resource locators, "From list") against the contract's open list choices:
// for each generated seed, the built list-search methods are called as n8n's editor calls them
// (the search text, then the pagination token each answer hands back, until none), and what
// they list must be every record the sandbox holds, each once, whatever page cap (3 to 100),
// envelope (bare array, `items`/`data`/`results`/…, with or without a total or a count) and
// order the seed drew. Churn is paused: with records arriving mid-list "each once" is not
// defined for a picker. Faults are paused too, except in the last two cases: under the drawn
// 429 bursts (with Retry-After) and proxy 502s a picker still lists every record once, and the
// drawn redirect makes it fail with the status and the Location, its key never at the trap.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

import { KEYS, client, control, editorContext, openSandbox, seedWhere } from './helpers.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
const { listSearch } = require(path.join(ROOT, 'dist/nodes/CompanyPayments/listSearch/index.js'));

const SEEDS = (process.env.GENERATED_SEEDS ?? '1,2,3,4,5,6,7,8,9,10')
	.split(',')
	.map((s) => s.trim())
	.filter(Boolean);

/** Every entry a picker lists for `filter`, following its pagination tokens like the editor. */
async function listAll(sandbox, method, filter = '') {
	const values = [];
	let token;
	for (let call = 0; call < 500; call++) {
		const answer = await listSearch[method].call(editorContext(sandbox), filter, token);
		for (const entry of answer.results) {
			assert.equal(typeof entry.name, 'string');
			values.push(entry.value);
		}
		token = answer.paginationToken;
		if (token === undefined) return values;
	}
	throw new Error(`${method}: still handing tokens after 500 calls`);
}

function assertEachOnce(listed, expected, what) {
	const duplicates = listed.filter((id, i) => listed.indexOf(id) !== i);
	assert.deepEqual(duplicates, [], `${what}: listed twice`);
	assert.deepEqual([...listed].sort(), [...expected].sort(), `${what}: not the records held`);
}

describe('record pickers over generated list choices', () => {
	let sandbox;
	let api;
	let ctl;
	before(async () => {
		sandbox = await openSandbox({ generated: SEEDS[0] });
		api = client(sandbox, KEYS.owner);
		ctl = control(sandbox);
	});
	after(() => sandbox.close());

	for (const seed of SEEDS) {
		it(`seed ${seed}: payouts, cancelable payouts, orders, cards and user wallets, each once`, async () => {
			const started = await ctl.post('/generated', { seed });
			assert.equal(started.status, 200, started.text);
			await ctl.post('/generated/pause', { faults: true, churn: true });
			const { lists } = started.body.choices;
			const bulk = await ctl.post('/payouts/bulk', { count: 140 });
			assert.ok(bulk.status < 300, bulk.text);
			for (let i = 0; i < 9; i++) {
				const res = await api.post('/user-wallets', { externalId: `picker-${seed}-${i}` });
				assert.ok(res.status < 300, res.text);
			}
			const truth = (pattern) => sandbox.generated.truth(pattern, sandbox.company.id)?.ids ?? [];
			const drawn = (pattern) => JSON.stringify(lists[pattern]);

			const payouts = truth('/payouts');
			assert.ok(payouts.length > 140);
			assertEachOnce(await listAll(sandbox, 'getPayouts'), payouts, `payouts ${drawn('/payouts')}`);

			const statuses = await Promise.all(
				payouts.map(async (id) => (await api.get(`/payouts/${id}`)).body.status),
			);
			const waiting = payouts.filter((_, i) => statuses[i] === 'waiting_trader');
			assertEachOnce(
				await listAll(sandbox, 'getCancelablePayouts'),
				waiting,
				`cancelable payouts ${drawn('/payouts')}`,
			);

			assertEachOnce(
				await listAll(sandbox, 'getOrders'),
				truth('/orders'),
				`orders ${drawn('/orders')}`,
			);
			assertEachOnce(
				await listAll(sandbox, 'getCards'),
				truth('/cards'),
				`cards ${drawn('/cards')}`,
			);
			const wallets = [...sandbox.state.userWallets.values()]
				.filter((wallet) => wallet.companyId === sandbox.company.id)
				.map((wallet) => wallet.id);
			assert.ok(wallets.length >= 9);
			assertEachOnce(
				await listAll(sandbox, 'getUserWallets'),
				wallets,
				`user wallets ${drawn('/user-wallets')}`,
			);

			// The search text narrows the list and keeps paging right: one bulk payout by its
			// external ID, wherever it sits in the list.
			const one = await listAll(sandbox, 'getPayouts', 'bulk-77');
			assert.equal(one.length, 1, `search "bulk-77" listed ${one.length}`);
			assert.equal((await api.get(`/payouts/${one[0]}`)).body.externalId, 'bulk-77');
		});
	}

	it('under drawn 429 bursts and proxy 502s the payout picker still lists every payout once', async () => {
		const seed = seedWhere(
			(c) =>
				c.rateLimit?.chance >= 0.05 &&
				c.proxy502 !== null &&
				c.redirect?.route !== 'GET /payouts' &&
				c.lists['/payouts'].pageCap <= 25,
			'429s and 502s, short payout pages, no redirect on the payout list',
		);
		const started = await ctl.post('/generated', { seed });
		assert.equal(started.status, 200, started.text);
		await ctl.post('/generated/pause', { faults: true, churn: true });
		assert.ok((await ctl.post('/payouts/bulk', { count: 140 })).status < 300);
		const before = sandbox.generated.seq;
		await ctl.post('/generated/pause', { faults: false, churn: true });
		const listed = await listAll(sandbox, 'getPayouts');
		const draws = sandbox.generated.log(before).draws.map((d) => d.kind);
		assert.ok(
			draws.some((kind) => /429|rate/i.test(kind)) || draws.some((kind) => /502/.test(kind)),
			`seed ${seed}: no 429 or 502 was drawn while listing (${draws.join(', ')})`,
		);
		assertEachOnce(
			listed,
			sandbox.generated.truth('/payouts', sandbox.company.id).ids,
			`seed ${seed}`,
		);
	});

	it('a drawn redirect on the payout list fails the picker with the status and Location, key kept home', async () => {
		const seed = seedWhere(
			(c) => c.redirect?.route === 'GET /payouts',
			'a redirect on GET /payouts',
		);
		const started = await ctl.post('/generated', { seed });
		assert.equal(started.status, 200, started.text);
		const { redirect } = started.body.choices;
		await ctl.post('/generated/pause', { faults: true, churn: true });
		assert.ok((await ctl.post('/payouts/bulk', { count: 140 })).status < 300);
		await ctl.post('/generated/pause', { faults: false, churn: true });
		// Retries of drawn 429s and 502s may come first; the redirect is the nth GET /payouts.
		await assert.rejects(listAll(sandbox, 'getPayouts'), (error) => {
			assert.match(
				error.message,
				new RegExp(`HTTP ${redirect.status} to http://127\\.0\\.0\\.1:\\d+/`),
			);
			assert.match(error.message, /does not follow/);
			return true;
		});
		assert.deepEqual(sandbox.generated.log().redirectTarget.requests, []);
	});
});
