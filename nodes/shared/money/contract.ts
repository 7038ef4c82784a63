import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { SentTime } from './binding';
import type { DetailKind } from './evidence';

/*
 * The money contract of an operation (issues 36.1 and 44.1): each money operation declares one
 * `money` block in its own file, and everything in this folder that treats it as money reads it
 * from there: the key (key.ts), send-once and the outcome (write.ts, outcome.ts), the details a
 * repeat must match (evidence.ts) and how a payment is found again (reference.ts). The transport
 * is handed none of it.
 */

/** The three outcomes of a money write, in the field `paymentOutcome` of a failed item. */
export type PaymentOutcome = 'paid' | 'not_paid' | 'unknown';

/** What a money write's messages say of it: what it does, where to look it up, replay by key. */
export interface MoneyWrite {
	/** What the write does, as the message names it: "the payout may have been created". */
	what: string;
	/** Where to look it up, in the node's own operations. */
	lookUp: string;
	/** The document promises that the same Idempotency-Key replays the stored answer. */
	replayByKey: boolean;
	/**
	 * A run outside this n8n process sends another request under the same key (Pay QR Code
	 * prepares a new quote there): the replay promise covers a repeated request only, so the texts
	 * say what holds where (r4-money-resend F3) instead of calling a run again safe.
	 */
	newRequestElsewhere?: boolean;
	/**
	 * Refusals (errorCodes) this item's own earlier attempt may cause by having been carried out
	 * (Card Request: CARD_EXTERNAL_ID_TAKEN for its own External ID): unknown, never not paid.
	 */
	ownRefusals?: readonly string[];
	/**
	 * Refusals this item's own earlier attempt may cause, read as its own only when the item may
	 * have been sent before (r1-money-resend): this process already sent the same request (under any key),
	 * or the user set the Idempotency Key or the External ID, which a re-run of the execution
	 * carries. Payout Create: PAYOUT_REQUISITE_COOLDOWN after its own payout to the same card. Then
	 * unknown with its sent write, never not paid; a first send's refusal stays a refusal.
	 */
	resentRefusals?: readonly string[];
	/**
	 * Set by write.ts on the contract a re-send is judged by (never declared by an operation): the
	 * item may have been sent before, so every refusal an earlier attempt of the same key or
	 * External ID can cause is its own (outcome.ts ownRefusal, r5-money F2): a balance refusal
	 * (RESENT_BY_ANY) and a refusal saying the identity or key is taken, whatever its code.
	 */
	mayBeResent?: boolean;
	/**
	 * Refusals of this request's own values that no earlier attempt can cause (outside r7-money-a
	 * F1). Declared by an operation that turns the re-send rule round: when it may have been sent
	 * before, a refusal is not paid only when it is one of these, or one of resent.ts
	 * `freshRefusal`'s (authentication, permission, a validation of another field than the
	 * identity); any other refusal is unknown.
	 */
	freshRefusals?: readonly string[];
	/**
	 * Its 2xx answer is the record it made (Payout Create): an answer with no ID and none of the
	 * details asked (`202 {"status":"accepted"}`) is unknown (outcome.ts notARecord).
	 */
	answerIsRecord?: boolean;
	/**
	 * What a 2xx record's own state says of the write (outside r9-money F1): an order answered in
	 * `failed`, a recharge answered `failed`. Anything but paid is unknown with its sent write
	 * (outcome.ts notStanding), never a plain success; undefined when the record shows no state.
	 */
	answerState?: (answer: IDataObject) => Settled | undefined;
	/**
	 * The record a 2xx answer shows this write made (issue 49.1, "made by this write"): the answer
	 * itself (a payout, a recharge, an order) or the record in it (Card Request: its `request`; its
	 * card may come from stock, made long before). Every write that declares it is bound to it by
	 * the one rule of the money module (write.ts answerProvesOther, r15-money F4-F7): a record this
	 * process already gave as proof of another write (proofs.ts, by Base URL, operation and record
	 * ID), or one created before this write was sent as far as the clocks tell (binding.ts), is
	 * unknown with its sent write, never a success. Undefined for a write that acts on a record
	 * made before it (Payout Cancel), and when the answer shows no such record.
	 */
	made?: (answer: IDataObject) => IDataObject | undefined;
	/**
	 * How the other records a 2xx answer shows as this write's are tied to the record it made
	 * (outside r19-money F1: Card Request's card, which must carry its request's External ID and
	 * be the card its request names). The one binding rule (binding.ts brokenTies, read by write.ts
	 * answerProvesOther) holds an answer whose tie is shown on both ends and differs unknown with
	 * its sent write: such an answer shows a record that is not this write's, so it proves nothing
	 * of it. An end not shown is no break (and no proof: the `made` record still decides), unless
	 * the tie says otherwise (Tie.rule: outside r21-money F2). `sent` is the body this write sent.
	 */
	ties?: (answer: IDataObject, sent: IDataObject | undefined) => readonly Tie[];
	/**
	 * The record a 2xx answer shows this write acted on, for a write that acts on a record made
	 * before it (Payout Cancel, r16-money F1), when the answer shows the act done (a payout
	 * cancelled): the record, and the fields the act set (a cancel's refundedAt and completedAt),
	 * whose times bind it to this write in place of a `made` record's createdAt, by the same one
	 * rule (write.ts answerProvesOther, and Resolve Outcome for a record found by its ID): a record
	 * already answered to another write, or one that shows the act before this write was sent, or
	 * shows no readable time of it (none, one without its offset, one that is no time), is unknown
	 * with its sent write, never a success. Undefined when the answer does not show the act done
	 * (its state then decides).
	 */
	acted?: (answer: IDataObject) => ActedOn | undefined;
	/**
	 * The document does not show the fields of the record `made` names (Card Recharge: choice
	 * `rechargeRecord`), so one that shows no createdAt at all is bound by its ID alone (a named
	 * window); a createdAt that is shown but cannot be read is unknown, as for every other write.
	 */
	madeUndatedStands?: boolean;
}

