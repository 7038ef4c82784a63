import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { CompanyPaymentsPollTrigger } from '../../nodes/CompanyPaymentsPollTrigger/CompanyPaymentsPollTrigger.node';
import { legacyCompanyOfCredential, STATE_KEY } from '../../nodes/CompanyPaymentsPollTrigger/state';
import {
	API_KEY,
	BASE_URL,
	createPollContext,
	daysAgo,
	FakeService,
	payout,
	roundTrip,
	runPoll,
	runPollError,
} from './helpers/poll';

let service: FakeService;
beforeEach(() => {
	nock.disableNetConnect();
	service = new FakeService();
});
afterEach(() => {
	nock.cleanAll();
	nock.enableNetConnect();
});

function remembered(staticData: IDataObject, list = 'payouts'): Record<string, string> {
	return ((staticData[STATE_KEY] as IDataObject).lists as IDataObject)[list] as Record<
		string,
		string
	>;
}

/** A time as it stands in a change key (`:` escaped, shared/identity.ts). */
function keyPart(value: unknown): string {
	return String(value).replace(/:/g, '%3A');
}

describe('first poll', () => {
	it('takes a baseline and emits nothing', async () => {
		const record = service.add('payouts', payout({ status: 'fail', refundedAt: daysAgo(1) }));
		const run = await runPoll({ parameters: { watch: ['payouts'] } });
		expect(run.items).toBeNull();
		expect(remembered(run.staticData)).toEqual({ [record.id as string]: 'fail+refunded' });
	});

	it('emits what is there when "Emit Existing Records on First Poll" is on, and only on the first poll', async () => {
		service.add('payouts', payout());
		service.add('payouts', payout({ status: 'success' }));
		service.balance = { usdtBalance: 1 };
		const parameters = {
			watch: ['payouts', 'balance'],
			balanceThreshold: 10,
			options: { emitExisting: true },
		};
		const first = await runPoll({ parameters });
		expect(first.items!.map((item) => item.event)).toEqual([
			'payout.status_changed',
			'payout.status_changed',
			'balance.below_threshold',
		]);
		const second = await runPoll({ parameters, staticData: roundTrip(first.staticData) });
		expect(second.items).toBeNull();
	});

	it('takes a baseline for a list added to Watch later, without emitting its records', async () => {
		service.add('payouts', payout());
		service.add('orders', { id: 'o-1', status: 'success', createdAt: daysAgo(1) });
		const first = await runPoll({ parameters: { watch: ['payouts'] } });
		const second = await runPoll({
			parameters: { watch: ['payouts', 'orders'] },
			staticData: roundTrip(first.staticData),
		});
		expect(second.items).toBeNull();
		expect(remembered(second.staticData, 'orders')).toEqual({ 'o-1': 'success' });
	});
});

describe('state', () => {
	it('replaces the static data entry with a fresh object instead of changing the stored one', async () => {
		const record = service.add('payouts', payout());
		const first = await runPoll({ parameters: { watch: ['payouts'] } });
		const before = first.staticData[STATE_KEY];
		const frozen = JSON.stringify(before);
		record.status = 'in_progress';
		const second = await runPoll({
			parameters: { watch: ['payouts'] },
			staticData: first.staticData,
		});
		expect(second.items).toHaveLength(1);
		expect(second.staticData[STATE_KEY]).not.toBe(before);
		expect(JSON.stringify(before)).toBe(frozen);
	});

	it('remembers only records created inside the window and forgets those that leave it', async () => {
		const old = service.add('payouts', payout({ createdAt: daysAgo(40) }));
		const recent = service.add('payouts', payout({ createdAt: daysAgo(2) }));
		service.lists.payouts.reverse(); // newest first
		const parameters = { watch: ['payouts'], windowDays: 30 };
		const first = await runPoll({ parameters });
		expect(Object.keys(remembered(first.staticData))).toEqual([recent.id]);
		// The old one changes: outside the window, it is not watched.
		old.status = 'success';
		const second = await runPoll({ parameters, staticData: roundTrip(first.staticData) });
		expect(second.items).toBeNull();
		// 29 days later the recent one has left the window too.
		const later = await runPoll({
			parameters,
			staticData: roundTrip(second.staticData),
			now: Date.parse(recent.createdAt as string) + 31 * 86_400_000,
		});
		expect(remembered(later.staticData)).toEqual({});
	});
});

