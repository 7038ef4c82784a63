import type { ResourceDefinition } from '../types';
import { resolveOutcome } from './resolveOutcome.operation';

/**
 * Payment: what concerns a payment of any money resource (issue 44.5). Resolve Outcome takes an
 * item of Payout, Card or Order that came out unknown, so it lives once here, beside them.
 */
export const payment: ResourceDefinition = {
	value: 'payment',
	operations: [resolveOutcome],
};
