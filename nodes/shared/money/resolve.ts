import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { isObject } from '../contract/guards';
import type { MoneyContract, PaymentOutcome } from './contract';
import type { Difference } from './evidence';
import { canonicalReference } from './key';
import { readSentDetails } from './sentEvidence';

/*
 * Resolve Outcome (issue 44.5): an item that came out `unknown` carries its sent write (write.ts:
 * the operation, when it was sent, the identity it carries and the details it asked). This finds
 * the record that write made or acted on, the way its money contract declares (`resolve`), reads
 * it in full, and answers `paid` (with the record), `not_paid` (only where the record's state
 * proves it) or still `unknown` (what is missing, and when to look again). A record proves
 * nothing unless every detail the write asked is shown and agrees (the evidence rules,
 * evidence.ts, through sentEvidence.ts).
 */

/** What an unknown item carries of the write it sent (write.ts `withSentWrite`). */
export interface SentWrite {
	operation: string;
	sentAt: string;
	identity: string | null;
	details: IDataObject;
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
	const { operation, sentAt, identity, details } = value;
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
	return { operation, sentAt, identity: identity ?? null, details };
}

function lookAgain(): string {
	return new Date(Date.now() + LOOK_AGAIN_MINUTES * 60_000).toISOString();
}

function unknown(
	sent: SentWrite,
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
	};
}

type Candidate =
	| { kind: 'this'; record: IDataObject }
	| { kind: 'conflict'; record: IDataObject; diff: Difference[] }
	| { kind: 'unproven'; record: IDataObject; notShown: string[] };

/** One record read in full (when the contract can) and judged by the evidence rules. */
async function judge(
	ctx: IExecuteFunctions,
	contract: MoneyContract,
	itemIndex: number,
	sent: SentWrite,
	listed: IDataObject,
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
	if (reading.differences.length > 0) return { kind: 'conflict', record, diff: reading.differences };
	if (reading.notShown.length > 0) return { kind: 'unproven', record, notShown: reading.notShown };
	return { kind: 'this', record };
}

/** The records the write may have made or acted on, as its contract finds them. */
async function candidates(
	ctx: IExecuteFunctions,
	contract: MoneyContract,
	itemIndex: number,
	sent: SentWrite,
): Promise<IDataObject[] | { missing: string; reason: string }> {
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
		const wanted = canonicalReference(sent.identity);
		// Only a record that carries the identity counts (a listing may ignore its filter).
		return (await lookup(ctx, itemIndex, sent.identity)).filter((record) => {
			const carried = identity.answered(record);
			return typeof carried === 'string' && canonicalReference(carried) === wanted;
		});
	}
	const id = sent.details[find.detail];
	if (typeof id !== 'string' || id.trim() === '' || !contract.read) {
		return { missing: find.detail, reason: `its sent write names no ${find.detail}` };
	}
	return [await contract.read(ctx, itemIndex, { id })];
}

/**
 * The outcome of one unknown item's sent write, found again by its money contract. `label` names
 * the operation in messages ("Payout > Create").
 */
export async function resolveSentWrite(
	ctx: IExecuteFunctions,
	contract: MoneyContract,
	itemIndex: number,
	sent: SentWrite,
	label: string,
): Promise<Resolution> {
	const lookUp = `Look it up yourself: ${contract.lookUp}.`;
	if (!contract.resolve) {
		return unknown(
			sent,
			`${label} carries nothing the node can look it up by: the service keeps no identity of the node's on it, so no record can be proved to be this write.`,
			['a way to look it up'],
			lookUp,
		);
	}
	const found = await candidates(ctx, contract, itemIndex, sent);
	if (!Array.isArray(found)) {
		return unknown(
			sent,
			`${label} cannot be looked up: ${found.reason}.`,
			[found.missing],
			lookUp,
		);
	}
	let best: Candidate | undefined;
	for (const listed of found) {
		const candidate = await judge(ctx, contract, itemIndex, sent, listed);
		if (candidate.kind === 'this') {
			best = candidate;
			break;
		}
		if (!best || (best.kind === 'unproven' && candidate.kind === 'conflict')) best = candidate;
	}
	if (!best) {
		return unknown(sent, contract.resolve.notFound, ['a record of it'], lookUp, {
			lookAgainAt: lookAgain(),
		});
	}
	if (best.kind === 'conflict') {
		const what = best.diff.map((d) => `${d.field} ${d.paid} (it asked ${d.asked})`).join(', ');
		return unknown(
			sent,
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
			`A record was found, but even read in full it does not show its ${what}, and a detail not shown is no evidence: the node cannot prove it is this write.`,
			best.notShown,
			`Check the record's ${what} in the cabinet. ${lookUp}`,
			{ record: best.record },
		);
	}
	const settled = contract.resolve.state(best.record);
	return {
		paymentOutcome: settled.outcome,
		operation: sent.operation,
		reason: settled.why,
		record: best.record,
		missing: settled.outcome === 'unknown' ? ['a final state'] : [],
		differences: [],
		lookAgainAt: settled.outcome === 'unknown' ? lookAgain() : null,
		whatToDo:
			settled.outcome === 'paid'
				? 'Nothing: it was made. Do not send it again.'
				: settled.outcome === 'not_paid'
					? 'It was not carried out: it is safe to run it again.'
					: `Look again at lookAgainAt. ${lookUp}`,
	};
}
