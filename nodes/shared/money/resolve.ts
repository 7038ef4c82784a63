import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { isObject } from '../contract/guards';
import { runAccount } from '../transport';
import {
	companyFingerprint,
	createdSince,
	earliestBound,
	latestNow,
	marginWords,
	sealHolds,
	timesAgainst,
} from './binding';
import type { SentTime, TimeReading } from './binding';
import {
	PROCESS_CLOCK,
	knownCreatedFloor,
	knownCreatedSkew,
	knownSkew,
	knownSkewLow,
	skewAgreement,
	skewRangeSince,
} from './clock';
import type { MoneyContract, PaymentOutcome } from './contract';
import type { Difference } from './evidence';
import { OUTCOME_UNKNOWN } from './outcome';
import { settlePending } from './pending';
import { claim, claimable, otherWrites, takenBy } from './proofs';
import { mergedRecord } from './recordId';
import { recordsCarrying } from './reference';
import { readSentDetails } from './sentEvidence';
import type { DigestCheck } from './sentEvidence';
import { releaseNotPaid } from './write';

/*
 * Resolve Outcome (issue 44.5): an item that came out `unknown` carries its sent write (write.ts:
 * the operation, when it was sent, the identity it carries and the details it asked). This finds
 * the record that write made or acted on, the way its money contract declares (`resolve`), reads
 * it in full, and answers `paid` (with the record), `not_paid` (only where the record's state
 * proves it) or still `unknown` (what is missing, and when to look again). A record proves
 * nothing unless it is bound to the write (binding.ts: the same company and Base URL, the seal of
 * the node, created after the write was sent) and every detail the write asked is shown and
 * agrees (the evidence rules, evidence.ts, through sentEvidence.ts). Every answer carries the sent
 * write again, so Resolve → Wait → Resolve on `{{ $json }}` looks again until it is decided.
 */

/** What an unknown item carries of the write it sent (write.ts `sealedSentWrite`). */
export interface SentWrite {
	operation: string;
	sentAt: string;
	identity: string | null;
	/**
	 * `reference`: the identity is a tool's payment reference as it names a payment (key.ts
	 * referenceExternalId, canonical); absent: an External ID the user set. Either is carried by a
	 * record only exactly as it was sent (outside r22-money F2: `INV  42` is not `INV 42`; r24-money
	 * F2: ` inv-42 ` is not `inv-42`).
	 */
	identityAs?: 'reference';
	details: IDataObject;
	/** The company and Base URL it was sent for (binding.ts companyFingerprint). */
	company: string;
	/** The service's clock minus n8n's when it was sent, when measured. */
	skewMs: number | null;
	/** Keyed digests of the whole requisites it asked (sentEvidence.ts), when it asked any. */
	digests?: IDataObject;
	/**
	 * Other writes of the same request this n8n process sent before it under other keys (write.ts
	 * alongside): their sent times, and the record's ID of those that were paid.
	 */
	alongside?: { sentAt: string | null; recordId?: string }[];
	/** The n8n process whose clock sentAt and skewMs are in (clock.ts PROCESS_CLOCK). */
	clock?: string;
	/** The node's seal over all of the above (binding.ts sealOf). */
	seal: string;
}

/** How long after an unanswered look a new look is worth it (a listing catching up, a request pending). */
export const LOOK_AGAIN_MINUTES = 5;

/** The answer of Resolve Outcome for one item. */
export interface Resolution extends IDataObject {
	paymentOutcome: PaymentOutcome;
	/** The sent write's operation, `resource.operation`. */
	operation: string;
	/** Why, in plain words. */
	reason: string;
	/** The record found (paid, not paid, or one that proves nothing), else null. */
	record: IDataObject | null;
	/** What the node would need to tell (unknown only): a detail not shown, an identity, a record. */
	missing: string[];
	/** Details a found record shows otherwise than the write asked. */
	differences: Difference[];
	/** When looking again may tell more (unknown only), else null. */
	lookAgainAt: string | null;
	whatToDo: string;
	/**
	 * The record shows the money back on the balance (refundedAt): a refunded payout. null: its
	 * refundedAt is no time that can be read, so whether the money came back is unknown.
	 */
	fundsReturned: boolean | null;
}

