// Company auth and profile: login, profile read/update, key regeneration, webhook secret.
import {
	authenticate,
	extractCredential,
	createSession,
	requirePermission,
	rotateCompanyKey,
} from './auth.mjs';
import { apiError, validationError } from './errors.mjs';
import { hashPassword } from './team.mjs';
import { maskSecret } from './util.mjs';

const SECRET_RE = /^whsec_[0-9a-f]{48}$/;
const PROFILE_FIELDS = ['name', 'webhookUrl', 'webhookSecret', 'cardsTestMode'];

/** The profile as the API shows it; `webhookSecret` masked unless the profile says full. */
export function presentProfile(company, { fullSecret = false } = {}) {
	return {
		id: company.id,
		name: company.name,
		email: company.email,
		webhookUrl: company.webhookUrl,
		webhookSecret: fullSecret ? company.webhookSecret : maskSecret(company.webhookSecret),
		cardsTestMode: company.cardsTestMode,
		createdAt: company.createdAt,
	};
}

export function newWebhookSecret(sb) {
	return `whsec_${sb.ids.hex(24)}`;
}

const shown = (ctx, company) => {
	const profile = presentProfile(company, { fullSecret: ctx.sb.profile.profileSecret === 'full' });
	// Profile choice profileCompanyId: the company's ID as `id` (unset), as `companyId`, or none.
	const idField = ctx.sb.profile.profileCompanyId ?? 'id';
	if (idField === 'id') return profile;
	const { id, ...rest } = profile;
	return idField === 'companyId' ? { companyId: id, ...rest } : rest;
};

function isHttpUrl(value) {
	try {
		const u = new URL(value);
		return u.protocol === 'http:' || u.protocol === 'https:';
	} catch {
		return false;
	}
}

export function registerCompanyRoutes(router) {
	router.post('/auth/company/login', { auth: 'public' }, (ctx) => {
		// Profile staleKeyLogin 'reject': a key sent along must be valid (auth runs before login).
		const sentKey = extractCredential(ctx.req, ctx.query);
		if (sentKey && ctx.sb.profile.staleKeyLogin === 'reject') authenticate(ctx.sb, sentKey);
		const { email, password } = ctx.body;
		if (typeof email !== 'string' || typeof password !== 'string') {
			throw validationError(['email должен быть строкой', 'password должен быть строкой']);
		}
		const company = [...ctx.sb.state.companies.values()].find(
			(c) => c.email === email.toLowerCase() && c.passwordHash === hashPassword(password),
		);
		if (!company) throw apiError(401, 'INVALID_CREDENTIALS');
		if (!company.active) throw apiError(401, 'COMPANY_INACTIVE');
		const apiKey = rotateCompanyKey(ctx.sb, company);
		const token = createSession(ctx.sb, { companyId: company.id, memberId: null });
		return { body: { apiKey, token, company: shown(ctx, company) } };
	});

	router.get('/auth/company/profile', {}, (ctx) => ({ body: shown(ctx, ctx.company) }));

	router.patch('/auth/company/profile', {}, (ctx) => {
		const { body, company, principal } = ctx;
		const unknown = Object.keys(body).filter((k) => !PROFILE_FIELDS.includes(k));
		const problems = unknown.map((k) => `поле ${k} не поддерживается`);
		if ('webhookUrl' in body && body.webhookUrl !== null && !isHttpUrl(body.webhookUrl)) {
			problems.push('webhookUrl должен быть URL с протоколом http или https');
		}
		if (
			'webhookSecret' in body &&
			body.webhookSecret !== null &&
			!SECRET_RE.test(body.webhookSecret)
		) {
			problems.push('webhookSecret должен иметь вид whsec_ и 48 шестнадцатеричных символов');
		}
		if ('name' in body && (typeof body.name !== 'string' || !body.name.trim()))
			problems.push('name должен быть непустой строкой');
		if ('cardsTestMode' in body && typeof body.cardsTestMode !== 'boolean')
			problems.push('cardsTestMode должен быть boolean');
		if (problems.length) throw validationError(problems);
		if ('webhookUrl' in body || 'webhookSecret' in body)
			requirePermission(principal, 'webhook.manage');
		if ('name' in body || 'cardsTestMode' in body) requirePermission(principal, 'company.manage');
		if ('webhookUrl' in body) company.webhookUrl = body.webhookUrl;
		if ('webhookSecret' in body) company.webhookSecret = body.webhookSecret;
		if ('name' in body) company.name = body.name.trim();
		if ('cardsTestMode' in body) company.cardsTestMode = body.cardsTestMode;
		return { body: shown(ctx, company) };
	});

	router.post('/auth/company/regenerate-key', { permission: 'company.manage' }, (ctx) => ({
		body: { apiKey: rotateCompanyKey(ctx.sb, ctx.company) },
	}));

	router.post('/auth/company/webhook-secret/rotate', { permission: 'webhook.manage' }, (ctx) => {
		ctx.company.webhookSecret = newWebhookSecret(ctx.sb);
		const { recordEnvelope, valueAnswer } = ctx.sb.profile;
		// Profile choices `valueAnswer` (the secret as a bare JSON text) and `recordEnvelope`.
		if (valueAnswer === 'value') return { status: 201, body: ctx.company.webhookSecret };
		const record = { webhookSecret: ctx.company.webhookSecret };
		return { status: 201, body: recordEnvelope === 'data' ? { data: record } : record };
	});
}
