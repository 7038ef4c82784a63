/**
 * Words and field lists that several operations' tool descriptions share (each operation states
 * its own `tool` entry in its file; see types.ts). Imports nothing, so any operation may use it.
 */
/**
 * What a payment reference names: the one rule, said in these words by the tool's description to
 * the model (MONEY), the Payment Reference field, docs/ai-agents.md, and formed by the key
 * (`referenceKey`: the operation and the reference, nothing of n8n). test/docs/reference-rule.test.mjs
 * reads the sentence and checks the key against each thing it names.
 */
export const REFERENCE_RULE =
	'A payment reference names one payment of the company per money operation: the same reference from another execution, node, workflow or n8n instance is the same payment, and two payments need two references.';

const MONEY_GATE = `Moves money: refused unless the workflow owner allowed this tool to move money. Needs a paymentReference that names this payment in the user records (the invoice, ticket or payroll line it pays). ${REFERENCE_RULE}`;

/**
 * What a repeat does, with the window it has (issue 49.3): after an unknown outcome the tool
 * refuses the reference in this n8n process until lookAgainAt (shared/money/pending.ts), kept by
 * sender (the API key at its Base URL in any credential; a key this node's Regenerate API Key
 * issued keeps it, another key put into the credential does not: outside r11-money F1, and the
 * reference is then refused as CREDENTIAL_KEY_CHANGED, money-outside-r11b), and another n8n
 * process finds the payment only once the service lists it.
 */
const REPEAT_HERE =
	'Calling again with it answers with the first outcome instead of paying again, with one window: after an unknown outcome call Resolve Outcome first. This n8n process refuses the reference until lookAgainAt (for this API key, and a key Regenerate API Key issued in its place), and refuses it as CREDENTIAL_KEY_CHANGED once the API key was changed by hand in the same credential;';

export const MONEY = `${MONEY_GATE} ${REPEAT_HERE} another n8n process may pay again until the service lists the payment (the service does not say how soon), and so may another API key in another credential. A new payment needs a new reference.`;

/**
 * The same for an order (Accept Quote, Pay QR Code; r4-money-resend F3): an order carries no
 * reference (the accept has no body) and no listing shows one, so nothing ever lets another n8n
 * process find it; and there Pay QR Code accepts a new quote under the reference's key, which is
 * not a repeated request, so the document's replay promise does not cover it.
 */
export const ORDER_MONEY = `${MONEY_GATE} ${REPEAT_HERE} an order carries no reference, so another n8n process (a restart, another worker) or credential never finds it and may pay the same reference again. A new payment needs a new reference.`;

/**
 * What holds for Card Recharge (outside money test F1): the document promises no replay by key for
 * it and shows no way to find a recharge again (it carries no External ID), so the node keeps a
 * reference once only in the memory of the n8n process that sent it. Said by its tool description,
 * the Payment Reference field and docs/ai-agents.md, word for word.
 */
export const RECHARGE_LIMIT =
	'Card Recharge keeps a reference to one recharge only within one n8n process and sender (the same API key at the same Base URL, in any credential; a key Regenerate API Key issued in its place keeps it; a key changed by hand in the same credential is refused as CREDENTIAL_KEY_CHANGED; another key in another credential, another member’s too, does not keep it): the service promises no replay and a recharge cannot be looked up, so after an n8n restart, on another queue-mode worker or on another n8n instance the same reference recharges again, and other details under it are not refused there. Call it once per payment; after an error or an unknown outcome do not call it again: tell the user to check Company Wallet > Get Balance History.';

/** Card Recharge's words on moving money: the rule, without a promise it cannot keep. */
export const RECHARGE_MONEY = `${MONEY_GATE} ${RECHARGE_LIMIT}`;
/** Said only of operations whose answer shows what was paid (not Accept Quote). */
export const CONFLICT =
	'The same reference with other details is refused as a conflict, and nothing is paid, once the first payment is known (to this n8n process, or listed by the service); from another n8n process before the service lists it, it may be paid as a new payment.';
export const SECRET =
	'Not available to an AI agent (it returns or sets credentials, which must never reach a model): every call is refused. A person does this in n8n or in the service cabinet.';

export const WALLET_FIELDS = ['id', 'externalId', 'address', 'status', 'blockedAt', 'createdAt'];
export const DEPOSIT_FIELDS = [
	'id',
	'externalId',
	'walletId',
	'amount',
	'status',
	'txHash',
	'createdAt',
];
