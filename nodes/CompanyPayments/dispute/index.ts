import type { ResourceDefinition } from '../types';
import { create } from './create.operation';
import { getMany } from './getMany.operation';

export const dispute: ResourceDefinition = {
	value: 'dispute',
	operations: [create, getMany],
};
