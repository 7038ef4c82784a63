import type { IHttpRequestOptions } from 'n8n-workflow';
import nock from 'nock';

import { invite } from '../../nodes/CompanyPayments/invite';
import { API_KEY, BASE_URL, runNode, runNodeError } from './helpers/n8n';

const INVITE_ID = 'inv-5c2e';
const INVITE_TOKEN = 'tok_dummy_3f9a1c7e5b2d4a6c';
const INVITE_URL = `https://cabinet.payments.test/invite/${INVITE_TOKEN}`;
const NEW_MEMBER_KEY = 'sk_dummy_member_9a8b7c6d5e4f';
const SESSION_TOKEN = 'sess_dummy_1a2b3c4d5e6f7a8b';
const PASSWORD = 'dummy-Passw0rd-42';

const created = {
	id: INVITE_ID,
	email: 'carol@example.com',
	role: 'member',
	permissions: ['orders.read'],
	status: 'pending',
	expiresAt: '2026-11-28T12:00:00.000Z',
	url: INVITE_URL,
};

function hasApiKeyHeader(request: IHttpRequestOptions): boolean {
	return Object.keys(request.headers ?? {}).some((name) => name.toLowerCase() === 'x-api-key');
}

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
	expect(nock.pendingMocks()).toEqual([]);
	nock.cleanAll();
});

describe('invite resource', () => {
	it('marks only getMany and preview as read-only', () => {
		const readOnly = invite.operations.filter((op) => op.concurrent).map((op) => op.value);
		expect(readOnly.sort()).toEqual(['getMany', 'preview']);
	});
});

describe('invite.create', () => {
	it('posts e-mail, role and permissions with the API key and puts the URL first', async () => {
		const scope = nock(BASE_URL, { reqheaders: { 'x-api-key': API_KEY } })
			.post('/members/invites', {
				email: 'carol@example.com',
				role: 'member',
				permissions: ['orders.read', 'cards.recharge'],
			})
			.reply(201, created);
		const { output } = await runNode({
			parameters: {
				resource: 'invite',
				operation: 'create',
				email: ' carol@example.com ',
				additionalFields: { role: 'member', permissions: 'orders.read, cards.recharge' },
			},
		});
		expect(output).toEqual([{ json: created, pairedItem: { item: 0 } }]);
		expect(Object.keys(output[0].json)[0]).toBe('url');
		scope.done();
	});

	it('sends only the fields that are set', async () => {
		nock(BASE_URL)
			.post('/members/invites', { role: 'member' })
			.reply(201, { id: INVITE_ID, url: INVITE_URL });
		const { output } = await runNode({
			parameters: {
				resource: 'invite',
				operation: 'create',
				email: '',
				additionalFields: { role: 'member' },
			},
		});
		expect(output[0].json).toEqual({ url: INVITE_URL, id: INVITE_ID });
	});

	it('outputs url: null when the answer has no URL', async () => {
		nock(BASE_URL).post('/members/invites').reply(201, { id: INVITE_ID });
		const { output } = await runNode({
			parameters: { resource: 'invite', operation: 'create', email: 'carol@example.com' },
		});
		expect(output[0].json).toEqual({ url: null, id: INVITE_ID });
	});

	it('refuses an invalid e-mail before any request', async () => {
		const error = await runNodeError({
			parameters: { resource: 'invite', operation: 'create', email: 'carol.example.com' },
		});
		expect(error.message).toBe(
			'Email must be an e-mail address like name@example.com, got "carol.example.com"',
		);
		expect(error.constructor.name).toBe('NodeOperationError');
	});

	it('refuses an invalid permission before any request', async () => {
		const error = await runNodeError({
			parameters: {
				resource: 'invite',
				operation: 'create',
				email: 'carol@example.com',
				additionalFields: { permissions: 'orders.read;orders.create' },
			},
		});
		expect(error.message).toMatch(/^Permissions must be permission names like orders\.read/);
	});

	it('shows PERMISSION_DENIED as "missing permission members.invite"', async () => {
		nock(BASE_URL)
			.post('/members/invites')
			.reply(403, {
				statusCode: 403,
				error: 'PERMISSION_DENIED',
				errorCode: 'PERMISSION_DENIED',
				message: 'Недостаточно прав',
				required: 'members.invite',
				details: { required: 'members.invite' },
			});
		const error = await runNodeError({
			parameters: { resource: 'invite', operation: 'create', email: 'carol@example.com' },
		});
		expect(error.message).toBe(
			'PERMISSION_DENIED: The API key lacks a permission this operation needs (missing permission members.invite)',
		);
		expect(error.description).toContain('Required permission: members.invite');
	});

	it('says a member API key is needed when the service answers 400 without a specific code', async () => {
		nock(BASE_URL)
			.post('/members/invites')
			.reply(400, { statusCode: 400, errorCode: 'BAD_REQUEST', message: 'Нужен ключ участника' });
		const error = await runNodeError({
			parameters: { resource: 'invite', operation: 'create', email: 'carol@example.com' },
		});
		expect(error.message).toContain('needs a member API key, not the legacy company-wide key');
	});
});