/** Reads a sent write from an unknown item's `sentWrite`, or says what is wrong with it. */
export function readSentWrite(value: unknown): SentWrite | string {
	if (!isObject(value)) return 'sentWrite is not an object';
	const {
		operation,
		sentAt,
		identity,
		identityAs,
		details,
		company,
		skewMs,
		seal,
		digests,
		alongside,
		clock,
	} = value;
	if (typeof operation !== 'string' || !/^\w+\.\w+$/.test(operation)) {
		return 'sentWrite.operation is not "resource.operation"';
	}
	if (typeof sentAt !== 'string' || Number.isNaN(Date.parse(sentAt))) {
		return 'sentWrite.sentAt is not a time';
	}
	if (identity !== null && identity !== undefined && typeof identity !== 'string') {
		return 'sentWrite.identity is neither text nor null';
	}
	if (identityAs !== undefined && identityAs !== 'reference') {
		return 'sentWrite.identityAs is neither absent nor "reference"';
	}
	if (!isObject(details)) return 'sentWrite.details is not an object';
	if (typeof company !== 'string' || typeof seal !== 'string') {
		return 'sentWrite carries no company and seal of this node (an item this node did not make, or one from a version before the seal)';
	}
	if (skewMs !== null && skewMs !== undefined && typeof skewMs !== 'number') {
		return 'sentWrite.skewMs is neither a number nor null';
	}
	if (digests !== undefined && !isObject(digests)) return 'sentWrite.digests is not an object';
	const others = readAlongside(alongside);
	if (typeof others === 'string') return others;
	return {
		...(others.length > 0 ? { alongside: others } : {}),
		operation,
		sentAt,
		identity: identity ?? null,
		...(identityAs === 'reference' ? { identityAs } : {}),
		details,
		company,
		skewMs: typeof skewMs === 'number' ? skewMs : null,
		...(typeof clock === 'string' ? { clock } : {}),
		seal,
		...(isObject(digests) ? { digests } : {}),
	};
}

/** Reads `sentWrite.alongside`: a list of `{ sentAt, recordId? }`, or what is wrong with it. */
function readAlongside(value: unknown): NonNullable<SentWrite['alongside']> | string {
	if (value === undefined) return [];
	if (!Array.isArray(value)) return 'sentWrite.alongside is not a list';
	const out: NonNullable<SentWrite['alongside']> = [];
	for (const entry of value) {
		if (!isObject(entry)) return 'sentWrite.alongside holds an entry that is not an object';
		const { sentAt, recordId } = entry;
		if (sentAt !== null && typeof sentAt !== 'string') {
			return 'sentWrite.alongside holds a sentAt that is neither text nor null';
		}
		if (recordId !== undefined && typeof recordId !== 'string') {
			return 'sentWrite.alongside holds a recordId that is not text';
		}
		out.push({ sentAt, ...(recordId !== undefined ? { recordId } : {}) });
	}
	return out;
}

/**
 * Why this credential must not resolve a sent write, or undefined when it may: sent for another
 * company or Base URL, or not sealed by this node under this credential (edited or made up).
 */
export async function bindingProblem(
	ctx: IExecuteFunctions,
	itemIndex: number,
	raw: IDataObject,
	sent: SentWrite,
): Promise<string | undefined> {
	const { baseUrl, account } = await runAccount(ctx, itemIndex);
	if (sent.company !== companyFingerprint(account, baseUrl)) {
		return `it was sent for another company or Base URL (company ${sent.company}, this credential's ${companyFingerprint(account, baseUrl)}): resolve it with the credential it was sent with. After a regenerated API key the node cannot tell; look it up by hand`;
	}
	if (!sealHolds(account, raw)) {
		return 'its seal does not hold: the sent write was edited or made up, so it proves nothing; take the item exactly as the money operation put it out';
	}
	return undefined;
}

function lookAgain(at = Date.now() + LOOK_AGAIN_MINUTES * 60_000): string {
	return new Date(at).toISOString();
}

