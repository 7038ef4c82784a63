// The control API under /__control/: no auth, for tests, benchmarks and the demo.
// It plays the parts of the outside world: the clock, the chain, traders, admins, the card bridge.
import { PERMISSIONS, ROLES, ROLE_DEFAULT_PERMISSIONS, unknownPermissions } from './auth.mjs';
import { fulfilRequest, presentCard, presentCardRequest, setCardStatus } from './cards.mjs';
import { presentProfile } from './company.mjs';
import { CHOICES, PROFILES, resolveProfile } from './profiles.mjs';
import { presentDispute, rejectDispute, resolveDispute, reviewDispute } from './disputes.mjs';
import { apiError, validationError } from './errors.mjs';
import { LOST_FORMS } from './generated.mjs';
import { balanceView } from './ledger.mjs';
import { presentOrder, presentQuote, setOrderStatus } from './orders.mjs';
import {
	bulkPayouts,
	payoutDispute,
	presentPayout,
	rechargePayout,
	setPayoutStatus,
} from './payouts.mjs';
import { NO_FAULTS, SANDBOX_COMPANY, SANDBOX_KEYS } from './seed.mjs';
import { addMember, presentInvite, presentMember } from './team.mjs';
import { isPlainObject } from './util.mjs';
import {
	findDeposit,
	presentCompanyDeposit,
	presentUserDeposit,
	presentUserWallet,
	setDepositStatus,
	simulateDeposit,
	validateDepositInput,
} from './wallets.mjs';
import { presentDelivery, signBody } from './webhooks.mjs';

const control = { auth: 'public' };

function companyFor(sb, body) {
	const id = body?.companyId ?? SANDBOX_COMPANY.id;
	const company = sb.state.companies.get(id);
	if (!company) throw apiError(404, 'COMPANY_NOT_FOUND');
	return company;
}

function byId(map, id, code) {
	const item = map.get(id);
	if (!item) throw apiError(404, code);
	return item;
}

function findDelivery(sb, id) {
	const delivery = sb.webhooks.find(id);
	if (!delivery) throw apiError(404, 'WEBHOOK_DELIVERY_NOT_FOUND');
	return delivery;
}

function snapshot(sb) {
	const s = sb.state;
	return {
		now: sb.clock.iso(),
		clockOffsetMs: sb.clock.offsetMs,
		keys: SANDBOX_KEYS,
		companies: [...s.companies.values()].map((c) => ({
			...presentProfile(c),
			webhookSecret: c.webhookSecret,
			active: c.active,
			cardsEnabled: c.cardsEnabled,
			wallet: c.wallet,
			balance: balanceView(c),
			companyKeys: [...s.apiKeys.values()]
				.filter((k) => k.companyId === c.id && !k.memberId)
				.map((k) => ({ key: k.key, revokedAt: k.revokedAt })),
		})),
		members: [...s.members.values()].map((m) => ({
			...presentMember(m),
			companyId: m.companyId,
			apiKey: m.apiKey,
			removedAt: m.removedAt,
		})),
		invites: [...s.invites.values()].map((i) => ({
			...presentInvite(sb, i),
			companyId: i.companyId,
		})),
		quotes: [...s.quotes.values()].map((q) => ({ ...presentQuote(q), orderId: q.orderId })),
		orders: [...s.orders.values()].map((o) => ({
			...presentOrder(o),
			companyId: o.companyId,
			heldUsdt: o.heldUsdt,
		})),
		disputes: [...s.disputes.values()].map((d) => presentDispute(sb, d)),
		cardStock: s.cardStock,
		cards: [...s.cards.values()].map((c) => ({
			...presentCard(c),
			balanceUsd: c.balanceUsd,
			reserveUsdt: c.reserveUsdt,
		})),
		cardRequests: [...s.cardRequests.values()].map((r) => ({
			...presentCardRequest(r),
			heldUsdt: r.heldUsdt,
		})),
		payouts: [...s.payouts.values()].map(presentPayout),
		userWallets: [...s.userWallets.values()].map(presentUserWallet),
		counts: {
			companyDeposits: s.deposits.length,
			userDeposits: s.userDeposits.length,
			balanceHistory: s.balanceHistory.length,
			events: s.events.length,
			deliveries: s.deliveries.length,
			idempotentResponses: s.idempotency.size,
		},
		sensitiveReveals: s.sensitiveReveals,
		faults: s.faults,
		profile: sb.profile,
		generated: sb.generated ? { seed: sb.generated.seed, seq: sb.generated.seq } : null,
		permissions: PERMISSIONS,
	};
}

