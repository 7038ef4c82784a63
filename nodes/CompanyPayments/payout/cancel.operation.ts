import type { IDataObject, IExecuteFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { idempotencyKeyField } from '../common/fields';
import { segment } from '../common/validation';
import {
	judgedNotPaid,
	markOutcome,
	moneyWrite,
	outcomeUnknownError,
	readMeasured,
	withSentWrite,
} from '../../shared/money';
import type { MoneyCall, MoneyContract, Settled } from '../../shared/money';
import { ENDPOINTS } from '../../shared/contract/endpoints';
import type { OperationDefinition } from '../types';
import { cancelablePayoutIdFields, readCancelPayoutId } from './fields';
import { fundsReturned, withFundsReturned } from './fundsReturned';
import { CONFLICT, MONEY } from '../common/words';

/**
 * The times a cancel sets on the payout it cancels: the refund the document names for the
 * transition ("funds returned (`refundedAt` set)"), and the payout's end (completedAt) where it
 * shows one. Each one shown must be read (choice `recordTimes`) and not be before the send.
 */
const CANCEL_TIMES = ['refundedAt', 'completedAt'] as const;
/**
 * A cancelled payout whose refund time is not shown: the refund is what the document's cancel
 * sets, so it is bound by refundedAt alone, which then reads as not shown (unknown), whatever its
 * completedAt says (outside r19-money F2: completedAt after the send with refundedAt null was taken
 * as this cancel done, on its answer and in Resolve Outcome).
 */
const REFUND_TIME = ['refundedAt'] as const;

/** A payout in the state the document's one cancel transition leaves it: fail, cancelled_by_merchant. */
function cancelledByMerchant(payout: IDataObject): boolean {
	return payout.status === 'fail' && payout.failReason === 'cancelled_by_merchant';
}

/** Returns money to the balance; the document promises no replay by key for it. */
const money: MoneyContract = {
	what: 'the payout may have been cancelled',
	lookUp:
		'Payout > Get: status fail with failReason cancelled_by_merchant means it was cancelled; cancelling again is harmless (PAYOUT_NOT_CANCELABLE)',
	replayByKey: false,
	// A payout its own earlier cancel cancelled can no longer be cancelled (r1-money-resend F8): unknown
	// when this item may have been sent before, and Resolve Outcome reads the payout's state.
	resentRefusals: ['PAYOUT_NOT_CANCELABLE'],
	// The payout it answers with is the record it acted on, made before it (r16-money F1): a
	// payout cancelled shows when, by the refund the cancel sets (refundedAt) and its end
	// (completedAt). Bound by those times as a record made is by its createdAt, the money module's
	// one rule: cancelled before this cancel was sent (an earlier cancel's doing, the payout no
	// longer waiting_trader when this one came), or at no time that can be read, is unknown with
	// its sent write, on the answer and in Resolve Outcome alike.
	acted: (payout) =>
		cancelledByMerchant(payout)
			? {
					record: payout,
					at:
						payout.refundedAt === null || payout.refundedAt === undefined
							? REFUND_TIME
							: CANCEL_TIMES,
				}
			: undefined,
	key: 'perItem',
	details: [
		{ name: 'payoutId', asked: (ctx, i) => readCancelPayoutId(ctx, i), answered: (a) => a.id },
	],
	async read(ctx, itemIndex, record) {
		const path = `${ENDPOINTS.payouts}/${segment(String(record.id))}`;
		return withFundsReturned(await readMeasured(ctx, itemIndex, path));
	},
	resolve: {
		find: { detail: 'payoutId' },
		state: cancelled,
		notFound: 'The payout was not found.',
	},
};

/**
 * How long after a look at a payout still waiting_trader another look is worth it: the cancel may
 * be carried out any time while the payout waits (the document shows no time within which a
 * cancel acts). docs/assumptions.md states it.
 */
export const CANCEL_SETTLE_MS = 5 * 60_000;

/**
 * What the payout proves of a Cancel sent to it (Resolve Outcome). The document's one cancel
 * transition moves a waiting_trader payout to fail with failReason cancelled_by_merchant, and the
 * cancel answers with the payout: so that state is a cancel carried out. While the payout still
 * waits (waiting_trader, or pending before it), the cancel may yet act, however long ago it was
 * sent (r4-money-resolve F9: a not_paid that later turns paid is no answer): unknown, looked at
 * again. Only a payout that left waiting_trader another way (taken by an executor, made, failed
 * for another reason) proves the cancel did not act, and never will.
 */
function cancelled(record: IDataObject): Settled {
	const status = String(record.status);
	if (status === 'waiting_trader' || status === 'pending') {
		return {
			outcome: 'unknown',
			why: `The payout is still ${status}: the cancel has not acted yet, and a service may still carry it out while the payout waits (the document shows no time within which a cancel acts), so whether it acted is not known yet.`,
			lookAgainAt: Date.now() + CANCEL_SETTLE_MS,
			whatToDo:
				'Look again at lookAgainAt (Resolve → Wait → Resolve). If you need the payout cancelled now, sending the cancel again is harmless: it cancels the payout, or answers PAYOUT_NOT_CANCELABLE once the payout was cancelled or taken by an executor.',
		};
	}
	const reason = String(record.failReason ?? 'not given');
	// A payout past waiting_trader that still shows a cancel's marks (r5-money F5): cancelled by
	// the merchant, or its money returned, then back in progress or success (the document lets a
	// refunded payout be charged again, payout.recharged). The cancel acted once; the payout is
	// live again. The states contradict each other for the question asked, so no answer that a
	// later look could turn over: unknown, saying what the record shows.
	// A refundedAt that is a real time (read as on a failed payout: a live one shows none).
	const refunded = fundsReturned({ ...record, status: 'fail' }) === true;
	const cancelMarks = record.failReason === 'cancelled_by_merchant' || refunded;
	if ((status === 'success' || status === 'in_progress') && cancelMarks) {
		return {
			outcome: 'unknown',
			why: `The payout shows status ${status} together with the marks of a cancel (failReason ${reason}, refundedAt ${String(record.refundedAt ?? null)}): the cancel may have acted and the service then returned the payout to ${status} and charged it again (payout.recharged). Its states contradict each other, so the node says neither that the cancel acted nor that it did not.`,
			whatToDo:
				'Check the payout in the cabinet and its payout.recharged event: if it was charged again, its money is out again and the cancel no longer stands. Cancel it again only if it is waiting_trader.',
		};
	}
	if (status === 'fail' && record.failReason === 'cancelled_by_merchant') {
		return {
			outcome: 'paid',
			why: `The payout was cancelled: status fail, failReason cancelled_by_merchant${fundsReturned(record) ? ', its money back (refundedAt)' : '; its money is back once refundedAt is set'}.`,
		};
	}
	// A failed payout that names no failReason does not show which cancel or failure ended it
	// (outside r10-money F1): it may be this cancel's, so not "did not act".
	if (status === 'fail' && (record.failReason === undefined || record.failReason === null)) {
		return {
			outcome: 'unknown',
			why: `The payout failed but shows no failReason (${record.failReason === null ? 'null' : 'not shown'}): it may be this cancel that failed it (cancelled_by_merchant) or another failure, so whether the cancel acted is not known.`,
			whatToDo:
				'Check the payout in the cabinet, or its payout.failed event (which names the reason). Sending the cancel again is harmless: it answers PAYOUT_NOT_CANCELABLE.',
		};
	}
	const words: Record<string, string> = {
		in_progress: 'an executor took the payout (status in_progress): the cancel was not carried out',
		success: 'the payout was made (status success): the cancel was not carried out',
		fail: `the payout failed for another reason (failReason ${reason}), not by this cancel`,
	};
	const why = words[status];
	return why
		? {
				outcome: 'not_paid',
				why: `The cancel did not act: ${why}.`,
				whatToDo:
					'It was not carried out, and cannot be any more: the payout is past waiting_trader. A repeat cancel is harmless (it answers PAYOUT_NOT_CANCELABLE).',
			}
		: {
				outcome: 'unknown',
				why: `The payout was found in status "${status}", which the document does not list.`,
			};
}

export const cancel: OperationDefinition = {
	value: 'cancel',
	name: 'Cancel',
	action: 'Cancel a payout',
	description:
		'Cancel a payout that no executor has taken yet (status waiting_trader); it ends in fail with failReason cancelled_by_merchant and its money is returned',
	// The document shows no Idempotency-Key for cancel; it is sent anyway (see assumptions.ts).
	kind: 'money',
	money,
	tool: {
		text: `Cancel a payout that no executor has taken yet (status waiting_trader); its money returns to the company balance. ${MONEY} ${CONFLICT} Needs: Payout ID. Returns the payout with fundsReturned.`,
	},
	docs: {
		endpoint: '`POST /payouts/{id}/cancel`',
		notes:
			'Only while `waiting_trader`; the payout ends in `fail` / `cancelled_by_merchant` with the funds returned. `PAYOUT_NOT_CANCELABLE` says the payout is no longer `waiting_trader` (taken by an executor, or already ended); after an earlier cancel of this item it is `OUTCOME_UNKNOWN`, never `not_paid`. An error answer that may come after the cancel acted (a `408`, `423`, `424` or `425`, a `5xx`, or a backend code such as `PAYOUT_SERVICE_UNAVAILABLE` at any status: [which answers prove nothing was done](assumptions.md#the-choices-by-name)) is `OUTCOME_UNKNOWN` with its `sentWrite`, and Retry On Fail sends nothing again. A `2xx` answer is judged by the payout it shows: `fail` / `cancelled_by_merchant` is the cancel done when its `refundedAt` (and `completedAt`, when shown) is a time after the cancel was sent; cancelled before it (an earlier cancel), or at no readable time, is `OUTCOME_UNKNOWN` with its `sentWrite`, and Resolve Outcome reads it the same way; still `waiting_trader` (or `pending`), or `fail` naming no `failReason`, is `OUTCOME_UNKNOWN` with its `sentWrite`; `in_progress`, `success` or `fail` for another reason is `PAYOUT_NOT_CANCELABLE`, `not_paid` (the cancel did not act). Sends `Idempotency-Key` (assumption).',
	},
	properties: [...cancelablePayoutIdFields, idempotencyKeyField],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const payoutId = readCancelPayoutId(this, itemIndex);
		const call: MoneyCall = {
			contract: money,
			itemIndex,
			request: {
				method: 'POST',
				path: `/payouts/${segment(payoutId)}/cancel`,
				explain: {
					PAYOUT_NOT_CANCELABLE: `Payout "${payoutId}" is no longer waiting_trader, so it cannot be cancelled now: an executor may have taken it, or it already ended (an earlier cancel, this item's own among them, may have cancelled it). Check its current status with Payout > Get: fail with failReason cancelled_by_merchant means it was cancelled`,
				},
			},
		};
		const payout = (await moneyWrite(this, call)) as IDataObject;
		// The answer is judged by Resolve Outcome's own table (outside r10-money F1): cancelled is
		// status fail with failReason cancelled_by_merchant; a payout still waiting may yet be
		// cancelled (unknown, with its sent write); one past waiting_trader another way (taken,
		// made, failed for another reason) proves the cancel did not act (not paid), whatever the
		// HTTP status.
		const state = cancelled(withFundsReturned(payout));
		if (state.outcome === 'unknown') {
			// Carries its sent write, so Resolve Outcome can look at the payout again (issue 49.1).
			throw withSentWrite(
				call,
				outcomeUnknownError(this.getNode(), money, {
					reason: `the service answered the cancel of payout "${payoutId}" with status "${String(payout.status)}": ${state.why}`,
					lines: [`Payout ${payoutId}: status ${String(payout.status)}`],
					itemIndex,
				}),
			);
		}
		if (state.outcome === 'not_paid') {
			const refused = new NodeApiError(
				this.getNode(),
				{ errorCode: 'PAYOUT_NOT_CANCELABLE' } as JsonObject,
				{
					message: `PAYOUT_NOT_CANCELABLE: the service answered the cancel of payout "${payoutId}" with the payout, and it shows the cancel did not act. ${state.why}`,
					description: [
						`Payout ${payoutId}: status ${String(payout.status)}, failReason ${String(payout.failReason ?? null)}`,
						`What to do: ${state.whatToDo ?? 'Check the payout with Payout > Get.'}`,
					].join('\n'),
					itemIndex,
				},
			);
			refused.context.moneyErrorCode = 'PAYOUT_NOT_CANCELABLE';
			// The memory keeps the outcome judged (outside r11-money F4): not paid, not "sent".
			judgedNotPaid(call);
			throw markOutcome(refused, 'not_paid');
		}
		return withFundsReturned(payout);
	},
};
