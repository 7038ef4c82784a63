// Payouts in RUB to a card or phone, paid from the USDT balance.
// Lifecycle: waiting_trader → in_progress → success | fail; cancel while waiting_trader;
// disputes (user_won → fail + refund); "recharge" after a refund (back to success, charged again).
import { apiError, validationError } from './errors.mjs';
import { withIdempotency } from './idempotency.mjs';
import { credit, debit } from './ledger.mjs';
import { companyListPage, inListOrder, round2 } from './util.mjs';

export const PAYOUT_RATE_RUB_PER_USDT = 97.5;
export const MIN_PAYOUT_RUB = 100;
export const MAX_PAYOUT_RUB = 300_000;
export const PAYOUT_STATUSES = ['pending', 'waiting_trader', 'in_progress', 'success', 'fail'];
export const FAIL_REASONS = [
	'timeout',
	'no_traders',
	'bank_not_exists',
	'requisites_invalid',
	'trader_declined',
	'dispute_lost',
	'cancelled_by_admin',
	'cancelled_by_merchant',
	'service_unavailable',
	'other',
];
/** Bank directory used to resolve `bankId` to `bank`. */
export const BANKS = Object.freeze({
	sber: 'Сбербанк',
	tbank: 'Т-Банк',
	alfa: 'Альфа-Банк',
	vtb: 'ВТБ',
	ozon: 'Озон Банк',
});

/**
 * A requisite as a service that masks it shows it (profile choice `payoutRequisite`): a card by
 * its first 6 and last 4 digits, a phone by its country and code and its last 2 digits.
 */
export function maskedRequisite(requisite, type) {
	const digits = String(requisite).replace(/\D/g, '');
	if (type === 'card')
		return `${digits.slice(0, 6)}${'*'.repeat(Math.max(0, digits.length - 10))}${digits.slice(-4)}`;
	const line = digits.length === 11 && digits.startsWith('8') ? `7${digits.slice(1)}` : digits;
	return `+${line.slice(0, line.length - 10)} ${line.slice(-10, -7)} ***-**-${line.slice(-2)}`;
}

/** A payout as the profile shows it: its requisite masked or not, its amounts in a listing or not. */
export function shownPayout(sb, p, { listing = false } = {}) {
	const out = presentPayout(p);
	if ((sb.profile.payoutRequisite ?? 'full') === 'masked') {
		out.requisite = maskedRequisite(p.requisite, p.requisiteType);
	}
	if ((sb.profile.repeatTransitions ?? 'documented') === 'sharedTimes') {
		out.updatedAt = p.updatedAt ?? p.createdAt;
	}
	if (listing && (sb.profile.payoutListing ?? 'full') === 'noAmounts') {
		delete out.amountRub;
		delete out.chargedUsdt;
		delete out.rate;
	}
	return out;
}

export function presentPayout(p) {
	return {
		id: p.id,
		externalId: p.externalId,
		status: p.status,
		amountRub: p.amountRub,
		chargedUsdt: p.chargedUsdt,
		rate: p.rate,
		requisiteType: p.requisiteType,
		requisite: p.requisite,
		bankId: p.bankId,
		bank: p.bank,
		recipientFirstName: p.recipientFirstName,
		recipientLastName: p.recipientLastName,
		failReason: p.failReason,
		comment: p.comment,
		refundedAt: p.refundedAt,
		dispute: p.dispute ? { ...p.dispute } : null,
		takenAt: p.takenAt,
		completedAt: p.completedAt,
		createdAt: p.createdAt,
	};
}

function eventPayload(p) {
	return {
		payoutId: p.id,
		externalId: p.externalId,
		status: p.status,
		amountRub: p.amountRub,
		chargedUsdt: p.chargedUsdt,
		rate: p.rate,
		requisiteType: p.requisiteType,
		requisite: p.requisite,
		bankId: p.bankId,
		bank: p.bank,
		failReason: p.failReason,
		comment: p.comment,
		refunded: p.refundedAt !== null,
		disputeStatus: p.dispute?.status ?? null,
		disputeResolution: p.dispute?.resolution ?? null,
		completedAt: p.completedAt,
		createdAt: p.createdAt,
		updatedAt: p.updatedAt,
	};
}

