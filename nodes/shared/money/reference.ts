import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { MoneyContract } from './contract';
import { readDetails } from './evidence';
import type { Difference } from './evidence';
import { recordReadAgain } from './readAgain';
import { mergedRecord, readRecordId } from './recordId';
import { toolExternalId } from './key';

/*
 * The payment reference rule of money-moving tools (AI Agent and MCP Server Trigger alike), read
 * from each operation's money contract (contract.ts): the Idempotency-Key, and the External
 * ID where the contract names an identity field, are the reference's identity, so the same
 * reference asked again never pays twice, and this module makes sure it is never answered with
 * an earlier payment as if it were the one asked for:
 *
 * - before the call, where the contract gives a lookup, the payment is looked up by its identity:
 *   a record found counts as this payment only when it carries the identity the node gave this
 *   payment and every declared detail matches (evidence); a record that carries it with other
 *   details is a conflict;
 * - after the call, what the answer says is compared with what was asked; a difference means the
 *   service answered with the payment stored under the reference, and the call is a conflict.
 */

/**
 * Reads every detail this call asks, so that a value that breaks its rule is refused (with the
 * field, the rule and the value) before any request, the lookup included.
 */
export function checkDetails(
	ctx: IExecuteFunctions,
	contract: MoneyContract,
	itemIndex: number,
): void {
	readDetails(ctx, contract, itemIndex, {});
}

/** What a lookup found of this payment. */
export type Found =
	| { kind: 'none' }
	/** A record that carries this payment's identity and shows every declared detail agreeing. */
	| { kind: 'this'; record: IDataObject }
	/** A record that carries this payment's identity and shows another detail. */
	| { kind: 'conflict'; record: IDataObject; diff: Difference[] }
	/**
	 * A record that carries this payment's identity but does not show every detail, even read in
	 * full: it cannot be proved to be this payment, nor another.
	 */
	| { kind: 'unproven'; record: IDataObject; notShown: string[]; identity?: boolean };

/**
 * How many records a lookup reads in full when its listing does not show the identity: past them
 * the answer is unproven (a listing that ignores its filter may hold many).
 */
export const MAX_IDENTITY_READS = 5;

/** Records recordsCarrying already read in full (GET by ID): not read again for their state. */
const readInFull = new WeakSet<IDataObject>();

/**
 * The records of a listing that carry `wanted` as their identity, compared character for character
 * with what was sent (outside r22-money F2, r24-money F1 and F2): an External ID the user set is
 * sent exactly as given, and a tool's is its canonical reference (key.ts toolExternalId), one
 * spelling already. Only the reference a user or a model gives is made canonical, never the value a
 * record shows: ` inv-41 `, `inv-41` with a newline, a no-break space or U+3000 after it, and
 * `INV-41` are other External IDs than `inv-41` (another payment, or none: never this write).
 * The listing is read record by record where it does not show the identity (at most
 * MAX_IDENTITY_READS of them, GET by ID): one whose identity is still not shown is `identityUnshown`, and proves nothing either
 * way. The one way both the tool's look-up and Resolve Outcome find a payment by its identity.
 */
export async function recordsCarrying(
	ctx: IExecuteFunctions,
	contract: MoneyContract,
	itemIndex: number,
	wanted: string,
): Promise<{ carrying: IDataObject[]; identityUnshown?: IDataObject }> {
	const { identity, lookup } = contract;
	if (!identity || !lookup) return { carrying: [] };
	// The identity exactly as it was sent (a tool's is canonical already: toolExternalId).
	const carries = (record: IDataObject) => identity.answered(record) === wanted;
	const listed = await lookup(ctx, itemIndex, wanted);
	const carrying = listed.filter(carries);
	// A listing that does not show the identity cannot prove that no record carries it (a field
	// left out; null is shown: no External ID): each such record is read in full.
	const hiding = listed.filter((record) => identity.answered(record) === undefined);
	let identityUnshown: IDataObject | undefined;
	for (const [index, record] of hiding.entries()) {
		const id = record.id;
		if (!contract.read || index >= MAX_IDENTITY_READS || id === undefined || id === null) {
			identityUnshown ??= record;
			continue;
		}
		const full = mergedRecord(record, await contract.read(ctx, itemIndex, record));
		readInFull.add(full);
		if (carries(full)) carrying.push(full);
		else if (identity.answered(full) === undefined) identityUnshown ??= full;
	}
	return { carrying, identityUnshown };
}

