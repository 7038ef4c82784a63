/*
 * The money module's own error codes, in words (issue 49.4): what each means and what a user does
 * about it. The transport's catalogue (../transport/errorCodes.ts, errorActions.ts) keeps the
 * service's codes and HTTP meaning only; docs/errors.md is generated from both (scripts/docs.mjs).
 */

import { HELD_MS, MAX_KEPT, MAX_NAMED } from './bounds';

const KEPT = MAX_KEPT.toLocaleString('en-US');
const HELD = `${HELD_MS / 60_000} minutes`;
const NAMED = MAX_NAMED.toLocaleString('en-US');

/** What each of the node's own money codes means. */
export const MONEY_EXPLANATIONS: Record<string, string> = {
	IDEMPOTENCY_KEY_REUSED:
		'The Idempotency Key was already used in this n8n process for another payment (another amount, recipient or record): the service would answer with that payment instead of making this one. Nothing was sent; the failed item carries paymentOutcome "not_paid". While that payment’s outcome is unknown in this process the refusal is OUTCOME_UNKNOWN instead, with that send’s sentWrite: it may have been paid under this key',
	SENT_WRITES_FULL: `This n8n process keeps the money writes it sent (at most ${KEPT}) so that Retry On Fail and a repeated key or payment reference never pay again, and every one it keeps may still be sent again: kept for a node run that has not ended normally until ${HELD} after its last write or failure, and for a key or reference that names a payment until ${HELD} after it was sent. Forgetting one could pay it twice, so this write was not sent. It also keeps a trace of every payment named by a key you set or a payment reference for its life, at most ${NAMED}; past that a new named payment is refused the same way. Nothing was sent; the failed item carries paymentOutcome "not_paid"`,
	PAID_BEFORE:
		'This n8n process already paid this payment under the same Idempotency Key you set or payment reference, with the same details, in an earlier run: it keeps a trace of it for its life (the first answer itself only for a while). Nothing was sent. Where the record can be read by its ID (a payout) it was read again now and still stands (the message says its status; a record that no longer stands, such as a payout since failed or refunded, is OUTCOME_UNKNOWN instead, with earlierAnswer); the failed item carries paymentOutcome "paid", existingPaymentId, the record it made, and earlierAnswer (when it was sent, and when it was read again or that it was not)',
	CREDENTIAL_KEY_CHANGED:
		"This n8n credential sent a payment under the same Idempotency Key in this n8n process with its earlier API key, and its API key has changed since by hand (edited in the credential, not issued by Company > Regenerate API Key). The new key may be the same company's (regenerated in the service's console: sending would pay twice) or another company's (whose payment the first one's record must not answer), and the node cannot tell which without a request, so it neither sends nor answers from the earlier payment. Nothing was sent; the failed item carries paymentOutcome \"unknown\": it is not known whether this company already paid it",
	OUTCOME_UNKNOWN:
		'A money write (Accept Quote, Pay QR Code, Card Request, Card Recharge, Payout Create, Payout Cancel) may or may not have been carried out: the request was sent and no readable answer of the service came back (the connection closed, a timeout, a gateway\'s 502 or 504, an HTML page, a 5xx), or the service answered with its own error body that may come after it acted (a 408, 423, 424 or 425, or a code naming a backend failure such as BRIDGE_ERROR, WALLET_BACKEND_ERROR or PAYOUT_SERVICE_UNAVAILABLE, at any status), or the service refused it for a reason its own earlier attempt may have caused (a key or External ID used, a spent quote, FINE_ALREADY_PAID, PAYOUT_REQUISITE_COOLDOWN, PAYOUT_NOT_CANCELABLE after this item may have been sent before), or answered with a record that does not show it carried out (a payout in fail, a cancel whose payout still waits or names no failReason, a card failed), or the node did not send it because another payment under the same Idempotency Key in this process is still undecided (the failed item carries that earlier send’s sentWrite: resolve it before paying again, under any key), or a payment made in an earlier run whose record, read again, no longer stands or is not shown to be it (no status, a record with another ID, a 404: earlierAnswer). The failed item carries paymentOutcome "unknown" and a sealed sentWrite for Resolve Outcome',
};

/** What a user does about each of them. */
export const MONEY_ACTIONS: Record<string, string> = {
	IDEMPOTENCY_KEY_REUSED:
		'Give each payment its own Idempotency Key (e.g. the invoice or payroll line it pays), or leave the field empty so the node derives one per item',
	SENT_WRITES_FULL: `Send at most ${KEPT} money writes in one run of the node (split bigger batches with Loop Over Items: a run that ends normally frees its writes), or run this item again once the earlier runs have ended or ${HELD} have passed. It was not paid, so running it again cannot pay it twice. A process that has named ${NAMED} payments by a key you set or a payment reference refuses new named ones until n8n restarts`,
	PAID_BEFORE:
		'Nothing to pay again: it was paid. If earlierAnswer.readAgainAt is null the record was not read again, so look it up by existingPaymentId for its current state (it may have failed or been refunded since); give a new payment its own key or reference',
	CREDENTIAL_KEY_CHANGED:
		"If the new API key is the same company's, run Payment > Resolve Outcome on the earlier item of this payment (or look it up in the service) before paying again; if it is another company's, give this payment another Idempotency Key (as an AI tool: another Payment Reference). To rotate a key without this, use Company > Regenerate API Key in this node",
	OUTCOME_UNKNOWN:
		'Run Payment > Resolve Outcome on the failed item ({{ $json }}), and again after a Wait until lookAgainAt while it answers unknown. Never re-run blindly: only Accept Quote is safe to run again with the same Idempotency Key and Quote ID; Pay QR Code only by Retry On Fail in the same n8n process (another process accepts a new quote under the key)',
};
