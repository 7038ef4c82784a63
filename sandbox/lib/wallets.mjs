// The company deposit wallet, its deposits and balance history, and per-user wallets with
// their deposits. Deposits arrive only through the control API (standing in for the chain).
import { apiError, validationError } from './errors.mjs';
import { balanceView, credit } from './ledger.mjs';
import { companyListPage, inListOrder, round2, tronAddressFrom } from './util.mjs';

export const COMPANY_DEPOSIT_STATUSES = [
	'new',
	'fee_charged',
	'aml_pending',
	'aml_passed',
	'aml_failed',
	'forwarding',
	'completed',
	'failed',
];
export const USER_DEPOSIT_STATUSES = [
	'new',
	'aml_pending',
	'aml_pass',
	'aml_fail',
	'aml_passed',
	'aml_failed',
	'sweeping',
	'completed',
	'failed',
];
const EXTERNAL_ID_RE = /^[\x21-\x7e]{1,128}$/;

// ---- company wallet ---------------------------------------------------------------------

export function getOrCreateCompanyWallet(sb, company) {
	if (!company.wallet) {
		company.wallet = {
			address: tronAddressFrom(`company-wallet:${company.id}`),
			network: 'TRON',
			token: 'USDT',
			createdAt: sb.clock.iso(),
		};
	}
	return company.wallet;
}

export function presentCompanyDeposit(d) {
	return {
		id: d.id,
		txHash: d.txHash,
		walletAddress: d.walletAddress,
		fromAddress: d.fromAddress,
		amount: d.amount,
		fee: d.fee,
		creditedAmount: d.creditedAmount,
		tokenSymbol: 'USDT',
		network: 'TRON',
		status: d.status,
		amlCheckId: d.amlCheckId,
		amlRiskIndicator: d.amlRiskIndicator,
		sweepTxHash: d.sweepTxHash,
		error: d.error,
		blockTimestamp: d.blockTimestamp,
		createdAt: d.createdAt,
		updatedAt: d.updatedAt,
	};
}

// ---- user wallets -------------------------------------------------------------------------

export function presentUserWallet(w) {
	return {
		id: w.id,
		externalId: w.externalId,
		address: w.address,
		status: w.status,
		blockedAt: w.blockedAt,
		replacedById: w.replacedById,
		createdAt: w.createdAt,
	};
}

/** Exactly the contract's User-wallet deposit fields. */
export function presentUserDeposit(d) {
	return {
		id: d.id,
		companyId: d.companyId,
		walletId: d.walletId,
		externalId: d.externalId,
		walletAddress: d.walletAddress,
		txHash: d.txHash,
		fromAddress: d.fromAddress,
		amount: d.amount,
		status: d.status,
		amlCheckId: d.amlCheckId,
		amlRiskIndicator: d.amlRiskIndicator,
		sweepTxHash: d.sweepTxHash,
		error: d.error,
		blockTimestamp: d.blockTimestamp,
		createdAt: d.createdAt,
	};
}

function newUserWallet(sb, company, externalId) {
	const id = sb.ids.uuid();
	const wallet = {
		id,
		companyId: company.id,
		externalId,
		address: tronAddressFrom(`user-wallet:${id}`),
		status: 'active',
		blockedAt: null,
		replacedById: null,
		createdAt: sb.clock.iso(),
	};
	sb.state.userWallets.set(id, wallet);
	return wallet;
}

/** The newest wallet for an externalId (the active one after a replace). */
export function latestUserWallet(sb, company, externalId) {
	let found = null;
	for (const w of sb.state.userWallets.values()) {
		if (w.companyId === company.id && w.externalId === externalId) found = w;
	}
	return found;
}

export function getOrCreateUserWallet(sb, company, externalId) {
	const existing = latestUserWallet(sb, company, externalId);
	if (existing) return { wallet: existing, created: false };
	return { wallet: newUserWallet(sb, company, externalId), created: true };
}

function findUserWallet(sb, company, walletId) {
	const wallet = sb.state.userWallets.get(walletId);
	if (!wallet || wallet.companyId !== company.id)
		throw apiError(404, 'NOT_FOUND', 'Кошелёк пользователя не найден');
	return wallet;
}

