import type { INodePropertyOptions } from 'n8n-workflow';

/**
 * Every status list of the interface document, in one table that the action node, both
 * triggers and the tests read. Values are the document's spellings, legacy ones included;
 * `LEGACY_STATUSES` says which legacy value stands for which current one.
 */
export const STATUSES = {
	order: [
		'created',
		'in_progress',
		'success',
		'failed',
		'expired_no_taker',
		'expired_by_system',
		'disputed',
	],
	dispute: ['submitted', 'in_review', 'resolved', 'rejected'],
	disputeResolution: ['refund', 'confirm', 'partial_refund'],
	companyDeposit: [
		'new',
		'fee_charged',
		'aml_pending',
		'aml_passed',
		'aml_failed',
		'forwarding',
		'completed',
		'failed',
	],
	userDeposit: [
		'new',
		'aml_pending',
		'aml_pass',
		'aml_fail',
		'aml_passed',
		'aml_failed',
		'sweeping',
		'completed',
		'failed',
	],
	card: ['requested', 'assigned', 'closing', 'closed', 'retired', 'failed'],
	cardRequest: ['pending', 'fulfilled', 'cancelled', 'failed'],
	payout: ['pending', 'waiting_trader', 'in_progress', 'success', 'fail'],
	payoutDispute: ['open', 'resolved'],
	payoutDisputeResolution: ['user_won', 'trader_won'],
} as const;

export type StatusList = keyof typeof STATUSES;

/**
 * Legacy statuses and the current values they equal (document, Versioning 4): card `retired`
 * is `closed`; deposit `aml_pass`/`aml_fail` are `aml_passed`/`aml_failed`.
 */
export const LEGACY_STATUSES: Readonly<
	Partial<Record<StatusList, Readonly<Record<string, string>>>>
> = {
	card: { retired: 'closed' },
	companyDeposit: { aml_pass: 'aml_passed', aml_fail: 'aml_failed' },
	userDeposit: { aml_pass: 'aml_passed', aml_fail: 'aml_failed' },
};

/** A status in its current form: `retired` → `closed` for cards, `aml_pass` → `aml_passed`. */
export function normaliseStatus(list: StatusList, status: string): string {
	return LEGACY_STATUSES[list]?.[status] ?? status;
}

/** Every spelling that means the same as `status` in `list`, its current form first. */
export function statusSpellings(list: StatusList, status: string): string[] {
	const current = normaliseStatus(list, status);
	const legacy = Object.entries(LEGACY_STATUSES[list] ?? {})
		.filter(([, value]) => value === current)
		.map(([key]) => key);
	return [current, ...legacy];
}

/** Whether a status is one the document lists for `list` (legacy spellings included). */
export function isDocumentedStatus(list: StatusList, status: string): boolean {
	return (STATUSES[list] as readonly string[]).includes(status);
}

function label(value: string): string {
	return value
		.split('_')
		.map((word) => (word === 'aml' ? 'AML' : word.charAt(0).toUpperCase() + word.slice(1)))
		.join(' ');
}

/**
 * Options of a status field, sorted by name as n8n's linter asks. A legacy value is offered
 * under its own name with what it equals ("Retired (Legacy, Same as Closed)"), so saved
 * workflows that chose it keep a valid value and users see that the two are one.
 */
export function statusOptions(
	list: StatusList,
	values?: readonly string[],
): INodePropertyOptions[] {
	const legacy = LEGACY_STATUSES[list] ?? {};
	return (values ?? STATUSES[list])
		.map((value) => ({
			name:
				value in legacy
					? `${label(value)} (Legacy, Same as ${label(legacy[value])})`
					: label(value),
			value,
		}))
		.sort((a, b) => a.name.localeCompare(b.name));
}