function touchAndEmit(sb, payout, event = 'payout.status_changed', { created = false } = {}) {
	// A new payout's event is stamped with its creation time (createdAt = updatedAt).
	payout.updatedAt = created ? payout.createdAt : sb.clock.iso();
	const payload = eventPayload(payout);
	// Profile choice `repeatTransitions: sharedTimes`: the events also carry the record's refundedAt.
	if ((sb.profile.repeatTransitions ?? 'documented') === 'sharedTimes') {
		payload.refundedAt = payout.refundedAt;
	}
	sb.webhooks.emit(sb.state.companies.get(payout.companyId), event, payload);
}

function optionalString(body, name, problems, max = 128) {
	const v = body[name];
	if (v === undefined || v === null) return null;
	if (typeof v !== 'string' || v.length > max) {
		problems.push(`${name} должен быть строкой до ${max} символов`);
		return null;
	}
	return v;
}

/** Validates a create-payout body; returns normalised input or throws. */
export function readPayoutInput(body) {
	const problems = [];
	if (typeof body.amountRub !== 'number' || !Number.isFinite(body.amountRub))
		problems.push('amountRub должен быть числом');
	if (!['card', 'phone'].includes(body.requisiteType))
		problems.push('requisiteType должен быть card или phone');
	if (typeof body.requisite !== 'string' || !body.requisite.trim())
		problems.push('requisite должен быть непустой строкой');
	const input = {
		externalId: optionalString(body, 'externalId', problems),
		bankId: optionalString(body, 'bankId', problems, 32),
		recipientFirstName: optionalString(body, 'recipientFirstName', problems),
		recipientLastName: optionalString(body, 'recipientLastName', problems),
	};
	if (problems.length) throw validationError(problems);
	const amountRub = round2(body.amountRub);
	if (amountRub < MIN_PAYOUT_RUB) {
		throw apiError(422, 'AMOUNT_BELOW_MIN', `Минимальная сумма выплаты — ${MIN_PAYOUT_RUB} ₽`, {
			details: { minAmountRub: MIN_PAYOUT_RUB },
		});
	}
	if (amountRub > MAX_PAYOUT_RUB) {
		throw apiError(422, 'AMOUNT_ABOVE_MAX', `Максимальная сумма выплаты — ${MAX_PAYOUT_RUB} ₽`, {
			details: { maxAmountRub: MAX_PAYOUT_RUB },
		});
	}
	const requisite = body.requisite.replace(/[\s-]/g, '');
	const valid =
		body.requisiteType === 'card' ? /^\d{16,19}$/.test(requisite) : /^\+?7\d{10}$/.test(requisite);
	if (!valid) {
		throw apiError(422, 'PAYOUT_REQUISITE_INVALID', undefined, {
			details: { requisiteType: body.requisiteType },
		});
	}
	if (body.requisiteType === 'phone' && !input.bankId) throw apiError(422, 'PAYOUT_BANK_REQUIRED');
	if (input.bankId && !BANKS[input.bankId]) {
		throw apiError(422, 'PAYOUT_BANK_UNKNOWN', undefined, {
			details: { bankId: input.bankId, known: Object.keys(BANKS) },
		});
	}
	return { ...input, amountRub, requisiteType: body.requisiteType, requisite };
}

