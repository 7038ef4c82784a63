// Generated mode: the contract's open choices drawn from a seed (sandbox/lib/generated.mjs).
// Same seed, same choices; 50 seeds cover every value of every choice; and the sandbox keeps
// its own invariants while it plays them (a listing with arrivals still holds every record that
// existed throughout; a record that left is in no later page; a 429 or an unprocessed 502 moved
// no money; the redirect target records who followed).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
	GENERATED_CHOICES,
	GENERATED_LISTS,
	REDIRECT_ROUTES,
	drawChoices,
	drawStream,
	inUnorderedOrder,
} from '../../sandbox/lib/generated.mjs';
import { KEYS, client, control, openSandbox, seedWhere } from './helpers.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SEEDS = Array.from({ length: 50 }, (_, i) => i + 1);

/** Records of a list answer in any drawn envelope: a bare array, or the one array of the object. */
function recordsOf(body) {
	if (Array.isArray(body)) return body;
	return Object.values(body).find(Array.isArray);
}

/** Reads a whole list with plain offset paging, as a naive client would; returns every page. */
async function readAll(api, listPath, limit = 100) {
	const pages = [];
	for (let offset = 0; pages.length < 200; ) {
		const res = await api.get(`${listPath}?limit=${limit}&offset=${offset}`);
		assert.equal(res.status, 200, res.text);
		const records = recordsOf(res.body);
		pages.push({ offset, body: res.body, records });
		if (records.length === 0) break;
		offset += records.length;
	}
	return pages;
}

describe('generated mode: choices from a seed', () => {
	it('the same seed draws the same choices; another seed draws others', () => {
		assert.deepEqual(drawChoices(7), drawChoices(7));
		assert.deepEqual(drawChoices('abc'), drawChoices('abc'));
		assert.deepEqual(drawChoices(7), drawChoices('7'), 'a seed given as a number or as text');
		const distinct = new Set(SEEDS.map((seed) => JSON.stringify(drawChoices(seed))));
		assert.equal(distinct.size, SEEDS.length);
	});

	it('streams are independent: the same stream of the same seed repeats, another does not', () => {
		const a = drawStream(5, 'churn:/payouts');
		const b = drawStream(5, 'churn:/payouts');
		const c = drawStream(5, 'churn:/wallets/deposits');
		const take = (s) => Array.from({ length: 20 }, () => s.next());
		const first = take(a);
		assert.deepEqual(first, take(b));
		assert.notDeepEqual(first, take(c));
		assert.ok(first.every((x) => x >= 0 && x < 1));
	});

	it('50 seeds cover every value of every start choice', () => {
		const all = SEEDS.map(drawChoices);
		for (const [name, values] of Object.entries(GENERATED_CHOICES.start)) {
			if (Array.isArray(values)) {
				const seen = new Set(all.map((c) => c.profile[name] ?? c[name]));
				for (const value of values) assert.ok(seen.has(value), `${name}: ${value} never drawn`);
			}
		}
		const redirects = all.map((c) => c.redirect).filter(Boolean);
		assert.ok(redirects.length > 0 && redirects.length < all.length, 'redirect present and absent');
		for (const status of GENERATED_CHOICES.start.redirect.status) {
			assert.ok(
				redirects.some((r) => r.status === status),
				`redirect ${status} never drawn`,
			);
		}
		for (const route of REDIRECT_ROUTES) {
			assert.ok(
				redirects.some((r) => r.route === route),
				`redirect on ${route} never drawn`,
			);
		}
		assert.deepEqual(new Set(redirects.map((r) => r.nth)), new Set([1, 2]));
		const rates = all.map((c) => c.rateLimit);
		assert.ok(rates.includes(null) && rates.some(Boolean), 'rate limits present and absent');
		assert.deepEqual(
			new Set(rates.filter(Boolean).map((r) => r.retryAfter)),
			new Set(['seconds', 'date']),
		);
		assert.deepEqual(new Set(rates.filter(Boolean).map((r) => r.burst)), new Set([1, 2, 3]));
		const proxies = all.map((c) => c.proxy502);
		assert.ok(proxies.includes(null) && proxies.some(Boolean), 'proxy 502 present and absent');
		assert.deepEqual(
			new Set(proxies.filter(Boolean).map((p) => p.processed)),
			new Set([false, true]),
		);
	});

	it('50 seeds cover every value of every list choice; stated order and envelope stay as stated', () => {
		const lists = SEEDS.flatMap((seed) => Object.entries(drawChoices(seed).lists));
		const seen = (name) => new Set(lists.map(([, list]) => list[name]));
		for (const name of ['order', 'shape', 'totalKey', 'count', 'arrivals', 'departures']) {
			for (const value of GENERATED_CHOICES.list[name]) {
				assert.ok(seen(name).has(value), `${name}: ${value} never drawn`);
			}
		}
		const keys = seen('itemsKey');
		for (const key of GENERATED_CHOICES.list.itemsKey.slice(1)) assert.ok(keys.has(key), key);
		assert.ok(keys.has('payouts') && keys.has('deposits'), 'the own key is drawn too');
		const caps = lists.map(([, list]) => list.pageCap);
		assert.ok(caps.every((cap) => Number.isInteger(cap) && cap >= 3 && cap <= 100));
		assert.ok(caps.includes(100) && caps.some((cap) => cap < 10), 'full and small pages');
		for (const [pattern, list] of lists) {
			if (GENERATED_LISTS[pattern].orderStated) assert.equal(list.order, 'newest', pattern);
			if (GENERATED_LISTS[pattern].envelopeStated) {
				assert.deepEqual(
					[list.shape, list.itemsKey, list.totalKey, list.count],
					['envelope', 'deposits', 'total', null],
				);
			}
			if (!GENERATED_LISTS[pattern].churn) assert.equal(list.arrivals + list.departures, 0);
		}
		const churned = lists.filter(([pattern]) => GENERATED_LISTS[pattern].churn);
		assert.ok(churned.some(([, l]) => l.arrivals > 0 && l.departures > 0));
		assert.ok(churned.some(([, l]) => l.arrivals === 0 && l.departures === 0));
	});

	it('50 seeds draw lists that accept a limit of 1,000 and lists that refuse it, both ways', () => {
		const lists = SEEDS.flatMap((seed) => Object.values(drawChoices(seed).lists));
		assert.ok(
			lists.every((l) => l.maxLimit >= l.pageCap),
			'the largest limit is never below the cap',
		);
		for (const refusal of GENERATED_CHOICES.list.limitRefusal) {
			assert.ok(
				lists.some((l) => l.limitRefusal === refusal && l.maxLimit < 1000),
				refusal,
			);
		}
		assert.ok(
			lists.some((l) => l.maxLimit >= 1000),
			'a list that accepts 1,000',
		);
		assert.ok(
			lists.some((l) => l.maxLimit === 100),
			'a list that refuses above 100',
		);
	});
});

