import type { ResourceDefinition } from '../types';
import { getAddress } from './getAddress.operation';
import { getBalance } from './getBalance.operation';
import { getBalanceHistory } from './getBalanceHistory.operation';
import { getDeposits } from './getDeposits.operation';

export const companyWallet: ResourceDefinition = {
	value: 'companyWallet',
	operations: [getAddress, getBalance, getDeposits, getBalanceHistory],
};
