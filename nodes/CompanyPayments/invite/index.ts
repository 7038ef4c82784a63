import type { ResourceDefinition } from '../types';
import { accept } from './accept';
import { create } from './create';
import { getMany } from './getMany';
import { preview } from './preview';
import { revoke } from './revoke';

export const invite: ResourceDefinition = {
	value: 'invite',
	operations: [create, getMany, revoke, preview, accept],
};
