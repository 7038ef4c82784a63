import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { boundTime } from '../../nodes/shared/money/binding';
import { forgetSkews } from '../../nodes/shared/money/clock';
import { forgetAllSentWrites } from '../../nodes/shared/money/write';
import {
	datedAt,
	inProcessRunner,
	readerCreate as create,
	readerPayout as payout,
	expectUnknownWithSentWrite,
} from './helpers/money';
import { BASE_URL } from './helpers/n8n';

/*
 * The sixteenth outside read of the money module, second part (/work/outside/r16-money/):
 * F2  Payout Create answered 200 with the payout already held under its External ID, made a day
 *     earlier, whose createdAt was written without its offset ("2026-11-28 08:23:55"), in
 *     PostgreSQL's text form ("… 08:23:55.085+00", which Date.parse cannot read) or not at all:
 *     a plain success, while Resolve Outcome calls the same records no proof. One reading of a
 *     record's time now serves both: the unambiguous forms are read (Z or an offset, "+00",
 *     "+0000", "+00:00", a space for the T), and a time that cannot be read (no offset, none,
 *     garbage) leaves the record unable to prove the write: unknown.
 * F1  Payout Cancel: a payout cancelled an hour before the cancel was sent (refundedAt and
 *     completedAt then) was taken as this cancel's doing, by Resolve Outcome after a lost answer
 *     (paid, "money back") and by a 200 answer (plain success). The time a cancel acted binds it as
 *     createdAt binds a record a write made: the contract's `acted`, the same one rule.
 */
beforeAll(() => nock.disableNetConnect());
beforeEach(() => {
	forgetAllSentWrites();
	forgetSkews();
});
afterEach(() => nock.cleanAll());

const run = inProcessRunner(16_500);

const HOUR = 3_600_000;
const iso = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
/** An ISO time written without its offset, a space for the T: "2026-11-28 08:23:55". */
const zoneless = (at: string) => at.replace('T', ' ').replace(/\.\d+Z$/, '');
/** PostgreSQL's text form of a timestamptz: "2026-11-28 08:23:55.085+00". */
const pgText = (at: string) => `${at.replace('T', ' ').replace('Z', '')}+00`;

const resolve = async (item: IDataObject) =>
	(await run({ resource: 'payment', operation: 'resolveOutcome', unknownItem: item as never }))[0];