/** One tie of an answer's records (MoneyWrite.ties): a value one shows, and the value it must equal. */
export interface Tie {
	/** What is tied, as a message names it: "the card's External ID (card.externalId)". */
	name: string;
	/** The value the other record shows. */
	shown: unknown;
	/** The value the made record (or the request) gives it. */
	bound: unknown;
	/** Where the bound value comes from, as a message names it: "the request's External ID". */
	boundBy: string;
	/**
	 * How an end not shown (absent, null, blank) is read (outside r21-money F2): by default it
	 * breaks nothing; `exact`: an end not shown equals only another not shown (a card carrying an
	 * External ID when this write sent none is another's); `required`: both ends must be shown and
	 * equal (an empty end is no proof of the tie).
	 */
	rule?: 'exact' | 'required';
	/**
	 * Why an end that must be a record's ID is none (recordId.ts readRecordId: `12.5`, `-3`, true,
	 * `"\u200b"`; outside r24-money F4), which breaks the tie whatever the other end shows.
	 */
	notAnId?: string;
}

/** A record a write acted on, and the fields whose times say when it acted (MoneyWrite.acted). */
export interface ActedOn {
	record: IDataObject;
	at: readonly string[];
}

/** One detail of a money write: what was asked, and where an answer (or a found record) says it. */
export interface MoneyDetail {
	name: string;
	/** What this call asks; `answer` is the operation's answer, for details read from it (a quote). */
	asked: (ctx: IExecuteFunctions, itemIndex: number, answer: IDataObject) => unknown;
	answered: (answer: IDataObject) => unknown;
	/** How a value is shown in a conflict (a recipient's number masked). */
	show?: (value: unknown) => string;
	/**
	 * How it is compared (evidence.ts, the one table): `value` (default) as the service would read
	 * it, `text` in the service's own spelling, `requisite` a card or phone number that the
	 * service may show masked.
	 */
	kind?: DetailKind;
}