/** What every answer carries again, so the answer can be resolved again as it is. */
function carried(raw: IDataObject, outcome: PaymentOutcome): IDataObject {
	return outcome === 'unknown'
		? { errorCode: OUTCOME_UNKNOWN, sentWrite: raw }
		: { sentWrite: raw };
}

function unknown(
	sent: SentWrite,
	raw: IDataObject,
	reason: string,
	missing: string[],
	whatToDo: string,
	more: Partial<Resolution> = {},
): Resolution {
	return {
		paymentOutcome: 'unknown',
		operation: sent.operation,
		reason,
		record: null,
		missing,
		differences: [],
		lookAgainAt: null,
		whatToDo,
		fundsReturned: false,
		...more,
		...carried(raw, 'unknown'),
	};
}

type Candidate =
	| { kind: 'this'; record: IDataObject }
	| { kind: 'conflict'; record: IDataObject; diff: Difference[] }
	| { kind: 'unproven'; record: IDataObject; notShown: string[] }
	| { kind: 'unmeasured'; record: IDataObject }
	| { kind: 'future'; record: IDataObject }
	| { kind: 'zoneless'; record: IDataObject; field: string }
	| { kind: 'idless'; record: IDataObject }
	| { kind: 'taken'; record: IDataObject; by: string }
	| { kind: 'shared'; record: IDataObject }
	| { kind: 'earlier'; record: IDataObject }
	| { kind: 'actedUnbound'; record: IDataObject; reading: TimeReading; at: readonly string[] };

/**
 * Which candidate tells the user most: this, then a conflict, then unproven (a detail or the
 * time cannot be read), then one already given as proof of another write, then an earlier one.
 */
const RANK: Record<Candidate['kind'], number> = {
	this: 0,
	conflict: 1,
	unproven: 2,
	unmeasured: 3,
	zoneless: 4,
	future: 5,
	idless: 6,
	taken: 7,
	shared: 8,
	earlier: 9,
	actedUnbound: 10,
};

/** One record read in full (when the contract can) and judged by the binding and evidence rules. */
async function judge(
	ctx: IExecuteFunctions,
	contract: MoneyContract,
	itemIndex: number,
	sent: SentWrite,
	listed: IDataObject,
	time: () => SentTime,
	check: DigestCheck | undefined,
	nowSkew: () => number | null,
): Promise<Candidate> {
	// Read in full before deciding: a listing may leave out what the record shows (a record found
	// by its ID was read in full already).
	const record =
		contract.resolve?.find === 'identity' &&
		contract.read &&
		listed.id !== undefined &&
		listed.id !== null
			? mergedRecord(listed, await contract.read(ctx, itemIndex, listed))
			: listed;
	// The identity exactly as sent, a tool's canonical reference too (outside r24-money F2).
	const reading = readSentDetails(contract, sent.details, record, check, true);
	if (reading.differences.length > 0)
		return { kind: 'conflict', record, diff: reading.differences };
	// A record this write made was created after it was sent (a record it acted on, by its ID, is
	// older and proves by its state).
	if (contract.resolve?.find === 'identity') {
		// Bound by its creation time only (r5-money F3): a card's assignedAt after the write is what
		// a card from stock given to this request shows, and an earlier request's card given now
		// shows the same, so it proves neither.
		const since = createdSince(record, time(), nowSkew(), Date.now());
		if (since === 'before') return { kind: 'earlier', record };
		// Without the skew its writer measured, the write has no time on the service's clock
		// (outside r7-money-a F2): no record is this write by its time alone.
		if (time().skewMs === null) return { kind: 'unmeasured', record };
		if (since === 'future') return { kind: 'future', record };
		if (since === 'no_offset') return { kind: 'zoneless', record, field: 'createdAt' };
		if (since === 'not_shown' || since === 'unreadable') {
			return { kind: 'unproven', record, notShown: [...reading.notShown, 'createdAt'] };
		}
	}
	// A record the write acted on (a payout a cancel cancelled) is bound by the time the act shows,
	// as the write's own answer is (write.ts answerProvesOther, r16-money F1): cancelled before the
	// write was sent, or at no time that can be read, it proves nothing of this write.
	const acted = contract.resolve?.find !== 'identity' ? contract.acted?.(record) : undefined;
	if (acted) {
		const at = time();
		const since = timesAgainst(
			acted.at.map((field) => acted.record[field]),
			earliestBound(at),
			latestNow(at, nowSkew()),
		);
		if (since !== 'after') return { kind: 'actedUnbound', record, reading: since, at: acted.at };
	}
	if (reading.notShown.length > 0) return { kind: 'unproven', record, notShown: reading.notShown };
	return { kind: 'this', record };
}