describe('r16-money F2: one reading of a record time for the write path and Resolve Outcome', () => {
	/** Payout Create answered 200 (dated) with the payout held under its External ID. */
	async function createAnswered(externalId: string, createdAt: string | undefined) {
		nock(BASE_URL)
			.post('/payouts')
			.reply(
				200,
				() => {
					const record = payout('po_old', externalId, '');
					if (createdAt === undefined) delete record.createdAt;
					else record.createdAt = createdAt;
					return record;
				},
				datedAt(0),
			);
		const [item] = await run(create(externalId));
		return item;
	}

	it.each([
		['with Z (control)', () => iso(-24 * HOUR)],
		['without its offset', () => zoneless(iso(-24 * HOUR))],
		['in PostgreSQL form "+00"', () => pgText(iso(-24 * HOUR))],
		['with "+0000"', () => `${zoneless(iso(-24 * HOUR))}+0000`],
		['with "+00:00" and a space', () => `${zoneless(iso(-24 * HOUR))}+00:00`],
		['as garbage', () => 'yesterday'],
	])('a day-old held payout dated %s is unknown with its sent write', async (_, at) => {
		const item = await createAnswered(`salary-${_.length}`, at());
		expectUnknownWithSentWrite(item);
	});

	it('a held payout without any createdAt is unknown, saying the time is not shown', async () => {
		const item = await createAnswered('salary-none', undefined);
		expectUnknownWithSentWrite(item);
		expect(JSON.stringify(item)).toMatch(/createdAt/);
	});

	it('a payout without its offset says why: any zone, so it cannot show it was made after the send', async () => {
		const item = await createAnswered('salary-z', zoneless(iso(-24 * HOUR)));
		expect(JSON.stringify(item)).toMatch(/without its offset/);
	});

	it.each([
		['Z', (at: string) => at],
		['"+00" (PostgreSQL)', pgText],
		['"+00" with microseconds', (at: string) => pgText(at).replace(/(\.\d{3})/, '$1456')],
		['"+0000"', (at: string) => `${zoneless(at)}+0000`],
		['"+00:00" with T', (at: string) => `${at.replace(/\.\d+Z$/, '')}+00:00`],
		[
			'"+03:00", the same instant',
			(at: string) => {
				const d = new Date(Date.parse(at) + 3 * HOUR).toISOString();
				return `${d.replace(/\.\d+Z$/, '')}+03:00`;
			},
		],
	])('a new payout made during the call, dated %s, is the write done', async (_, form) => {
		nock(BASE_URL)
			.post('/payouts')
			.reply(200, () => payout('po_new', 'salary-new', form(iso(1_000))), datedAt(0));
		const [item] = await run(create('salary-new'));
		expect(item.paymentOutcome).toBeUndefined();
		expect(item.id).toBe('po_new');
	});

	it('boundTime reads the unambiguous forms to the same instant, and no others', () => {
		const at = '2026-11-28T08:23:55.085Z';
		const ms = Date.parse(at);
		for (const form of [
			at,
			'2026-11-28 08:23:55.085Z',
			'2026-11-28 08:23:55.085+00',
			'2026-11-28 08:23:55.085+0000',
			'2026-11-28T08:23:55.085+00:00',
			'2026-11-28 11:23:55.085+03',
			'2026-11-28T03:53:55.085-04:30',
			'2026-11-28 08:23:55.085000+00',
		]) {
			expect([form, boundTime(form)]).toEqual([form, ms]);
		}
		expect(boundTime('2026-11-28 08:23:55')).toBe('no_offset');
		expect(boundTime('2026-11-28T08:23:55.085')).toBe('no_offset');
		for (const bad of ['yesterday', '', '2026-13-45 08:23:55+00', '2026-11-28 08:23:55+25']) {
			expect([bad, Number.isNaN(boundTime(bad))]).toEqual([bad, true]);
		}
	});

	/** Payout Create whose answer is lost (500), then Resolve finding the payout dated `form`. */
	async function resolvedWith(externalId: string, form: (at: string) => string) {
		let createdAt = '';
		nock(BASE_URL)
			.post('/payouts')
			.reply(
				500,
				{ statusCode: 500, error: 'x', errorCode: 'INTERNAL_ERROR', message: 'x' },
				datedAt(0),
			);
		const [unknown] = await run(create(externalId));
		expectUnknownWithSentWrite(unknown);
		createdAt = form(iso(1_000));
		const record = () => payout('po_z', externalId, createdAt);
		nock(BASE_URL)
			.get(/\/payouts\/po_z/)
			.reply(200, record, datedAt(0))
			.persist();
		nock(BASE_URL)
			.get(/\/payouts(\?.*)?$/)
			.reply(
				200,
				(uri) => ({
					payouts:
						Number(new URL(uri, BASE_URL).searchParams.get('offset') ?? 0) > 0 ? [] : [record()],
					total: 1,
				}),
				datedAt(0),
			)
			.persist();
		return resolve(unknown);
	}

	it('Resolve Outcome reads the PostgreSQL form as the write path does: a payout made after the send is paid', async () => {
		const resolved = await resolvedWith('inv-pg', pgText);
		expect(resolved.paymentOutcome).toBe('paid');
	});

	it('Resolve Outcome keeps a time without its offset unknown, as the write path now does', async () => {
		const resolved = await resolvedWith('inv-zl', zoneless);
		expect(resolved.paymentOutcome).toBe('unknown');
	});
});

