// The company balance: usdtBalance (all funds), frozenBalance (reserved), and the
// balance-history entries { id, type, amount, balanceAfter, referenceId, createdAt }.
//
// Entry semantics:
// - types ending in `_hold` move funds into frozenBalance: amount = +reserved, usdtBalance unchanged;
// - types ending in `_release` free a reservation: amount = -released, usdtBalance unchanged;
// - every other type changes usdtBalance by `amount` (negative = debit). A debit may consume
//   part of a reservation (`fromHold`), which lowers frozenBalance by that part as well.
import { apiError } from './errors.mjs';
import { round2 } from './util.mjs';

export function availableBalance(company) {
	return round2(company.usdtBalance - company.frozenBalance);
}

export function balanceView(company) {
	return {
		usdtBalance: company.usdtBalance,
		frozenBalance: company.frozenBalance,
		availableBalance: availableBalance(company),
		currency: 'USDT',
	};
}

function record(sb, company, type, amount, referenceId) {
	const entry = {
		id: sb.ids.uuid(),
		companyId: company.id,
		type,
		amount: round2(amount),
		balanceAfter: company.usdtBalance,
		referenceId: referenceId ?? null,
		createdAt: sb.clock.iso(),
	};
	sb.state.balanceHistory.push(entry);
	return entry;
}

export function ensureAvailable(company, amount) {
	const available = availableBalance(company);
	if (available + 1e-9 < amount) {
		throw apiError(422, 'INSUFFICIENT_BALANCE', undefined, {
			details: { requiredUsdt: round2(amount), availableUsdt: available },
		});
	}
}

export function credit(sb, company, amount, type, referenceId) {
	company.usdtBalance = round2(company.usdtBalance + amount);
	return record(sb, company, type, amount, referenceId);
}

/** Debits the balance; `fromHold` of it comes out of an existing reservation. */
export function debit(
	sb,
	company,
	amount,
	type,
	referenceId,
	{ fromHold = 0, checkAvailable = true } = {},
) {
	if (checkAvailable) ensureAvailable(company, amount - fromHold);
	company.usdtBalance = round2(company.usdtBalance - amount);
	company.frozenBalance = round2(Math.max(0, company.frozenBalance - fromHold));
	return record(sb, company, type, -amount, referenceId);
}

export function hold(sb, company, amount, type, referenceId) {
	ensureAvailable(company, amount);
	company.frozenBalance = round2(company.frozenBalance + amount);
	return record(sb, company, type, amount, referenceId);
}

export function release(sb, company, amount, type, referenceId) {
	if (amount <= 0) return null;
	company.frozenBalance = round2(Math.max(0, company.frozenBalance - amount));
	return record(sb, company, type, -amount, referenceId);
}