function blockWallet(sb, wallet) {
	if (wallet.status !== 'blocked') {
		wallet.status = 'blocked';
		wallet.blockedAt = sb.clock.iso();
	}
	return wallet;
}

export function replaceUserWallet(sb, company, wallet) {
	if (wallet.replacedById) {
		throw apiError(409, 'CONFLICT', 'Кошелёк уже заменён', {
			details: { replacedById: wallet.replacedById },
		});
	}
	blockWallet(sb, wallet);
	const fresh = newUserWallet(sb, company, wallet.externalId);
	wallet.replacedById = fresh.id;
	return fresh;
}

// ---- deposits (control) -------------------------------------------------------------------

const fakeTx = (sb) => sb.ids.hex(32);

/** The status a user-wallet deposit stores for an AML outcome (legacy form when configured). */
function amlStatus(sb, deposit, outcome) {
	const legacyWanted = sb.generated
		? sb.generated.choices.userDepositStatuses === 'legacy'
		: sb.options.legacyDepositStatuses;
	const legacy = Boolean(deposit.externalId) && legacyWanted;
	if (outcome === 'pass') return legacy ? 'aml_pass' : 'aml_passed';
	return legacy ? 'aml_fail' : 'aml_failed';
}

const AML_PASSED = ['aml_passed', 'aml_pass'];

/**
 * The fields every deposit has as it lands (status new), without its wallet's fields. A sender
 * address is made up when none is given.
 */
export function newDeposit(sb, company, { amount, fromAddress }) {
	const now = sb.clock.iso();
	return {
		id: sb.ids.uuid(),
		companyId: company.id,
		txHash: fakeTx(sb),
		fromAddress: fromAddress ?? tronAddressFrom(`sender:${sb.ids.hex(4)}`),
		amount: round2(amount),
		status: 'new',
		amlCheckId: null,
		amlRiskIndicator: null,
		sweepTxHash: null,
		error: null,
		blockTimestamp: now,
		createdAt: now,
		updatedAt: now,
	};
}

/**
 * Simulates an incoming USDT transfer. Emits deposit.created, then deposit.completed
 * (AML pass: the fee is retained and the rest credited) or deposit.aml_failed.
 * With `aml: 'pending'` the deposit stops in aml_pending; `setDepositStatus` moves it on later.
 * With `externalId` the deposit lands on that user's wallet (created if absent) and the
 * events carry `externalId`; the credited amount still goes to the company balance.
 */
export function simulateDeposit(sb, company, { externalId, amount, aml = 'pass', fromAddress }) {
	const base = newDeposit(sb, company, { amount, fromAddress });
	let deposit;
	if (externalId) {
		const { wallet } = getOrCreateUserWallet(sb, company, externalId);
		deposit = { ...base, walletId: wallet.id, externalId, walletAddress: wallet.address };
		sb.state.userDeposits.push(deposit);
	} else {
		deposit = {
			...base,
			walletAddress: getOrCreateCompanyWallet(sb, company).address,
			fee: 0,
			creditedAmount: 0,
		};
		sb.state.deposits.push(deposit);
	}
	sb.webhooks.emit(company, 'deposit.created', {
		depositId: deposit.id,
		txHash: deposit.txHash,
		walletAddress: deposit.walletAddress,
		fromAddress: deposit.fromAddress,
		amount: deposit.amount,
		tokenSymbol: 'USDT',
		status: 'new',
		createdAt: deposit.createdAt,
		updatedAt: deposit.updatedAt,
		...eventExtra(deposit),
	});
	if (aml === 'pending') return setDepositStatus(sb, deposit, 'aml_pending');
	return setDepositStatus(sb, deposit, aml === 'fail' ? 'aml_failed' : 'completed');
}

function eventExtra(deposit) {
	return deposit.externalId ? { externalId: deposit.externalId } : {};
}

/** Finds a company or user-wallet deposit by id. */
export function findDeposit(sb, id) {
	return (
		sb.state.deposits.find((d) => d.id === id) ?? sb.state.userDeposits.find((d) => d.id === id)
	);
}

