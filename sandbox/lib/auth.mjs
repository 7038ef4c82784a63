// Credentials (API keys and session tokens), roles and permissions.
import { apiError, permissionDenied } from './errors.mjs';

/** Every permission the sandbox knows. The contract names eight; the rest are the sandbox's own. */
export const PERMISSIONS = Object.freeze([
	'orders.read',
	'orders.create',
	'disputes.read',
	'disputes.create',
	'wallet.read',
	'user_wallets.read',
	'user_wallets.manage',
	'cards.read',
	'cards.request',
	'cards.recharge',
	'cards.sensitive',
	'payouts.read',
	'payouts.create',
	'payouts.cancel',
	'members.read',
	'members.role.write',
	'members.remove',
	'members.invite',
	'webhook.manage',
	'company.manage',
]);

export const ROLES = Object.freeze(['owner', 'admin', 'member']);

/** Permissions a member gets when none are given explicitly. An owner always has all. */
export const ROLE_DEFAULT_PERMISSIONS = Object.freeze({
	owner: PERMISSIONS,
	admin: PERMISSIONS.filter((p) => p !== 'company.manage'),
	member: [
		'orders.read',
		'orders.create',
		'disputes.read',
		'disputes.create',
		'wallet.read',
		'user_wallets.read',
		'cards.read',
		'payouts.read',
		'members.read',
	],
});

export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;
const SESSION_PREFIX = 'sess_';

/** Finds the credential in X-API-Key, then Authorization: Bearer, then ?api_key. */
export function extractCredential(req, query) {
	const header = req.headers['x-api-key'];
	if (typeof header === 'string' && header.trim()) return header.trim();
	const authz = req.headers.authorization;
	if (typeof authz === 'string') {
		const m = /^Bearer\s+(.+)$/i.exec(authz.trim());
		if (m) return m[1].trim();
	}
	const fromQuery = query.get('api_key');
	if (fromQuery) return fromQuery;
	return null;
}

/**
 * Resolves a credential to a principal or throws 401.
 * Principal: { company, member (or null for the company-wide key/login), legacy, via }.
 */
export function authenticate(sb, credential) {
	const { state, clock } = sb;
	if (!credential) throw apiError(401, 'AUTH_REQUIRED');
	let companyId;
	let memberId;
	let via;
	if (credential.startsWith(SESSION_PREFIX)) {
		const session = state.sessions.get(credential);
		if (!session || session.expiresAt <= clock.now()) throw apiError(401, 'SESSION_INVALID');
		({ companyId, memberId } = session);
		via = 'session';
	} else {
		const key = state.apiKeys.get(credential);
		if (!key) throw apiError(401, 'INVALID_API_KEY');
		if (key.revokedAt)
			throw apiError(401, 'INVALID_API_KEY', 'API-ключ отозван: используйте новый ключ');
		({ companyId, memberId } = key);
		via = 'api_key';
	}
	const company = state.companies.get(companyId);
	if (!company) throw apiError(401, 'COMPANY_NOT_FOUND');
	if (!company.active) throw apiError(401, 'COMPANY_INACTIVE');
	let member = null;
	if (memberId) {
		member = state.members.get(memberId);
		if (!member || member.removedAt) throw apiError(401, 'NO_COMPANY_MEMBERSHIP');
	}
	return { company, member, legacy: !member, via };
}

export function hasPermission(principal, permission) {
	if (!principal.member) return true; // company-wide key or company login: all permissions
	if (principal.member.role === 'owner') return true;
	return principal.member.permissions.includes(permission);
}

export function requirePermission(principal, permission) {
	if (permission && !hasPermission(principal, permission)) throw permissionDenied(permission);
}

/** Member-only actions (invites, removal) refuse the company-wide key with 400. */
export function requireMemberCredential(principal, action) {
	if (!principal.member) {
		throw apiError(
			400,
			'BAD_REQUEST',
			`${action} недоступно с общим ключом компании: используйте ключ участника команды`,
		);
	}
}

export function createSession(sb, { companyId, memberId }) {
	const token = `${SESSION_PREFIX}${sb.ids.hex(24)}`;
	const now = sb.clock.now();
	sb.state.sessions.set(token, {
		token,
		companyId,
		memberId: memberId ?? null,
		createdAt: now,
		expiresAt: now + SESSION_TTL_MS,
	});
	return token;
}

/** Registers an API key. Company-wide keys have memberId null. */
export function addApiKey(sb, { key, companyId, memberId = null }) {
	const record = { key, companyId, memberId, createdAt: sb.clock.iso(), revokedAt: null };
	sb.state.apiKeys.set(key, record);
	return record;
}

export function newApiKey(sb, kind) {
	return `sk_sandbox_${kind}_${sb.ids.hex(16)}`;
}

/** Revokes every company-wide key of the company and issues a new one. */
export function rotateCompanyKey(sb, company) {
	for (const record of sb.state.apiKeys.values()) {
		if (record.companyId === company.id && !record.memberId && !record.revokedAt) {
			record.revokedAt = sb.clock.iso();
		}
	}
	const key = newApiKey(sb, 'company');
	addApiKey(sb, { key, companyId: company.id });
	return key;
}

/** Returns the list of unknown permission names (empty when all are known). */
export function unknownPermissions(list) {
	return list.filter((p) => !PERMISSIONS.includes(p));
}