describe('cost per poll', () => {
	// A service that serves at most 100 per page: the node asks for more (PAGE_SIZE) and learns it.
	beforeEach(() => {
		service.pageCap = 100;
	});

	function fill(count: number, newestAgeDays: number, stepDays: number): void {
		for (let i = count - 1; i >= 0; i--) {
			service.add('payouts', payout({ createdAt: daysAgo(newestAgeDays + i * stepDays) }));
		}
	}

	it('stops at the first page that reaches past the window only for GET /disputes, documented newest first', async () => {
		for (let i = 999; i >= 0; i--) {
			service.add('disputes', {
				id: `s-${i}`,
				status: 'submitted',
				createdAt: daysAgo(0.05 + i * 0.1),
			});
		}
		const run = await runPoll({ parameters: { watch: ['disputes'], windowDays: 30 } });
		expect(service.callsTo('/disputes')).toBe(4);
		expect(Object.keys(remembered(run.staticData, 'disputes'))).toHaveLength(300);
	});

	it('reads the whole list when its order is not shown, even where it looks newest first', async () => {
		fill(1000, 0.05, 0.1); // 10 per day: a 30-day window holds 300 of them
		// A service that orders by something else: the newest payout comes last.
		const newest = service.add('payouts', payout({ createdAt: daysAgo(0.01) }));
		service.lists.payouts.push(service.lists.payouts.shift()!);
		const run = await runPoll({ parameters: { watch: ['payouts'], windowDays: 30 } });
		expect(service.callsTo('/payouts')).toBe(11);
		expect(Object.keys(remembered(run.staticData))).toHaveLength(301);
		expect(remembered(run.staticData)[newest.id as string]).toBe('waiting_trader');
	});

	it('reads the whole list when its order is not newest first', async () => {
		fill(1000, 0.05, 0.1);
		service.lists.payouts.reverse(); // oldest first: stopping early would miss the new ones
		const run = await runPoll({ parameters: { watch: ['payouts'], windowDays: 30 } });
		// Pages of 100, each after the first starting 2 records early (PAGE_OVERLAP): 11 requests.
		expect(service.callsTo('/payouts')).toBe(11);
		expect(Object.keys(remembered(run.staticData))).toHaveLength(300);
	});

	it('reads every record of the window when the service silently caps the page size and sends no total', async () => {
		fill(130, 0.05, 0.1);
		service.pageCap = 25;
		service.withTotal = false;
		const run = await runPoll({ parameters: { watch: ['payouts'], windowDays: 30 } });
		expect(Object.keys(remembered(run.staticData))).toHaveLength(130);
		// 1000 asked, 25 served: the cap is learnt from the first page; 6 pages of 25 and a short one.
		const lists = service.calls.filter((call) => call.path !== '/auth/company/profile');
		expect(lists.map((call) => call.query.get('limit'))).toEqual([
			'1000',
			...Array<string>(5).fill('25'),
		]);
	});

	it('fails, naming the list, what was read, the cap and what to do, when Max Records stops the window short', async () => {
		fill(500, 0, 0.01);
		// Oldest first: the records past the cap are the newest ones.
		service.lists.payouts.reverse();
		const parameters = { watch: ['payouts'], options: { maxRecords: 200 } };
		const baseline = await runPoll({ parameters: { watch: ['payouts'] } });
		const saved = JSON.stringify(baseline.staticData);
		service.lists.payouts[499].status = 'success';
		const error = await runPollError({ parameters, staticData: baseline.staticData });
		// 100, then 100 from offset 98, then the last 2 (with the 2 of overlap) from offset 196.
		expect(service.calls.filter((call) => call.path === '/payouts').length).toBe(6 + 3);
		expect(error.message).toMatch(/read 200 payouts/);
		expect(error.message).toMatch(/GET \/payouts/);
		expect(error.message).toMatch(/Max Records per List and Poll.*200/);
		expect(String(error.description)).toMatch(/order/);
		expect(String(error.description)).toMatch(/Raise Max Records per List and Poll/);
		// Nothing emitted, nothing forgotten: the next poll with a larger cap sees the change.
		expect(JSON.stringify(baseline.staticData)).toBe(saved);
		const next = await runPoll({
			parameters: { watch: ['payouts'] },
			staticData: baseline.staticData,
		});
		expect(next.items!.map((item) => item.status)).toEqual(['success']);
	});
});