describe('invite.getMany', () => {
	it('lists open invites from an envelope with the API key', async () => {
		nock(BASE_URL, { reqheaders: { 'x-api-key': API_KEY } })
			.get('/members/invites')
			.query({ limit: '50', offset: '0' })
			.reply(200, { invites: [created, { ...created, id: 'inv-2' }] });
		// A short page without total may be the service's page cap: one more page ends the list.
		nock(BASE_URL, { reqheaders: { 'x-api-key': API_KEY } })
			.get('/members/invites')
			.query({ limit: '2', offset: '2' })
			.reply(200, { invites: [] });
		const { output } = await runNode({
			parameters: { resource: 'invite', operation: 'getMany', returnAll: false, limit: 50 },
		});
		expect(output.map((item) => item.json.id)).toEqual([INVITE_ID, 'inv-2']);
	});
});

describe('invite.revoke', () => {
	it('deletes the invite with the API key and outputs revoked', async () => {
		const scope = nock(BASE_URL, { reqheaders: { 'x-api-key': API_KEY } })
			.delete(`/members/invites/${INVITE_ID}`)
			.reply(200, {});
		const { output } = await runNode({
			parameters: { resource: 'invite', operation: 'revoke', inviteId: INVITE_ID },
		});
		expect(output).toEqual([
			{
				json: { deleted: true, revoked: true, inviteId: INVITE_ID, response: {} },
				pairedItem: { item: 0 },
			},
		]);
		scope.done();
	});

	it.each([
		[{ deleted: 1 }],
		[{ id: INVITE_ID, status: 'revoked', deleted: false, deletedAt: '2026-01-01T00:00:00Z' }],
		[{ success: true, deleted: { id: INVITE_ID }, inviteId: 'another' }],
	])(
		'outputs deleted: true whatever the answer %j says, the answer under response',
		async (answer) => {
			nock(BASE_URL).delete(`/members/invites/${INVITE_ID}`).reply(200, answer);
			const { output } = await runNode({
				parameters: { resource: 'invite', operation: 'revoke', inviteId: INVITE_ID },
			});
			expect(output[0].json.deleted).toBe(true);
			expect(output[0].json.revoked).toBe(true);
			expect(output[0].json.inviteId).toBe(INVITE_ID);
			expect(Object.keys(output[0].json)).toEqual(['deleted', 'revoked', 'inviteId', 'response']);
			expect(Object.keys(output[0].json.response as object)).toEqual(Object.keys(answer));
		},
	);

	it('says an accepted invite cannot be revoked (INVITE_USED)', async () => {
		nock(BASE_URL).delete(`/members/invites/${INVITE_ID}`).reply(409, {
			statusCode: 409,
			error: 'Conflict',
			errorCode: 'INVITE_USED',
			message: 'Приглашение уже принято',
		});
		const error = await runNodeError({
			parameters: { resource: 'invite', operation: 'revoke', inviteId: INVITE_ID },
		});
		expect(error.message).toMatch(
			/^INVITE_USED: The invite was already accepted, and an accepted invite cannot be revoked/,
		);
		expect(error.description).toContain('Service message: Приглашение уже принято');
	});

	it('refuses an empty invite ID before any request', async () => {
		const error = await runNodeError({
			parameters: { resource: 'invite', operation: 'revoke', inviteId: '' },
		});
		expect(error.message).toBe('Invite ID must not be empty, got ""');
	});
});