export interface MoneyContract extends MoneyWrite {
	/**
	 * How its Idempotency-Key is formed when the user sets none: `perItem` (this execution, node,
	 * run and item: every run of the execution sends the same key, a new execution a new one) or
	 * once per the record it acts on (`once`, e.g. a quote can be accepted once). As a tool, always
	 * the payment reference's identity.
	 */
	key: 'perItem' | 'once';
	/**
	 * Where the payment carries the identity the node gave it (an External ID), when it can: the
	 * only evidence that a record found later is this payment. `maxLength` bounds the value sent.
	 */
	identity?: { field: string; answered: (answer: IDataObject) => unknown; maxLength: number };
	/** The details a repeat must match to be the same payment (and a found record to be it). */
	details: MoneyDetail[];
	/**
	 * How a payment can be found again by its identity (records carrying it), when the document
	 * gives a way: tool mode looks before it pays, and answers with what it finds only on evidence.
	 */
	lookup?: (ctx: IExecuteFunctions, itemIndex: number, identity: string) => Promise<IDataObject[]>;
	/**
	 * How one found record is read in full (GET by its ID), when a listing does not show every
	 * detail: a detail still not shown is no evidence (evidence.ts).
	 */
	read?: (ctx: IExecuteFunctions, itemIndex: number, record: IDataObject) => Promise<IDataObject>;
	/**
	 * The fields a record's state is decided by (a payout: `status`, and `refundedAt` when it
	 * failed): a record found in a listing that does not show one of them is read in full (`read`)
	 * before its state is decided, since a field left out of a listing is not a field that is not
	 * set (r1-money-tool F2).
	 */
	stateFields?: (record: IDataObject) => readonly string[];
	/**
	 * As a tool, a write whose answer may be the stored answer of an earlier call (Accept Quote,
	 * Pay QR Code replay the order stored for the reference): how the record's current state is
	 * read by its ID, and what it proves, so that an order since failed or disputed is not handed
	 * to the model as standing (r1-money-tool F4).
	 */
	current?: {
		read: (ctx: IExecuteFunctions, itemIndex: number, record: IDataObject) => Promise<IDataObject>;
		state: (record: IDataObject) => Settled;
	};
	/**
	 * How Resolve Outcome finds the record this write made or acted on, from what an unknown item
	 * carries (its sent write), and what that record's state proves (resolve.ts). Without it the
	 * write carries nothing to look it up by, and its outcome stays unknown.
	 */
	resolve?: MoneyResolve;
}

/** What the state of the record a write made or acted on proves of the write. */
export interface Settled {
	outcome: PaymentOutcome;
	/** Why, in plain words, from the record's own fields. */
	why: string;
	/** Unknown only: when the record may show more (ms, this machine's clock); default in 5 minutes. */
	lookAgainAt?: number;
	/**
	 * The payment was made and its money came back (a refunded payout): never "already made".
	 * null: the record's sign of it cannot be read (a refundedAt that is no time).
	 */
	refunded?: boolean | null;
	/** What to do, when the operation says it better than the outcome's plain words (a cancel). */
	whatToDo?: string;
}

export interface MoneyResolve {
	/**
	 * `identity`: the records carrying the identity it was sent with (the contract's `lookup`), each
	 * read in full; `{ detail }`: the one record the named detail is the ID of (the contract's `read`).
	 */
	find: 'identity' | { detail: string };
	/**
	 * A found record is dated against the write by its `createdAt` only (r5-money F3).
	 * `assignedAt`: the record carries an `assignedAt` that may be later than the write though it
	 * was created before it (a card from stock, or an earlier request's card given now): Resolve
	 * Outcome's answer says why that is no proof either way.
	 */
	boundBy?: 'assignedAt';
	/**
	 * What a record that is this write (bound to it, every detail shown and agreeing) proves by its
	 * state; `time` is when the write was sent and the measured clock skew (binding.ts).
	 */
	state: (record: IDataObject, time: SentTime) => Settled;
	/** What finding no record leaves open, and why that is not proof it was not made. */
	notFound: string;
}