/**
 * A record that shows the write's act done (a payout cancelled) at a time that does not bind it to
 * this write (r16-money F1): before the write was sent, later than the service's clock now, or at
 * no time that can be read. Unknown, naming the times; a state that will not change is not looked
 * at again.
 */
function actedUnbound(
	sent: SentWrite,
	raw: IDataObject,
	best: { record: IDataObject; reading: TimeReading; at: readonly string[] },
	time: SentTime,
	label: string,
	lookUp: string,
): Resolution {
	const times = best.at.map((field) => `${field} ${JSON.stringify(best.record[field] ?? null)}`);
	const shown = times.join(', ');
	const why: Record<TimeReading, string> = {
		before: `it did so before this write was sent (${sent.sentAt}, allowing ${time.skewMs === null ? "n8n's own clock with a wide margin, as no answer carried a Date header" : marginWords(time.skewMs)}): an earlier write did it (another run, a person in the cabinet, or this item's own earlier attempt), and when this one came the record was past the state it acts on`,
		future: `that time is later than the service's clock now, so it cannot be read as when it acted`,
		no_offset: `a time written without its offset may be in any time zone, up to 14 hours either way, so it cannot show that it acted after this write was sent (${sent.sentAt})`,
		unreadable: `that is not a time the node can read (ISO 8601 with Z or an offset), so it cannot show that it acted after this write was sent (${sent.sentAt})`,
		not_shown: `it shows no time of it, so nothing shows that it acted after this write was sent (${sent.sentAt})`,
		after: '',
	};
	return unknown(
		sent,
		raw,
		`The record found (${String(best.record.id)}) shows the act of ${label} done (${shown}), but ${why[best.reading]}. It does not prove that this write acted, nor that it did not; the record's own state stands as it is shown.`,
		best.reading === 'before'
			? ['a record time after it was sent']
			: best.at.map((field) => `${field} with its offset (Z or +hh:mm)`),
		`Check the record in the cabinet; its state is what it shows, whoever's act it was. ${lookUp}`,
		{ record: best.record },
	);
}

/** The records the write may have made or acted on, as its contract finds them. */
async function candidates(
	ctx: IExecuteFunctions,
	contract: MoneyContract,
	itemIndex: number,
	sent: SentWrite,
): Promise<
	{ records: IDataObject[]; identityUnshown?: IDataObject } | { missing: string; reason: string }
> {
	const find = contract.resolve!.find;
	if (find === 'identity') {
		const { identity, lookup } = contract;
		if (!identity || !lookup) return { missing: 'identity', reason: 'it has no identity' };
		if (sent.identity === null) {
			return {
				missing: identity.field,
				reason: `it was sent without ${identity.field}, so nothing the node gave it identifies it`,
			};
		}
		// Only a record that carries the identity counts (a listing may ignore its filter), exactly
		// as sent, a tool's payment reference too (outside r22-money F2, r24-money F2); one whose
		// listing leaves the identity out is read by its ID.
		const found = await recordsCarrying(ctx, contract, itemIndex, sent.identity);
		return { records: found.carrying, identityUnshown: found.identityUnshown };
	}
	const id = sent.details[find.detail];
	if (typeof id !== 'string' || id.trim() === '' || !contract.read) {
		return { missing: find.detail, reason: `its sent write names no ${find.detail}` };
	}
	return { records: [await contract.read(ctx, itemIndex, { id })] };
}

/**
 * The outcome of one unknown item's sent write, found again by its money contract. `raw` is the
 * sent write as the item carries it (sealed; checked by `bindingProblem` before). `label` names
 * the operation in messages ("Payout > Create").
 */
