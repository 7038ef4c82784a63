import type { ResourceDefinition } from '../types';
import { block } from './block';
import { createOrGet } from './createOrGet';
import { getBlocked } from './getBlocked';
import { getDeposits } from './getDeposits';
import { getMany } from './getMany';
import { replace } from './replace';

export const userWallet: ResourceDefinition = {
	value: 'userWallet',
	operations: [createOrGet, getMany, getBlocked, block, replace, getDeposits],
};
