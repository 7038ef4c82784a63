import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import {
	ASSUMED_ENDPOINTS,
	RECHARGE_RECORD_FIELDS,
	RECHARGE_STANDING_STATUSES,
} from '../../shared/contract/assumptions';
import { idempotencyKeyField } from '../common/fields';
import { moneyWrite, pickedRecord } from '../../shared/money';
import type { MoneyContract, Settled } from '../../shared/money';
import type { OperationDefinition, OperationResult } from '../types';
import { assignedCardIdFields, readCardId, readTargetAmount, targetAmountField } from './fields';
import { RECHARGE_MONEY } from '../common/words';

/**
 * What a recharge record's own `status` says (its statuses are not shown: RECHARGE_STANDING_STATUSES):
 * a status that stands, or none, is the recharge made; any other is unknown (outside r9-money F1).
 */
function rechargeState(answer: IDataObject): Settled | undefined {
	const status = answer.status;
	if (status === undefined || status === null) return undefined;
	if (typeof status === 'string' && RECHARGE_STANDING_STATUSES.includes(status)) {
		return { outcome: 'paid', why: `The recharge stands: status ${status}.` };
	}
	const reason = answer.failureReason ? `, failureReason ${String(answer.failureReason)}` : '';
	return {
		outcome: 'unknown',
		why: `the recharge record shows status ${JSON.stringify(status)}${reason}; whether its debit was taken or returned is not shown (Company Wallet > Get Balance History shows it)`,
	};
}

/**
 * Debits the company balance. The endpoint is not shown, so no replay by key is promised; the
 * recharge carries no identity of the node's, so it cannot be found again by one.
 */
const money: MoneyContract = {
	what: 'the card may have been recharged and the company balance debited',
	lookUp:
		'Company Wallet > Get Balance History for a card recharge debit made just now, and Card > Get Balance (cached for about a minute)',
	replayByKey: false,
	// Its 2xx answer is the recharge record: one with no ID and none of the details asked
	// (`202 {"status":"accepted"}`) is unknown (r9-money F10), and so is one whose status does not
	// stand (a recharge answered `failed`: r9-money F1).
	answerIsRecord: true,
	answerState: rechargeState,
	// The recharge record answered is what this write made (its fields are not shown: choice
	// `rechargeRecord`): one made before the send, or one already answered to another write, is
	// unknown (r15-money F6: the money module's one rule).
	// Its fields are not shown, so one answered without a createdAt is bound by its ID alone (a
	// named window); a createdAt shown that cannot be read is unknown (r16-money F2).
	madeUndatedStands: true,
	// Built from the answer's fields, the written type of each kept (an id written 12.5 is no ID).
	made: (answer) => pickedRecord(answer, RECHARGE_RECORD_FIELDS),
	key: 'perItem',
	details: [
		{ name: 'cardId', asked: (ctx, i) => readCardId(ctx, i), answered: (a) => a.cardId },
		{
			name: 'targetAmount',
			asked: (ctx, i) => readTargetAmount(ctx, i),
			answered: (a) => a.targetAmount,
		},
	],
};

export const recharge: OperationDefinition = {
	value: 'recharge',
	name: 'Recharge',
	action: 'Recharge a card',
	description:
		'Load an amount in USD onto an assigned card, paid from the company USDT balance (amount plus commission and processor fee, as Get Recharge Quote shows)',
	kind: 'money',
	money,
	tool: {
		text: `Load an amount in USD onto an assigned card, paid from the company balance. ${RECHARGE_MONEY} Within that process the same reference with other details is refused as a conflict. Needs: Card ID and Target Amount (USD). Returns the recharge.`,
	},
	docs: {
		endpoint: '`POST /cards/recharge` (assumed)',
		permission: '`cards.recharge`',
		notes:
			'Card ID, Target Amount (USD, plain decimal > 0), `Idempotency-Key`. Debits the quoted total from the USDT balance.',
	},
	properties: [...assignedCardIdFields, targetAmountField, idempotencyKeyField],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const cardId = readCardId(this, itemIndex);
		const targetAmount = readTargetAmount(this, itemIndex);
		const { method, path } = ASSUMED_ENDPOINTS.cardRecharge;
		return (await moneyWrite(this, {
			contract: money,
			itemIndex,
			request: {
				method,
				path,
				body: { cardId, targetAmount },
				explain: {
					CARD_NOT_ACTIVE:
						'The card is not in status assigned; only an assigned (active) card can be recharged',
				},
			},
		})) as OperationResult;
	},
};