/**
 * Moves a deposit on (control, standing in for the chain and the AML provider):
 * new → aml_pending; new | aml_pending → aml_passed | aml_failed | completed;
 * aml_passed → completed. `aml_passed`/`aml_failed` are stored as `aml_pass`/`aml_fail` for
 * user-wallet deposits when the sandbox runs with `legacyDepositStatuses`. Completing credits
 * the amount less the fee and emits deposit.completed; failing AML emits deposit.aml_failed
 * with the stored status. Anything else is 409 CONFLICT.
 */
export function setDepositStatus(sb, deposit, target) {
	const company = sb.state.companies.get(deposit.companyId);
	const from = deposit.status;
	const allowed = {
		aml_pending: from === 'new',
		aml_passed: from === 'new' || from === 'aml_pending',
		aml_failed: from === 'new' || from === 'aml_pending',
		completed: from === 'new' || from === 'aml_pending' || AML_PASSED.includes(from),
	};
	if (!(target in allowed)) {
		throw validationError(
			'status должен быть одним из: aml_pending, aml_passed, aml_failed, completed',
		);
	}
	if (!allowed[target]) {
		throw apiError(409, 'CONFLICT', `Переход депозита из ${from} в ${target} невозможен`, {
			details: { from, to: target },
		});
	}
	deposit.updatedAt = sb.clock.iso();
	if (deposit.amlCheckId === null) deposit.amlCheckId = `aml_${sb.ids.hex(6)}`;
	const extra = eventExtra(deposit);
	if (target === 'aml_pending') {
		deposit.status = 'aml_pending';
		return deposit;
	}
	if (target === 'aml_failed') {
		deposit.status = amlStatus(sb, deposit, 'fail');
		deposit.amlRiskIndicator = 'high';
		deposit.error = 'AML: высокий риск источника средств';
		sb.webhooks.emit(company, 'deposit.aml_failed', {
			depositId: deposit.id,
			txHash: deposit.txHash,
			amount: deposit.amount,
			status: deposit.status,
			amlCheckId: deposit.amlCheckId,
			amlResult: { riskIndicator: 'high', riskScore: 0.91 },
			error: deposit.error,
			createdAt: deposit.createdAt,
			...extra,
		});
		return deposit;
	}
	deposit.amlRiskIndicator = 'low';
	if (target === 'aml_passed') {
		deposit.status = amlStatus(sb, deposit, 'pass');
		return deposit;
	}
	const credited = round2(Math.max(0, deposit.amount - sb.options.depositFeeUsdt));
	deposit.status = 'completed';
	deposit.sweepTxHash = fakeTx(sb);
	if (!deposit.externalId) {
		deposit.fee = round2(deposit.amount - credited);
		deposit.creditedAmount = credited;
	}
	credit(sb, company, credited, deposit.externalId ? 'user_deposit' : 'deposit', deposit.id);
	sb.webhooks.emit(company, 'deposit.completed', {
		depositId: deposit.id,
		txHash: deposit.txHash,
		walletAddress: deposit.walletAddress,
		amount: deposit.amount,
		status: 'completed',
		sweepTxHash: deposit.sweepTxHash,
		createdAt: deposit.createdAt,
		updatedAt: deposit.updatedAt,
		...extra,
	});
	return deposit;
}

// ---- routes -------------------------------------------------------------------------------

