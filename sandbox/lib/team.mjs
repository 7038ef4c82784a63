// Team: members (list, change role/permissions, remove) and invites (create, list, revoke,
// public preview and accept).
import { createHash } from 'node:crypto';
import {
	ROLES,
	ROLE_DEFAULT_PERMISSIONS,
	addApiKey,
	createSession,
	newApiKey,
	requireMemberCredential,
	unknownPermissions,
} from './auth.mjs';
import { apiError, validationError } from './errors.mjs';
import { iso } from './util.mjs';

export const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function hashPassword(password) {
	return createHash('sha256').update(`sandbox:${password}`).digest('hex');
}

export function presentMember(m) {
	return {
		userId: m.userId,
		email: m.email,
		role: m.role,
		permissions: [...m.permissions],
		createdAt: m.createdAt,
	};
}

export function inviteStatus(sb, invite) {
	if (invite.acceptedAt) return 'accepted';
	if (sb.clock.now() >= invite.expiresAtMs) return 'expired';
	return 'pending';
}

export function presentInvite(sb, invite) {
	return {
		id: invite.id,
		token: invite.token,
		url: invite.url,
		email: invite.email,
		role: invite.role,
		permissions: [...invite.permissions],
		status: inviteStatus(sb, invite),
		expiresAt: iso(invite.expiresAtMs),
		createdAt: invite.createdAt,
	};
}

/** Creates a member with an own API key; used by seeding, invites and the control API. */
export function addMember(
	sb,
	company,
	{ userId, email, role, permissions, password = null, apiKey },
) {
	const member = {
		userId: userId ?? `usr_${sb.ids.hex(6)}`,
		companyId: company.id,
		email,
		role,
		permissions: permissions ? [...permissions] : [...ROLE_DEFAULT_PERMISSIONS[role]],
		passwordHash: password ? hashPassword(password) : null,
		apiKey: apiKey ?? newApiKey(sb, role),
		createdAt: sb.clock.iso(),
		removedAt: null,
	};
	sb.state.members.set(member.userId, member);
	addApiKey(sb, { key: member.apiKey, companyId: company.id, memberId: member.userId });
	return member;
}

function activeMembers(sb, company) {
	return [...sb.state.members.values()].filter((m) => m.companyId === company.id && !m.removedAt);
}

function findMember(sb, company, userId) {
	const member = sb.state.members.get(userId);
	if (!member || member.companyId !== company.id || member.removedAt)
		throw apiError(404, 'MEMBER_NOT_FOUND');
	return member;
}

/** A company-wide key acts with owner authority where authority matters. */
const actsAsOwner = (principal) => !principal.member || principal.member.role === 'owner';

function readRoleAndPermissions(body, { roleRequired }) {
	const problems = [];
	if (body.role !== undefined || roleRequired) {
		if (!ROLES.includes(body.role)) problems.push(`role должен быть одним из: ${ROLES.join(', ')}`);
	}
	if (body.permissions !== undefined) {
		if (!Array.isArray(body.permissions) || body.permissions.some((p) => typeof p !== 'string')) {
			problems.push('permissions должен быть массивом строк');
		} else {
			const unknown = unknownPermissions(body.permissions);
			if (unknown.length) problems.push(`неизвестные разрешения: ${unknown.join(', ')}`);
		}
	}
	if (problems.length) throw validationError(problems);
}