/**
 * The payment as the contract's lookup finds it by its identity. Only a record that carries the
 * identity exactly counts (a list that ignores its filter, or filters loosely, returns others).
 * A record whose listing does not show every declared detail is read in full (the contract's
 * `read`, GET by ID) before anything is decided; only with every detail shown and agreeing
 * (nodes/shared/money/evidence.ts) is it this payment. A detail still not shown is no evidence.
 */
export async function lookUpPayment(
	ctx: IExecuteFunctions,
	contract: MoneyContract,
	itemIndex: number,
): Promise<Found> {
	const { identity, lookup } = contract;
	if (!identity || !lookup) return { kind: 'none' };
	const wanted = toolExternalId(ctx, itemIndex, identity.maxLength);
	if (wanted === undefined) return { kind: 'none' };
	const { carrying, identityUnshown } = await recordsCarrying(ctx, contract, itemIndex, wanted);
	let first: Found = { kind: 'none' };
	for (const listed of carrying) {
		let record = listed;
		let reading = readDetails(ctx, contract, itemIndex, record);
		// A detail shown otherwise is a conflict as listed; one not shown asks for the record in full.
		const unread = reading.differences.length === 0 && reading.notShown.length > 0;
		if (unread && contract.read && listed.id !== undefined && listed.id !== null) {
			record = mergedRecord(listed, await contract.read(ctx, itemIndex, listed));
			reading = readDetails(ctx, contract, itemIndex, record);
		}
		if (reading.differences.length > 0) {
			if (first.kind === 'none' || first.kind === 'unproven') {
				first = { kind: 'conflict', record, diff: reading.differences };
			}
		} else if (reading.notShown.length > 0) {
			if (first.kind === 'none') first = { kind: 'unproven', record, notShown: reading.notShown };
		} else if (readRecordId(record).kind === 'notAnId') {
			// Every detail shown, but an ID that is no ID (12.5, true: recordId.ts): the record binds
			// to no payment, so it is neither "already made" nor proof that it was not.
			if (first.kind === 'none') first = { kind: 'unproven', record, notShown: ['id'] };
		} else {
			return {
				kind: 'this',
				record: await withStateShown(ctx, contract, itemIndex, record, listed),
			};
		}
	}
	if (first.kind === 'none' && identityUnshown) {
		return {
			kind: 'unproven',
			record: identityUnshown,
			notShown: [identity.field],
			identity: true,
		};
	}
	return first;
}

/**
 * The record with every field its state is decided by (the contract's `stateFields`): a record as
 * a listing shows it, without one of them, is read in full by its ID first (a refunded payout
 * listed without `refundedAt` is not "not refunded"). A record already read is kept as it is.
 */
async function withStateShown(
	ctx: IExecuteFunctions,
	contract: MoneyContract,
	itemIndex: number,
	record: IDataObject,
	listed: IDataObject,
): Promise<IDataObject> {
	const unshown = (contract.stateFields?.(record) ?? []).some((field) => !(field in record));
	if (!unshown || record !== listed || readInFull.has(record) || !contract.read) return record;
	if (record.id === undefined || record.id === null) return record;
	// Judged on its own (outside r11-money F2, F3): a read without the state fields leaves them
	// unshown (unknown), and another record's read is not this one's.
	const judged = recordReadAgain(record.id, await contract.read(ctx, itemIndex, record));
	return 'record' in judged ? judged.record : record;
}

