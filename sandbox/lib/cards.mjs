// Cards: requests (stock or pending), card reads, live balance, sensitive data, recharge.
import { apiError, validationError } from './errors.mjs';
import { withIdempotency } from './idempotency.mjs';
import { credit, debit, ensureAvailable, hold, release } from './ledger.mjs';
import { companyListPage, inListOrder, round2 } from './util.mjs';

export const CARD_OPENING_FEE_USDT = 5;
export const CARD_MIN_INITIAL_DEPOSIT_USDT = 20;
export const CARD_BALANCE_CACHE_MS = 60_000;
export const RECHARGE = Object.freeze({
	processorFeeBps: 150,
	ourFeeBps: 100,
	minUsd: 10,
	maxUsd: 10_000,
});
export const CARD_STATUSES = ['requested', 'assigned', 'closing', 'closed', 'retired', 'failed'];
const EXTERNAL_ID_RE = /^[\x21-\x7e]{1,64}$/;

export function presentCard(c) {
	return {
		id: c.id,
		externalId: c.externalId,
		status: c.status,
		maskedPan: c.maskedPan,
		expiry: c.expiry,
		assignedAt: c.assignedAt,
		createdAt: c.createdAt,
	};
}

export function presentCardRequest(r) {
	return {
		id: r.id,
		externalId: r.externalId,
		status: r.status,
		cardId: r.cardId,
		createdAt: r.createdAt,
	};
}

function luhnComplete(partial) {
	let sum = 0;
	for (let i = 0; i < partial.length; i++) {
		let d = Number(partial[partial.length - 1 - i]);
		if (i % 2 === 0) {
			d *= 2;
			if (d > 9) d -= 9;
		}
		sum += d;
	}
	return partial + String((10 - (sum % 10)) % 10);
}

/** A card record in `requested` state: listed in GET /cards while its request is pending. */
function queueCard(sb, request) {
	const card = {
		id: `card_${sb.ids.hex(8)}`,
		companyId: request.companyId,
		externalId: request.externalId,
		status: 'requested',
		maskedPan: null,
		expiry: null,
		assignedAt: null,
		createdAt: request.createdAt,
		pan: null,
		cvv: null,
		balanceUsd: 0,
		reserveUsdt: 0,
		balanceCache: null,
		requestId: request.id,
	};
	sb.state.cards.set(card.id, card);
	request.queuedCardId = card.id;
	return card;
}

/** Issues the card of a request: the queued `requested` card becomes `assigned` (same id). */
function issueCard(sb, request) {
	const pan = luhnComplete(`4000${sb.ids.digits(11)}`);
	const now = new Date(sb.clock.now());
	const expiry = `${String(now.getUTCMonth() + 1).padStart(2, '0')}/${String((now.getUTCFullYear() + 3) % 100).padStart(2, '0')}`;
	const card = sb.state.cards.get(request.queuedCardId) ?? {
		id: `card_${sb.ids.hex(8)}`,
		companyId: request.companyId,
		createdAt: request.createdAt,
		balanceUsd: 0,
		reserveUsdt: 0,
		balanceCache: null,
		requestId: request.id,
	};
	Object.assign(card, {
		externalId: request.externalId,
		status: 'assigned',
		maskedPan: `${pan.slice(0, 6)}******${pan.slice(-4)}`,
		expiry,
		assignedAt: sb.clock.iso(),
		pan,
		cvv: sb.ids.digits(3),
	});
	sb.state.cards.set(card.id, card);
	return card;
}

/**
 * Turns a pending request into an assigned card: takes a card from stock (if any), debits the
 * opening fee out of the request's reservation, and keeps the minimum initial deposit reserved
 * on the card until its first recharge, which consumes it.
 */