export async function resolveSentWrite(
	ctx: IExecuteFunctions,
	contract: MoneyContract,
	itemIndex: number,
	sent: SentWrite,
	raw: IDataObject,
	label: string,
): Promise<Resolution> {
	const lookUp = `Look it up yourself: ${contract.lookUp}.`;
	if (!contract.resolve) {
		return unknown(
			sent,
			raw,
			`${label} carries nothing the node can look it up by: the service keeps no identity of the node's on it, so no record can be proved to be this write.`,
			['a way to look it up'],
			lookUp,
		);
	}
	const looked = Date.now();
	const { baseUrl, account } = await runAccount(ctx, itemIndex);
	const found = await candidates(ctx, contract, itemIndex, sent);
	if (!('records' in found)) {
		return unknown(
			sent,
			raw,
			`${label} cannot be looked up: ${found.reason}.`,
			[found.missing],
			lookUp,
		);
	}
	// The write in the service's time, once (outside r7-money-a F2): its sentAt plus the skew its
	// writer measured and sealed, both in the writer's clock. Only when this is the writer's own
	// process (the same clock) do this process's measures count too, the largest of them all
	// (r5-money F1: a stale Date on the write's answer is not alone): the look's own reads, the
	// write's seal, this process's before the look, and the records' own clock (clock.ts
	// knownCreatedSkew), which only ever raises the Date header's, never stands in for it
	// (r14-money F1b: a held payout an hour old dropped the look's own reads). In another process
	// (a queue-mode worker, after a restart) they read another clock: a write whose writer
	// measured no skew has no service time, and no record proves it by its time.
	const sameClock = sent.clock === PROCESS_CLOCK;
	const prior = sameClock ? knownSkew(baseUrl, looked) : null;
	const time = (): SentTime => {
		if (!sameClock) return { sentAt: Date.parse(sent.sentAt), skewMs: sent.skewMs };
		// One clock by every measure this process kept, the look's reads among them (clock.ts
		// skewAgreement): their least high bounds it (r15-money F2); two clocks: the largest of all.
		const agreement = skewAgreement(baseUrl, looked);
		const range = skewRangeSince(baseUrl, looked);
		const dates = (
			agreement && !agreement.twoClocks
				? [agreement.high, sent.skewMs]
				: [agreement?.high, range?.high, sent.skewMs, prior]
		).filter((s): s is number => typeof s === 'number');
		// Without any Date-header skew there is none: a records' clock measure never stands alone.
		const raises = [knownCreatedSkew(baseUrl), knownCreatedFloor(baseUrl)].filter(
			(s): s is number => typeof s === 'number',
		);
		const known = dates.length > 0 ? [...dates, ...raises] : [];
		return {
			sentAt: Date.parse(sent.sentAt),
			skewMs: known.length > 0 ? Math.max(...known) : null,
		};
	};
	// The service's clock now, as the look measured it (else this process's last measure, else the
	// write's): the least low bound (r13-money F1), so a record dated later than any measure of now
	// is read as dated in the future, however slowly the answers came. The sealed skew is a high
	// bound: used only when nothing in this process measured the clock (docs/assumptions.md).
	const nowSkew = () =>
		skewRangeSince(baseUrl, looked)?.low ?? knownSkewLow(baseUrl) ?? sent.skewMs;
	const check = sent.digests ? { account, digests: sent.digests } : undefined;
	let best: Candidate | undefined;
	// Every record that is this write by the binding and evidence rules (outside r7-money-a F7: a
	// POST replayed by a gateway makes two): all are named, never the first alone.
	const matching: IDataObject[] = [];
	// The other writes of the same request: named in the sent write (sent before it), or sealed
	// later in this n8n process (outside r7-money-a F6b).
	const others: NonNullable<SentWrite['alongside']> = [
		...(sent.alongside ?? []),
		...otherWrites(sent)
			.filter((t) => !(sent.alongside ?? []).some((o) => o.sentAt === t))
			.map((t) => ({ sentAt: t })),
	];
	for (const listed of found.records) {
		let candidate = await judge(ctx, contract, itemIndex, sent, listed, time, check, nowSkew);
		// A record without its ID cannot be given as proof once (proofs.ts), so one such record
		// could prove two writes: no proof (r4-money-resolve F4).
		const idless = !claimable(candidate.record);
		if (candidate.kind === 'this' && contract.resolve.find === 'identity' && idless) {
			candidate = { kind: 'idless', record: candidate.record };
		}
		// A record the write's own sent write names as another write's (paid with it), or any record
		// when this process sent other writes of the same request alongside it (r5-money F7): which
		// of them made it cannot be told, in this process or after a restart.
		const otherPaid = others.find((o) => o.recordId === String(candidate.record.id));
		if (candidate.kind === 'this' && contract.resolve.find === 'identity' && otherPaid) {
			candidate = { kind: 'taken', record: candidate.record, by: String(otherPaid.sentAt) };
		} else if (
			candidate.kind === 'this' &&
			contract.resolve.find === 'identity' &&
			others.length > 0
		) {
			candidate = { kind: 'shared', record: candidate.record };
		}
		if (candidate.kind === 'this' && contract.resolve.find === 'identity') {
			const by = takenBy(sent, candidate.record);
			if (by !== undefined) candidate = { kind: 'taken', record: candidate.record, by };
		}
		if (candidate.kind === 'this') matching.push(candidate.record);
		if (!best || RANK[candidate.kind] < RANK[best.kind]) best = candidate;
	}
	if (best?.kind === 'this' && contract.resolve.find === 'identity') claim(sent, best.record);
	if (!best && found.identityUnshown) {
		const field = contract.identity?.field ?? 'identity';
		return unknown(
			sent,
			raw,
			`The service lists records without their ${field}, even read one by one, so the node cannot tell whether one of them is this write.`,
			[field],
			`Check in the cabinet. ${lookUp}`,
			{ record: found.identityUnshown, lookAgainAt: lookAgain() },
		);
	}
	if (!best) {
		return unknown(sent, raw, contract.resolve.notFound, ['a record of it'], lookUp, {
			lookAgainAt: lookAgain(),
		});
	}
	if (best.kind === 'earlier') {
		const { sentAt, skewMs } = time();
		const assigned = contract.resolve.boundBy === 'assignedAt' && best.record.assignedAt;
		const assignedWords = assigned
			? ` Its assignedAt (${String(best.record.assignedAt)}) is no proof either way: a card from stock given to this request and a card of an earlier request given now both show a late assignedAt, and the document shows no field that ties a card to the request that got it.`
			: '';
		return unknown(
			sent,
			raw,
			`Only a record created before this write was sent as far as the measured clocks tell carries its ${contract.identity?.field ?? 'identity'} (created ${String(best.record.createdAt)}; this write was sent ${new Date(sentAt).toISOString()}, allowing ${marginWords(skewMs)}): it may be another payment under the same ${contract.identity?.field ?? 'identity'}, an earlier attempt of this same request from another run, or this write itself if the clocks were measured wide; it does not prove that this write was made, nor that it was not.${assignedWords}`,
			['a record created after it was sent'],
			`Check that record against what you meant to pay, then look again at lookAgainAt. ${lookUp}`,
			{ record: best.record, lookAgainAt: lookAgain() },
		);
	}
	const field = contract.identity?.field ?? 'identity';
	if (best.kind === 'unmeasured') {
		return unknown(
			sent,
			raw,
			`A record carrying its ${field} was found, but the n8n process that sent this write had not measured the service's clock when it sent it (no fresh answer of the service carried a Date header before or with the write: an answer from a cache, with an Age header, or a gateway's page measures nothing), so the write has no time on the service's clock: the node cannot prove the record was created after this write was sent (it may be an earlier payment under the same ${field}), and a time that cannot be bound is no proof. A measure taken later, or by another process, reads another clock and moment and does not place this write.`,
			["a Date header on the service's answers (the measured clock skew)"],
			`Check the record (created ${String(best.record.createdAt)}) against what you meant to pay in the cabinet; a proxy that strips the Date header keeps this unknown. ${lookUp}`,
			{ record: best.record },
		);
	}
	if (best.kind === 'future') {
		const { skewMs } = time();
		return unknown(
			sent,
			raw,
			`The only record carrying its ${field} says it was created ${String(best.record.createdAt)}, later than the service's clock now by more than ${marginWords(nowSkew() ?? skewMs, 'low')} (a time without its offset in another zone, or a clock other than the one dating the answers, read as UTC): a time that cannot be read is no proof that it was made after this write.`,
			['a record time that can be read'],
			`Check the record against what you meant to pay in the cabinet. ${lookUp}`,
			{ record: best.record },
		);
	}
	if (best.kind === 'zoneless') {
		const at = String(best.record[best.field]);
		return unknown(
			sent,
			raw,
			`The record carrying its ${field} says it was made ${at}, a time written without its offset: it may be in any time zone, up to 14 hours either way, so it cannot show that the record was made after this write was sent (${sent.sentAt}); a payment hours older would read the same. A time that cannot be bound is no proof.`,
			[`${best.field} with its offset (Z or +hh:mm)`],
			`Check the record against what you meant to pay in the cabinet (its ID, amount, recipient and when it was made). Ask the service, or the proxy in front of it, to write times with their offset; the node then proves it. ${lookUp}`,
			{ record: best.record },
		);
	}
	if (best.kind === 'idless') {
		return unknown(
			sent,
			raw,
			`A record carrying its ${field} and every detail was found, but the service shows it without its id (or with one that is no ID: the document types it text; a fraction, a sign, true/false, an object or an empty text is none), so the node cannot give it as proof of one write only: two writes under the same ${field} and details would both be proved by it.`,
			["the record's id"],
			`Check in the cabinet how many payments carry this ${field}. ${lookUp}`,
			{ record: best.record, lookAgainAt: lookAgain() },
		);
	}
	if (best.kind === 'taken') {
		return unknown(
			sent,
			raw,
			`The record found (${String(best.record.id)}) was already given in this n8n process as proof of another write under the same ${field} and details (sent ${best.by}): one record proves at most one write, so it does not prove this one. Two items sent with one ${field} are two writes; the service may have made one payment or two.`,
			['a record of its own'],
			`Check in the cabinet how many payments carry this ${field}, and give every payment its own ${field}. Look again at lookAgainAt: a second record may not be listed yet. ${lookUp}`,
			{ record: best.record, lookAgainAt: lookAgain() },
		);
	}
	if (best.kind === 'shared') {
		const times = others.map((o) => o.sentAt ?? 'time not kept').join(', ');
		return unknown(
			sent,
			raw,
			`The record found (${String(best.record.id)}) carries its ${field} and every detail, but this n8n process sent ${others.length} other write${others.length === 1 ? '' : 's'} of the same request under the same ${field} (sent ${times}): one record proves at most one write, and the node cannot tell which of them made it. A write's sent write names the writes sent before it, so that holds after an n8n restart too; a write sent after it is known only in the n8n process that sent both, until it restarts.`,
			['a record of its own'],
			`Check in the cabinet how many payments carry this ${field}, resolve the other items sent with it, and give every payment its own ${field}. Look again at lookAgainAt: a second record may not be listed yet. ${lookUp}`,
			{ record: best.record, lookAgainAt: lookAgain() },
		);
	}
	if (best.kind === 'conflict') {
		const what = best.diff.map((d) => `${d.field} ${d.paid} (it asked ${d.asked})`).join(', ');
		return unknown(
			sent,
			raw,
			`The record found shows other details than this write asked (${what}): it is another payment, or this one written the service's own way; the node cannot tell which, nor whether this one was made.`,
			[],
			`Compare the record with what you meant to pay before anything else. ${lookUp}`,
			{ record: best.record, differences: best.diff },
		);
	}
	if (best.kind === 'unproven') {
		const what = best.notShown.join(', ');
		return unknown(
			sent,
			raw,
			`A record was found, but even read in full it does not show its ${what}, and a detail not shown is no evidence: the node cannot prove it is this write.`,
			best.notShown,
			`Check the record's ${what} in the cabinet. ${lookUp}`,
			{ record: best.record },
		);
	}
	if (best.kind === 'actedUnbound') return actedUnbound(sent, raw, best, time(), label, lookUp);
	const settled = contract.resolve.state(best.record, time());
	const many = matching.length > 1 ? moreThanOne(matching, field) : undefined;
	if (settled.refunded === true) {
		const answer = refundedAnswer(sent, raw, best.record, settled.why, contract);
		return many ? { ...answer, ...many(answer.whatToDo) } : answer;
	}
	const open = settled.outcome === 'unknown';
	// Decided: a tool may send under its reference again without waiting for lookAgainAt.
	if (!open) settlePending(raw.seal);
	if (settled.outcome === 'not_paid') releaseNotPaid(raw.seal);
	// What a proof by identity is, and its one window (r5-money F7): it says no more than is known.
	const proofWords =
		settled.outcome === 'paid' && contract.resolve.find === 'identity'
			? ` Proved by the record ${String(best.record.id)}: it carries this write's ${field} and every detail, and was created after the write was sent. One record proves at most one write: this n8n process keeps which write it proved or got as its answer, a write's sent write names the writes of the same request its process sent before it, and this process knows the ones it sent after it until it restarts. A write of the same ${field} and details sent from another n8n process (a queue-mode worker), or sent after this one by a process that has since restarted, is not known here and could be shown this record too.`
			: '';
	const answer: Resolution = {
		paymentOutcome: settled.outcome,
		operation: sent.operation,
		reason: `${settled.why}${proofWords}`,
		record: best.record,
		missing: open ? ['a final state'] : [],
		differences: [],
		lookAgainAt: open ? lookAgain(settled.lookAgainAt) : null,
		whatToDo:
			settled.whatToDo ??
			(settled.outcome === 'paid'
				? 'Nothing: it was made. Do not send it again.'
				: settled.outcome === 'not_paid'
					? 'It was not carried out: it is safe to run it again.'
					: `Look again at lookAgainAt. ${lookUp}`),
		fundsReturned: settled.refunded === null ? null : false,
		...carried(raw, settled.outcome),
	};
	return many ? { ...answer, ...many(answer.whatToDo) } : answer;
}

