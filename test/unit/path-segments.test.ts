import fc from 'fast-check';
import nock from 'nock';

import { isDotSegment, segment } from '../../nodes/CompanyPayments/common/validation';
import { runNodeError } from './helpers/n8n';

// "." and ".." survive encodeURIComponent and are collapsed by URL resolution: Card → Get
// Sensitive Data with ".." would request /cards/sensitive's parent, Member → Remove with "."
// would send DELETE /members/. Every operation that puts an ID into a path refuses them (and an
// ID that is empty after trimming) with the field's name, before any request.

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const PATH_ID_OPERATIONS: Array<{
	resource: string;
	operation: string;
	name: string;
	field: string;
}> = [
	{ resource: 'card', operation: 'get', name: 'cardId', field: 'Card ID' },
	{ resource: 'card', operation: 'getBalance', name: 'cardId', field: 'Card ID' },
	{ resource: 'card', operation: 'getSensitiveData', name: 'cardId', field: 'Card ID' },
	{ resource: 'payout', operation: 'get', name: 'payoutId', field: 'Payout ID' },
	{ resource: 'payout', operation: 'cancel', name: 'payoutId', field: 'Payout ID' },
	{ resource: 'member', operation: 'remove', name: 'userId', field: 'Member ID' },
	{ resource: 'userWallet', operation: 'block', name: 'walletId', field: 'Wallet ID' },
	{ resource: 'userWallet', operation: 'replace', name: 'walletId', field: 'Wallet ID' },
	{ resource: 'invite', operation: 'revoke', name: 'inviteId', field: 'Invite ID' },
];

describe('an ID put into a path stays in its segment', () => {
	for (const { resource, operation, name, field } of PATH_ID_OPERATIONS) {
		for (const value of ['.', '..', ' .. ']) {
			it(`${resource} → ${operation} refuses ${JSON.stringify(value)} as ${field} before any request`, async () => {
				const error = await runNodeError({ parameters: { resource, operation, [name]: value } });
				expect(error.message).toBe(
					`${field} must be an ID, not "." or ".." (those would address another endpoint of the service), got "${value.trim()}"`,
				);
				expect(String(error.description)).toContain('Nothing was sent to the service');
			});
		}
		it(`${resource} → ${operation} refuses an ID that is empty after trimming`, async () => {
			const error = await runNodeError({ parameters: { resource, operation, [name]: ' \t ' } });
			expect(error.message).toBe(`${field} must not be empty, got " \t "`);
		});
	}

	for (const operation of ['preview', 'accept']) {
		it(`invite → ${operation} refuses ".." as the invite token, also as the last segment of a URL`, async () => {
			const cases: Array<[string, string]> = [
				['..', 'Invite Token or URL must be a token, not "." or ".."'],
				['.', 'Invite Token or URL must be a token, not "." or ".."'],
				// The URL parser collapses the dot segment itself: nothing is left to send.
				['https://pay.example.com/invite/..', 'Invite Token or URL is a URL without a token in it'],
			];
			for (const [inviteToken, message] of cases) {
				const error = await runNodeError({
					parameters: {
						resource: 'invite',
						operation,
						inviteToken,
						email: 'new@example.com',
						password: 'a long enough password',
					},
				});
				expect(error.message).toBe(message);
			}
		});
	}

	it('segment() never yields a value that resolution would collapse or split (property)', () => {
		fc.assert(
			fc.property(fc.string({ minLength: 1, maxLength: 40 }), (id) => {
				if (id.trim() === '' || isDotSegment(id)) {
					expect(() => segment(id)).toThrow(/must not be empty, "\." or "\.\."/);
					return;
				}
				const encoded = segment(id);
				// One segment: no slash, and resolving it below a base keeps exactly one more segment.
				expect(encoded).not.toContain('/');
				const resolved = new URL(`https://svc.example/cards/${encoded}/sensitive`);
				expect(resolved.pathname.split('/')).toHaveLength(4);
				expect(decodeURIComponent(resolved.pathname.split('/')[2])).toBe(id);
			}),
			{ numRuns: 500 },
		);
	});

	it('segment() refuses exactly the dot segments and blanks among hand-picked edge cases', () => {
		for (const id of ['', ' ', '.', '..']) expect(() => segment(id)).toThrow();
		for (const id of ['...', '.a', 'a.', '%2e', '%2E%2E', 'a/b'])
			expect(() => segment(id)).not.toThrow();
	});
});
