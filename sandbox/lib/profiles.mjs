// Profiles: the sandbox's answers to questions the contract leaves open ("not shown"). A real
// service may answer any of them either way, so tests can run a client against several
// profiles and see where it relies on one answer. Chosen per start (option `profile`, CLI
// `--profile`) and switchable at runtime (POST /__control/profile); a reset keeps the profile.
import { validationError } from './errors.mjs';
import { MAX_ACCEPTED_LIMIT } from './util.mjs';

/** Every open choice, with the values the sandbox can play. */
export const CHOICES = Object.freeze({
	/** Records a list page holds at most. A larger accepted `limit` is cut to it silently. */
	pageCap: 'integer 1..10000',
	/**
	 * The largest `limit` a list accepts; a larger one is a 400 VALIDATION_ERROR naming `limit`.
	 * Not in the named profiles, which keep 100 (the sandbox's refusal of a larger page).
	 */
	maxLimit: 'integer 1..10000 (unset: 100)',
	/** Whether that refusal names the largest size in `details.max`, or only in its message. */
	limitRefusal: ['message', 'details'],
	/** Envelope lists carry `total` (true) or only the records (false). */
	listTotal: [true, false],
	/** GET/PATCH /auth/company/profile and login show `webhookSecret` masked or in full. */
	profileSecret: ['masked', 'full'],
	/**
	 * What an Idempotency-Key is unique within: the operation (accept, card request, recharge,
	 * payout create), the method and path (accept of another quote is another request), or the
	 * whole company (one key, one stored answer, whatever the endpoint).
	 */
	idempotencyScope: ['operation', 'path', 'company'],
	/** Whether a failure the operation answered (4xx) is stored under the key and replayed. */
	idempotencyStoresFailures: [false, true],
	/** POST /auth/company/login sent with a revoked or unknown key: accepted, or 401 INVALID_API_KEY. */
	staleKeyLogin: ['accept', 'reject'],
	/**
	 * Order of the lists whose order the contract does not show (all but GET /disputes, which
	 * it states newest first): newest first, or oldest first.
	 */
	listOrder: ['newest', 'oldest'],
	/**
	 * Whether a payout charged again after a refund (payout.recharged) keeps its `refundedAt`
	 * (and so `refunded: true` in its webhook bodies), or has it cleared.
	 */
	rechargeKeepsRefundedAt: [false, true],
	/**
	 * Which fields GET /payouts shows of each payout (the listing is not shown): all of a payout's
	 * (`full`), or none of its amounts (`noAmounts`: no amountRub, chargedUsdt, rate; GET
	 * /payouts/{id} still shows them). Not in the named profiles (unset: `full`).
	 */
	payoutListing: ['full', 'noAmounts'],
	/**
	 * How payouts show their `requisite` (a string, its form not shown): as sent (`full`), or
	 * masked (`masked`: a card as 220070******5678, a phone as +7 999 ***-**-67), in every answer.
	 * Not in the named profiles (unset: `full`).
	 */
	payoutRequisite: ['full', 'masked'],
	/**
	 * Which times payouts show (the document: webhook bodies `updatedAt`, the Payout record
	 * `refundedAt`, each not the other's): as documented (`documented`), or each side also the
	 * other's (`sharedTimes`: the Payout record shows `updatedAt`, payout events carry
	 * `refundedAt`). Not in the named profiles (unset: `documented`).
	 */
	repeatTransitions: ['documented', 'sharedTimes'],
	/**
	 * Which field of GET /auth/company/profile names the company (its fields are not shown): `id`,
	 * `companyId`, or none (`none`: the poll trigger cannot tell a new credential's company).
	 * Not in the named profiles (unset: `id`).
	 */
	profileCompanyId: ['id', 'companyId', 'none'],
	/**
	 * How POST /members/invites answers (the document: "an invite with a url", its envelope not
	 * shown): the invite itself (`bare`), or wrapped under its name (`wrapped`: `{"invite":{…}}`).
	 * Not in the named profiles (unset: `bare`).
	 */
	inviteAnswer: ['bare', 'wrapped'],
	/**
	 * Whether an answer that is one record comes wrapped (outside read r16-data, findings 3 and
	 * 4; envelopes not shown): GET /cards/{id}/sensitive and POST /auth/company/webhook-secret/rotate
	 * answer the record itself (`bare`) or under `data` (`data`: `{"data":{…}}`). Not in the named
	 * profiles (unset: `bare`).
	 */
	recordEnvelope: ['bare', 'data'],
	/**
	 * Whether an answer whose fields are not shown is a record or a bare JSON value (outside read
	 * r16-data, findings 4 to 6): `record`, or `value`: GET /wallets answers the address as a JSON
	 * text, POST /user-wallets/{id}/block answers `true`, GET /user-wallets/blocked lists the
	 * wallets' IDs as texts, POST /auth/company/webhook-secret/rotate answers the new secret as a
	 * JSON text. Not in the named profiles (unset: `record`).
	 */
	valueAnswer: ['record', 'value'],
	/**
	 * How a money write the service carried out answers (the recharge's answer is not shown; an
	 * accept that fails at once is not shown): with its record as it stands (`record`), with the
	 * record in status `failed` (`failed`: a recharge whose debit is kept though the card was not
	 * loaded; an order failed at once, its reserve released; a payout failed at once after
	 * Payout Create, charged, no refundedAt; a Payout Cancel answered 200 with the payout the
	 * executor declined just before it), or, for Card Recharge, with 202
	 * `{"status":"accepted"}` and no record (`accepted`), or, for Accept Quote and Pay QR Code, with
	 * the order made but answered in a status the document does not list (`unlisted`: `cancelled`;
	 * a recharge made and answered `on_hold`; outside r23-money). Not in the named profiles (unset:
	 * `record`).
	 */
	writeAnswer: ['record', 'failed', 'accepted', 'unlisted'],
});