describe('invite.preview', () => {
	it('gets the invite WITHOUT the API key', async () => {
		const preview = {
			companyName: 'Acme',
			email: 'carol@example.com',
			role: 'member',
			status: 'pending',
		};
		const scope = nock(BASE_URL, { badheaders: ['x-api-key'] })
			.get(`/auth/invites/${INVITE_TOKEN}`)
			.reply(function () {
				expect(this.req.headers['x-api-key']).toBeUndefined();
				return [200, preview];
			});
		const { output, context } = await runNode({
			parameters: { resource: 'invite', operation: 'preview', inviteToken: INVITE_TOKEN },
		});
		expect(output).toEqual([{ json: preview, pairedItem: { item: 0 } }]);
		expect(hasApiKeyHeader(context.requests[0])).toBe(false);
		scope.done();
	});

	it('reads the token from the invite URL (last path segment)', async () => {
		nock(BASE_URL, { badheaders: ['x-api-key'] })
			.get(`/auth/invites/${INVITE_TOKEN}`)
			.reply(200, { status: 'accepted' });
		const { output } = await runNode({
			parameters: { resource: 'invite', operation: 'preview', inviteToken: ` ${INVITE_URL}/ ` },
		});
		expect(output[0].json.status).toBe('accepted');
	});

	it('reads the token from a token query parameter of the URL', async () => {
		nock(BASE_URL).get(`/auth/invites/${INVITE_TOKEN}`).reply(200, { status: 'expired' });
		const { output } = await runNode({
			parameters: {
				resource: 'invite',
				operation: 'preview',
				inviteToken: `https://cabinet.payments.test/join?token=${INVITE_TOKEN}`,
			},
		});
		expect(output[0].json.status).toBe('expired');
	});

	it('explains 404 for an unknown token without repeating the token', async () => {
		nock(BASE_URL)
			.get(`/auth/invites/${INVITE_TOKEN}`)
			.reply(404, { statusCode: 404, errorCode: 'NOT_FOUND', message: 'Не найдено' });
		const error = await runNodeError({
			parameters: { resource: 'invite', operation: 'preview', inviteToken: INVITE_TOKEN },
		});
		expect(error.message).toBe(
			'NOT_FOUND: No invite exists for this token. Check that the token or invite URL was copied completely',
		);
		expect(`${error.message} ${String(error.description)}`).not.toContain(INVITE_TOKEN);
	});

	it('explains a bare 404 (no errorCode) the same way', async () => {
		nock(BASE_URL).get(`/auth/invites/${INVITE_TOKEN}`).reply(404, '');
		const error = await runNodeError({
			parameters: { resource: 'invite', operation: 'preview', inviteToken: INVITE_TOKEN },
		});
		expect(error.message).toBe(
			'HTTP 404: No invite exists for this token. Check that the token or invite URL was copied completely',
		);
	});

	it('refuses an empty token and a token with spaces before any request, without echoing it', async () => {
		const empty = await runNodeError({
			parameters: { resource: 'invite', operation: 'preview', inviteToken: ' ' },
		});
		expect(empty.message).toBe('Invite Token or URL must not be empty');
		const spaced = await runNodeError({
			parameters: { resource: 'invite', operation: 'preview', inviteToken: 'tok dummy secret' },
		});
		expect(spaced.message).toBe('Invite Token or URL must not contain spaces');
	});
});