export function createPayout(sb, company, input) {
	const chargedUsdt = round2(input.amountRub / PAYOUT_RATE_RUB_PER_USDT);
	const now = sb.clock.iso();
	const payout = {
		id: `po_${sb.ids.hex(8)}`,
		companyId: company.id,
		externalId: input.externalId,
		status: 'waiting_trader',
		amountRub: input.amountRub,
		chargedUsdt,
		rate: PAYOUT_RATE_RUB_PER_USDT,
		requisiteType: input.requisiteType,
		requisite: input.requisite,
		bankId: input.bankId,
		bank: input.bankId ? BANKS[input.bankId] : null,
		recipientFirstName: input.recipientFirstName,
		recipientLastName: input.recipientLastName,
		failReason: null,
		comment: null,
		refundedAt: null,
		dispute: null,
		takenAt: null,
		completedAt: null,
		createdAt: now,
		updatedAt: now,
	};
	debit(sb, company, chargedUsdt, 'payout_charge', payout.id);
	sb.state.payouts.set(payout.id, payout);
	touchAndEmit(sb, payout, undefined, { created: true });
	return payout;
}

function refund(sb, payout) {
	if (payout.refundedAt) return;
	credit(
		sb,
		sb.state.companies.get(payout.companyId),
		payout.chargedUsdt,
		'payout_refund',
		payout.id,
	);
	payout.refundedAt = sb.clock.iso();
}

function conflict(payout, to) {
	return apiError(409, 'CONFLICT', `Переход выплаты из ${payout.status} в ${to} невозможен`, {
		details: { from: payout.status, to },
	});
}

export function cancelPayout(sb, payout) {
	if (payout.status !== 'waiting_trader') {
		throw apiError(409, 'PAYOUT_NOT_CANCELABLE', undefined, { details: { status: payout.status } });
	}
	payout.status = 'fail';
	payout.failReason = 'cancelled_by_merchant';
	refund(sb, payout);
	touchAndEmit(sb, payout);
	return payout;
}

/**
 * Control transitions:
 * waiting_trader → in_progress; waiting_trader|in_progress → success;
 * waiting_trader|in_progress|success → fail (refund defaults to true);
 * fail without refund + { status: 'fail', refund: true } → refund only.
 */
export function setPayoutStatus(
	sb,
	payout,
	{ status, failReason, refund: doRefund = true, comment },
) {
	if (!['in_progress', 'success', 'fail'].includes(status)) {
		throw validationError('status должен быть одним из: in_progress, success, fail');
	}
	if (failReason !== undefined && !FAIL_REASONS.includes(failReason)) {
		throw validationError(`failReason должен быть одним из: ${FAIL_REASONS.join(', ')}`);
	}
	const now = sb.clock.iso();
	if (status === 'in_progress') {
		if (payout.status !== 'waiting_trader') throw conflict(payout, status);
		payout.takenAt = now;
	} else if (status === 'success') {
		if (!['waiting_trader', 'in_progress'].includes(payout.status)) throw conflict(payout, status);
		payout.takenAt = payout.takenAt ?? now;
		payout.completedAt = now;
	} else if (payout.status === 'fail') {
		if (payout.refundedAt || !doRefund) throw conflict(payout, status);
	} else {
		if (!['waiting_trader', 'in_progress', 'success'].includes(payout.status))
			throw conflict(payout, status);
		payout.failReason = failReason ?? 'other';
		payout.completedAt = null;
	}
	if (comment !== undefined) payout.comment = comment;
	payout.status = status;
	if (status === 'fail' && doRefund) refund(sb, payout);
	touchAndEmit(sb, payout);
	return payout;
}