export function registerTeamRoutes(router) {
	router.get('/members', { permission: 'members.read' }, (ctx) => ({
		body: activeMembers(ctx.sb, ctx.company).map(presentMember),
	}));

	router.patch('/members/:userId', { permission: 'members.role.write' }, (ctx) => {
		const { body, principal } = ctx;
		if (body.role === undefined && body.permissions === undefined) {
			throw validationError('Укажите role и/или permissions');
		}
		readRoleAndPermissions(body, { roleRequired: false });
		const target = findMember(ctx.sb, ctx.company, ctx.params.userId);
		if (principal.member && principal.member.userId === target.userId)
			throw apiError(403, 'CANNOT_CHANGE_OWN_ROLE');
		if ((target.role === 'owner' || body.role === 'owner') && !actsAsOwner(principal)) {
			throw apiError(403, 'ROLE_CHANGE_NOT_ALLOWED');
		}
		const owners = activeMembers(ctx.sb, ctx.company).filter((m) => m.role === 'owner');
		if (target.role === 'owner' && body.role && body.role !== 'owner' && owners.length === 1) {
			throw apiError(403, 'FORBIDDEN', 'Нельзя понизить единственного владельца компании');
		}
		if (body.role) target.role = body.role;
		if (body.permissions) target.permissions = [...new Set(body.permissions)];
		return { body: presentMember(target) };
	});

	router.delete('/members/:userId', { permission: 'members.remove' }, (ctx) => {
		const { principal } = ctx;
		requireMemberCredential(principal, 'Удаление участника');
		const target = findMember(ctx.sb, ctx.company, ctx.params.userId);
		const self = principal.member.userId === target.userId;
		if (target.role === 'owner') {
			if (self) throw apiError(403, 'FORBIDDEN', 'Владелец не может удалить сам себя');
			const owners = activeMembers(ctx.sb, ctx.company).filter((m) => m.role === 'owner');
			if (owners.length <= 1)
				throw apiError(403, 'FORBIDDEN', 'Нельзя удалить последнего владельца компании');
			if (!actsAsOwner(principal))
				throw apiError(403, 'FORBIDDEN', 'Удалить владельца может только владелец');
		}
		target.removedAt = ctx.sb.clock.iso();
		return { body: { ok: true } };
	});

	router.get('/members/invites', { permission: 'members.read' }, (ctx) => ({
		body: [...ctx.sb.state.invites.values()]
			.filter((i) => i.companyId === ctx.company.id && inviteStatus(ctx.sb, i) === 'pending')
			.reverse()
			.map((i) => presentInvite(ctx.sb, i)),
	}));

	router.post('/members/invites', { permission: 'members.invite' }, (ctx) => {
		const { body, principal, sb } = ctx;
		requireMemberCredential(principal, 'Приглашение участников');
		const role = body.role ?? 'member';
		readRoleAndPermissions({ ...body, role }, { roleRequired: true });
		if (
			body.email !== undefined &&
			body.email !== null &&
			(typeof body.email !== 'string' || !EMAIL_RE.test(body.email))
		) {
			throw validationError('email должен быть корректным адресом');
		}
		if (role === 'owner' && principal.member.role !== 'owner')
			throw apiError(403, 'ROLE_CHANGE_NOT_ALLOWED');
		const token = `inv_${sb.ids.hex(16)}`;
		const now = sb.clock.now();
		const invite = {
			id: sb.ids.uuid(),
			companyId: ctx.company.id,
			token,
			url: `${sb.url}/auth/invites/${token}`,
			email: body.email ? body.email.toLowerCase() : null,
			role,
			permissions: body.permissions
				? [...new Set(body.permissions)]
				: [...ROLE_DEFAULT_PERMISSIONS[role]],
			expiresAtMs: now + INVITE_TTL_MS,
			createdAt: iso(now),
			createdBy: principal.member.userId,
			acceptedAt: null,
			memberId: null,
		};
		sb.state.invites.set(invite.id, invite);
		const shown = presentInvite(sb, invite);
		// Profile choice `inviteAnswer`: the invite itself, or wrapped under its name.
		const wrapped = (sb.profile.inviteAnswer ?? 'bare') === 'wrapped';
		return { status: 201, body: wrapped ? { invite: shown } : shown };
	});

	router.delete('/members/invites/:id', { permission: 'members.invite' }, (ctx) => {
		const invite = ctx.sb.state.invites.get(ctx.params.id);
		if (!invite || invite.companyId !== ctx.company.id) throw apiError(404, 'INVITE_NOT_FOUND');
		if (invite.acceptedAt)
			throw apiError(409, 'INVITE_USED', 'Принятое приглашение нельзя отозвать');
		ctx.sb.state.invites.delete(invite.id);
		return { body: { ok: true } };
	});

	router.get('/auth/invites/:token', { auth: 'public' }, (ctx) => {
		const invite = findInviteByToken(ctx.sb, ctx.params.token);
		const company = ctx.sb.state.companies.get(invite.companyId);
		return {
			body: {
				...presentInvite(ctx.sb, invite),
				token: undefined,
				company: { id: company.id, name: company.name },
			},
		};
	});

	router.post('/auth/invites/:token/accept', { auth: 'public' }, (ctx) => {
		const { sb, body } = ctx;
		const invite = findInviteByToken(sb, ctx.params.token);
		const problems = [];
		if (typeof body.email !== 'string' || !EMAIL_RE.test(body.email))
			problems.push('email должен быть корректным адресом');
		if (typeof body.password !== 'string' || body.password.length < 8)
			problems.push('password должен быть не короче 8 символов');
		if (problems.length) throw validationError(problems);
		const status = inviteStatus(sb, invite);
		if (status === 'accepted') throw apiError(409, 'INVITE_USED');
		if (status === 'expired') throw apiError(410, 'INVITE_EXPIRED');
		const email = body.email.toLowerCase();
		if (invite.email && invite.email !== email) throw apiError(403, 'INVITE_INVALID');
		const company = sb.state.companies.get(invite.companyId);
		if (activeMembers(sb, company).some((m) => m.email === email))
			throw apiError(409, 'ACCOUNT_ALREADY_EXISTS');
		const member = addMember(sb, company, {
			email,
			role: invite.role,
			permissions: invite.permissions,
			password: body.password,
		});
		invite.acceptedAt = sb.clock.iso();
		invite.memberId = member.userId;
		const token = createSession(sb, { companyId: company.id, memberId: member.userId });
		return { body: { token, apiKey: member.apiKey, member: presentMember(member) } };
	});
}

function findInviteByToken(sb, token) {
	for (const invite of sb.state.invites.values()) if (invite.token === token) return invite;
	throw apiError(404, 'INVITE_NOT_FOUND');
}
