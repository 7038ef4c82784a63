// Generated mode: the contract's open choices drawn from a seed instead of fixed by a profile.
//
// A seed (a number or a string) draws, through a small deterministic generator:
//   per start:        every profile choice, legacy status spellings, a redirect, bursts of 429,
//                     an HTML 502 from a proxy;
//   per list:         page cap, order (newest or oldest first, or none at all, where the contract
//                     does not state it), envelope (bare or
//                     an object, its records key, `total` present or absent under which name,
//                     `count` absent, the page length or the total), how often records
//                     arrive and leave while the list is read, and the largest `limit` it
//                     accepts (a larger one is refused, naming the size in details or message);
//   per list request: how many records arrive (new newest records) and leave before the page
//                     is served; per request: whether a 429 burst, a 502 or the redirect hits it.
// Every draw is logged with a sequence number, so a failure is reproducible from the seed and
// explainable from the log (GET /__control/generated). Nothing here changes a sandbox that is
// not started in generated mode.
import { createHash } from 'node:crypto';
import http from 'node:http';
import { MONEY_CHOICES, createMoney, drawMoney } from './generatedMoney.mjs';
import { CHOICES as PROFILE_CHOICES } from './profiles.mjs';
import { placedPayout } from './payouts.mjs';
import { tronAddressFrom } from './util.mjs';
import { newDeposit } from './wallets.mjs';

/** mulberry32: a tiny deterministic generator of floats in [0, 1). */
export function mulberry32(seed) {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** FNV-1a over the text: a 32-bit seed for mulberry32. */
export function hashText(text) {
	let h = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) {
		h ^= text.charCodeAt(i);
		h = Math.imul(h, 0x01000193) >>> 0;
	}
	return h >>> 0;
}

/**
 * An unordered list as a service without a stated order may serve it: the records shuffled by the
 * seed, each record's place drawn from its id (FNV-1a of `<seed>|unordered:<id>`), so the order
 * holds across pages and requests, and a record that arrives lands at a place of its own, not at
 * either end.
 */
