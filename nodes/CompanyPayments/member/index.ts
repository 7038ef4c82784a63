import type { ResourceDefinition } from '../types';
import { getMany } from './getMany';
import { remove } from './remove';
import { update } from './update';

export const member: ResourceDefinition = {
	value: 'member',
	operations: [getMany, update, remove],
};
