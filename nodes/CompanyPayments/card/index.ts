import type { ResourceDefinition } from '../types';
import { get } from './get.operation';
import { getBalance } from './getBalance.operation';
import { getMany } from './getMany.operation';
import { getRechargeQuote } from './getRechargeQuote.operation';
import { getSensitiveData } from './getSensitiveData.operation';
import { recharge } from './recharge.operation';
import { request } from './request.operation';

export const card: ResourceDefinition = {
	value: 'card',
	operations: [request, get, getMany, getBalance, getSensitiveData, getRechargeQuote, recharge],
};
