/*
 * Money in one module (issue 44.1): everything that decides money. A money operation declares its
 * contract (contract.ts) and calls `moneyWrite` (write.ts), which forms the key (key.ts), applies
 * send-once, hands the request to the transport and reads paid / not paid / unknown from the
 * attempts it reports (outcome.ts). Evidence of a payment (evidence.ts) and payment references
 * of tools (reference.ts) read the same contract. The transport (../transport) knows none of it.
 */
export type {
	MoneyContract,
	MoneyDetail,
	MoneyResolve,
	MoneyWrite,
	Tie,
	PaymentOutcome,
	Settled,
} from './contract';
export {
	EVIDENCE_RULES,
	answerDiffers,
	compareDetail,
	differences,
	normaliseArgument,
	readDetails,
} from './evidence';
export type { Difference, DetailKind, Reading } from './evidence';
export {
	IDEMPOTENCY_KEY_MAX_LENGTH,
	PAYMENT_REFERENCE,
	PAYMENT_REFERENCE_LABEL,
	canonicalReference,
	carriedIdentity,
	moneyKey,
	paymentReference,
	retryNote,
	runsAsAgentTool,
	toolExternalId,
	identityText,
} from './key';
export type { OnceFor } from './key';
export {
	IDEMPOTENCY_KEY_REUSED,
	OUTCOME_UNKNOWN,
	markOutcome,
	outcomeFields,
	outcomeUnknownError,
	withOutcome,
} from './outcome';
export { checkReplayedOrder, earlierPaymentFields } from './replay';
export {
	checkDetails,
	conflictError,
	lookUpPayment,
	recordsCarrying,
	unprovenError,
} from './reference';
export type { Found } from './reference';
export {
	earlierWrite,
	firstSend,
	forgetAllSentWrites,
	moneyWrite,
	refusedAfterEarlierSend,
	senderOf,
	noteRegeneratedKey,
	judgedNotPaid,
	withItemSentWrite,
	itemSentWrite,
	withSentWrite,
} from './write';
export type { MoneyCall } from './write';
export { LOOK_AGAIN_MINUTES, bindingProblem, readSentWrite, resolveSentWrite } from './resolve';
export {
	SKEW_MARGIN_MS,
	UNMEASURED_SKEW_MS,
	companyFingerprint,
	createdSince,
	earliestCreated,
	marginWords,
	sealHolds,
	sealOf,
} from './binding';
export type { SentTime } from './binding';
export { knownSkew, observeReport, readMeasured } from './clock';
export { handOver, onePaymentAtATime, paymentWaits, takeBack } from './claim';
export { forgetPendingSend, pendingSend, rememberPending, settlePending } from './pending';
export { MONEY_ACTIONS, MONEY_EXPLANATIONS } from './words';
export type { Resolution, SentWrite } from './resolve';
export { compareSentDetail, readSentDetails } from './sentEvidence';
export { recordReadAgain, statusNotShown } from './readAgain';
export { pickedRecord, readRecordId, recordIdOf } from './recordId';
export type { RecordIdReading } from './recordId';