export function inUnorderedOrder(seed, records) {
	const rank = (record) => hashText(`${seed}|unordered:${record.id}`);
	return [...records].sort((a, b) => rank(a) - rank(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * A named stream of draws for one seed: the same seed and stream name give the same draws,
 * independent of every other stream (so adding a list does not shift the draws of another).
 */
export function drawStream(seed, stream) {
	const next = mulberry32(hashText(`${seed}|${stream}`));
	const api = {
		next,
		/** Integer in lo..hi (both included). */
		int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
		pick: (values) => values[Math.floor(next() * values.length)],
		chance: (p) => next() < p,
	};
	return api;
}

/**
 * The paged lists the generated mode plays, by route pattern: the records key the sandbox uses
 * today, whether the contract states the order (GET /disputes: newest first) or the envelope
 * (GET /user-wallets/deposits: `{ deposits, total }`), and whether records arrive and leave
 * while it is read (churn; the lists whose records the sandbox can make up: payouts and
 * company deposits).
 */
export const GENERATED_LISTS = Object.freeze({
	'/payouts': { itemsKey: 'payouts', churn: true },
	'/wallets/deposits': { itemsKey: 'deposits', churn: true },
	'/orders': { itemsKey: 'orders' },
	'/cards': { itemsKey: 'cards' },
	'/cards/requests': { itemsKey: 'requests' },
	'/disputes': { itemsKey: 'disputes', orderStated: true },
	'/user-wallets': { itemsKey: 'wallets' },
	'/user-wallets/blocked': { itemsKey: 'wallets' },
	'/user-wallets/deposits': { itemsKey: 'deposits', envelopeStated: true },
	'/wallets/balance-history': { itemsKey: 'items' },
});

/**
 * What the document shows of each generated list's answer (issue 28): the query parameters it
 * names (`shown`; paging is played by the page cap draws instead), and the name its records'
 * ID has in the webhook event (`eventId`), which a service may use in the list too.
 */
export const LIST_ANSWERS = Object.freeze({
	'/payouts': { shown: [], eventId: 'payoutId' },
	'/wallets/deposits': { shown: [], eventId: 'depositId' },
	'/user-wallets/deposits': { shown: ['externalId', 'status'], eventId: 'depositId' },
	'/orders': { shown: [], eventId: 'orderId' },
	'/cards': { shown: ['externalId'], eventId: 'cardId' },
	'/disputes': { shown: [], eventId: null },
	'/user-wallets': { shown: [], eventId: null },
	'/user-wallets/blocked': { shown: [], eventId: null },
	'/wallets/balance-history': { shown: [], eventId: null },
	'/cards/requests': { shown: [], eventId: null },
});

/** Query parameters every list honours whatever is drawn: paging and the credential. */
const ALWAYS_HONOURED = new Set(['limit', 'offset', 'api_key']);

/**
 * The answers drawn per seed (own stream, so no other draw shifts): per list, whether the service
 * ignores every query parameter the document does not show, and whether it names its records' ID
 * the event's way; whether a dispute's reason is stored as sent or normalised (trimmed, spaces
 * collapsed, lower case), so the open dispute returned again never repeats the text sent.
 */
export function drawAnswers(seed) {
	const r = drawStream(seed, 'answers');
	const lists = {};
	for (const [pattern, spec] of Object.entries(LIST_ANSWERS)) {
		lists[pattern] = {
			ignoresQuery: r.chance(0.5),
			idField: spec.eventId && r.chance(0.35) ? spec.eventId : 'id',
		};
	}
	return { lists, disputeReason: r.pick(['as sent', 'normalised']) };
}

/** A reason as a service that normalises text stores it. */
export function normaliseReason(text) {
	return text.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** Routes the redirect may hit (method and pattern), the n-th request to it answered with a 3xx. */
export const REDIRECT_ROUTES = Object.freeze([
	'GET /wallets/balance',
	'GET /payouts/:id',
	'POST /payouts',
	'GET /payouts',
	'GET /wallets/deposits',
]);

/** Every generated choice and the values it can take (the unit tests check 50 seeds cover them). */
export const GENERATED_CHOICES = Object.freeze({
	start: {
		profileSecret: PROFILE_CHOICES.profileSecret,
		idempotencyScope: PROFILE_CHOICES.idempotencyScope,
		idempotencyStoresFailures: PROFILE_CHOICES.idempotencyStoresFailures,
		staleKeyLogin: PROFILE_CHOICES.staleKeyLogin,
		rechargeKeepsRefundedAt: PROFILE_CHOICES.rechargeKeepsRefundedAt,
		/** How a card closed for good is spelled: the contract's `closed`, or legacy `retired`. */
		closedCardStatus: ['closed', 'retired'],
		/** User-wallet deposit AML statuses: `aml_passed`/`aml_failed`, or legacy `aml_pass`/`aml_fail`. */
		userDepositStatuses: ['current', 'legacy'],
		/** null, or `{ status, route, nth }`: the n-th request to the route gets a 3xx to another port. */
		redirect: { present: [false, true], status: [301, 302, 303, 307, 308], route: REDIRECT_ROUTES },
		/** null, or `{ chance, burst, retryAfter, seconds }`: bursts of 429 with Retry-After. */
		rateLimit: { present: [false, true], retryAfter: ['seconds', 'date'] },
		/** null, or `{ chance, processed }`: an HTML 502 from a proxy, before or after the service acted. */
		proxy502: { present: [false, true], processed: [false, true] },
		/**
		 * null, or `{ chance, keysIgnored }`: a write is processed, then its answer is lost in one of
		 * LOST_FORMS; `keysIgnored`: the service does not replay by Idempotency-Key the writes the
		 * document promises no replay for (POST /payouts, /cards/recharge, /payouts/{id}/cancel).
		 */
		lostAnswer: { present: [false, true], chance: [0.05, 0.1], keysIgnored: [false, true] },
	},
	list: {
		pageCap: 'integer 3..100 (often 100, 50 or 25)',
		/** Where the document states no order: newest or oldest first, or none (a shuffle by seed). */
		order: ['newest', 'oldest', 'unordered'],
		shape: ['envelope', 'bare'],
		itemsKey: ['<own key>', 'items', 'data', 'results', 'records', 'entries'],
		totalKey: [null, 'total', 'totalCount'],
		count: [null, 'page', 'total'],
		arrivals: [0, 0.25, 0.5],
		departures: [0, 0.2],
		/** Largest `limit` accepted; a larger one is a 400 VALIDATION_ERROR naming `limit`. */
		maxLimit: 'pageCap..500, 1000 or 10000',
		/** Whether that refusal names the largest size in `details.max` or only in its message. */
		limitRefusal: ['details', 'message'],
	},
	answers: {
		ignoresQuery: [false, true],
		idField: ['id', '<event name>'],
		disputeReason: ['as sent', 'normalised'],
	},
	/** The data dimensions of issue 50, drawn by generatedData.mjs (drawDataDimensions). */
	data: {
		unknownFields:
			'extraFields 1..3 secret fields per secret-bearing record, a PIN as a number; r17: plain undeclared fields of the profile and a member (plainField: one of CLOSED_PLAIN_FIELDS) shown exactly (r17Data)',
		/** Outside read r17-data: registry numbers that pass the card checksum (r17Data). */
		cardSchemes:
			'registryForm: one of REGISTRY_FORMS, an OGRN, OGRNIP or QR account passing the card checksum in an order, kept exactly; a real scheme card in its text masked (r17Data)',
		bigNumbers: 'bigIds: 19-digit IDs written as JSON numbers',
		numbersForText: 'numericRequisite, numericExternalId',
		escapedSecrets: [
			'slash',
			'u002f',
			'U002F',
			'every',
			'twice',
			'utf16leBase64',
			'utf16beHex',
			'quotedPrintable',
		],
		/** Where a new API key stands (NEW_KEY_SHAPES, newKeyAnswer). */
		newKeyField: ['top', 'otherName', 'nested', 'valueObject', 'none'],
		/** A secret under a declared field or a package field's name (CLOSED_NESTINGS). */
		closedNesting: 'none, or one of CLOSED_NESTINGS per closed record',
		/** Outside read 2: a revisited state keeps or moves its times; polls one or two steps apart. */
		revisitTimes: 'revisitTimes: moved or kept; pollEvery: 1 or 2',
		listingOmits: 'omitOnce: one listing answer leaves the payout out, then shows it unchanged',
		numberForms:
			'decimals: plain, trailingZeros (1500.50) or beyondDouble (1500.12345678901234567)',
		/** Outside read r5-data: a secret in free text (TEXT_SECRET_FORMS), a quote cut inside one. */
		textSecrets:
			'textSecretForm: one of TEXT_SECRET_FORMS (r20: postalBeside, an Indian postal code in an address kept beside a PIN); cutSecret, cutInside: a 300-character quote cut inside a secret',
		/** Outside read r6-data-b (generatedData.mjs r6bData). */
		maskedPanForm: ['masked', 'full', 'fullNumber'],
		identifierNames:
			'idName: one of ID_NUMBER_NAMES, a Luhn-valid 15–19 digit value as text or a JSON number',
		/** Outside read r9-data: a time or count under a name of one, Luhn-valid or not (r9Data). */
		timeNumbers:
			'timeName: one of TIME_NUMBER_NAMES, µs (16 digits) or ns (19), passing the card checksum or not, as a JSON number or text; r10: a card number under a card-named time or count name (PAN_TIME_NAMES: panName, panForm) and under a time name where no time can be (CARD_AS_TIME_NAMES: timeName, timeForm), as text, grouped text or a JSON number (r10Data); r11: a card number under a card abbreviation (CC_NAMES: ccName) and one in a text joined by a dash, minus or invisible character (PAN_JOINERS: joiner) (r11Data)',
		/** A deposit's `token` (DEPOSIT_TOKENS): a code, or the token contract's address. */
		depositToken: ['code', 'contractAddress'],
		requisiteShape:
			'requisiteShape: string, array, object, numberInArray or withBankName; requisiteType: card, CARD, Card, bank_card, null or phone (REQUISITE_TYPES)',
		keyNames:
			'keyName: one of UNLISTED_KEY_NAMES, lower-case prefixed or hex, top level or nested; r16: recordKeyName, one of RECORD_KEY_NAMES (r16Data)',
		/** Outside read r16-data (generatedData.mjs r16Data). */
		secretCounters: 'counterName: one of PIN_COUNTER_NAMES, 0..5 on a card',
		pairNames: 'pairNameKey: one of PAIR_NAME_FORMS, pairLabel: one of PAIR_LABELS, in a card',
		learnedSecretFloor: 'recordKeyForm: date, recordId or unixSeconds under recordKeyName',
		linkSecrets: ['pathCard', 'queryCvv', 'both'],
		fieldCollision:
			'collide: 0..4 of deliveryId, source, receivedAt, changeKey in a card.assigned body',
	},
	/** The money silences (lib/generatedMoney.mjs), played once a test turns them on. */
	money: MONEY_CHOICES,
});

function drawList(seed, pattern, spec) {
	const r = drawStream(seed, `list:${pattern}`);
	const pageCap = r.chance(0.4) ? r.pick([100, 50, 25]) : r.int(3, 100);
	const order = spec.orderStated ? 'newest' : r.pick(['newest', 'oldest']);
	let envelope;
	if (spec.envelopeStated) {
		envelope = { shape: 'envelope', itemsKey: spec.itemsKey, totalKey: 'total', count: null };
	} else if (r.chance(0.15)) {
		envelope = { shape: 'bare', itemsKey: null, totalKey: null, count: null };
	} else {
		envelope = {
			shape: 'envelope',
			itemsKey: r.pick([
				spec.itemsKey,
				spec.itemsKey,
				'items',
				'data',
				'results',
				'records',
				'entries',
			]),
			totalKey: r.pick([null, 'total', 'total', 'totalCount']),
			count: r.pick([null, null, 'page', 'total']),
		};
	}
	const churn = spec.churn
		? { arrivals: r.pick([0, 0.25, 0.5]), departures: r.pick([0, 0, 0.2]) }
		: { arrivals: 0, departures: 0 };
	// Drawn last, so the draws above stay those of earlier versions for the same seed.
	const paging = {
		maxLimit: r.chance(0.5) ? r.pick([1000, 10_000]) : Math.max(pageCap, r.pick([100, 250, 500])),
		limitRefusal: r.pick(['details', 'message']),
	};
	// Drawn after everything else (issue 36.5): a third of the lists whose order is not stated
	// come in no order at all; the other draws of a seed stay what they were.
	const unordered = !spec.orderStated && r.chance(1 / 3);
	return { pageCap, order: unordered ? 'unordered' : order, ...envelope, ...churn, ...paging };
}

/**
 * Draws every per-start and per-list choice of a seed. Pure: the same seed always gives the same
 * choices, so a test can read them before it starts anything.
 */
export function drawChoices(seed) {
	const r = drawStream(seed, 'start');
	const profile = {
		profileSecret: r.pick(PROFILE_CHOICES.profileSecret),
		idempotencyScope: r.pick(PROFILE_CHOICES.idempotencyScope),
		idempotencyStoresFailures: r.pick(PROFILE_CHOICES.idempotencyStoresFailures),
		staleKeyLogin: r.pick(PROFILE_CHOICES.staleKeyLogin),
		rechargeKeepsRefundedAt: r.pick(PROFILE_CHOICES.rechargeKeepsRefundedAt),
	};
	const closedCardStatus = r.pick(['closed', 'retired']);
	const userDepositStatuses = r.pick(['current', 'legacy']);
	const redirect = r.chance(0.5)
		? {
				status: r.pick([301, 302, 303, 307, 308]),
				route: r.pick(REDIRECT_ROUTES),
				nth: r.int(1, 2),
			}
		: null;
	const rateLimit = r.chance(0.6)
		? {
				chance: r.pick([0.02, 0.05, 0.08]),
				burst: r.int(1, 3),
				retryAfter: r.pick(['seconds', 'date']),
				seconds: r.int(1, 2),
			}
		: null;
	const proxy502 = r.chance(0.5)
		? { chance: r.pick([0.03, 0.06]), processed: r.pick([false, true]) }
		: null;
	// Its own stream, so the draws above stay what they were for every seed.
	const lost = drawStream(seed, 'start:lostAnswer');
	const lostAnswer = lost.chance(0.5)
		? { chance: lost.pick([0.05, 0.1]), keysIgnored: lost.chance(0.5) }
		: null;
	const lists = {};
	for (const [pattern, spec] of Object.entries(GENERATED_LISTS)) {
		lists[pattern] = drawList(seed, pattern, spec);
	}
	return {
		seed: String(seed),
		profile,
		closedCardStatus,
		userDepositStatuses,
		redirect,
		rateLimit,
		proxy502,
		lostAnswer,
		lists,
		answers: drawAnswers(seed),
		// Own stream: the money silences (lib/generatedMoney.mjs) shift no other draw.
		money: drawMoney(drawStream(seed, 'start:money')),
	};
}

/** The profile a sandbox in generated mode runs with: the drawn start choices, lists per list. */
export function generatedProfile(choices) {
	return {
		name: `generated:${choices.seed}`,
		pageCap: 100,
		listTotal: true,
		listOrder: 'newest',
		...choices.profile,
	};
}

const PROXY_502_HTML =
	'<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

const GATEWAY_504_HTML =
	'<html>\r\n<head><title>504 Gateway Time-out</title></head>\r\n<body>\r\n<center><h1>504 Gateway Time-out</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

/**
 * How the answer of a write the service has processed is lost (generated `lostAnswer`, and
 * `dropAs` of POST /__control/faults): the connection closed with no answer, a gateway's 502 or
 * 504 page, or a 200 HTML page in place of the service's JSON.
 */
export const LOST_FORMS = Object.freeze(['reset', '502', '504', 'html']);

/** The raw answer of a lost form: `{ reset: true }` or `{ status, headers, text }`. */
export function lostAnswerOf(form) {
	if (form === 'reset') return { reset: true };
	const html = { 'Content-Type': 'text/html' };
	if (form === '502') return { status: 502, headers: html, text: PROXY_502_HTML };
	if (form === '504') return { status: 504, headers: html, text: GATEWAY_504_HTML };
	return {
		status: 200,
		headers: html,
		text: '<html><body><h1>Request received</h1><p>Your request is being processed.</p></body></html>',
	};
}

/** Whether a request carries a credential in any of the places the service reads one. */
function credentialOf(req, url) {
	return Boolean(
		req.headers['x-api-key'] || req.headers.authorization || url.searchParams.has('api_key'),
	);
}

/** The redirect target: another port on 127.0.0.1 that records every request it gets. */
async function startRedirectTrap(host) {
	const requests = [];
	const server = http.createServer((req, res) => {
		const url = new URL(req.url, 'http://trap.invalid');
		req.resume();
		req.on('end', () => {
			requests.push({
				at: new Date().toISOString(),
				method: req.method,
				path: url.pathname,
				headers: Object.keys(req.headers).sort(),
				carriedCredential: credentialOf(req, url),
			});
			// What a careless client would take for a created payout.
			const body = JSON.stringify({ id: 'po_redirected', status: 'success', redirected: true });
			res.writeHead(200, {
				'Content-Type': 'application/json',
				'Content-Length': Buffer.byteLength(body),
			});
			res.end(body);
		});
	});
	await new Promise((resolveListen, reject) => {
		server.once('error', reject);
		server.listen(0, host, () => resolveListen());
	});
	const { port } = server.address();
	return {
		url: `http://${host}:${port}`,
		requests,
		close: () =>
			new Promise((r) => {
				server.close(() => r());
				server.closeAllConnections();
			}),
	};
}

function externalIdOf(raw) {
	if (!raw.length) return null;
	try {
		const body = JSON.parse(raw.toString('utf8'));
		return typeof body?.externalId === 'string' ? body.externalId : null;
	} catch {
		return null;
	}
}

const sha = (raw) => createHash('sha256').update(raw).digest('hex').slice(0, 16);

/**
 * The generated mode of one sandbox. `sb` is the sandbox's internal state holder; the mode
 * reads and changes `sb.state` (arrivals and departures) and answers requests itself where a
 * fault, a redirect or a new envelope is drawn.
 */
export async function createGenerated(sb, seed, { host = '127.0.0.1' } = {}) {
	const choices = drawChoices(seed);
	const trap = await startRedirectTrap(host === '::1' ? '::1' : '127.0.0.1');
	const streams = new Map();
	const stream = (name) => {
		let s = streams.get(name);
		if (!s) streams.set(name, (s = drawStream(seed, name)));
		return s;
	};
	const draws = [];
	const requests = [];
	const churn = [];
	const hidden = new Set();
	const routeCounts = new Map();
	let seq = 0;
	let burstLeft = 0;
	let arrivalsMade = 0;
	const paused = { churn: false, faults: false };

	const log = (entry) => {
		const record = { seq: ++seq, at: new Date().toISOString(), ...entry };
		draws.push(record);
		return record;
	};
	const money = createMoney(sb, choices.money, stream, log);

	/** Records of a churn list for a company, in storage (creation) order, hidden ones included. */
	const stored = (pattern, companyId) => {
		if (pattern === '/payouts')
			return [...sb.state.payouts.values()].filter((p) => p.companyId === companyId);
		if (pattern === '/wallets/deposits')
			return sb.state.deposits.filter((d) => d.companyId === companyId);
		if (pattern === '/orders')
			return [...sb.state.orders.values()].filter((o) => o.companyId === companyId);
		if (pattern === '/cards')
			return [...sb.state.cards.values()].filter((c) => c.companyId === companyId);
		return null;
	};

	const arrive = (pattern, company, by) => {
		const now = sb.clock.iso();
		const n = ++arrivalsMade;
		let id;
		if (pattern === '/payouts') {
			const amountRub = 1000 + (n % 20) * 50;
			const status = stream('arrival:/payouts').pick(['waiting_trader', 'in_progress', 'success']);
			const payout = placedPayout(sb, company, {
				externalId: `arrival-${n}`,
				amountRub,
				status,
				at: now,
			});
			id = payout.id;
			sb.state.payouts.set(id, { ...payout, arrived: true });
		} else if (pattern === '/wallets/deposits') {
			const deposit = newDeposit(sb, company, {
				amount: 20 + n,
				fromAddress: tronAddressFrom(`arrival:${n}`),
			});
			id = deposit.id;
			// The company's wallet is not created here: an arrival leaves the wallet state alone.
			sb.state.deposits.push({
				...deposit,
				walletAddress: company.wallet?.address ?? tronAddressFrom(`wallet:${company.id}`),
				fee: 0,
				creditedAmount: 0,
				arrived: true,
			});
		} else {
			return null;
		}
		const entry = { seq: ++seq, list: pattern, kind: 'arrive', id, by };
		churn.push(entry);
		return entry;
	};

	const leave = (pattern, company, offset, r, by) => {
		const visible = stored(pattern, company.id).filter((x) => !hidden.has(x.id));
		if (visible.length === 0) return null;
		const order = choices.lists[pattern].order;
		const inOrder =
			order === 'oldest'
				? visible
				: order === 'unordered'
					? inUnorderedOrder(seed, visible)
					: [...visible].reverse();
		// Half the time a record already served (before `offset`): that is what shifts offsets.
		const pool = offset > 0 && r.chance(0.5) ? inOrder.slice(0, offset) : inOrder;
		const victim = pool[Math.floor(r.next() * pool.length)];
		hidden.add(victim.id);
		const entry = { seq: ++seq, list: pattern, kind: 'leave', id: victim.id, by };
		churn.push(entry);
		return entry;
	};

	/**
	 * The drawn service ignores every query parameter the document does not show for the list:
	 * the handler sees only the shown ones (and paging). Played while faults are not paused.
	 */
	const playQuery = (pattern, ctx) => {
		const answer = choices.answers.lists[pattern];
		if (!answer?.ignoresQuery || paused.faults) return;
		const shown = new Set([...LIST_ANSWERS[pattern].shown, ...ALWAYS_HONOURED]);
		const kept = new URLSearchParams();
		const ignored = [];
		for (const [name, value] of ctx.query) {
			if (shown.has(name)) kept.append(name, value);
			else ignored.push(name);
		}
		if (ignored.length === 0) return;
		ctx.query = kept;
		log({ kind: 'ignoredQuery', route: `GET ${pattern}`, ignored });
	};

	/** Records arrive and leave before a page of a churn list is served. */
	const churnBefore = (pattern, ctx) => {
		playQuery(pattern, ctx);
		const list = choices.lists[pattern];
		if (!GENERATED_LISTS[pattern]?.churn || paused.churn || !ctx.company) return;
		const offset = Number(ctx.query.get('offset') ?? 0) || 0;
		const r = stream(`churn:${pattern}`);
		const arriving = list.arrivals > 0 && r.chance(list.arrivals) ? r.int(1, 2) : 0;
		const leaving = list.departures > 0 && r.chance(list.departures) ? 1 : 0;
		const ids = { arrived: [], left: [] };
		for (let i = 0; i < arriving; i++) ids.arrived.push(arrive(pattern, ctx.company, 'list').id);
		for (let i = 0; i < leaving; i++) {
			const gone = leave(pattern, ctx.company, offset, r, 'list');
			if (gone) ids.left.push(gone.id);
		}
		if (ids.arrived.length || ids.left.length) {
			log({ kind: 'churn', route: `GET ${pattern}`, offset, ...ids });
		}
	};

	/** The drawn service names its records' ID the event's way (`depositId` instead of `id`). */
	const eventIds = (pattern, records) => {
		const idField = choices.answers.lists[pattern]?.idField ?? 'id';
		if (idField === 'id' || paused.faults) return records;
		return records.map((record) => {
			if (record === null || typeof record !== 'object' || !('id' in record)) return record;
			const { id, ...rest } = record;
			return { [idField]: id, ...rest };
		});
	};

	const retryAfterValue = (rate) =>
		rate.retryAfter === 'date'
			? new Date(Date.now() + rate.seconds * 1000).toUTCString()
			: String(rate.seconds);

	return {
		seed: String(seed),
		choices,
		paused,
		hidden,
		trap,
		/** The money silences (lib/generatedMoney.mjs): play(true), then reset. */
		money,
		get seq() {
			return seq;
		},

		/** Records in this seed's unordered arrangement (lists drawn `order: 'unordered'`). */
		unordered: (records) => inUnorderedOrder(seed, records),

		/** The list choices in force for a route pattern, or null when the route is not a generated list. */
		listFor(method, pattern) {
			return method === 'GET' ? (choices.lists[pattern] ?? null) : null;
		},

		/**
		 * Before a public request is handled: logs it, and decides whether the drawn redirect, a 429
		 * burst or a 502 (not processed) answers it instead. Returns `{ respond }` for those, or
		 * `{ afterCommit }` (a 502, 504, HTML page or closed connection) when that replaces the
		 * answer after the service acted.
		 */
		before(req, url, pattern, raw) {
			const route = `${req.method} ${pattern}`;
			const record = {
				seq: ++seq,
				at: new Date().toISOString(),
				method: req.method,
				path: url.pathname,
				route,
				offset: url.searchParams.get('offset'),
				limit: url.searchParams.get('limit'),
				idempotencyKey: req.headers['idempotency-key'] ?? null,
				bodyHash: raw.length ? sha(raw) : null,
				// The body's externalId, so a test can tell one call (and its retries) from another.
				externalId: externalIdOf(raw),
				answer: null,
			};
			requests.push(record);
			const count = (routeCounts.get(route) ?? 0) + 1;
			routeCounts.set(route, count);
			const lostMoney = money.lose(route);
			if (lostMoney) {
				record.answer = `${lostMoney.form}${lostMoney.processed ? ' after processing' : ''}`;
				// A 4xx with a code the document does not list (unlistedCode), named on the request.
				if (lostMoney.unlisted) record.unlistedCode = lostMoney.unlisted;
				// A drawn error body of the service itself (errorAfterActing) is no gateway's page.
				const raw = lostMoney.raw ?? money.gatewayPage(lostAnswerOf(lostMoney.form));
				return lostMoney.processed ? { record, afterCommit: raw } : { record, respond: raw };
			}
			if (paused.faults) return { record };
			const redirect = choices.redirect;
			if (redirect && redirect.route === route && redirect.nth === count) {
				const location = `${trap.url}${url.pathname}${url.search}`;
				log({ kind: 'redirect', route, status: redirect.status, location, request: record.seq });
				record.answer = `redirect ${redirect.status}`;
				return {
					record,
					respond: {
						status: redirect.status,
						headers: { Location: location, 'Content-Type': 'text/plain; charset=utf-8' },
						text: `Moved to ${location}`,
					},
				};
			}
			const r = stream(`fault:${route}`);
			const rate = choices.rateLimit;
			if (rate && (burstLeft > 0 || r.chance(rate.chance))) {
				if (burstLeft === 0) burstLeft = rate.burst;
				burstLeft -= 1;
				const retryAfter = retryAfterValue(rate);
				log({ kind: '429', route, retryAfter, burstLeft, request: record.seq });
				record.answer = '429';
				return { record, rateLimited: { retryAfter } };
			}
			const proxy = choices.proxy502;
			if (proxy && r.chance(proxy.chance)) {
				log({ kind: '502', route, processed: proxy.processed, request: record.seq });
				record.answer = proxy.processed ? '502 after processing' : '502';
				const respond = {
					status: 502,
					headers: { 'Content-Type': 'text/html' },
					text: PROXY_502_HTML,
				};
				return proxy.processed ? { record, afterCommit: respond } : { record, respond };
			}
			const lostAnswer = choices.lostAnswer;
			if (lostAnswer && req.method !== 'GET') {
				// Its own stream per route: the 429 and 502 draws above are unchanged.
				const l = stream(`lost:${route}`);
				if (l.chance(lostAnswer.chance)) {
					const form = l.pick(LOST_FORMS);
					log({ kind: 'lost', route, form, request: record.seq });
					record.answer = `${form} after processing`;
					return { record, afterCommit: lostAnswerOf(form) };
				}
			}
			return { record };
		},

		churnBefore,

		/** Rewrites a list answer into the drawn envelope. `meta.total` is the list's total. */
		envelope(pattern, answered, total) {
			const list = choices.lists[pattern];
			const records = eventIds(pattern, money.listed(pattern, answered));
			if (list.shape === 'bare') return records;
			const body = { [list.itemsKey]: records };
			if (list.totalKey) body[list.totalKey] = total;
			if (list.count === 'page') body.count = records.length;
			if (list.count === 'total') body.count = total;
			return body;
		},

		/** A dispute's reason as the drawn service stores it: as sent, or normalised. */
		disputeReason(text) {
			return choices.answers.disputeReason === 'normalised' && !paused.faults
				? normaliseReason(text)
				: text;
		},

		/** A 502 as an nginx in front of the service would answer it. */
		html502: PROXY_502_HTML,

		/** Makes `count` records arrive on a churn list now (the outside world, not a list read). */
		arriveNow(pattern, company, count) {
			const ids = [];
			for (let i = 0; i < count; i++) {
				const entry = arrive(pattern, company, 'control');
				if (!entry) return null;
				ids.push(entry.id);
			}
			log({ kind: 'churn', route: `GET ${pattern}`, by: 'control', arrived: ids, left: [] });
			return ids;
		},

		/**
		 * Ground truth of a list for a company: the ids a complete read would return now (hidden
		 * ones left out), in storage order, with the sequence number they hold at.
		 */
		truth(pattern, companyId) {
			const all = stored(pattern, companyId);
			if (!all) return null;
			return { seq, list: pattern, ids: all.filter((x) => !hidden.has(x.id)).map((x) => x.id) };
		},

		log: (since = 0) => ({
			seed: String(seed),
			seq,
			paused: { ...paused },
			choices,
			draws: draws.filter((d) => d.seq > since),
			churn: churn.filter((c) => c.seq > since),
			requests: requests.filter((q) => q.seq > since),
			redirectTarget: { url: trap.url, requests: [...trap.requests] },
		}),

		/** Clears what the last state held (arrivals, departures, counters); choices stay. */
		reset() {
			hidden.clear();
			routeCounts.clear();
			burstLeft = 0;
			streams.clear();
			draws.length = 0;
			requests.length = 0;
			churn.length = 0;
			arrivalsMade = 0;
			trap.requests.length = 0;
			money.reset();
		},

		close: () => trap.close(),
	};
}

// Data dimensions (issue 50: extra secret fields, numbers past 2^53, escaped secrets, states
// visited twice, a key regeneration mid-stream), drawn per seed in their own module.
export { drawDataDimensions, generatedData } from './generatedData.mjs';
