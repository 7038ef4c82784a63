import type { IDataObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { changeKey, COMPANY_SCOPE } from '../shared/changeKey';
import type { ApiContext } from '../shared/transport';
import { apiRequest } from '../shared/transport';
import type { Change, PollOnlyEvent } from './types';
import { ENDPOINTS } from '../shared/contract/endpoints';
import { compareDecimal, decimalText } from '../shared/decimal';
import { quoteJson } from '../shared/gate';
import { QUOTE_LIMIT } from '../shared/transport/serviceError';

export const BALANCE_BELOW_THRESHOLD: PollOnlyEvent = 'balance.below_threshold';

export interface BalanceReading {
	/**
	 * `usdtBalance` as the answer holds it, the action node's Get Balance form: a number a double
	 * gives back exactly, else the text as written (shared/transport/json.ts), never rounded.
	 */
	usdtBalance: number | string;
	frozenBalance: unknown;
	below: boolean;
}

function unwrap(body: unknown): IDataObject {
	if (typeof body !== 'object' || body === null || Array.isArray(body)) return {};
	const object = body as IDataObject;
	if ('usdtBalance' in object) return object;
	for (const key of ['balance', 'data']) {
		const inner = object[key];
		if (typeof inner === 'object' && inner !== null && 'usdtBalance' in (inner as IDataObject)) {
			return inner as IDataObject;
		}
	}
	return object;
}

/**
 * Reads GET /wallets/balance and compares `usdtBalance` (a number or a decimal text) with the
 * threshold on their written digits (shared/decimal.ts): `99.99999999999999999` is below 100.
 */
export async function readBalance(ctx: ApiContext, threshold: number): Promise<BalanceReading> {
	const body = unwrap(await apiRequest.call(ctx, { method: 'GET', path: ENDPOINTS.walletBalance }));
	const raw = body.usdtBalance;
	const text = decimalText(raw);
	if (text === null || (typeof raw !== 'number' && typeof raw !== 'string')) {
		throw new NodeApiError(
			ctx.getNode(),
			{ body: quoteJson(ctx, body, QUOTE_LIMIT) },
			{
				message: 'The answer of GET /wallets/balance has no numeric usdtBalance',
				description: `usdtBalance was ${JSON.stringify(raw)}`,
			},
		);
	}
	return {
		usdtBalance: raw,
		frozenBalance: body.frozenBalance ?? null,
		below: compareDecimal(text, String(threshold)) < 0,
	};
}

/**
 * The item of one crossing below the threshold. No webhook announces it; its key names the
 * poll that saw the crossing, so each crossing has its own (`identity()` of the company's
 * balance, like every change key).
 */
export function balanceChange(
	reading: BalanceReading,
	threshold: number,
	polledAt: string,
): Change {
	return {
		event: BALANCE_BELOW_THRESHOLD,
		changeKey: changeKey('balance', COMPANY_SCOPE, ['usdt', 'below', polledAt]),
		fields: {
			usdtBalance: reading.usdtBalance,
			frozenBalance: reading.frozenBalance as IDataObject[string],
			threshold,
		},
	};
}