export function payoutDispute(sb, payout, { action, resolution, comment = null }) {
	const now = sb.clock.iso();
	if (action === 'open') {
		if (!['success', 'fail'].includes(payout.status) || payout.dispute?.status === 'open') {
			throw apiError(409, 'PAYOUT_DISPUTE_NOT_ALLOWED', undefined, {
				details: { status: payout.status },
			});
		}
		payout.dispute = {
			id: `pdsp_${sb.ids.hex(6)}`,
			status: 'open',
			resolution: null,
			comment,
			openedAt: now,
			resolvedAt: null,
		};
	} else if (action === 'resolve') {
		if (payout.dispute?.status !== 'open') {
			throw apiError(409, 'CONFLICT', 'По выплате нет открытого спора');
		}
		if (!['user_won', 'trader_won'].includes(resolution)) {
			throw validationError('resolution должен быть user_won или trader_won');
		}
		Object.assign(payout.dispute, {
			status: 'resolved',
			resolution,
			resolvedAt: now,
			comment: comment ?? payout.dispute.comment,
		});
		if (resolution === 'user_won') {
			payout.status = 'fail';
			payout.failReason = 'dispute_lost';
			payout.completedAt = null;
			refund(sb, payout);
		}
	} else {
		throw validationError('action должен быть open или resolve');
	}
	touchAndEmit(sb, payout);
	return payout;
}

/** After a refund the payout returns to success and is charged again (payout.recharged). */
export function rechargePayout(sb, payout) {
	if (payout.status !== 'fail' || !payout.refundedAt) {
		throw apiError(409, 'CONFLICT', 'Повторное списание возможно только для возвращённой выплаты', {
			details: { status: payout.status, refunded: payout.refundedAt !== null },
		});
	}
	debit(
		sb,
		sb.state.companies.get(payout.companyId),
		payout.chargedUsdt,
		'payout_recharge',
		payout.id,
	);
	payout.status = 'success';
	// Not shown whether the service clears refundedAt here: the profile plays both answers.
	if (!sb.profile.rechargeKeepsRefundedAt) payout.refundedAt = null;
	payout.failReason = null;
	payout.completedAt = sb.clock.iso();
	touchAndEmit(sb, payout, 'payout.status_changed');
	touchAndEmit(sb, payout, 'payout.recharged');
	return payout;
}

/**
 * A payout record already in `status` since `at`, to a test card: what bulk history and generated
 * mode's arrivals put straight into the store, with no money moved and no webhook. A fail is a
 * refunded trader_declined. The caller stores it.
 */
export function placedPayout(sb, company, { externalId, amountRub, status, at }) {
	return {
		id: `po_${sb.ids.hex(8)}`,
		companyId: company.id,
		externalId,
		status,
		amountRub,
		chargedUsdt: round2(amountRub / PAYOUT_RATE_RUB_PER_USDT),
		rate: PAYOUT_RATE_RUB_PER_USDT,
		requisiteType: 'card',
		requisite: '4111111111111111',
		bankId: null,
		bank: null,
		recipientFirstName: null,
		recipientLastName: null,
		failReason: status === 'fail' ? 'trader_declined' : null,
		comment: null,
		refundedAt: status === 'fail' ? at : null,
		dispute: null,
		takenAt: status === 'success' || status === 'in_progress' ? at : null,
		completedAt: status === 'success' ? at : null,
		createdAt: at,
		updatedAt: at,
	};
}

/**
 * Adds `count` payouts at once as past history (for benchmarks and list tests): no money moves
 * and no webhook is sent. Their `createdAt` are spread evenly over the last `spanMs` (default
 * one second per payout) up to now, and the payouts are re-ordered by `createdAt`, so every list
 * stays newest first even when the span reaches back past older payouts. Every tenth is a
 * refunded fail, every tenth waiting_trader, every tenth in_progress, the rest success.
 */
export function bulkPayouts(sb, company, count, { spanMs = count * 1000 } = {}) {
	const now = sb.clock.now();
	const start = now - spanMs;
	const step = count > 1 ? spanMs / (count - 1) : 0;
	for (let i = 0; i < count; i++) {
		const at = new Date(Math.floor(count > 1 ? start + i * step : now)).toISOString();
		const amountRub = 1000 + (i % 50) * 100;
		const kind = i % 10;
		const status =
			kind === 0 ? 'fail' : kind === 1 ? 'waiting_trader' : kind === 2 ? 'in_progress' : 'success';
		const payout = placedPayout(sb, company, {
			externalId: `bulk-${i + 1}`,
			amountRub,
			status,
			at,
		});
		sb.state.payouts.set(payout.id, payout);
	}
	// Lists read the map in insertion order (reversed): keep it in creation order (stable sort).
	const ordered = [...sb.state.payouts.entries()].sort(
		([, x], [, y]) => Date.parse(x.createdAt) - Date.parse(y.createdAt),
	);
	sb.state.payouts = new Map(ordered);
	return count;
}