describe('generated mode: the sandbox keeps its own invariants', () => {
	let sandbox;
	let api;
	let ctl;
	before(async () => {
		sandbox = await openSandbox({ generated: 1 });
		api = client(sandbox, KEYS.legacy);
		ctl = control(sandbox);
	});
	after(() => sandbox.close());

	/** Switches to a seed (state reset) and pauses its faults, so only what a test wants is drawn. */
	const useSeed = async (seed, { faults = false, churn = true } = {}) => {
		const res = await ctl.post('/generated', { seed });
		assert.equal(res.status, 200, res.text);
		await ctl.post('/generated/pause', { faults: !faults, churn: !churn });
		return res.body.choices;
	};

	it('a limit above the drawn largest is a 400 naming limit (its size in details or message), the largest is served', async () => {
		for (const refusal of ['details', 'message']) {
			const seed = seedWhere(
				(c) =>
					c.lists['/wallets/deposits'].maxLimit < 1000 &&
					c.lists['/wallets/deposits'].limitRefusal === refusal,
				`deposits refusing limit 1000 (${refusal})`,
			);
			const choices = await useSeed(seed, { churn: false });
			const { maxLimit, pageCap, itemsKey } = choices.lists['/wallets/deposits'];
			const refused = await api.get(`/wallets/deposits?limit=${maxLimit + 1}`);
			assert.equal(refused.status, 400, refused.text);
			assert.equal(refused.body.errorCode, 'VALIDATION_ERROR');
			assert.match(refused.body.message.join(' '), new RegExp(`limit .*${maxLimit}`));
			if (refusal === 'details')
				assert.deepEqual(refused.body.details, { field: 'limit', max: maxLimit });
			else assert.equal(refused.body.details, undefined);
			const served = await api.get(`/wallets/deposits?limit=${maxLimit}`);
			assert.equal(served.status, 200, served.text);
			assert.equal(recordsOf(served.body).length, Math.min(pageCap, 250), itemsKey);
		}
		const accepting = seedWhere(
			(c) => c.lists['/payouts'].maxLimit >= 1000,
			'payouts accepting limit 1000',
		);
		await useSeed(accepting, { churn: false });
		assert.equal((await api.get('/payouts?limit=1000')).status, 200);
	});

	it('GET /__control/generated shows the seed, the choices, and every draw with its sequence', async () => {
		const choices = await useSeed(12);
		const res = await ctl.get('/generated');
		assert.equal(res.status, 200);
		assert.equal(res.body.seed, '12');
		assert.deepEqual(res.body.choices, drawChoices(12));
		assert.deepEqual(choices, drawChoices(12));
		assert.equal(sandbox.profile.name, 'generated:12');
		for (const [name, value] of Object.entries(drawChoices(12).profile)) {
			assert.equal(sandbox.profile[name], value, name);
		}
		const before = res.body.seq;
		await api.get('/payouts?limit=5');
		const later = await ctl.get(`/generated?since=${before}`);
		assert.equal(later.body.requests.length, 1);
		assert.equal(later.body.requests[0].route, 'GET /payouts');
		assert.ok(later.body.requests[0].seq > before);
	});

	it('each list answers in its drawn envelope, with its cap and order, and totals that are true', async () => {
		const seed = seedWhere(
			(c) =>
				c.lists['/wallets/deposits'].shape === 'envelope' &&
				c.lists['/wallets/deposits'].count === 'page' &&
				c.lists['/wallets/deposits'].totalKey === 'totalCount' &&
				c.lists['/wallets/deposits'].pageCap < 100,
			'deposits with count as page length and totalCount',
		);
		const choices = await useSeed(seed, { churn: false });
		const list = choices.lists['/wallets/deposits'];
		const res = await api.get('/wallets/deposits?limit=100');
		assert.equal(res.status, 200);
		assert.deepEqual(Object.keys(res.body).sort(), [list.itemsKey, 'count', 'totalCount'].sort());
		assert.equal(res.body[list.itemsKey].length, list.pageCap);
		assert.equal(res.body.count, list.pageCap, 'count is the page length');
		assert.equal(res.body.totalCount, 250);
		if (list.order === 'unordered') {
			const all = sandbox.state.deposits.filter((d) => d.companyId === sandbox.company.id);
			assert.deepEqual(
				res.body[list.itemsKey].map((d) => d.id),
				inUnorderedOrder(seed, all)
					.slice(0, list.pageCap)
					.map((d) => d.id),
				'unordered: the seed shuffle',
			);
		} else {
			const created = res.body[list.itemsKey].map((d) => Date.parse(d.createdAt));
			const sorted = [...created].sort((a, b) => (list.order === 'oldest' ? a - b : b - a));
			assert.deepEqual(created, sorted, `order ${list.order}`);
		}

		const bare = seedWhere((c) => c.lists['/payouts'].shape === 'bare', 'bare payouts');
		await useSeed(bare, { churn: false });
		const payouts = await api.get('/payouts');
		assert.ok(Array.isArray(payouts.body), 'a bare array');

		const counted = seedWhere(
			(c) => c.lists['/orders'].shape === 'envelope' && c.lists['/orders'].count === 'total',
			'orders in an envelope with count as total',
		);
		const orders = await useSeed(counted, { churn: false });
		const body = (await api.get('/orders?limit=2')).body;
		assert.equal(body[orders.lists['/orders'].itemsKey].length, 2);
		assert.equal(body.count, 6, 'count is the total: six seeded orders');
	});

	it('an unordered list: neither newest nor oldest first, the same order on every page, each record once', async () => {
		const seed = seedWhere(
			(c) =>
				c.lists['/wallets/deposits'].order === 'unordered' &&
				c.lists['/wallets/deposits'].shape === 'envelope',
			'company deposits in no order',
		);
		await useSeed(seed, { churn: false });
		const truth = sandbox.generated.truth('/wallets/deposits', sandbox.company.id);
		const pages = await readAll(api, '/wallets/deposits', 20);
		const read = pages.flatMap((page) => page.records);
		assert.deepEqual(
			read.map((d) => d.id).sort(),
			[...truth.ids].sort(),
			'every record once, in pages that hold',
		);
		const created = read.map((d) => Date.parse(d.createdAt));
		const rises = created.slice(1).filter((time, i) => time > created[i]).length;
		assert.ok(rises > 0 && rises < created.length - 1, `${rises} rises: no order by createdAt`);
		const again = recordsOf((await api.get('/wallets/deposits?limit=20&offset=20')).body);
		assert.deepEqual(
			again.map((d) => d.id),
			read.slice(20, 40).map((d) => d.id),
			'the same order on a second read',
		);
	});

	it('a listing with arrivals still holds every record that existed throughout (duplicates allowed)', async () => {
		const seed = seedWhere(
			(c) =>
				c.lists['/wallets/deposits'].arrivals === 0.5 &&
				c.lists['/wallets/deposits'].departures === 0 &&
				c.lists['/wallets/deposits'].order === 'newest',
			'deposits newest first with arrivals and no departures',
		);
		await useSeed(seed);
		const before = sandbox.generated.truth('/wallets/deposits', sandbox.company.id);
		const pages = await readAll(api, '/wallets/deposits', 20);
		const after = sandbox.generated.truth('/wallets/deposits', sandbox.company.id);
		const log = sandbox.generated.log(before.seq);
		const arrived = log.churn.filter((c) => c.kind === 'arrive').map((c) => c.id);
		assert.ok(arrived.length > 0, 'records arrived while the list was read');
		assert.equal(after.ids.length, before.ids.length + arrived.length);
		const read = pages.flatMap((page) => page.records.map((r) => r.id));
		for (const id of before.ids) assert.ok(read.includes(id), `${id} existed throughout`);
		assert.ok(read.length > new Set(read).size, 'offset paging meets a record twice');
		assert.ok(read.every((id) => after.ids.includes(id)));
	});

	it('a record that left is in no later page and not in the truth; reading it by id still works', async () => {
		const seed = seedWhere(
			(c) => c.lists['/payouts'].departures > 0 && c.lists['/payouts'].arrivals === 0,
			'payouts with departures only',
		);
		await useSeed(seed);
		await ctl.post('/payouts/bulk', { count: 150 });
		const before = sandbox.generated.truth('/payouts', sandbox.company.id);
		const pages = await readAll(api, '/payouts', 10);
		const left = sandbox.generated
			.log(before.seq)
			.churn.filter((c) => c.kind === 'leave')
			.map((c) => c);
		assert.ok(left.length > 0, 'records left while the list was read');
		const after = sandbox.generated.truth('/payouts', sandbox.company.id);
		for (const gone of left) {
			assert.ok(!after.ids.includes(gone.id));
			const requests = sandbox.generated.log(gone.seq).requests;
			const later = pages.filter((page) =>
				requests.some((q) => q.route === 'GET /payouts' && Number(q.offset) === page.offset),
			);
			for (const page of later) assert.ok(!page.records.some((r) => r.id === gone.id));
			assert.equal((await api.get(`/payouts/${gone.id}`)).status, 200);
		}
		assert.equal(after.ids.length, before.ids.length - left.length);
	});

	it('POST /__control/generated/arrive adds newest records and logs them', async () => {
		const seed = seedWhere((c) => c.lists['/payouts'].order === 'newest', 'payouts newest first');
		await useSeed(seed, { churn: false });
		const res = await ctl.post('/generated/arrive', { list: '/payouts', count: 2 });
		assert.equal(res.status, 201, res.text);
		const truth = (await ctl.get('/generated/truth?list=/payouts')).body;
		assert.deepEqual(truth.ids.slice(-2), res.body.ids);
		const first = recordsOf((await api.get('/payouts?limit=2')).body);
		assert.deepEqual(first.map((p) => p.id).sort(), [...res.body.ids].sort());
	});

	it('the redirect: the n-th request to its route gets a 3xx to another 127.0.0.1 port that records who followed', async () => {
		const seed = seedWhere(
			(c) => c.redirect?.route === 'GET /wallets/balance' && c.redirect.nth === 2,
			'a redirect of the second balance read',
		);
		const choices = await useSeed(seed, { faults: true });
		// Faults on: a 429 or 502 drawn for this seed may answer first; read until the redirect.
		let res;
		for (let i = 0; i < 20; i++) {
			res = await fetch(`${sandbox.url}/wallets/balance`, {
				headers: { 'X-API-Key': KEYS.legacy },
				redirect: 'manual',
			});
			if (res.status !== 200 && res.status !== 429 && res.status !== 502) break;
		}
		assert.equal(res.status, choices.redirect.status);
		const location = res.headers.get('location');
		assert.match(location, /^http:\/\/127\.0\.0\.1:\d+\/wallets\/balance$/);
		assert.notEqual(new URL(location).port, String(sandbox.port));
		assert.deepEqual(sandbox.generated.log().redirectTarget.requests, []);
		// Someone follows it, key and all: the target records that.
		const followed = await fetch(location, { headers: { 'X-API-Key': KEYS.legacy } });
		assert.equal(followed.status, 200);
		const { requests } = (await ctl.get('/generated')).body.redirectTarget;
		assert.equal(requests.length, 1);
		assert.equal(requests[0].carriedCredential, true);
		assert.ok(requests[0].headers.includes('x-api-key'));
		const draws = sandbox.generated.log().draws.filter((d) => d.kind === 'redirect');
		assert.equal(draws.length, 1);
		assert.equal((await api.get('/wallets/balance')).status, 200, 'only the n-th one');
	});

	it('429 bursts carry Retry-After (seconds or an HTTP date) and are not processed', async () => {
		for (const form of ['seconds', 'date']) {
			const seed = seedWhere(
				(c) =>
					c.rateLimit?.retryAfter === form &&
					c.rateLimit.chance === 0.08 &&
					!c.redirect &&
					!c.lostAnswer,
				`429 with Retry-After as ${form}`,
			);
			const choices = await useSeed(seed, { faults: true });
			const payoutsBefore = sandbox.state.payouts.size;
			let limited;
			let sent = 0;
			for (; sent < 300 && !limited; sent++) {
				const res = await api.post(
					'/payouts',
					{ amountRub: 1000, requisiteType: 'card', requisite: '4111111111111111' },
					{ headers: { 'Idempotency-Key': `gen-429-${form}-${sent}` } },
				);
				if (res.status === 429) limited = res;
			}
			assert.ok(limited, `a 429 within 300 requests (seed ${seed})`);
			assert.equal(limited.body.errorCode, 'TOO_MANY_REQUESTS');
			const retryAfter = limited.headers.get('retry-after');
			if (form === 'seconds') assert.equal(retryAfter, String(choices.rateLimit.seconds));
			else assert.ok(!Number.isNaN(Date.parse(retryAfter)) && /GMT$/.test(retryAfter));
			const log = sandbox.generated.log();
			const processed = log.requests.filter(
				(q) =>
					q.route === 'POST /payouts' && (q.status === 201 || q.answer === '502 after processing'),
			);
			assert.equal(sandbox.state.payouts.size - payoutsBefore, processed.length);
		}
	});

	it('an HTML 502 from the proxy: unprocessed moves nothing; processed moves the money once and loses the answer', async () => {
		for (const processed of [false, true]) {
			const seed = seedWhere(
				(c) => c.proxy502?.processed === processed && !c.rateLimit && !c.redirect && !c.lostAnswer,
				`a proxy 502, processed ${processed}`,
			);
			await useSeed(seed, { faults: true });
			let bad;
			for (let i = 0; i < 400 && !bad; i++) {
				const key = `gen-502-${processed}-${i}`;
				const before = sandbox.state.payouts.size;
				const res = await api.post(
					'/payouts',
					{ amountRub: 500, requisiteType: 'card', requisite: '4111111111111111' },
					{ headers: { 'Idempotency-Key': key } },
				);
				if (res.status === 502) bad = { res, moved: sandbox.state.payouts.size - before, key };
			}
			assert.ok(bad, `a 502 within 400 requests (seed ${seed})`);
			assert.match(bad.res.headers.get('content-type'), /^text\/html/);
			assert.match(bad.res.text, /<h1>502 Bad Gateway<\/h1>/);
			assert.equal(bad.moved, processed ? 1 : 0);
			if (processed) {
				// The same key again: the stored answer, no second charge.
				await ctl.post('/generated/pause', { faults: true });
				const again = await api.post(
					'/payouts',
					{ amountRub: 500, requisiteType: 'card', requisite: '4111111111111111' },
					{ headers: { 'Idempotency-Key': bad.key } },
				);
				assert.equal(again.status, 201);
				assert.equal(again.headers.get('idempotent-replayed'), 'true');
			}
		}
	});

	it('paused faults and churn draw nothing', async () => {
		const seed = seedWhere(
			(c) => c.rateLimit?.chance === 0.08 && c.lists['/payouts'].arrivals === 0.5,
			'frequent 429 and arrivals',
		);
		await useSeed(seed, { faults: false, churn: false });
		const before = sandbox.generated.seq;
		for (let i = 0; i < 60; i++) assert.equal((await api.get('/payouts?limit=3')).status, 200);
		assert.deepEqual(sandbox.generated.log(before).draws, []);
	});

	it('legacy spellings: a closed card reads `retired` and user-deposit AML statuses read aml_pass/aml_fail when drawn', async () => {
		for (const spelling of ['closed', 'retired']) {
			const seed = seedWhere((c) => c.closedCardStatus === spelling, `cards ${spelling}`);
			await useSeed(seed, { churn: false });
			const card = [...sandbox.state.cards.values()].find((c) => c.status === 'assigned');
			const res = await ctl.post(`/cards/${card.id}/status`, { status: 'closed' });
			assert.equal(res.status, 200, res.text);
			assert.equal((await api.get(`/cards/${card.id}`)).body.status, spelling);
		}
		for (const [form, status] of [
			['current', 'aml_failed'],
			['legacy', 'aml_fail'],
		]) {
			const seed = seedWhere((c) => c.userDepositStatuses === form, `deposits ${form}`);
			await useSeed(seed, { churn: false });
			const res = await ctl.post('/deposits', { amount: 30, aml: 'fail', externalId: 'user-9' });
			assert.equal(res.status, 201, res.text);
			assert.equal(res.body.deposit.status, status);
		}
	});

	it('POST /__control/generated { seed: null } leaves generated mode: the start profile again, no draws', async () => {
		const res = await ctl.post('/generated', { seed: null });
		assert.equal(res.status, 200);
		assert.equal(sandbox.generated, null);
		assert.equal(sandbox.profile.name, 'default');
		assert.deepEqual((await ctl.get('/generated')).body, { seed: null });
		const payouts = await api.get('/payouts');
		assert.deepEqual(Object.keys(payouts.body).sort(), ['payouts', 'total']);
		assert.equal((await ctl.post('/generated/pause', { faults: true })).status, 409);
		assert.equal((await ctl.post('/generated', { seed: '' })).status, 200);
		assert.equal((await ctl.post('/generated', {})).status, 400);
	});

	it('a sandbox started without a seed has no generated mode', async () => {
		const plain = await openSandbox();
		try {
			assert.equal(plain.generated, null);
			const res = await client(plain, KEYS.legacy).get('/wallets/deposits');
			assert.deepEqual(Object.keys(res.body).sort(), ['deposits', 'total']);
		} finally {
			await plain.close();
		}
	});
});

describe('generated mode from the command line', () => {
	it('SANDBOX_SEED=<n> starts it and prints the seed and the choices', async () => {
		const child = spawn(
			process.execPath,
			[path.join(ROOT, 'sandbox/server.mjs'), '--port', '0', '--quiet'],
			{ env: { ...process.env, SANDBOX_SEED: '42' }, stdio: ['ignore', 'pipe', 'pipe'] },
		);
		try {
			let out = '';
			child.stdout.on('data', (chunk) => (out += chunk));
			const until = Date.now() + 10_000;
			while (!out.includes('choices:') && Date.now() < until) {
				await new Promise((r) => setTimeout(r, 50));
			}
			assert.match(out, /generated mode, seed 42/);
			const url = out.match(/listening on (http:\/\/127\.0\.0\.1:\d+)/)[1];
			const res = await fetch(`${url}/__control/generated`);
			const body = await res.json();
			assert.equal(body.seed, '42');
			assert.deepEqual(body.choices, drawChoices(42));
		} finally {
			child.kill('SIGTERM');
			await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
		}
	});
});
