/**
 * What each operation is when an AI agent calls it: how far it may go, the words the model
 * reads about it, and the fields of a compact list record.
 *
 * - `read`: reads only; runs.
 * - `write`: changes something but moves no money; runs.
 * - `money`: reserves, debits or returns funds; refused unless the workflow owner turned on
 *   "Let the Agent Move Money" for this tool.
 * - `secret`: returns or sets credentials (API keys, session tokens, webhook secrets, passwords);
 *   never available to an agent, whatever the options say.
 */
export type ToolKind = 'read' | 'write' | 'money' | 'secret';

export interface ToolEntry {
	kind: ToolKind;
	/** What the model reads: what the operation does, which fields it needs, what it returns. */
	text: string;
	/** List operations: the fields of a compact record, the ones a person would read. */
	compact?: string[];
}

const MONEY =
	'Moves money: refused unless the workflow owner allowed this tool to move money. Needs a paymentReference that names this payment in the user records (the invoice, ticket or payroll line it pays): the same reference always means the same payment, so calling again with it (after a timeout, from another session) never pays twice and answers with the first outcome; a new payment needs a new reference.';
/** Said only of operations whose answer shows what was paid (not Accept Quote). */
const CONFLICT =
	'The same reference with other details is refused as a conflict, and nothing is paid.';
const SECRET =
	'Not available to an AI agent (it returns or sets credentials, which must never reach a model): every call is refused. A person does this in n8n or in the service cabinet.';

const ORDER_FIELDS = [
	'id',
	'externalOrderId',
	'status',
	'amountRub',
	'amountUsdt',
	'paymentType',
	'merchantName',
	'failureReason',
	'createdAt',
	'completedAt',
];
const WALLET_FIELDS = ['id', 'externalId', 'address', 'status', 'blockedAt', 'createdAt'];
const DEPOSIT_FIELDS = ['id', 'externalId', 'walletId', 'amount', 'status', 'txHash', 'createdAt'];

