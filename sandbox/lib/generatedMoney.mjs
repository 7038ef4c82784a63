// Generated mode's money silences (issue 49.5): what the interface document leaves open about
// money, drawn from a seed like every other generated choice (lib/generated.mjs), so the node's
// money truth is checked against many services, not the one its authors imagined:
//
//   reusedKey       a key used before for another request: replayed with the first answer, or
//                   refused (422 IDEMPOTENCY_KEY_REUSED). Replay per company or per key and path,
//                   and no replay at all for unpromised writes, are the profile's
//                   idempotencyScope and lostAnswer.keysIgnored;
//   listingLag      how long a new payout or card stays out of its listing (0–5 s);
//   listingShows    whether GET /payouts shows externalId and amountRub (the listing is not shown);
//   clockSkew       the service's clock against the real one (±120 s), its Date header with it;
//   statesReturn    whether a payout that failed and was refunded is charged again a moment later
//                   (payout.recharged), as the document allows;
//   earlierRecords  how many earlier payouts (30 days old) already carry an External ID a test
//                   asks for, with the same amount and card;
//   moneyLoss       how often a money write's answer is lost, before or after the service acted;
//   dateHeader      whether the service's answers carry a Date header at all (a proxy may strip
//                   it: then the clock skew cannot be measured);
//   recordTimes     how payout and card times are written: with an offset (`…Z`), without one in
//                   UTC, or without one in the service's local time (UTC+3); or, with their zone,
//                   in PostgreSQL's text form of a timestamptz (`2026-11-28 08:23:55.085+00`,
//                   which Date.parse cannot read) or in the service's local time with its offset
//                   (`…T11:23:55.085+03:00`) (r16-money F2: the document types them `string`);
//   earlierAge      how old the earlier payouts under the same External ID are: 30 days, or
//                   20 s (past the measured skew's margin, within any guessed one);
//   requisiteCooldown  whether a payout to a requisite paid out to in the last COOLDOWN_MS is
//                   refused 422 PAYOUT_REQUISITE_COOLDOWN (the document names the code, not when):
//                   a refusal an item's own earlier payout causes (r1-money-resend F7);
//   resendRefusal   how the service answers a repeated Idempotency-Key of an accept it carried
//                   out (the re-send after a lost answer): with the stored order (as promised),
//                   or refused 429 TOO_MANY_REQUESTS, or 422 INSUFFICIENT_BALANCE because the
//                   first accept reserved the funds (r4-money-resend F1: the document does not
//                   show that a refusal of a repeat waits for, or says anything about, the first);
//   resendTries     how many Retry On Fail tries a Pay QR Code gets (2 or 3) when each answer but
//                   the last is lost after the service acted (r4-money-resend F2: a third try);
//   gatewayDate     the Date header of a gateway's page in place of a lost money answer: the
//                   service's clock, or the gateway's own 10 min behind it (r4-money-resolve F2);
//   listingId       whether GET /payouts shows each payout's id (r4-money-resolve F4);
//   payoutAssignedAt  whether a payout carries an `assignedAt` of its own (when it was last
//                   handed out, i.e. the moment it is read): "other fields may be present" (F3);
//   refundedAtNever how a payout not refunded writes refundedAt: null, or a zero time
//                   "0001-01-01T00:00:00Z" (F5);
//   earlierZoneShift whether the earlier payouts were made one service-zone shift (LOCAL_OFFSET_MS)
//                   less 2 s before the test, instead of earlierAge: written without an offset
//                   in the service's local time they read, as UTC, as made just after it (F1).
//   cachedDate      how old the copy is when GET /payouts/{id} and GET /cards/{id} come through a
//                   caching proxy (0: they do not): the service's record as it is now, but with
//                   the Date of when the proxy stored it and an Age header (r5-money F1). 21 s
//                   lines a stale skew up with the 20 s old earlier payouts; 5 min is a
//                   proxy's ordinary max-age;
//   earlierNear     how long before a write one earlier payout under its External ID was made,
//                   for a write lost before the service acted (test case F): 10 s, 21 s, 60 s or
//                   5 min, so a stale Date of a cache's copy (cachedDate) may line up with it;
//   createRefusal   how the service refuses a payout whose External ID a payout of the company
//                   (one the service made, not a planted one) already carries: not at all, 422
//                   INSUFFICIENT_BALANCE (the first took the funds), or 400 VALIDATION_ERROR
//                   "externalId already exists" (r5-money F2: refusals a re-send's own earlier
//                   attempt causes).
//   refusalWording  how that refusal of a taken External ID is worded (outside r7-money-a F1): the
//                   document shows none, so a service may say it any way: a validation
//                   "externalId already exists" or "externalId должен быть уникальным", a 422
//                   "Выплата с таким externalId уже создана", or its own code
//                   PAYOUT_EXTERNAL_ID_EXISTS;
//   dateClock       the Date header's clock against the clock that writes createdAt (F4): the
//                   same, or a proxy in front of the service 30 s ahead of it or 30 s behind it
//                   (nginx replaces the upstream Date with its own);
//   replayedPost    whether a gateway sends a POST /payouts whose answer it loses once more, so
//                   the service (which the document does not show deduplicating payouts) makes
//                   two payouts for one write (F3);
//   acceptedAnswer  whether POST /payouts is answered 202 {"status":"accepted"} with no payout
//                   record (the service made it; F8: the endpoint's answer is not shown).
//   writeAnswer     how a carried-out Card Recharge or Accept Quote answers (outside r9-money F1,
//                   F10): its record as it stands, the record in status failed (a recharge whose
//                   debit is kept, an order failed at once), or (recharge) 202 accepted, no record,
//                   or (an order) made but answered in a status the document does not list
//                   (`unlisted`, outside r23-money).
//                   `failed` also fails a payout at once after Payout Create (charged, no
//                   refundedAt) and answers a Payout Cancel with the payout the executor declined
//                   just before it (outside r10-money F1).
//   rechargeRecord  which of its own fields the Card Recharge record carries (r15-money F6: its
//                   fields are not shown): all (`full`), no `createdAt`, or no `id`, so the node's
//                   binding by the record's ID and creation time meets each answer.
//   heldAnswer      whether POST /payouts under an External ID a payout the service made for the
//                   company already carries, with the same amount and card, is answered 200 with
//                   that payout instead of a new one (outside r14-money F2, F3: the document does
//                   not show the service deduplicating by External ID, nor that it does not).
//   answerShape     how a carried-out Card Recharge or Card Request answers 200 (outside r19-money,
//                   the document shows neither a failure in a 2xx nor these shapes, nor that they
//                   cannot come): as made (`asMade`), with `success: false` added (`successFalse`),
//                   a recharge answered in a quote's shape, no id, status or createdAt
//                   (`quoteShape`), or a card request whose card carries another External ID
//                   (`otherCardExternalId`) or is not the card its request names (`otherCardId`).
//                   The service carried the write out each time.
//   errorAfterActing how often a money write is answered with the service's own JSON error body
//                   although it acted (or, a third of the time, before it acted), and with which
//                   status and code (outside r20-money): a 408 REQUEST_TIMEOUT of a timeout
//                   interceptor whose handler went on, or a backend code (BRIDGE_ERROR,
//                   WALLET_BACKEND_ERROR, PAYOUT_SERVICE_UNAVAILABLE, INTERNAL_ERROR, or one the
//                   document does not list) at 400, 422 or 424: the document maps none of them
//                   to a status, and says new codes may be added.
//   unlistedCode    how often a money write is answered with a 4xx whose code the document does
//                   not list (issue 49, mfix24), after the service acted or (half the time)
//                   before: a 418, or a 400, 409, 410, 422 or 451 with a code of its own
//                   (UNLISTED_4XX). The document says new codes may be added and an unknown one
//                   is a generic failure of its status, which does not say the service had not
//                   acted: the node says unknown and sends nothing again.
//
// Played only once a test turns it on (`generated.money.play(true)`, then a reset): the other
// generated suites keep the real clock and whole listings.
import { apiError, validationError } from './errors.mjs';
import { placedPayout, rechargePayout, setPayoutStatus } from './payouts.mjs';