export function fulfilRequest(sb, request, { announce }) {
	if (request.status !== 'pending') {
		throw apiError(409, 'CONFLICT', 'Заявка уже обработана', {
			details: { status: request.status },
		});
	}
	const company = sb.state.companies.get(request.companyId);
	if (sb.state.cardStock > 0) sb.state.cardStock -= 1;
	const card = issueCard(sb, request);
	debit(sb, company, CARD_OPENING_FEE_USDT, 'card_opening_fee', card.id, {
		fromHold: CARD_OPENING_FEE_USDT,
		checkAvailable: false,
	});
	card.reserveUsdt = round2(request.heldUsdt - CARD_OPENING_FEE_USDT);
	request.heldUsdt = 0;
	request.status = 'fulfilled';
	request.cardId = card.id;
	if (announce) {
		sb.webhooks.emit(company, 'card.assigned', {
			cardId: card.id,
			requestId: request.id,
			externalId: card.externalId,
			status: card.status,
			maskedPan: card.maskedPan,
			expiry: card.expiry,
			assignedAt: card.assignedAt,
		});
	}
	return card;
}

export function requestCard(sb, company, { externalId }) {
	if (!company.cardsEnabled) throw apiError(403, 'CARDS_NOT_ENABLED');
	if (externalId !== null) {
		const taken =
			[...sb.state.cards.values()].some(
				(c) => c.companyId === company.id && c.externalId === externalId,
			) ||
			[...sb.state.cardRequests.values()].some(
				(r) => r.companyId === company.id && r.externalId === externalId && r.status === 'pending',
			);
		if (taken)
			throw apiError(409, 'CARD_EXTERNAL_ID_TAKEN', undefined, { details: { externalId } });
	}
	const reserve = CARD_OPENING_FEE_USDT + CARD_MIN_INITIAL_DEPOSIT_USDT;
	const request = {
		id: `creq_${sb.ids.hex(8)}`,
		companyId: company.id,
		externalId,
		status: 'pending',
		cardId: null,
		createdAt: sb.clock.iso(),
		heldUsdt: 0,
	};
	hold(sb, company, reserve, 'card_reserve_hold', request.id);
	request.heldUsdt = reserve;
	sb.state.cardRequests.set(request.id, request);
	if (sb.state.cardStock > 0) {
		const card = fulfilRequest(sb, request, { announce: false });
		return {
			status: 200,
			body: { status: 'assigned', card: presentCard(card), request: presentCardRequest(request) },
		};
	}
	queueCard(sb, request);
	return {
		status: 202,
		body: { status: 'pending', card: null, request: presentCardRequest(request) },
	};
}

export function rechargeQuote(cardId, targetAmount) {
	const processorGrossAmount = round2(
		(targetAmount * (10_000 + RECHARGE.processorFeeBps)) / 10_000,
	);
	const ourFee = round2((targetAmount * RECHARGE.ourFeeBps) / 10_000);
	const userCharge = round2(processorGrossAmount + ourFee);
	return {
		cardId,
		targetAmount,
		processorFeeBps: RECHARGE.processorFeeBps,
		processorGrossAmount,
		ourFeeBps: RECHARGE.ourFeeBps,
		ourFee,
		userCharge,
		commissionUsdt: round2(userCharge - targetAmount),
		totalDebitUsdt: userCharge,
		currency: 'USDT',
	};
}

export function findCard(sb, company, id) {
	const card = sb.state.cards.get(id);
	if (!card || card.companyId !== company.id) throw apiError(404, 'CARD_NOT_FOUND');
	return card;
}

function readRechargeBody(sb, company, body) {
	const problems = [];
	if (typeof body.cardId !== 'string' || !body.cardId)
		problems.push('cardId должен быть непустой строкой');
	if (typeof body.targetAmount !== 'number' || !Number.isFinite(body.targetAmount)) {
		problems.push('targetAmount должен быть числом');
	}
	if (problems.length) throw validationError(problems);
	const card = findCard(sb, company, body.cardId);
	if (card.status !== 'assigned')
		throw apiError(422, 'CARD_NOT_ACTIVE', undefined, { details: { status: card.status } });
	const target = body.targetAmount;
	if (target < RECHARGE.minUsd || target > RECHARGE.maxUsd || round2(target) !== target) {
		throw apiError(
			422,
			'CARD_RECHARGE_INVALID',
			`Сумма пополнения должна быть от ${RECHARGE.minUsd} до ${RECHARGE.maxUsd} USD, не более двух знаков после запятой`,
			{ details: { minAmount: RECHARGE.minUsd, maxAmount: RECHARGE.maxUsd } },
		);
	}
	return { card, target };
}

