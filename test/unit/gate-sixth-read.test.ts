// Issue 43: the sixth outside read, each case as it was found. The gate changed data that is not
// secret (IDs that pass the card checksum or look like a token, a role learned as a secret for
// the whole process) and missed secrets in shapes it did not know (a key listed as an object, a
// card number grouped by no-break spaces). Each case runs through the doors a user and a model read.
import type { IDataObject } from 'n8n-workflow';
import nock from 'nock';

import { gateJson, learnFromAnswer, openRun, rememberCredential } from '../../nodes/shared/gate';
import { BASE_URL, runNode, runNodeError, runTool } from './helpers/n8n';
import { SAMPLE_EVENTS, deliver } from './helpers/trigger';

/** Numeric payout IDs of 16, 18 and 19 digits that pass the card checksum (Luhn). */
const LUHN_IDS = ['2342342342342341', '234234234234234233', '2342342342342342349'];
const CARD = '4000056655665556';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

function payout(id: string): IDataObject {
	return {
		id,
		externalId: 'inv_20261142',
		status: 'success',
		amountRub: 1500,
		chargedUsdt: 17.2,
		rate: 87.2,
		requisiteType: 'phone',
		requisite: '+79991234567',
		comment: `Payout ${id} paid`,
		createdAt: '2026-11-21T12:00:00.000Z',
	};
}

/** Every text a reader can see in a value: an error's own properties too, at any depth. */
function errorText(value: unknown, seen = new Set<object>()): string {
	if (typeof value === 'string') return value;
	if (typeof value === 'number') return String(value);
	if (typeof value !== 'object' || value === null || seen.has(value)) return '';
	seen.add(value);
	const keys = value instanceof Error ? Object.getOwnPropertyNames(value) : Object.keys(value);
	return keys
		.filter((key) => key !== 'node')
		.map((key) => errorText((value as Record<string, unknown>)[key], seen))
		.join(' | ');
}

