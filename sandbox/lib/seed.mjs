// The sandbox's initial state: "Demo Co" with 1000 USDT, deterministic keys, members,
// cards in stock, 250 company deposits, user wallets with deposits, and a little history
// (orders, a dispute, payouts, a card). A second company exists for isolation checks.
import { addApiKey } from './auth.mjs';
import { requestCard, rechargeCard } from './cards.mjs';
import { openDispute, resolveDispute } from './disputes.mjs';
import { seededIds } from './ids.mjs';
import { credit, debit } from './ledger.mjs';
import { acceptQuote, createQuote, setOrderStatus } from './orders.mjs';
import { bulkPayouts, createPayout, setPayoutStatus } from './payouts.mjs';
import { addMember, hashPassword } from './team.mjs';
import { round2, tronAddressFrom } from './util.mjs';
import {
	getOrCreateCompanyWallet,
	getOrCreateUserWallet,
	replaceUserWallet,
	simulateDeposit,
} from './wallets.mjs';

/** Deterministic credentials; tests and the demo import these. */
export const SANDBOX_KEYS = Object.freeze({
	legacy: 'sk_sandbox_legacy_5f3a9c1e7b2d4a68',
	owner: 'sk_sandbox_owner_8c2e6a4f1d9b3e57',
	admin: 'sk_sandbox_admin_2b7d5f9a3c1e8d46',
	readOnly: 'sk_sandbox_readonly_9e4c1a7f5b3d2c80',
	otherCompany: 'sk_sandbox_legacy_other_6d1f8b3a9e5c7a24',
});

export const SANDBOX_COMPANY = Object.freeze({
	id: 'cmp_demo',
	name: 'Demo Co',
	email: 'finance@demo-co.example',
	password: 'sandbox-password',
});

export const SANDBOX_MEMBERS = Object.freeze({
	owner: { userId: 'usr_demo_owner', email: 'owner@demo-co.example', role: 'owner' },
	admin: { userId: 'usr_demo_admin', email: 'admin@demo-co.example', role: 'admin' },
	readOnly: {
		userId: 'usr_demo_reader',
		email: 'reader@demo-co.example',
		role: 'member',
		permissions: ['orders.read'],
	},
});

export const DEFAULT_SEED = Object.freeze({
	balanceUsdt: 1000,
	cardStock: 3,
	companyDeposits: 250,
	history: true,
	payouts: 0,
});

/**
 * The fault settings with nothing injected, and the defaults of POST /__control/faults: the
 * status of an injected fault and the Retry-After (seconds, as sent) of an injected 429 or 503.
 */
export const NO_FAULTS = Object.freeze({
	rejectRequests: 0,
	dropResponses: 0,
	status: 503,
	pathPrefix: null,
	latencyMs: 0,
	retryAfter: '1',
	ignoreIdempotencyKeys: false,
});

export function emptyState() {
	return {
		companies: new Map(),
		apiKeys: new Map(),
		sessions: new Map(),
		members: new Map(),
		invites: new Map(),
		quotes: new Map(),
		orders: new Map(),
		disputes: new Map(),
		deposits: [],
		userWallets: new Map(),
		userDeposits: [],
		balanceHistory: [],
		cards: new Map(),
		cardRequests: new Map(),
		cardStock: 0,
		recharges: new Map(),
		payouts: new Map(),
		idempotency: new Map(),
		sensitiveReveals: [],
		events: [],
		deliveries: [],
		faults: { ...NO_FAULTS },
	};
}

function addCompany(sb, { id, name, email, password, key }) {
	const company = {
		id,
		name,
		email,
		passwordHash: hashPassword(password),
		active: true,
		cardsEnabled: true,
		cardsTestMode: false,
		webhookUrl: null,
		webhookSecret: null,
		usdtBalance: 0,
		frozenBalance: 0,
		wallet: null,
		createdAt: sb.clock.iso(),
	};
	sb.state.companies.set(id, company);
	addApiKey(sb, { key, companyId: id });
	return company;
}

const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;