export function registerControlRoutes(router) {
	router.get('/__control/health', control, () => ({ body: { ok: true } }));
	router.get('/__control/state', control, (ctx) => ({ body: snapshot(ctx.sb) }));

	router.get('/__control/profile', control, (ctx) => ({
		body: { profile: ctx.sb.profile, profiles: PROFILES, choices: CHOICES },
	}));
	router.post('/__control/profile', control, (ctx) => {
		ctx.sb.profile = resolveProfile(ctx.body.profile ?? ctx.body);
		return { body: { profile: ctx.sb.profile } };
	});

	router.post('/__control/reset', control, (ctx) => {
		ctx.sb.reset();
		return { body: { ok: true, keys: SANDBOX_KEYS } };
	});

	router.post('/__control/clock/advance', control, (ctx) => {
		const { ms } = ctx.body;
		if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0)
			throw validationError('ms должен быть неотрицательным числом');
		ctx.sb.clock.advance(ms);
		ctx.sb.scheduler.runDue();
		return { body: { now: ctx.sb.clock.iso(), offsetMs: ctx.sb.clock.offsetMs } };
	});

	// ---- orders and disputes
	router.post('/__control/orders/:id/status', control, (ctx) => {
		const order = byId(ctx.sb.state.orders, ctx.params.id, 'ORDER_NOT_FOUND');
		setOrderStatus(ctx.sb, order, ctx.body.status, { failureReason: ctx.body.failureReason });
		return { body: presentOrder(order) };
	});
	router.post('/__control/disputes/:id/resolve', control, (ctx) => {
		const dispute = byId(ctx.sb.state.disputes, ctx.params.id, 'DISPUTE_NOT_FOUND');
		resolveDispute(ctx.sb, dispute, ctx.body);
		return { body: presentDispute(ctx.sb, dispute) };
	});
	router.post('/__control/disputes/:id/review', control, (ctx) => {
		const dispute = byId(ctx.sb.state.disputes, ctx.params.id, 'DISPUTE_NOT_FOUND');
		return { body: presentDispute(ctx.sb, reviewDispute(ctx.sb, dispute)) };
	});
	router.post('/__control/disputes/:id/reject', control, (ctx) => {
		const dispute = byId(ctx.sb.state.disputes, ctx.params.id, 'DISPUTE_NOT_FOUND');
		return { body: presentDispute(ctx.sb, rejectDispute(ctx.sb, dispute, ctx.body)) };
	});

	// ---- deposits
	router.post('/__control/deposits', control, (ctx) => {
		validateDepositInput(ctx.body);
		const company = companyFor(ctx.sb, ctx.body);
		const deposit = simulateDeposit(ctx.sb, company, { ...ctx.body, aml: ctx.body.aml ?? 'pass' });
		const shown = ctx.body.externalId
			? presentUserDeposit(deposit)
			: presentCompanyDeposit(deposit);
		return { status: 201, body: { deposit: shown, balance: balanceView(company) } };
	});

	router.post('/__control/deposits/:id/status', control, (ctx) => {
		const deposit = findDeposit(ctx.sb, ctx.params.id);
		if (!deposit) throw apiError(404, 'DEPOSIT_NOT_FOUND');
		setDepositStatus(ctx.sb, deposit, ctx.body.status);
		const company = ctx.sb.state.companies.get(deposit.companyId);
		const shown = deposit.externalId ? presentUserDeposit(deposit) : presentCompanyDeposit(deposit);
		return { body: { deposit: shown, balance: balanceView(company) } };
	});

	// ---- payouts
	router.post('/__control/payouts/bulk', control, (ctx) => {
		const { count, spanMs } = ctx.body;
		const problems = [];
		if (!Number.isInteger(count) || count < 1 || count > 100_000)
			problems.push('count должен быть целым числом от 1 до 100000');
		if (
			spanMs !== undefined &&
			(!Number.isInteger(spanMs) || spanMs < 0 || spanMs > 400 * 86_400_000)
		)
			problems.push('spanMs должен быть целым числом миллисекунд от 0 до 400 дней');
		if (problems.length) throw validationError(problems);
		const company = companyFor(ctx.sb, ctx.body);
		bulkPayouts(ctx.sb, company, count, spanMs === undefined ? {} : { spanMs });
		const total = [...ctx.sb.state.payouts.values()].filter(
			(p) => p.companyId === company.id,
		).length;
		return { status: 201, body: { added: count, total } };
	});
	router.post('/__control/payouts/:id/status', control, (ctx) => {
		const payout = byId(ctx.sb.state.payouts, ctx.params.id, 'PAYOUT_NOT_FOUND');
		return { body: presentPayout(setPayoutStatus(ctx.sb, payout, ctx.body)) };
	});
	router.post('/__control/payouts/:id/dispute', control, (ctx) => {
		const payout = byId(ctx.sb.state.payouts, ctx.params.id, 'PAYOUT_NOT_FOUND');
		return { body: presentPayout(payoutDispute(ctx.sb, payout, ctx.body)) };
	});
	router.post('/__control/payouts/:id/recharge', control, (ctx) => {
		const payout = byId(ctx.sb.state.payouts, ctx.params.id, 'PAYOUT_NOT_FOUND');
		return { body: presentPayout(rechargePayout(ctx.sb, payout)) };
	});

	// ---- cards
	router.post('/__control/cards/stock', control, (ctx) => {
		const { count } = ctx.body;
		if (!Number.isInteger(count) || count < 0)
			throw validationError('count должен быть неотрицательным целым числом');
		ctx.sb.state.cardStock = count;
		return { body: { cardStock: count } };
	});
	router.post('/__control/card-requests/:id/fulfill', control, (ctx) => {
		const request = byId(ctx.sb.state.cardRequests, ctx.params.id, 'CARD_REQUEST_NOT_FOUND');
		const card = fulfilRequest(ctx.sb, request, { announce: true });
		return {
			body: { status: 'assigned', card: presentCard(card), request: presentCardRequest(request) },
		};
	});
	router.post('/__control/cards/:id/status', control, (ctx) => {
		const card = byId(ctx.sb.state.cards, ctx.params.id, 'CARD_NOT_FOUND');
		return { body: presentCard(setCardStatus(ctx.sb, card, ctx.body.status)) };
	});

	// ---- team and company
	router.post('/__control/keys', control, (ctx) => {
		const { role = 'member', permissions, email } = ctx.body;
		const problems = [];
		if (!ROLES.includes(role)) problems.push(`role должен быть одним из: ${ROLES.join(', ')}`);
		if (permissions !== undefined) {
			if (!Array.isArray(permissions)) problems.push('permissions должен быть массивом строк');
			else if (unknownPermissions(permissions).length)
				problems.push(`неизвестные разрешения: ${unknownPermissions(permissions).join(', ')}`);
		}
		if (problems.length) throw validationError(problems);
		const company = companyFor(ctx.sb, ctx.body);
		const member = addMember(ctx.sb, company, {
			email: email ?? `member-${ctx.sb.ids.hex(4)}@demo-co.example`,
			role,
			permissions: permissions ?? ROLE_DEFAULT_PERMISSIONS[role],
		});
		return { status: 201, body: { apiKey: member.apiKey, member: presentMember(member) } };
	});
	router.post('/__control/company', control, (ctx) => {
		const company = companyFor(ctx.sb, ctx.body);
		for (const field of ['active', 'cardsEnabled', 'cardsTestMode']) {
			if (field in ctx.body) {
				if (typeof ctx.body[field] !== 'boolean')
					throw validationError(`${field} должен быть boolean`);
				company[field] = ctx.body[field];
			}
		}
		return {
			body: {
				...presentProfile(company),
				active: company.active,
				cardsEnabled: company.cardsEnabled,
			},
		};
	});

	// ---- webhooks
	router.post('/__control/webhook-url', control, (ctx) => {
		const company = companyFor(ctx.sb, ctx.body);
		const { url } = ctx.body;
		if (url !== null && (typeof url !== 'string' || !/^https?:\/\//.test(url)))
			throw validationError('url должен быть http(s)-адресом или null');
		company.webhookUrl = url;
		if ('secret' in ctx.body) company.webhookSecret = ctx.body.secret;
		return { body: { webhookUrl: company.webhookUrl, webhookSecret: company.webhookSecret } };
	});
	router.get('/__control/deliveries', control, (ctx) => {
		const event = ctx.query.get('event');
		const state = ctx.query.get('state');
		const list = ctx.sb.webhooks
			.list()
			.reverse()
			.filter((d) => (!event || d.event === event) && (!state || d.state === state));
		return { body: { deliveries: list.map(presentDelivery), total: list.length } };
	});
	router.get('/__control/deliveries/:id', control, (ctx) => ({
		body: presentDelivery(findDelivery(ctx.sb, ctx.params.id)),
	}));
	router.post('/__control/deliveries/:id/replay', control, async (ctx) => {
		const delivery = findDelivery(ctx.sb, ctx.params.id);
		const attempt = await ctx.sb.webhooks.replay(delivery);
		return { body: { attempt, delivery: presentDelivery(delivery) } };
	});
	router.get('/__control/events', control, (ctx) => {
		const event = ctx.query.get('event');
		const list = ctx.sb.state.events.filter((e) => !event || e.event === event).reverse();
		return {
			body: {
				events: list.map((e) => ({ ...e, payload: JSON.parse(e.body) })),
				total: list.length,
			},
		};
	});
	router.post('/__control/webhooks/send', control, async (ctx) => {
		const { sb, body } = ctx;
		const {
			event,
			payload = {},
			signWith = 'current',
			rawBody,
			deliveryId,
			retry = true,
			wait = false,
		} = body;
		const problems = [];
		if (typeof event !== 'string' || !event) problems.push('event должен быть непустой строкой');
		if (!isPlainObject(payload)) problems.push('payload должен быть объектом');
		if (!['current', 'wrong', 'none'].includes(signWith))
			problems.push('signWith должен быть current, wrong или none');
		if (rawBody !== undefined && typeof rawBody !== 'string')
			problems.push('rawBody должен быть строкой');
		if (problems.length) throw validationError(problems);
		const company = companyFor(sb, body);
		const url = body.url ?? company.webhookUrl;
		if (!url) throw apiError(409, 'WEBHOOK_URL_NOT_CONFIGURED');
		const bytes = rawBody ?? JSON.stringify({ event, ...payload });
		const signature =
			signWith === 'none'
				? null
				: signBody(
						bytes,
						signWith === 'wrong' ? `whsec_${sb.ids.hex(24)}` : (company.webhookSecret ?? ''),
					);
		const delivery = sb.webhooks.enqueue({
			companyId: company.id,
			event,
			url,
			body: bytes,
			signature,
			signedWith: signWith,
			deliveryId,
			retry,
		});
		if (wait) await waitSettled(delivery);
		return { status: 202, body: presentDelivery(delivery) };
	});

	// ---- faults
	router.get('/__control/faults', control, (ctx) => ({ body: ctx.sb.state.faults }));
	router.post('/__control/faults', control, (ctx) => {
		const b = ctx.body;
		const n = (v, name) => {
			if (v === undefined) return 0;
			if (!Number.isInteger(v) || v < 0)
				throw validationError(`${name} должен быть неотрицательным целым числом`);
			return v;
		};
		const status = b.status ?? NO_FAULTS.status;
		if (![429, 500, 502, 503, 504].includes(status))
			throw validationError('status должен быть 429, 500, 502, 503 или 504');
		// Retry-After of a 429 or 503: whole seconds as text ("0" too), or null for none.
		const retryAfter = b.retryAfter === undefined ? NO_FAULTS.retryAfter : b.retryAfter;
		if (retryAfter !== null && !/^\d+$/.test(String(retryAfter)))
			throw validationError('retryAfter должен быть целым числом секунд или null');
		// How a dropped answer is lost: the service's JSON error of `status` (as before), or a
		// closed connection, a gateway's 502/504 page, a 200 HTML page (lib/generated.mjs).
		const dropAs = b.dropAs ?? 'json';
		if (dropAs !== 'json' && !LOST_FORMS.includes(dropAs))
			throw validationError(`dropAs должен быть одним из: json, ${LOST_FORMS.join(', ')}`);
		ctx.sb.state.faults = {
			rejectRequests: n(b.rejectFirstRequests, 'rejectFirstRequests'),
			dropResponses: n(b.dropFirstResponses, 'dropFirstResponses'),
			dropAs,
			status,
			pathPrefix: typeof b.pathPrefix === 'string' ? b.pathPrefix : null,
			latencyMs: n(b.latencyMs, 'latencyMs'),
			retryAfter: retryAfter === null ? null : String(retryAfter),
			ignoreIdempotencyKeys: b.ignoreIdempotencyKeys === true,
		};
		return { body: ctx.sb.state.faults };
	});

	// ---- generated mode (lib/generated.mjs)
	const generatedOn = (ctx) => {
		if (!ctx.sb.generated) {
			throw apiError(409, 'CONFLICT', 'Генерируемый режим не включён (POST /__control/generated)');
		}
		return ctx.sb.generated;
	};
	router.get('/__control/generated', control, (ctx) => {
		if (!ctx.sb.generated) return { body: { seed: null } };
		const since = Number(ctx.query.get('since') ?? 0);
		if (!Number.isInteger(since) || since < 0)
			throw validationError('since должен быть неотрицательным целым числом');
		return { body: ctx.sb.generated.log(since) };
	});
	router.post('/__control/generated', control, async (ctx) => {
		if (!('seed' in ctx.body)) throw validationError('seed обязателен (число, строка или null)');
		const generated = await ctx.sb.setGenerated(ctx.body.seed);
		return {
			body: generated ? { seed: generated.seed, choices: generated.choices } : { seed: null },
		};
	});
	router.post('/__control/generated/pause', control, (ctx) => {
		const generated = generatedOn(ctx);
		for (const name of ['churn', 'faults']) {
			if (ctx.body[name] === undefined) continue;
			if (typeof ctx.body[name] !== 'boolean')
				throw validationError(`${name} должен быть true или false`);
			generated.paused[name] = ctx.body[name];
		}
		return { body: { paused: { ...generated.paused }, seq: generated.seq } };
	});
	router.get('/__control/generated/truth', control, (ctx) => {
		const truth = generatedOn(ctx).truth(
			ctx.query.get('list') ?? '',
			ctx.query.get('companyId') ?? SANDBOX_COMPANY.id,
		);
		if (!truth)
			throw validationError(
				'list должен быть одним из: /payouts, /wallets/deposits, /orders, /cards',
			);
		return { body: truth };
	});
	router.post('/__control/generated/arrive', control, (ctx) => {
		const generated = generatedOn(ctx);
		const count = ctx.body.count ?? 1;
		if (!Number.isInteger(count) || count < 1 || count > 1000)
			throw validationError('count должен быть целым числом от 1 до 1000');
		const ids = generated.arriveNow(ctx.body.list, companyFor(ctx.sb, ctx.body), count);
		if (!ids) throw validationError('list должен быть /payouts или /wallets/deposits');
		return { status: 201, body: { list: ctx.body.list, ids, seq: generated.seq } };
	});
}

async function waitSettled(delivery, limitMs = 30000) {
	const until = Date.now() + limitMs;
	while ((delivery.state === 'pending' || delivery.state === 'delivering') && Date.now() < until) {
		await new Promise((r) => setTimeout(r, 10));
	}
}