/**
 * More than one record is this write (outside r7-money-a F7: a gateway replayed the POST, and the
 * service made two): the answer names every one (`matchingPayouts`) and says money may have moved
 * more than once, never "it was made" alone.
 */
function moreThanOne(
	matching: IDataObject[],
	field: string,
): (whatToDo: string) => Partial<Resolution> {
	const ids = matching.map((r) => String(r.id));
	return (whatToDo) => ({
		matchingPayouts: matching,
		warning: `MONEY_MAY_HAVE_MOVED_MORE_THAN_ONCE: ${ids.length} records (${ids.join(', ')}) carry this write's ${field} and every detail, all created after it was sent: the service may have made it ${ids.length} times (a gateway or proxy that sent the request again), so money may have moved ${ids.length} times.`,
		whatToDo: `Check every one of ${ids.join(', ')} in the cabinet and cancel or claim back the extra ones. ${whatToDo.replace(/^Nothing: it was made\. /, '')}`,
	});
}

/**
 * A write whose record failed after it was made and shows its money back (a payout with
 * `refundedAt`; the outside reader's finding 6). The loop ends here: the write was carried out
 * (`paid`: sending the same item again is this payout again, never a new payment) and its money
 * came back (`fundsReturned: true`). The document lets a refunded payout return to success and be
 * charged again (`payout.recharged`): this answer is what the record shows now, and whatToDo says
 * how to catch a recharge (the event, or the payout read again) before paying the recipient anew.
 */
function refundedAnswer(
	sent: SentWrite,
	raw: IDataObject,
	record: IDataObject,
	why: string,
	contract: MoneyContract,
): Resolution {
	settlePending(raw.seal);
	const id = String(record.id ?? 'its ID');
	return {
		paymentOutcome: 'paid',
		operation: sent.operation,
		reason: `It was made, then failed and its money came back: ${why}`,
		record,
		missing: [],
		differences: [],
		lookAgainAt: null,
		whatToDo: `Do not send this item again: it is this payout again. Its money is back on the company balance (refundedAt). To pay the recipient, make a new payment with a new ${contract.identity?.field ?? 'identity'} and a new Idempotency Key, once you are sure this one stays failed: the service may return a refunded payout to success and charge it again (the payout.recharged event, or Payout > Get on ${id} showing status success).`,
		fundsReturned: true,
		...carried(raw, 'paid'),
	};
}