/** Builds a fresh state on `sb` (sb.state is replaced). */
export function seedState(sb, seedOption = true) {
	const seed =
		seedOption === false
			? { ...DEFAULT_SEED, history: false }
			: { ...DEFAULT_SEED, ...(seedOption === true ? {} : seedOption) };
	const runtimeIds = sb.ids;
	sb.ids = seededIds(20260101);
	sb.state = emptyState();
	// Seed history happens "in the past": shift the clock back and walk forward.
	sb.clock.advance(-45 * DAY);
	try {
		const demo = addCompany(sb, { ...SANDBOX_COMPANY, key: SANDBOX_KEYS.legacy });
		addMember(sb, demo, {
			...SANDBOX_MEMBERS.owner,
			apiKey: SANDBOX_KEYS.owner,
			password: 'owner-password',
		});
		addMember(sb, demo, {
			...SANDBOX_MEMBERS.admin,
			apiKey: SANDBOX_KEYS.admin,
			password: 'admin-password',
		});
		addMember(sb, demo, {
			...SANDBOX_MEMBERS.readOnly,
			apiKey: SANDBOX_KEYS.readOnly,
			password: 'reader-password',
		});
		const other = addCompany(sb, {
			id: 'cmp_other',
			name: 'Other Co',
			email: 'finance@other-co.example',
			password: 'other-password',
			key: SANDBOX_KEYS.otherCompany,
		});
		credit(sb, other, 100, 'opening_balance', null);
		// The seeded history needs some funds to spend whatever the target balance is.
		credit(
			sb,
			demo,
			seed.history ? Math.max(seed.balanceUsdt, 1000) : seed.balanceUsdt,
			'opening_balance',
			null,
		);

		if (seed.history) seedHistory(sb, demo, seed);

		// Whatever the history spent, Demo Co starts at exactly the configured balance.
		const diff = round2(seed.balanceUsdt - demo.usdtBalance);
		if (diff > 0) credit(sb, demo, diff, 'adjustment', null);
		if (diff < 0) debit(sb, demo, -diff, 'adjustment', null, { checkAvailable: false });
		sb.state.cardStock = seed.cardStock;
		sb.state.events = [];
	} finally {
		sb.clock.resetOffset();
		sb.ids = runtimeIds;
	}
	// Extra payouts as recent history (no money, no events), e.g. a benchmark's window of 10,000.
	if (seed.payouts > 0) bulkPayouts(sb, sb.state.companies.get(SANDBOX_COMPANY.id), seed.payouts);
	return sb.state;
}