describe('r16-money F1: a cancel is bound to it by the time it acted', () => {
	const cancel = (payoutId: string, idempotencyKey = ''): IDataObject => ({
		resource: 'payout',
		operation: 'cancel',
		payoutId,
		idempotencyKey,
	});
	/** A payout cancelled by the merchant at `at` (refundedAt and completedAt), made two hours ago. */
	const cancelledAt = (id: string, at: string | null, more: IDataObject = {}): IDataObject => ({
		...payout(id, `inv-${id}`, iso(-2 * HOUR)),
		status: 'fail',
		failReason: 'cancelled_by_merchant',
		refundedAt: at,
		completedAt: at,
		...more,
	});

	/** The cancel lost to a gateway's 502, then Resolve finding the payout as `record()` shows it. */
	async function lostThenResolved(id: string, record: () => IDataObject) {
		nock(BASE_URL)
			.post(`/payouts/${id}/cancel`)
			.reply(502, '<html>502 Bad Gateway</html>', { ...datedAt(0), 'Content-Type': 'text/html' });
		const [unknown] = await run(cancel(id));
		expectUnknownWithSentWrite(unknown);
		nock(BASE_URL).get(`/payouts/${id}`).reply(200, record, datedAt(0)).persist();
		return resolve(unknown);
	}

	it('(a) Resolve Outcome: a payout cancelled an hour before the cancel was sent is not this cancel done', async () => {
		const earlier = iso(-HOUR);
		const resolved = await lostThenResolved('po_77', () => cancelledAt('po_77', earlier));
		expect(resolved.paymentOutcome).toBe('unknown');
		expect(String(resolved.reason)).toMatch(/before this (cancel|write) was sent/);
		expect(resolved.lookAgainAt).toBeNull();
	});

	it('(a) control: a payout cancelled after the cancel was sent is this cancel done (paid)', async () => {
		const resolved = await lostThenResolved('po_78', () => cancelledAt('po_78', iso(0)));
		expect(resolved.paymentOutcome).toBe('paid');
	});

	it('(a) a cancelled payout whose refundedAt is written without its offset proves nothing', async () => {
		const resolved = await lostThenResolved('po_79', () => cancelledAt('po_79', zoneless(iso(0))));
		expect(resolved.paymentOutcome).toBe('unknown');
	});

	it('(b) a cancel answered 200 with a payout cancelled an hour before the request is unknown with its sent write', async () => {
		const earlier = iso(-HOUR);
		nock(BASE_URL)
			.post('/payouts/po_80/cancel')
			.reply(200, () => cancelledAt('po_80', earlier), datedAt(0));
		const [item] = await run(cancel('po_80', 'cancel-po_80'));
		expectUnknownWithSentWrite(item);
		expect(JSON.stringify(item)).toMatch(/before this write was sent/);
	});

	it('(b) the same without a key of the user: unknown too, never a plain success', async () => {
		const earlier = iso(-HOUR);
		nock(BASE_URL)
			.post('/payouts/po_81/cancel')
			.reply(200, () => cancelledAt('po_81', earlier), datedAt(0));
		const [item] = await run(cancel('po_81'));
		expectUnknownWithSentWrite(item);
	});

	it('r19-money F2: a cancelled payout with refundedAt null and completedAt after the send is not this cancel done, on its answer and in Resolve Outcome', async () => {
		const refundNotShown = (id: string) => cancelledAt(id, iso(0), { refundedAt: null });
		nock(BASE_URL)
			.post('/payouts/po_90/cancel')
			.reply(200, () => refundNotShown('po_90'), datedAt(0));
		const [answered] = await run(cancel('po_90'));
		expectUnknownWithSentWrite(answered);
		const resolved = await lostThenResolved('po_91', () => refundNotShown('po_91'));
		expect(resolved.paymentOutcome).toBe('unknown');
	});

	it('(b) a cancelled payout that shows no time it was cancelled (refundedAt, completedAt) is unknown', async () => {
		nock(BASE_URL)
			.post('/payouts/po_82/cancel')
			.reply(200, () => cancelledAt('po_82', null), datedAt(0));
		const [item] = await run(cancel('po_82'));
		expectUnknownWithSentWrite(item);
	});

	it('(b) control: a cancel answered with the payout it cancelled just now is the cancel done', async () => {
		nock(BASE_URL)
			.post('/payouts/po_83/cancel')
			.reply(200, () => cancelledAt('po_83', iso(0)), datedAt(0));
		const [item] = await run(cancel('po_83'));
		expect(item.paymentOutcome).toBeUndefined();
		expect(item.fundsReturned).toBe(true);
	});
});