const DEFAULT = Object.freeze({
	pageCap: 100,
	listTotal: true,
	profileSecret: 'masked',
	idempotencyScope: 'operation',
	idempotencyStoresFailures: false,
	staleKeyLogin: 'accept',
	listOrder: 'newest',
	rechargeKeepsRefundedAt: false,
});

/**
 * Named profiles. `contrary` answers every choice otherwise than `default`, and otherwise than
 * `cap50` too, so a client run against two of them meets both answers of every choice.
 */
export const PROFILES = Object.freeze({
	default: DEFAULT,
	contrary: Object.freeze({
		pageCap: 25,
		listTotal: false,
		profileSecret: 'full',
		idempotencyScope: 'company',
		idempotencyStoresFailures: true,
		staleKeyLogin: 'reject',
		listOrder: 'oldest',
		rechargeKeepsRefundedAt: true,
	}),
	cap50: Object.freeze({
		pageCap: 50,
		listTotal: true,
		profileSecret: 'masked',
		idempotencyScope: 'path',
		idempotencyStoresFailures: false,
		staleKeyLogin: 'accept',
		listOrder: 'newest',
		rechargeKeepsRefundedAt: false,
	}),
});

/**
 * Resolves a profile: a name, or an object of choices (optionally `{ name, ...overrides }`),
 * over the default. Throws VALIDATION_ERROR naming each bad choice.
 * @returns {{ name: string } & typeof DEFAULT}
 */
export function resolveProfile(input = 'default') {
	const spec = typeof input === 'string' ? { name: input } : { ...input };
	const name = spec.name ?? 'custom';
	const problems = [];
	let base = DEFAULT;
	if (spec.name !== undefined) {
		if (!Object.hasOwn(PROFILES, spec.name)) {
			problems.push(`profile должен быть одним из: ${Object.keys(PROFILES).join(', ')}`);
		} else base = PROFILES[spec.name];
	}
	delete spec.name;
	const out = { ...base };
	for (const [key, value] of Object.entries(spec)) {
		if (!Object.hasOwn(CHOICES, key)) {
			problems.push(`неизвестный выбор профиля: ${key}`);
		} else if (key === 'pageCap' || key === 'maxLimit') {
			if (!Number.isInteger(value) || value < 1 || value > MAX_ACCEPTED_LIMIT)
				problems.push(`${key} должен быть целым числом от 1 до ${MAX_ACCEPTED_LIMIT}`);
			else out[key] = value;
		} else if (!CHOICES[key].includes(value)) {
			problems.push(`${key} должен быть одним из: ${CHOICES[key].join(', ')}`);
		} else out[key] = value;
	}
	if (problems.length) throw validationError(problems);
	const customised = Object.keys(spec).length > 0;
	return { name: customised && name !== 'custom' ? `${name}+custom` : name, ...out };
}