export function findPayout(sb, company, id) {
	const payout = sb.state.payouts.get(id);
	if (!payout || payout.companyId !== company.id) throw apiError(404, 'PAYOUT_NOT_FOUND');
	return payout;
}

/** How a carried-out write answers: the generated seed's choice, else the profile's. */
function writeAnswerOf(ctx) {
	return ctx.sb.generated?.money.writeAnswer() ?? ctx.sb.profile.writeAnswer ?? 'record';
}

export function registerPayoutRoutes(router) {
	router.post('/payouts', { permission: 'payouts.create' }, (ctx) =>
		withIdempotency(ctx, 'payouts.create', { required: true }, () => {
			const input = readPayoutInput(ctx.body);
			if (ctx.sb.generated?.money.coolingDown(ctx.company, input.requisite)) {
				throw apiError(422, 'PAYOUT_REQUISITE_COOLDOWN');
			}
			const refused = ctx.sb.generated?.money.refusesCreate(ctx.company, input);
			if (refused) throw refused;
			// Generated mode (outside r14-money): answered with the payout it holds for the External ID.
			const holds = ctx.sb.generated?.money.holds(ctx.company, input);
			if (holds) return { status: 200, body: shownPayout(ctx.sb, holds) };
			const made = createPayout(ctx.sb, ctx.company, input);
			// Generated mode (outside r7-money-a): a gateway's replay of a lost POST makes another.
			if (ctx.sb.generated?.money.takeReplay()) createPayout(ctx.sb, ctx.company, input);
			if (ctx.sb.generated?.money.acceptsOnly()) {
				return { status: 202, body: { status: 'accepted', message: 'Заявка принята' } };
			}
			// writeAnswer `failed` (outside r10-money F1): the payout is made, charged, and failed at
			// once (requisites_invalid), its money not returned yet (no refundedAt).
			if (writeAnswerOf(ctx) === 'failed') {
				setPayoutStatus(ctx.sb, made, {
					status: 'fail',
					failReason: 'requisites_invalid',
					refund: false,
				});
			}
			return { status: 201, body: shownPayout(ctx.sb, made) };
		}),
	);

	router.get('/payouts', { permission: 'payouts.read' }, (ctx) => {
		const { page, total } = companyListPage(ctx, inListOrder(ctx, ctx.sb.state.payouts.values()), {
			statuses: PAYOUT_STATUSES,
			fields: ['externalId'],
		});
		return { body: { payouts: page.map((p) => shownPayout(ctx.sb, p, { listing: true })), total } };
	});

	router.get('/payouts/:id', { permission: 'payouts.read' }, (ctx) => ({
		body: shownPayout(ctx.sb, findPayout(ctx.sb, ctx.company, ctx.params.id)),
	}));

	router.post('/payouts/:id/cancel', { permission: 'payouts.cancel' }, (ctx) => {
		const payout = findPayout(ctx.sb, ctx.company, ctx.params.id);
		// writeAnswer `failed` (outside r10-money F1): the executor declined the payout just before
		// the cancel (fail, trader_declined, refunded), and the cancel answers 200 with it: the
		// cancel did not act.
		if (writeAnswerOf(ctx) === 'failed' && payout.status === 'waiting_trader') {
			setPayoutStatus(ctx.sb, payout, { status: 'fail', failReason: 'trader_declined' });
			return { body: shownPayout(ctx.sb, payout) };
		}
		return { body: shownPayout(ctx.sb, cancelPayout(ctx.sb, payout)) };
	});
}