function seedHistory(sb, demo, seed) {
	getOrCreateCompanyWallet(sb, demo);
	seedCompanyDeposits(sb, demo, seed.companyDeposits);
	sb.clock.advance(DAY);

	const qr = {
		nspk: (kopecks, code) =>
			`https://qr.nspk.ru/${code}?type=02&bank=100000000111&sum=${kopecks}&cur=RUB&crc=AB12`,
		st: (kopecks) =>
			`ST00012|Name=ООО «Управляющая компания»|PersonalAcc=40702810900000000001|BankName=ПАО Банк|BIC=044525225|CorrespAcc=30101810400000000225|Sum=${kopecks}|Purpose=Оплата ЖКУ`,
	};
	const order = (qrCode, externalOrderId, finalStatus) => {
		const quote = createQuote(sb, demo, { qrCode, externalOrderId });
		const o = acceptQuote(sb, demo, quote.id);
		sb.clock.advance(2 * 60 * 1000);
		setOrderStatus(sb, o, 'in_progress');
		sb.clock.advance(3 * 60 * 1000);
		setOrderStatus(sb, o, finalStatus);
		sb.clock.advance(6 * HOUR);
		return o;
	};
	order(qr.nspk(150000, 'AS1000A1B2C3D4E5F6'), 'demo-order-1001', 'success');
	order(qr.st(320000), 'demo-order-1002', 'success');
	order('18810177240000123456', 'demo-order-1003', 'success');
	order(qr.nspk(99000, 'AS2000B2C3D4E5F6A7'), 'demo-order-1004', 'failed');
	const refunded = order(qr.nspk(250000, 'AS3000C3D4E5F6A7B8'), 'demo-order-1005', 'success');
	const disputed = order(qr.st(480000), 'demo-order-1006', 'success');
	resolveDispute(sb, openDispute(sb, refunded, 'Услуга не оказана').dispute, {
		resolution: 'refund',
		adminComment: 'Возврат подтверждён',
	});
	sb.clock.advance(HOUR);
	openDispute(sb, disputed, 'Платёж прошёл дважды');
	sb.clock.advance(DAY);

	const p1 = createPayout(sb, demo, {
		externalId: 'demo-payout-1',
		amountRub: 5000,
		requisiteType: 'card',
		requisite: '2200700012345678',
		bankId: 'tbank',
		recipientFirstName: 'Иван',
		recipientLastName: 'Петров',
	});
	sb.clock.advance(10 * 60 * 1000);
	setPayoutStatus(sb, p1, { status: 'in_progress' });
	sb.clock.advance(10 * 60 * 1000);
	setPayoutStatus(sb, p1, { status: 'success' });
	sb.clock.advance(HOUR);
	const p2 = createPayout(sb, demo, {
		externalId: 'demo-payout-2',
		amountRub: 12000,
		requisiteType: 'phone',
		requisite: '+79001234567',
		bankId: 'sber',
		recipientFirstName: 'Анна',
		recipientLastName: 'Смирнова',
	});
	sb.clock.advance(30 * 60 * 1000);
	setPayoutStatus(sb, p2, {
		status: 'fail',
		failReason: 'trader_declined',
		comment: 'Трейдер отклонил выплату',
	});
	sb.clock.advance(DAY);
	createPayout(sb, demo, {
		externalId: 'demo-payout-3',
		amountRub: 3000,
		requisiteType: 'card',
		requisite: '2200700087654321',
		bankId: null,
		recipientFirstName: null,
		recipientLastName: null,
	});

	sb.clock.advance(DAY);
	sb.state.cardStock = 1;
	const { body } = requestCard(sb, demo, { externalId: 'demo-card-001' });
	const card = sb.state.cards.get(body.card.id);
	sb.clock.advance(HOUR);
	rechargeCard(sb, demo, card, 50);

	sb.clock.advance(DAY);
	simulateDeposit(sb, demo, { externalId: 'user-1001', amount: 100, aml: 'pass' });
	sb.clock.advance(HOUR);
	simulateDeposit(sb, demo, { externalId: 'user-1001', amount: 40, aml: 'fail' });
	sb.clock.advance(HOUR);
	simulateDeposit(sb, demo, { externalId: 'user-1002', amount: 250, aml: 'pass' });
	// Records in legacy statuses, as older deposits look.
	const legacyWallet = getOrCreateUserWallet(sb, demo, 'user-1002').wallet;
	for (const status of ['aml_pass', 'sweeping']) {
		sb.clock.advance(HOUR);
		const now = sb.clock.iso();
		sb.state.userDeposits.push({
			id: sb.ids.uuid(),
			companyId: demo.id,
			walletId: legacyWallet.id,
			externalId: 'user-1002',
			walletAddress: legacyWallet.address,
			txHash: sb.ids.hex(32),
			fromAddress: null,
			amount: 15,
			status,
			amlCheckId: `aml_${sb.ids.hex(6)}`,
			amlRiskIndicator: 'low',
			sweepTxHash: null,
			error: null,
			blockTimestamp: null,
			createdAt: now,
		});
	}
	sb.clock.advance(HOUR);
	const old = getOrCreateUserWallet(sb, demo, 'user-1003').wallet;
	sb.clock.advance(HOUR);
	replaceUserWallet(sb, demo, old);
}

function seedCompanyDeposits(sb, company, count) {
	const start = sb.clock.now();
	const statuses = (i) => {
		if (i === count - 1) return 'new';
		if (i === count - 2) return 'aml_pending';
		if (i === count - 3) return 'forwarding';
		if (i % 25 === 0) return 'aml_failed';
		if (i % 50 === 7) return 'failed';
		return 'completed';
	};
	for (let i = 0; i < count; i++) {
		const at = new Date(start + i * 3 * HOUR).toISOString();
		const status = statuses(i);
		const amount = round2(50 + ((i * 37) % 950) + (i % 7) / 10);
		const ok = status === 'completed' || status === 'forwarding';
		sb.state.deposits.push({
			id: sb.ids.uuid(),
			companyId: company.id,
			txHash: sb.ids.hex(32),
			walletAddress: company.wallet.address,
			fromAddress: tronAddressFrom(`seed-sender:${i % 9}`),
			amount,
			fee: ok ? 1 : 0,
			creditedAmount: status === 'completed' ? round2(amount - 1) : 0,
			status,
			amlCheckId: status === 'new' ? null : `aml_${sb.ids.hex(6)}`,
			amlRiskIndicator:
				status === 'aml_failed'
					? 'high'
					: status === 'new' || status === 'aml_pending'
						? null
						: 'low',
			sweepTxHash: status === 'completed' ? sb.ids.hex(32) : null,
			error:
				status === 'aml_failed'
					? 'AML: высокий риск источника средств'
					: status === 'failed'
						? 'Ошибка перевода на казначейский адрес'
						: null,
			blockTimestamp: at,
			createdAt: at,
			updatedAt: at,
		});
	}
	sb.clock.advance(count * 3 * HOUR);
}