export function registerWalletRoutes(router) {
	router.get('/wallets', { permission: 'wallet.read' }, (ctx) => {
		const wallet = getOrCreateCompanyWallet(ctx.sb, ctx.company);
		// Profile choice `valueAnswer`: the address alone, as a JSON text.
		if (ctx.sb.profile.valueAnswer === 'value') return { body: wallet.address };
		return { body: { ...wallet } };
	});

	router.get('/wallets/balance', { permission: 'wallet.read' }, (ctx) => ({
		body: balanceView(ctx.company),
	}));

	router.get('/wallets/deposits', { permission: 'wallet.read' }, (ctx) => {
		// depositsInOnePage: a service that does not page (limit and offset are still validated).
		const { page, total } = companyListPage(ctx, inListOrder(ctx, ctx.sb.state.deposits), {
			statuses: COMPANY_DEPOSIT_STATUSES,
			unpaged: ctx.sb.options.depositsInOnePage,
		});
		return { body: { deposits: page.map(presentCompanyDeposit), total } };
	});

	router.get('/wallets/balance-history', { permission: 'wallet.read' }, (ctx) => {
		const { page, total } = companyListPage(ctx, inListOrder(ctx, ctx.sb.state.balanceHistory), {
			fields: ['type', 'referenceId'],
		});
		return {
			body: {
				items: page.map(({ id, type: t, amount, balanceAfter, referenceId: ref, createdAt }) => ({
					id,
					type: t,
					amount,
					balanceAfter,
					referenceId: ref,
					createdAt,
				})),
				total,
			},
		};
	});

	router.post('/user-wallets', { permission: 'user_wallets.manage' }, (ctx) => {
		const { externalId } = ctx.body;
		if (typeof externalId !== 'string' || !EXTERNAL_ID_RE.test(externalId)) {
			throw validationError(
				'externalId должен быть строкой из печатных ASCII-символов без пробелов (до 128)',
			);
		}
		const { wallet, created } = getOrCreateUserWallet(ctx.sb, ctx.company, externalId);
		return { status: created ? 201 : 200, body: presentUserWallet(wallet) };
	});

	const listWallets = (ctx, forcedStatus) => {
		const { page, total } = companyListPage(
			ctx,
			inListOrder(ctx, ctx.sb.state.userWallets.values()),
			{
				statuses: ['active', 'blocked'],
				status: forcedStatus,
				fields: ['externalId'],
			},
		);
		// Profile choice `valueAnswer`: blocked wallets listed by their IDs alone.
		const byId = forcedStatus === 'blocked' && ctx.sb.profile.valueAnswer === 'value';
		return { body: { wallets: page.map(byId ? (w) => w.id : presentUserWallet), total } };
	};
	router.get('/user-wallets', { permission: 'user_wallets.read' }, (ctx) => listWallets(ctx));
	router.get('/user-wallets/blocked', { permission: 'user_wallets.read' }, (ctx) =>
		listWallets(ctx, 'blocked'),
	);

	router.get('/user-wallets/deposits', { permission: 'user_wallets.read' }, (ctx) => {
		const { page, total } = companyListPage(ctx, inListOrder(ctx, ctx.sb.state.userDeposits), {
			statuses: USER_DEPOSIT_STATUSES,
			fields: ['externalId'],
		});
		return { body: { deposits: page.map(presentUserDeposit), total } };
	});

	router.get('/user-wallets/:walletId', { permission: 'user_wallets.read' }, (ctx) => ({
		body: presentUserWallet(findUserWallet(ctx.sb, ctx.company, ctx.params.walletId)),
	}));

	router.post('/user-wallets/:walletId/block', { permission: 'user_wallets.manage' }, (ctx) => {
		const wallet = blockWallet(ctx.sb, findUserWallet(ctx.sb, ctx.company, ctx.params.walletId));
		// Profile choice `valueAnswer`: a bare `true`.
		return { body: ctx.sb.profile.valueAnswer === 'value' ? true : presentUserWallet(wallet) };
	});

	router.post('/user-wallets/:walletId/replace', { permission: 'user_wallets.manage' }, (ctx) => {
		const old = findUserWallet(ctx.sb, ctx.company, ctx.params.walletId);
		const fresh = replaceUserWallet(ctx.sb, ctx.company, old);
		return {
			status: 201,
			body: { oldWallet: presentUserWallet(old), wallet: presentUserWallet(fresh) },
		};
	});
}

export function validateDepositInput(body) {
	const problems = [];
	if (typeof body.amount !== 'number' || !(body.amount > 0) || body.amount > 10_000_000) {
		problems.push('amount должен быть положительным числом');
	}
	if (body.aml !== undefined && !['pass', 'fail', 'pending'].includes(body.aml))
		problems.push('aml должен быть pass, fail или pending');
	if (
		body.externalId !== undefined &&
		(typeof body.externalId !== 'string' || !EXTERNAL_ID_RE.test(body.externalId))
	) {
		problems.push('externalId должен быть строкой из печатных ASCII-символов без пробелов');
	}
	if (problems.length) throw validationError(problems);
}
