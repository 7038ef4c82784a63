import { ASSUMED_ENDPOINTS } from './assumptions';

/**
 * Fixed paths of the service's endpoints (interface document), in one place for the action node
 * and both triggers. Paths that carry an ID are built next to the operation with `segment()`.
 */
export const ENDPOINTS = {
	profile: '/auth/company/profile',
	login: '/auth/company/login',
	companyRegenerate: '/auth/company/regenerate-key',
	webhookRotation: '/auth/company/webhook-secret/rotate',
	wallet: '/wallets',
	walletBalance: '/wallets/balance',
	walletBalanceHistory: '/wallets/balance-history',
	walletDeposits: '/wallets/deposits',
	userWallets: '/user-wallets',
	userWalletsBlocked: '/user-wallets/blocked',
	userWalletDeposits: '/user-wallets/deposits',
	orders: '/orders',
	orderPrepare: '/orders/prepare',
	disputes: '/disputes',
	cards: '/cards',
	cardRequest: '/cards/request',
	cardRechargeQuote: '/cards/recharge/quote',
	members: '/members',
	invites: '/members/invites',
	/** Not shown in the document: see ASSUMED_ENDPOINTS. */
	payouts: ASSUMED_ENDPOINTS.payoutList.path,
} as const;
