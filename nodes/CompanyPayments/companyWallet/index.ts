import type { ResourceDefinition } from '../types';
import { getAddress } from './getAddress';
import { getBalance } from './getBalance';
import { getBalanceHistory } from './getBalanceHistory';
import { getDeposits } from './getDeposits';

export const companyWallet: ResourceDefinition = {
	value: 'companyWallet',
	operations: [getAddress, getBalance, getDeposits, getBalanceHistory],
};
