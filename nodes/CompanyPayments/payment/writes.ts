import { request } from '../card/request.operation';
import { recharge } from '../card/recharge.operation';
import { accept } from '../order/accept.operation';
import { pay } from '../order/pay.operation';
import { cancel } from '../payout/cancel.operation';
import { create } from '../payout/create.operation';
import type { OperationDefinition } from '../types';

/**
 * The money operations whose unknown items Resolve Outcome takes, by the `resource.operation` a
 * sent write names (write.ts). Listed here, not read from resources.ts, which lists this resource
 * too; test/unit/resolve-outcome.test.ts fails when a money operation of the node is missing.
 */
export const MONEY_WRITES: Readonly<Record<string, OperationDefinition>> = {
	'card.recharge': recharge,
	'card.request': request,
	'order.accept': accept,
	'order.pay': pay,
	'payout.cancel': cancel,
	'payout.create': create,
};