describe('a failed poll', () => {
	it('emits nothing, keeps the state, and the next poll catches up', async () => {
		const record = service.add('payouts', payout());
		service.add('disputes', { id: 'd-1', status: 'submitted', createdAt: daysAgo(1) });
		const parameters = { watch: ['payouts', 'disputes'] };
		const first = await runPoll({ parameters });
		const saved = JSON.stringify(first.staticData);

		record.status = 'fail';
		record.refundedAt = daysAgo(0);
		service.failing.set('/disputes', {
			status: 503,
			body: {
				statusCode: 503,
				error: 'Service Unavailable',
				errorCode: 'SERVICE_UNAVAILABLE',
				message: 'Сервис временно недоступен',
				requestId: 'req-503',
			},
		});
		const staticData = roundTrip(first.staticData);
		const error = await runPollError({ parameters, staticData });
		expect(error.message).toMatch(/SERVICE_UNAVAILABLE/);
		expect(String(error.description)).toMatch(/Request ID: req-503/);
		expect(String(error.description)).toMatch(/Сервис временно недоступен/);
		expect(JSON.stringify(staticData)).toBe(saved);

		service.failing.clear();
		const next = await runPoll({ parameters, staticData });
		expect(next.items!.map((item) => item.changeKey)).toEqual([
			`payout:company:${record.id}:fail:refunded:refundedAt:${keyPart(record.refundedAt)}`,
		]);
	});

	it('never shows the API key in its error', async () => {
		service.failing.set('/payouts', {
			status: 401,
			body: { statusCode: 401, errorCode: 'INVALID_API_KEY', message: 'Неверный ключ' },
		});
		const error = await runPollError({ parameters: { watch: ['payouts'] } });
		expect(error.message).toMatch(/INVALID_API_KEY/);
		expect(JSON.stringify({ ...error, message: error.message, stack: error.stack })).not.toContain(
			API_KEY,
		);
	});
});

describe('invalid parameters', () => {
	it.each([
		[{ watch: [] }, /Watch must name at least one of .*, got \[\]/],
		[{ watch: ['refunds'] }, /Watch must name .*got \["refunds"\]/],
		[
			{ watch: ['payouts'], windowDays: 0 },
			/Window \(Days\) must be a number greater than 0, got 0/,
		],
		[
			{ watch: ['payouts'], options: { maxRecords: 2.5 } },
			/Max Records per List and Poll must be a whole number of at least 1, got 2.5/,
		],
		[
			{ watch: ['balance'], balanceThreshold: -1 },
			/Balance Threshold \(USDT\) must be a number of at least 0, got -1/,
		],
	])('are refused before any request: %j', async (parameters, message) => {
		const error = await runPollError({ parameters });
		expect(error.message).toMatch(message);
		expect(service.calls).toHaveLength(0);
	});
});

