import type { ResourceDefinition } from '../types';
import { get } from './get';
import { getBalance } from './getBalance';
import { getMany } from './getMany';
import { getRechargeQuote } from './getRechargeQuote';
import { getSensitiveData } from './getSensitiveData';
import { recharge } from './recharge';
import { request } from './request';

export const card: ResourceDefinition = {
	value: 'card',
	operations: [request, get, getMany, getBalance, getSensitiveData, getRechargeQuote, recharge],
};