describe('invite.accept', () => {
	it('posts e-mail and password WITHOUT the API key and outputs the new key to store', async () => {
		const answer = {
			token: SESSION_TOKEN,
			apiKey: NEW_MEMBER_KEY,
			member: { userId: 'u-9', role: 'member' },
		};
		const scope = nock(BASE_URL, { badheaders: ['x-api-key'] })
			.post(`/auth/invites/${INVITE_TOKEN}/accept`, {
				email: 'carol@example.com',
				password: PASSWORD,
			})
			.reply(function () {
				expect(this.req.headers['x-api-key']).toBeUndefined();
				return [201, answer];
			});
		const { output, context } = await runNode({
			parameters: {
				resource: 'invite',
				operation: 'accept',
				inviteToken: INVITE_TOKEN,
				email: 'carol@example.com',
				password: PASSWORD,
			},
		});
		expect(hasApiKeyHeader(context.requests[0])).toBe(false);
		expect(output).toHaveLength(1);
		expect(output[0].json).toEqual({
			notice: expect.stringMatching(
				/^Store this API key in a Company Payments API credential now; it is shown once\./,
			),
			apiKeyField: 'apiKey',
			...answer,
			// Only the key's own field is opened (Reveal); the session token stays masked.
			token: '[hidden]',
		});
		expect(output[0].json.notice).toContain('The key is in the field "apiKey"');
		scope.done();
	});

	it('says so when the answer has no expected key field', async () => {
		nock(BASE_URL)
			.post(`/auth/invites/${INVITE_TOKEN}/accept`)
			.reply(200, { credentials: { value: NEW_MEMBER_KEY } });
		const { output } = await runNode({
			parameters: {
				resource: 'invite',
				operation: 'accept',
				inviteToken: INVITE_TOKEN,
				email: 'c@example.com',
				password: PASSWORD,
			},
		});
		expect(output[0].json.apiKeyField).toBeNull();
		expect(output[0].json.notice).toContain(
			'The answer has no field named apiKey, newApiKey, api_key, key holding a key',
		);
		// Nothing is revealed (outside read r2, finding 1): the notice names where to look.
		expect(output[0].json.notice).toContain('Its fields: credentials.value.');
		expect(JSON.stringify(output[0].json)).not.toContain(NEW_MEMBER_KEY);
	});

	it('refuses an empty password before any request, naming the field only', async () => {
		const error = await runNodeError({
			parameters: {
				resource: 'invite',
				operation: 'accept',
				inviteToken: INVITE_TOKEN,
				email: 'c@example.com',
				password: '',
			},
		});
		expect(error.message).toBe('Password must not be empty');
	});

	it('refuses an invalid e-mail before any request', async () => {
		const error = await runNodeError({
			parameters: {
				resource: 'invite',
				operation: 'accept',
				inviteToken: INVITE_TOKEN,
				email: 'carol',
				password: PASSWORD,
			},
		});
		expect(error.message).toBe(
			'Email must be an e-mail address like name@example.com, got "carol"',
		);
		expect(error.message).not.toContain(PASSWORD);
	});

	it('explains INVITE_INVALID and never shows the password', async () => {
		nock(BASE_URL).post(`/auth/invites/${INVITE_TOKEN}/accept`).reply(400, {
			statusCode: 400,
			errorCode: 'INVITE_INVALID',
			message: 'Приглашение выписано на другой e-mail',
		});
		const error = await runNodeError({
			parameters: {
				resource: 'invite',
				operation: 'accept',
				inviteToken: INVITE_TOKEN,
				email: 'c@example.com',
				password: PASSWORD,
			},
		});
		expect(error.message).toMatch(
			/^INVITE_INVALID: The invite cannot be accepted with this e-mail/,
		);
		expect(
			JSON.stringify({ message: error.message, description: error.description }),
		).not.toContain(PASSWORD);
	});

	it('explains INVITE_USED on accept', async () => {
		nock(BASE_URL)
			.post(`/auth/invites/${INVITE_TOKEN}/accept`)
			.reply(409, { statusCode: 409, errorCode: 'INVITE_USED', message: 'Использовано' });
		const error = await runNodeError({
			parameters: {
				resource: 'invite',
				operation: 'accept',
				inviteToken: INVITE_TOKEN,
				email: 'c@example.com',
				password: PASSWORD,
			},
		});
		expect(error.message).toBe(
			'INVITE_USED: The invite was already accepted; an invite can be accepted only once',
		);
	});
});