/** Every money choice and the values it can take. */
export const MONEY_CHOICES = Object.freeze({
	reusedKey: ['replayed', 'refused'],
	listingLag: 'integer ms 0..5000 (0 a third of the time)',
	listingShows: { externalId: [true, false], amountRub: [true, false] },
	clockSkew: 'integer ms -120000..120000 (0 a quarter of the time)',
	statesReturn: [false, true],
	earlierRecords: [0, 1, 2],
	moneyLoss: { chance: [0, 0.3, 0.6], processed: [true, false, 'either'] },
	dateHeader: [true, false],
	recordTimes: ['offset', 'naive', 'naiveLocal', 'pgText', 'localOffset'],
	earlierAge: ['30 days', '20 s'],
	requisiteCooldown: [false, true],
	resendRefusal: ['replayed', 'TOO_MANY_REQUESTS', 'INSUFFICIENT_BALANCE'],
	resendTries: [2, 3],
	gatewayDate: ['service', 'slow'],
	listingId: [true, false],
	payoutAssignedAt: [false, true],
	refundedAtNever: [null, '0001-01-01T00:00:00Z'],
	earlierZoneShift: [false, true],
	cachedDate: [0, 21_000, 300_000],
	createRefusal: ['none', 'INSUFFICIENT_BALANCE', 'externalIdTaken'],
	earlierNear: [10_000, 21_000, 60_000, 300_000],
	refusalWording: ['alreadyExists', 'mustBeUnique', 'alreadyCreated', 'ownCode'],
	dateClock: [0, 30_000, -30_000],
	replayedPost: [false, true],
	acceptedAnswer: [false, false, true],
	writeAnswer: ['record', 'record', 'failed', 'accepted', 'unlisted'],
	heldAnswer: [false, true],
	rechargeRecord: ['full', 'noCreatedAt', 'noId'],
	answerShape: [
		'asMade',
		'asMade',
		'successFalse',
		'quoteShape',
		'otherCardExternalId',
		'otherCardId',
	],
	// outside r20-money: an error body after the service acted (its own block, drawn last).
	errorAfterActing: { chance: [0, 0.3, 0.6], answer: 'one of ERRORS_AFTER_ACTING per answer' },
	// issue 49 (mfix24): a 4xx with an unlisted code, after acting or before (drawn last).
	unlistedCode: {
		chance: [0, 0.2, 0.4],
		answer: 'one of UNLISTED_4XX per answer, after the service acted or before (one half each)',
	},
});