/** Debits the recharge (the card's remaining reservation is used first) and loads the card. */
export function rechargeCard(sb, company, card, target) {
	const quote = rechargeQuote(card.id, target);
	const fromHold = Math.min(card.reserveUsdt, quote.totalDebitUsdt);
	ensureAvailable(company, quote.totalDebitUsdt - fromHold);
	const recharge = {
		id: `rch_${sb.ids.hex(8)}`,
		companyId: company.id,
		cardId: card.id,
		targetAmount: target,
		totalDebitUsdt: quote.totalDebitUsdt,
		status: 'completed',
		createdAt: sb.clock.iso(),
	};
	debit(sb, company, quote.totalDebitUsdt, 'card_recharge', recharge.id, {
		fromHold,
		checkAvailable: false,
	});
	card.reserveUsdt = round2(card.reserveUsdt - fromHold);
	card.balanceUsd = round2(card.balanceUsd + target);
	sb.state.recharges.set(recharge.id, recharge);
	return recharge;
}

/**
 * Control: closing/closed/retired/failed. Closing for good returns the card balance and reserve.
 * A `requested` card (its request pending) can only be assigned (the request is fulfilled) or
 * failed (the issuer could not issue: the request fails and its reservation is released).
 */
export function setCardStatus(sb, card, status) {
	if (!CARD_STATUSES.includes(status))
		throw validationError(`status должен быть одним из: ${CARD_STATUSES.join(', ')}`);
	const company = sb.state.companies.get(card.companyId);
	if (card.status === 'requested') {
		const request = sb.state.cardRequests.get(card.requestId);
		if (status === 'assigned') return fulfilRequest(sb, request, { announce: true });
		if (status !== 'failed') {
			throw apiError(409, 'CONFLICT', `Переход карты из requested в ${status} невозможен`, {
				details: { from: 'requested', to: status },
			});
		}
		release(sb, company, request.heldUsdt, 'card_reserve_release', request.id);
		request.heldUsdt = 0;
		request.status = 'failed';
		card.status = 'failed';
		return card;
	}
	if (['closed', 'retired', 'failed'].includes(status)) {
		release(sb, company, card.reserveUsdt, 'card_reserve_release', card.id);
		card.reserveUsdt = 0;
		if (card.balanceUsd > 0) credit(sb, company, card.balanceUsd, 'card_close_refund', card.id);
		card.balanceUsd = 0;
	}
	// Generated mode may spell a card closed for good the legacy way (`retired`).
	card.status =
		status === 'closed' && sb.generated?.choices.closedCardStatus === 'retired'
			? 'retired'
			: status;
	return card;
}

function liveBalance(sb, card, company) {
	const now = sb.clock.now();
	if (company.cardsTestMode)
		return { balance: '123.45', currency: 'USD', fetchedAt: new Date(now).toISOString() };
	// The bridge caches a card balance for about a minute; so does the sandbox.
	if (!card.balanceCache || now - card.balanceCache.at >= CARD_BALANCE_CACHE_MS) {
		card.balanceCache = { at: now, balance: card.balanceUsd.toFixed(2) };
	}
	return {
		balance: card.balanceCache.balance,
		currency: 'USD',
		fetchedAt: new Date(card.balanceCache.at).toISOString(),
	};
}

