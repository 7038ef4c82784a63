import type { ResourceDefinition } from '../types';
import { accept } from './accept.operation';
import { create } from './create.operation';
import { getMany } from './getMany.operation';
import { preview } from './preview.operation';
import { revoke } from './revoke.operation';

export const invite: ResourceDefinition = {
	value: 'invite',
	operations: [create, getMany, revoke, preview, accept],
};