describe('Fetch Test Event (manual mode)', () => {
	it('returns the changes since the last poll without touching the state', async () => {
		const record = service.add('payouts', payout());
		const first = await runPoll({ parameters: { watch: ['payouts'] } });
		const saved = JSON.stringify(first.staticData);
		record.status = 'in_progress';
		const manual = await runPoll({
			parameters: { watch: ['payouts'] },
			staticData: first.staticData,
			mode: 'manual',
		});
		expect(manual.items!.map((item) => item.status)).toEqual(['in_progress']);
		expect(JSON.stringify(first.staticData)).toBe(saved);
		// The live poll still sees the change.
		const live = await runPoll({
			parameters: { watch: ['payouts'] },
			staticData: first.staticData,
		});
		expect(live.items).toHaveLength(1);
	});

	it('returns the most recently changed record of each list when nothing changed, reading one page', async () => {
		for (let i = 0; i < 250; i++) service.add('payouts', payout({ createdAt: daysAgo(1) }));
		const latest = service.lists.payouts[7];
		latest.status = 'success';
		latest.completedAt = daysAgo(0.01);
		service.add('disputes', {
			id: 'd-9',
			status: 'resolved',
			resolution: 'refund',
			createdAt: daysAgo(2),
		});
		const manual = await runPoll({
			parameters: { watch: ['payouts', 'disputes'] },
			mode: 'manual',
		});
		expect(manual.items!.map((item) => item.changeKey)).toEqual([
			`payout:company:${latest.id}:success:completedAt:${keyPart(latest.completedAt)}`,
			expect.stringMatching(/^dispute:company:d-9:resolved:refund:polled:/),
		]);
		expect(manual.staticData[STATE_KEY]).toBeUndefined();
		expect(service.callsTo('/payouts')).toBe(1);
	});

	it('says so when there is nothing to show', async () => {
		const error = await runPollError({ parameters: { watch: ['orders'] }, mode: 'manual' });
		expect(error.message).toMatch(/No records to show yet/);
	});
});

describe('polls of one node in one n8n process', () => {
	it('run one after the other, so two polls started at once emit a change once', async () => {
		const record = service.add('payouts', payout());
		const first = await runPoll({ parameters: { watch: ['payouts'] } });
		record.status = 'success';
		record.completedAt = daysAgo(0);
		// Two polls at once, each from its own copy of the static data (as after a reload).
		const [a, b] = await Promise.all([
			runPoll({ parameters: { watch: ['payouts'] }, staticData: roundTrip(first.staticData) }),
			runPoll({ parameters: { watch: ['payouts'] }, staticData: roundTrip(first.staticData) }),
		]);
		expect([...(a.items ?? []), ...(b.items ?? [])].map((item) => item.changeKey)).toEqual([
			`payout:company:${record.id}:success:completedAt:${keyPart(record.completedAt)}`,
		]);
	});

	it('start from the state the last poll left when the static data handed in is older', async () => {
		const record = service.add('payouts', payout());
		const first = await runPoll({ parameters: { watch: ['payouts'] } });
		const stale = roundTrip(first.staticData);
		record.status = 'in_progress';
		const second = await runPoll({
			parameters: { watch: ['payouts'] },
			staticData: roundTrip(first.staticData),
		});
		expect(second.items).toHaveLength(1);
		const third = await runPoll({ parameters: { watch: ['payouts'] }, staticData: stale });
		expect(third.items).toBeNull();
	});
});

describe('the credential', () => {
	it('is read afresh by every poll of one activation (n8n keeps one poll context per activation)', async () => {
		service.add('payouts', payout());
		const credentials = {
			environment: 'staging',
			baseUrl: BASE_URL,
			apiKey: API_KEY,
			webhookSecret: '',
		};
		const { context, staticData } = createPollContext({
			parameters: { watch: ['payouts'] },
			credentials,
		});
		const node = new CompanyPaymentsPollTrigger();
		await node.poll!.call(context);
		const moved = 'https://api2.payments.test';
		credentials.baseUrl = moved;
		const elsewhere = nock(moved).get('/payouts').query(true).reply(200, { payouts: [], total: 0 });
		await node.poll!.call(context);
		expect(elsewhere.isDone()).toBe(true);
		expect(staticData[STATE_KEY]).toBeDefined();
	});
});

