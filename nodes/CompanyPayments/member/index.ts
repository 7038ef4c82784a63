import type { ResourceDefinition } from '../types';
import { getMany } from './getMany.operation';
import { remove } from './remove.operation';
import { update } from './update.operation';

export const member: ResourceDefinition = {
	value: 'member',
	operations: [getMany, update, remove],
};
