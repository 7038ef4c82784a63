import type { IDataObject } from 'n8n-workflow';

import {
	changeKey,
	COMPANY_SCOPE,
	depositParts,
	normaliseDepositStatus,
	pollSeen,
	userWalletScope,
} from '../shared/changeKey';
import { EVENTS, eventsOf } from '../shared/contract/events';
import type { EventContract, EventName } from '../shared/contract/events';
import type { PollOnlyEvent, WatchedList } from './types';
import { recordText } from '../shared/contract/guards';
import { field } from './types';
import { ENDPOINTS } from '../shared/contract/endpoints';

/** Deposit states the service announces by webhook, and the event that announces each. */
const DEPOSIT_EVENTS: Readonly<Record<string, EventName>> = Object.fromEntries(
	eventsOf('deposit').map((name) => [(EVENTS[name] as EventContract).status, name]),
);

/** Event of the deposit states no webhook announces (poll only). */
export const DEPOSIT_STATUS_CHANGED: PollOnlyEvent = 'deposit.status_changed';

function normalised(record: IDataObject): string | null {
	const status = recordText(record.status);
	return status === null ? null : normaliseDepositStatus(status);
}

function depositList(
	kind: 'companyDeposits' | 'userDeposits',
	path: string,
	walletType: 'company' | 'user',
): WatchedList {
	return {
		kind,
		statusList: kind === 'companyDeposits' ? 'companyDeposit' : 'userDeposit',
		label: walletType === 'company' ? 'company deposits' : 'user-wallet deposits',
		path,
		itemsKey: 'deposits',
		query: (filters) =>
			walletType === 'user' ? { externalId: recordText(filters.externalId) ?? undefined } : {},
		status: normalised,
		// Legacy values are stored normalised, so aml_pass → aml_passed is no change.
		state: normalised,
		changes(record, _previous, polledAt, visit) {
			const id = recordText(record.id) as string;
			const status = normalised(record) as string;
			const externalId = walletType === 'user' ? recordText(record.externalId) : null;
			// A user wallet's deposit is keyed in its wallet's scope, by the externalId the
			// webhook body carries too (a record without one, against the document, keeps an
			// empty one: it still never shares a key with a company deposit).
			const scope = walletType === 'user' ? userWalletScope(externalId ?? '') : COMPANY_SCOPE;
			return [
				{
					event: DEPOSIT_EVENTS[status] ?? DEPOSIT_STATUS_CHANGED,
					changeKey: changeKey(
						'deposit',
						scope,
						depositParts(id, status, record, visit?.unmoved, pollSeen(polledAt)),
					),
					fields: {
						depositId: id,
						txHash: field(record, 'txHash'),
						walletAddress: field(record, 'walletAddress'),
						fromAddress: field(record, 'fromAddress'),
						amount: field(record, 'amount'),
						tokenSymbol: field(record, 'tokenSymbol'),
						status: field(record, 'status'),
						normalisedStatus: status,
						amlCheckId: field(record, 'amlCheckId'),
						amlRiskIndicator: field(record, 'amlRiskIndicator'),
						sweepTxHash: field(record, 'sweepTxHash'),
						error: field(record, 'error'),
						createdAt: field(record, 'createdAt'),
						updatedAt: field(record, 'updatedAt'),
						externalId,
						walletType,
					},
				},
			];
		},
	};
}

export const companyDeposits = depositList('companyDeposits', ENDPOINTS.walletDeposits, 'company');
export const userDeposits = depositList('userDeposits', ENDPOINTS.userWalletDeposits, 'user');
