export { toolCatalog, toolEntry } from './catalog';
export type { ToolEntry, ToolKind } from './catalog';
export { compactFields, compactRecord, refusal } from './guard';
export type { Refusal } from './guard';
export { HIDDEN, maskForModel } from '../../shared/gate';
export { ALLOW_MONEY, COMPACT_OUTPUT, toolProperties } from './properties';
export { checkDetails, conflictError, differences, lookUpPayment } from '../../shared/money';
export type { Difference } from '../../shared/money';