/** A JSON object (not a list). */
function isPlainObject(value) {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * A carried-out Card Recharge's or Card Request's 2xx answer in the drawn shape (answerShape); any
 * other answer, an error body among them, as it is.
 */
export function shapedAnswer(path, body, shape) {
	if (!shape || shape === 'asMade' || !isPlainObject(body) || body.errorCode !== undefined) {
		return body;
	}
	const route = String(path).split('?')[0];
	if (route === '/cards/recharge') {
		if (shape === 'successFalse') return { ...body, success: false };
		if (shape === 'quoteShape') {
			const targetAmount = body.targetAmount ?? body.amount ?? null;
			return { cardId: body.cardId ?? null, targetAmount, fees: 0.5, currency: 'USDT' };
		}
		return body;
	}
	if (route !== '/cards/request') return body;
	if (shape === 'successFalse') return { ...body, success: false };
	if (!isPlainObject(body.card)) return body;
	if (shape === 'otherCardExternalId') {
		return {
			...body,
			card: { ...body.card, externalId: `${body.card.externalId ?? 'emp'}-other` },
		};
	}
	if (shape === 'otherCardId' && isPlainObject(body.request)) {
		return { ...body, request: { ...body.request, cardId: `${body.card.id}-other` } };
	}
	return body;
}

/**
 * The error answers errorAfterActing plays: the service's own body, at a status the document
 * does not map its code to (outside r20-money t1, t7).
 */
export const ERRORS_AFTER_ACTING = Object.freeze([
	[408, 'REQUEST_TIMEOUT'],
	[424, 'BRIDGE_ERROR'],
	[400, 'BRIDGE_ERROR'],
	[422, 'WALLET_BACKEND_ERROR'],
	[424, 'PAYOUT_SERVICE_UNAVAILABLE'],
	[422, 'PAYOUT_SERVICE_UNAVAILABLE'],
	[400, 'INTERNAL_ERROR'],
	[422, 'CARD_ISSUER_TIMEOUT'],
]);

/**
 * The answers unlistedCode plays (mfix24): the service's own error body at a 4xx, with a code the
 * interface document does not list (money/answered.ts reads each as unknown), at a status the
 * document does not use (418, 410, 451) or at one it does (400, 409, 422).
 */
export const UNLISTED_4XX = Object.freeze([
	[418, 'I_AM_A_TEAPOT'],
	[422, 'PAYOUT_PROVIDER_HOLD'],
	[422, 'LIMIT_RECHECK_PENDING'],
	[400, 'REQUISITE_RECHECK'],
	[409, 'OPERATION_IN_PROGRESS'],
	[410, 'RESOURCE_GONE'],
	[451, 'COMPLIANCE_REVIEW'],
]);

/** The raw answer of one errorAfterActing draw: the service's JSON error body. */
function errorAfterActingAnswer([status, errorCode]) {
	return {
		status,
		headers: { 'Content-Type': 'application/json; charset=utf-8' },
		text: JSON.stringify({
			statusCode: status,
			error: status === 408 ? 'Request Timeout' : 'Error',
			errorCode,
			message: 'Сервис не ответил вовремя',
		}),
	};
}

/** The HTTP reason phrases of UNLISTED_4XX's statuses, as the error body's `error`. */
const REASON_PHRASES = {
	400: 'Bad Request',
	409: 'Conflict',
	410: 'Gone',
	418: "I'm a teapot",
	422: 'Unprocessable Entity',
	451: 'Unavailable For Legal Reasons',
};

/** The raw answer of one unlistedCode draw: the service's JSON error body with its own code. */
function unlistedAnswer([status, errorCode]) {
	return {
		status,
		headers: { 'Content-Type': 'application/json; charset=utf-8' },
		text: JSON.stringify({
			statusCode: status,
			error: REASON_PHRASES[status] ?? 'Error',
			errorCode,
			message: 'Операция не выполнена',
		}),
	};
}

/** The refusal of a taken External ID, worded as drawn (refusalWording). */
function takenRefusal(wording) {
	if (wording === 'mustBeUnique') return validationError(['externalId должен быть уникальным']);
	if (wording === 'alreadyCreated') {
		return apiError(422, 'UNPROCESSABLE', 'Выплата с таким externalId уже создана');
	}
	if (wording === 'ownCode') return apiError(422, 'PAYOUT_EXTERNAL_ID_EXISTS', 'Payout exists');
	return validationError(['externalId already exists']);
}

/** How far behind the service's clock a gateway's clock is, when `gatewayDate` is 'slow'. */
export const GATEWAY_BEHIND_MS = 10 * 60_000;

/** How long a requisite paid out to stays refused, when requisiteCooldown is drawn. */
export const COOLDOWN_MS = 10 * 60_000;

/** The service's local time zone when it writes times without an offset (`naiveLocal`), ms. */
export const LOCAL_OFFSET_MS = 3 * 3_600_000;

/** The fields of a payout or card that carry a time. */
const TIME_FIELDS = [
	'createdAt',
	'assignedAt',
	'updatedAt',
	'takenAt',
	'completedAt',
	'refundedAt',
];

/** The money writes whose answers the generator may lose (method and route pattern). */
export const MONEY_ROUTES = Object.freeze([
	'POST /payouts',
	'POST /payouts/:id/cancel',
	'POST /cards/request',
	'POST /cards/recharge',
	'POST /orders/accept/:id',
]);

/** Draws the money choices from their own stream `r` (generated.mjs drawStream 'start:money'). */
export function drawMoney(r) {
	return {
		reusedKey: r.pick(MONEY_CHOICES.reusedKey),
		listingLag: r.chance(1 / 3) ? 0 : r.int(1, 5000),
		listingShows: { externalId: r.chance(0.6), amountRub: r.chance(0.6) },
		clockSkew: r.chance(0.25) ? 0 : r.int(-120_000, 120_000),
		statesReturn: r.chance(0.5),
		earlierRecords: r.pick(MONEY_CHOICES.earlierRecords),
		moneyLoss: {
			chance: r.pick(MONEY_CHOICES.moneyLoss.chance),
			processed: r.pick(MONEY_CHOICES.moneyLoss.processed),
		},
		// Drawn after the others, so adding them moved no earlier draw of a seed.
		dateHeader: !r.chance(0.25),
		recordTimes: r.pick(MONEY_CHOICES.recordTimes),
		earlierAge: r.pick(MONEY_CHOICES.earlierAge),
		// Drawn last, so the draws above stay as they were for every seed.
		requisiteCooldown: r.chance(0.5),
		// r4-money-resend, drawn after every earlier choice.
		resendRefusal: r.pick(MONEY_CHOICES.resendRefusal),
		resendTries: r.pick(MONEY_CHOICES.resendTries),
		// r4-money-resolve, drawn after those.
		gatewayDate: r.pick(MONEY_CHOICES.gatewayDate),
		listingId: r.chance(0.7),
		payoutAssignedAt: r.chance(0.5),
		refundedAtNever: r.pick(MONEY_CHOICES.refundedAtNever),
		earlierZoneShift: r.chance(0.3),
		// r5-money, drawn after those.
		cachedDate: r.pick(MONEY_CHOICES.cachedDate),
		createRefusal: r.pick(MONEY_CHOICES.createRefusal),
		earlierNear: r.pick(MONEY_CHOICES.earlierNear),
		// Drawn last, so every earlier choice of a seed stays what it was (outside r7-money-a).
		refusalWording: r.pick(MONEY_CHOICES.refusalWording),
		dateClock: r.pick(MONEY_CHOICES.dateClock),
		replayedPost: r.pick(MONEY_CHOICES.replayedPost),
		acceptedAnswer: r.pick(MONEY_CHOICES.acceptedAnswer),
		// Drawn last, so every earlier choice of a seed stays what it was (outside r9-money).
		writeAnswer: r.pick(MONEY_CHOICES.writeAnswer),
		// Drawn last, so every earlier choice of a seed stays what it was (outside r14-money).
		heldAnswer: r.pick(MONEY_CHOICES.heldAnswer),
		// Drawn last, so every earlier choice of a seed stays what it was (outside r15-money).
		rechargeRecord: r.pick(MONEY_CHOICES.rechargeRecord),
		// Drawn last, so every earlier choice of a seed stays what it was (outside r19-money).
		answerShape: r.pick(MONEY_CHOICES.answerShape),
		// Drawn last, so every earlier choice of a seed stays what it was (outside r20-money).
		errorAfterActing: { chance: r.pick(MONEY_CHOICES.errorAfterActing.chance) },
		// Drawn last, so every earlier choice of a seed stays what it was (mfix24).
		unlistedCode: { chance: r.pick(MONEY_CHOICES.unlistedCode.chance) },
	};
}

/** One time as the drawn service writes it. */
function writtenTime(value, recordTimes) {
	if (typeof value !== 'string' || recordTimes === 'offset') return value;
	const at = Date.parse(value);
	if (!Number.isFinite(at)) return value;
	const local = recordTimes === 'naiveLocal' || recordTimes === 'localOffset';
	const written = new Date(local ? at + LOCAL_OFFSET_MS : at).toISOString().replace('Z', '');
	if (recordTimes === 'pgText') return `${written.replace('T', ' ')}+00`;
	if (recordTimes === 'localOffset') {
		return `${written}+${String(LOCAL_OFFSET_MS / 3_600_000).padStart(2, '0')}:00`;
	}
	return written;
}

/** A payout or card answer (a record, a list envelope, a bare list) with its times rewritten. */
function rewriteTimes(body, recordTimes) {
	if (Array.isArray(body)) return body.map((entry) => rewriteTimes(entry, recordTimes));
	if (body === null || typeof body !== 'object') return body;
	const out = {};
	for (const [key, value] of Object.entries(body)) {
		out[key] = TIME_FIELDS.includes(key)
			? writtenTime(value, recordTimes)
			: Array.isArray(value)
				? rewriteTimes(value, recordTimes)
				: value;
	}
	return out;
}

/** Each payout-like record of an answer (it carries a requisite), changed by `change`. */
function eachPayout(body, change) {
	if (Array.isArray(body)) return body.map((entry) => eachPayout(entry, change));
	if (body === null || typeof body !== 'object') return body;
	if ('requisite' in body) return change({ ...body });
	const out = {};
	for (const [key, value] of Object.entries(body)) {
		out[key] = Array.isArray(value) ? eachPayout(value, change) : value;
	}
	return out;
}

const DAY_MS = 86_400_000;

/**
 * The money silences of one sandbox in generated mode. `stream(name)` gives the seed's named draw
 * streams; `log(entry)` records a draw.
 */
export function createMoney(sb, choices, stream, log) {
	let played = false;
	const planted = new Set();
	/** A lost POST /payouts the gateway sends once more (replayedPost), not yet made twice. */
	let replayPending = false;
	/** How many payouts a replayed POST made beyond the one asked for. */
	let replays = 0;
	/** External IDs a listing leaves out for its next reads (a listing that lags by reads). */
	const held = new Map();
	/** Answers a test asked to be lost, by route: how many more (after the service acted). */
	const forced = new Map();
	/**
	 * errorAfterActing (outside r20-money): an answer not otherwise lost is, as drawn, the
	 * service's own error body, after it acted (two thirds) or before; its own stream per route,
	 * so no earlier draw moves. `{ form, processed, raw }` or null.
	 */
	function errorAfterActing(route) {
		const chance = choices.errorAfterActing?.chance ?? 0;
		if (chance === 0) return null;
		const e = stream(`money:errorAfterActing:${route}`);
		if (!e.chance(chance)) return null;
		const answer = e.pick(ERRORS_AFTER_ACTING);
		const acted = e.chance(2 / 3);
		log({
			kind: 'errorAfterActing',
			route,
			status: answer[0],
			errorCode: answer[1],
			processed: acted,
		});
		return {
			form: `${answer[0]} ${answer[1]}`,
			processed: acted,
			raw: errorAfterActingAnswer(answer),
		};
	}
	/**
	 * unlistedCode (mfix24): an answer neither lost nor drawn by errorAfterActing is, as drawn, a
	 * 4xx with a code the document does not list, after the service acted (half the time) or
	 * before; its own stream per route, so no earlier draw moves. `{ form, processed, raw,
	 * unlisted }` or null.
	 */
	function unlistedCode(route) {
		const chance = choices.unlistedCode?.chance ?? 0;
		if (chance === 0) return null;
		const u = stream(`money:unlistedCode:${route}`);
		if (!u.chance(chance)) return null;
		const answer = u.pick(UNLISTED_4XX);
		const acted = u.chance(1 / 2);
		log({ kind: 'unlistedCode', route, status: answer[0], errorCode: answer[1], processed: acted });
		return {
			form: `${answer[0]} ${answer[1]}`,
			processed: acted,
			raw: unlistedAnswer(answer),
			unlisted: `${answer[0]} ${answer[1]}`,
		};
	}
	return {
		choices,
		get played() {
			return played;
		},
		/** Turns the money silences on or off; takes effect at the next reset (the clock). */
		play(on = true) {
			played = Boolean(on);
		},
		/** On reset (generated.mjs): forgets what it planted. */
		reset() {
			replayPending = false;
			replays = 0;
			planted.clear();
			held.clear();
			forced.clear();
		},
		/**
		 * The next `count` answers of `route` are lost (a closed connection), after the service
		 * acted, or before it when `processed` is false.
		 */
		loseNext(route, count, processed = true) {
			forced.set(route, { count, processed });
		},
		/**
		 * The refusal a repeated key of a carried-out accept gets instead of its stored order
		 * (idempotency.mjs), when drawn: `{ status, errorCode, headers }`, or null.
		 */
		refusesResend(scope) {
			if (!played || scope !== 'orders.accept' || choices.resendRefusal === 'replayed') return null;
			log({ kind: 'resendRefusal', refusal: choices.resendRefusal });
			return choices.resendRefusal === 'TOO_MANY_REQUESTS'
				? { status: 429, errorCode: 'TOO_MANY_REQUESTS', headers: { 'Retry-After': '3600' } }
				: { status: 422, errorCode: 'INSUFFICIENT_BALANCE' };
		},
		/**
		 * A listing that lags by reads, not by time (for a test that must not wait on a clock):
		 * records carrying `externalId` are left out of the next `reads` listings that hold them.
		 */
		holdListing(externalId, reads = 1) {
			held.set(externalId, reads);
		},
		/** After the state is seeded (server.mjs reset): the service's clock moved by the skew. */
		afterSeed() {
			if (played && choices.clockSkew !== 0) sb.clock.advance(choices.clockSkew);
		},
		/** The service's Date header (its own clock), when played; null: none at all. */
		dateHeader() {
			if (!played) return undefined;
			// A proxy's clock (dateClock) in place of the service's, when drawn.
			return choices.dateHeader
				? new Date(sb.clock.now() + (choices.dateClock ?? 0)).toUTCString()
				: null;
		},
		/**
		 * The headers of a caching proxy's copy (server.mjs), when drawn: a payout's or card's read
		 * by its ID carries the Date of when the copy was stored and its Age. null otherwise.
		 */
		cacheHeaders(method, path) {
			if (!played || choices.cachedDate === 0 || method !== 'GET') return null;
			if (!/^\/(payouts|cards)\/[^/?]+$/.test(path.split('?')[0])) return null;
			return {
				Date: new Date(sb.clock.now() - choices.cachedDate).toUTCString(),
				Age: String(choices.cachedDate / 1000),
				'Cache-Control': 'max-age=600',
			};
		},
		/**
		 * The refusal of a new payout whose External ID a payout the service made for the company
		 * already carries (payouts.mjs), when drawn; null when it is made.
		 */
		refusesCreate(company, input) {
			if (!played || choices.createRefusal === 'none' || !input.externalId) return null;
			for (const payout of sb.state.payouts.values()) {
				if (payout.companyId !== company.id || payout.externalId !== input.externalId) continue;
				if (planted.has(payout.id)) continue;
				log({ kind: 'createRefusal', refusal: choices.createRefusal, payout: payout.id });
				return choices.createRefusal === 'INSUFFICIENT_BALANCE'
					? apiError(422, 'INSUFFICIENT_BALANCE')
					: takenRefusal(choices.refusalWording);
			}
			return null;
		},
		/**
		 * The payout the service already made for the company under the new payout's External ID,
		 * with its amount and card, that it answers with instead of making one (heldAnswer), when
		 * drawn; null when it makes one. A planted payout is never answered (it moved no money now).
		 */
		holds(company, input) {
			if (!played || !choices.heldAnswer || !input.externalId) return null;
			for (const payout of sb.state.payouts.values()) {
				if (payout.companyId !== company.id || payout.externalId !== input.externalId) continue;
				if (planted.has(payout.id)) continue;
				if (Number(payout.amountRub) !== Number(input.amountRub)) continue;
				if (payout.requisite !== input.requisite) continue;
				log({ kind: 'heldAnswer', payout: payout.id });
				return payout;
			}
			return null;
		},
		/** A payout or card answer with its times written the drawn way (server.mjs), when played. */
		answered(path, body) {
			if (!played || !/^\/(payouts|cards)(\/|\?|$)/.test(path)) return body;
			let out = shapedAnswer(path, body, choices.answerShape);
			if (/^\/payouts/.test(path)) {
				out = eachPayout(out, (payout) => {
					if (payout.refundedAt === null && choices.refundedAtNever !== null) {
						payout.refundedAt = choices.refundedAtNever;
					}
					if (choices.payoutAssignedAt) payout.assignedAt = new Date(sb.clock.now()).toISOString();
					return payout;
				});
			}
			return rewriteTimes(out, choices.recordTimes);
		},
		/** A gateway's page in place of a lost money answer, dated by the drawn gateway clock. */
		gatewayPage(raw) {
			if (!played || raw.reset || choices.gatewayDate !== 'slow') return raw;
			const date = new Date(sb.clock.now() - GATEWAY_BEHIND_MS).toUTCString();
			return { ...raw, headers: { ...raw.headers, Date: date } };
		},
		/** Whether a key used before for another request is refused (idempotency.mjs). */
		refusesReusedKey() {
			return played && choices.reusedKey === 'refused';
		},
		/** A listing as the drawn service gives it: new records lag, fields left out. */
		listed(pattern, records) {
			if (!played || (pattern !== '/payouts' && pattern !== '/cards')) return records;
			const now = sb.clock.now();
			const hidden = new Set();
			const shown = records.filter((record) => {
				const left = held.get(record?.externalId) ?? 0;
				if (left > 0) hidden.add(record.externalId);
				return left === 0;
			});
			for (const externalId of hidden) held.set(externalId, held.get(externalId) - 1);
			return shown
				.filter((record) => {
					const created = Date.parse(record?.createdAt ?? '');
					return !Number.isFinite(created) || created <= now - choices.listingLag;
				})
				.map((record) => {
					if (pattern !== '/payouts' || record === null || typeof record !== 'object')
						return record;
					const out = { ...record };
					if (!choices.listingId) delete out.id;
					if (!choices.listingShows.externalId) delete out.externalId;
					if (!choices.listingShows.amountRub) {
						delete out.amountRub;
						delete out.chargedUsdt;
					}
					return out;
				});
		},
		/**
		 * Whether this money write's answer is lost: `{ form, processed }` (processed: the service
		 * acted first) or null. Drawn per route from its own stream.
		 */
		lose(route) {
			if (!played || !MONEY_ROUTES.includes(route)) return null;
			const { count: left = 0, processed: acts = true } = forced.get(route) ?? {};
			if (left > 0) {
				forced.set(route, { count: left - 1, processed: acts });
				log({ kind: 'moneyLoss', route, form: 'reset', processed: acts, forced: true });
				return { form: 'reset', processed: acts };
			}
			const { chance, processed } = choices.moneyLoss;
			const r = stream(`money:lose:${route}`);
			if (!r.chance(chance)) return errorAfterActing(route) ?? unlistedCode(route);
			const acted = processed === 'either' ? r.chance(0.5) : processed;
			const form = acted ? r.pick(['reset', '502', '504', 'html']) : r.pick(['reset', '502']);
			log({ kind: 'moneyLoss', route, form, processed: acted });
			if (acted && route === 'POST /payouts' && choices.replayedPost) replayPending = true;
			return { form, processed: acted };
		},
		/**
		 * Earlier payouts (30 days old, success, no money moved now) carrying `externalId` with the
		 * given amount and card, as many as drawn; returns their IDs.
		 */
		plantEarlier(company, { externalId, amountRub, requisite }) {
			const ids = [];
			for (let i = 0; i < choices.earlierRecords; i++) {
				const age = choices.earlierZoneShift
					? LOCAL_OFFSET_MS - 2000 + i * 1000
					: choices.earlierAge === '20 s'
						? 20_000 + i * 1000
						: (30 + i) * DAY_MS;
				const at = new Date(sb.clock.now() - age).toISOString();
				const payout = {
					...placedPayout(sb, company, { externalId, amountRub, status: 'success', at }),
					requisite,
				};
				sb.state.payouts.set(payout.id, payout);
				planted.add(payout.id);
				ids.push(payout.id);
			}
			if (ids.length) log({ kind: 'earlierRecords', externalId, ids });
			return ids;
		},
		/**
		 * One earlier payout (success, no money moved now) carrying `externalId`, made `earlierNear`
		 * before now; returns its ID.
		 */
		plantNear(company, { externalId, amountRub, requisite }) {
			const at = new Date(sb.clock.now() - choices.earlierNear).toISOString();
			const payout = {
				...placedPayout(sb, company, { externalId, amountRub, status: 'success', at }),
				requisite,
			};
			sb.state.payouts.set(payout.id, payout);
			planted.add(payout.id);
			log({ kind: 'earlierNear', externalId, id: payout.id, ageMs: choices.earlierNear });
			return payout.id;
		},
		/**
		 * Whether a new payout to `requisite` is refused PAYOUT_REQUISITE_COOLDOWN: a payout of the
		 * company (not a planted one) to it within COOLDOWN_MS, when drawn.
		 */
		coolingDown(company, requisite) {
			if (!played || !choices.requisiteCooldown) return false;
			const since = sb.clock.now() - COOLDOWN_MS;
			for (const payout of sb.state.payouts.values()) {
				if (payout.companyId !== company.id || payout.requisite !== requisite) continue;
				if (planted.has(payout.id) || Date.parse(payout.createdAt) < since) continue;
				log({ kind: 'requisiteCooldown', requisite: requisite.slice(-4), payout: payout.id });
				return true;
			}
			return false;
		},
		/**
		 * Whether the payout just made is made once more (replayedPost: a gateway sent the lost
		 * POST again); counted in `replays`.
		 */
		takeReplay() {
			if (!played || !replayPending) return false;
			replayPending = false;
			replays += 1;
			log({ kind: 'replayedPost' });
			return true;
		},
		/** How many payouts replayed POSTs made beyond the ones asked for, since the reset. */
		get replays() {
			return replays;
		},
		/** Whether a made payout is answered 202 {"status":"accepted"} without its record. */
		acceptsOnly() {
			return played && choices.acceptedAnswer;
		},
		/**
		 * How a carried-out Card Recharge or Accept Quote answers, when played (`record`, `failed`,
		 * `accepted`, `unlisted`); undefined otherwise (the profile's writeAnswer then decides).
		 */
		writeAnswer() {
			return played ? (choices.writeAnswer ?? 'record') : undefined;
		},
		/**
		 * Which of its own fields a Card Recharge record carries, when played (`full`,
		 * `noCreatedAt`, `noId`); undefined otherwise (the whole record).
		 */
		rechargeRecord() {
			return played ? (choices.rechargeRecord ?? 'full') : undefined;
		},
		/** Whether a payout is one the generator planted (it moved no money now). */
		isPlanted: (id) => planted.has(id),
		/**
		 * States that come back: when drawn, a payout fails, is refunded, and is charged again
		 * (payout.recharged). Returns whether it happened.
		 */
		returnState(payout) {
			if (!played || !choices.statesReturn || payout.status !== 'waiting_trader') return false;
			setPayoutStatus(sb, payout, { status: 'fail', failReason: 'trader_declined' });
			rechargePayout(sb, payout);
			log({ kind: 'statesReturn', id: payout.id });
			return true;
		},
	};
}
