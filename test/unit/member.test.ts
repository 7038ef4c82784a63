import type { INodeProperties } from 'n8n-workflow';
import nock from 'nock';

import { CompanyPayments } from '../../nodes/CompanyPayments/CompanyPayments.node';
import { invite } from '../../nodes/CompanyPayments/invite';
import { member } from '../../nodes/CompanyPayments/member';
import { API_KEY, BASE_URL, runNode, runNodeError } from './helpers/n8n';

const USER_ID = 'u-7f3a';
const alice = {
	userId: USER_ID,
	email: 'alice@example.com',
	role: 'admin',
	permissions: ['orders.read'],
};
const bob = { userId: 'u-8b21', email: 'bob@example.com', role: 'owner', permissions: [] };

function serviceError(
	statusCode: number,
	errorCode: string | undefined,
	extra: Record<string, unknown> = {},
) {
	return {
		statusCode,
		error: 'Error',
		...(errorCode ? { errorCode } : {}),
		message: 'Ошибка',
		requestId: `req-${statusCode}`,
		...extra,
	};
}

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
	expect(nock.pendingMocks()).toEqual([]);
	nock.cleanAll();
});

describe('member resource in the node description', () => {
	it('lists Company, Invite and Member among the resources, sorted by name', () => {
		const resource = new CompanyPayments().description.properties.find(
			(p) => p.name === 'resource',
		);
		const names = (resource?.options ?? []).map((option) => (option as { name: string }).name);
		expect(names).toEqual(expect.arrayContaining(['Company', 'Invite', 'Member']));
		expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
	});

	it('marks only getMany as read-only', () => {
		const concurrent = member.operations.filter((op) => op.concurrent).map((op) => op.value);
		expect(concurrent).toEqual(['getMany']);
	});

	it('tells in the UI that permissions replace the whole list', () => {
		const update = member.operations.find((op) => op.value === 'update');
		const notice = update?.properties.find((p) => p.type === 'notice');
		expect(notice?.displayName).toMatch(/Permissions REPLACE the member's whole permission list/);
	});

	it('says the replace-all warning once in the Update panel', () => {
		const update = member.operations.find((op) => op.value === 'update');
		const texts = JSON.stringify(update?.properties ?? []);
		expect(texts.match(/replace/gi)).toHaveLength(1);
	});

	it('labels the member "Member ID" in Update and Remove', () => {
		for (const value of ['update', 'remove']) {
			const operation = member.operations.find((op) => op.value === value);
			const field = operation?.properties.find((p) => p.name === 'userId');
			expect(field?.displayName).toBe('Member ID');
		}
	});

	it('offers Role as a list of roles (owner, admin, member), not free text, in Update and Invite Create', () => {
		const collections = [
			member.operations.find((op) => op.value === 'update')?.properties,
			invite.operations.find((op) => op.value === 'create')?.properties,
		].map((properties) => properties?.find((p) => p.type === 'collection'));
		for (const collection of collections) {
			const role = (collection?.options as INodeProperties[]).find((p) => p.name === 'role');
			expect(role?.type).toBe('options');
			expect((role?.options ?? []).map((o) => (o as { value: string }).value)).toEqual([
				'owner',
				'admin',
				'member',
			]);
		}
	});
});

describe('member.getMany', () => {
	it('lists members from a bare array with the API key, one item per member', async () => {
		const scope = nock(BASE_URL, { reqheaders: { 'x-api-key': API_KEY } })
			.get('/members')
			.query({ limit: '2', offset: '0' })
			.reply(200, [alice, bob]);
		const { output } = await runNode({
			parameters: { resource: 'member', operation: 'getMany', returnAll: false, limit: 2 },
		});
		expect(output).toEqual([
			{ json: alice, pairedItem: { item: 0 } },
			{ json: bob, pairedItem: { item: 0 } },
		]);
		scope.done();
	});

	it('reads a members envelope with Return All', async () => {
		nock(BASE_URL)
			.get('/members')
			.query({ limit: '1000', offset: '0' })
			.reply(200, { members: [alice, bob], total: 2 });
		const { output } = await runNode({
			parameters: { resource: 'member', operation: 'getMany', returnAll: true },
		});
		expect(output.map((item) => item.json.userId)).toEqual([USER_ID, 'u-8b21']);
	});
});

describe('member.update', () => {
	it('patches role and permissions (trimmed, de-duplicated) and outputs the member', async () => {
		const updated = { ...alice, role: 'member', permissions: ['orders.read', 'orders.create'] };
		const scope = nock(BASE_URL, { reqheaders: { 'x-api-key': API_KEY } })
			.patch(`/members/${USER_ID}`, {
				role: 'member',
				permissions: ['orders.read', 'orders.create'],
			})
			.reply(200, updated);
		const { output } = await runNode({
			parameters: {
				resource: 'member',
				operation: 'update',
				userId: USER_ID,
				updateFields: { role: ' member ', permissions: 'orders.read, orders.create,orders.read' },
			},
		});
		expect(output).toEqual([{ json: updated, pairedItem: { item: 0 } }]);
		scope.done();
	});

	it('sends permissions alone, and takes any permission name the service may know', async () => {
		nock(BASE_URL)
			.patch(`/members/${USER_ID}`, { permissions: ['cards.recharge', 'payouts.create'] })
			.reply(200, {});
		const { output } = await runNode({
			parameters: {
				resource: 'member',
				operation: 'update',
				userId: USER_ID,
				updateFields: { permissions: 'cards.recharge\npayouts.create' },
			},
		});
		expect(output[0].json).toEqual({
			userId: USER_ID,
			permissions: ['cards.recharge', 'payouts.create'],
		});
	});

	it('clears every permission when the field is the expression {{ [] }}', async () => {
		nock(BASE_URL)
			.patch(`/members/${USER_ID}`, { permissions: [] })
			.reply(200, { ...alice, permissions: [] });
		const { output } = await runNode({
			parameters: {
				resource: 'member',
				operation: 'update',
				userId: USER_ID,
				updateFields: { permissions: [] },
			},
		});
		expect(output[0].json.permissions).toEqual([]);
	});

	it('refuses an update without role and permissions before any request', async () => {
		const error = await runNodeError({
			parameters: {
				resource: 'member',
				operation: 'update',
				userId: USER_ID,
				updateFields: { role: '  ' },
			},
		});
		expect(error.message).toBe('Update Fields must set Role or Permissions (or both), got neither');
		expect(error.constructor.name).toBe('NodeOperationError');
	});

	it('refuses a permission name with a space before any request', async () => {
		const error = await runNodeError({
			parameters: {
				resource: 'member',
				operation: 'update',
				userId: USER_ID,
				updateFields: { permissions: 'orders.read, orders create' },
			},
		});
		expect(error.message).toBe(
			'Permissions must be permission names like orders.read, separated by commas (no spaces inside a name), got "orders create"',
		);
	});

	it('refuses an empty user ID before any request', async () => {
		const error = await runNodeError({
			parameters: {
				resource: 'member',
				operation: 'update',
				userId: ' ',
				updateFields: { role: 'member' },
			},
		});
		expect(error.message).toBe('Member ID must not be empty, got " "');
	});

	it('explains CANNOT_CHANGE_OWN_ROLE', async () => {
		nock(BASE_URL)
			.patch(`/members/${USER_ID}`)
			.reply(403, serviceError(403, 'CANNOT_CHANGE_OWN_ROLE'));
		const error = await runNodeError({
			parameters: {
				resource: 'member',
				operation: 'update',
				userId: USER_ID,
				updateFields: { role: 'owner' },
			},
		});
		expect(error.message).toMatch(/^CANNOT_CHANGE_OWN_ROLE: A member cannot change their own role/);
		expect(error.message).toContain('members.role.write');
		expect(error.description).toContain('Service message: Ошибка');
	});

	it('explains ROLE_CHANGE_NOT_ALLOWED', async () => {
		nock(BASE_URL)
			.patch(`/members/${USER_ID}`)
			.reply(403, serviceError(403, 'ROLE_CHANGE_NOT_ALLOWED'));
		const error = await runNodeError({
			parameters: {
				resource: 'member',
				operation: 'update',
				userId: USER_ID,
				updateFields: { role: 'member' },
			},
		});
		expect(error.message).toBe(
			'ROLE_CHANGE_NOT_ALLOWED: Only an owner can change the role of an owner. Use the API key of an owner',
		);
	});

	it('names the missing permission members.role.write', async () => {
		nock(BASE_URL)
			.patch(`/members/${USER_ID}`)
			.reply(403, serviceError(403, 'PERMISSION_DENIED', { required: 'members.role.write' }));
		const error = await runNodeError({
			parameters: {
				resource: 'member',
				operation: 'update',
				userId: USER_ID,
				updateFields: { role: 'member' },
			},
		});
		expect(error.message).toContain('(missing permission members.role.write)');
	});
});

describe('member.remove', () => {
	it('deletes the member with the API key and outputs ok', async () => {
		const scope = nock(BASE_URL, { reqheaders: { 'x-api-key': API_KEY } })
			.delete(`/members/${USER_ID}`)
			.reply(200, { ok: true });
		const { output, context } = await runNode({
			parameters: { resource: 'member', operation: 'remove', userId: USER_ID },
		});
		expect(output).toEqual([
			{
				json: { deleted: true, ok: true, userId: USER_ID, response: { ok: true } },
				pairedItem: { item: 0 },
			},
		]);
		expect(context.requests[0].body).toBeUndefined();
		scope.done();
	});

	// The answer's fields are not shown: whatever it carries, the node's deleted: true and the
	// member it removed stay as they are, the answer itself under `response`.
	it.each([
		[{ ok: true, deleted: 1 }],
		[{ ok: true, deleted: false, userId: 'someone-else' }],
		[{ deleted: { id: USER_ID } }],
		[''],
	])('outputs deleted: true whatever the answer %j says', async (answer) => {
		nock(BASE_URL).delete(`/members/${USER_ID}`).reply(200, answer);
		const { output } = await runNode({
			parameters: { resource: 'member', operation: 'remove', userId: USER_ID },
		});
		expect(output[0].json.deleted).toBe(true);
		expect(output[0].json.ok).toBe(true);
		expect(output[0].json.userId).toBe(USER_ID);
		expect(Object.keys(output[0].json)).toEqual(['deleted', 'ok', 'userId', 'response']);
		expect(typeof output[0].json.response).toBe('object');
	});

	it('encodes the user ID as one path segment', async () => {
		nock(BASE_URL).delete('/members/a%2Fb').reply(200, { ok: true });
		const { output } = await runNode({
			parameters: { resource: 'member', operation: 'remove', userId: 'a/b' },
		});
		expect(output[0].json.ok).toBe(true);
	});

	it('says clearly when the last owner (or an owner themselves) cannot be removed (403, generic code)', async () => {
		nock(BASE_URL).delete(`/members/${USER_ID}`).reply(403, serviceError(403, 'FORBIDDEN'));
		const error = await runNodeError({
			parameters: { resource: 'member', operation: 'remove', userId: USER_ID },
		});
		expect(error.message).toMatch(
			/^FORBIDDEN: The service refused to remove this member: the last owner/,
		);
		expect(error.message).toContain('an owner cannot remove themselves');
		expect(error.httpCode).toBe('403');
	});

	it('says the same for a 403 without an errorCode', async () => {
		nock(BASE_URL)
			.delete(`/members/${USER_ID}`)
			.reply(403, { statusCode: 403, message: 'Нельзя удалить владельца' });
		const error = await runNodeError({
			parameters: { resource: 'member', operation: 'remove', userId: USER_ID },
		});
		expect(error.message).toMatch(
			/^HTTP 403: The service refused to remove this member: the last owner/,
		);
	});

	it('keeps PERMISSION_DENIED apart from the last-owner refusal', async () => {
		nock(BASE_URL)
			.delete(`/members/${USER_ID}`)
			.reply(403, serviceError(403, 'PERMISSION_DENIED', { required: 'members.remove' }));
		const error = await runNodeError({
			parameters: { resource: 'member', operation: 'remove', userId: USER_ID },
		});
		expect(error.message).toBe(
			'PERMISSION_DENIED: The API key lacks a permission this operation needs (missing permission members.remove)',
		);
	});

	it('says a member API key is needed when the legacy company-wide key gets 400', async () => {
		nock(BASE_URL).delete(`/members/${USER_ID}`).reply(400, serviceError(400, 'BAD_REQUEST'));
		const error = await runNodeError({
			parameters: { resource: 'member', operation: 'remove', userId: USER_ID },
		});
		expect(error.message).toContain('needs a member API key, not the legacy company-wide key');
		expect(error.message).toMatch(/^BAD_REQUEST: /);
		expect(error.description).toContain('HTTP status: 400');
	});

	it('says the same for a 400 with a code this package does not know', async () => {
		nock(BASE_URL)
			.delete(`/members/${USER_ID}`)
			.reply(400, serviceError(400, 'MEMBER_KEY_REQUIRED'));
		const error = await runNodeError({
			parameters: { resource: 'member', operation: 'remove', userId: USER_ID },
		});
		expect(error.message).toContain('needs a member API key, not the legacy company-wide key');
	});

	it('explains 404 MEMBER_NOT_FOUND with the user ID', async () => {
		nock(BASE_URL).delete(`/members/${USER_ID}`).reply(404, serviceError(404, 'MEMBER_NOT_FOUND'));
		const error = await runNodeError({
			parameters: { resource: 'member', operation: 'remove', userId: USER_ID },
		});
		expect(error.message).toBe(
			`MEMBER_NOT_FOUND: No member with ID "${USER_ID}" exists in this company (it may already be removed)`,
		);
	});

	it('fails when the service answers ok: false', async () => {
		nock(BASE_URL).delete(`/members/${USER_ID}`).reply(200, { ok: false });
		const error = await runNodeError({
			parameters: { resource: 'member', operation: 'remove', userId: USER_ID },
		});
		expect(error.message).toBe(
			`The service answered ok: false, so member "${USER_ID}" was not removed`,
		);
	});

	it('keeps going with Continue On Fail and outputs the error fields', async () => {
		nock(BASE_URL).delete('/members/u-1').reply(403, serviceError(403, 'FORBIDDEN'));
		nock(BASE_URL).delete('/members/u-2').reply(200, { ok: true });
		const { output } = await runNode({
			parameters: [
				{ resource: 'member', operation: 'remove', userId: 'u-1' },
				{ resource: 'member', operation: 'remove', userId: 'u-2' },
			],
			continueOnFail: true,
		});
		expect(output[0].json.errorCode).toBe('FORBIDDEN');
		expect(output[0].json.error).toContain('last owner');
		expect(output[1].json).toEqual({
			deleted: true,
			ok: true,
			userId: 'u-2',
			response: { ok: true },
		});
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});
});
