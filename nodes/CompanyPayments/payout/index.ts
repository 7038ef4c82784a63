import type { ResourceDefinition } from '../types';
import { cancel } from './cancel';
import { create } from './create';
import { get } from './get';
import { getMany } from './getMany';

export const payout: ResourceDefinition = {
	value: 'payout',
	operations: [create, get, getMany, cancel],
};
