import type { ResourceDefinition } from '../types';
import { create } from './create';
import { getMany } from './getMany';

export const dispute: ResourceDefinition = {
	value: 'dispute',
	operations: [create, getMany],
};
