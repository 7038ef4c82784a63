import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { isObject } from '../contract/guards';
import { runAccount } from '../transport';
import { companyFingerprint, createdSince, marginWords, sealHolds } from './binding';
import type { SentTime } from './binding';
import { knownSkew } from './clock';
import type { MoneyContract, PaymentOutcome } from './contract';
import type { Difference } from './evidence';
import { OUTCOME_UNKNOWN } from './outcome';
import { settlePending } from './pending';
import { recordsCarrying } from './reference';
import { readSentDetails } from './sentEvidence';
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
	details: IDataObject;
	/** The company and Base URL it was sent for (binding.ts companyFingerprint). */
	company: string;
	/** The service's clock minus n8n's when it was sent, when measured. */
	skewMs: number | null;
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
}

/** Reads a sent write from an unknown item's `sentWrite`, or says what is wrong with it. */
export function readSentWrite(value: unknown): SentWrite | string {
	if (!isObject(value)) return 'sentWrite is not an object';
	const { operation, sentAt, identity, details, company, skewMs, seal } = value;
	if (typeof operation !== 'string' || !/^\w+\.\w+$/.test(operation)) {
		return 'sentWrite.operation is not "resource.operation"';
	}
	if (typeof sentAt !== 'string' || Number.isNaN(Date.parse(sentAt))) {
		return 'sentWrite.sentAt is not a time';
	}
	if (identity !== null && identity !== undefined && typeof identity !== 'string') {
		return 'sentWrite.identity is neither text nor null';
	}
	if (!isObject(details)) return 'sentWrite.details is not an object';
	if (typeof company !== 'string' || typeof seal !== 'string') {
		return 'sentWrite carries no company and seal of this node (an item this node did not make, or one from a version before the seal)';
	}
	if (skewMs !== null && skewMs !== undefined && typeof skewMs !== 'number') {
		return 'sentWrite.skewMs is neither a number nor null';
	}
	return {
		operation,
		sentAt,
		identity: identity ?? null,
		details,
		company,
		skewMs: typeof skewMs === 'number' ? skewMs : null,
		seal,
	};
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
		...more,
		...carried(raw, 'unknown'),
	};
}

type Candidate =
	| { kind: 'this'; record: IDataObject }
	| { kind: 'conflict'; record: IDataObject; diff: Difference[] }
	| { kind: 'unproven'; record: IDataObject; notShown: string[] }
	| { kind: 'earlier'; record: IDataObject };

/** Which candidate tells the user most: this, then a conflict, then unproven, then an earlier one. */
const RANK: Record<Candidate['kind'], number> = { this: 0, conflict: 1, unproven: 2, earlier: 3 };

/** One record read in full (when the contract can) and judged by the binding and evidence rules. */
async function judge(
	ctx: IExecuteFunctions,
	contract: MoneyContract,
	itemIndex: number,
	sent: SentWrite,
	listed: IDataObject,
	time: () => SentTime,
): Promise<Candidate> {
	// Read in full before deciding: a listing may leave out what the record shows (a record found
	// by its ID was read in full already).
	const record =
		contract.resolve?.find === 'identity' &&
		contract.read &&
		listed.id !== undefined &&
		listed.id !== null
			? { ...listed, ...(await contract.read(ctx, itemIndex, listed)) }
			: listed;
	const reading = readSentDetails(contract, sent.details, record);
	if (reading.differences.length > 0)
		return { kind: 'conflict', record, diff: reading.differences };
	// A record this write made was created after it was sent (a record it acted on, by its ID, is
	// older and proves by its state).
	if (contract.resolve?.find === 'identity') {
		const since = createdSince(record, time());
		if (since === 'before') return { kind: 'earlier', record };
		if (since === 'not_shown') {
			return { kind: 'unproven', record, notShown: [...reading.notShown, 'createdAt'] };
		}
	}
	if (reading.notShown.length > 0) return { kind: 'unproven', record, notShown: reading.notShown };
	return { kind: 'this', record };
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
		// Only a record that carries the identity counts (a listing may ignore its filter); one
		// whose listing leaves the identity out is read by its ID.
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
	const { baseUrl } = await runAccount(ctx, itemIndex);
	// The skew the write measured, else the one this look measured (clock.ts).
	const time = (): SentTime => ({
		sentAt: Date.parse(sent.sentAt),
		skewMs: sent.skewMs ?? knownSkew(baseUrl),
	});
	let best: Candidate | undefined;
	for (const listed of found.records) {
		const candidate = await judge(ctx, contract, itemIndex, sent, listed, time);
		if (!best || RANK[candidate.kind] < RANK[best.kind]) best = candidate;
		if (best.kind === 'this') break;
	}
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
		return unknown(
			sent,
			raw,
			`Only a record created before this write was sent carries its ${contract.identity?.field ?? 'identity'} (created ${String(best.record.createdAt)}; this write was sent ${new Date(sentAt).toISOString()}, allowing ${marginWords(skewMs)}): it is another payment under the same ${contract.identity?.field ?? 'identity'}, or an earlier attempt of this same request from another run; it does not prove that this write was made, nor that it was not.`,
			['a record created after it was sent'],
			`Check that record against what you meant to pay, then look again at lookAgainAt. ${lookUp}`,
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
	const settled = contract.resolve.state(best.record, time());
	const open = settled.outcome === 'unknown';
	// Decided: a tool may send under its reference again without waiting for lookAgainAt.
	if (!open) settlePending(raw.seal);
	if (settled.outcome === 'not_paid') releaseNotPaid(raw.seal);
	return {
		paymentOutcome: settled.outcome,
		operation: sent.operation,
		reason: settled.why,
		record: best.record,
		missing: open ? ['a final state'] : [],
		differences: [],
		lookAgainAt: open ? lookAgain(settled.lookAgainAt) : null,
		whatToDo:
			settled.outcome === 'paid'
				? 'Nothing: it was made. Do not send it again.'
				: settled.outcome === 'not_paid'
					? 'It was not carried out: it is safe to run it again.'
					: `Look again at lookAgainAt. ${lookUp}`,
		...carried(raw, settled.outcome),
	};
}