export function registerCardRoutes(router) {
	router.post('/cards/request', { permission: 'cards.request' }, (ctx) =>
		withIdempotency(ctx, 'cards.request', { required: true }, () => {
			const { externalId = null } = ctx.body;
			if (
				externalId !== null &&
				(typeof externalId !== 'string' || !EXTERNAL_ID_RE.test(externalId))
			) {
				throw validationError(
					'externalId должен состоять из печатных ASCII-символов без пробелов (1–64)',
				);
			}
			return requestCard(ctx.sb, ctx.company, { externalId });
		}),
	);

	router.get('/cards', { permission: 'cards.read' }, (ctx) => {
		const { page, total } = companyListPage(ctx, inListOrder(ctx, ctx.sb.state.cards.values()), {
			statuses: CARD_STATUSES,
			fields: ['externalId'],
		});
		return { body: { cards: page.map(presentCard), total } };
	});

	router.get('/cards/requests', { permission: 'cards.read' }, (ctx) => {
		// The status of a card request is not checked against a list: any value filters.
		const { page, total } = companyListPage(
			ctx,
			inListOrder(ctx, ctx.sb.state.cardRequests.values()),
			{ fields: ['status'] },
		);
		return { body: { requests: page.map(presentCardRequest), total } };
	});

	router.get('/cards/requests/:id', { permission: 'cards.read' }, (ctx) => {
		const request = ctx.sb.state.cardRequests.get(ctx.params.id);
		if (!request || request.companyId !== ctx.company.id)
			throw apiError(404, 'CARD_REQUEST_NOT_FOUND');
		return { body: presentCardRequest(request) };
	});

	router.get('/cards/:id', { permission: 'cards.read' }, (ctx) => ({
		body: presentCard(findCard(ctx.sb, ctx.company, ctx.params.id)),
	}));

	router.get('/cards/:id/balance', { permission: 'cards.read' }, (ctx) => {
		const card = findCard(ctx.sb, ctx.company, ctx.params.id);
		if (card.status !== 'assigned')
			throw apiError(422, 'CARD_NOT_ACTIVE', undefined, { details: { status: card.status } });
		return { body: liveBalance(ctx.sb, card, ctx.company) };
	});

	router.get('/cards/:id/sensitive', { permission: 'cards.sensitive' }, (ctx) => {
		const card = findCard(ctx.sb, ctx.company, ctx.params.id);
		if (card.status !== 'assigned')
			throw apiError(404, 'CARD_NOT_FOUND', 'Карта не найдена или не активна');
		ctx.sb.state.sensitiveReveals.push({
			companyId: ctx.company.id,
			cardId: card.id,
			memberId: ctx.principal.member?.userId ?? null,
			at: ctx.sb.clock.iso(),
		});
		const record = {
			cardId: card.id,
			cardNumberFull: card.pan,
			cardCvv: card.cvv,
			expiry: card.expiry,
		};
		// Profile choice `recordEnvelope`: the record itself, or under `data`.
		return { body: ctx.sb.profile.recordEnvelope === 'data' ? { data: record } : record };
	});

	router.post('/cards/recharge/quote', { permission: 'cards.recharge' }, (ctx) => {
		const { card, target } = readRechargeBody(ctx.sb, ctx.company, ctx.body);
		return { body: rechargeQuote(card.id, target) };
	});

	router.post('/cards/recharge', { permission: 'cards.recharge' }, (ctx) =>
		withIdempotency(ctx, 'cards.recharge', { required: true }, () => {
			const { card, target } = readRechargeBody(ctx.sb, ctx.company, ctx.body);
			const recharge = rechargeCard(ctx.sb, ctx.company, card, target);
			// The profile's writeAnswer: the recharge's answer is not shown (r9-money F1, F10).
			const answer =
				ctx.sb.generated?.money.writeAnswer() ?? ctx.sb.profile.writeAnswer ?? 'record';
			if (answer === 'accepted') return { status: 202, body: { status: 'accepted' } };
			if (answer === 'failed') {
				// The debit is kept, the card not loaded: a service the node must call unknown.
				card.balanceUsd = round2(card.balanceUsd - target);
				recharge.status = 'failed';
				recharge.failureReason = 'BRIDGE_ERROR';
			}
			const { companyId: _c, ...body } = recharge;
			// The generated rechargeRecord: the record's own fields are not shown (r15-money F6).
			const fields = ctx.sb.generated?.money.rechargeRecord();
			if (fields === 'noCreatedAt') delete body.createdAt;
			if (fields === 'noId') delete body.id;
			// `unlisted` (outside r23-money): the card is loaded, the answer names a status the node
			// does not know (the recharge's statuses are not shown).
			if (answer === 'unlisted') body.status = 'on_hold';
			return { status: 201, body };
		}),
	);
}