/** Keyed by `resource.operation`; test/unit/tool-mode.test.ts checks it covers every operation. */
export const TOOL_CATALOG: Record<string, ToolEntry> = {
	'order.prepare': {
		kind: 'read',
		text: 'Prepare a quote for paying a QR code; nothing is paid and the quote expires after 30 seconds. Needs: QR Code (the text encoded in the QR code). Returns the quote: its ID and the amounts in RUB and USDT.',
	},
	'order.accept': {
		kind: 'money',
		text: `Accept a prepared quote, paying it from the company balance. ${MONEY} A reference already used for another quote answers with that earlier order (the order does not name its quote): give each quote its own reference. Needs: Quote ID (from Prepare Quote, under 30 seconds old). Returns the order: id, status, amountRub, amountUsdt, merchantName.`,
	},
	'order.pay': {
		kind: 'money',
		text: `Pay a QR code from the company balance (prepares a quote and accepts it at once). ${MONEY} ${CONFLICT} Needs: QR Code. Returns the order (id, status, amountRub, amountUsdt, merchantName) and its quote.`,
	},
	'order.get': {
		kind: 'read',
		text: 'Look up one QR-code order by its ID. Needs: Order ID (a UUID). Returns status (created, in_progress, success, failed, expired_no_taker, expired_by_system, disputed), amountRub, amountUsdt, merchantName, externalOrderId, failureReason and its dates.',
	},
	'order.getMany': {
		kind: 'read',
		text: 'List the company QR-code orders, optionally only those in one Status. Needs nothing. Returns one short record per order: id, status, amounts in RUB and USDT, merchant, failureReason, dates.',
		compact: ORDER_FIELDS,
	},
	'dispute.create': {
		kind: 'write',
		text: 'Open a dispute on a completed order (status success or failed), e.g. when a customer reports a payment that did not arrive or was wrong. Needs: Order ID (a UUID) and Reason (plain words for the team that reviews it). Returns the dispute: id, status, reason; when the order already has an open dispute, that one is returned instead of a new one.',
	},
	'dispute.getMany': {
		kind: 'read',
		text: 'List the company disputes, newest first. Needs nothing. Returns one short record per dispute: id, orderId, status, resolution (refund, confirm or partial_refund: read this rather than status), reason, refundAmount, dates.',
		compact: [
			'id',
			'orderId',
			'status',
			'resolution',
			'reason',
			'refundAmount',
			'createdAt',
			'resolvedAt',
		],
	},
	'companyWallet.getAddress': {
		kind: 'read',
		text: 'Get the company TRON address that receives USDT (TRC-20) deposits. Needs nothing. Returns the address and its network.',
	},
	'companyWallet.getBalance': {
		kind: 'read',
		text: 'Get the company balance. Needs nothing. Returns usdtBalance and frozenBalance (the part reserved for open orders, cards and payouts), in USDT.',
	},
	'companyWallet.getDeposits': {
		kind: 'read',
		text: 'List deposits to the company wallet, optionally only those in one Status. Needs nothing. Returns one short record per deposit: id, status, amount, creditedAmount, txHash, dates.',
		compact: ['id', 'status', 'amount', 'creditedAmount', 'txHash', 'createdAt', 'updatedAt'],
	},
	'companyWallet.getBalanceHistory': {
		kind: 'read',
		text: 'List the movements of the company balance. Needs nothing. Returns one short record per movement: id, type, amount, balanceAfter, referenceId (the order ID for order movements), createdAt.',
		compact: ['id', 'type', 'amount', 'balanceAfter', 'referenceId', 'createdAt'],
	},
	'userWallet.createOrGet': {
		kind: 'write',
		text: 'Create the deposit wallet of an end user, or return the one this user already has. Needs: External ID (your identifier of the user). Returns the wallet: id, externalId, address, status.',
	},
	'userWallet.getMany': {
		kind: 'read',
		text: 'List the user wallets of the company. Needs nothing. Returns one short record per wallet: id, externalId, address, status, dates.',
		compact: WALLET_FIELDS,
	},
	'userWallet.getBlocked': {
		kind: 'read',
		text: 'List the blocked user wallets. Needs nothing. Returns one short record per wallet: id, externalId, address, status, blockedAt.',
		compact: WALLET_FIELDS,
	},
	'userWallet.getDeposits': {
		kind: 'read',
		text: 'List deposits to user wallets, optionally only those of one External ID or Status. Needs nothing. Returns one short record per deposit: id, externalId, walletId, amount, status, txHash, createdAt.',
		compact: DEPOSIT_FIELDS,
	},
	'userWallet.block': {
		kind: 'write',
		text: 'Block a user wallet. Needs: Wallet ID. Returns the blocked wallet.',
	},
	'userWallet.replace': {
		kind: 'write',
		text: 'Block a user wallet and create a new one for the same end user. Needs: Wallet ID. Returns the new wallet with its address.',
	},
	'card.request': {
		kind: 'money',
		text: `Request a new company card; its opening fee and minimum deposit are reserved on the company balance. ${MONEY} ${CONFLICT} Needs: External ID (optional, your identifier for the card). Returns outcome (assigned or pending), cardId and a note.`,
	},
	'card.get': {
		kind: 'read',
		text: 'Look up one card by its ID. Needs: Card ID. Returns status (requested, assigned, closing, closed, failed), maskedPan (the masked number), expiry.',
	},
	'card.getMany': {
		kind: 'read',
		text: 'List the company cards, optionally only the one with an External ID. Needs nothing. Returns one short record per card: id, externalId, status, maskedPan, expiry.',
		compact: ['id', 'externalId', 'status', 'maskedPan', 'expiry', 'assignedAt', 'createdAt'],
	},
	'card.getBalance': {
		kind: 'read',
		text: 'Get the live balance of an assigned card. Needs: Card ID. Returns balance, currency and fetchedAt.',
	},
	'card.getSensitiveData': {
		kind: 'read',
		text: 'Check the details of an assigned card. For an AI agent the card number and CVV are always masked (last four digits only). Needs: Card ID. Returns cardId, the masked number, expiry.',
	},
	'card.getRechargeQuote': {
		kind: 'read',
		text: 'Quote what recharging a card would cost; nothing is paid. Needs: Card ID and Target Amount (USD). Returns totalDebitUsdt (what the balance would be charged) and the fees.',
	},
	'card.recharge': {
		kind: 'money',
		text: `Load an amount in USD onto an assigned card, paid from the company balance. ${MONEY} ${CONFLICT} Needs: Card ID and Target Amount (USD). Returns the recharge.`,
	},
	'payout.create': {
		kind: 'money',
		text: `Send a RUB payout to a card or phone number, paid from the company balance. ${MONEY} ${CONFLICT} Needs: Amount (RUB), Pay To (card or phone) and the recipient's number; optionally an External ID. The External ID is the paymentReference unless you give one. Returns the payout: id, status, amountRub, chargedUsdt, the masked recipient.`,
	},
	'payout.get': {
		kind: 'read',
		text: "Look up one payout by its ID. Needs: Payout ID. Returns status (pending, waiting_trader, in_progress, success, fail), amountRub, chargedUsdt, failReason, the recipient's number masked (requisite), and fundsReturned: true when the money is back on the company balance (rely on it, not on status fail).",
	},
	'payout.getMany': {
		kind: 'read',
		text: 'List the company payouts, optionally only those in one Status or with an External ID. Needs nothing. Returns one short record per payout: id, externalId, status, amountRub, chargedUsdt, masked recipient, failReason, fundsReturned, dates.',
		compact: [
			'id',
			'externalId',
			'status',
			'amountRub',
			'chargedUsdt',
			'requisiteType',
			'requisite',
			'bank',
			'failReason',
			'fundsReturned',
			'createdAt',
			'completedAt',
		],
	},
	'payout.cancel': {
		kind: 'money',
		text: `Cancel a payout that no executor has taken yet (status waiting_trader); its money returns to the company balance. ${MONEY} ${CONFLICT} Needs: Payout ID. Returns the payout with fundsReturned.`,
	},
	'member.getMany': {
		kind: 'read',
		text: 'List the team members of the company. Needs nothing. Returns one short record per member: userId, email, role, permissions.',
		compact: ['userId', 'email', 'role', 'permissions'],
	},
	'member.update': {
		kind: 'write',
		text: "Change a team member's role and/or permissions. Needs: Member ID, and Role or Permissions. Returns the member.",
	},
	'member.remove': {
		kind: 'write',
		text: "Remove a team member; the member's API key stops working at once. Needs: Member ID. Returns ok.",
	},
	'invite.create': {
		kind: 'write',
		text: 'Create an invite for a new team member, valid 7 days. Needs nothing (Email, Role and Permissions are optional). Returns the invite: id, email, role, status; its link is not shown to the model (a person finds it in the n8n execution).',
	},
	'invite.getMany': {
		kind: 'read',
		text: 'List the open invites of the company. Needs nothing. Returns one short record per invite: id, email, role, status, expiresAt.',
		compact: ['id', 'email', 'role', 'status', 'expiresAt', 'createdAt'],
	},
	'invite.revoke': {
		kind: 'write',
		text: 'Revoke an open invite so it can no longer be accepted. Needs: Invite ID. Returns ok.',
	},
	'invite.preview': {
		kind: 'read',
		text: 'Check where an invite leads and whether it is still pending. Needs: Invite Token or URL. Returns its status, company and role.',
	},
	'invite.accept': { kind: 'secret', text: `Accept an invite. ${SECRET}` },
	'company.getProfile': {
		kind: 'read',
		text: 'Get the company profile. Needs nothing. Returns its fields, including webhookUrl (where its webhooks go); the webhook secret is masked.',
	},
	'company.updateProfile': { kind: 'secret', text: `Change the webhook URL or secret. ${SECRET}` },
	'company.login': { kind: 'secret', text: `Log in and rotate the company API key. ${SECRET}` },
	'company.regenerateApiKey': { kind: 'secret', text: `Issue a new company API key. ${SECRET}` },
	'company.rotateWebhookSecret': {
		kind: 'secret',
		text: `Rotate the webhook signing secret. ${SECRET}`,
	},
};

export function toolEntry(resource: string, operation: string): ToolEntry | undefined {
	return TOOL_CATALOG[`${resource}.${operation}`];
}
