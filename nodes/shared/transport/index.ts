export { apiRequest, getBaseUrl, runAccount, CREDENTIAL_NAME } from './request';
export type { ApiContext, ApiRequest, Attempt, Report } from './request';
export {
	LINE_BREAK,
	plainDescription,
	serviceError,
	serviceErrorInfo,
	readServiceError,
	describe as describeServiceError,
	isServiceErrorBody,
} from './serviceError';
export { networkFailure } from './network';
export type { NetworkFailure, NetworkFailureKind } from './network';
export { environmentLabel, environmentMismatch, environmentOf } from './environment';
export type { Environment } from './environment';
export type { ServiceErrorInfo } from './serviceError';
