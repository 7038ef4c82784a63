import type { ResourceDefinition } from '../types';
import { cancel } from './cancel.operation';
import { create } from './create.operation';
import { get } from './get.operation';
import { getMany } from './getMany.operation';

export const payout: ResourceDefinition = {
	value: 'payout',
	operations: [create, get, getMany, cancel],
};
