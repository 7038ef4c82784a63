import type { ResourceDefinition } from '../types';
import { block } from './block.operation';
import { createOrGet } from './createOrGet.operation';
import { getBlocked } from './getBlocked.operation';
import { getDeposits } from './getDeposits.operation';
import { getMany } from './getMany.operation';
import { replace } from './replace.operation';

export const userWallet: ResourceDefinition = {
	value: 'userWallet',
	operations: [createOrGet, getMany, getBlocked, block, replace, getDeposits],
};