describe('emit order', () => {
	it('follows the records own times, never their place in a list whose order is not shown', async () => {
		const early = service.add('payouts', payout({ createdAt: daysAgo(3) }));
		const late = service.add('payouts', payout({ createdAt: daysAgo(2) }));
		const middle = service.add('payouts', payout({ createdAt: daysAgo(1) }));
		for (const order of [
			[early, late, middle],
			[middle, late, early],
			[late, early, middle],
		]) {
			for (const record of order) Object.assign(record, { status: 'waiting_trader' });
			service.lists.payouts = [...order];
			const first = await runPoll({ parameters: { watch: ['payouts'] } });
			// Changed in this order: early, then middle, then late.
			Object.assign(early, { status: 'in_progress', updatedAt: daysAgo(0.3) });
			Object.assign(middle, { status: 'in_progress', updatedAt: daysAgo(0.2) });
			Object.assign(late, { status: 'in_progress', updatedAt: daysAgo(0.1) });
			const run = await runPoll({
				parameters: { watch: ['payouts'] },
				staticData: roundTrip(first.staticData),
			});
			expect(run.items!.map((item) => item.payoutId)).toEqual([early.id, middle.id, late.id]);
		}
	});
});

// Outside read F5: the state belongs to the company the credential names, not only to the
// workflow and node. Another company is a new baseline, said in a log line. Issue 50: the company
// is the n8n credential and its Base URL, not the API key (a regenerated key is the same company).
describe('the state of one company', () => {
	const OTHER_KEY = 'dummy-other-company-key-7Qx2Lm9';
	const credentials = (apiKey: string) => ({
		environment: 'staging',
		baseUrl: BASE_URL,
		apiKey,
		webhookSecret: '',
	});

	it('a credential of another company: a new baseline that emits nothing existing, said in a log line', async () => {
		for (let i = 0; i < 3; i++) service.add('payouts', payout());
		const first = await runPoll({ parameters: { watch: ['payouts'] } });
		expect(first.items).toBeNull();
		service.profile = { id: 'company-2', name: 'Company Two' };
		const switched = await runPoll({
			parameters: { watch: ['payouts'] },
			staticData: roundTrip(first.staticData),
			credentials: credentials(OTHER_KEY),
			credentialId: 'cred-other-company',
		});
		expect(switched.items).toBeNull();
		expect(switched.warnings.join('\n')).toMatch(/another credential or Base URL.*new baseline/);
		expect(switched.warnings.join('\n')).not.toContain(OTHER_KEY);
		// Neither key is kept, in any form a reader could use.
		const stored = JSON.stringify(switched.staticData);
		expect(stored).not.toContain(OTHER_KEY);
		expect(stored).not.toContain(API_KEY);
		// From now on, changes of this company are emitted as before.
		service.lists.payouts[0].status = 'in_progress';
		const next = await runPoll({
			parameters: { watch: ['payouts'] },
			staticData: roundTrip(switched.staticData),
			credentials: credentials(OTHER_KEY),
			credentialId: 'cred-other-company',
		});
		expect(next.items!.map((item) => item.status)).toEqual(['in_progress']);
		expect(next.warnings.join('\n')).not.toMatch(/new baseline/);
	});

	it('with Emit Existing on, the new company’s records are emitted once', async () => {
		for (let i = 0; i < 3; i++) service.add('payouts', payout());
		const parameters = { watch: ['payouts'], options: { emitExisting: true } };
		const first = await runPoll({ parameters });
		expect(first.items).toHaveLength(3);
		service.profile = { id: 'company-2', name: 'Company Two' };
		const switched = await runPoll({
			parameters,
			staticData: roundTrip(first.staticData),
			credentials: credentials(OTHER_KEY),
			credentialId: 'cred-other-company',
		});
		expect(switched.items).toHaveLength(3);
	});

	// Outside read r7-data, finding 5: Regenerate API Key, then the new key in a NEW n8n credential
	// of the same company. The profile's company ID (with the Base URL) tells the company.
	it('a new credential of the same company (its profile shows the same ID): the change between polls emitted', async () => {
		service.add('payouts', payout());
		const first = await runPoll({ parameters: { watch: ['payouts'] } });
		expect(first.items).toBeNull();
		service.lists.payouts[0].status = 'fail';
		service.lists.payouts[0].refundedAt = daysAgo(0);
		const next = await runPoll({
			parameters: { watch: ['payouts'] },
			staticData: roundTrip(first.staticData),
			credentials: credentials(OTHER_KEY),
			credentialId: 'cred-new-key',
		});
		expect(next.items!.map((item) => item.status)).toEqual(['fail']);
		expect(next.warnings.join('\n')).toMatch(/another credential of the same company/);
		expect(next.warnings.join('\n')).not.toMatch(/new baseline/);
		// The profile's ID is kept only as a digest.
		expect(JSON.stringify(next.staticData)).not.toContain('company-1');
	});

	it('a new credential where the profile shows no company ID: the state is kept, nothing lost, said', async () => {
		service.profile = null;
		service.add('payouts', payout());
		const first = await runPoll({ parameters: { watch: ['payouts'] } });
		service.lists.payouts[0].status = 'in_progress';
		const next = await runPoll({
			parameters: { watch: ['payouts'] },
			staticData: roundTrip(first.staticData),
			credentials: credentials(OTHER_KEY),
			credentialId: 'cred-new-key',
		});
		expect(next.items!.map((item) => item.status)).toEqual(['in_progress']);
		expect(next.warnings.join('\n')).toMatch(/does not tell whether it is the same company/);
	});

	it('a new credential at another Base URL is another company, whatever the profile shows', async () => {
		service.profile = null;
		service.add('payouts', payout());
		const first = await runPoll({ parameters: { watch: ['payouts'] } });
		const moved = 'https://api2.payments.test';
		nock(moved).persist().get('/payouts').query(true).reply(200, { payouts: [], total: 0 });
		nock(moved).persist().get('/auth/company/profile').reply(200, { id: 'company-1' });
		const next = await runPoll({
			parameters: { watch: ['payouts'] },
			staticData: roundTrip(first.staticData),
			credentials: { ...credentials(OTHER_KEY), baseUrl: moved },
			credentialId: 'cred-new-key',
		});
		expect(next.items).toBeNull();
		expect(next.warnings.join('\n')).toMatch(/new baseline/);
	});

	it('Regenerate API Key, the new key in the same credential: the same company, the change between polls emitted', async () => {
		service.add('payouts', payout());
		const first = await runPoll({ parameters: { watch: ['payouts'] } });
		expect(first.items).toBeNull();
		service.lists.payouts[0].status = 'success';
		service.lists.payouts[0].completedAt = daysAgo(0);
		const next = await runPoll({
			parameters: { watch: ['payouts'] },
			staticData: roundTrip(first.staticData),
			credentials: credentials(OTHER_KEY),
		});
		expect(next.items!.map((item) => item.status)).toEqual(['success']);
		expect(next.warnings.join('\n')).not.toMatch(/new baseline/);
	});

	it('a state keyed by the API key (saved before issue 50) is adopted while the key is the same', async () => {
		service.add('payouts', payout());
		const first = await runPoll({ parameters: { watch: ['payouts'] } });
		const older = roundTrip(first.staticData);
		(older[STATE_KEY] as IDataObject).company = legacyCompanyOfCredential(BASE_URL, API_KEY);
		service.lists.payouts[0].status = 'in_progress';
		const next = await runPoll({ parameters: { watch: ['payouts'] }, staticData: older });
		expect(next.items!.map((item) => item.status)).toEqual(['in_progress']);
		expect(next.warnings.join('\n')).not.toMatch(/new baseline/);
	});

	it('the same company polled again: no new baseline; a state saved before companies were kept is adopted', async () => {
		service.add('payouts', payout());
		const first = await runPoll({ parameters: { watch: ['payouts'] } });
		const older = roundTrip(first.staticData);
		delete (older[STATE_KEY] as IDataObject).company;
		service.lists.payouts[0].status = 'in_progress';
		const next = await runPoll({ parameters: { watch: ['payouts'] }, staticData: older });
		expect(next.items!.map((item) => item.status)).toEqual(['in_progress']);
		expect(next.warnings.join('\n')).not.toMatch(/new baseline/);
	});
});