describe('identifiers come out byte-exact', () => {
	it.each(LUHN_IDS)('payout %s read by Get: the same ID for the user and the model', async (id) => {
		nock(BASE_URL).persist().get(`/payouts/${id}`).reply(200, payout(id));
		const { output } = await runNode({
			parameters: { resource: 'payout', operation: 'get', payoutId: id },
		});
		expect(output[0].json.id).toBe(id);
		expect(output[0].json.comment).toBe(`Payout ${id} paid`);
		const [tool] = (
			await runTool({
				// The whole record (Simplify off), whose comment names the ID.
				parameters: { resource: 'payout', operation: 'get', payoutId: id, compactOutput: false },
			})
		).output;
		expect(tool.id).toBe(id);
		expect(JSON.stringify(tool)).toContain(`Payout ${id} paid`);
	});

	it.each(LUHN_IDS)('payout %s named in a service error: the error keeps it', async (id) => {
		nock(BASE_URL)
			.get(`/payouts/${id}`)
			.reply(404, {
				statusCode: 404,
				error: 'Not Found',
				errorCode: 'PAYOUT_NOT_FOUND',
				message: `Выплата ${id} не найдена`,
				path: `/payouts/${id}`,
				requestId: `req-${id}`,
			});
		const error = await runNodeError({
			parameters: { resource: 'payout', operation: 'get', payoutId: id },
		});
		expect(errorText(error)).toContain(`Выплата ${id} не найдена`);
		expect(errorText(error)).not.toContain(`•••• ${id.slice(-4)}`);
	});

	it('two payouts with Luhn-valid numeric IDs: each ID as sent, and two change keys', async () => {
		const [first, second] = await Promise.all(
			LUHN_IDS.slice(0, 2).map(
				async (payoutId) =>
					await deliver({
						body: { ...SAMPLE_EVENTS['payout.status_changed'], payoutId, status: 'success' },
					}),
			),
		);
		expect(first.item?.payoutId).toBe(LUHN_IDS[0]);
		expect(second.item?.payoutId).toBe(LUHN_IDS[1]);
		// A success is named by its updatedAt when shown (contract/visits.ts CHANGE_TIMES).
		const completed = `updatedAt:${String(SAMPLE_EVENTS['payout.status_changed'].updatedAt).replace(/:/g, '%3A')}`;
		expect(first.item?.changeKey).toBe(`payout:company:${LUHN_IDS[0]}:success:${completed}`);
		expect(second.item?.changeKey).toBe(`payout:company:${LUHN_IDS[1]}:success:${completed}`);
	});

	it('a payout ID sent as a JSON number: its digits as text (issue 50), and in the raw body as sent', async () => {
		const raw = `{"event":"payout.status_changed","payoutId":${LUHN_IDS[0]},"status":"success","refunded":false,"completedAt":"2026-11-21T12:20:00.000Z"}`;
		const { item } = await deliver({
			body: raw,
			parameters: { options: { includeRawBody: true } },
		});
		expect(item?.payoutId).toBe(LUHN_IDS[0]);
		// No updatedAt: the delivery names the visit, never a completedAt a recharge may keep.
		expect(item?.changeKey).toMatch(new RegExp(`^payout:company:${LUHN_IDS[0]}:success:delivery:`));
		expect(item?.rawBody).toBe(raw);
	});

	it('External ID inv_20261142 (an invoice number, not an invite token) is kept everywhere', async () => {
		const card = {
			id: 'card_1',
			externalId: 'inv_20261142',
			status: 'assigned',
			createdAt: '2026-11-21T12:00:00.000Z',
		};
		nock(BASE_URL).persist().get('/cards/card_1').reply(200, card);
		const { output } = await runNode({
			parameters: { resource: 'card', operation: 'get', cardId: 'card_1' },
		});
		expect(output[0].json.externalId).toBe('inv_20261142');
		const [tool] = (
			await runTool({
				parameters: { resource: 'card', operation: 'get', cardId: 'card_1' },
			})
		).output;
		expect(tool.externalId).toBe('inv_20261142');
		const delivered = await deliver({
			body: { event: 'card.assigned', externalId: 'inv_20261142', cardId: 'card_1' },
		});
		expect(delivered.item?.externalId).toBe('inv_20261142');
		nock.cleanAll();
		nock(BASE_URL).post('/cards/request').reply(409, {
			statusCode: 409,
			error: 'Conflict',
			errorCode: 'CARD_EXTERNAL_ID_TAKEN',
			message: 'External ID inv_20261142 уже занят',
		});
		const error = await runNodeError({
			parameters: { resource: 'card', operation: 'request', externalId: 'inv_20261142' },
		});
		expect(errorText(error)).toContain('External ID inv_20261142 уже занят');
	});
});

/** A list endpoint that answers `records` on its first page and nothing after. */
function serveList(path: string, records: IDataObject[]) {
	nock(BASE_URL)
		.persist()
		.get(path)
		.query(true)
		.reply((uri) => [200, uri.includes('offset=0') ? records : []]);
}

/** A member's key and a session token as a service may make them (built, so no literal is a key). */
const MEMBER_KEY = ['mk', 'live', 'Qw3rTy8Uio5Pas2Dfg'].join('_');
const SESSION = ['Zk7Lm2Qp9', 'Wx4Rt6Yb1Nc'].join('');
const LISTED_KEY = ['mk', 'live', 'Ab12Cd34Ef56Gh78Ij90'].join('_');

