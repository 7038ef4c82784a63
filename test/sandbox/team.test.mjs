import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { KEYS, client, control, expectError, openSandbox } from './helpers.mjs';

const OWNER = 'usr_demo_owner';
const ADMIN = 'usr_demo_admin';
const READER = 'usr_demo_reader';

describe('members and invites', () => {
	let sandbox;
	let owner;
	let admin;
	let legacy;
	let ctl;
	before(async () => {
		sandbox = await openSandbox();
		owner = client(sandbox, KEYS.owner);
		admin = client(sandbox, KEYS.admin);
		legacy = client(sandbox, KEYS.legacy);
		ctl = control(sandbox);
	});
	after(() => sandbox.close());
	beforeEach(() => sandbox.reset());

	it('lists members; members.read is enforced', async () => {
		const res = await owner.get('/members');
		assert.deepEqual(
			res.body.map((m) => [m.userId, m.role]),
			[
				[OWNER, 'owner'],
				[ADMIN, 'admin'],
				[READER, 'member'],
			],
		);
		const reader = client(sandbox, KEYS.readOnly);
		assert.equal(
			expectError(assert, await reader.get('/members'), 403, 'PERMISSION_DENIED').required,
			'members.read',
		);
	});

	it('PATCH replaces permissions, forbids own role and non-owners changing an owner', async () => {
		const res = await owner.patch(`/members/${READER}`, {
			permissions: ['orders.read', 'cards.read'],
		});
		assert.equal(res.status, 200);
		assert.deepEqual(res.body.permissions, ['orders.read', 'cards.read']);
		expectError(
			assert,
			await admin.patch(`/members/${ADMIN}`, { role: 'member' }),
			403,
			'CANNOT_CHANGE_OWN_ROLE',
		);
		expectError(
			assert,
			await admin.patch(`/members/${OWNER}`, { role: 'admin' }),
			403,
			'ROLE_CHANGE_NOT_ALLOWED',
		);
		expectError(
			assert,
			await admin.patch(`/members/${READER}`, { role: 'owner' }),
			403,
			'ROLE_CHANGE_NOT_ALLOWED',
		);
		expectError(
			assert,
			await owner.patch(`/members/${READER}`, { permissions: ['bogus'] }),
			400,
			'VALIDATION_ERROR',
		);
		expectError(
			assert,
			await owner.patch('/members/usr_nobody', { role: 'member' }),
			404,
			'MEMBER_NOT_FOUND',
		);
		const restricted = await ctl.post('/keys', { role: 'admin', permissions: ['members.read'] });
		const denied = await client(sandbox, restricted.body.apiKey).patch(`/members/${READER}`, {
			role: 'admin',
		});
		assert.equal(
			expectError(assert, denied, 403, 'PERMISSION_DENIED').required,
			'members.role.write',
		);
	});

	it('DELETE: legacy key 400, owner self 403, last owner 403, unknown 404, removed key 401', async () => {
		const legacyRes = expectError(
			assert,
			await legacy.delete(`/members/${READER}`),
			400,
			'BAD_REQUEST',
		);
		assert.match(legacyRes.message, /ключ участника/);
		expectError(assert, await owner.delete(`/members/${OWNER}`), 403, 'FORBIDDEN');
		expectError(assert, await admin.delete(`/members/${OWNER}`), 403, 'FORBIDDEN');
		expectError(assert, await owner.delete('/members/usr_nobody'), 404, 'MEMBER_NOT_FOUND');
		const removed = await owner.delete(`/members/${READER}`);
		assert.equal(removed.status, 200);
		assert.deepEqual(removed.body, { ok: true });
		expectError(
			assert,
			await client(sandbox, KEYS.readOnly).get('/orders'),
			401,
			'NO_COMPANY_MEMBERSHIP',
		);
		assert.equal((await owner.get('/members')).body.length, 2);
	});

	it('invites: legacy key 400; create, preview, accept, use the new key; used and revoke rules', async () => {
		expectError(
			assert,
			await legacy.post('/members/invites', { email: 'x@y.example' }),
			400,
			'BAD_REQUEST',
		);
		const created = await owner.post('/members/invites', {
			email: 'new@demo-co.example',
			role: 'member',
			permissions: ['orders.read', 'payouts.read'],
		});
		assert.equal(created.status, 201, created.text);
		const invite = created.body;
		assert.equal(invite.status, 'pending');
		assert.ok(invite.url.includes(invite.token));
		assert.equal(
			Date.parse(invite.expiresAt) - Date.parse(invite.createdAt),
			7 * 24 * 60 * 60 * 1000,
		);
		assert.deepEqual(
			(await owner.get('/members/invites')).body.map((i) => i.id),
			[invite.id],
		);

		const anon = client(sandbox, null);
		const preview = await anon.get(`/auth/invites/${invite.token}`);
		assert.equal(preview.status, 200);
		assert.equal(preview.body.status, 'pending');
		assert.equal(preview.body.company.name, 'Demo Co');
		expectError(assert, await anon.get('/auth/invites/inv_unknown'), 404, 'INVITE_NOT_FOUND');

		const wrongEmail = await anon.post(`/auth/invites/${invite.token}/accept`, {
			email: 'other@x.example',
			password: 'password123',
		});
		expectError(assert, wrongEmail, 403, 'INVITE_INVALID');
		const accepted = await anon.post(`/auth/invites/${invite.token}/accept`, {
			email: 'new@demo-co.example',
			password: 'password123',
		});
		assert.equal(accepted.status, 200, accepted.text);
		assert.match(accepted.body.token, /^sess_/);
		assert.deepEqual(accepted.body.member.permissions, ['orders.read', 'payouts.read']);
		assert.equal((await client(sandbox, accepted.body.apiKey).get('/payouts')).status, 200);
		assert.equal((await client(sandbox, accepted.body.token).get('/orders')).status, 200);
		const denied = await client(sandbox, accepted.body.apiKey).get('/cards');
		expectError(assert, denied, 403, 'PERMISSION_DENIED');

		expectError(
			assert,
			await anon.post(`/auth/invites/${invite.token}/accept`, {
				email: 'new@demo-co.example',
				password: 'password123',
			}),
			409,
			'INVITE_USED',
		);
		assert.equal((await anon.get(`/auth/invites/${invite.token}`)).body.status, 'accepted');
		expectError(assert, await owner.delete(`/members/invites/${invite.id}`), 409, 'INVITE_USED');
		assert.deepEqual((await owner.get('/members/invites')).body, []);
	});

	it('invites expire after 7 days on the sandbox clock; pending ones can be revoked', async () => {
		const a = (await owner.post('/members/invites', { role: 'member' })).body;
		const b = (await owner.post('/members/invites', { role: 'admin' })).body;
		const revoked = await owner.delete(`/members/invites/${b.id}`);
		assert.deepEqual(revoked.body, { ok: true });
		expectError(
			assert,
			await client(sandbox, null).get(`/auth/invites/${b.token}`),
			404,
			'INVITE_NOT_FOUND',
		);
		await ctl.post('/clock/advance', { ms: 7 * 24 * 60 * 60 * 1000 + 1 });
		const anon = client(sandbox, null);
		assert.equal((await anon.get(`/auth/invites/${a.token}`)).body.status, 'expired');
		const late = await anon.post(`/auth/invites/${a.token}/accept`, {
			email: 'late@x.example',
			password: 'password123',
		});
		expectError(assert, late, 410, 'INVITE_EXPIRED');
		assert.deepEqual((await owner.get('/members/invites')).body, []);
	});

	it('only an owner may invite an owner', async () => {
		expectError(
			assert,
			await admin.post('/members/invites', { role: 'owner' }),
			403,
			'ROLE_CHANGE_NOT_ALLOWED',
		);
		assert.equal((await owner.post('/members/invites', { role: 'owner' })).status, 201);
	});
});
