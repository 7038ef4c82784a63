// Disputes on completed orders: POST /orders/{id}/disputes, GET /disputes, and resolution
// (used by the control API, standing in for the admin flow and the wallet callback).
import { apiError, validationError } from './errors.mjs';
import { credit, debit } from './ledger.mjs';
import { emitOrderStatus, findOrder, presentOrderSummary } from './orders.mjs';
import { companyListPage, isNonEmptyString, newestFirst, round2 } from './util.mjs';

export const DISPUTE_STATUSES = ['submitted', 'in_review', 'resolved', 'rejected'];
export const DISPUTE_RESOLUTIONS = ['refund', 'partial_refund', 'confirm'];
const OPEN = ['submitted', 'in_review'];

export function presentDispute(sb, d) {
	const order = sb.state.orders.get(d.orderId);
	return {
		id: d.id,
		orderId: d.orderId,
		status: d.status,
		resolution: d.resolution,
		reason: d.reason,
		adminComment: d.adminComment,
		resolvedBy: d.resolvedBy,
		refundAmount: d.refundAmount,
		resolvedAt: d.resolvedAt,
		createdAt: d.createdAt,
		updatedAt: d.updatedAt,
		order: order ? presentOrderSummary(order) : undefined,
	};
}

function openDisputeFor(sb, orderId) {
	for (const d of sb.state.disputes.values())
		if (d.orderId === orderId && OPEN.includes(d.status)) return d;
	return null;
}

/** Returns { dispute, created }: the open dispute if one exists, else a new one. */
export function openDispute(sb, order, reason) {
	const existing = openDisputeFor(sb, order.id);
	if (existing) return { dispute: existing, created: false };
	if (order.status !== 'success' && order.status !== 'failed') {
		throw apiError(422, 'DISPUTE_NOT_ALLOWED', undefined, {
			details: { orderStatus: order.status },
		});
	}
	const now = sb.clock.iso();
	const dispute = {
		id: sb.ids.uuid(),
		companyId: order.companyId,
		orderId: order.id,
		status: 'submitted',
		resolution: null,
		reason,
		adminComment: null,
		resolvedBy: null,
		refundAmount: null,
		resolvedAt: null,
		createdAt: now,
		updatedAt: now,
	};
	sb.state.disputes.set(dispute.id, dispute);
	order.statusBeforeDispute = order.status;
	order.status = 'disputed';
	order.updatedAt = now;
	emitOrderStatus(sb, order);
	return { dispute, created: true };
}

function requireOpen(dispute) {
	if (!OPEN.includes(dispute.status)) {
		throw apiError(409, 'CONFLICT', 'Спор уже закрыт', { details: { status: dispute.status } });
	}
}

/** submitted → in_review (no effect on the order). */
export function reviewDispute(sb, dispute) {
	requireOpen(dispute);
	dispute.status = 'in_review';
	dispute.updatedAt = sb.clock.iso();
	return dispute;
}

/**
 * Resolves an open dispute.
 * refund: order → failed; if the order had been charged, its amount is credited back.
 * partial_refund: order → failed; refundAmount (USDT, 0 < x < amountUsdt) is credited back if charged.
 * confirm: order → success; an order that had not been charged is charged now.
 */
export function resolveDispute(
	sb,
	dispute,
	{ resolution, refundAmount, adminComment = null, resolvedBy = 'sandbox-admin' },
) {
	requireOpen(dispute);
	if (!DISPUTE_RESOLUTIONS.includes(resolution)) {
		throw validationError(`resolution должен быть одним из: ${DISPUTE_RESOLUTIONS.join(', ')}`);
	}
	const order = sb.state.orders.get(dispute.orderId);
	const company = sb.state.companies.get(order.companyId);
	let refunded = null;
	if (resolution === 'partial_refund') {
		if (
			typeof refundAmount !== 'number' ||
			!(refundAmount > 0) ||
			refundAmount >= order.amountUsdt
		) {
			throw validationError(
				`refundAmount должен быть числом больше 0 и меньше ${order.amountUsdt}`,
			);
		}
		refunded = round2(refundAmount);
	} else if (resolution === 'refund') {
		refunded = order.amountUsdt;
	}
	const now = sb.clock.iso();
	if (resolution === 'confirm') {
		if (order.chargedUsdt === 0) {
			debit(sb, company, order.amountUsdt, 'order_debit', order.id);
			order.chargedUsdt = order.amountUsdt;
		}
		order.status = 'success';
		order.failureReason = null;
	} else {
		const back = Math.min(refunded, order.chargedUsdt);
		if (back > 0) {
			credit(sb, company, back, 'order_refund', order.id);
			order.chargedUsdt = round2(order.chargedUsdt - back);
		}
		order.status = 'failed';
		order.failureReason = resolution === 'refund' ? 'dispute_refund' : 'dispute_partial_refund';
	}
	order.completedAt = order.completedAt ?? now;
	order.updatedAt = now;
	Object.assign(dispute, {
		status: 'resolved',
		resolution,
		refundAmount: refunded,
		adminComment,
		resolvedBy,
		resolvedAt: now,
		updatedAt: now,
	});
	emitOrderStatus(sb, order);
	return dispute;
}

/** Rejected: the dispute is closed without resolution and the order returns to its prior status. */
export function rejectDispute(sb, dispute, { adminComment = null } = {}) {
	requireOpen(dispute);
	const order = sb.state.orders.get(dispute.orderId);
	const now = sb.clock.iso();
	order.status = order.statusBeforeDispute ?? 'success';
	order.updatedAt = now;
	Object.assign(dispute, {
		status: 'rejected',
		adminComment,
		resolvedBy: 'sandbox-admin',
		resolvedAt: now,
		updatedAt: now,
	});
	emitOrderStatus(sb, order);
	return dispute;
}

export function registerDisputeRoutes(router) {
	router.post('/orders/:id/disputes', { permission: 'disputes.create' }, (ctx) => {
		const order = findOrder(ctx.sb, ctx.company, ctx.params.id);
		if (!isNonEmptyString(ctx.body.reason))
			throw validationError('reason должен быть непустой строкой');
		const reason = ctx.body.reason.trim();
		// Generated mode may draw a service that stores the reason normalised (lib/generated.mjs).
		const stored = ctx.sb.generated ? ctx.sb.generated.disputeReason(reason) : reason;
		const { dispute, created } = openDispute(ctx.sb, order, stored);
		return { status: created ? 201 : 200, body: presentDispute(ctx.sb, dispute) };
	});

	router.get('/disputes', { permission: 'disputes.read' }, (ctx) => {
		// Newest first whatever the profile's listOrder: the dispute list does not follow it.
		const { page, total } = companyListPage(ctx, newestFirst(ctx.sb.state.disputes.values()), {
			statuses: DISPUTE_STATUSES,
			fields: ['orderId'],
		});
		return { body: { disputes: page.map((d) => presentDispute(ctx.sb, d)), total } };
	});

	router.get('/disputes/:id', { permission: 'disputes.read' }, (ctx) => {
		const dispute = ctx.sb.state.disputes.get(ctx.params.id);
		if (!dispute || dispute.companyId !== ctx.company.id) throw apiError(404, 'DISPUTE_NOT_FOUND');
		return { body: presentDispute(ctx.sb, dispute) };
	});
}