/**
 * A record under this reference that does not show every detail: nothing was sent by this call,
 * and whether the payment the reference names is the one asked for is unknown.
 */
export function unprovenError(
	reference: string,
	record: IDataObject,
	notShown: string[],
	identity = false,
): IDataObject {
	const what = notShown.join(', ');
	const [message, whatToDo] = identity
		? [
				`Unknown: the service lists payments without their ${what}, even read one by one, so the node cannot tell whether payment reference "${reference}" was already paid. Nothing was sent by this call.`,
				`Tell the user: the node cannot see which payment carries this reference (the service does not show the ${what}), so it did not pay, to avoid paying twice. Ask them to check in the cabinet whether this payment was made. Do not call again with another reference for the same payment: that may pay it twice.`,
			]
		: [
				`Unknown: payment reference "${reference}" already names a payment, but the service does not show its ${what}, even on the payment itself, so the node cannot tell whether it is this payment or another. Nothing new was paid by this call.`,
				`Tell the user: a payment under this reference exists (its ID is existingPaymentId) and its ${what} cannot be read here; ask them to check it in the cabinet. If it is another payment, ask for the reference that names this one. Do not call again with another reference for the same payment: that may pay it twice.`,
			];
	return {
		error: {
			message,
			errorCode: 'PAYMENT_REFERENCE_UNPROVEN',
			paymentReference: reference,
			paymentOutcome: 'not_paid',
			paid: 'not by this call',
			alreadyMade: 'unknown',
			existingPaymentId: typeof record.id === 'string' ? record.id : null,
			notShown,
			whatToDo,
		},
	};
}

/**
 * The conflict the model reads when a reference names another payment: found before anything was
 * sent (`found`: nothing new was paid), or in the answer to the write this call sent (`sent`: the
 * service answered with other details, so whether this payment was made is unknown).
 */
export function conflictError(
	reference: string,
	record: IDataObject,
	diff: Difference[],
	when: 'found' | 'sent' = 'found',
	earlier: 'paid' | 'unknown' = 'paid',
	sentWrite?: IDataObject,
): IDataObject {
	const what = diff.map((d) => `${d.field} ${d.paid} (this call asked ${d.asked})`).join(', ');
	const found = when === 'found';
	// A payment this process sent under the reference whose outcome is not known yet (r6-money-b F2).
	const named =
		earlier === 'unknown'
			? ' This n8n process sent that payment and does not know yet whether it was made.'
			: '';
	return {
		error: {
			message: found
				? `Conflict: payment reference "${reference}" already names another payment (${what}). Nothing new was paid by this call.${named}`
				: `Conflict: the service answered this payment (reference "${reference}") with another payment's details (${what}). It may be an earlier payment stored under this reference, and then nothing new was paid; or it is this payment in the service's own spelling. Whether this call paid is unknown.`,
			errorCode: 'PAYMENT_REFERENCE_CONFLICT',
			paymentReference: reference,
			paymentOutcome: found ? 'not_paid' : 'unknown',
			paid: found ? 'not by this call' : 'unknown',
			existingPaymentId: typeof record.id === 'string' ? record.id : null,
			differences: diff,
			// Every unknown of a money write carries its sent write (outside r10-money F4).
			...(!found && sentWrite ? { sentWrite } : {}),
			whatToDo: found
				? 'If this is the same payment, call again with exactly its earlier details (it answers with that payment, nothing is paid twice). If this call corrects that payment (another amount, recipient, card, quote or QR code), do not call again: tell the user what the reference already paid (existingPaymentId) and ask what to do. If it is a different payment, ask the user for the reference that names it (e.g. its own invoice or ticket ID) and call with that. Never invent a reference to get around this.'
				: "Call Resolve Outcome (Payment > Resolve Outcome) with this answer's sentWrite, and tell the user what it finds (the payment the service answered with is existingPaymentId) before anything else. Do not call again with another reference for the same payment: that may pay it twice.",
		},
	};
}
