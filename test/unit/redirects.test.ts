import type { IDataObject } from 'n8n-workflow';
import nock from 'nock';

import { API_KEY, BASE_URL, runNodeError } from './helpers/n8n';

// n8n's request helper follows redirects by default and strips only Authorization and Cookie:
// X-API-Key would travel on to the Location's host, and a 301/302 turns a POST into a GET whose
// answer (a payout, say) would be reported as the one created. No call of the package follows a
// redirect; a 3xx is an error naming the status and the Location, before any output.

const ELSEWHERE = 'https://elsewhere.example';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

/** Another host that answers like the service would, and records what reached it. */
function elsewhere() {
	const seen: Array<{ method: string; path: string; apiKey: unknown }> = [];
	const record = function (this: nock.ReplyFnContext, uri: string) {
		seen.push({ method: this.req.method, path: uri, apiKey: this.req.headers['x-api-key'] });
		return [
			200,
			{
				id: 'po-elsewhere',
				status: 'waiting_trader',
				amountRub: 5000,
				requisite: '2200123456789012',
			},
		];
	};
	nock(ELSEWHERE).persist().get(/.*/).reply(record).post(/.*/).reply(record);
	return seen;
}

describe('redirects are never followed', () => {
	for (const status of [301, 302, 303, 307, 308]) {
		it(`Payout → Create answered ${status}: an error naming the status and the Location, nothing sent elsewhere`, async () => {
			const seen = elsewhere();
			nock(BASE_URL)
				.post('/payouts')
				.matchHeader('x-api-key', API_KEY)
				.reply(status, '', { Location: `${ELSEWHERE}/payouts?token=abc` });
			const error = await runNodeError({
				parameters: {
					resource: 'payout',
					operation: 'create',
					amountRub: 5000,
					requisiteType: 'card',
					requisite: '2200 1234 5678 9012',
				},
			});
			expect(seen).toEqual([]);
			// A money write answered with a redirect may have been carried out (a 303 after a POST
			// usually means it was): the outcome is unknown, never "not paid".
			expect(error.message).toMatch(/^OUTCOME_UNKNOWN: the payout may have been created/);
			expect(error.message).toContain(
				`the service answered POST /payouts with a redirect (HTTP ${status} to ${ELSEWHERE}/payouts), which this node does not follow`,
			);
			expect((error.context as IDataObject | undefined)?.paymentOutcome).toBe('unknown');
			expect(String(error.description)).toContain(`Location: ${ELSEWHERE}/payouts`);
			expect(JSON.stringify(error)).not.toContain('token=abc');
			expect(JSON.stringify(error)).not.toContain(API_KEY);
		});
	}

	it('a read answered 302 is an error too, and the API key does not reach the other host', async () => {
		const seen = elsewhere();
		nock(BASE_URL)
			.get('/payouts/po-1')
			.reply(302, '', { Location: `${ELSEWHERE}/payouts/po-1` });
		const error = await runNodeError({
			parameters: { resource: 'payout', operation: 'get', payoutId: 'po-1' },
		});
		expect(seen).toEqual([]);
		expect(error.message).toContain(
			'with a redirect (HTTP 302 to https://elsewhere.example/payouts/po-1)',
		);
	});
});