describe('values are learned from secret fields, for the run and its credential only', () => {
	const members = [
		{ userId: 'u-1', role: 'owner', apiKeyType: 'member', apiKey: MEMBER_KEY },
		{ userId: 'u-2', role: 'member', apiKeyType: 'member', permissions: ['orders.read'] },
	];

	it('a member list with apiKeyType "member" does not hide the role member, here or in a later run', async () => {
		serveList('/members', members);
		const { output } = await runNode({
			parameters: { resource: 'member', operation: 'getMany', returnAll: false, limit: 2 },
		});
		expect(output[1].json).toMatchObject({ role: 'member', apiKeyType: 'member' });
		expect(JSON.stringify(output)).not.toContain('Qw3rTy8Uio5Pas2Dfg');
		nock.cleanAll();
		serveList('/members', [{ userId: 'u-3', role: 'member' }]);
		const later = await runNode({
			parameters: { resource: 'member', operation: 'getMany', returnAll: false, limit: 2 },
		});
		expect(later.output[0].json.role).toBe('member');
	});

	it("what one credential's run learned masks its later runs, never another credential's", () => {
		const secret = SESSION;
		const companyA = { baseUrl: BASE_URL, apiKey: 'sk_dummy_companyA_0000001' };
		const companyB = { baseUrl: BASE_URL, apiKey: 'sk_dummy_companyB_0000002' };
		const runA = {};
		openRun(runA);
		rememberCredential(companyA, runA);
		learnFromAnswer(runA, { sessionToken: secret, role: 'member' });
		const shown = { note: `token ${secret}`, role: 'member', id: secret };
		// The same run and a later run of the same credential: hidden in a text, never in an ID.
		for (const ctx of [runA, {}]) {
			if (ctx !== runA) rememberCredential(companyA, ctx);
			const out = gateJson(ctx, shown);
			expect(out.note).not.toContain(secret);
			expect(out.role).toBe('member');
			expect(out.id).toBe(secret);
		}
		// Another company's run, and a door with no run: nothing learned reaches them.
		const runB = {};
		rememberCredential(companyB, runB);
		expect(gateJson(runB, shown)).toEqual(shown);
		expect(gateJson(undefined, shown)).toEqual(shown);
	});
});

describe('secrets in shapes the gate did not know', () => {
	it('a member API key listed as an object ({ value }) is masked for the user and the model', async () => {
		const key = LISTED_KEY;
		const listed = [{ userId: 'u-1', role: 'admin', apiKey: { value: key, createdAt: 'x' } }];
		serveList('/members', listed);
		const { output } = await runNode({
			parameters: { resource: 'member', operation: 'getMany', returnAll: false, limit: 5 },
		});
		expect(JSON.stringify(output)).not.toContain(key.slice(0, 20));
		expect(output[0].json.role).toBe('admin');
		const tool = (
			await runTool({
				parameters: { resource: 'member', operation: 'getMany', returnAll: false, limit: 5 },
			})
		).output;
		expect(JSON.stringify(tool)).not.toContain(key.slice(0, 20));
	});

	it.each([
		['no-break spaces', '\u00a0'],
		['thin spaces', '\u2009'],
		['narrow no-break spaces', '\u202f'],
		['dots', '.'],
		['dashes', '-'],
		['spaces around dashes', ' - '],
	])(
		'a card number grouped by %s in a service message: masked for user and model',
		async (_name, gap) => {
			const grouped = (CARD.match(/.{4}/g) ?? []).join(gap);
			const answer = {
				statusCode: 400,
				error: 'Bad Request',
				errorCode: 'PAYOUT_REQUISITE_INVALID',
				message: `Карта ${grouped} отклонена банком`,
			};
			nock(BASE_URL).persist().get('/payouts/p-1').reply(400, answer);
			const digitsOf = (text: string) => text.replace(/[\s.\-\u00a0\u2009\u202f]/g, '');
			const error = await runNodeError({
				parameters: { resource: 'payout', operation: 'get', payoutId: 'p-1' },
			});
			expect(digitsOf(errorText(error))).not.toContain(CARD.slice(0, 12));
			expect(errorText(error)).toContain('отклонена банком');
			const tool = await runTool({
				parameters: { resource: 'payout', operation: 'get', payoutId: 'p-1' },
			})
				.then(({ output }) => output)
				.catch((thrown: unknown) => thrown);
			expect(digitsOf(errorText(tool))).not.toContain(CARD.slice(0, 12));
		},
	);
});

describe('requisites by their field, as before', () => {
	it("a payout's card number is masked for the user, its phone is kept; the model gets neither", () => {
		const card = { id: 'p-1', requisiteType: 'card', requisite: CARD };
		const phone = { id: 'p-2', requisiteType: 'phone', requisite: '+79991234567' };
		expect(gateJson(undefined, card).requisite).toBe('•••• 5556');
		expect(gateJson(undefined, phone).requisite).toBe('+79991234567');
		expect(gateJson(undefined, phone, 'model').requisite).toBe('•••• 4567');
	});
});
