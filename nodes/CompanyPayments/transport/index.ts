export { apiRequest, getBaseUrl, CREDENTIAL_NAME } from './request';
export type { ApiContext, ApiRequest } from './request';
export { listRecords, readPage } from './pagination';
export type { ListRequest, Page } from './pagination';
export { idempotencyKey, IDEMPOTENCY_KEY_MAX_LENGTH } from './idempotency';
export { serviceError, serviceErrorInfo, readServiceError } from './serviceError';
export type { ServiceErrorInfo } from './serviceError';
