export { apiRequest, getBaseUrl, CREDENTIAL_NAME } from './request';
export type { ApiContext, ApiRequest } from './request';
export { IDEMPOTENCY_KEY_MAX_LENGTH } from './idempotency';
export {
	LINE_BREAK,
	plainDescription,
	serviceError,
	serviceErrorInfo,
	readServiceError,
} from './serviceError';
export { networkFailure } from './network';
export type { NetworkFailure, NetworkFailureKind } from './network';
export { environmentLabel, environmentMismatch, environmentOf } from './environment';
export type { Environment } from './environment';
export type { ServiceErrorInfo } from './serviceError';
export { OUTCOME_UNKNOWN, markOutcome, outcomeFields, outcomeUnknownError } from './outcome';
export type { MoneyWrite, PaymentOutcome } from './outcome';
